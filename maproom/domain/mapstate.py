"""Map state: its schema and bounds (CONTRACT.md 3), the default view, and the PATCH merge rules."""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

import orjson
import pycountry
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from maproom.domain.common import Omittable
from maproom.errors import invalid

BASEMAP_STYLES = ("light", "dark", "streets", "satellite", "blank")
CATEGORY_KEYS = ("water", "land", "parks", "roads", "buildings", "boundaries", "labels")
HEX = r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"

HexColor = Annotated[str, Field(pattern=HEX, strict=True, description="CSS hex color")]
Number = Annotated[float, Field(strict=True, allow_inf_nan=False)]
Lng = Annotated[float, Field(strict=True, ge=-180, le=180)]
Lat = Annotated[float, Field(strict=True, ge=-85.06, le=85.06)]
CategoryKey = Literal["water", "land", "parks", "roads", "buildings", "boundaries", "labels"]

DEFAULT_MAP_STATE: dict[str, Any] = {
    "center": [0, 20],
    "zoom": 1.5,
    "bearing": 0,
    "pitch": 0,
    "basemap": {"style": "light", "categories": {}},
    "countryMask": None,
    "customMask": None,
}


def default_map_state() -> dict[str, Any]:
    """A fresh copy of the default map state (also the target of `go_home`)."""
    return copy.deepcopy(DEFAULT_MAP_STATE)


def normalise_bearing(value: float) -> float:
    """Any finite bearing folded into [-180, 180]."""
    if -180 <= value <= 180:
        return value
    return (value + 180) % 360 - 180


def basemap_style(value: str) -> str:
    """A named basemap or an http(s) style URL."""
    if value in BASEMAP_STYLES or value.startswith(("http://", "https://")):
        return value
    raise ValueError(f"must be one of {', '.join(BASEMAP_STYLES)} or an http(s) style URL")


def country_name(code: str) -> str:
    """The English short name of an ISO 3166-1 alpha-2 or alpha-3 code."""
    country = pycountry.countries.get(alpha_2=code) if len(code) == 2 else None
    if country is None and len(code) == 3:
        country = pycountry.countries.get(alpha_3=code)
    if country is None:
        raise ValueError(f"{code!r} is not an ISO 3166-1 alpha-2 or alpha-3 country code")
    return str(getattr(country, "common_name", None) or country.name)


def geojson_text(value: Any) -> str:
    """A mask's GeoJSON as compact text; accepts an object or a JSON string of a polygon shape."""
    if isinstance(value, str):
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError as exc:
            raise ValueError("geojson is not valid JSON") from exc
    if not isinstance(value, dict) or value.get("type") not in (
        "Polygon",
        "MultiPolygon",
        "Feature",
        "FeatureCollection",
    ):
        raise ValueError("geojson must be a Polygon, MultiPolygon, Feature or FeatureCollection")
    return orjson.dumps(value).decode()


class _Model(BaseModel):
    model_config = ConfigDict(extra="ignore")


class BasemapCategory(_Model):
    """An override of one basemap category."""

    color: HexColor | None = None
    visible: bool | None = None


class Basemap(_Model):
    """Basemap style and per-category overrides."""

    style: str = "light"
    categories: dict[CategoryKey, BasemapCategory] = Field(default_factory=dict)

    @field_validator("style")
    @classmethod
    def _style(cls, value: str) -> str:
        return basemap_style(value)


class CountryMask(_Model):
    """Mask everything but one country."""

    countryCode: str = Field(min_length=2, max_length=3)
    countryName: str | None = None
    visible: bool = True
    color: HexColor = "#000000"

    @field_validator("countryCode")
    @classmethod
    def _code(cls, value: str) -> str:
        value = value.upper()
        country_name(value)
        return value

    def model_post_init(self, _context: Any) -> None:
        """Resolve the country name when the client did not give one."""
        if not self.countryName:
            self.countryName = country_name(self.countryCode)


class CustomMask(_Model):
    """Mask everything outside a polygon."""

    geojson: Any = Field(description="GeoJSON object or JSON string (stored as a string)")
    color: HexColor = "#000000"

    @field_validator("geojson")
    @classmethod
    def _geojson(cls, value: Any) -> str:
        return geojson_text(value)


class MapStatePatch(_Model):
    """Fields of a map state a client may set; every one optional, unknown ones ignored."""

    center: Omittable[tuple[Lng, Lat]] = None
    zoom: Omittable[Annotated[float, Field(strict=True, ge=0, le=24)]] = None
    bearing: Omittable[Number] = None
    pitch: Omittable[Annotated[float, Field(strict=True, ge=0, le=85)]] = None
    basemap: Omittable[Basemap] = None
    countryMask: CountryMask | None = None
    customMask: CustomMask | None = None

    @field_validator("center", "zoom", "bearing", "pitch", "basemap", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError("may not be null")
        return value

    def changes(self) -> dict[str, Any]:
        """Only the fields the client sent; nested objects whole, with their defaults filled."""
        out: dict[str, Any] = {}
        for name in self.model_fields_set:
            value = getattr(self, name)
            if isinstance(value, BaseModel):
                value = value.model_dump(mode="json")
            elif name == "center":
                value = list(value)
            elif name == "bearing":
                value = normalise_bearing(value)
            out[name] = value
        return out


def parse_patch(raw: Any, prefix: str = "mapState") -> dict[str, Any]:
    """Validate a raw map-state object (from an action or the chat) into its changes."""
    try:
        return MapStatePatch.model_validate(raw).changes()
    except ValidationError as exc:
        raise invalid(exc.errors(), prefix) from None


def merge(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Spec 4.2 rules 2 and 3: shallow merge; nested objects (basemap, masks) replace whole."""
    return {**current, **changes}


def country_shape(code: str) -> bytes:
    """A country's outline as a GeoJSON Feature, for masks; NotFound when there is none."""
    from maproom.errors import NotFound
    from maproom.geo import countries

    try:
        alpha2 = pycountry.countries.lookup(code).alpha_2
    except LookupError:
        raise NotFound(f"Unknown country code {code!r}") from None
    found = countries.shape_geojson(alpha2)
    if found is None:
        raise NotFound(f"No outline for country {alpha2}")
    return found
