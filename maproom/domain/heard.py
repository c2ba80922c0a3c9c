"""Per-process caches of committed things, kept right by the commit topics every worker hears.

A worker may keep a copy of something committed (a key's principal, a project's body) only
while every change to it can reach the worker: one process on its own, or several subscribed
to the shared bus (`share`). A change's commit names topics (`project:{id}`, `key-gone:{id}`);
`drop` removes what they name, on every worker, at once.

A fill that spans a drop is not kept (`generation`), so a reader that read before a commit and
stores after it cannot put back what the commit replaced.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class HeardCache(Generic[V]):
    """A bounded map of key to value, least recently used out first, each entry for at most
    `ttl` seconds (None: until dropped) and weighing `weigh(value)` against `bound`."""

    def __init__(
        self,
        *,
        enabled: bool,
        bound: int,
        weigh: Callable[[V], int] = lambda _: 1,
        ttl: float | None = None,
    ) -> None:
        self.enabled = enabled
        self.bound = bound
        self.ttl = ttl
        self._weigh = weigh
        self._entries: OrderedDict[str, tuple[float, int, V]] = OrderedDict()
        self._weight = 0
        self._lock = threading.Lock()
        self.generation = 0  # read it before a fill, pass it to `put`

    def get(self, key: str) -> V | None:
        """The value kept for `key`, if any and fresh."""
        hit = self._entries.get(key)
        if hit is None or hit[0] < time.monotonic():
            return None
        with contextlib.suppress(KeyError):  # dropped meanwhile by another thread: still right
            self._entries.move_to_end(key)
        return hit[2]

    def put(self, key: str, value: V, generation: int) -> None:
        """Keep `value` unless caching is off, it is too heavy, or a drop came since
        `generation` was read."""
        weight = self._weigh(value)
        if not self.enabled or weight > self.bound // 4:
            return
        expires = time.monotonic() + self.ttl if self.ttl is not None else float("inf")
        with self._lock:
            if generation != self.generation:
                return
            self._pop(key)
            self._entries[key] = (expires, weight, value)
            self._weight += weight
            while self._weight > self.bound:
                self._pop(next(iter(self._entries)))

    def drop(self, keys: list[str] | None = None, where: Callable[[V], bool] | None = None) -> None:
        """Forget the values of `keys` and those `where` holds for; a fill under way is not kept."""
        with self._lock:
            self.generation += 1
            for key in keys or ():
                self._pop(key)
            if where is not None:
                for key in [k for k, (_, _, v) in self._entries.items() if where(v)]:
                    self._pop(key)

    def share(self, reachable: bool) -> None:
        """Several workers: keep copies only while every change can reach this process (the
        shared bus is subscribed); the cache starts empty each time."""
        with self._lock:
            self.generation += 1
            self._entries.clear()
            self._weight = 0
            self.enabled = reachable

    def _pop(self, key: str) -> None:
        gone = self._entries.pop(key, None)
        if gone is not None:
            self._weight -= gone[1]
