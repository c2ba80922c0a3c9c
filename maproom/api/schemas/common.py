"""Envelopes shared by every resource."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field


class ErrorDetail(BaseModel):
    """What went wrong."""

    code: str = Field(examples=["bad_request"])
    message: str
    details: Any = None


class ErrorResponse(BaseModel):
    """Every error answer: `{"error": {"code", "message", "details"}}`."""

    error: ErrorDetail


class Ok(BaseModel):
    """Answer of deletes and other acknowledgements."""

    ok: Literal[True] = True


class ListMeta(BaseModel):
    """`count` items in `data`; `nextCursor` while more remain."""

    count: int
    nextCursor: str | None = None
