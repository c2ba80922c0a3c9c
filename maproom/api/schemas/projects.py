"""Project requests and responses (docs/api-decisions.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from maproom.api.schemas.chat import ChatQuestion
from maproom.api.schemas.common import ListMeta
from maproom.api.schemas.data import LayerItem
from maproom.domain.common import Omittable
from maproom.domain.mapstate import Basemap, CountryMask, MapStatePatch

Title = Annotated[str, Field(min_length=1, max_length=200, strict=True)]


class ProjectCreate(BaseModel):
    """Body of `POST /sessions`."""

    model_config = ConfigDict(extra="ignore")
    title: Omittable[Title] = None
    mapState: Omittable[MapStatePatch] = None


class ProjectUpdate(ProjectCreate):
    """Body of `PATCH /sessions/{id}`: only present fields are applied."""

    def changes(self) -> dict[str, Any]:
        """The fields the client sent, with the map state as its own changes."""
        out: dict[str, Any] = {}
        if "title" in self.model_fields_set and self.title is not None:
            out["title"] = self.title
        if "mapState" in self.model_fields_set and self.mapState is not None:
            out["mapState"] = self.mapState.changes()
        return out


class ForkCreate(BaseModel):
    """Body of `POST /sessions/{id}/fork`."""

    model_config = ConfigDict(extra="ignore")
    title: Omittable[Title] = None


class CustomMaskRead(BaseModel):
    """A custom mask as stored: GeoJSON text."""

    geojson: str
    color: str


class MapState(BaseModel):
    """The map state (docs/api-decisions.md)."""

    center: tuple[float, float]
    zoom: float
    bearing: float
    pitch: float
    basemap: Basemap
    countryMask: CountryMask | None
    customMask: CustomMaskRead | None


class SharedBy(BaseModel):
    """Who shared a project."""

    id: str
    name: str
    email: str


class Message(BaseModel):
    """A chat message in a project (docs/chat.md)."""

    id: str
    role: Literal["user", "assistant"]
    content: str
    actions: list[dict[str, Any]]
    question: ChatQuestion | None
    createdAt: str


class ProjectRead(BaseModel):
    """A whole project (docs/api-decisions.md)."""

    id: str
    title: str
    mapState: MapState
    createdAt: str
    updatedAt: str
    forkedFromSessionId: str | None
    isFork: bool
    sharedByUser: SharedBy | None
    layers: list[LayerItem]
    messages: list[Message]


class ProjectPatched(BaseModel):
    """Answer of a project PATCH (docs/api-decisions.md)."""

    id: str
    title: str
    mapState: MapState
    updatedAt: str


class ProjectListItem(BaseModel):
    """A project in the list."""

    id: str
    title: str
    createdAt: str
    updatedAt: str
    isFork: bool
    layerCount: int
    sharedByUser: SharedBy | None = None


class ProjectList(BaseModel):
    """A page of projects."""

    data: list[ProjectListItem]
    meta: ListMeta


class MapView(BaseModel):
    """Everything a client needs to draw the map."""

    mapState: MapState
    layers: list[dict[str, Any]]
