"""A project compiled to a MapLibre style (version 8) that any MapLibre client draws as maproom's
own pages do (docs/open-formats.md). Pure: no database, no network.

    compile_style(project, layers, basemap, urls)   the style document
    project_style(drawing, basemaps, origin)        the same, with the basemap looked up

Bottom to top: the basemap's layers (its category overrides applied), the masks, then every
layer of the project, bottom first (a hidden one with `visibility: none`), each as the MapLibre
layers that draw it:

    mr-{id}-heat     a heatmap renderer             mr-{id}-raster   a raster layer
    mr-{id}-fill     polygons (+ mr-{id}-outline)   mr-{id}-line     lines
    mr-{id}-circle   points                         mr-{id}-label    labels by a field

A layer's sources are its data URLs as the caller reads them (an API key's or a view link's),
already cut to the layer's filter; the filter is also written into the layers' `filter`, so a
client that points the source elsewhere still draws what maproom draws. Labels are drawn when
the basemap brings glyphs (a MapLibre style cannot draw text without them). `metadata` holds
what a map page shows beside the map: `maproom:legend` (each visible layer's legend) and
`maproom:basemap` (the basemap asked for and whether it had to give way to the offline one)
and `maproom:layers` (every layer, hidden ones too, top first: id, name, visible).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

import orjson

from maproom.domain import styles
from maproom.domain.basemaps import Basemaps
from maproom.geo.classify import QUALITATIVE
from maproom.limits import MASK_COLOR

PREFIX = "mr-"
MASK_PREFIX = "mr-mask-"
FAMILIES = {"circle": "Point", "line": "LineString", "fill": "Polygon"}
WORLD = [[-180, -85.06], [180, -85.06], [180, 85.06], [-180, 85.06], [-180, -85.06]]
MASK_OPACITY = 0.6
LABEL_COLOR = "#111827"
OUTLINE = {"color": "#1e3a8a", "width": 1, "opacity": 0.9}
CATEGORY_MATCH = {
    "water": re.compile(r"water|ocean|sea|lake|river", re.IGNORECASE),
    "land": re.compile(r"land|earth|background", re.IGNORECASE),
    "parks": re.compile(r"park|green|wood|forest|grass", re.IGNORECASE),
    "roads": re.compile(r"road|street|highway|motorway|transport|bridge|tunnel", re.IGNORECASE),
    "buildings": re.compile(r"building", re.IGNORECASE),
    "boundaries": re.compile(r"boundar|admin|border", re.IGNORECASE),
    "labels": re.compile(r"label|place|name|poi", re.IGNORECASE),
}
"""Which of a basemap's layers a category override reaches (by the layer's id and source
layer): the basemap categories of `set_basemap_category`."""
COLOR_PROPERTY = {
    "fill": "fill-color",
    "line": "line-color",
    "background": "background-color",
    "symbol": "text-color",
    "circle": "circle-color",
}


@dataclass(frozen=True)
class Urls:
    """Where the compiled style's own sources are read: `mask(code)` is a country's mask."""

    mask_base: str  # `{origin}/basemap/masks`

    def mask(self, code: str) -> str:
        return f"{self.mask_base}/{code}.geojson"


def compile_style(
    project: dict[str, Any],
    layers: list[dict[str, Any]],
    basemap: dict[str, Any],
    urls: Urls,
) -> dict[str, Any]:
    """The project's MapLibre style. `project` has `id`, `title`, `mapState`; `layers` are the
    layer details (with `url` and `options`), top first; `basemap` is the basemap's own style
    (`maproom.domain.basemaps`)."""
    view = project.get("mapState") or {}
    base = copy.deepcopy(basemap)
    chosen = view.get("basemap") or {}
    base_layers = _with_categories(base.get("layers") or [], chosen.get("categories") or {})
    glyphs = base.get("glyphs")
    sources: dict[str, Any] = dict(base.get("sources") or {})
    mask_sources, mask_layers = _masks(view, urls)
    sources.update(mask_sources)
    data_layers: list[dict[str, Any]] = []
    legend: list[dict[str, Any]] = []
    for layer in reversed(layers):  # bottom first
        if not layer.get("url"):
            continue
        sources[source_id(layer)] = source(layer)
        data_layers.extend(map_layers(layer, glyphs=bool(glyphs)))
        shown = ((layer.get("style") or {}).get("legend") or {}).get("visible", True)
        if layer.get("visible") and shown is not False and layer.get("legendItems"):
            title = ((layer.get("style") or {}).get("legend") or {}).get("title")
            legend.insert(0, {"layer_id": layer["layer_id"], "title": title or layer["name"],
                              "items": layer["legendItems"]})  # fmt: skip
    style: dict[str, Any] = {
        "version": 8,
        "name": project.get("title") or "maproom",
        "metadata": {
            "maproom:project": project.get("id"),
            "maproom:basemap": (base.get("metadata") or {}).get("maproom:basemap"),
            "maproom:legend": legend,
            "maproom:layers": [
                {"id": layer["layer_id"], "name": layer["name"], "visible": layer.get("visible")}
                for layer in layers
            ],
        },
        "center": list(view.get("center") or [0, 0]),
        "zoom": view.get("zoom", 1),
        "bearing": view.get("bearing") or 0,
        "pitch": view.get("pitch") or 0,
        "sources": sources,
        "layers": [*base_layers, *mask_layers, *data_layers],
    }
    for key in ("glyphs", "sprite"):
        if base.get(key):
            style[key] = base[key]
    return style


def project_style(drawing: dict[str, Any], basemaps: Basemaps, origin: str) -> dict[str, Any]:
    """`compile_style` of a project as `maproom.domain.projects.drawing` gives it, on its
    basemap (a networked one may be fetched: call it off the event loop)."""
    project = drawing["project"]
    basemap = basemaps.style((project.get("mapState") or {}).get("basemap"), origin)
    return compile_style(project, drawing["layers"], basemap, Urls(f"{origin}/basemap/masks"))


# --- basemap categories -----------------------------------------------------------------------


def _with_categories(
    layers: list[dict[str, Any]], categories: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The basemap's layers with the category overrides (colour, visibility) applied."""
    for layer in layers:
        key = f"{layer.get('id', '')} {layer.get('source-layer', '')}"
        for name, override in categories.items():
            pattern = CATEGORY_MATCH.get(name)
            if pattern is None or not pattern.search(key) or not isinstance(override, dict):
                continue
            if override.get("visible") is not None:
                layout = layer.setdefault("layout", {})
                layout["visibility"] = "visible" if override["visible"] else "none"
            prop = COLOR_PROPERTY.get(str(layer.get("type")))
            if override.get("color") and prop:
                layer.setdefault("paint", {})[prop] = override["color"]
    return layers


