// Masks (spec: set_country_mask, custom masks): everything outside the country or polygon is
// shaded, drawn above the basemap and beneath every data layer.
import { fetchJson } from "./fetchjson.js";

const WORLD = [[-180, -85.06], [180, -85.06], [180, 85.06], [-180, 85.06], [-180, -85.06]];
export const MASK_PREFIX = "mr-mask-";

function outerRings(geometry) {
  if (!geometry) return [];
  if (geometry.type === "Polygon") return [geometry.coordinates[0]];
  if (geometry.type === "MultiPolygon") return geometry.coordinates.map((p) => p[0]);
  if (geometry.type === "Feature") return outerRings(geometry.geometry);
  if (geometry.type === "FeatureCollection") return geometry.features.flatMap((f) => outerRings(f.geometry));
  return [];
}

// The lowest data layer: masks go just beneath it (or on top of the basemap if none).
function lowestDataLayer(map) {
  const found = (map.getStyle().layers || []).find((l) => l.id.startsWith("mr-") && !l.id.startsWith(MASK_PREFIX));
  return found ? found.id : undefined;
}

function addMask(map, name, rings, color) {
  if (!rings.length) return;
  const id = `${MASK_PREFIX}${name}`;
  const feature = { type: "Feature", properties: {}, geometry: { type: "Polygon", coordinates: [WORLD, ...rings] } };
  const outline = { type: "Feature", properties: {}, geometry: { type: "MultiLineString", coordinates: rings } };
  map.addSource(id, { type: "geojson", data: feature });
  map.addSource(`${id}-outline`, { type: "geojson", data: outline });
  const below = lowestDataLayer(map);
  map.addLayer({ id, type: "fill", source: id, paint: { "fill-color": color || "#000000", "fill-opacity": 0.6 } }, below);
  map.addLayer({ id: `${id}-outline`, type: "line", source: `${id}-outline`,
    paint: { "line-color": color || "#000000", "line-width": 1, "line-opacity": 0.8 } }, below);
}

export async function drawMasks(map, mapState, base) {
  const country = mapState.countryMask;
  if (country && country.visible !== false && country.countryCode) {
    try {
      const shape = await fetchJson(`${base}/countries/${country.countryCode}.geojson`);
      addMask(map, "country", outerRings(shape), country.color);
    } catch (error) {
      console.warn("country mask", error);
    }
  }
  const custom = mapState.customMask;
  if (custom && custom.geojson) {
    try {
      const shape = typeof custom.geojson === "string" ? JSON.parse(custom.geojson) : custom.geojson;
      addMask(map, "custom", outerRings(shape), custom.color);
    } catch (error) {
      console.warn("custom mask", error);
    }
  }
}
