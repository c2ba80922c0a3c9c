"""Remote reads are bounded (docs/api-decisions.md, remote sources): a COG host that answers a
tile's range read with a gzip bomb, with the whole file, or with more than was asked is cut off
with a 502, and the worker's peak memory grows by less than 50 MB."""

from __future__ import annotations

from collections import Counter

import httpx
import pytest

from tests.hostile.conftest import new_project
from tests.started import MB, Server
from tests.support import assert_error

PATHS = ["/gzip.tif", "/gzip-chunked.tif", "/ignores-range.tif", "/too-long.tif",
         "/says-too-long.tif"]  # fmt: skip


@pytest.mark.parametrize("path", PATHS)
def test_a_hostile_cog_host_is_cut_off(
    server: Server, api: httpx.Client, remote: tuple[str, Counter[str]], path: str
) -> None:
    base, hits = remote
    project = new_project(api)
    added = api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json={"actions": [{"type": "add_cog_layer", "layer_id": "cog", "url": base + path}]},
    )
    assert added.status_code == 200, added.text
    layer = added.json()["layers"][0]["layer_id"]
    before, seen = server.reset_peak(), hits[path]
    for _ in range(2):  # twice: nothing kept from the first try either
        tile = api.get(f"/api/v1/sessions/{project}/layers/{layer}/tiles/0/0/0.png")
        assert_error(tile, 502, "bad_gateway")
    assert hits[path] > seen, "the hostile host was never asked"
    growth = server.peak() - before
    assert growth < 50 * MB, f"{path} grew the server by {growth / MB:.0f} MB"


def test_an_ipv4_compatible_loopback_is_refused_at_dispatch(api: httpx.Client) -> None:
    project = new_project(api)
    url = "http://[::127.0.0.1]:8080/cog.tif"
    response = api.post(
        f"/api/v1/sessions/{project}/map/actions",
        json={"actions": [{"type": "add_cog_layer", "layer_id": "cog", "url": url}]},
    )
    error = assert_error(response, 400, "bad_request")
    assert error["details"][0]["path"] == "actions[0].url"