# --- masks ------------------------------------------------------------------------------------


def _masks(view: dict[str, Any], urls: Urls) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Sources and layers shading everything outside the country mask and the custom mask."""
    sources: dict[str, Any] = {}
    layers: list[dict[str, Any]] = []
    country = view.get("countryMask") or {}
    if country.get("countryCode") and country.get("visible") is not False:
        sources[f"{MASK_PREFIX}country"] = {
            "type": "geojson",
            "data": urls.mask(str(country["countryCode"]).upper()),
        }
        layers += _mask_layers("country", country.get("color"))
    custom = view.get("customMask") or {}
    rings = outer_rings(_geojson(custom.get("geojson")))
    if rings:
        sources[f"{MASK_PREFIX}custom"] = {"type": "geojson", "data": mask_feature(rings)}
        layers += _mask_layers("custom", custom.get("color"))
    return sources, layers


def _mask_layers(name: str, color: Any) -> list[dict[str, Any]]:
    ident = f"{MASK_PREFIX}{name}"
    shade = color if isinstance(color, str) and color else MASK_COLOR
    return [
        {"id": ident, "type": "fill", "source": ident,
         "paint": {"fill-color": shade, "fill-opacity": MASK_OPACITY}},
        {"id": f"{ident}-outline", "type": "line", "source": ident,
         "filter": ["==", ["get", "edge"], True],
         "paint": {"line-color": shade, "line-width": 1, "line-opacity": 0.8}},
    ]  # fmt: skip


def _geojson(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return None
    return value


def outer_rings(geometry: Any) -> list[Any]:
    """The outer rings of a GeoJSON polygon, multipolygon, feature or collection."""
    if not isinstance(geometry, dict):
        return []
    kind = geometry.get("type")
    if kind == "Polygon":
        return [geometry["coordinates"][0]] if geometry.get("coordinates") else []
    if kind == "MultiPolygon":
        return [polygon[0] for polygon in geometry.get("coordinates") or [] if polygon]
    if kind == "Feature":
        return outer_rings(geometry.get("geometry"))
    if kind == "FeatureCollection":
        return [ring for f in geometry.get("features") or [] for ring in outer_rings(f)]
    return []


def mask_feature(rings: list[Any]) -> dict[str, Any]:
    """The world with these rings cut out (shaded), and the rings themselves (`edge`, their
    outline)."""
    return {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {"edge": False},
             "geometry": {"type": "Polygon", "coordinates": [WORLD, *rings]}},
            {"type": "Feature", "properties": {"edge": True},
             "geometry": {"type": "MultiLineString", "coordinates": rings}},
        ],
    }  # fmt: skip


# --- data layers ------------------------------------------------------------------------------


def source_id(layer: dict[str, Any]) -> str:
    return f"{PREFIX}{layer['layer_id']}"


def source(layer: dict[str, Any]) -> dict[str, Any]:
    """The MapLibre source of a layer: its GeoJSON, its vector tiles or its raster tiles."""
    if layer.get("layer_type") == "geojson":
        if layer.get("streaming"):
            return {"type": "vector", "tiles": [layer["url"]], "minzoom": 0, "maxzoom": 14}
        return {"type": "geojson", "data": layer["url"]}
    options = layer.get("options") or {}
    found: dict[str, Any] = {
        "type": "raster",
        "tiles": [layer["url"]],
        "tileSize": options.get("tile_size") or 256,
    }
    if options.get("attribution"):
        found["attribution"] = str(options["attribution"])
    return found


def _number(field: str) -> list[Any]:
    return ["to-number", ["get", field], 0]


def _classed(renderer: dict[str, Any], key: str, fallback: Any) -> Any:
    """A paint value (or expression) for one key, by renderer type."""
    paint = renderer.get("paint") or {}
    base = paint.get(key, fallback)

    def value(given: dict[str, Any] | None) -> Any:
        return (given or {}).get(key, base)

    kind, field = renderer.get("type"), renderer.get("field")
    if kind == "categorized" and field and renderer.get("categories"):
        expr: list[Any] = ["match", ["to-string", ["get", field]]]
        seen: set[str] = set()
        for category in renderer["categories"]:
            label = _label(category.get("value"))
            if label in seen:
                continue
            seen.add(label)
            expr += [label, value(category.get("paint"))]
        return [*expr, value(renderer.get("default"))]
    if kind == "graduated" and field and renderer.get("ranges"):
        ranges = sorted(renderer["ranges"], key=lambda r: r["from"])
        expr = ["step", _number(field), value(ranges[0].get("paint"))]
        for rng in ranges[1:]:
            expr += [rng["from"], value(rng.get("paint"))]
        return expr
    if kind == "interpolated" and field and len(renderer.get("stops") or []) > 1:
        how: list[Any] = (
            ["exponential", renderer.get("base", 2)]
            if renderer.get("interpolation") == "exponential"
            else ["linear"]
        )
        expr = ["interpolate", how, _number(field)]
        for stop in renderer["stops"]:
            expr += [stop["value"], value(stop.get("paint"))]
        return expr
    if kind in styles.OPEN_RENDERERS and key.endswith("-color"):
        return (renderer.get("colors") or QUALITATIVE)[0]
    return base


def _label(value: Any) -> str:
    """A category's value as MapLibre's `to-string` writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value)


