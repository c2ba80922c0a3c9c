"""`/api-keys`, `/verify`, `/usage` (docs/api-decisions.md)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, ScopedRoute, requires
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.keys import KeyCreate, KeyCreated, KeyList, Usage, Verification
from maproom.domain import keys, usage

router = APIRouter(prefix=API_PREFIX, tags=["keys"], route_class=ScopedRoute)


@router.get("/api-keys", response_model=KeyList, summary="List API keys")
@requires("keys")
async def list_keys(request: Request) -> Response:
    """Active keys of the caller's account (records only)."""
    caller = Caller.of(request)
    last_used = caller.services.meter.last_used()
    records = await caller.read(keys.list_for_account, last_used=last_used)
    return json_response({"data": records, "meta": {"count": len(records)}})


@router.post("/api-keys", status_code=201, response_model=KeyCreated, summary="Create an API key")
@requires("keys")
async def create_key(body: KeyCreate, request: Request) -> Response:
    """A new key; its plaintext is in this answer only. Scopes cannot exceed the caller's."""
    caller = Caller.of(request)
    created = await caller.change(keys.create, name=body.name, scopes=body.scopes)
    return json_response(created, status=201)


@router.delete("/api-keys/{keyId}", response_model=Ok, summary="Revoke an API key")
@requires("keys")
async def revoke_key(keyId: str, request: Request) -> Response:
    """Revoke a key of the caller's account; it is refused from the next request on."""
    caller = Caller.of(request)
    await caller.change(keys.revoke, key_id=keyId)  # every worker's key cache forgets it
    return json_response(OK)


@router.get("/verify", response_model=Verification, summary="Verify the API key")
@requires()
async def verify(request: Request) -> Response:
    """The account and key behind the presented key (any scope)."""
    caller = Caller.of(request)
    last_used = caller.services.meter.last_used().get(caller.principal.key_id)
    return json_response(await caller.read(keys.verify, last_used=last_used))


@router.get("/usage", response_model=Usage, summary="Get current plan usage")
@requires("session")
async def get_usage(request: Request) -> Response:
    """Requests this month, projects, storage and the rate limit of the caller's account."""
    caller = Caller.of(request)
    services = caller.services
    body = await caller.read(
        usage.report, meter=services.meter, rate_limit=services.settings.rate_limit_per_minute
    )
    return json_response(body)
