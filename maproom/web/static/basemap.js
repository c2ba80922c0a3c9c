// Basemaps: the networked styles, maproom's own `offline` basemap (served by maproom from the
// Natural Earth data it ships), the fallback to it when a networked one cannot load, and the
// basemap categories (spec: set_basemap_category).
import { fetchJson } from "./fetchjson.js";
import { notice } from "./notices.js";

export const BLANK = {
  version: 8,
  name: "blank",
  sources: {},
  layers: [{ id: "background", type: "background", paint: { "background-color": "#eef1f4" } }],
};
const NETWORKED = {
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
export const OFFLINE_COLORS = { water: "#a9cfe0", land: "#f4f1ea", boundaries: "#9a97a8" };

export function offlineStyle(origin) {
  const source = "maproom-basemap";
  const common = { source, "source-layer": "countries" };
  return {
    version: 8,
    name: "offline",
    sources: {
      [source]: { type: "vector", tiles: [`${origin}/basemap/offline/{z}/{x}/{y}.pbf`],
        minzoom: 0, maxzoom: 10, attribution: "Natural Earth (offline basemap by maproom)" },
    },
    layers: [
      { id: "water", type: "background", paint: { "background-color": OFFLINE_COLORS.water } },
      { id: "land", type: "fill", ...common, paint: { "fill-color": OFFLINE_COLORS.land } },
      { id: "boundaries", type: "line", ...common,
        paint: { "line-color": OFFLINE_COLORS.boundaries, "line-width": ["interpolate", ["linear"], ["zoom"], 1, 0.5, 8, 1.5] } },
    ],
  };
}

// The style to draw for a map state's basemap; a networked one that cannot load gives way to
// the offline basemap, and the page says so.
export async function basemapStyle(basemap, origin) {
  const wanted = (basemap && basemap.style) || "blank";
  if (wanted === "blank") return BLANK;
  if (wanted === "offline") return offlineStyle(origin);
  const target = NETWORKED[wanted] ?? (wanted.startsWith("http") ? wanted : null);
  if (!target) return offlineStyle(origin);
  try {
    if (typeof target === "object") {
      if (!navigator.onLine) throw new Error("offline");
      return target;
    }
    return await fetchJson(target, 3000, { referrerPolicy: "no-referrer" });
  } catch {
    const name = NETWORKED[wanted] ? `“${wanted}”` : "chosen";
    notice("basemap", `The ${name} basemap could not be loaded (no internet?); showing maproom's offline basemap.`);
    return offlineStyle(origin);
  }
}

export function applyCategories(map, basemap) {
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
