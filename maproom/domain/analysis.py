"""Answers about a layer's data: its table in the analysis engine, feature queries, statistics,
and the bounds every analysis runs within (docs/analysis.md).

Each GeoJSON layer gets a table (`maproom.geo.table`), built on its first question (a few
seconds for a million points) and stored beside its data
(`p/{project}/{file}/layer.parquet`, counted in `/usage`). One DuckDB database per process
answers every question, on its own cursor per request, within `MAPROOM_ANALYSIS_MEMORY_MB`
(it spills to the scratch folder beyond) and `MAPROOM_ANALYSIS_TIMEOUT_S` (then 504, nothing
changed); a question whose client has gone is interrupted.

A layer's data never changes under its key (new data gets a new file), so the statistics of
a field are remembered per key, field and filter (the last `ANSWERS` of them): the chat asks
for the values of every text field on most turns, and a second asking costs nothing.
"""

from __future__ import annotations

import copy
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from maproom.errors import BadRequest, GatewayTimeout, MaproomError
from maproom.geo.base import UNLIMITED, Limits
from maproom.geo.table import TABLE_NAME, Table
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore

T = TypeVar("T")
ANSWERS = 512  # statistics answers remembered (each a few kB at most)


class ClientGone(MaproomError):
    """The client left before the answer was ready (nobody reads the answer)."""

    status = 499
    code = "client_closed_request"
    message = "The client closed the request"


@dataclass(frozen=True)
class Job:
    """What an analysis works with: a cursor of the engine, and `check()` to call between
    steps (it raises once the job is past its time or its client has gone)."""

    cursor: Any
    check: Callable[[], None]


class Analysis:
    """The process's analysis engine and the layers' tables (module docstring)."""

    def __init__(
        self,
        blobs: BlobStore,
        *,
        memory_mb: int,
        timeout_s: float,
        limits: Limits = UNLIMITED,
        on_built: Callable[[str, int], bool] | None = None,
    ) -> None:
        self.blobs = blobs
        self.limits = limits  # how big a derived layer may get (the conversions' ceiling)
        self.memory_mb = memory_mb
        self.timeout_s = timeout_s
        self.on_built = on_built  # counts a table's bytes; False: the layer's file is gone
        self._engine: Any = None
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self._answers: OrderedDict[tuple[str, ...], Any] = OrderedDict()

    def _connection(self) -> Any:
        with self._lock:
            if self._engine is None:
                from maproom.geo import table

                self._engine = table.engine(self.memory_mb, scratch.folder())
            return self._engine

    def close(self) -> None:
        """Close the engine."""
        with self._lock:
            if self._engine is not None:
                self._engine.close()
                self._engine = None

    # --- bounds -------------------------------------------------------------------------------

    def run(self, work: Callable[[Job], T], cancelled: threading.Event | None = None) -> T:
        """Run `work(job)` on a cursor of the engine (`job.cursor`), interrupted after the
        timeout (504) or when `cancelled` is set (the client left); work in Python between
        the engine's steps calls `job.check()`. Blocking: call it off the event loop."""
        cursor = self._connection().cursor()
        stop = threading.Event()
        why: list[str] = []
        deadline = time.monotonic() + self.timeout_s

        def watch() -> None:
            while not stop.wait(0.05):
                if cancelled is not None and cancelled.is_set():
                    why.append("gone")
                elif time.monotonic() > deadline:
                    why.append("timeout")
                else:
                    continue
                cursor.interrupt()
                return

        def check() -> None:
            if why:
                raise self._stopped(why[0])

        watchdog = threading.Thread(target=watch, name="analysis-watchdog", daemon=True)
        watchdog.start()
        try:
            return work(Job(cursor, check))
        except Exception:
            if why:
                raise self._stopped(why[0]) from None
            raise
        finally:
            stop.set()
            watchdog.join()
            cursor.close()

    def _stopped(self, why: str) -> MaproomError:
        if why == "gone":
            return ClientGone()
        return GatewayTimeout(
            f"The analysis took longer than {self.timeout_s:g} s (MAPROOM_ANALYSIS_TIMEOUT_S); "
            "nothing was changed"
        )

    def remembered(self, key: tuple[str, ...], work: Callable[[], T]) -> T:
        """`work()`'s answer, or the one it gave for `key` before (the key names the data)."""
        with self._lock:
            if key in self._answers:
                self._answers.move_to_end(key)
                return copy.deepcopy(self._answers[key])  # type: ignore[no-any-return]
        answer = work()
        with self._lock:
            self._answers[key] = copy.deepcopy(answer)
            while len(self._answers) > ANSWERS:
                self._answers.popitem(last=False)
        return answer

    # --- tables -------------------------------------------------------------------------------

    def table(self, data_key: str, fields: list[dict[str, Any]] | None) -> Table:
        """A GeoJSON layer's table, built now unless it exists (or is being built: then when
        it is done)."""
        from maproom.geo import table

        key = f"{data_key.rsplit('/', 1)[0]}/{TABLE_NAME}"
        with self._lock:
            building = self._building.setdefault(data_key, threading.Lock())
        with building:
            if not self.blobs.exists(key):
                source = self.blobs.local_path(data_key)
                with tempfile.TemporaryDirectory(dir=scratch.folder()) as work:
                    made = Path(work) / TABLE_NAME
                    cursor = self._connection().cursor()
                    try:
                        table.build(cursor, source, fields, made)
                    finally:
                        cursor.close()
                    size = self.blobs.put_file(key, made)
                if self.on_built is not None and not self.on_built(data_key, size):
                    self.blobs.delete(key)
                    raise BadRequest("This layer was deleted")
        return Table(self.blobs.local_path(key), list(fields or []))
