"""The error family of maproom.

Every failure a client can see is a `MaproomError`; each subclass fixes its HTTP status, its
contract code and a default message, and one handler (in `maproom.api.errors`) renders them all
as `{"error": {"code", "message", "details"}}`. Nothing here imports the web framework.

    MaproomError
    ├── BadRequest              400 bad_request
    ├── Unauthorized            401 unauthorized
    ├── Forbidden               403 forbidden
    ├── NotFound                404 not_found
    ├── MethodNotAllowed        405 method_not_allowed
    ├── Conflict                409 conflict
    ├── PreconditionFailed      412 precondition_failed
    ├── PayloadTooLarge         413 payload_too_large
    ├── UnsupportedMediaType    415 unsupported_media_type
    ├── RateLimited             429 rate_limited
    ├── InternalError           500 internal_error
    ├── BadGateway              502 bad_gateway
    ├── ServiceUnavailable      503 service_unavailable
    ├── GatewayTimeout          504 gateway_timeout
    └── InsufficientStorage     507 insufficient_storage

`storage_full(exc)` tells whether an exception from below (the file system, SQLite,
PostgreSQL, an object store) means that there is no room left: the request then answers 507.
"""

from __future__ import annotations

import errno
from typing import Any


class MaproomError(Exception):
    """Base of every client-visible error."""

    status: int = 500
    code: str = "internal_error"
    default_message: str = "Internal error"

    def __init__(
        self,
        message: str | None = None,
        *,
        details: Any = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.message = message or self.default_message
        self.details = details
        self.headers = headers or {}
        super().__init__(self.message)

    def body(self) -> dict[str, Any]:
        """The contract's error envelope."""
        return {"error": {"code": self.code, "message": self.message, "details": self.details}}


class BadRequest(MaproomError):
    """Malformed JSON, schema or semantic violation."""

    status, code, default_message = 400, "bad_request", "Bad request"


class Unauthorized(MaproomError):
    """Missing, malformed, unknown or revoked API key."""

    status, code, default_message = 401, "unauthorized", "A valid API key is required"


class Forbidden(MaproomError):
    """A valid key without the scope the operation needs."""

    status, code, default_message = 403, "forbidden", "The API key lacks a required scope"


class NotFound(MaproomError):
    """Unknown id, or an id of another account."""

    status, code, default_message = 404, "not_found", "Not found"


class MethodNotAllowed(MaproomError):
    """A known path with a method it does not have."""

    status, code, default_message = 405, "method_not_allowed", "Method not allowed"


class Conflict(MaproomError):
    """Idempotency key reused with another body, or still in flight."""

    status, code, default_message = 409, "conflict", "Conflict"


class PreconditionFailed(MaproomError):
    """`If-Match` names a version that is no longer current."""

    status, code, default_message = 412, "precondition_failed", "The resource has changed"


class PayloadTooLarge(MaproomError):
    """Upload or report over its size limit."""

    status, code, default_message = 413, "payload_too_large", "Payload too large"


class UnsupportedMediaType(MaproomError):
    """Upload extension outside the accepted table."""

    status, code, default_message = 415, "unsupported_media_type", "Unsupported media type"


class RangeNotSatisfiable(MaproomError):
    """A Range header that selects no byte of the file."""

    status, code, default_message = 416, "range_not_satisfiable", "Range not satisfiable"


class RateLimited(MaproomError):
    """Over the per-key request rate."""

    status, code, default_message = 429, "rate_limited", "Rate limit exceeded"


class InternalError(MaproomError):
    """A bug; the message carries the request id."""

    status, code, default_message = 500, "internal_error", "Internal error"


class BadGateway(MaproomError):
    """A remote source (a remote COG, the configured LLM) failed or answered nonsense."""

    status, code, default_message = 502, "bad_gateway", "A remote source failed"


class GatewayTimeout(MaproomError):
    """A remote source did not answer in time."""

    status, code, default_message = 504, "gateway_timeout", "A remote source did not answer in time"


class ServiceUnavailable(MaproomError):
    """A dependency (database, storage) is not reachable."""

    status, code, default_message = 503, "service_unavailable", "Service unavailable"


class InsufficientStorage(MaproomError):
    """The disk or the object store is full; nothing of the request was kept."""

    status, code = 507, "insufficient_storage"
    default_message = "No storage space left; nothing was stored"


FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})
FULL_TEXTS = ("database or disk is full", "no space left on device", "disk full",
              "could not extend file", "quota exceeded")  # fmt: skip


def storage_full(exc: BaseException) -> bool:
    """Whether `exc`, or an exception it was raised from, says that storage is full."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, InsufficientStorage):
            return True
        if isinstance(current, OSError) and current.errno in FULL_ERRNOS:
            return True
        text = str(current).lower()
        if type(current).__name__ in ("OperationalError", "DiskFull") and any(
            t in text for t in FULL_TEXTS
        ):
            return True
        current = current.__cause__ or current.__context__
    return False


def field_error(path: str, message: str) -> BadRequest:
    """A 400 naming one faulty field, in the contract's `details` shape."""
    return BadRequest(f"{path}: {message}", details=[{"path": path, "message": message}])


def validation_details(errors: list[Any], prefix: str = "") -> list[dict[str, str]]:
    """Pydantic-style error dicts as the contract's `[{"path", "message"}]`."""
    details = []
    for err in errors:
        path = prefix
        for part in err.get("loc", ()):
            if isinstance(part, int):
                path += f"[{part}]"
            elif part not in ("body", "query", "path", "header") or path:
                path = f"{path}.{part}" if path else str(part)
        message = str(err.get("msg", "invalid value"))
        details.append({"path": path, "message": message})
    return details


def invalid(errors: list[Any], prefix: str = "") -> BadRequest:
    """A 400 carrying every validation failure, the first one in the message."""
    details = validation_details(errors, prefix)
    first = details[0] if details else {"path": "", "message": "invalid request"}
    where = f"{first['path']}: " if first["path"] else ""
    return BadRequest(f"Invalid request: {where}{first['message']}", details=details)
