"""Map state: the field types every map change shares, the default view, and the PATCH body.

The field types here (`Center`, `Zoom`, `Pitch`, `Bearing`, `HexColor`, `CountryCode`,
`BasemapStyle`, `MaskGeoJSON`...) are used by both the project PATCH body and the map actions
(`maproom.domain.actions.models`), so the same value gets the same bounds and the same message
whichever way it arrives (docs/api-decisions.md; docs/actions.md).
"""

from __future__ import annotations

import copy
from typing import Annotated, Any, Literal

import orjson
import pycountry
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool

from maproom.domain.common import Given, Omittable
from maproom.domain.urlpolicy import check_url
from maproom.errors import NotFound
from maproom.limits import MASK_COLOR, MAX_ZOOM, json_problem

BASEMAP_STYLES = ("light", "dark", "streets", "satellite", "blank", "offline")
CATEGORY_KEYS = ("water", "land", "parks", "roads", "buildings", "boundaries", "labels")
HEX = r"^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$"
MASK_SHAPES = ("Polygon", "MultiPolygon", "Feature", "FeatureCollection")


def normalise_bearing(value: float) -> float:
    """Any finite bearing folded into [-180, 180]."""
    if -180 <= value <= 180:
        return value
    return (value + 180) % 360 - 180


def basemap_style(value: str) -> str:
    """A named basemap, or an http(s) style URL a client may give (`urlpolicy.check_url`)."""
    if value in BASEMAP_STYLES:
        return value
    if not value.startswith(("http://", "https://")):
        raise ValueError(f"must be one of {', '.join(BASEMAP_STYLES)} or an http(s) style URL")
    return check_url(value)


def country_name(code: str) -> str:
    """The English short name of an ISO 3166-1 alpha-2 or alpha-3 code."""
    country = pycountry.countries.get(alpha_2=code) if len(code) == 2 else None
    if country is None and len(code) == 3:
        country = pycountry.countries.get(alpha_3=code)
    if country is None:
        raise ValueError(f"{code!r} is not an ISO 3166-1 alpha-2 or alpha-3 country code")
    return str(getattr(country, "common_name", None) or country.name)


def country_code(value: str) -> str:
    """An ISO 3166-1 code, upper case, as given (alpha-2 or alpha-3); ValueError if unknown."""
    code = value.upper()
    country_name(code)
    return code


def geojson_text(value: Any) -> str:
    """A mask's GeoJSON as compact text; accepts an object or a JSON string of a polygon shape."""
    if isinstance(value, str):
        try:
            value = orjson.loads(value)
        except orjson.JSONDecodeError as exc:
            raise ValueError("geojson is not valid JSON") from exc
        problem = json_problem(value)
        if problem is not None:
            raise ValueError(f"geojson: {problem[0]}: {problem[1]}")
    if not isinstance(value, dict) or value.get("type") not in MASK_SHAPES:
        raise ValueError("geojson must be a Polygon, MultiPolygon, Feature or FeatureCollection")
    return orjson.dumps(value).decode()


def _finite(
    ge: float | None = None, le: float | None = None, description: str | None = None
) -> Any:
    return Field(strict=True, allow_inf_nan=False, ge=ge, le=le, description=description)


Number = Annotated[float, _finite()]
Lng = Annotated[float, _finite(ge=-180, le=180)]
Lat = Annotated[float, _finite(ge=-85.06, le=85.06)]
Center = tuple[Lng, Lat]
Zoom = Annotated[float, _finite(ge=0, le=MAX_ZOOM)]
Pitch = Annotated[float, _finite(ge=0, le=85)]
Bearing = Annotated[float, _finite(description="Degrees; folded into [-180, 180]")]
HexColor = Annotated[str, Field(pattern=HEX, strict=True, description="CSS hex color")]
CategoryKey = Literal["water", "land", "parks", "roads", "buildings", "boundaries", "labels"]
CountryCode = Annotated[
    str,
    Field(strict=True, min_length=2, max_length=3, description="ISO 3166-1 alpha-2 or alpha-3"),
    AfterValidator(country_code),
]
CountryName = Annotated[str, Field(strict=True, min_length=1, max_length=200)]
BasemapStyle = Annotated[
    str,
    Field(
        strict=True,
        max_length=2000,
        description=f"One of {', '.join(BASEMAP_STYLES)}, or an http(s) MapLibre style URL",
    ),
    AfterValidator(basemap_style),
]
MaskGeoJSON = Annotated[
    Any,
    Field(description="A Polygon, MultiPolygon, Feature or FeatureCollection (object or text)"),
    AfterValidator(geojson_text),
]

