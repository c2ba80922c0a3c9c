"""Several `maproom serve` processes on one database share live events, rate limits and key
revocations through Redis (docs/scaling.md). Without `MAPROOM_REDIS_URL` they could not, so a
second process on the same database refuses to start rather than half work.

Each process without Redis registers in the `workers` table at start (host, pid), refreshes its
row every `BEAT_SECONDS` and removes it when it stops. A row counts as running while it was
refreshed in the last `STALE_SECONDS` and, on this host, while its process is alive (a process
killed with SIGKILL leaves a row behind that the next start removes). The check and the
registration are one write transaction, so two processes starting at once cannot both pass.
"""

from __future__ import annotations

import os
import socket
import uuid
from datetime import timedelta

from sqlalchemy import delete, insert, select, text, update

from maproom.domain.common import utcnow
from maproom.errors import ServiceUnavailable
from maproom.storage import scratch
from maproom.storage.db import Database
from maproom.storage.models import workers

BEAT_SECONDS = 10.0
STALE_SECONDS = 30.0


def register(db: Database) -> str:
    """Register this process; raises ServiceUnavailable when another one runs on the database."""
    me, host, pid = str(uuid.uuid4()), socket.gethostname(), os.getpid()
    now = utcnow()
    with db.write() as tx:
        if not db.is_sqlite:  # one registration at a time (SQLite: the write lock)
            tx.execute(text("SELECT pg_advisory_xact_lock(7242020)"))
        for row in tx.execute(select(workers)).all():
            gone = row.seen_at < now - timedelta(seconds=STALE_SECONDS) or (
                row.host == host and not scratch.process_alive(row.pid)
            )
            if gone:
                tx.execute(delete(workers).where(workers.c.id == row.id))
            elif not (row.host == host and row.pid == pid):
                raise ServiceUnavailable(
                    f"another maproom worker ({row.host}, process {row.pid}) uses this "
                    "database: several workers share live events, rate limits and key "
                    "revocations through Redis; set MAPROOM_REDIS_URL on every worker"
                )
        tx.execute(insert(workers).values(id=me, host=host, pid=pid, seen_at=now))
    return me


def beat(db: Database, me: str) -> None:
    """This process still runs."""
    with db.write() as tx:
        tx.execute(update(workers).where(workers.c.id == me).values(seen_at=utcnow()))


def leave(db: Database, me: str) -> None:
    """This process stops."""
    with db.write() as tx:
        tx.execute(delete(workers).where(workers.c.id == me))
