"""`/sessions/{id}/layers`: list, detail, patch, delete, reorder, style (docs/styles.md)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response, StreamingResponse

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, IfMatch, ScopedRoute, project_url, requires
from maproom.api.layer_data import TileFormat, geojson_response, tile_response
from maproom.api.openapi import STYLE_REF, json_body
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.data import LayerDetail, LayerList, LayerOrder, LayerPatch, LayerStats
from maproom.domain import edits, exports, layers, queries, styles
from maproom.domain.tiles import MEDIA_TYPES
from maproom.limits import FEATURES_PAGE_MAX

router = APIRouter(
    prefix=f"{API_PREFIX}/sessions/{{id}}/layers", tags=["layers"], route_class=ScopedRoute
)
STYLE_BODY = Body(
    description="A (partial) layer style, merged into the stored one (docs/styles.md)",
    openapi_examples={
        "recolour": {"value": {"renderer": {"paint": {"circle-color": "#e4572e"}}}},
    },
)


@router.get("", response_model=LayerList, summary="List project layers")
@requires("layers")
async def list_layers(id: str, request: Request) -> Response:
    """The project's layers, top first."""
    caller = Caller.of(request)
    found = await caller.read(layers.list_for_project, project_id=id)
    return json_response({"data": found, "meta": {"count": len(found)}})


@router.put("/order", response_model=Ok, summary="Reorder all layers")
@requires("layers")
async def reorder_layers(
    id: str, body: LayerOrder, request: Request, if_match: IfMatch
) -> Response:
    """Replace the draw order at once; `layer_ids` is every layer once, top first.

    `If-Match` takes the project's ETag.
    """
    caller = Caller.of(request)
    await caller.change(
        edits.reorder_layers,
        blobs=caller.services.blobs,
        project_id=id,
        layer_ids=body.layer_ids,
        if_match=if_match,
    )
    return json_response(OK)


@router.get("/{layerId}", response_model=LayerDetail, summary="Get layer details")
@requires("layers")
async def get_layer(id: str, layerId: str, request: Request) -> Response:
    """The layer with its order, style, bbox, data URL and legend; with an ETag."""
    caller = Caller.of(request)
    found = await caller.read(
        layers.read, project_id=id, layer_id=layerId, base=project_url(request, id)
    )
    return json_response(found.body, version=found.version)


@router.patch(
    "/{layerId}", response_model=LayerDetail, summary="Rename a layer or change its visibility"
)
@requires("layers")
async def patch_layer(
    id: str, layerId: str, body: LayerPatch, request: Request, if_match: IfMatch
) -> Response:
    """Apply the fields given (`name`, `visible`)."""
    caller = Caller.of(request)
    patched = await caller.change(
        edits.patch_layer,
        blobs=caller.services.blobs,
        project_id=id,
        layer_id=layerId,
        changes=body.changes(),
        if_match=if_match,
        base=project_url(request, id),
    )
    return json_response(patched.body, version=patched.version)


@router.delete("/{layerId}", response_model=Ok, summary="Delete a layer")
@requires("layers")
async def delete_layer(id: str, layerId: str, request: Request) -> Response:
    """Remove the layer from the project (its file stays)."""
    caller = Caller.of(request)
    await caller.change(
        edits.delete_layer, blobs=caller.services.blobs, project_id=id, layer_id=layerId
    )
    return json_response(OK)


@router.put(
    "/{layerId}/style",
    summary="Update a layer style (merge)",
    openapi_extra=json_body(
        STYLE_REF, "A (partial) layer style (docs/styles.md), merged into the stored one"
    ),
    responses={
        200: {
            "description": "The whole merged style",
            "content": {"application/json": {"schema": STYLE_REF}},
        }
    },
)
@requires("layers")
async def put_style(
    id: str,
    layerId: str,
    request: Request,
    if_match: IfMatch,
    body: dict[str, Any] = STYLE_BODY,
) -> Response:
    """Merge the given style into the layer's; answers the whole merged style."""
    caller = Caller.of(request)
    updated = await caller.write(
        edits.restyle_layer,
        blobs=caller.services.blobs,
        project_id=id,
        layer_id=layerId,
        style_patch=styles.parse_patch(body),
        if_match=if_match,
    )
    return json_response(updated.body, version=updated.version)


@router.get(
    "/{layerId}/data",
    summary="Get a layer's GeoJSON",
    response_class=Response,
    responses={200: {"content": {"application/geo+json": {}}}},
)
@requires("layers")
async def layer_data(id: str, layerId: str, request: Request) -> Response:
    """The layer's features as one GeoJSON FeatureCollection (streamed)."""
    caller = Caller.of(request)
    row = await caller.read(layers.data_of, project_id=id, layer_id=layerId)
    return await geojson_response(caller.services, row)


