"""Control characters and deep nesting are refused at the edge, on every field and both
databases (docs/api-decisions.md, hostile input): a 400 at the field's path, never a 500, and
nothing stored."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.hostile.conftest import assert_no_stray, new_project
from tests.started import MB, Server
from tests.support import assert_error

NUL = "bad\x00name"
Call = Callable[[httpx.Client, str], httpx.Response]


def _actions(*actions: dict[str, Any]) -> dict[str, Any]:
    return {"actions": list(actions)}


POINT = {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}
# (what is sent, the path the 400 names)
JSON_CASES: list[tuple[str, str, Callable[[str], Any], str]] = [
    ("POST", "/sessions", lambda _: {"title": NUL}, "title"),
    ("PATCH", "/sessions/{p}", lambda _: {"title": NUL}, "title"),
    (
        "PATCH",
        "/sessions/{p}",
        lambda _: {"mapState": {"countryMask": {"countryCode": NUL}}},
        "mapState.countryMask.countryCode",
    ),
    ("POST", "/sessions/{p}/chat", lambda _: {"message": "fly to\x00 Rome"}, "message"),
    ("POST", "/sessions/{p}/reports", lambda _: {"title": NUL, "html": "<p>x</p>"}, "title"),
    ("POST", "/sessions/{p}/reports", lambda _: {"title": "ok", "html": "<p>\x07</p>"}, "html"),
    ("POST", "/api-keys", lambda _: {"name": NUL}, "name"),
    (
        "POST",
        "/sessions/{p}/map/actions",
        lambda _: _actions({"type": "add_geojson_layer", "layer_id": NUL, "geojson": POINT}),
        "actions[0].layer_id",
    ),
    (
        "POST",
        "/sessions/{p}/map/actions",
        lambda _: _actions(
            {"type": "add_geojson_layer", "layer_id": "a", "name": NUL, "geojson": POINT}
        ),
        "actions[0].name",
    ),
    (
        "POST",
        "/sessions/{p}/map/actions",
        lambda _: _actions(
            {
                "type": "add_geojson_layer",
                "layer_id": "a",
                "geojson": {**POINT, "properties": {"name": NUL}},
            }
        ),
        "actions[0].geojson.properties.name",
    ),
    (
        "POST",
        "/sessions/{p}/map/actions",
        lambda _: _actions(
            {
                "type": "add_tile_layer",
                "url": "https://t.example.com/{z}/{x}/{y}.png",
                "attribution": "\x1b[31mred",
            }
        ),
        "actions[0].attribution",
    ),
    (
        "POST",
        "/sessions/{p}/map/actions",
        lambda _: {"actions": [{"type\x00": "go_home"}]},
        "actions[0].type\x00",
    ),
    (
        "POST",
        "/sessions/{p}/live-view-url",
        lambda _: {"allowedOrigins": ["https://a\x00.b"]},
        "allowedOrigins[0]",
    ),
    (
        "PUT",
        "/sessions/{p}/layers/{l}/style",
        lambda _: {"legend": {"title": NUL}},
        "legend.title",
    ),
    ("PATCH", "/sessions/{p}/layers/{l}", lambda _: {"name": NUL}, "name"),
]


@pytest.fixture(scope="module")
def project(api: httpx.Client) -> tuple[str, str]:
    """A project with one layer, and that layer's id."""
    project = new_project(api)
    added = api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json=_actions({"type": "add_geojson_layer", "layer_id": "one", "geojson": POINT}),
    )
    assert added.status_code == 200, added.text
    return project, added.json()["layers"][0]["layer_id"]


@pytest.mark.parametrize(("method", "path", "body", "where"), JSON_CASES)
def test_control_characters_in_json_fields(
    api: httpx.Client,
    project: tuple[str, str],
    method: str,
    path: str,
    body: Callable[[str], Any],
    where: str,
) -> None:
    before = api.get(f"/api/v1/sessions/{project[0]}/map").json()
    url = "/api/v1" + path.format(p=project[0], l=project[1])
    response = api.request(method, url, json=body(project[0]))
    error = assert_error(response, 400, "bad_request")
    assert [d["path"] for d in error["details"]] == [where]
    assert "control character" in error["details"][0]["message"]
    assert api.get(f"/api/v1/sessions/{project[0]}/map").json() == before


