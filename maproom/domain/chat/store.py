"""What a chat keeps with its project: messages, pending questions, and the running turn.

- Messages (`{"id", "role", "content", "actions", "question", "createdAt"}`, docs/chat.md)
  are part of the project's body, so adding one is a project change (`gate.touch`) and is
  published on the live stream as a `message` event.
- A question the agent asked waits in `chat_questions` with what the agent needs to go on
  (`resume`); a new message drops it, an answer takes it (once).
- One turn at a time per project, whichever worker runs it: a `chat_turns` row, inserted when
  a turn begins (a second insert fails: 409) and deleted when it ends. A row older than
  `stale_after` seconds is a crashed turn's and is taken over.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from sqlalchemy import bindparam, delete, select, update
from sqlalchemy.exc import IntegrityError

from maproom.domain import gate
from maproom.domain.common import iso, new_id, utcnow
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, Conflict
from maproom.storage.db import Database, Prepared, Tx, Writer
from maproom.storage.models import chat_questions, chat_turns, messages

HISTORY = Prepared(
    select(messages.c.role, messages.c.content, messages.c.memory)
    .where(messages.c.project_id == bindparam("project_id"))
    .order_by(messages.c.created_at.desc(), messages.c.id.desc())
    .limit(bindparam("limit"))
)
PENDING = Prepared(
    select(chat_questions).where(
        chat_questions.c.project_id == bindparam("project_id"),
        chat_questions.c.state == "pending",
    )
)


def record(row: Any) -> dict[str, Any]:
    """A message as the project lists it."""
    return {
        "id": row.id,
        "role": row.role,
        "content": row.content,
        "actions": row.actions,
        "question": row.question,
        "createdAt": iso(row.created_at),
    }


def add_message(
    tx: Writer,
    project: Any,
    *,
    role: str,
    content: str,
    actions: list[dict[str, Any]] | None = None,
    question: dict[str, Any] | None = None,
    memory: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], Any]:
    """Store a message (a project change, published as a `message` event); returns it and the
    project's new row."""
    row = {
        "id": new_id(),
        "project_id": project.id,
        "role": role,
        "content": content,
        "actions": actions or [],
        "question": question,
        "memory": memory,
        "created_at": utcnow(),
    }
    tx.execute(messages.insert().values(**row))
    body = {
        "id": row["id"],
        "role": role,
        "content": content,
        "actions": row["actions"],
        "question": question,
        "createdAt": iso(row["created_at"]),
    }
    return body, gate.touch(tx, project, event=("message", body))


def history(tx: Tx, project_id: str, limit: int = 20) -> list[dict[str, Any]]:
    """The last `limit` messages, oldest first, as `{"role", "content"}` (and the `memory` an
    agent kept with a reply, when it kept one)."""
    rows = tx.all(HISTORY, project_id=project_id, limit=limit)
    found: list[dict[str, Any]] = []
    for row in reversed(rows):
        message: dict[str, Any] = {"role": row.role, "content": row.content}
        if row.memory is not None:
            message["memory"] = row.memory
        found.append(message)
    return found


def drop_pending(tx: Writer, project_id: str) -> None:
    """A new message makes an unanswered question moot."""
    tx.execute(
        update(chat_questions)
        .where(chat_questions.c.project_id == project_id, chat_questions.c.state == "pending")
        .values(state="dropped")
    )


def add_question(
    tx: Writer, project_id: str, *, text: str, options: list[str], resume: dict[str, Any]
) -> dict[str, Any]:
    """Store a pending question; returns it as the API shows it."""
    question = {"id": new_id(), "text": text, "options": options}
    tx.execute(
        chat_questions.insert().values(
            **question, project_id=project_id, state="pending", resume=resume, created_at=utcnow()
        )
    )
    return question


def take_question(tx: Writer, project_id: str, question_id: str) -> Any:
    """The pending question `question_id`, now answered; a 400 when there is none."""
    row = tx.one(PENDING, project_id=project_id)
    if row is None or row.id != question_id:
        raise BadRequest(
            "No pending question with this id: it is unknown, answered already, or dropped by "
            "a newer message",
            details=[{"path": "questionId", "message": "not a pending question"}],
        )
    tx.execute(update(chat_questions).where(chat_questions.c.id == row.id).values(state="answered"))
    return row


def begin_turn(
    db: Database, *, principal: Principal, project_id: str, stale_after: float
) -> tuple[str, str]:
    """Claim the project's one chat turn (409 while another runs); returns the project's id
    (canonical) and the turn's."""
    turn_id = new_id()
    now = utcnow()
    try:
        with gate.locked(db, principal=principal, project_id=project_id) as (tx, project):
            canonical = str(project.id)
            taken = tx.execute(
                update(chat_turns)
                .where(
                    chat_turns.c.project_id == project.id,
                    chat_turns.c.started_at < now - timedelta(seconds=stale_after),
                )
                .values(turn_id=turn_id, started_at=now)
            ).rowcount
            if not taken:
                tx.execute(
                    chat_turns.insert().values(
                        project_id=project.id, turn_id=turn_id, started_at=now
                    )
                )
    except IntegrityError:
        raise Conflict(
            "A chat turn is already running on this project; try again when it ends"
        ) from None
    return canonical, turn_id


def end_turn(db: Database, *, project_id: str, turn_id: str) -> None:
    """Let the next turn of the project begin."""
    with db.write() as tx:
        tx.execute(
            delete(chat_turns).where(
                chat_turns.c.project_id == project_id, chat_turns.c.turn_id == turn_id
            )
        )
