"""Live and static view links (docs/live.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from maproom.api.schemas.common import ListMeta
from maproom.domain.common import Omittable

Origin = Annotated[
    str,
    Field(
        strict=True,
        max_length=300,
        pattern=r"^https?://[A-Za-z0-9.\-\[\]:]+$",
        description="An origin: scheme, host and optional port, no path",
    ),
]


class ViewLinkCreate(BaseModel):
    """Optional body of `POST .../live-view-url` and `.../static-view-url`."""

    model_config = ConfigDict(extra="forbid")

    expiresInSeconds: Omittable[Annotated[int, Field(strict=True, ge=1, le=31_536_000)]] = None
    allowedOrigins: Omittable[Annotated[list[Origin], Field(max_length=20)]] = None


class LiveViewUrl(BaseModel):
    """`POST .../live-view-url`."""

    liveViewUrl: str


class StaticViewUrl(BaseModel):
    """`POST .../static-view-url`."""

    staticViewUrl: str


class ViewLink(BaseModel):
    """A view link as listed."""

    id: str
    kind: Literal["live", "static", "report"]
    url: str
    createdAt: str
    expiresAt: str | None
    allowedOrigins: list[str] | None


class ViewLinkList(BaseModel):
    """`GET .../view-links`."""

    data: list[ViewLink]
    meta: ListMeta
