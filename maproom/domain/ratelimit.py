"""Per-key request limits: a sliding-window counter behind a small interface.

The limiter allows at most `limit` requests in any rolling 60-second window, approximated the
usual way: the previous fixed window's count is weighted by how much of it still overlaps the
rolling window. Refused requests are not counted. `MemoryRateLimiter` serves one process; a
shared store (Redis) implements the same `RateLimiter` protocol for several workers.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

WINDOW = 60.0


@dataclass(frozen=True, slots=True)
class RateDecision:
    """The outcome of one hit, with what the RateLimit-* headers report."""

    allowed: bool
    limit: int
    remaining: int
    reset: int
    retry_after: int = 0


class RateLimiter(Protocol):
    """Counts requests per key."""

    async def hit(self, key: str) -> RateDecision:
        """Count one request for `key` if it is allowed, and say whether it was."""
        ...

    async def close(self) -> None:
        """Let go of what it holds (connections)."""


def decide(limit: int, prev: int, cur: int, elapsed: float) -> RateDecision:
    """Pure sliding-window arithmetic: may one more request pass at `elapsed` into the window?"""
    estimate = prev * (WINDOW - elapsed) / WINDOW + cur
    to_window_end = WINDOW - elapsed
    if estimate + 1 <= limit:
        remaining = max(0, math.floor(limit - estimate - 1))
        return RateDecision(True, limit, remaining, max(1, math.ceil(to_window_end)))
    if cur + 1 <= limit and prev > 0:
        # Wait until the previous window's weight has shrunk enough.
        wait = to_window_end - (limit - cur - 1) * WINDOW / prev
    else:
        # Wait into the next window, where this window's count becomes the weighted one.
        wait = to_window_end + WINDOW * (1 - (limit - 1) / max(cur, 1))
    retry = max(1, math.ceil(wait))
    return RateDecision(False, limit, 0, retry, retry)


class MemoryRateLimiter:
    """In-process limiter: exact for one worker."""

    def __init__(self, limit: int, clock: Callable[[], float] = time.time) -> None:
        self.limit = limit
        self.clock = clock
        self._windows: dict[str, tuple[int, int, int]] = {}  # key -> (window no, prev, cur)
        self._lock = threading.Lock()

    async def hit(self, key: str) -> RateDecision:
        """Count one request (no I/O, so no await inside)."""
        return self.hit_now(key)

    async def close(self) -> None:
        """Nothing to let go of."""

    def hit_now(self, key: str) -> RateDecision:
        """Synchronous form of `hit`."""
        now = self.clock()
        window = int(now // WINDOW)
        with self._lock:
            number, prev, cur = self._windows.get(key, (window, 0, 0))
            if number != window:
                prev, cur = (cur, 0) if number == window - 1 else (0, 0)
            decision = decide(self.limit, prev, cur, now - window * WINDOW)
            self._windows[key] = (window, prev, cur + 1 if decision.allowed else cur)
            if len(self._windows) > self.PRUNE_AT:
                self._prune(window)
        return decision

    PRUNE_AT = 50_000

    def _prune(self, window: int) -> None:
        """Forget keys not seen in the last two windows (they count nothing any more): many
        keys (clients of public links) must not grow the table without end."""
        stale = [key for key, (number, _, _) in self._windows.items() if number < window - 1]
        for key in stale:
            del self._windows[key]
