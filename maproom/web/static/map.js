// The maproom map page: draws a project's state with MapLibre and, on the live page, follows
// the project's event stream. Exposes window.maproom = {map, lastEventId, state}.
//   basemap.js  basemaps, the offline one and the fallback    masks.js   masks beneath the data
//   style.js    maproom styles as MapLibre layers             popups.js  feature popups
//   notices.js  legend, toasts, notices                       stream.js  the live stream
//   fetchjson.js  one JSON fetch with a timeout
import { applyCategories, basemapStyle, BLANK } from "./basemap.js";
import { fetchJson } from "./fetchjson.js";
import { drawMasks } from "./masks.js";
import { drawLegend, link, toast } from "./notices.js";
import { enablePopups } from "./popups.js";
import { follow } from "./stream.js";
import { configure, mapLayers, source, sourceId } from "./style.js";

const page = { map: null, state: null, basemapKey: null, stateUrl: null, base: null };
window.maproom = { map: null, lastEventId: null, state: null };

// The project's state is never taken from the browser's cache.
const fetchState = (url) => fetchJson(url, 8000, { cache: "no-store" });

function removeOverlays(map) {
  for (const layer of [...(map.getStyle().layers || [])]) {
    if (layer.id.startsWith("mr-")) map.removeLayer(layer.id);
  }
  for (const id of Object.keys(map.getStyle().sources || {})) {
    if (id.startsWith("mr-")) map.removeSource(id);
  }
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
  await drawMasks(map, state.project.mapState, page.base);
  drawLegend(state.layers);
}

async function render(state, { camera = false } = {}) {
  page.state = state;
  window.maproom.state = state;
  document.title = state.project.title || "maproom";
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
    const style = await basemapStyle(basemap, location.origin);
    await new Promise((resolve) => {
      map.once("style.load", resolve);
      map.setStyle(style, { diff: false });
    });
  }
  await drawOverlays(map, state);
}

async function refresh() {
  await render(await fetchState(page.stateUrl));
}

function announceFile(data) {
  const parts = [`New file: ${data.file_name || data.description || "report"} `];
  if (data.url) parts.push(link("open", data.url));
  toast(parts);
}

const CAMERA_MOVES = ["fit_bounds", "go_home", "zoom_in", "zoom_out", "pan", "zoom_to_layer"];
// A step through the history may change anything: the page takes the whole state again and
// jumps to its view.
const HISTORY_STEPS = ["undo", "redo"];

async function jumpToState() {
  const state = await fetchState(page.stateUrl);
  await render(state, { camera: true });
}

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
    await jumpToState();
  } else {
    const state = await fetchState(page.stateUrl);
    if (CAMERA_MOVES.includes(action.type)) {
      const v = state.project.mapState;
      map.easeTo({ center: v.center, zoom: v.zoom, bearing: v.bearing, pitch: v.pitch });
    }
    await render(state);
  }
}

const HANDLERS = {
  snapshot: (state) => render(state, { camera: true }),
  action: applyAction,
  // `mapState` was published by maproom before every map change became an `action`; a log
  // written then may still be replayed on resume.
  mapState: async (data) => {
    const view = data.mapState;
    if (view) page.map.jumpTo({ center: view.center, zoom: view.zoom, bearing: view.bearing, pitch: view.pitch });
    await refresh();
  },
  layer: refresh,
  file: refresh,
  project: refresh,
  restored: jumpToState,
  file_generated: announceFile,
};

export async function start({ stateUrl, eventsUrl, palette }) {
  configure(palette);
  page.stateUrl = stateUrl;
  page.base = stateUrl.replace(/\/state$/, "");
  const map = new maplibregl.Map({ container: "map", style: BLANK, attributionControl: { compact: false } });
  map.addControl(new maplibregl.NavigationControl(), "top-left");
  map.addControl(new maplibregl.ScaleControl(), "bottom-left");
  enablePopups(map);
  page.map = map;
  window.maproom.map = map;
  await new Promise((resolve) => (map.loaded() ? resolve() : map.once("load", resolve)));
  if (eventsUrl) {
    follow(eventsUrl, HANDLERS); // the snapshot draws the first state
  } else {
    await render(await fetchState(stateUrl), { camera: true });
  }
  window.maproom.ready = true;
}
