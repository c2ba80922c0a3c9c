"""Typed server-sent events: the live stream of a project, and a streamed chat turn.

The live stream (`/live/{token}/events`) sends a `snapshot` on connect, then one event per
change (`action`, `layer`, `mapState`, `message`, `file_generated`, ...), each with an
increasing id. `Resumption` keeps the last id seen and decides when to reconnect: after a
dropped connection or a stream that ended, it asks again with `Last-Event-ID` and the service
sends what was missed, in order, so nothing is lost or repeated. A link that is gone (the
project deleted, the link revoked) ends the iteration with the service's `not_found` error.
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from httpx_sse import ServerSentEvent
from pydantic import BaseModel

from maproom.client.core import STREAM_TIMEOUT, ServiceUnreachable
from maproom.retry import backoff_seconds


class LiveEvent(BaseModel):
    """One event of a project's live stream."""

    id: int | None
    type: str  # snapshot, action, layer, mapState, message, file_generated, ...
    data: Any


class ChatEvent(BaseModel):
    """One event of a streamed chat turn: `token` `{"text"}`, `action` (an applied action),
    `question` `{"id", "text", "options"}`, then `done` (the whole answer) or `error` (the
    error envelope)."""

    type: Literal["token", "action", "question", "done", "error"]
    data: Any


def dispatched(sse: ServerSentEvent) -> bool:
    """Whether a parsed block is an event: per the SSE standard, a block without data (such
    as `retry: 1000`) is not dispatched."""
    return bool(sse.data)


def live_event(sse: ServerSentEvent) -> LiveEvent:
    event_id = int(sse.id) if sse.id and sse.id.isdigit() else None
    return LiveEvent(id=event_id, type=sse.event, data=orjson.loads(sse.data or "null"))


def chat_event(sse: ServerSentEvent) -> ChatEvent:
    return ChatEvent.model_validate({"type": sse.event, "data": orjson.loads(sse.data or "null")})


class Resumption:
    """Where a live stream stands: the last event id seen, and the reconnects so far."""

    def __init__(self, live_view_url: str, last_event_id: int | None, max_retries: int) -> None:
        # The stream of a live view link: `.../live/{token}` → `.../live/{token}/events`.
        self.url = live_view_url.rstrip("/") + "/events"
        self.last_event_id = last_event_id
        self.max_retries = max_retries
        self.failures = 0

    def request(self) -> dict[str, Any]:
        """The arguments of the next connection's `stream("GET", ...)`."""
        headers = {"Accept": "text/event-stream"}
        if self.last_event_id is not None:
            headers["Last-Event-ID"] = str(self.last_event_id)
        return {"method": "GET", "url": self.url, "headers": headers, "timeout": STREAM_TIMEOUT}

    def seen(self, sse: ServerSentEvent) -> LiveEvent:
        event = live_event(sse)
        if event.id is not None:
            self.last_event_id = event.id
        self.failures = 0  # the connection works again
        return event

    def wait_after(self, error: Exception | None) -> float:
        """Seconds to wait before reconnecting after the stream ended (`error` None) or
        failed; raises when the failures go on past the retries."""
        if error is None:
            return 0.0  # the service ended the stream (a worker stopping): resume at once
        self.failures += 1
        if self.failures > self.max_retries:
            raise ServiceUnreachable(f"the live stream failed {self.failures} times: {error}")
        return backoff_seconds(None, self.failures)


def required(project_id: str | None) -> str:
    if project_id is None:
        raise TypeError("events() needs a project_id or a live_view_url")
    return project_id
