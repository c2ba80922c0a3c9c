"""`/sessions`: projects (docs/api-decisions.md)."""

from __future__ import annotations

from typing import Annotated

import anyio.to_thread
from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import Response

from maproom.api import API_PREFIX
from maproom.api.deps import (
    Caller,
    IfMatch,
    ScopedRoute,
    project_url,
    public_origin,
    requires,
)
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.projects import (
    ForkCreate,
    MapView,
    ProjectCreate,
    ProjectList,
    ProjectPatched,
    ProjectRead,
    ProjectUpdate,
)
from maproom.domain import edits, mapstyle, projects

router = APIRouter(prefix=f"{API_PREFIX}/sessions", tags=["projects"], route_class=ScopedRoute)


@router.get("", response_model=ProjectList, summary="List projects")
@requires("session")
async def list_projects(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: Annotated[str | None, Query()] = None,
) -> Response:
    """The caller's projects, newest `updatedAt` first; follow `meta.nextCursor` for more."""
    caller = Caller.of(request)
    items, next_cursor = await caller.read(projects.list_for_account, limit=limit, cursor=cursor)
    meta: dict[str, object] = {"count": len(items)}
    if next_cursor:
        meta["nextCursor"] = next_cursor
    return json_response({"data": items, "meta": meta})


@router.post("", status_code=201, response_model=ProjectRead, summary="Create a project")
@requires("session")
async def create_project(
    request: Request, body: Annotated[ProjectCreate | None, Body()] = None
) -> Response:
    """A new project with the default map state, changed by any `mapState` given."""
    caller = Caller.of(request)
    body = body or ProjectCreate()
    changes = body.mapState.changes() if body.mapState else {}
    created = await caller.change(projects.create, title=body.title, map_state=changes)
    return json_response(created.body, status=201, version=created.version)


@router.get("/{id}", response_model=ProjectRead, summary="Get a project")
@requires("session")
async def get_project(id: str, request: Request) -> Response:
    """The whole project, with an ETag for `If-Match`."""
    caller = Caller.of(request)
    found = await caller.read(projects.read_json, project_id=id, bodies=caller.services.bodies)
    return json_response(found.json, version=found.version)


@router.patch("/{id}", response_model=ProjectPatched, summary="Partially update a project")
@requires("session")
async def patch_project(
    id: str, body: ProjectUpdate, request: Request, if_match: IfMatch
) -> Response:
    """Spec 4.2: present fields only; `mapState` shallow-merged; nested objects replaced whole."""
    caller = Caller.of(request)
    patched = await caller.change(
        edits.patch_project,
        blobs=caller.services.blobs,
        project_id=id,
        changes=body.changes(),
        if_match=if_match,
    )
    return json_response(patched.body, version=patched.version)


@router.delete("/{id}", response_model=Ok, summary="Delete a project")
@requires("session")
async def delete_project(id: str, request: Request) -> Response:
    """Delete the project and everything it owns."""
    caller = Caller.of(request)
    await caller.write(projects.delete_project, blobs=caller.services.blobs, project_id=id)
    return json_response(OK)


@router.post("/{id}/fork", status_code=201, response_model=ProjectRead, summary="Fork a project")
@requires("session")
async def fork_project(
    id: str, request: Request, body: Annotated[ForkCreate | None, Body()] = None
) -> Response:
    """Copy map state, layers, styles and files into a new project."""
    caller = Caller.of(request)
    forked = await caller.write(
        projects.fork,
        blobs=caller.services.blobs,
        project_id=id,
        title=body.title if body else None,
    )
    return json_response(forked.body, status=201, version=forked.version)


@router.get("/{id}/map", response_model=MapView, summary="Get the project map state")
@requires("session")
async def get_map(id: str, request: Request) -> Response:
    """Map state and layer details (top first): everything needed to draw the map."""
    caller = Caller.of(request)
    view = await caller.read(projects.map_view, project_id=id, base=project_url(request, id))
    return json_response(view)


@router.get("/{id}/style.json", summary="The project as a MapLibre style")
@requires("layers")
async def get_style(id: str, request: Request) -> Response:
    """The project compiled to a MapLibre style (version 8) that any MapLibre client draws as
    maproom's pages do; its sources are read with the same key (docs/open-formats.md)."""
    caller = Caller.of(request)
    drawing = await caller.read(projects.drawing, project_id=id, base=project_url(request, id))
    style = await anyio.to_thread.run_sync(
        mapstyle.project_style, drawing, caller.services.basemaps, public_origin(request)
    )
    return json_response(style)