def _paint(renderer: dict[str, Any], family: str) -> dict[str, Any]:
    defaults = {
        "circle": {**styles.POINT_PAINT, "circle-stroke-opacity": 1},
        "line": styles.LINE_PAINT,
        "fill": {"fill-color": styles.ACCENT, "fill-opacity": styles.POLYGON_PAINT["fill-opacity"]},
    }[family]
    paint = {key: _classed(renderer, key, fallback) for key, fallback in defaults.items()}
    given = renderer.get("paint") or {}
    if family == "line" and given.get("line-dasharray"):
        paint["line-dasharray"] = given["line-dasharray"]
    if family == "circle" and renderer.get("type") in styles.OPEN_RENDERERS:
        paint["circle-radius"] = renderer.get("size", 8)
    outline = renderer.get("outline") or {}
    if family == "circle" and outline:
        for key, name in (("color", "color"), ("width", "width"), ("opacity", "opacity")):
            if outline.get(key) is not None:
                paint[f"circle-stroke-{name}"] = outline[key]
    return paint


def _outline_paint(renderer: dict[str, Any]) -> dict[str, Any]:
    given = renderer.get("paint") or {}
    outline = renderer.get("outline") or {}
    paint = {
        f"line-{key}": _first(outline.get(key), given.get(f"_outline-{key}"), fallback)
        for key, fallback in OUTLINE.items()
    }
    if outline.get("dash"):
        paint["line-dasharray"] = [float(part) for part in str(outline["dash"]).split(",")]
    return paint


