// maproom style (docs/styles.md) -> MapLibre layers. Pure functions: no map, no DOM.

const PREFIX = "mr-";
// The colours come from the server's styles (maproom/domain/styles.py), handed to the page
// once (`configure`), so they are written in one place.
let DEFAULT_COLOR = "#3b82f6";
let PALETTE = [DEFAULT_COLOR];
let DEFAULT_RAMP = [];

export function configure(palette) {
  if (!palette) return;
  DEFAULT_COLOR = palette.accent;
  PALETTE = palette.categories;
  DEFAULT_RAMP = palette.ramp;
}
const FAMILIES = { circle: "Point", line: "LineString", fill: "Polygon" };

export function layerIds(layer) {
  const base = `${PREFIX}${layer.layer_id}`;
  return ["heat", "fill", "outline", "line", "circle", "raster", "label"].map((k) => `${base}-${k}`);
}

export function sourceId(layer) {
  return `${PREFIX}${layer.layer_id}`;
}

export function source(layer) {
  if (layer.layer_type === "geojson") {
    if (layer.streaming) {
      return { type: "vector", tiles: [layer.url], minzoom: 0, maxzoom: 14 };
    }
    return { type: "geojson", data: layer.url };
  }
  const options = layer.options || {};
  return { type: "raster", tiles: [layer.url], tileSize: options.tile_size || 256,
    ...(options.attribution ? { attribution: String(options.attribution) } : {}) };
}

const number = (field) => ["to-number", ["get", field], 0];

// A colour (or other paint) expression for one paint key, by renderer type.
function classed(renderer, key, fallback) {
  const base = (renderer.paint || {})[key] ?? fallback;
  const value = (paint) => (paint || {})[key] ?? base;
  if (renderer.type === "categorized" && renderer.field && (renderer.categories || []).length) {
    const expr = ["match", ["to-string", ["get", renderer.field]]];
    const seen = new Set();
    for (const cat of renderer.categories) {
      const label = String(cat.value);
      if (seen.has(label)) continue;
      seen.add(label);
      expr.push(label, value(cat.paint));
    }
    expr.push(value(renderer.default));
    return expr;
  }
  if (renderer.type === "graduated" && renderer.field && (renderer.ranges || []).length) {
    const ranges = [...renderer.ranges].sort((a, b) => a.from - b.from);
    const expr = ["step", number(renderer.field), value(ranges[0].paint)];
    for (const range of ranges.slice(1)) expr.push(range.from, value(range.paint));
    return expr;
  }
  if (renderer.type === "interpolated" && renderer.field && (renderer.stops || []).length > 1) {
    const how = renderer.interpolation === "exponential"
      ? ["exponential", renderer.base ?? 2] : ["linear"];
    const expr = ["interpolate", how, number(renderer.field)];
    for (const stop of renderer.stops) expr.push(stop.value, value(stop.paint));
    return expr;
  }
  if ((renderer.type === "multi_field" || renderer.type === "chart") && key.endsWith("-color")) {
    return (renderer.colors || PALETTE)[0];
  }
  return base;
}

function paintFor(renderer, family) {
  const defaults = {
    circle: { "circle-color": DEFAULT_COLOR, "circle-radius": 5, "circle-opacity": 0.9,
      "circle-stroke-color": "#ffffff", "circle-stroke-width": 1, "circle-stroke-opacity": 1 },
    line: { "line-color": DEFAULT_COLOR, "line-width": 2, "line-opacity": 0.9 },
    fill: { "fill-color": DEFAULT_COLOR, "fill-opacity": 0.45 },
  }[family];
  const paint = {};
  for (const [key, fallback] of Object.entries(defaults)) {
    paint[key] = classed(renderer, key, fallback);
  }
  if (family === "line" && (renderer.paint || {})["line-dasharray"]) {
    paint["line-dasharray"] = renderer.paint["line-dasharray"];
  }
  if (family === "circle" && (renderer.type === "chart" || renderer.type === "multi_field")) {
    paint["circle-radius"] = renderer.size ?? 8;
  }
  if (family === "circle" && renderer.outline) {
    const o = renderer.outline;
    if (o.color) paint["circle-stroke-color"] = o.color;
    if (o.width !== undefined) paint["circle-stroke-width"] = o.width;
    if (o.opacity !== undefined) paint["circle-stroke-opacity"] = o.opacity;
  }
  return paint;
}