def test_control_characters_in_a_query(api: httpx.Client, project: tuple[str, str]) -> None:
    response = api.get("/api/v1/sessions", params={"cursor": "abc\x00"})
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["path"] == "cursor"


@pytest.mark.parametrize(
    ("name", "content", "form", "words"),
    [
        ("cells.csv", b"name,lat,lon\nok,1,2\nbad\x00cell,3,4\n", {}, "feature 2"),
        (
            "props.geojson",
            b'{"type":"FeatureCollection","features":[{"type":"Feature",'
            b'"geometry":{"type":"Point","coordinates":[1,2]},"properties":{"n":"a\\u0000b"}}]}',
            {},
            "feature 1",
        ),
        ("fine.csv", b"name,lat,lon\nok,1,2\n", {"name": NUL}, "name"),
    ],
)
def test_control_characters_in_uploads(
    server: Server,
    api: httpx.Client,
    name: str,
    content: bytes,
    form: dict[str, str],
    words: str,
) -> None:
    project = new_project(api)
    response = api.post(
        f"/api/v1/sessions/{project}/files", files={"file": (name, content)}, data=form
    )
    error = assert_error(response, 400, "bad_request")
    assert words in str(error), error
    assert api.get(f"/api/v1/sessions/{project}/files").json()["data"] == []
    assert_no_stray(server.env_dir)


def test_control_characters_in_an_upload_file_name(server: Server, api: httpx.Client) -> None:
    """The part's file name as sent (httpx would percent-encode it, so the body is made here)."""
    project = new_project(api)
    body = (b"--b0undary\r\nContent-Disposition: form-data; name=\"file\"; "
            b"filename=\"bad\x01name.csv\"\r\nContent-Type: text/csv\r\n\r\n"
            b"name,lat,lon\nok,1,2\n\r\n--b0undary--\r\n")  # fmt: skip
    headers = {"Content-Type": "multipart/form-data; boundary=b0undary"}
    response = api.post(f"/api/v1/sessions/{project}/files", content=body, headers=headers)
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["path"] == "file"
    assert api.get(f"/api/v1/sessions/{project}/files").json()["data"] == []
    assert_no_stray(server.env_dir)


def _nested(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def test_json_nested_deeper_than_64_levels(api: httpx.Client, project: tuple[str, str]) -> None:
    """64 levels are fine; 65 and 10,000 are 400 (never the parser's recursion limit)."""
    url = f"/api/v1/sessions/{project[0]}/layers/{project[1]}/style"
    fine = b'{"legend": {"x": ' + _nested(62) + b"}}"
    assert (
        api.put(url, content=fine, headers={"Content-Type": "application/json"}).status_code == 200
    )
    for depth in (63, 10_000):
        body = b'{"legend": {"x": ' + _nested(depth) + b"}}"
        response = api.put(url, content=body, headers={"Content-Type": "application/json"})
        error = assert_error(response, 400, "bad_request")
        assert "deeper than 64" in error["message"]


def test_an_upload_nested_10000_deep(server: Server, api: httpx.Client) -> None:
    """A property nested 10,000 deep: 400, and the server does not grow (a streaming parser
    would spend hundreds of MB on it)."""
    project = new_project(api)
    document = (b'{"type":"FeatureCollection","features":[{"type":"Feature","geometry":'
                b'{"type":"Point","coordinates":[1,2]},"properties":{"deep":'
                + _nested(10_000) + b"}}]}")  # fmt: skip
    before = server.reset_peak()
    response = api.post(
        f"/api/v1/sessions/{project}/files", files={"file": ("deep.geojson", document)}
    )
    error = assert_error(response, 400, "bad_request")
    assert "deeper than 64" in error["message"]
    assert server.peak() - before < 30 * MB
    assert_no_stray(server.env_dir)
