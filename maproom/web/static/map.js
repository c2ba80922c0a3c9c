// The maproom map page: draws a project's state with MapLibre and, on the live page, follows
// the project's event stream. Exposes window.maproom = {map, lastEventId, state}.
import { colorOf, layerIds, mapLayers, source, sourceId } from "./style.js";

const BLANK = {
  version: 8,
  name: "blank",
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#eef1f4" } }],
};
// Public styles for the named basemaps, used when the browser can reach them; `blank` (and any
// style that fails to load within a few seconds) is drawn locally.
const BASEMAPS = {
  light: "https://tiles.openfreemap.org/styles/positron",
  streets: "https://tiles.openfreemap.org/styles/liberty",
  dark: "https://tiles.openfreemap.org/styles/dark",
  satellite: {
    version: 8,
    sources: { esri: { type: "raster", tileSize: 256, attribution: "Esri World Imagery",
      tiles: ["https://server.arcgisonline.com/ArcGIS/rest/services/World_Imagery/MapServer/tile/{z}/{y}/{x}"] } },
    layers: [{ id: "satellite", type: "raster", source: "esri" }],
  },
};
const CATEGORY_MATCH = {
  water: /water|ocean|sea|lake|river/i, land: /land|earth|background/i, parks: /park|green|wood|forest|grass/i,
  roads: /road|street|highway|motorway|transport|bridge|tunnel/i, buildings: /building/i,
  boundaries: /boundar|admin|border/i, labels: /label|place|name|poi/i,
};
const WORLD = [[-180, -85.06], [180, -85.06], [180, 85.06], [-180, 85.06], [-180, -85.06]];

const page = { map: null, state: null, basemapKey: null, stateUrl: null, base: null };
window.maproom = { map: null, lastEventId: null, state: null };

async function fetchJson(url, timeoutMs = 8000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(url, { signal: controller.signal, cache: "no-store" });
    if (!response.ok) throw new Error(`${response.status} ${url}`);
    return await response.json();
  } finally {
    clearTimeout(timer);
  }
}

async function basemapStyle(basemap) {
  const wanted = (basemap && basemap.style) || "blank";
  const target = BASEMAPS[wanted] ?? (wanted.startsWith("http") ? wanted : null);
  if (!target) return BLANK;
  if (typeof target === "object") return navigator.onLine ? target : BLANK;
  try {
    return await fetchJson(target, 3000);
  } catch {
    return BLANK; // offline, or the style server is down: the map still draws
  }
}

function applyCategories(map, basemap) {
  const categories = (basemap && basemap.categories) || {};
  for (const layer of map.getStyle().layers || []) {
    if (layer.id.startsWith("mr-")) continue;
    const key = `${layer.id} ${layer["source-layer"] || ""}`;
    for (const [name, override] of Object.entries(categories)) {
      if (!CATEGORY_MATCH[name] || !CATEGORY_MATCH[name].test(key)) continue;
      if (override.visible !== undefined) {
        map.setLayoutProperty(layer.id, "visibility", override.visible ? "visible" : "none");
      }
      if (override.color) {
        const prop = { fill: "fill-color", line: "line-color", background: "background-color",
          symbol: "text-color", circle: "circle-color" }[layer.type];
        if (prop) map.setPaintProperty(layer.id, prop, override.color);
      }
    }
  }
}

function removeOverlays(map) {
  for (const layer of [...(map.getStyle().layers || [])]) {
    if (layer.id.startsWith("mr-")) map.removeLayer(layer.id);
  }
  for (const id of Object.keys(map.getStyle().sources || {})) {
    if (id.startsWith("mr-")) map.removeSource(id);
  }
}

function maskFeature(rings) {
  return { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [WORLD, ...rings] } };
}

