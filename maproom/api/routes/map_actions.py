"""`POST /sessions/{id}/map/actions` (docs/actions.md; the path: `maproom.domain.actions`)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from maproom.api import API_PREFIX
from maproom.api.bodies import json_object
from maproom.api.deps import Caller, ScopedRoute, project_url, requires
from maproom.api.openapi import ACTIONS_REF, json_body
from maproom.api.responses import json_response
from maproom.api.schemas.actions import ActionsDispatched
from maproom.domain import layers
from maproom.domain.actions import commands as actions
from maproom.errors import BadRequest

router = APIRouter(prefix=f"{API_PREFIX}/sessions/{{id}}", tags=["map"], route_class=ScopedRoute)


@router.post(
    "/map/actions",
    response_model=ActionsDispatched,
    summary="Dispatch map actions",
    openapi_extra=json_body(ACTIONS_REF, "`{actions: [...]}`: applied in order, all or nothing"),
)
@requires("map")
async def dispatch_actions(id: str, request: Request) -> Response:
    """Validate the whole batch, then apply it in one transaction, all or nothing; each
    applied action is published, normalised, on the project's live stream. Types may be
    given as their `map.` aliases (camelCase or snake_case), parameters in camelCase."""
    body = await json_object(request)
    if set(body) - {"actions"}:
        extra = sorted(set(body) - {"actions"})[0]
        raise BadRequest(
            f"Unknown field {extra!r}", details=[{"path": extra, "message": "unknown field"}]
        )
    caller = Caller.of(request)
    batch = body.get("actions")
    if actions.converts(batch):  # inline data or a derived layer: slow work, off the loop
        applied = await caller.analyse(
            request, actions.dispatch, blobs=caller.services.blobs, project_id=id,
            actions=batch, analysis=caller.services.analysis,
        )  # fmt: skip
    else:
        applied = await caller.change(
            actions.dispatch, blobs=caller.services.blobs, project_id=id, actions=batch
        )
    base = project_url(request, id) if applied.created else ""
    return json_response(
        {
            "ok": True,
            "dispatched": len(applied.steps),
            "layers": [
                {"layer_id": row.id, "url": layers.data_url(base, row)} for row in applied.created
            ],
        }
    )
