"""Fan-out of each project's event log to its open live streams, in one process.

The event log is durable (the `events` table, appended in the same transaction as each
change); this hub only tells open streams about new entries, fast:

- A committed write names its topics (`Writer.notify`): `project:{id}` when a project's log
  grew, `gone:{id}` when a project was deleted, `link-gone:{id}` when a view link was revoked.
  The database calls `LiveHub.heard` with them from the writing thread; the hub hops onto the
  event loop.
- Per project with open streams, one pump reads the new entries once (`fetch(project, after)`)
  and encodes each as one SSE frame, once, whatever the number of streams; every stream gets
  the same bytes object.
- Each stream has a bounded backlog. A stream that falls more than `BACKLOG` frames behind is
  closed rather than allowed to hold memory or slow the others; its client reconnects with
  `Last-Event-ID` and catches up from the log.

Events of one project commit in id order: every write to a project holds its row lock (the
write lock on SQLite), so a pump reading `id > last seen` never skips a late commit.
With several workers, the topics of other workers' commits arrive through the shared bus
(`maproom.adapters.redis`) and are heard the same way; `*` (RESYNC) makes every channel read
the log again, after the bus was down and may have missed something.
"""

from __future__ import annotations

import asyncio
import collections
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

BACKLOG = 512
RESYNC = "*"

Fetch = Callable[[str, int], Awaitable[list[tuple[int, str, Any]]]]


def on_loop(
    loop: asyncio.AbstractEventLoop | None, handle: Callable[[frozenset[str]], None], topics: Any
) -> None:
    """Have `loop` call `handle(topics)` soon, from any thread (nothing once it is closed): a
    call made on the loop itself need not wake it through its pipe."""
    if loop is None or loop.is_closed():
        return
    try:
        here = asyncio.get_running_loop() is loop
    except RuntimeError:
        here = False
    if here:
        loop.call_soon(handle, topics)
    else:
        loop.call_soon_threadsafe(handle, topics)


def frame(event_id: int | None, kind: str, data: Any) -> bytes:
    """One server-sent event."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}event: {kind}\ndata: ".encode() + orjson.dumps(data) + b"\n\n"


@dataclass(eq=False)
class Subscription:
    """One open stream: the frames waiting for it, and whether it must end."""

    project_id: str
    link_id: str
    after: int = -1  # frames at or below this id reached the client another way
    frames: collections.deque[tuple[int, bytes]] = field(default_factory=collections.deque)
    closed: bool = False
    reason: str = ""
    _ready: asyncio.Event = field(default_factory=asyncio.Event)

    def offer(self, event_id: int, data: bytes) -> None:
        if self.closed or event_id <= self.after:
            return
        if len(self.frames) >= BACKLOG:
            self.close("lagging")
            return
        self.frames.append((event_id, data))
        self._ready.set()

    def close(self, reason: str) -> None:
        self.closed, self.reason = True, reason
        self.frames.clear()
        self._ready.set()

    async def wait(self, timeout: float) -> None:
        """Until there is something to send or the stream must end, or `timeout` passes."""
        if self.frames or self.closed:
            return
        self._ready.clear()
        # A timer rather than `asyncio.wait_for`, which would make a task per waiting stream.
        timer = asyncio.get_running_loop().call_later(timeout, self._ready.set)
        try:
            await self._ready.wait()
        finally:
            timer.cancel()


@dataclass(eq=False)
class _Channel:
    subscribers: set[Subscription] = field(default_factory=set)
    last_id: int | None = None  # None until a first subscriber has read the log
    dirty: bool = False
    pumping: bool = False


class LiveHub:
    """Open live streams by project, fed from the event log."""

    def __init__(self, fetch: Fetch) -> None:
        self._fetch = fetch
        self._channels: dict[str, _Channel] = {}
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Bind to the running event loop (call from the app's lifespan)."""
        self._loop = asyncio.get_running_loop()

    def heard(self, topics: frozenset[str]) -> None:
        """Commit listener: may be called from any thread."""
        on_loop(self._loop, self._dispatch, topics)

    @property
    def open_streams(self) -> int:
        """How many streams are open now."""
        return sum(len(channel.subscribers) for channel in self._channels.values())

    def subscribe(self, project_id: str, link_id: str) -> Subscription:
        """A new stream of the project's events; call `ready` once the log has been read.

        From here on the stream is offered every new event. Read the log (a snapshot or a
        catch-up) after subscribing, then `ready(subscription, id the read ended at)`: what
        the read covered is dropped from the stream, so nothing is lost or repeated.
        """
        channel = self._channels.get(project_id)
        if channel is None:
            channel = self._channels[project_id] = _Channel()
        subscription = Subscription(project_id, link_id)
        channel.subscribers.add(subscription)
        return subscription

    def ready(self, subscription: Subscription, read_up_to: int) -> None:
        """The stream's client has everything up to `read_up_to` from the log."""
        subscription.after = read_up_to
        while subscription.frames and subscription.frames[0][0] <= read_up_to:
            subscription.frames.popleft()
        channel = self._channels.get(subscription.project_id)
        if channel is not None and channel.last_id is None:
            channel.last_id = read_up_to
            self._schedule(subscription.project_id, channel)  # what committed meanwhile

    def unsubscribe(self, subscription: Subscription) -> None:
        channel = self._channels.get(subscription.project_id)
        if channel is None:
            return
        channel.subscribers.discard(subscription)
        if not channel.subscribers and not channel.pumping:
            del self._channels[subscription.project_id]

    def _dispatch(self, topics: frozenset[str]) -> None:
        for topic in topics:
            kind, _, ident = topic.partition(":")
            if topic == RESYNC:  # commits may have been missed (a shared bus reconnected)
                for project_id, open_channel in self._channels.items():
                    self._schedule(project_id, open_channel)
            elif kind == "project":
                channel = self._channels.get(ident)
                if channel is not None:
                    self._schedule(ident, channel)
            elif kind == "gone":
                channel = self._channels.get(ident)
                for subscription in list(channel.subscribers if channel else ()):
                    subscription.close("project deleted")
            elif kind == "link-gone":
                for channel in self._channels.values():
                    for subscription in channel.subscribers:
                        if subscription.link_id == ident:
                            subscription.close("link revoked")

    def _schedule(self, project_id: str, channel: _Channel) -> None:
        channel.dirty = True
        if not channel.pumping and channel.last_id is not None:
            channel.pumping = True
            asyncio.get_running_loop().create_task(self._pump(project_id, channel))

    async def _pump(self, project_id: str, channel: _Channel) -> None:
        try:
            while channel.dirty and channel.subscribers:
                channel.dirty = False
                after = channel.last_id or 0
                for event_id, kind, payload in await self._fetch(project_id, after):
                    if event_id <= after:
                        continue
                    channel.last_id = event_id
                    encoded = frame(event_id, kind, payload)
                    for subscription in channel.subscribers:
                        subscription.offer(event_id, encoded)
        finally:
            channel.pumping = False
            if not channel.subscribers and self._channels.get(project_id) is channel:
                del self._channels[project_id]
