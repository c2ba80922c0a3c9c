"""The live and static map pages, their state, their stream and their data (docs/live.md).

Everything here is reached through a view link's token instead of an API key, is read-only,
and answers 404 as soon as the link is revoked, expires or loses its project:

    /live/{token}                     the live page          /embed/{token}   the static page
    /live/{token}/state               what the page draws    /embed/{token}/state
    /live/{token}/events              server-sent events: `snapshot`, then the project's log
    /{live|embed}/{token}/style.json  the project as a MapLibre style (what the page draws)
    /{live|embed}/{token}/layers/{layerId}/tilejson             TileJSON of a layer's tiles
    /{live|embed}/{token}/layers/{layerId}/data                 a layer's GeoJSON
    /{live|embed}/{token}/layers/{layerId}/tiles/{z}/{x}/{y}.{pbf|png|webp}
    /{live|embed}/{token}/countries/{code}.geojson              a country's shape (masks)
    /r/{token}                        a saved report (HTML, sandboxed: no script, own origin)
    /basemap/offline/{z}/{x}/{y}.pbf  maproom's own basemap (public: no project data)
    /basemap/masks/{code}.geojson     the world outside a country, shaded by a country mask
    /favicon.ico

Pages may be framed by the link's allowed origins only (CSP `frame-ancestors`), and send no
referrer, so the token does not leak to the tile and style servers a basemap uses.
"""

from __future__ import annotations

import functools
import string
from collections.abc import AsyncIterator
from html import escape as html_escape
from pathlib import Path
from typing import Any

import anyio.to_thread
import orjson
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from maproom.api.deps import public_origin
from maproom.api.layer_data import TileFormat, geojson_response, tile_response
from maproom.api.responses import json_response
from maproom.domain import links, mapstyle, reports
from maproom.domain.common import utcnow
from maproom.domain.mapstate import country_shape
from maproom.errors import NotFound
from maproom.events.hub import frame
from maproom.geo import basemap
from maproom.runtime import Services

router = APIRouter(include_in_schema=False)
HEARTBEAT_SECONDS = 15.0
PAGE_KINDS = {"live": "live", "embed": "static"}


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


async def _link(request: Request, prefix: str, token: str) -> links.Link:
    services = _services(request)
    return links.resolve(services.db, token, PAGE_KINDS[prefix])  # a read: inline


def _page_headers(link: links.Link) -> dict[str, str]:
    return {
        "Content-Security-Policy": f"frame-ancestors {link.frame_ancestors()}",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
    }


def _shared(request: Request, link: links.Link, response: Response) -> Response:
    """`response` readable by a map on another site (CORS): any site's, or only the allowed
    origins' when the link names some (docs/open-formats.md)."""
    if link.allowed_origins is None:
        response.headers["Access-Control-Allow-Origin"] = "*"
    else:
        origin = request.headers.get("origin")
        if origin in link.allowed_origins:
            response.headers["Access-Control-Allow-Origin"] = origin
        response.headers["Vary"] = "Origin"
    return response


STATIC_PREFIX = "/static/maproom"  # maproom/web/static: our own ES modules and CSS
VENDOR_PREFIX = "/static/vendor"  # MapLibre GL JS, from its PyPI package (maproom.web.assets)
WEB_DIR = Path(__file__).resolve().parents[2] / "web"


@functools.cache
def _template(name: str) -> string.Template:
    return string.Template((WEB_DIR / "templates" / name).read_text(encoding="utf-8"))


def _page(request: Request, prefix: str, link: links.Link) -> Response:
    base = f"{public_origin(request)}/{prefix}/{link.token}"
    # The static page is the live page without a stream.
    events = orjson.dumps(f"{base}/events").decode() if prefix == "live" else "null"
    html = _template("page.html").safe_substitute(
        title=html_escape(links.title(_services(request).db, link)),
        style_url=f"{base}/style.json",
        events_url=events,
        static=STATIC_PREFIX,
        vendor=VENDOR_PREFIX,
    )
    return Response(html, media_type="text/html; charset=utf-8", headers=_page_headers(link))


