"""`/api-keys`, `/verify`, `/usage` (CONTRACT.md 2)."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from maproom.api.deps import AnyKey, KeysScope, ServicesDep, SessionScope
from maproom.api.responses import OK, json_response
from maproom.api.schemas.common import Ok
from maproom.api.schemas.keys import KeyCreate, KeyCreated, KeyList, Usage, Verification
from maproom.domain import keys, usage

router = APIRouter(tags=["keys"])


@router.get("/api-keys", response_model=KeyList, summary="List API keys")
def list_keys(principal: KeysScope, services: ServicesDep) -> Response:
    """Active keys of the caller's account (records only)."""
    records = keys.list_for_account(
        services.db, principal=principal, last_used=services.meter.last_used()
    )
    return json_response({"data": records, "meta": {"count": len(records)}})


@router.post("/api-keys", status_code=201, response_model=KeyCreated, summary="Create an API key")
def create_key(body: KeyCreate, principal: KeysScope, services: ServicesDep) -> Response:
    """A new key; its plaintext is in this answer only. Scopes cannot exceed the caller's."""
    created = keys.create(services.db, principal=principal, name=body.name, scopes=body.scopes)
    return json_response(created, status=201)


@router.delete("/api-keys/{keyId}", response_model=Ok, summary="Revoke an API key")
def revoke_key(keyId: str, principal: KeysScope, services: ServicesDep) -> Response:
    """Revoke a key of the caller's account; it is refused from the next request on."""
    revoked = keys.revoke(services.db, principal=principal, key_id=keyId)
    services.authenticator.forget(revoked)
    return json_response(OK)


@router.get("/verify", response_model=Verification, summary="Verify the API key")
def verify(principal: AnyKey, services: ServicesDep) -> Response:
    """The account and key behind the presented key (any scope)."""
    last_used = services.meter.last_used().get(principal.key_id)
    return json_response(keys.verify(services.db, principal=principal, last_used=last_used))


@router.get("/usage", response_model=Usage, summary="Get current plan usage")
def get_usage(principal: SessionScope, services: ServicesDep) -> Response:
    """Requests this month, projects, storage and the rate limit of the caller's account."""
    body = usage.report(
        services.db,
        principal=principal,
        meter=services.meter,
        rate_limit=services.settings.rate_limit_per_minute,
    )
    return json_response(body)
