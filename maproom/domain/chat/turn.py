"""One chat turn: the loop every agent runs in (docs/chat.md).

    send(message)  or  respond(question, answer)
      claim the project's turn (409 while another runs)
      store the user's message (a new message drops any pending question)
      agent.run(turn): reads the project, applies batches of actions, says things, or asks
      store the reply (with the applied actions and any question), let the next turn begin

An agent only acts through its `Turn`: `view()` reads the project (map state, layers with their
fields, files), `apply()` applies a batch of map actions exactly as `POST .../map/actions` does
(parsed by the same models, all or nothing; a batch that fails validation raises `BadRequest`
and changes nothing), `say()` adds to the reply (streamed as `token` events), `ask()` ends the
turn with a question. It cannot delete projects, files or keys: there is nothing here to do it
with. A batch that would remove more than one layer at once is not applied: the turn asks the
user to confirm first, and applies it only on a yes (`CONFIRM`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from maproom.domain import files, gate, layers, queries
from maproom.domain.actions import commands as actions
from maproom.domain.actions import models
from maproom.domain.analysis import Analysis
from maproom.domain.chat import store
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, MaproomError
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database

Runner = Callable[..., Awaitable[Any]]
"""Runs a blocking domain call, `await run(fn, *args, **kwargs)`, where it belongs."""
Emit = Callable[[str, dict[str, Any]], Awaitable[None]]
"""Sends one streamed event: `token`, `action` or `question`."""

YES = frozenset(
    ["yes", "y", "yeah", "yep", "sure", "ok", "okay", "confirm", "confirmed", "do it",
     "go ahead", "please do", "yes please", "yes, remove them", "remove them", "delete them"]
)  # fmt: skip
CONFIRM = ("Yes, remove them", "No, keep them")
REMOVING = ("remove_layer", "clear_layers")


class Agent(Protocol):
    """Something that takes a chat turn."""

    def prepare(self) -> None:
        """Load what the agent needs before its first turn (blocking; called at start)."""

    async def run(self, turn: Turn) -> None:
        """Answer `turn.message` (or, with `turn.resume`, the user's answer to a question)."""


@dataclass
class Context:
    """What turns need from the running service, for one caller."""

    db: Database
    blobs: BlobStore
    principal: Principal
    agent: Agent
    run: Runner  # short domain calls (inline on the embedded SQLite)
    run_slow: Runner  # domain calls that do slow work (conversions): a worker thread
    stale_after: float  # seconds after which a turn still marked running is taken over
    analysis: Analysis | None = None  # the analysis engine (answers, derived layers)


@dataclass
class Answer:
    """What a turn answers (the JSON answer, and the `done` event of a streamed turn)."""

    message_id: str
    reply: str
    actions: list[dict[str, Any]]
    question: dict[str, Any] | None

    def body(self) -> dict[str, Any]:
        """`{"messageId", "reply", "actions", "question"}`."""
        return {
            "messageId": self.message_id,
            "reply": self.reply,
            "actions": self.actions,
            "question": self.question,
        }


async def _silent(kind: str, data: dict[str, Any]) -> None:
    del kind, data


@dataclass
class Turn:
    """One turn, as an agent sees it (see the module docstring)."""

    context: Context
    project_id: str
    message: str
    history: list[dict[str, Any]]  # the messages before this one, oldest first
    resume: dict[str, Any] | None = None  # the agent's state saved with the question answered
    option: str | None = None  # the question's option the answer matched, if any
    emit: Emit = _silent
    said: list[str] = field(default_factory=list)
    applied: list[dict[str, Any]] = field(default_factory=list)
    asking: tuple[str, list[str], dict[str, Any]] | None = None
    memory: dict[str, Any] | None = None  # what the agent keeps with its reply for next turns

    @property
    def ended(self) -> bool:
        """Whether the turn has asked a question (nothing more may happen in it)."""
        return self.asking is not None

    async def view(self) -> dict[str, Any]:
        """The project now: `{"title", "mapState", "layers" (details, top first), "files"}`."""
        ctx = self.context
        return dict(await ctx.run(project_view, ctx.db, ctx.principal, self.project_id))

    async def apply(
        self, batch: Sequence[dict[str, Any] | models.BaseAction], *, confirmed: bool = False
    ) -> list[dict[str, Any]]:
        """Apply a batch of actions (all or nothing); returns them as applied (normalised).
        `BadRequest` when one is invalid. A batch removing several layers waits for a yes
        (unless the agent asked for it already: `confirmed`)."""
        if self.ended or not batch:
            return []
        parsed = [
            item if isinstance(item, models.BaseAction) else models.parse(item, f"actions[{i}]")
            for i, item in enumerate(batch)
        ]
        doomed = [] if confirmed else await self._removed_names(parsed)
        if len(doomed) > 1:
            text = f"Remove {len(doomed)} layers ({', '.join(doomed)})? This cannot be undone."
            resume = {
                "confirm": [action.model_dump(mode="json", exclude_none=True) for action in parsed]
            }
            self.asking = (text, list(CONFIRM), {"by": "turn", **resume})
            return []
        return await self._execute(parsed)

    async def stats(self, layer_id: str, field: str | None, where: str | None) -> dict[str, Any]:
        """`GET .../layers/{layerId}/stats` of the project's layer (docs/analysis.md)."""
        ctx = self.context
        return dict(
            await ctx.run_slow(
                queries.stats, ctx.db, principal=ctx.principal, analysis=self._analysis(),
                project_id=self.project_id, layer_id=layer_id, field=field, where=where,
            )
        )  # fmt: skip

    async def features(
        self, layer_id: str, *, where: str | None, sort: str | None, order: str, limit: int
    ) -> list[dict[str, Any]]:
        """The features `GET .../layers/{layerId}/features` answers (one page)."""
        ctx = self.context
        found = await ctx.run_slow(
            queries.features, ctx.db, principal=ctx.principal, analysis=self._analysis(),
            project_id=self.project_id, layer_id=layer_id, where=where, sort=sort, order=order,
            limit=limit, cursor=None, fields=None, bbox=None,
        )  # fmt: skip
        return list(found["features"])

    def _analysis(self) -> Analysis:
        if self.context.analysis is None:
            raise BadRequest("Questions about the data need the analysis engine")
        return self.context.analysis

    async def say(self, text: str) -> None:
        """Add a sentence to the reply."""
        text = text.strip()
        if text:
            if self.said and not self.said[-1].endswith((" ", "\n")):
                text = " " + text
            await self.stream(text)

    async def stream(self, text: str) -> None:
        """Add a piece of the reply as it comes (a model's tokens), as it is."""
        if text:
            self.said.append(text)
            await self.emit("token", {"text": text})

    def ask(self, text: str, options: list[str], resume: dict[str, Any]) -> None:
        """End the turn with a question; `resume` comes back with the answer."""
        self.asking = (text, options, {"by": "agent", "state": resume})

    async def _execute(self, parsed: list[models.BaseAction]) -> list[dict[str, Any]]:
        ctx = self.context
        raw = [action.model_dump(mode="json", exclude_none=True) for action in parsed]
        run = ctx.run_slow if actions.converts(raw) else ctx.run
        applied = await run(
            actions.execute,
            ctx.db,
            principal=ctx.principal,
            blobs=ctx.blobs,
            project_id=self.project_id,
            actions=parsed,
            analysis=ctx.analysis,
        )
        done = [dict(step.event or {}) for step in applied.steps]
        for payload in done:
            await self.emit("action", payload)
        self.applied.extend(done)
        return done

    async def _removed_names(self, parsed: list[models.BaseAction]) -> list[str]:
        if not any(action.type in REMOVING for action in parsed):
            return []
        rows = (await self.view())["layers"]
        by_id = {row["layer_id"]: row for row in rows}
        gone: dict[str, str] = {}
        for action in parsed:
            if isinstance(action, models.RemoveLayer):
                layer_id = actions.layer_uuid(self.project_id, action.layer_id)
                if layer_id in by_id:
                    gone[layer_id] = by_id[layer_id]["name"]
            elif isinstance(action, models.ClearLayers):
                gone |= {row["layer_id"]: row["name"] for row in rows if row["source"] == "ai"}
        return list(gone.values())


def project_view(db: Database, principal: Principal, project_id: str) -> dict[str, Any]:
    """What an agent may read of a project: map state, layer details (with fields), files."""
    with db.reader() as tx:
        project = gate.get_or_raise(tx, principal=principal, project_id=project_id)
        return {
            "title": project.title,
            "mapState": project.map_state,
            "layers": layers.details(tx, project.id, ""),
            "files": [
                files.record(row, []) for row in tx.all(files.PROJECT_FILES, project_id=project.id)
            ],
        }


@dataclass
class Started:
    """A turn whose user message is stored and which holds the project's turn: `run` it."""

    turn: Turn
    turn_id: str
    confirm: list[dict[str, Any]] | None = None  # a batch waiting for the user's yes

    async def run(self, emit: Emit = _silent) -> Answer:
        """Let the agent answer, store the reply, and let the next turn begin."""
        turn, ctx = self.turn, self.turn.context
        turn.emit = emit
        try:
            if self.confirm is not None:
                await _confirm(turn, self.confirm, turn.option)
            else:
                await ctx.agent.run(turn)
            return await _close(turn)
        finally:
            await ctx.run(store.end_turn, ctx.db, project_id=turn.project_id, turn_id=self.turn_id)


async def begin(
    context: Context, project_id: str, text: str, *, question_id: str | None = None
) -> Started:
    """Claim the project's turn (409 while another runs) and store the user's message: a new
    message (dropping any pending question), or the answer to `question_id` (400 unless it is
    the pending question). Nothing of the agent runs yet."""
    ctx = context
    project_id, turn_id = await ctx.run(
        store.begin_turn,
        ctx.db,
        principal=ctx.principal,
        project_id=project_id,
        stale_after=ctx.stale_after,
    )
    try:
        if question_id is None:
            history = await ctx.run(_open_message, ctx, project_id, text)
            return Started(Turn(ctx, project_id, text, history), turn_id)
        history, question = await ctx.run(_open_answer, ctx, project_id, text, question_id)
    except BaseException:
        await ctx.run(store.end_turn, ctx.db, project_id=project_id, turn_id=turn_id)
        raise
    turn = Turn(ctx, project_id, text, history, option=match_option(text, question.options))
    resume = dict(question.resume)
    if resume.get("by") == "turn":
        return Started(turn, turn_id, confirm=resume["confirm"])
    turn.resume = resume.get("state") or {}
    return Started(turn, turn_id)


def match_option(answer: str, options: list[str]) -> str | None:
    """The option an answer names (case and surrounding spaces ignored), or None."""
    wanted = answer.strip().casefold()
    return next((option for option in options if option.casefold() == wanted), None)


async def _confirm(turn: Turn, batch: list[dict[str, Any]], option: str | None) -> None:
    """Apply a batch that waited for a yes (its removals), or leave everything as it is."""
    said = (option or turn.message).strip().casefold().rstrip(".!")
    if option == CONFIRM[0] or said in YES:
        parsed = [models.parse(item, f"actions[{i}]") for i, item in enumerate(batch)]
        try:
            done = await turn._execute(parsed)
        except MaproomError as error:
            await turn.say(f"Nothing was removed: {error.message}")
            return
        names = len([a for a in done if a.get("type") in REMOVING])
        await turn.say(f"Done: removed the layers ({names} action{'s' if names != 1 else ''}).")
    else:
        await turn.say("OK, nothing was removed.")


def _open_message(ctx: Context, project_id: str, text: str) -> list[dict[str, Any]]:
    """Store the user's message, dropping any pending question; the history before it."""
    with gate.locked(ctx.db, principal=ctx.principal, project_id=project_id) as (tx, project):
        history = store.history(tx, project.id)
        store.drop_pending(tx, project.id)
        store.add_message(tx, project, role="user", content=text)
    return history


def _open_answer(
    ctx: Context, project_id: str, text: str, question_id: str
) -> tuple[list[dict[str, Any]], Any]:
    """Take the pending question `question_id` (a 400 if it is not) and store the answer as the
    user's message; the history before it, and the question."""
    with gate.locked(ctx.db, principal=ctx.principal, project_id=project_id) as (tx, project):
        history = store.history(tx, project.id)
        question = store.take_question(tx, project.id, question_id)
        store.add_message(tx, project, role="user", content=text)
    return history, question


async def _close(turn: Turn) -> Answer:
    ctx = turn.context
    answer: Answer = await ctx.run(_store_reply, ctx, turn.project_id, turn)
    if answer.question is not None:
        await turn.emit("question", answer.question)
    return answer


def _store_reply(ctx: Context, project_id: str, turn: Turn) -> Answer:
    reply = "".join(turn.said).strip()
    question = None
    with gate.locked(ctx.db, principal=ctx.principal, project_id=project_id) as (tx, project):
        if turn.asking is not None:
            text, options, resume = turn.asking
            question = store.add_question(tx, project.id, text=text, options=options, resume=resume)
            reply = f"{reply} {text}".strip() if text not in reply else reply
        message, _ = store.add_message(
            tx, project, role="assistant", content=reply, actions=turn.applied,
            question=question, memory=turn.memory,
        )  # fmt: skip
    return Answer(message["id"], reply, turn.applied, question)


def bad_actions(error: BadRequest) -> str:
    """A validation failure as one line, for an agent to read and correct."""
    details = error.details if isinstance(error.details, list) else []
    parts = [f"{d.get('path')}: {d.get('message')}" for d in details if isinstance(d, dict)]
    return "; ".join(parts) or error.message
