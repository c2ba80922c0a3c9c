"""`/sessions/{id}/live-view-url`, `/static-view-url` and `/view-links` (docs/live.md)."""

from __future__ import annotations

from fastapi import APIRouter, Body, Request
from fastapi.responses import Response

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, ScopedRoute, public_origin, requires
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.views import LiveViewUrl, StaticViewUrl, ViewLinkCreate, ViewLinkList
from maproom.domain import links

router = APIRouter(prefix=f"{API_PREFIX}/sessions/{{id}}", tags=["views"], route_class=ScopedRoute)
LINK_BODY = Body(
    None,
    description="Optional: an expiry and the origins allowed to embed the page in a frame",
)


async def _create(request: Request, id: str, kind: str, body: ViewLinkCreate | None) -> str:
    caller = Caller.of(request)
    link = await caller.change(
        links.create,
        project_id=id,
        kind=kind,
        expires_in_seconds=body.expiresInSeconds if body else None,
        allowed_origins=body.allowedOrigins if body else None,
    )
    return f"{public_origin(request)}{link.path}"


@router.post(
    "/live-view-url", status_code=201, response_model=LiveViewUrl, summary="Get live view URL"
)
@requires("remote")
async def live_view_url(
    id: str, request: Request, body: ViewLinkCreate | None = LINK_BODY
) -> Response:
    """A new link to a page that follows the project in real time (server-sent events)."""
    return json_response({"liveViewUrl": await _create(request, id, "live", body)}, status=201)


@router.post(
    "/static-view-url",
    status_code=201,
    response_model=StaticViewUrl,
    summary="Get static embed URL",
)
@requires("remote")
async def static_view_url(
    id: str, request: Request, body: ViewLinkCreate | None = LINK_BODY
) -> Response:
    """A new link to a page that shows the project as it is when the page loads."""
    url = await _create(request, id, "static", body)
    return json_response({"staticViewUrl": url}, status=201)


@router.get("/view-links", response_model=ViewLinkList, summary="List view links")
@requires("remote")
async def list_view_links(id: str, request: Request) -> Response:
    """The project's live and static links, oldest first."""
    caller = Caller.of(request)
    rows = await caller.read(links.list_for_project, project_id=id)
    origin = public_origin(request)
    found = [links.record(row, origin) for row in rows]
    return json_response({"data": found, "meta": {"count": len(found)}})


@router.delete("/view-links/{linkId}", response_model=Ok, summary="Revoke a view link")
@requires("remote")
async def revoke_view_link(id: str, linkId: str, request: Request) -> Response:
    """Revoke a link: its pages answer 404 and its open streams close at once."""
    caller = Caller.of(request)
    await caller.change(links.revoke, project_id=id, link_id=linkId)
    return json_response(OK)
