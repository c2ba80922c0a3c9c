// The maproom map page: draws the project's compiled MapLibre style (the server writes every
// rule of how a project is drawn: docs/open-formats.md) and, on the live page, follows the
// project's event stream by fetching that style again. Exposes
// window.maproom = {map, style, lastEventId, ready}.
//   notices.js  legend, toasts, notices      popups.js   feature popups
//   stream.js   the live stream              fetchjson.js  one JSON fetch with a timeout
import { fetchJson } from "./fetchjson.js";
import { drawLegend, link, notice, toast } from "./notices.js";
import { enablePopups } from "./popups.js";
import { follow } from "./stream.js";

const page = { map: null, styleUrl: null };
window.maproom = { map: null, lastEventId: null, style: null };

// The project's style is never taken from the browser's cache.
const fetchStyle = () => fetchJson(page.styleUrl, 8000, { cache: "no-store" });

const viewOf = (style) => ({ center: style.center, zoom: style.zoom, bearing: style.bearing,
  pitch: style.pitch });

function draw(style, { camera = false } = {}) {
  window.maproom.style = style;
  document.title = style.name || "maproom";
  const map = page.map;
  map.setStyle(style, { diff: true });
  if (camera) map.jumpTo(viewOf(style));
  const meta = style.metadata || {};
  const basemap = meta["maproom:basemap"] || {};
  if (basemap.fallback) {
    const name = basemap.style && !basemap.style.startsWith("http") ? `“${basemap.style}”` : "chosen";
    notice("basemap", `The ${name} basemap could not be loaded (no internet?); showing maproom's offline basemap.`);
  }
  drawLegend(meta["maproom:legend"] || []);
}

async function refresh(options) {
  draw(await fetchStyle(), options);
}

function announceFile(data) {
  const parts = [`New file: ${data.file_name || data.description || "report"} `];
  if (data.url) parts.push(link("open", data.url));
  toast(parts);
}

const CAMERA_MOVES = ["fit_bounds", "go_home", "zoom_in", "zoom_out", "pan", "zoom_to_layer"];
// A step through the history may change anything: the page takes the whole style again and
// jumps to its view.
const HISTORY_STEPS = ["undo", "redo"];

async function applyAction(action) {
  const map = page.map;
  const camera = { zoom: action.zoom ?? map.getZoom(), bearing: action.bearing ?? map.getBearing(),
    pitch: action.pitch ?? map.getPitch() };
  if (action.type === "fly_to") {
    map.flyTo({ center: action.center, ...camera });
  } else if (action.type === "jump_to") {
    map.jumpTo({ center: action.center, ...camera });
  } else if (action.type === "file_generated") {
    announceFile(action);
  } else if (HISTORY_STEPS.includes(action.type)) {
    await refresh({ camera: true });
  } else {
    const style = await fetchStyle();
    draw(style);
    if (CAMERA_MOVES.includes(action.type)) map.easeTo(viewOf(style));
  }
}

const HANDLERS = {
  snapshot: () => refresh({ camera: true }),
  action: applyAction,
  // `mapState` was published by maproom before every map change became an `action`; a log
  // written then may still be replayed on resume.
  mapState: () => refresh({ camera: true }),
  layer: () => refresh(),
  file: () => refresh(),
  project: () => refresh(),
  restored: () => refresh({ camera: true }),
  file_generated: announceFile,
};

export async function start({ styleUrl, eventsUrl }) {
  page.styleUrl = styleUrl;
  const style = await fetchStyle();
  const map = new maplibregl.Map({ container: "map", style, attributionControl: { compact: false } });
  map.addControl(new maplibregl.NavigationControl(), "top-left");
  map.addControl(new maplibregl.ScaleControl(), "bottom-left");
  enablePopups(map);
  page.map = map;
  window.maproom.map = map;
  await new Promise((resolve) => (map.loaded() ? resolve() : map.once("load", resolve)));
  draw(style, { camera: true });
  if (eventsUrl) follow(eventsUrl, HANDLERS); // its snapshot draws the latest style
  window.maproom.ready = true;
}
