"""Typed dependencies: the services, the caller (`Principal`) with its scopes, `If-Match`."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Annotated, Any

from fastapi import Depends, Header, Request

from maproom.domain.keys import Principal
from maproom.errors import Unauthorized
from maproom.services import Services


async def get_services(request: Request) -> Services:
    """The process's services, built by the app factory."""
    services: Services = request.app.state.services
    return services


async def get_principal(request: Request) -> Principal:
    """The caller, authenticated by `AuthMiddleware`."""
    principal: Principal | None = getattr(request.state, "principal", None)
    if principal is None:
        raise Unauthorized()
    return principal


def require_scopes(*any_of: str) -> Callable[..., Coroutine[Any, Any, Principal]]:
    """A dependency that yields the caller if its key holds one of the scopes, else 403."""

    async def dependency(principal: Annotated[Principal, Depends(get_principal)]) -> Principal:
        principal.require(*any_of)
        return principal

    dependency.__name__ = f"require_{'_or_'.join(any_of)}"
    return dependency


async def get_if_match(
    if_match: Annotated[
        str | None,
        Header(description="ETag of the version this change is based on; 412 if stale"),
    ] = None,
) -> frozenset[str] | None:
    """The strong entity tags of `If-Match` (`*` kept); weak tags never match a strong one."""
    if if_match is None:
        return None
    tags = {tag.strip() for tag in if_match.split(",")}
    return frozenset(tag for tag in tags if tag and not tag.startswith("W/"))


ServicesDep = Annotated[Services, Depends(get_services)]
AnyKey = Annotated[Principal, Depends(get_principal)]
SessionScope = Annotated[Principal, Depends(require_scopes("session"))]
KeysScope = Annotated[Principal, Depends(require_scopes("keys"))]
IfMatch = Annotated[frozenset[str] | None, Depends(get_if_match)]
