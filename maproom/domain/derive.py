"""Derived layers (`buffer_layer`, `aggregate_points`, `dissolve_layer`, `clip_layer`,
`filter_to_layer`): computed before the batch's transaction, from the inputs' tables, into a
GeoJSON file that then becomes an ordinary layer, as inline data does (docs/analysis.md).

The new layer's source is `ai`, its `derivedFrom` names the operation, the input layers and
the parameters, and its style suits what it shows: a buffer is a light fill in its input's
colour, an aggregate is graduated on its new field, a clip or a filter keeps its input's
style, a dissolve gets the default one.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import shapely

from maproom import geo
from maproom.domain import mapstate, styles
from maproom.domain.actions import models as m
from maproom.domain.actions.plan import Step
from maproom.domain.analysis import Analysis, Job
from maproom.errors import PayloadTooLarge
from maproom.geo import derive as compute

METRES = {"m": 1.0, "km": 1000.0, "mi": 1609.344}


def prepare(
    step: Step, analysis: Analysis, workdir: Path, cancelled: threading.Event | None
) -> Step:
    """Compute a derived step's layer file and convert it (`step.inline`, `step.conversion`),
    within the analysis's bounds; its `derived` record and style are set too."""
    action = step.action
    folder = workdir / str(step.index)
    folder.mkdir()
    out = folder / "derived.geojson"
    tables = {role: analysis.table(row.data_key, row.fields) for role, row in step.sources.items()}
    limits = analysis.limits

    def work(job: Job) -> None:
        con, check = job.cursor, job.check
        if isinstance(action, m.BufferLayer):
            metres = action.distance * METRES[action.unit]
            compute.buffer(con, tables["layer_id"], metres, out, limits=limits, check=check)
        elif isinstance(action, m.AggregatePoints):
            compute.aggregate(con, tables["points_layer_id"], tables["polygons_layer_id"],
                              stat=action.stat, field=action.field, name=_stat_name(step),
                              out=out, limits=limits, check=check)  # fmt: skip
        elif isinstance(action, m.DissolveLayer):
            compute.dissolve(con, tables["layer_id"], action.field, out, limits=limits, check=check)
        elif isinstance(action, m.ClipLayer):
            compute.clip(con, tables["layer_id"], _mask(action, tables, con), out,
                         limits=limits, check=check)  # fmt: skip
        elif isinstance(action, m.FilterToLayer):
            compute.keep(con, tables["layer_id"], action.filter, out, limits=limits, check=check)

    try:
        analysis.run(work, cancelled)
        step.conversion = geo.convert(out, "geojson", folder, limits)
    except geo.TooLarge as exc:
        raise PayloadTooLarge(f"{step.where}: {exc.message}") from None
    except geo.GeoError as exc:
        raise m.fail(step.where, exc.message) from None
    step.inline = out
    return step


def _mask(action: m.ClipLayer, tables: dict[str, Any], con: Any) -> bytes:
    """The shape to clip to, as WKB: a country's outline, or the union of a layer's polygons."""
    if action.country_code is not None:
        outline = shapely.from_geojson(mapstate.country_shape(action.country_code))
        return bytes(shapely.to_wkb(outline))
    return bytes(tables["to_layer_id"].union_wkb(con))


def _stat_name(step: Step) -> str:
    """The new field of an aggregate: `count`, or `sum_population`; renamed past the
    polygons' own fields (`count_2`)."""
    action = step.action
    assert isinstance(action, m.AggregatePoints)
    base = "count" if action.stat == "count" else f"{action.stat}_{action.field}"
    taken = {f["name"] for f in step.sources["polygons_layer_id"].fields or []}
    name, n = base, 1
    while name in taken:
        n += 1
        name = f"{base}_{n}"
    return name


def record(step: Step) -> dict[str, Any]:
    """A derived layer's `derivedFrom`: the operation, its input layers, its parameters."""
    action = step.action
    params = action.payload()
    for key in ("type", "name", "layer_id", "points_layer_id", "polygons_layer_id", "to_layer_id"):
        params.pop(key, None)
    return {
        "operation": step.kind,
        "layerIds": [row.id for row in step.sources.values()],
        "params": params,
    }


def name_of(step: Step) -> str:
    """The new layer's name: the one given, or what it is made of ("Cities, 50 km buffer")."""
    action = step.action
    given = action.__dict__.get("name")
    if given:
        return str(given)
    source = step.sources.get("layer_id") or step.sources.get("polygons_layer_id")
    base = source.name if source is not None else "Layer"
    if isinstance(action, m.BufferLayer):
        return f"{base}, {action.distance:g} {action.unit} buffer"[:200]
    if isinstance(action, m.AggregatePoints):
        points = step.sources["points_layer_id"].name
        return f"{base}, {_stat_name(step).replace('_', ' ')} of {points}"[:200]
    if isinstance(action, m.DissolveLayer):
        return f"{base}, dissolved" + (f" by {action.field}" if action.field else "")
    if isinstance(action, m.ClipLayer):
        mask = action.country_code or step.sources["to_layer_id"].name
        return f"{base}, clipped to {mask}"[:200]
    return f"{base}, filtered"[:200]


def style_of(step: Step, geometry_type: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The new layer's style, and what a client would have given (for classification)."""
    action = step.action
    default = styles.default_style("geojson", geometry_type)
    source = step.sources.get("layer_id")
    if isinstance(action, m.AggregatePoints):
        renderer = {"type": "graduated", "field": _stat_name(step), "classes": 5, "ramp": "YlOrRd"}
        return {**default, "renderer": renderer}, {"renderer": renderer}
    if isinstance(action, m.BufferLayer) and source is not None:
        colour = styles.main_colour(source.style, source.geometry_type) or "#3b82f6"
        paint = {"fill-color": colour, "fill-opacity": 0.25, "_outline-color": colour,
                 "_outline-width": 1}  # fmt: skip
        return {**default, "renderer": {"type": "single", "paint": paint}}, {}
    same = source is not None and source.geometry_type == geometry_type
    if isinstance(action, m.ClipLayer | m.FilterToLayer) and same and source is not None:
        kept = {k: v for k, v in source.style.items() if k not in ("filter", styles.SERVER_KEY)}
        return {**default, **kept}, {}
    return default, {}
