"""Safe retries: the first response to an `Idempotency-Key` is kept for 24 hours and replayed.

A key belongs to one API key. The same key with a different request is a conflict, and so is a
retry while the first request is still running. Server errors are not kept, so a retry after a
500 runs again. An in-flight marker older than `STALE_IN_FLIGHT` (a crashed worker) is taken over.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import and_, delete, select, update
from sqlalchemy.exc import IntegrityError

from maproom.domain.common import utcnow
from maproom.errors import Conflict
from maproom.storage.db import Database
from maproom.storage.models import idempotency_records as records

KEEP_FOR = timedelta(hours=24)
STALE_IN_FLIGHT = timedelta(minutes=10)


@dataclass(frozen=True, slots=True)
class StoredResponse:
    """A response kept for replay."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes


def begin(db: Database, *, key_id: str, idem_key: str, request_hash: str) -> StoredResponse | None:
    """Claim the key for this request, or return the response to replay, or raise Conflict."""
    now = utcnow()
    where = and_(records.c.key_id == key_id, records.c.idem_key == idem_key)
    try:
        with db.write() as conn:
            row = conn.execute(select(records).where(where)).first()
            if row is not None:
                expired = row.created_at < now - KEEP_FOR
                abandoned = not row.completed and row.created_at < now - STALE_IN_FLIGHT
                if not (expired or abandoned):
                    if row.request_hash != request_hash:
                        raise Conflict(
                            "This Idempotency-Key was already used with a different request"
                        )
                    if not row.completed:
                        raise Conflict("A request with this Idempotency-Key is still in progress")
                    return StoredResponse(
                        row.status_code,
                        [(k, v) for k, v in row.response_headers],
                        row.response_body,
                    )
                conn.execute(delete(records).where(where))
            conn.execute(
                records.insert().values(
                    key_id=key_id,
                    idem_key=idem_key,
                    request_hash=request_hash,
                    completed=False,
                    created_at=now,
                )
            )
            if row is None and now.minute == 0:
                # Hourly-ish housekeeping, piggybacked on a write that happens anyway.
                conn.execute(delete(records).where(records.c.created_at < now - KEEP_FOR))
    except IntegrityError:
        raise Conflict("A request with this Idempotency-Key is still in progress") from None
    return None


def complete(db: Database, *, key_id: str, idem_key: str, response: StoredResponse) -> None:
    """Keep the response of a finished request."""
    with db.write() as conn:
        conn.execute(
            update(records)
            .where(records.c.key_id == key_id, records.c.idem_key == idem_key)
            .values(
                completed=True,
                status_code=response.status,
                response_headers=[list(h) for h in response.headers],
                response_body=response.body,
            )
        )


def abandon(db: Database, *, key_id: str, idem_key: str) -> None:
    """Forget a claim whose request failed, so that a retry runs again."""
    with db.write() as conn:
        conn.execute(
            delete(records).where(records.c.key_id == key_id, records.c.idem_key == idem_key)
        )
