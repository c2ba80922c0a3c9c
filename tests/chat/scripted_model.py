"""A scripted OpenAI-compatible chat-completions server on loopback, for the LLM agent's tests.

The model is faked at the wire, not in our code: a real uvicorn server in a thread, speaking
HTTP, streaming real server-sent-event chunks. Each request takes the next step of the
script (streamed text, tool calls whole or in pieces, a status code, a whole JSON document, or
a pause) and is recorded for the test to read.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
from collections import deque
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from tests.serving import serving

_ids = itertools.count(1)


@dataclass
class Step:
    """What the server answers to one request."""

    chunks: list[dict[str, Any]] = field(default_factory=list)  # streamed as SSE
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    document: dict[str, Any] | None = None  # answered whole instead of streamed
    pause: float = 0.0  # seconds before answering


def delta(**values: Any) -> dict[str, Any]:
    """One streamed chunk carrying `values` as the delta of choice 0."""
    return {"id": "chatcmpl-test", "object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": values, "finish_reason": None}]}  # fmt: skip


def text(*pieces: str) -> Step:
    """Reply text, streamed in these pieces."""
    return Step([delta(role="assistant")] + [delta(content=piece) for piece in pieces])


def calls(*tool_calls: tuple[str, dict[str, Any]], pieces: int = 1) -> Step:
    """Tool calls, each streamed with its arguments cut into `pieces`."""
    chunks = [delta(role="assistant")]
    for index, (name, arguments) in enumerate(tool_calls):
        raw = json.dumps(arguments)
        size = max(1, -(-len(raw) // pieces))
        parts = [raw[i : i + size] for i in range(0, len(raw), size)] or [""]
        call_id = f"call_{next(_ids)}"
        first = {"name": name, "arguments": parts[0]}
        chunks.append(delta(tool_calls=[{"index": index, "id": call_id, "type": "function",
                                         "function": first}]))  # fmt: skip
        chunks += [delta(tool_calls=[{"index": index, "function": {"arguments": part}}])
                   for part in parts[1:]]  # fmt: skip
    return Step(chunks)


class ScriptedModel:
    """The server (see the module docstring): `with model.serving() as base_url: ...`."""

    def __init__(self) -> None:
        self.script: deque[Step] = deque()
        self.requests: list[dict[str, Any]] = []

    def add(self, *steps: Step) -> ScriptedModel:
        """Queue steps, answered in order."""
        self.script.extend(steps)
        return self

    async def _complete(self, request: Request) -> Response:
        self.requests.append(await request.json())
        step = self.script.popleft() if self.script else text("(script exhausted)")
        if step.pause:
            await asyncio.sleep(step.pause)
        if step.status != 200:
            return JSONResponse({"error": {"message": "scripted"}}, step.status, step.headers)
        if step.document is not None:
            return JSONResponse(step.document)

        async def events() -> AsyncIterator[bytes]:
            for chunk in step.chunks:
                yield f"data: {json.dumps(chunk)}\n\n".encode()
                await asyncio.sleep(0.001)  # each chunk its own write
            yield b"data: [DONE]\n\n"

        return StreamingResponse(events(), media_type="text/event-stream")

    @contextlib.contextmanager
    def serving(self) -> Iterator[str]:
        """Run the server on a free loopback port; yields the base URL (`.../v1`)."""
        app = Starlette(routes=[Route("/v1/chat/completions", self._complete, methods=["POST"])])
        with serving(app) as base:
            yield f"{base}/v1"
