"""The chat endpoints over HTTP (docs/chat.md), on SQLite and PostgreSQL: the answer's shape,
limits, scope, one turn at a time, questions, stored messages and their live events."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import httpx
import pytest
from fastapi import FastAPI

from maproom.domain.common import utcnow
from maproom.domain.links import log_since
from maproom.storage.models import chat_turns
from tests.chat.scripted_model import ScriptedModel, Step, delta, text
from tests.chat.support import project_with_layers
from tests.support import (
    OTHER,
    AppFactory,
    KeyMaker,
    assert_error,
    detail_paths,
    http_client,
    new_key,
)

pytestmark = pytest.mark.anyio


async def post_chat(api: httpx.AsyncClient, project: str, body: Any) -> httpx.Response:
    return await api.post(f"/api/v1/sessions/{project}/chat", json=body)


async def test_the_answer_and_the_stored_messages(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await project_with_layers(api)
    response = await post_chat(api, project, {"message": "fly to Lisbon", "extra": 1})
    assert response.status_code == 200, response.text
    body = response.json()
    assert set(body) == {"messageId", "reply", "actions", "question"}
    assert body["reply"] == "Flew to Lisbon, Portugal."
    assert [a["type"] for a in body["actions"]] == ["fly_to"]
    messages = (await api.get(f"/api/v1/sessions/{project}")).json()["messages"]
    assert [(m["role"], m["content"]) for m in messages] == [
        ("user", "fly to Lisbon"), ("assistant", "Flew to Lisbon, Portugal.")
    ]  # fmt: skip
    assert messages[1]["id"] == body["messageId"]
    assert messages[1]["actions"] == body["actions"] and messages[1]["question"] is None
    logged = [(kind, data) for _, kind, data in log_since(app.state.services.db, project, 0, 100)]
    kinds = [kind for kind, _ in logged]
    assert kinds[-3:] == ["message", "action", "message"]
    assert logged[-1][1] == messages[1]


@pytest.mark.parametrize("message", ["", "x" * 4001, 7, None])
async def test_messages_are_1_to_4000_characters(api: httpx.AsyncClient, message: Any) -> None:
    project = await project_with_layers(api)
    assert detail_paths(await post_chat(api, project, {"message": message})) == ["message"]
    assert (await api.get(f"/api/v1/sessions/{project}")).json()["messages"] == []
    long = await post_chat(api, project, {"message": "x" * 4000})
    assert long.status_code == 200


async def test_the_chat_scope_and_the_owner(
    app: FastAPI, api: httpx.AsyncClient, make_key: KeyMaker, client: httpx.AsyncClient
) -> None:
    project = await project_with_layers(api)
    assert_error(await post_chat(client, project, {"message": "hi"}), 401, "unauthorized")
    async with http_client(app, make_key(scopes=["session", "map"])) as limited:
        error = assert_error(await post_chat(limited, project, {}), 403, "forbidden")
        assert error["details"]["requiredScopes"] == ["chat"]
        respond = await limited.post(f"/api/v1/sessions/{project}/ask/respond", json={})
        assert_error(respond, 403, "forbidden")
    async with http_client(app, make_key(email=OTHER)) as other:
        assert_error(await post_chat(other, project, {"message": "hi"}), 404, "not_found")


async def test_questions_are_answered_once_and_dropped_by_a_new_message(
    api: httpx.AsyncClient,
) -> None:
    project = await project_with_layers(api)
    url = f"/api/v1/sessions/{project}/ask/respond"
    unknown = await api.post(url, json={"questionId": "nope", "answer": "x"})
    assert detail_paths(unknown) == ["questionId"]
    asked = (await post_chat(api, project, {"message": "fly to Springfield"})).json()["question"]
    stored = (await api.get(f"/api/v1/sessions/{project}")).json()["messages"][-1]
    assert stored["question"] == asked
    first = await api.post(url, json={"questionId": asked["id"], "answer": asked["options"][0]})
    assert first.status_code == 200
    again = await api.post(url, json={"questionId": asked["id"], "answer": asked["options"][0]})
    assert detail_paths(again) == ["questionId"]
    asked = (await post_chat(api, project, {"message": "fly to Springfield"})).json()["question"]
    await post_chat(api, project, {"message": "zoom in"})
    dropped = await api.post(url, json={"questionId": asked["id"], "answer": asked["options"][0]})
    assert detail_paths(dropped) == ["questionId"]


async def test_one_turn_at_a_time(app_factory: AppFactory) -> None:
    scripted = ScriptedModel()
    with scripted.serving() as base_url:
        async with (
            app_factory(llm_base_url=base_url, llm_model="m", llm_timeout_s=10) as app,
            http_client(app, new_key(app)) as api,
        ):
            project = await project_with_layers(api)
            scripted.add(Step(pause=0.5, chunks=[delta(content="slow")]), text("fast"))
            first = asyncio.create_task(post_chat(api, project, {"message": "one"}))
            while not scripted.requests:  # the first turn is running (inside the model)
                await asyncio.sleep(0.01)
            second = await post_chat(api, project, {"message": "two"})
            assert_error(second, 409, "conflict")
            respond = await api.post(
                f"/api/v1/sessions/{project}/ask/respond",
                json={"questionId": "q", "answer": "a"},
            )
            assert_error(respond, 409, "conflict")
            assert (await first).json()["reply"] == "slow"
            assert (await post_chat(api, project, {"message": "three"})).status_code == 200
            other = await project_with_layers(api)  # other projects never wait
            scripted.add(text("x"))
            assert (await post_chat(api, other, {"message": "four"})).status_code == 200


async def test_a_crashed_turn_is_taken_over(app: FastAPI, api: httpx.AsyncClient) -> None:
    project = await project_with_layers(api)
    with app.state.services.db.write() as tx:
        tx.execute(
            chat_turns.insert().values(
                project_id=project, turn_id="dead", started_at=utcnow() - timedelta(days=1)
            )
        )
    assert (await post_chat(api, project, {"message": "zoom in"})).status_code == 200
