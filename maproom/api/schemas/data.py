"""Files, layers, assets and reports: requests and responses (docs/api-decisions.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool

from maproom.api.schemas.common import ListMeta
from maproom.domain.actions.models import LayerName
from maproom.domain.common import Omittable


class LayerItem(BaseModel):
    """A layer list item (docs/api-decisions.md)."""

    layer_id: str
    name: str
    layer_type: Literal["geojson", "tile", "cog"]
    geometry_type: str | None
    visible: bool
    feature_count: int | None
    file_id: str | None
    streaming: bool


class LayerList(BaseModel):
    """`GET .../layers`."""

    data: list[LayerItem]
    meta: ListMeta


class LegendItem(BaseModel):
    """One legend entry: a class with its paint, or a colour ramp."""

    label: str
    paint: dict[str, Any] | None = None
    ramp: list[dict[str, Any]] | None = None


class FieldSummary(BaseModel):
    """What a layer's property holds (gathered when the layer was stored)."""

    name: str
    type: Literal["number", "string", "boolean", "mixed"]
    min: float | None = Field(None, description="Present when the field holds numbers")
    max: float | None = Field(None, description="Present when the field holds numbers")
    sample: list[Any] = Field(description="Up to 5 distinct values, in the order first seen")


class LayerDetail(LayerItem):
    """`GET .../layers/{layerId}` (docs/api-decisions.md)."""

    order: int
    style: dict[str, Any]
    bbox: list[float] | None
    source: Literal["upload", "ai"]
    url: str | None
    legendItems: list[LegendItem]
    fields: list[FieldSummary] | None = Field(
        description="The properties of a GeoJSON layer; null for rasters and remote layers"
    )
    createdAt: str
    updatedAt: str


class LayerPatch(BaseModel):
    """Body of `PATCH .../layers/{layerId}`."""

    model_config = ConfigDict(extra="ignore")
    name: Omittable[LayerName] = None
    visible: Omittable[StrictBool] = None

    def changes(self) -> dict[str, Any]:
        """The fields the client sent."""
        return {k: getattr(self, k) for k in self.model_fields_set if getattr(self, k) is not None}


class LayerOrder(BaseModel):
    """Body of `PUT .../layers/order`: every layer id once, top first."""

    layer_ids: Annotated[list[Annotated[str, Field(strict=True)]], Field(min_length=1)]


class FileRecord(BaseModel):
    """A file list item."""

    id: str
    fileName: str
    fileType: str
    fileSize: int
    createdAt: str
    layerIds: list[str]


class FileList(BaseModel):
    """`GET .../files`."""

    data: list[FileRecord]
    meta: ListMeta


class UploadResult(FileRecord):
    """`POST .../files` (201): the file, and its layer when it became one."""

    layer: LayerDetail | None
    skippedRows: int = Field(description="CSV/XLSX rows skipped for missing or bad coordinates")


class UploadForm(BaseModel):
    """The multipart form of an upload."""

    file: bytes = Field(json_schema_extra={"format": "binary"})
    name: str | None = Field(default=None, description="Name of the layer made from the file")


class AssetList(BaseModel):
    """`GET .../assets`: layer assets (top first), then file assets (oldest first)."""

    data: list[dict[str, Any]]
    meta: ListMeta


class ReportCreate(BaseModel):
    """Body of `POST .../reports`."""

    model_config = ConfigDict(extra="ignore")
    title: Annotated[str, Field(min_length=1, max_length=200, strict=True)]
    html: Annotated[str, Field(strict=True)]


class ReportSaved(BaseModel):
    """`POST .../reports` (201)."""

    ok: bool
    file_id: str
    url: str


class ReportRecord(BaseModel):
    """Report metadata."""

    id: str
    fileName: str
    fileType: str
    fileSize: int
    createdAt: str


class ReportMeta(BaseModel):
    """`GET .../reports/{fileId}` (docs/api-decisions.md)."""

    data: ReportRecord


class DistinctValue(BaseModel):
    """A value of a field and how many features have it."""

    value: Any
    count: int


class LayerStats(BaseModel):
    """`GET .../stats`: `count` always; the rest with a `field`."""

    count: int
    nullCount: int | None = None
    min: Any = None
    max: Any = None
    mean: float | None = None
    sum: float | None = None
    distinct: list[DistinctValue] | None = None
