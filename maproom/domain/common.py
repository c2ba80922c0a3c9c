"""Small helpers every domain module shares: ids, clocks, versions, cursors, omittable fields."""

from __future__ import annotations

import base64
import binascii
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, TypeVar

import orjson
from pydantic import BeforeValidator, Field
from pydantic.config import JsonDict

from maproom.errors import BadRequest, NotFound, PreconditionFailed

T = TypeVar("T")


def _hide_null(schema: JsonDict) -> None:
    """Document an optional field as its type alone: clients omit it rather than send null."""
    branches = schema.get("anyOf")
    if isinstance(branches, list):
        kept = [b for b in branches if b != {"type": "null"}]
        if len(kept) == 1 and isinstance(kept[0], dict):
            del schema["anyOf"]
            schema.update(kept[0])
    if "default" in schema and schema["default"] is None:
        del schema["default"]  # "omitted" is not a value a client could send


# A request field that may be omitted. Unlike `X | SkipJsonSchema[None]`, which pydantic
# validates as a two-branch union whose error paths name the branches
# (`mapState.MapStatePatch.center.tuple[...]`), this stays one nullable type, so a 400's
# `details` name the fields as the client sent them.
Omittable = Annotated[T | None, Field(json_schema_extra=_hide_null)]


def _not_null(value: Any) -> Any:
    if value is None:
        raise ValueError("may not be null")
    return value


# A field that may be omitted but, when given, may not be null.
Given = Annotated[T | None, BeforeValidator(_not_null), Field(json_schema_extra=_hide_null)]


def new_id() -> str:
    """A fresh UUID string."""
    return str(uuid.uuid4())


EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def parse_moment(value: object) -> datetime:
    """An ISO 8601 timestamp from a cursor (aware, UTC), or BadRequest."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        raise BadRequest(
            "Invalid cursor", details=[{"path": "cursor", "message": "not a cursor"}]
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


def iso(value: datetime | None) -> str | None:
    """ISO 8601 with a `Z` suffix and millisecond precision, or None."""
    if value is None:
        return None
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_uuid(value: str) -> str | None:
    """The canonical form of a UUID string, or None when it is not one."""
    try:
        return str(uuid.UUID(value))
    except (ValueError, AttributeError, TypeError):
        return None


def require_uuid(value: str, what: str) -> str:
    """A canonical UUID, or NotFound: a malformed id names nothing that exists."""
    parsed = parse_uuid(value)
    if parsed is None:
        raise NotFound(f"{what} not found")
    return parsed


def check_version(current: int, if_match: frozenset[str] | None) -> None:
    """Raise PreconditionFailed unless the `If-Match` tags include the current version."""
    if if_match is None or "*" in if_match or etag(current) in if_match:
        return
    raise PreconditionFailed(
        "If-Match does not name the current version", details={"currentETag": etag(current)}
    )


def etag(version: int) -> str:
    """The strong entity tag of a resource version."""
    return f'"{version}"'


def encode_cursor(values: list[Any]) -> str:
    """An opaque pagination cursor."""
    return base64.urlsafe_b64encode(orjson.dumps(values)).decode().rstrip("=")


def decode_cursor(cursor: str, length: int) -> list[Any]:
    """The values inside a cursor made by `encode_cursor`, or BadRequest."""
    try:
        values = orjson.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (ValueError, binascii.Error, orjson.JSONDecodeError):
        values = None
    if not isinstance(values, list) or len(values) != length:
        raise BadRequest("Invalid cursor", details=[{"path": "cursor", "message": "not a cursor"}])
    return values