def _first(*values: Any) -> Any:
    return next((value for value in values if value is not None), None)


def _heatmap_paint(renderer: dict[str, Any]) -> dict[str, Any]:
    ramp = renderer.get("colorStops") or [dict(stop) for stop in styles.DEFAULT_RAMP]
    color: list[Any] = ["interpolate", ["linear"], ["heatmap-density"]]
    for i, stop in enumerate(ramp):
        # The lowest density stays transparent so the basemap shows through.
        clear = i == 0 and stop["value"] == 0
        color += [stop["value"], "rgba(0,0,0,0)" if clear else stop["color"]]
    weight = renderer.get("weightField")
    return {
        "heatmap-color": color,
        "heatmap-radius": renderer.get("radius", 20),
        "heatmap-opacity": renderer.get("opacity", 0.8),
        "heatmap-intensity": renderer.get("intensity", 1),
        "heatmap-weight": ["to-number", ["get", weight], 1] if weight else 1,
    }


def _geometry_is(kind: str) -> list[Any]:
    return ["any", ["==", ["geometry-type"], kind], ["==", ["geometry-type"], f"Multi{kind}"]]


def _and(*parts: list[Any] | None) -> list[Any] | None:
    given = [part for part in parts if part is not None]
    if not given:
        return None
    return given[0] if len(given) == 1 else ["all", *given]


