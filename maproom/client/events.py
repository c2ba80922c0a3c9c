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

from maproom.client.core import STREAM_TIMEOUT, ApiError, ServiceUnreachable
from maproom.retry import backoff_seconds

OWN_LINK_SECONDS = 3600  # a link the client makes for itself expires after this


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
    """Where a live stream stands: its link, the last event id seen, the reconnects so far.

    Given a project rather than a link, the client makes a link of its own that expires after
    `OWN_LINK_SECONDS` (so that watching leaves no link behind for long), and a new one when
    it expires; the new stream resumes from the last event seen, as events are the project's."""

    def __init__(
        self,
        project_id: str | None,
        live_view_url: str | None,
        last_event_id: int | None,
        max_retries: int,
    ) -> None:
        if project_id is None and live_view_url is None:
            raise TypeError("events() needs a project_id or a live_view_url")
        self.project_id = project_id or ""
        self.own_link = live_view_url is None
        self.url: str | None = None
        if live_view_url is not None:
            self.use(live_view_url)
        self.last_event_id = last_event_id
        self.max_retries = max_retries
        self.failures = 0

    def use(self, live_view_url: str) -> None:
        """Stream from this link (`.../live/{token}` → `.../live/{token}/events`)."""
        self.url = live_view_url.rstrip("/") + "/events"

    def refused(self, error: ApiError) -> None:
        """After the service refused the stream: raise, unless the link was the client's own
        and has expired (a new one is made; a project that is gone refuses that)."""
        if not (self.own_link and error.code == "not_found"):
            raise error
        self.url = None

    def request(self) -> dict[str, Any]:
        """The arguments of the next connection's `stream("GET", ...)`."""
        assert self.url is not None, "make a link first"
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
