"""`POST /sessions/{id}/chat` and `POST /sessions/{id}/ask/respond` (docs/chat.md).

Both answer `{"messageId", "reply", "actions", "question"}`, or, with
`Accept: text/event-stream`, stream the turn: `token` `{"text"}` as the reply is produced,
`action` for each applied action, `question`, then `done` carrying the same object as the JSON
answer; a turn that fails after the stream began ends with `error` carrying the error envelope.
Everything that can refuse a turn (a bad body, a running turn: 409, an unknown question: 400)
does so before a stream begins, as an ordinary error answer.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import Response, StreamingResponse

from maproom.api import API_PREFIX
from maproom.api.deps import Caller, ScopedRoute, requires
from maproom.api.responses import json_response
from maproom.api.schemas.chat import AskResponse, ChatAnswer, ChatRequest
from maproom.domain.chat import turn
from maproom.errors import InternalError, MaproomError
from maproom.events.hub import frame

router = APIRouter(prefix=f"{API_PREFIX}/sessions/{{id}}", tags=["chat"], route_class=ScopedRoute)
log = logging.getLogger("maproom")
STREAMED: dict[int | str, dict[str, Any]] = {
    200: {
        "description": "The turn's answer; streamed as server-sent events (`token`, `action`, "
        "`question`, `done`, or `error`) when the request accepts `text/event-stream`",
        "content": {"text/event-stream": {"schema": {"type": "string"}}},
    },
    409: {"description": "Another chat turn of this project is running (`conflict`)"},
    502: {"description": "The configured model failed or answered nonsense (`bad_gateway`)"},
    504: {"description": "The configured model did not answer in time (`gateway_timeout`)"},
}


@router.post(
    "/chat", response_model=ChatAnswer, responses=STREAMED, summary="Start an AI chat turn"
)
@requires("chat")
async def chat(id: str, body: ChatRequest, request: Request) -> Response:
    """Send a message to the project's map agent; it changes the map through the same map
    actions as `POST .../map/actions` and answers, or asks a question first."""
    context = _context(request)
    started = await turn.begin(context, id, body.message)
    return await _answer(request, started)


@router.post(
    "/ask/respond",
    response_model=ChatAnswer,
    responses=STREAMED,
    summary="Answer a pending AI question",
)
@requires("chat")
async def ask_respond(id: str, body: AskResponse, request: Request) -> Response:
    """Answer the question the agent asked (an option, or free text); the turn goes on."""
    context = _context(request)
    started = await turn.begin(context, id, body.answer, question_id=body.questionId)
    return await _answer(request, started)


def _context(request: Request) -> turn.Context:
    caller = Caller.of(request)
    services = caller.services
    return turn.Context(
        db=services.db,
        blobs=services.blobs,
        principal=caller.principal,
        agent=services.agent,
        run=caller.run_change,
        run_slow=caller.run_write,
        stale_after=services.settings.chat_turn_seconds,
        analysis=services.analysis,
    )


async def _answer(request: Request, started: turn.Started) -> Response:
    if "text/event-stream" not in request.headers.get("accept", ""):
        answer = await started.run()
        return json_response(answer.body())
    return StreamingResponse(
        _stream(started),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )


async def _stream(started: turn.Started) -> AsyncIterator[bytes]:
    """The turn's events as they happen. The turn is shielded: a client that goes away does not
    cut a turn short halfway (its reply is still stored)."""
    send, receive = anyio.create_memory_object_stream[bytes](max_buffer_size=1024)

    async def emit(kind: str, data: dict[str, Any]) -> None:
        await send.send(frame(None, kind, data))

    async def run() -> None:
        with anyio.CancelScope(shield=True):
            async with send:
                try:
                    answer = await started.run(emit)
                    await send.send(frame(None, "done", answer.body()))
                except MaproomError as error:
                    await send.send(frame(None, "error", error.body()))
                except Exception:
                    log.exception("chat turn failed")
                    await send.send(frame(None, "error", InternalError().body()))

    async with anyio.create_task_group() as tasks:
        tasks.start_soon(run)
        async with receive:
            async for chunk in receive:
                yield chunk
