"""The OpenAI-compatible agent against a scripted model on loopback (real HTTP, real streamed
chunks): tool calls over several steps, an invalid call corrected, ask_user, retries,
timeouts, models that only talk, calls in pieces or written as text."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from maproom.domain.actions import models
from tests.chat.scripted_model import ScriptedModel, Step, calls, delta, text
from tests.chat.support import answer, chat, near, project_with_layers, state
from tests.support import AppFactory, assert_error, http_client, new_key

pytestmark = pytest.mark.anyio


@pytest.fixture
def model() -> Iterator[tuple[ScriptedModel, str]]:
    scripted = ScriptedModel()
    with scripted.serving() as base_url:
        yield scripted, base_url


@pytest.fixture
async def llm_app(
    app_factory: AppFactory, model: tuple[ScriptedModel, str]
) -> AsyncIterator[FastAPI]:
    async with app_factory(llm_base_url=model[1], llm_model="scripted", llm_timeout_s=2) as app:
        yield app


@pytest.fixture
async def api(llm_app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with http_client(llm_app, new_key(llm_app)) as client:
        yield client


def tool_results(request: dict[str, Any]) -> list[Any]:
    return [json.loads(m["content"]) for m in request["messages"] if m["role"] == "tool"]


async def test_a_turn_of_several_steps(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(
        calls(("list_layers", {})),
        calls(("fly_to", {"center": [-9.14, 38.72], "zoom": 11}),
              ("set_basemap_style", {"style": "dark"})),
        text("Flew to Lisbon ", "and switched to the dark basemap."),
    )  # fmt: skip
    reply = await chat(api, project, "take me to Lisbon in dark mode")
    assert reply["reply"] == "Flew to Lisbon and switched to the dark basemap."
    assert [a["type"] for a in reply["actions"]] == ["fly_to", "set_basemap_style"]
    after = await state(api, project)
    near(-9.14, 38.72, zoom=(11, 11))(after)
    assert after["mapState"]["basemap"]["style"] == "dark"
    first, second, third = scripted.requests
    assert first["stream"] is True and first["model"] == "scripted"
    assert {tool["function"]["name"] for tool in first["tools"]} == {
        "map_actions",
        "read_project",
        "ask_user",
    }
    assert first["messages"][-1] == {"role": "user", "content": "take me to Lisbon in dark mode"}
    listed = tool_results(second)[0]["layers"]
    assert [layer["name"] for layer in listed] == ["Rivers", "Counties", "Cafes"]
    assert [result["ok"] for result in tool_results(third)[1:]] == [True, True]


async def test_tools_come_from_the_action_models(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    """Every action type is in the catalogue the system message carries; an action the
    message names word for word is also a tool of its own, with the action model's schema."""
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(text("Hello."))
    await chat(api, project, "fly to Paris")
    first = scripted.requests[0]
    system = first["messages"][0]["content"]
    assert all(f"\n{kind}(" in system for kind in models.MODELS)
    assert "buffer_layer(name?, layer_id, distance: number, unit: m|km|mi)" in system
    tools = {tool["function"]["name"]: tool["function"] for tool in first["tools"]}
    assert list(tools) == ["fly_to", "map_actions", "read_project", "ask_user"]
    fly = tools["fly_to"]["parameters"]
    assert fly["required"] == ["center"] and "type" not in fly["properties"]
    assert fly["properties"]["center"]["prefixItems"][1]["maximum"] == 85.06
    assert "$ref" not in json.dumps(tools)


