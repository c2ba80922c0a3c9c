// Feature popups: a click on a feature of a vector layer shows its properties as a table of
// text (never HTML); the pointer shows what can be clicked. `?popups=0` in the page URL turns
// them off for embedders.
const MASK_PREFIX = "mr-mask-";
const CLICKABLE = /-(fill|line|circle)$/;

function clickableLayers(map) {
  return (map.getStyle().layers || [])
    .filter((l) => l.id.startsWith("mr-") && !l.id.startsWith(MASK_PREFIX) && CLICKABLE.test(l.id))
    .map((l) => l.id);
}

function featureAt(map, point) {
  const layers = clickableLayers(map);
  if (!layers.length) return null;
  return map.queryRenderedFeatures(point, { layers })[0] || null;
}

export function propertiesTable(properties) {
  const table = document.createElement("table");
  table.className = "properties";
  for (const [key, value] of Object.entries(properties || {})) {
    const row = table.insertRow();
    const name = document.createElement("th");
    name.textContent = key;
    const cell = row.insertCell();
    cell.textContent = value !== null && typeof value === "object" ? JSON.stringify(value) : String(value ?? "");
    row.prepend(name);
  }
  if (!table.rows.length) table.insertRow().insertCell().textContent = "(no properties)";
  return table;
}

export function enablePopups(map) {
  if (new URLSearchParams(location.search).get("popups") === "0") return;
  map.on("mousemove", (e) => {
    map.getCanvas().style.cursor = featureAt(map, e.point) ? "pointer" : "";
  });
  map.on("click", (e) => {
    const feature = featureAt(map, e.point);
    if (!feature) return;
    new maplibregl.Popup({ maxWidth: "320px" })
      .setLngLat(e.lngLat)
      .setDOMContent(propertiesTable(feature.properties))
      .addTo(map);
  });
}
