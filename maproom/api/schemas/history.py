"""History and shares: what `GET .../history`, restores and `.../shares` answer and take."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from maproom.api.schemas.common import ListMeta
from maproom.api.schemas.data import LayerDetail


class Actor(BaseModel):
    """Who made a version: the account, the key, and the way in."""

    accountEmail: str | None
    keyId: str | None
    via: Literal["api", "actions", "chat", "mcp", "restore"]


class Version(BaseModel):
    """One version of a project, as its history lists it."""

    version: int
    createdAt: str
    actor: Actor
    summary: str = Field(examples=["Flew to 38.72° N, 9.14° W; hid Cafes"])
    actions: list[dict[str, Any]]
    kind: Literal["create", "change", "undo", "redo", "restore"]
    target: int | None = Field(description="The version an undo took back, a redo re-applied "
                               "or a restore went back to")  # fmt: skip


class VersionList(BaseModel):
    """`GET .../history`: newest first."""

    data: list[Version]
    meta: ListMeta


class VersionView(BaseModel):
    """`GET .../history/{version}`: the project as it was after that version."""

    version: int
    title: str
    mapState: dict[str, Any]
    layers: list[LayerDetail]


class MissingLayer(BaseModel):
    """A layer a restore could not bring back: its file was deleted."""

    layer_id: str
    name: str


class Restored(BaseModel):
    """`POST .../history/{version}/restore`."""

    version: int = Field(description="The new version the restore made")
    restoredVersion: int
    missingLayers: list[MissingLayer]
    title: str
    mapState: dict[str, Any]


class ShareCreate(BaseModel):
    """Body of `POST .../shares`."""

    model_config = ConfigDict(extra="forbid")
    email: str = Field(min_length=3, max_length=320)
    role: Literal["viewer", "editor"]


class Share(BaseModel):
    """A project's share with one email."""

    id: str
    email: str
    role: Literal["viewer", "editor"]
    createdAt: str


class ShareList(BaseModel):
    """`GET .../shares`."""

    data: list[Share]
    meta: ListMeta