def _state(request: Request, prefix: str, link: links.Link) -> dict[str, Any]:
    base = f"{public_origin(request)}/{prefix}/{link.token}"
    return links.state(_services(request).db, link, base)


def _style(request: Request, prefix: str, link: links.Link) -> dict[str, Any]:
    drawing = _state(request, prefix, link)
    return mapstyle.project_style(drawing, _services(request).basemaps, public_origin(request))


for _prefix in PAGE_KINDS:

    def _routes(prefix: str) -> None:
        @router.get(f"/{prefix}/{{token}}")
        async def page(token: str, request: Request) -> Response:
            """The map page."""
            return _page(request, prefix, await _link(request, prefix, token))

        @router.get(f"/{prefix}/{{token}}/state")
        async def state(token: str, request: Request) -> Response:
            """The project as the page draws it."""
            link = await _link(request, prefix, token)
            body = await anyio.to_thread.run_sync(_state, request, prefix, link)
            return json_response(body, headers=_page_headers(link))

        @router.get(f"/{prefix}/{{token}}/style.json")
        async def style(token: str, request: Request) -> Response:
            """The project compiled to a MapLibre style (docs/open-formats.md)."""
            link = await _link(request, prefix, token)
            body = await anyio.to_thread.run_sync(_style, request, prefix, link)
            return _shared(request, link, json_response(body, headers=_page_headers(link)))

        @router.get(f"/{prefix}/{{token}}/layers/{{layerId}}/tilejson")
        async def tilejson(token: str, layerId: str, request: Request) -> Response:
            """TileJSON of a layer's tiles."""
            link = await _link(request, prefix, token)
            base = f"{public_origin(request)}/{prefix}/{link.token}"
            db = _services(request).db
            body = await anyio.to_thread.run_sync(links.tilejson, db, link, layerId, base)
            return _shared(request, link, json_response(body, headers=_page_headers(link)))

        @router.get(f"/{prefix}/{{token}}/layers/{{layerId}}/data")
        async def layer_data(token: str, layerId: str, request: Request) -> Response:
            """A GeoJSON layer's document."""
            link = await _link(request, prefix, token)
            services = _services(request)
            row = await anyio.to_thread.run_sync(links.layer_row, services.db, link, layerId)
            return _shared(request, link, await geojson_response(services, row))

        @router.get(f"/{prefix}/{{token}}/layers/{{layerId}}/tiles/{{z}}/{{x}}/{{y}}.{{fmt}}")
        async def layer_tile(
            token: str, layerId: str, z: int, x: int, y: int, fmt: TileFormat, request: Request
        ) -> Response:
            """One tile of a layer."""
            link = await _link(request, prefix, token)
            services = _services(request)
            row = await anyio.to_thread.run_sync(links.layer_row, services.db, link, layerId)
            return _shared(request, link, await tile_response(services, row, z, x, y, fmt))

        @router.get(f"/{prefix}/{{token}}/countries/{{code}}.geojson")
        async def country(token: str, code: str, request: Request) -> Response:
            """A country's outline (ISO 3166-1 alpha-2 or alpha-3), for masks."""
            await _link(request, prefix, token)
            shape = await anyio.to_thread.run_sync(country_shape, code)
            return Response(
                shape,
                media_type="application/geo+json",
                headers={"Cache-Control": "public, max-age=86400"},
            )

    _routes(_prefix)


@router.get("/favicon.ico")
async def favicon() -> Response:
    """maproom's icon (the pages also link `favicon.svg`)."""
    return Response(
        _favicon(), media_type="image/x-icon", headers={"Cache-Control": "public, max-age=86400"}
    )


@functools.cache
def _favicon() -> bytes:
    return (WEB_DIR / "static" / "favicon.ico").read_bytes()


