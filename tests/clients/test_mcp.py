"""The MCP server, driven by the `mcp` SDK's own client: on the service at `/mcp` (streamable
HTTP) and as `maproom mcp` on stdio (a subprocess talking to the started service)."""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult
from pydantic import AnyUrl

from maproom.client import AsyncClient
from tests.clients.conftest import Service

pytestmark = pytest.mark.anyio
CONTRACT_TOOLS = {
    "list_projects", "create_project", "describe_project", "list_layers", "dispatch_actions",
    "style_layer", "save_report", "get_live_view_url", "chat",
}  # fmt: skip
HISTORY_TOOLS = {
    "project_history",
    "restore_version",
    "undo",
    "redo",
    "query_features",
    "layer_stats",
    "get_style_url",
}


@contextlib.asynccontextmanager
async def over_http(service: Service, key: str) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {key}"}
    async with (
        httpx.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(f"{service.url}/mcp", http_client=http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


@contextlib.asynccontextmanager
async def over_stdio(service: Service, key: str) -> AsyncIterator[ClientSession]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAPROOM_")}
    env |= {"MAPROOM_URL": service.url, "MAPROOM_KEY": key}
    command = StdioServerParameters(
        command=sys.executable, args=["-m", "maproom.cli", "mcp"], env=env
    )
    async with stdio_client(command) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


def answer(result: CallToolResult) -> Any:
    assert result.content and result.content[0].type == "text"
    return json.loads(result.content[0].text)


def refusal(result: CallToolResult) -> dict[str, Any]:
    assert result.isError, result
    error = answer(result)["error"]
    assert set(error) == {"code", "message", "details"}
    return dict(error)


async def moves_the_map(session: ClientSession, service: Service) -> None:
    """A tool call that moves the map, seen on the project's live stream."""
    created = answer(await session.call_tool("create_project", {"title": "via MCP"}))
    project_id = created["id"]
    async with AsyncClient(service.url, service.key) as watcher:
        events = watcher.events(project_id)
        assert (await events.__anext__()).type == "snapshot"
        fly = {"type": "fly_to", "center": [-3.7, 40.4], "zoom": 6}
        result = await session.call_tool(
            "dispatch_actions", {"project_id": project_id, "actions": [fly]}
        )
        assert not result.isError and answer(result)["dispatched"] == 1
        moved = await events.__anext__()
        assert (moved.type, moved.data["zoom"]) == ("action", 6)
        await events.aclose()
    described = answer(await session.call_tool("describe_project", {"project_id": project_id}))
    assert set(described) == {"mapState", "layers"} and described["mapState"]["zoom"] == 6


async def test_http_tools_and_a_call_that_moves_the_map(service: Service) -> None:
    async with over_http(service, service.key) as session:
        listed = await session.list_tools()
        assert {tool.name for tool in listed.tools} == CONTRACT_TOOLS | HISTORY_TOOLS
        schema = next(t for t in listed.tools if t.name == "dispatch_actions").inputSchema
        assert "fly_to" in json.dumps(schema) and "$defs" in schema
        await moves_the_map(session, service)


async def test_http_refusals_are_tool_errors(service: Service) -> None:
    async with over_http(service, service.key) as session:
        project_id = answer(await session.call_tool("create_project", {}))["id"]
        bad = {"type": "fly_to", "center": [0, 0], "zoom": 99}
        wrong = await session.call_tool(
            "dispatch_actions", {"project_id": project_id, "actions": [bad]}
        )
        error = refusal(wrong)
        assert error["code"] == "bad_request" and error["details"][0]["path"].startswith(
            "actions[0]"
        )
        assert refusal(await session.call_tool("list_layers", {}))["code"] == "bad_request"
        shapeless = {"project_id": project_id, "actions": "fly to Paris"}
        error = refusal(await session.call_tool("dispatch_actions", shapeless))
        assert error["code"] == "bad_request" and error["details"][0]["path"] == "actions"
        odd = {"project_id": project_id, "actions": ["fly"]}
        assert refusal(await session.call_tool("dispatch_actions", odd))["code"] == "bad_request"
        gone = await session.call_tool("list_layers", {"project_id": "no-such-project"})
        assert refusal(gone)["code"] == "not_found"
    reader = service.make_key(scopes=["session"])
    async with over_http(service, reader) as session:
        described = await session.call_tool("describe_project", {"project_id": project_id})
        assert not described.isError
        move = {"project_id": project_id, "actions": [{"type": "zoom_in"}]}
        forbidden = refusal(await session.call_tool("dispatch_actions", move))
        assert forbidden["code"] == "forbidden"
        assert forbidden["details"]["requiredScopes"] == ["map"]


async def test_http_project_resource(service: Service) -> None:
    async with over_http(service, service.key) as session:
        project_id = answer(await session.call_tool("create_project", {"title": "R"}))["id"]
        uri = AnyUrl(f"maproom://projects/{project_id}")
        assert uri in [r.uri for r in (await session.list_resources()).resources]
        read = await session.read_resource(uri)
    project = json.loads(read.contents[0].text)  # type: ignore[union-attr]
    direct = httpx.get(
        f"{service.url}/api/v1/sessions/{project_id}",
        headers={"Authorization": f"Bearer {service.key}"},
    ).json()
    assert project == direct


async def test_http_without_a_key_is_401_in_the_envelope(service: Service) -> None:
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    for headers in ({}, {"Authorization": "Bearer mr_" + "z" * 43}):
        refused = httpx.post(f"{service.url}/mcp", json=message, headers=headers)
        assert refused.status_code == 401
        assert refused.json()["error"]["code"] == "unauthorized"


async def test_stdio_uploads_a_local_file_and_moves_the_map(
    service: Service, tmp_path: Path
) -> None:
    places = tmp_path / "places.csv"
    places.write_text("name,lat,lon\nMadrid,40.42,-3.70\nPorto,41.15,-8.61\n")
    async with over_stdio(service, service.key) as session:
        names = {tool.name for tool in (await session.list_tools()).tools}
        assert names == CONTRACT_TOOLS | HISTORY_TOOLS | {"upload_file"}
        await moves_the_map(session, service)
        project_id = answer(await session.call_tool("create_project", {}))["id"]
        uploaded = await session.call_tool(
            "upload_file", {"project_id": project_id, "path": str(places), "name": "Places"}
        )
        assert not uploaded.isError, uploaded
        assert answer(uploaded)["layer"]["feature_count"] == 2
        layers = answer(await session.call_tool("list_layers", {"project_id": project_id}))
        assert [layer["name"] for layer in layers["data"]] == ["Places"]
        described = answer(await session.call_tool("describe_project", {"project_id": project_id}))
        assert [f["name"] for f in described["layers"][0]["fields"]] == ["name"]
        missing = {"project_id": project_id, "path": str(tmp_path / "nope.csv")}
        assert refusal(await session.call_tool("upload_file", missing))["code"] == "bad_request"


async def test_stdio_call_refused_for_a_missing_scope(service: Service) -> None:
    project_id = await _created(service)
    async with over_stdio(service, service.make_key(scopes=["session"])) as session:
        refused = await session.call_tool("get_live_view_url", {"project_id": project_id})
        error = refusal(refused)
        assert error["code"] == "forbidden" and error["details"]["requiredScopes"] == ["remote"]


async def _created(service: Service) -> str:
    async with AsyncClient(service.url, service.key) as mr:
        return (await mr.create_project()).id


async def test_http_undo_redo_and_history_tools(service: Service) -> None:
    async with over_http(service, service.key) as session:
        project = answer(await session.call_tool("create_project", {"title": "h"}))["id"]
        fly = {"type": "fly_to", "center": [10, 20], "zoom": 4}
        await session.call_tool("dispatch_actions", {"project_id": project, "actions": [fly]})
        assert not (await session.call_tool("undo", {"project_id": project})).isError
        view = answer(await session.call_tool("describe_project", {"project_id": project}))
        assert view["mapState"]["center"] == [0, 20]
        assert not (await session.call_tool("redo", {"project_id": project})).isError
        history = answer(await session.call_tool("project_history", {"project_id": project}))
        kinds = [v["kind"] for v in history["data"]]
        assert kinds == ["redo", "undo", "change", "create"]
        assert {v["actor"]["via"] for v in history["data"][:3]} == {"mcp"}
        restored = answer(await session.call_tool("restore_version", {"project_id": project,
                                                                      "version": 1}))  # fmt: skip
        assert restored["restoredVersion"] == 1
        assert refusal(await session.call_tool("redo", {"project_id": project}))["code"] == (
            "bad_request"
        )


async def test_http_data_answers_and_a_derived_layer(service: Service) -> None:
    points = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"name": n, "pop": p},
                "geometry": {"type": "Point", "coordinates": [x, 0]},
            }
            for n, p, x in (("A", 5, 0), ("B", 50, 1), ("C", 500, 2))
        ],
    }
    async with over_http(service, service.key) as session:
        project = answer(await session.call_tool("create_project", {"title": "d"}))["id"]
        add = {"type": "add_geojson_layer", "layer_id": "p", "geojson": points}
        made = answer(
            await session.call_tool("dispatch_actions", {"project_id": project, "actions": [add]})
        )
        layer = made["layers"][0]["layer_id"]
        top = answer(
            await session.call_tool(
                "query_features",
                {
                    "project_id": project,
                    "layer_id": layer,
                    "sort": "pop",
                    "order": "desc",
                    "limit": 2,
                },
            )
        )
        assert [f["properties"]["name"] for f in top["features"]] == ["C", "B"]
        where = {"field": "pop", "op": ">", "value": 10}
        stats = answer(
            await session.call_tool(
                "layer_stats",
                {"project_id": project, "layer_id": layer, "field": "pop", "filter": where},
            )
        )
        assert (stats["count"], stats["sum"]) == (2, 550)
        buffer = {"type": "buffer_layer", "layer_id": layer, "distance": 10, "unit": "km"}
        derived = answer(
            await session.call_tool(
                "dispatch_actions", {"project_id": project, "actions": [buffer]}
            )
        )
        assert len(derived["layers"]) == 1


async def test_http_style_url_tool(service: Service) -> None:
    async with over_http(service, service.key) as session:
        project = answer(await session.call_tool("create_project", {"title": "s"}))["id"]
        private = answer(await session.call_tool("get_style_url", {"project_id": project}))
        assert private["styleUrl"] == f"{service.url}/api/v1/sessions/{project}/style.json"
        public = {"project_id": project, "public": True}
        shared = answer(await session.call_tool("get_style_url", public))["styleUrl"]
        assert shared.startswith(f"{service.url}/live/") and shared.endswith("/style.json")
    async with httpx.AsyncClient() as anyone:
        style = (await anyone.get(shared)).json()
    assert style["version"] == 8 and style["name"] == "s"
