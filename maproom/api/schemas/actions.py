"""Map actions (docs/actions.md)."""

from __future__ import annotations

from pydantic import BaseModel


class CreatedLayer(BaseModel):
    """A layer the batch created (or, for a repeated tile URL, found)."""

    layer_id: str
    url: str | None


class ActionsDispatched(BaseModel):
    """`POST .../map/actions`."""

    ok: bool
    dispatched: int
    layers: list[CreatedLayer]