DEFAULT_MAP_STATE: dict[str, Any] = {
    "center": [0, 20],
    "zoom": 1.5,
    "bearing": 0,
    "pitch": 0,
    "basemap": {"style": "light", "categories": {}},
    "countryMask": None,
    "customMask": None,
}
VIEW_KEYS = ("center", "zoom", "bearing", "pitch")


def default_map_state() -> dict[str, Any]:
    """A fresh copy of the default map state (also the target of `go_home`)."""
    return copy.deepcopy(DEFAULT_MAP_STATE)


class _Model(BaseModel):
    # An unknown field is a mistake the client should hear of (`{"zom": 5}`), as in styles.
    model_config = ConfigDict(extra="forbid")


class BasemapCategory(_Model):
    """An override of one basemap category."""

    color: Given[HexColor] = None
    visible: Given[StrictBool] = None


class Basemap(_Model):
    """Basemap style and per-category overrides."""

    style: BasemapStyle = "light"
    categories: dict[CategoryKey, BasemapCategory] = Field(default_factory=dict)

    def stored(self) -> dict[str, Any]:
        """As kept in the map state: category overrides without the fields not given."""
        return {
            "style": self.style,
            "categories": {
                key: value.model_dump(exclude_none=True) for key, value in self.categories.items()
            },
        }


class CountryMask(_Model):
    """Mask everything but one country."""

    countryCode: CountryCode
    countryName: Given[CountryName] = None
    visible: StrictBool = True
    color: HexColor = MASK_COLOR


class CustomMask(_Model):
    """Mask everything outside a polygon."""

    geojson: MaskGeoJSON
    color: HexColor = MASK_COLOR


def country_mask(
    code: str, *, name: str | None = None, visible: bool = True, color: str = MASK_COLOR
) -> dict[str, Any]:
    """A country mask as stored: the code as given (upper case), its name resolved if not given."""
    return {
        "countryCode": code,
        "countryName": name or country_name(code),
        "visible": visible,
        "color": color,
    }


class MapStatePatch(_Model):
    """Fields of a map state a client may set; every one optional, unknown ones refused."""

    center: Given[Center] = None
    zoom: Given[Zoom] = None
    bearing: Given[Bearing] = None
    pitch: Given[Pitch] = None
    basemap: Given[Basemap] = None
    countryMask: Omittable[CountryMask] = None
    customMask: Omittable[CustomMask] = None

    def changes(self) -> dict[str, Any]:
        """Only the fields the client sent, as they would be stored."""
        out: dict[str, Any] = {}
        for name in self.model_fields_set:
            value = getattr(self, name)
            if name == "center":
                value = list(value)
            elif name == "bearing":
                value = normalise_bearing(value)
            elif name == "basemap":
                value = value.stored()
            elif name == "countryMask" and value is not None:
                value = country_mask(
                    value.countryCode,
                    name=value.countryName,
                    visible=value.visible,
                    color=value.color,
                )
            elif isinstance(value, BaseModel):
                value = value.model_dump(mode="json")
            out[name] = value
        return out


def merge(current: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """Spec 4.2 rules 2 and 3: shallow merge; nested objects (basemap, masks) replace whole."""
    return {**current, **changes}


def country_shape(code: str) -> bytes:
    """A country's outline as a GeoJSON Feature, for masks; NotFound when there is none."""
    from maproom.geo import countries

    try:
        alpha2 = pycountry.countries.lookup(code).alpha_2
    except LookupError:
        raise NotFound(f"Unknown country code {code!r}") from None
    found = countries.shape_geojson(alpha2)
    if found is None:
        raise NotFound(f"No outline for country {alpha2}")
    return found