function outerRings(geometry) {
  if (!geometry) return [];
  if (geometry.type === "Polygon") return [geometry.coordinates[0]];
  if (geometry.type === "MultiPolygon") return geometry.coordinates.map((p) => p[0]);
  if (geometry.type === "Feature") return outerRings(geometry.geometry);
  if (geometry.type === "FeatureCollection") return geometry.features.flatMap((f) => outerRings(f.geometry));
  return [];
}

async function addMask(map, id, rings, color) {
  if (!rings.length) return;
  map.addSource(id, { type: "geojson", data: maskFeature(rings) });
  map.addLayer({ id, type: "fill", source: id, paint: { "fill-color": color || "#000000", "fill-opacity": 0.6 } });
}

async function drawMasks(map, mapState) {
  const country = mapState.countryMask;
  if (country && country.visible !== false && country.countryCode) {
    try {
      const shape = await fetchJson(`${page.base}/countries/${country.countryCode}.geojson`);
      await addMask(map, "mr-mask-country", outerRings(shape), country.color);
    } catch (error) {
      console.warn("country mask", error);
    }
  }
  const custom = mapState.customMask;
  if (custom && custom.geojson) {
    try {
      const shape = typeof custom.geojson === "string" ? JSON.parse(custom.geojson) : custom.geojson;
      await addMask(map, "mr-mask-custom", outerRings(shape), custom.color);
    } catch (error) {
      console.warn("custom mask", error);
    }
  }
}

function drawLegend(layers) {
  const box = document.getElementById("legend");
  box.replaceChildren();
  for (const layer of layers) {
    if (!layer.visible || !(layer.legendItems || []).length) continue;
    const title = document.createElement("h4");
    title.textContent = layer.name;
    box.append(title);
    for (const item of layer.legendItems) {
      const row = document.createElement("div");
      row.className = "item";
      if (item.ramp) {
        const ramp = document.createElement("div");
        ramp.className = "ramp";
        ramp.style.width = "120px";
        const stops = item.ramp.map((s) => s.color).filter(Boolean);
        ramp.style.background = `linear-gradient(to right, ${stops.join(", ") || "#ccc, #333"})`;
        row.append(ramp);
      } else {
        const swatch = document.createElement("span");
        swatch.className = "swatch";
        swatch.style.background = colorOf(item.paint);
        row.append(swatch);
      }
      const label = document.createElement("span");
      label.textContent = item.label ?? "";
      row.append(label);
      box.append(row);
    }
  }
  box.hidden = !box.childElementCount;
}

async function drawOverlays(map, state) {
  removeOverlays(map);
  applyCategories(map, state.project.mapState.basemap);
  const glyphs = Boolean(map.getStyle().glyphs);
  for (const layer of [...state.layers].reverse()) { // bottom first
    if (!layer.url) continue;
    map.addSource(sourceId(layer), source(layer));
    for (const spec of mapLayers({ ...layer, glyphs })) map.addLayer(spec);
  }
  await drawMasks(map, state.project.mapState);
  drawLegend(state.layers);
}

async function render(state, { camera = false } = {}) {
  page.state = state;
  window.maproom.state = state;
  const mapState = state.project.mapState;
  const basemap = mapState.basemap || { style: "blank" };
  const key = JSON.stringify(basemap.style);
  const map = page.map;
  if (camera) {
    map.jumpTo({ center: mapState.center, zoom: mapState.zoom, bearing: mapState.bearing || 0,
      pitch: mapState.pitch || 0 });
  }
  if (key !== page.basemapKey) {
    page.basemapKey = key;
    const style = await basemapStyle(basemap);
    await new Promise((resolve) => {
      map.once("style.load", resolve);
      map.setStyle(style, { diff: false });
    });
  }
  await drawOverlays(map, state);
}

function toast(html) {
  const box = document.getElementById("toasts");
  const note = document.createElement("div");
  note.className = "toast";
  note.innerHTML = html;
  box.append(note);
  setTimeout(() => note.remove(), 6000);
}