@router.get(
    "/{layerId}/tiles/{z}/{x}/{y}.{fmt}",
    summary="Get a layer tile",
    response_class=Response,
    responses={
        200: {
            "description": "A Mapbox Vector Tile (GeoJSON layers) or an image (COG layers)",
            "content": {media: {} for media in MEDIA_TYPES.values()},
        },
        204: {"description": "The tile lies outside the raster: nothing to draw"},
    },
)
@requires("layers")
async def layer_tile(
    id: str, layerId: str, z: int, x: int, y: int, fmt: TileFormat, request: Request
) -> Response:
    """One tile: `.pbf` for GeoJSON layers (streaming ones are served only this way), `.png`
    or `.webp` for COG layers. Tiles never change, so clients may cache them."""
    caller = Caller.of(request)
    row = await caller.read(layers.data_of, project_id=id, layer_id=layerId)
    return await tile_response(caller.services, row, z, x, y, fmt)


@router.get("/{layerId}/tilejson", summary="TileJSON of a layer's tiles")
@requires("layers")
async def layer_tilejson(id: str, layerId: str, request: Request) -> Response:
    """TileJSON 3.0: the tile URL, zooms, bounds and, for vector tiles, `vector_layers` with
    the fields (docs/open-formats.md)."""
    caller = Caller.of(request)
    row = await caller.read(layers.data_of, project_id=id, layer_id=layerId)
    return json_response(layers.tilejson(row, project_url(request, id)))


@router.get(
    "/{layerId}/features",
    summary="Query a layer's features",
    response_class=Response,
    responses={200: {"content": {"application/geo+json": {}}}},
)
@requires("layers")
async def layer_features(
    id: str,
    layerId: str,
    request: Request,
    filter: Annotated[str | None, Query(description="A filter as JSON (docs/analysis.md)")] = None,
    sort: Annotated[str | None, Query(description="A field to sort by")] = None,
    order: Annotated[str, Query(pattern="^(asc|desc)$")] = "asc",
    limit: Annotated[int, Query(ge=1, le=FEATURES_PAGE_MAX)] = 100,
    cursor: Annotated[str | None, Query()] = None,
    fields: Annotated[
        str | None, Query(description="Properties to return, comma-separated")
    ] = None,
    bbox: Annotated[str | None, Query(description="minLng,minLat,maxLng,maxLat")] = None,
) -> Response:
    """The features passing the filter (and meeting `bbox`), sorted by a field (nulls last)
    or in the layer's order, `limit` at a time; `meta.nextCursor` while more remain."""
    caller = Caller.of(request)
    found = await caller.analyse(
        request, queries.features, analysis=caller.services.analysis, project_id=id,
        layer_id=layerId, where=filter, sort=sort, order=order, limit=limit, cursor=cursor,
        fields=fields, bbox=bbox,
    )  # fmt: skip
    return json_response(found, headers={"Content-Type": "application/geo+json"})


@router.get("/{layerId}/stats", response_model=LayerStats, summary="Statistics of a layer")
@requires("layers")
async def layer_stats(
    id: str,
    layerId: str,
    request: Request,
    field: Annotated[str | None, Query(description="A field to describe")] = None,
    filter: Annotated[str | None, Query(description="A filter as JSON (docs/analysis.md)")] = None,
) -> Response:
    """How many features pass the filter; with a field: nulls, minimum, maximum, mean, sum
    and its 20 most frequent values over them."""
    caller = Caller.of(request)
    found = await caller.analyse(
        request, queries.stats, analysis=caller.services.analysis, project_id=id,
        layer_id=layerId, field=field, where=filter,
    )  # fmt: skip
    return json_response(found)


@router.get(
    "/{layerId}/export",
    summary="Export a layer's data",
    response_class=Response,
    responses={200: {"content": {media: {} for media in exports.MEDIA_TYPES}}},
)
@requires("layers")
async def layer_export(
    id: str,
    layerId: str,
    request: Request,
    format: Annotated[
        str | None,
        Query(
            description="geojson (default), gpkg, fgb, csv (WKT), parquet; tif (rasters' default)"
        ),
    ] = None,
    filter: Annotated[str | None, Query(description="A filter as JSON (docs/analysis.md)")] = None,
) -> Response:
    """The features the layer draws (its style's filter), narrowed by `filter`, as a file in
    that format; a raster layer as its Cloud Optimized GeoTIFF (docs/exports.md)."""
    caller = Caller.of(request)
    download = await caller.analyse(
        request, exports.export, analysis=caller.services.analysis, blobs=caller.services.blobs,
        project_id=id, layer_id=layerId, fmt=format, where=filter,
    )  # fmt: skip
    headers = {"Content-Disposition": download.disposition, "X-Content-Type-Options": "nosniff"}
    if download.size is not None:
        headers["Content-Length"] = str(download.size)
    return StreamingResponse(download.chunks, headers=headers, media_type=download.media_type)
