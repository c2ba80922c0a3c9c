"""The bus: how a worker tells the others which topics a committed change touched, and hears
theirs (docs/scaling.md). A port with two implementations, chosen by settings:

    LocalBus     one worker on its own: every change is made here, nothing to tell
    RedisBus     several workers: Redis pub/sub (`maproom.adapters.redis`)
"""

from __future__ import annotations

from typing import Protocol


class Bus(Protocol):
    """What the service asks of a bus."""

    @property
    def subscribed(self) -> bool:
        """Whether every worker's changes reach this one now."""
        ...

    def publish(self, topics: frozenset[str]) -> None:
        """Tell the other workers (a commit listener: never blocks)."""
        ...

    async def sent(self) -> None:
        """Wait until what this worker published so far is out (a write's answer waits)."""
        ...

    async def run(self) -> None:
        """Keep the bus going while the service runs."""
        ...


class LocalBus:
    """The bus of a worker on its own."""

    subscribed = True

    def publish(self, topics: frozenset[str]) -> None:
        """Nobody else to tell."""

    async def sent(self) -> None:
        """Nothing is ever on its way."""

    async def run(self) -> None:
        """Nothing to keep going."""
