"""Fast JSON responses (orjson), with the entity tag of versioned resources."""

from __future__ import annotations

from typing import Any

import orjson
from fastapi.responses import Response

from maproom.domain.common import etag


def json_response(
    body: Any,
    *,
    status: int = 200,
    version: int | None = None,
    headers: dict[str, str] | None = None,
) -> Response:
    """`body` as JSON (bytes: already encoded); `version` becomes the ETag."""
    all_headers = dict(headers or {})
    if version is not None:
        all_headers["ETag"] = etag(version)
    return Response(
        body if isinstance(body, bytes) else orjson.dumps(body),
        status_code=status,
        media_type="application/json",
        headers=all_headers,
    )


OK = {"ok": True}
