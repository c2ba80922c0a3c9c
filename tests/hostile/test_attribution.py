"""A tile layer's attribution is text with at most http(s) links (docs/api-decisions.md,
layers): markup that would cover the page or move its base URL is dropped, on the way in, in
the page's state and on the live stream."""

from __future__ import annotations

import httpx

from tests.hostile.conftest import new_project

HOSTILE = (
    '&copy; <a href="https://tiles.example.com/about" style="position:fixed;top:0;left:0;'
    'width:100vw;height:100vh;z-index:9999" onclick="steal()">Example</a>'
    '<base href="https://evil.example/"><img src=x onerror="alert(1)"><script>alert(2)</script>'
    ' <a href="javascript:alert(3)">click</a> &amp; 1 < 2'
)
CLEAN = '© <a href="https://tiles.example.com/about">Example</a> click &amp; 1 &lt; 2'


def test_attribution_is_text_with_web_links(api: httpx.Client) -> None:
    project = new_project(api)
    action = {"type": "add_tile_layer", "url": "https://tiles.example.com/{z}/{x}/{y}.png",
              "attribution": HOSTILE}  # fmt: skip
    added = api.post(f"/api/v1/sessions/{project}/map/actions", json={"actions": [action]})
    assert added.status_code == 200, added.text
    link = api.post(f"/api/v1/sessions/{project}/live-view-url").json()["liveViewUrl"]
    state = httpx.get(f"{link}/state").json()
    assert [layer["options"]["attribution"] for layer in state["layers"]] == [CLEAN]
    with httpx.stream("GET", f"{link}/events", params={"lastEventId": "0"}, timeout=10) as events:
        for line in events.iter_lines():
            if line.startswith("data:") and "add_tile_layer" in line:
                assert "attribution" in line and "<base" not in line and "style=" not in line
                assert CLEAN.replace('"', '\\"') in line
                break
