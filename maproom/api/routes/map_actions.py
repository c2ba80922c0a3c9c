"""`POST /sessions/{id}/map/actions` (spec 4.7; rules in `maproom.domain.mapactions`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, Request
from fastapi.responses import Response

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, ScopedRoute, project_url, requires
from maproom.api.responses import json_response
from maproom.api.schemas.actions import ActionsDispatched
from maproom.domain import mapactions
from maproom.errors import BadRequest

router = APIRouter(prefix=f"{API_PREFIX}/sessions/{{id}}", tags=["map"], route_class=ScopedRoute)
ACTIONS_BODY = Body(
    description="`{actions: [...]}`: applied in order, all or nothing",
    openapi_examples={
        "fly": {"value": {"actions": [{"type": "fly_to", "center": [-9.14, 38.72], "zoom": 11}]}},
        "tile layer": {
            "value": {
                "actions": [
                    {"type": "add_tile_layer", "url": "https://tile.example.com/{z}/{x}/{y}.png"}
                ]
            }
        },
    },
)


@router.post("/map/actions", response_model=ActionsDispatched, summary="Dispatch map actions")
@requires("map")
async def dispatch_actions(
    id: str, request: Request, body: dict[str, Any] = ACTIONS_BODY
) -> Response:
    """Validate the whole batch, then apply it in one transaction; each applied action is
    published to the project's live stream. Types: the 23 of spec 4.7 and their `map.`
    aliases (camelCase or snake_case)."""
    if set(body) - {"actions"}:
        extra = sorted(set(body) - {"actions"})[0]
        raise BadRequest(
            f"Unknown field {extra!r}", details=[{"path": extra, "message": "unknown field"}]
        )
    caller = Caller.of(request)
    result = await caller.write(
        mapactions.dispatch,
        blobs=caller.services.blobs,
        project_id=id,
        actions=body.get("actions"),
        base=project_url(request, id),
        fetch_allowlist=caller.services.settings.fetch_allowed,
    )
    return json_response(result)
