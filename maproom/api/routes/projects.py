"""`/sessions`: projects (spec 4.2)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Query
from fastapi.responses import Response

from maproom.api.deps import IfMatch, ServicesDep, SessionScope
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
from maproom.domain import projects

router = APIRouter(prefix="/sessions", tags=["projects"])


@router.get("", response_model=ProjectList, summary="List projects")
def list_projects(
    principal: SessionScope,
    services: ServicesDep,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
    cursor: Annotated[str | None, Query()] = None,
) -> Response:
    """The caller's projects, newest `updatedAt` first; follow `meta.nextCursor` for more."""
    items, next_cursor = projects.list_for_account(
        services.db, principal=principal, limit=limit, cursor=cursor
    )
    meta: dict[str, object] = {"count": len(items)}
    if next_cursor:
        meta["nextCursor"] = next_cursor
    return json_response({"data": items, "meta": meta})


@router.post("", status_code=201, response_model=ProjectRead, summary="Create a project")
def create_project(
    principal: SessionScope,
    services: ServicesDep,
    body: Annotated[ProjectCreate | None, Body()] = None,
) -> Response:
    """A new project with the default map state, changed by any `mapState` given."""
    body = body or ProjectCreate()
    changes = body.mapState.changes() if body.mapState else {}
    created = projects.create(services.db, principal=principal, title=body.title, map_state=changes)
    return json_response(created.body, status=201, version=created.version)


@router.get("/{id}", response_model=ProjectRead, summary="Get a project")
def get_project(id: str, principal: SessionScope, services: ServicesDep) -> Response:
    """The whole project, with an ETag for `If-Match`."""
    found = projects.read(services.db, principal=principal, project_id=id)
    return json_response(found.body, version=found.version)


@router.patch("/{id}", response_model=ProjectPatched, summary="Partially update a project")
def patch_project(
    id: str,
    body: ProjectUpdate,
    principal: SessionScope,
    services: ServicesDep,
    if_match: IfMatch,
) -> Response:
    """Spec 4.2: present fields only; `mapState` shallow-merged; nested objects replaced whole."""
    patched = projects.update(
        services.db,
        principal=principal,
        project_id=id,
        changes=body.changes(),
        if_match=if_match,
    )
    return json_response(patched.body, version=patched.version)


@router.delete("/{id}", response_model=Ok, summary="Delete a project")
def delete_project(id: str, principal: SessionScope, services: ServicesDep) -> Response:
    """Delete the project and everything it owns."""
    projects.delete_project(services.db, principal=principal, project_id=id)
    return json_response(OK)


@router.post("/{id}/fork", status_code=201, response_model=ProjectRead, summary="Fork a project")
def fork_project(
    id: str,
    principal: SessionScope,
    services: ServicesDep,
    body: Annotated[ForkCreate | None, Body()] = None,
) -> Response:
    """Copy map state, layers, styles and files into a new project."""
    title = body.title if body else None
    forked = projects.fork(services.db, principal=principal, project_id=id, title=title)
    return json_response(forked.body, status=201, version=forked.version)


@router.get("/{id}/map", response_model=MapView, summary="Get the project map state")
def get_map(id: str, principal: SessionScope, services: ServicesDep) -> Response:
    """Map state and layer details (top first): everything needed to draw the map."""
    return json_response(projects.map_view(services.db, principal=principal, project_id=id))
