"""`/sessions/{id}/history`: versions, the project as a version left it, restores
(docs/history.md); and `/sessions/{id}/shares` (docs/sharing.md)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, IfMatch, ScopedRoute, project_url, requires
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.history import (
    Restored,
    Share,
    ShareCreate,
    ShareList,
    VersionList,
    VersionView,
)
from maproom.domain import restore, shares
from maproom.errors import NotFound
from maproom.limits import HISTORY_PAGE_MAX

router = APIRouter(
    prefix=f"{API_PREFIX}/sessions/{{id}}", tags=["history"], route_class=ScopedRoute
)


def _version(value: str) -> int:
    """A version number from the path; a malformed one names no version (404)."""
    if not value.isdigit() or len(value) > 9:
        raise NotFound(f"Version {value!r} is not in this project's history")
    return int(value)


@router.get("/history", response_model=VersionList, summary="List the project's versions")
@requires("session")
async def list_history(
    id: str,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=HISTORY_PAGE_MAX)] = 50,
    cursor: Annotated[str | None, Query()] = None,
) -> Response:
    """Every retained version, newest first: who made it, how, what it did."""
    caller = Caller.of(request)
    items, more = await caller.read(restore.listing, project_id=id, limit=limit, cursor=cursor)
    meta: dict[str, object] = {"count": len(items), "nextCursor": more}
    return json_response({"data": items, "meta": meta})


@router.get("/history/{version}", response_model=VersionView, summary="Get a past version")
@requires("session")
async def get_version(id: str, version: str, request: Request) -> Response:
    """The project as it was after that version: title, map state and layers."""
    caller = Caller.of(request)
    found = await caller.read(
        restore.view, project_id=id, version=_version(version), base=project_url(request, id)
    )
    return json_response(found)


@router.post(
    "/history/{version}/restore", response_model=Restored, summary="Restore a past version"
)
@requires("map")
async def restore_version(id: str, version: str, request: Request, if_match: IfMatch) -> Response:
    """Make the project as it was after that version, all or nothing, as a new version;
    layers whose file was deleted since are listed in `missingLayers`."""
    caller = Caller.of(request)
    made = await caller.change(
        restore.restore_version, project_id=id, version=_version(version), if_match=if_match
    )
    return json_response(made.body, version=made.version)


@router.post("/shares", status_code=201, response_model=Share, summary="Share the project")
@requires("session")
async def share_project(id: str, body: ShareCreate, request: Request) -> Response:
    """Share with an email as viewer or editor (again: a new role); the owner only. The answer
    is the same whether an account with that email exists yet or not."""
    caller = Caller.of(request)
    made = await caller.change(shares.create, project_id=id, email=body.email, role=body.role)
    return json_response(made, status=201)


@router.get("/shares", response_model=ShareList, summary="List the project's shares")
@requires("session")
async def list_shares(id: str, request: Request) -> Response:
    """The owner: every share; someone the project is shared with: their own."""
    caller = Caller.of(request)
    found = await caller.read(shares.list_for_project, project_id=id)
    return json_response({"data": found, "meta": {"count": len(found)}})


@router.delete("/shares/{shareId}", response_model=Ok, summary="Revoke or leave a share")
@requires("session")
async def revoke_share(id: str, shareId: str, request: Request) -> Response:
    """The owner revokes a share; the person it names may leave. Refused at once everywhere."""
    caller = Caller.of(request)
    await caller.change(shares.revoke, project_id=id, share_id=shareId)
    return json_response(OK)