def map_layers(layer: dict[str, Any], *, glyphs: bool) -> list[dict[str, Any]]:
    """The MapLibre layers drawing one maproom layer, bottom first (module docstring)."""
    ident = source_id(layer)
    seen = "visible" if layer.get("visible") else "none"
    common: dict[str, Any] = {"source": ident, "layout": {"visibility": seen}}
    if layer.get("streaming"):
        common["source-layer"] = "layer"
    if layer.get("layer_type") != "geojson":
        options = layer.get("options") or {}
        paint = {"raster-opacity": options.get("opacity", 1)}
        raster: dict[str, Any] = {
            "id": f"{ident}-raster",
            "type": "raster",
            **common,
            "paint": paint,
        }
        if options.get("min_zoom") is not None:
            raster["minzoom"] = options["min_zoom"]
        if options.get("max_zoom") is not None:
            raster["maxzoom"] = options["max_zoom"]
        return [raster]
    style = layer.get("style") or {}
    renderer = style.get("renderer") or {"type": "single", "paint": {}}
    kept = to_expression(style.get("filter"))
    if renderer.get("type") == "heatmap":
        heat = {"id": f"{ident}-heat", "type": "heatmap", **common,
                "paint": _heatmap_paint(renderer)}  # fmt: skip
        if kept is not None:
            heat["filter"] = kept
        return [heat]
    geometry = layer.get("geometry_type")

    def wants(family: str) -> bool:
        return geometry in (None, "mixed") or FAMILIES[family] == geometry

    out: list[dict[str, Any]] = []
    if wants("fill"):
        polygons = _and(_geometry_is("Polygon"), kept)
        out.append({"id": f"{ident}-fill", "type": "fill", **common, "filter": polygons,
                    "paint": _paint(renderer, "fill")})  # fmt: skip
        out.append({"id": f"{ident}-outline", "type": "line", **common, "filter": polygons,
                    "paint": _outline_paint(renderer)})  # fmt: skip
    if wants("line"):
        out.append({"id": f"{ident}-line", "type": "line", **common,
                    "filter": _and(_geometry_is("LineString"), kept),
                    "paint": _paint(renderer, "line")})  # fmt: skip
    if wants("circle"):
        out.append({"id": f"{ident}-circle", "type": "circle", **common,
                    "filter": _and(_geometry_is("Point"), kept),
                    "paint": _paint(renderer, "circle")})  # fmt: skip
    text = style.get("label") or {}
    if glyphs and text.get("visible") is not False and text.get("field"):
        label: dict[str, Any] = {
            "id": f"{ident}-label", "type": "symbol", **common,
            "layout": {"visibility": seen,
                       "text-field": ["to-string", ["get", text["field"]]],
                       "text-size": text.get("size", 12), "text-offset": [0, 1.2]},
            "paint": {"text-color": text.get("color", LABEL_COLOR),
                      "text-halo-color": text.get("haloColor", "#ffffff"),
                      "text-halo-width": text.get("haloWidth", 1)},
        }  # fmt: skip
        if kept is not None:
            label["filter"] = kept
        if text.get("minZoom") is not None:
            label["minzoom"] = text["minZoom"]
        out.append(label)
    return out


# --- filters ----------------------------------------------------------------------------------

_TYPE_OF = {bool: "boolean", int: "number", float: "number", str: "string"}


def to_expression(where: dict[str, Any] | None) -> Any:
    """A layer filter (docs/analysis.md) as a MapLibre expression with the same meaning: a
    value of another kind than the one compared with passes nothing, a missing value passes
    only `is_null`."""
    if where is None:
        return None
    if "all" in where:
        return ["all", *(to_expression(part) for part in where["all"])]
    if "any" in where:
        return ["any", *(to_expression(part) for part in where["any"])]
    got = ["get", where["field"]]
    op, wanted = where["op"], where.get("value")
    if op == "is_null":
        return ["==", got, None]
    if op == "not_null":
        return ["!=", got, None]
    if op == "contains":
        return ["all", ["==", ["typeof", got], "string"],
                ["in", str(wanted).lower(), ["downcase", got]]]  # fmt: skip
    if op in ("in", "not_in"):
        found = ["in", got, ["literal", list(wanted or ())]]
        if op == "in":
            return found
        plain = ["literal", ["boolean", "number", "string"]]
        return ["all", ["in", ["typeof", got], plain], ["!", found]]
    kind = _TYPE_OF.get(type(wanted), "string")
    same = ["==", ["typeof", got], kind]
    if op in ("==", "!="):
        return ["all", same, [op, got, wanted]]
    if kind == "boolean":
        return False  # booleans are not ordered
    typed = ["to-number", got] if kind == "number" else ["to-string", got]
    return ["case", same, [op, typed, wanted], False]