@router.get("/basemap/offline/{z}/{x}/{y}.pbf")
async def offline_basemap_tile(z: int, x: int, y: int) -> Response:
    """A tile of maproom's own basemap (`offline`): land and country borders from the Natural
    Earth data maproom ships. Public: it holds nothing of any project."""
    try:
        tile = await anyio.to_thread.run_sync(basemap.tile, z, x, y)
    except ValueError as exc:
        raise NotFound(str(exc)) from None
    return Response(
        tile,
        media_type="application/vnd.mapbox-vector-tile",
        headers={"Cache-Control": "public, max-age=86400", "Access-Control-Allow-Origin": "*"},
    )


@router.get("/basemap/masks/{code}.geojson")
async def country_mask(code: str) -> Response:
    """The world outside a country (ISO 3166-1 alpha-2 or alpha-3) and the country's outline:
    what a country mask shades. Public: Natural Earth's data, no project's."""
    body = await anyio.to_thread.run_sync(_mask, code.upper())
    return Response(
        body,
        media_type="application/geo+json",
        headers={"Cache-Control": "public, max-age=86400", "Access-Control-Allow-Origin": "*"},
    )


@functools.lru_cache(maxsize=32)
def _mask(code: str) -> bytes:
    rings = mapstyle.outer_rings(orjson.loads(country_shape(code)))
    return orjson.dumps(mapstyle.mask_feature(rings))


@router.get("/r/{token}")
async def report(token: str, request: Request) -> Response:
    """A saved report, opened without a key. `Content-Security-Policy: sandbox` gives the page
    an origin of its own and no scripts, so its HTML cannot act on maproom's origin or on a
    page that frames it."""
    services = _services(request)
    found = reports.opened(services.db, token)  # a read: inline
    headers = {
        "Content-Security-Policy": "sandbox",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
        "Cache-Control": "no-store",
        "Content-Length": str(found.size),
    }
    blobs = services.blobs
    chunks = blobs.read_range(found.blob_key, 0, found.size - 1) if found.size else iter(())
    return StreamingResponse(chunks, headers=headers, media_type="text/html; charset=utf-8")


@router.get("/live/{token}/events")
async def live_events(token: str, request: Request) -> Response:
    """Server-sent events: a `snapshot` (or what a `Last-Event-ID` missed), then each change."""
    link = await _link(request, "live", token)
    services = _services(request)
    hub = services.hub
    resume_from = _last_event_id(request)
    subscription = hub.subscribe(link.project_id, link.id)
    try:
        missed = None
        if resume_from is not None:
            missed = await anyio.to_thread.run_sync(links.resume, services.db, link, resume_from)
        if missed is None:
            state = await anyio.to_thread.run_sync(_state, request, "live", link)
            first = [frame(state["lastEventId"], "snapshot", state)]
            read_up_to = state["lastEventId"]
        else:
            first = [frame(event_id, kind, payload) for event_id, kind, payload in missed]
            read_up_to = missed[-1][0] if missed else resume_from or 0
        hub.ready(subscription, read_up_to)
    except BaseException:
        hub.unsubscribe(subscription)
        raise

    async def stream() -> AsyncIterator[bytes]:
        try:
            yield b"retry: 1000\n\n" + b"".join(first)
            first.clear()  # a snapshot can be large; do not hold it for the stream's life
            while True:
                await subscription.wait(HEARTBEAT_SECONDS)
                if subscription.frames:
                    batch = b"".join(data for _, data in subscription.frames)
                    subscription.frames.clear()
                    yield batch
                elif subscription.closed or _expired(link):
                    return
                else:
                    yield b": heartbeat\n\n"
        finally:
            hub.unsubscribe(subscription)

    headers = {**_page_headers(link), "X-Accel-Buffering": "no"}
    return StreamingResponse(stream(), media_type="text/event-stream", headers=headers)


def _last_event_id(request: Request) -> int | None:
    """`Last-Event-ID` (sent by EventSource on its reconnects), or `?lastEventId=`."""
    raw = request.headers.get("last-event-id") or request.query_params.get("lastEventId")
    if raw is None or not raw.strip().isdigit():
        return None
    return int(raw.strip())


def _expired(link: links.Link) -> bool:
    return link.expires_at is not None and link.expires_at <= utcnow()