function escape(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function refresh() {
  await render(await fetchJson(page.stateUrl));
}

// The live stream: EventSource resumes by itself with Last-Event-ID after a dropped
// connection; when the server refuses a reconnect (or the source closes) we open a new one
// with ?lastEventId= after a growing pause.
function follow(eventsUrl) {
  let delay = 1000;
  let queue = Promise.resolve();
  const run = (id, task) => {
    queue = queue.then(task).catch((e) => console.warn(e)).then(() => {
      if (id) window.maproom.lastEventId = Number(id);
    });
  };
  const connect = () => {
    const last = window.maproom.lastEventId;
    const url = last !== null ? `${eventsUrl}?lastEventId=${last}` : eventsUrl;
    const events = new EventSource(url);
    events.addEventListener("open", () => { delay = 1000; });
    events.addEventListener("snapshot", (e) => run(e.lastEventId, () => render(JSON.parse(e.data), { camera: true })));
    events.addEventListener("action", (e) => run(e.lastEventId, () => applyAction(JSON.parse(e.data))));
    // `mapState` was published by maproom before every map change became an `action`; a log
    // written then may still be replayed on resume.
    events.addEventListener("mapState", (e) => run(e.lastEventId, async () => {
      const view = JSON.parse(e.data).mapState;
      if (view) page.map.jumpTo({ center: view.center, zoom: view.zoom, bearing: view.bearing, pitch: view.pitch });
      await refresh();
    }));
    for (const kind of ["layer", "file", "project"]) {
      events.addEventListener(kind, (e) => run(e.lastEventId, refresh));
    }
    events.addEventListener("file_generated", (e) => run(e.lastEventId, () => {
      const data = JSON.parse(e.data);
      const link = data.url ? ` <a href="${escape(data.url)}" target="_blank" rel="noopener">open</a>` : "";
      toast(`New file: ${escape(data.file_name || data.description || "report")}${link}`);
    }));
    events.addEventListener("error", () => {
      if (events.readyState === EventSource.CLOSED) {
        setTimeout(connect, delay);
        delay = Math.min(delay * 2, 30000);
      }
    });
  };
  connect();
}

async function applyAction(action) {
  const map = page.map;
  if (action.type === "fly_to") {
    map.flyTo({ center: action.center, zoom: action.zoom ?? map.getZoom(),
      bearing: action.bearing ?? map.getBearing(), pitch: action.pitch ?? map.getPitch() });
  } else if (action.type === "jump_to") {
    map.jumpTo({ center: action.center, zoom: action.zoom ?? map.getZoom(),
      bearing: action.bearing ?? map.getBearing(), pitch: action.pitch ?? map.getPitch() });
  } else if (action.type === "file_generated") {
    toast(`New file: ${escape(action.file_name)}`);
  } else {
    const state = await fetchJson(page.stateUrl);
    const cameraMoves = ["fit_bounds", "go_home", "zoom_in", "zoom_out", "pan", "zoom_to_layer"];
    if (cameraMoves.includes(action.type)) {
      const v = state.project.mapState;
      map.easeTo({ center: v.center, zoom: v.zoom, bearing: v.bearing, pitch: v.pitch });
    }
    await render(state);
  }
}

export async function start({ stateUrl, eventsUrl }) {
  page.stateUrl = stateUrl;
  page.base = stateUrl.replace(/\/state$/, "");
  const map = new maplibregl.Map({ container: "map", style: BLANK, attributionControl: { compact: true } });
  map.addControl(new maplibregl.NavigationControl(), "top-left");
  page.map = map;
  window.maproom.map = map;
  await new Promise((resolve) => (map.loaded() ? resolve() : map.once("load", resolve)));
  if (eventsUrl) {
    follow(eventsUrl); // the snapshot draws the first state
  } else {
    await render(await fetchJson(stateUrl), { camera: true });
  }
  window.maproom.ready = true;
}
