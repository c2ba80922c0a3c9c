"""Usage: requests per account and month, last use per key, and storage per account.

Writing a row on every request would cost more than the request itself, so counts and
last-use times collect in memory and `flush` writes them (the app flushes every few seconds
and on shutdown). Reads add what is still pending in this process.

Storage is measured where it is written: each stored file's row carries `stored_bytes`, what
its blobs take (the original and what is derived from it), set when it is stored, grown by
`add_stored` when something is derived later, and gone with the row when the file or its
project is deleted. `/usage` sums the account's rows; nothing scans the disk per request.
Files stored before maproom counted bytes are measured once, at start
(`measure_unmeasured`).
"""

from __future__ import annotations

import threading
from collections import Counter
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import bindparam, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

from maproom.domain.common import iso, utcnow
from maproom.domain.keys import Principal
from maproom.storage.blobs import BlobStore
from maproom.storage.db import Database, Prepared, Writer
from maproom.storage.models import account_usage, api_keys, files, projects

REQUESTS = Prepared(
    select(account_usage.c.requests).where(
        account_usage.c.account_id == bindparam("account_id"),
        account_usage.c.period == bindparam("period"),
    )
)
PROJECT_COUNT = Prepared(
    select(func.count().label("n"))
    .select_from(projects)
    .where(projects.c.account_id == bindparam("account_id"))
)


STORED_BYTES = Prepared(
    select(func.coalesce(func.sum(func.coalesce(files.c.stored_bytes, files.c.file_size)), 0)
           .label("n"))
    .select_from(files.join(projects, projects.c.id == files.c.project_id))
    .where(projects.c.account_id == bindparam("account_id"))
)  # fmt: skip
UNMEASURED = Prepared(select(files.c.id, files.c.blob_key).where(files.c.stored_bytes.is_(None)))


def period_of(moment: datetime) -> str:
    """The billing period (calendar month, UTC) a moment falls in."""
    return f"{moment.year:04d}-{moment.month:02d}"


class UsageMeter:
    """Collects request counts and last-use times until the next flush."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._counts: Counter[tuple[str, str]] = Counter()
        self._last_used: dict[str, datetime] = {}

    def record(self, principal: Principal) -> None:
        """Count one accepted request of this key."""
        now = utcnow()
        with self._lock:
            self._counts[(principal.account_id, period_of(now))] += 1
            self._last_used[principal.key_id] = now

    def last_used(self) -> dict[str, datetime]:
        """Pending last-use times by key id."""
        with self._lock:
            return dict(self._last_used)

    def pending(self, account_id: str, period: str) -> int:
        """Requests counted but not yet written."""
        with self._lock:
            return self._counts.get((account_id, period), 0)

    def flush(self, db: Database) -> None:
        """Write what has collected; on failure it is kept for the next try."""
        with self._lock:
            counts, self._counts = self._counts, Counter()
            last_used, self._last_used = self._last_used, {}
        if not counts and not last_used:
            return
        try:
            with db.write() as conn:
                for (account_id, period), n in counts.items():
                    _add_requests(conn, account_id, period, n)
                for key_id, moment in last_used.items():
                    conn.execute(
                        update(api_keys).where(api_keys.c.id == key_id).values(last_used_at=moment)
                    )
        except Exception:
            with self._lock:
                self._counts.update(counts)
                for key_id, moment in last_used.items():
                    self._last_used.setdefault(key_id, moment)
            raise


def _add_requests(conn: Writer, account_id: str, period: str, n: int) -> None:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(account_usage).values(account_id=account_id, period=period, requests=n)
    conn.execute(
        stmt.on_conflict_do_update(
            index_elements=["account_id", "period"],
            set_={"requests": account_usage.c.requests + stmt.excluded.requests},
        )
    )


def report(
    db: Database, *, principal: Principal, meter: UsageMeter, rate_limit: int
) -> dict[str, Any]:
    """The `/usage` record of the caller's account for the current month."""
    now = utcnow()
    period = period_of(now)
    start = datetime(now.year, now.month, 1, tzinfo=UTC)
    end = datetime(now.year + now.month // 12, now.month % 12 + 1, 1, tzinfo=UTC)
    with db.reader() as tx:
        used_row = tx.one(REQUESTS, account_id=principal.account_id, period=period)
        project_count = tx.one(PROJECT_COUNT, account_id=principal.account_id).n
        stored = tx.one(STORED_BYTES, account_id=principal.account_id).n
    used = used_row.requests if used_row else 0
    return {
        "plan": "self-hosted",
        "period": {"start": iso(start), "end": iso(end)},
        "requests": {"used": used + meter.pending(principal.account_id, period), "limit": None},
        "projects": {"used": project_count},
        "storage": {"usedBytes": int(stored), "limitBytes": None},
        "rateLimit": {"perMinute": rate_limit},
    }


def add_stored(tx: Writer, file_id: str, size: int) -> bool:
    """Count `size` more bytes stored under a file (something derived later, such as a
    layer's statistics or tile index); False if the file is gone."""
    done = tx.execute(
        update(files)
        .where(files.c.id == file_id)
        .values(stored_bytes=func.coalesce(files.c.stored_bytes, files.c.file_size) + size)
    ).rowcount
    return bool(done)


def measure_unmeasured(db: Database, blobs: BlobStore, stop: threading.Event | None = None) -> int:
    """Measure what files stored before maproom counted bytes take (once, at start); returns
    how many were measured. Safe to run while serving."""
    with db.reader() as tx:
        pending = [(row.id, row.blob_key) for row in tx.all(UNMEASURED)]
    for file_id, blob_key in pending:
        if stop is not None and stop.is_set():
            return 0
        size = blobs.prefix_size(blob_key.rsplit("/", 1)[0])
        with db.write() as tx:
            tx.execute(
                update(files)
                .where(files.c.id == file_id, files.c.stored_bytes.is_(None))
                .values(stored_bytes=size)
            )
    return len(pending)
