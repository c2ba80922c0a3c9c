"""One place that renders every error as the contract's envelope."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException
from starlette.routing import Match

from maproom.api.responses import json_response
from maproom.errors import (
    BadRequest,
    MaproomError,
    MethodNotAllowed,
    NotFound,
    invalid,
)

METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")


def render(error: MaproomError) -> Response:
    """The envelope response of a domain error."""
    return json_response(error.body(), status=error.status, headers=error.headers)


async def on_maproom_error(_request: Request, exc: Exception) -> Response:
    """Domain errors carry their own status and code."""
    assert isinstance(exc, MaproomError)
    return render(exc)


async def on_validation_error(_request: Request, exc: Exception) -> Response:
    """Schema violations are 400 `bad_request` (never 422), with the failing paths."""
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    if any(e.get("type") == "json_invalid" for e in errors):
        detail = next(e for e in errors if e.get("type") == "json_invalid")
        reason = (detail.get("ctx") or {}).get("error", "invalid JSON")
        return render(
            BadRequest(
                f"Malformed JSON body: {reason}",
                details=[{"path": "body", "message": str(reason)}],
            )
        )
    return render(invalid(errors))


async def on_http_error(request: Request, exc: Exception) -> Response:
    """Framework errors (unknown route, wrong method) in the same envelope."""
    assert isinstance(exc, HTTPException)
    headers = dict(exc.headers or {})
    if exc.status_code == 404:
        return render(NotFound("No such resource", headers=headers))
    if exc.status_code == 405:
        headers["Allow"] = allowed_methods(request) or headers.get("Allow", "")
        return render(MethodNotAllowed(headers=headers))
    error = MaproomError(str(exc.detail), headers=headers)
    error.status = exc.status_code
    error.code = "bad_request" if exc.status_code == 400 else "http_error"
    return render(error)


def allowed_methods(request: Request) -> str:
    """Every method the request's path supports; Starlette names only its first route's."""
    allowed = []
    for method in METHODS:
        probe = {**request.scope, "method": method}
        if any(route.matches(probe)[0] is Match.FULL for route in request.app.router.routes):
            allowed.append(method)
    return ", ".join(allowed)


def install(app: FastAPI) -> None:
    """Register the handlers on an app."""
    app.add_exception_handler(MaproomError, on_maproom_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
    app.add_exception_handler(HTTPException, on_http_error)
