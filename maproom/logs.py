"""What log lines need to be traced back to a request: its id, set for the request's whole
handling (worker threads included: anyio copies the context into them)."""

from __future__ import annotations

import logging
from contextvars import ContextVar

REQUEST_ID: ContextVar[str | None] = ContextVar("maproom_request_id", default=None)
log = logging.getLogger("maproom")


def detail(message: str, *args: object) -> None:
    """Log what a client is not told (a library's own words, a file name on the server), with
    the request id the client was given."""
    log.warning("%s (request id %s)", message % args if args else message, REQUEST_ID.get())
