"""Request bodies read by hand, for operations that skip FastAPI's body handling (hot paths,
and bodies whose schema the domain validates itself)."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import Request

from maproom.api.deps import PARSED_BODY
from maproom.errors import BadRequest

_UNPARSED = object()


async def json_object(request: Request) -> dict[str, Any]:
    """The request body as a JSON object, or a 400 saying what is wrong with it."""
    body = request.scope.get("state", {}).get(PARSED_BODY, _UNPARSED)
    if body is _UNPARSED:
        try:
            body = orjson.loads(await request.body())
        except orjson.JSONDecodeError as exc:
            reason = str(exc).split(":", 1)[0]
            raise BadRequest(
                f"Malformed JSON body: {reason}", details=[{"path": "body", "message": reason}]
            ) from None
    if not isinstance(body, dict):
        problem = [{"path": "body", "message": "expected an object"}]
        raise BadRequest("The body must be a JSON object", details=problem)
    return body