async def test_map_actions_with_short_layer_ids(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    """The model sees each layer by a short form of its id and may use it."""
    scripted, _ = model
    project = await project_with_layers(api)
    cafes = (await state(api, project))["layers"]["Cafes"]
    cafes_id = cafes.get("id") or cafes["layer_id"]
    scripted.add(
        calls(("map_actions", {"actions": [
            {"type": "set_layer_visibility", "layer_id": cafes_id[:6], "visible": False},
            {"type": "zoom_in"}]})),
        text("Hid the cafes and zoomed in."),
    )  # fmt: skip
    reply = await chat(api, project, "hide the cafes and zoom in")
    assert [a["type"] for a in reply["actions"]] == ["set_layer_visibility", "zoom_in"]
    assert (await state(api, project))["layers"]["Cafes"]["visible"] is False
    assert f"- {cafes_id[:6]} Cafes: Point" in scripted.requests[0]["messages"][0]["content"]
    result = tool_results(scripted.requests[1])[0]
    assert result["ok"] is True and len(result["applied"]) == 2


async def test_an_invalid_call_is_returned_to_the_model_and_never_applied(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(
        calls(("fly_to", {"center": [2.35, 95]}), ("set_basemap_style", {"style": "dark"})),
        calls(("fly_to", {"center": [2.35, 48.86]})),
        text("Done."),
    )
    reply = await chat(api, project, "fly to Paris")
    assert [a["type"] for a in reply["actions"]] == ["fly_to"]
    results = tool_results(scripted.requests[1])
    assert "less than or equal to 85.06" in results[0]["error"]
    assert results[1]["error"].startswith("not applied")
    after = await state(api, project)
    near(2.35, 48.86)(after)
    assert after["mapState"]["basemap"]["style"] == "light"


async def test_a_call_naming_a_missing_layer_gets_the_layers_back(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(
        calls(("set_layer_visibility", {"layer_id": "Cafes", "visible": False})),
        text("Sorry."),
    )
    await chat(api, project, "hide cafes")
    result = tool_results(scripted.requests[1])[0]
    assert "no layer 'Cafes'" in result["error"]
    assert "Cafes" in [layer["name"] for layer in result["layers"]]


async def test_ask_user_round_trip(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(
        calls(("ask_user", {"question": "Which basemap?", "options": ["Dark", "Satellite"]}))
    )
    asked = await chat(api, project, "change the basemap")
    assert asked["question"]["text"] == "Which basemap?"
    assert asked["question"]["options"] == ["Dark", "Satellite"]
    scripted.add(calls(("set_basemap_style", {"style": "satellite"})), text("Switched."))
    done = await answer(api, project, asked["question"]["id"], "satellite")
    assert [a["type"] for a in done["actions"]] == ["set_basemap_style"]
    assert tool_results(scripted.requests[1])[-1] == {"answer": "satellite"}
    assert (await state(api, project))["mapState"]["basemap"]["style"] == "satellite"


async def test_429_then_success(api: httpx.AsyncClient, model: tuple[ScriptedModel, str]) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(Step(status=429, headers={"Retry-After": "0"}), Step(status=503), text("Hello!"))
    reply = await chat(api, project, "hello")
    assert reply["reply"] == "Hello!"
    assert len(scripted.requests) == 3


async def test_a_timeout_is_504_with_what_was_applied(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(calls(("zoom_in", {})), Step(pause=5, chunks=[delta(content="late")]))
    response = await api.post(
        f"/api/v1/sessions/{project}/chat", json={"message": "zoom in and more"}
    )
    error = assert_error(response, 504, "gateway_timeout")
    assert [a["type"] for a in error["details"]["appliedActions"]] == ["zoom_in"]
    assert (await state(api, project))["mapState"]["zoom"] == 2.5


async def test_a_failing_or_silent_model_is_502(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(Step(status=400))
    refused = await api.post(f"/api/v1/sessions/{project}/chat", json={"message": "hi"})
    assert_error(refused, 502, "bad_gateway")
    empty = {"choices": [{"message": {"role": "assistant", "content": ""}}]}
    scripted.add(Step(chunks=[delta(role="assistant")]), Step(document=empty))
    silent = await api.post(f"/api/v1/sessions/{project}/chat", json={"message": "hi"})
    assert assert_error(silent, 502, "bad_gateway")["details"] == {"appliedActions": []}
    assert scripted.requests[-1]["stream"] is False  # asked again, not streamed, then 502
    scripted.add(Step(document={"nonsense": True}))
    nonsense = await api.post(f"/api/v1/sessions/{project}/chat", json={"message": "hi"})
    assert_error(nonsense, 502, "bad_gateway")


async def test_a_server_that_cannot_stream_with_tools(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    """llama.cpp's server answers a streamed call with tools by an error inside a 200 stream:
    the call is made again without streaming, and later calls are never streamed."""
    scripted, _ = model
    project = await project_with_layers(api)
    failed = {"error": {"message": "Automatic streaming tool choice is not supported"}}
    done = {"choices": [{"message": {"role": "assistant", "content": "",
                                     "tool_calls": [{"id": "a", "type": "function", "function": {
                                         "name": "zoom_in", "arguments": "{}"}}]}}]}  # fmt: skip
    said = {"choices": [{"message": {"role": "assistant", "content": "Zoomed in."}}]}
    scripted.add(Step(chunks=[delta(role="assistant"), failed]), Step(document=done),
                 Step(document=said))  # fmt: skip
    reply = await chat(api, project, "zoom in")
    assert reply["reply"] == "Zoomed in." and [a["type"] for a in reply["actions"]] == ["zoom_in"]
    assert [r["stream"] for r in scripted.requests] == [True, False, False]


async def test_a_model_that_only_talks(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    before = await state(api, project)
    scripted.add(text("I ", "cannot ", "tell ", "jokes."))
    reply = await chat(api, project, "tell me a joke")
    assert (reply["reply"], reply["actions"], reply["question"]) == (
        "I cannot tell jokes.",
        [],
        None,
    )
    assert await state(api, project) == before
    messages = (await api.get(f"/api/v1/sessions/{project}")).json()["messages"]
    assert [(m["role"], m["content"]) for m in messages] == [
        ("user", "tell me a joke"), ("assistant", "I cannot tell jokes.")
    ]  # fmt: skip


async def test_tool_calls_in_pieces_and_reused_indexes(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    pieces = calls(("fly_to", {"center": [2.35, 48.86], "zoom": 9}), pieces=5)
    zoom = {"name": "zoom_in", "arguments": "{}"}
    style = {"name": "set_basemap_style", "arguments": '{"style": '}
    reused = Step([
        delta(role="assistant"),
        delta(tool_calls=[{"index": 0, "id": "a", "function": zoom}]),
        delta(tool_calls=[{"index": 0, "id": "b", "function": style}]),
        delta(tool_calls=[{"index": 0, "function": {"arguments": '"dark"}'}}]),
    ])  # fmt: skip
    scripted.add(pieces, reused, text("Done."))
    reply = await chat(api, project, "fly to Paris, zoom in, dark mode")
    assert [a["type"] for a in reply["actions"]] == ["fly_to", "zoom_in", "set_basemap_style"]
    after = await state(api, project)
    assert (after["mapState"]["zoom"], after["mapState"]["basemap"]["style"]) == (10, "dark")


async def test_tool_calls_written_as_text_and_bad_arguments(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    written = '<tool_call>{"name": "set_basemap_style", "arguments": {"style": "dark"}}</tool_call>'
    bad = {"name": "zoom_in", "arguments": "{levels: 2"}
    broken = Step(
        [delta(role="assistant"), delta(tool_calls=[{"index": 0, "id": "x", "function": bad}])]
    )
    scripted.add(text(written[:20], written[20:]), broken, text("OK"))
    reply = await chat(api, project, "dark mode")
    assert reply["reply"] == "OK"  # the call written as text is not shown
    assert [a["type"] for a in reply["actions"]] == ["set_basemap_style"]
    assert "not valid JSON" in tool_results(scripted.requests[2])[-1]["error"]


async def test_the_stream_sends_tokens_actions_and_done(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(calls(("zoom_in", {})), text("Zoomed ", "in."))
    events = []
    async with api.stream(
        "POST",
        f"/api/v1/sessions/{project}/chat",
        json={"message": "zoom in"},
        headers={"Accept": "text/event-stream"},
    ) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        kind = None
        async for line in response.aiter_lines():
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: "):
                events.append((kind, json.loads(line[6:])))
    assert [kind for kind, _ in events] == ["action", "token", "token", "done"]
    assert events[0][1]["type"] == "zoom_in"
    assert events[-1][1]["reply"] == "Zoomed in."
    assert events[-1][1]["actions"] == [events[0][1]]


async def test_a_failure_after_the_stream_began_ends_with_an_error_event(
    api: httpx.AsyncClient, model: tuple[ScriptedModel, str]
) -> None:
    scripted, _ = model
    project = await project_with_layers(api)
    scripted.add(Step(status=500), Step(status=500), Step(status=500), Step(status=500),
                 Step(status=500), Step(status=500))  # fmt: skip
    async with api.stream(
        "POST",
        f"/api/v1/sessions/{project}/chat",
        json={"message": "hi"},
        headers={"Accept": "text/event-stream"},
    ) as response:
        body = (await response.aread()).decode()
    assert response.status_code == 200
    assert "event: error" in body and '"bad_gateway"' in body