function outlinePaint(renderer) {
  const p = renderer.paint || {};
  const o = renderer.outline || {};
  const paint = {
    "line-color": o.color ?? p["_outline-color"] ?? "#1e3a8a",
    "line-width": o.width ?? p["_outline-width"] ?? 1,
    "line-opacity": o.opacity ?? p["_outline-opacity"] ?? 0.9,
  };
  if (o.dash) paint["line-dasharray"] = o.dash.split(",").map(Number);
  return paint;
}

function heatmapPaint(renderer) {
  const ramp = (renderer.colorStops && renderer.colorStops.length) ? renderer.colorStops : DEFAULT_RAMP;
  const color = ["interpolate", ["linear"], ["heatmap-density"]];
  ramp.forEach((stop, i) => {
    // The lowest density stays transparent so the basemap shows through.
    color.push(stop.value, i === 0 && stop.value === 0 ? "rgba(0,0,0,0)" : stop.color);
  });
  return {
    "heatmap-color": color,
    "heatmap-radius": renderer.radius ?? 20,
    "heatmap-opacity": renderer.opacity ?? 0.8,
    "heatmap-intensity": renderer.intensity ?? 1,
    "heatmap-weight": renderer.weightField ? ["to-number", ["get", renderer.weightField], 1] : 1,
  };
}

const geometryIs = (type) => ["any",
  ["==", ["geometry-type"], type], ["==", ["geometry-type"], `Multi${type}`]];

// The MapLibre layers drawing one maproom layer, bottom first.
export function mapLayers(layer) {
  const ids = layerIds(layer);
  const [heat, fill, outline, line, circle, raster, label] = ids;
  const common = { source: sourceId(layer),
    layout: { visibility: layer.visible ? "visible" : "none" } };
  if (layer.streaming) common["source-layer"] = "layer";
  if (layer.layer_type !== "geojson") {
    const options = layer.options || {};
    const paint = { "raster-opacity": options.opacity ?? 1 };
    return [{ id: raster, type: "raster", ...common, paint,
      ...(options.min_zoom !== undefined ? { minzoom: options.min_zoom } : {}),
      ...(options.max_zoom !== undefined ? { maxzoom: options.max_zoom } : {}) }];
  }
  const renderer = (layer.style || {}).renderer || { type: "single", paint: {} };
  if (renderer.type === "heatmap") {
    return [{ id: heat, type: "heatmap", ...common, paint: heatmapPaint(renderer) }];
  }
  const g = layer.geometry_type;
  const wants = (family) => g === "mixed" || !g || FAMILIES[family] === g;
  const out = [];
  if (wants("fill")) {
    out.push({ id: fill, type: "fill", ...common, filter: geometryIs("Polygon"),
      paint: paintFor(renderer, "fill") });
    out.push({ id: outline, type: "line", ...common, filter: geometryIs("Polygon"),
      paint: outlinePaint(renderer) });
  }
  if (wants("line")) {
    out.push({ id: line, type: "line", ...common, filter: geometryIs("LineString"),
      paint: paintFor(renderer, "line") });
  }
  if (wants("circle")) {
    out.push({ id: circle, type: "circle", ...common, filter: geometryIs("Point"),
      paint: paintFor(renderer, "circle") });
  }
  const text = (layer.style || {}).label || {};
  if (text.visible !== false && text.field && layer.glyphs) {
    out.push({ id: label, type: "symbol", ...common,
      layout: { ...common.layout, "text-field": ["to-string", ["get", text.field]],
        "text-size": text.size ?? 12, "text-offset": [0, 1.2] },
      paint: { "text-color": text.color ?? "#111827", "text-halo-color": text.haloColor ?? "#ffffff",
        "text-halo-width": text.haloWidth ?? 1 },
      ...(text.minZoom !== undefined ? { minzoom: text.minZoom } : {}) });
  }
  return out;
}

export const colorOf = (paint) =>
  (paint || {})["fill-color"] || (paint || {})["line-color"] || (paint || {})["circle-color"] || DEFAULT_COLOR;
