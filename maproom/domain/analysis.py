"""Answers about a layer's data: its table in the analysis engine, feature queries, statistics,
and the bounds every analysis runs within (docs/analysis.md).

Each GeoJSON layer gets a table (`maproom.geo.table`), built in the background right after its
upload (with its tile index) or on its first question, and stored beside its data
(`p/{project}/{file}/layer.parquet`, counted in `/usage`). One DuckDB database per process
answers every question, on its own cursor per request, within `MAPROOM_ANALYSIS_MEMORY_MB`
(it spills to the scratch folder beyond) and `MAPROOM_ANALYSIS_TIMEOUT_S` (then 504, nothing
changed); a question whose client has gone is interrupted.
"""

from __future__ import annotations

import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from maproom import logs
from maproom.errors import BadRequest, GatewayTimeout, MaproomError
from maproom.geo.table import TABLE_NAME, Table
from maproom.storage import scratch
from maproom.storage.blobs import BlobStore

T = TypeVar("T")


class ClientGone(MaproomError):
    """The client left before the answer was ready (nobody reads the answer)."""

    status = 499
    code = "client_closed_request"
    message = "The client closed the request"


class Analysis:
    """The process's analysis engine and the layers' tables (module docstring)."""

    def __init__(
        self,
        blobs: BlobStore,
        *,
        memory_mb: int,
        timeout_s: float,
        on_built: Callable[[str, int], bool] | None = None,
    ) -> None:
        self.blobs = blobs
        self.memory_mb = memory_mb
        self.timeout_s = timeout_s
        self.on_built = on_built  # counts a table's bytes; False: the layer's file is gone
        self._engine: Any = None
        self._lock = threading.Lock()
        self._building: dict[str, threading.Lock] = {}
        self._background = ThreadPoolExecutor(max_workers=1, thread_name_prefix="layer-table")

    def _connection(self) -> Any:
        with self._lock:
            if self._engine is None:
                from maproom.geo import table

                self._engine = table.engine(self.memory_mb, scratch.folder())
            return self._engine

    def close(self) -> None:
        """Stop background builds and close the engine."""
        self._background.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            if self._engine is not None:
                self._engine.close()
                self._engine = None

    # --- bounds -------------------------------------------------------------------------------

    def run(self, work: Callable[[Any], T], cancelled: threading.Event | None = None) -> T:
        """Run `work(cursor)` on a cursor of the engine, interrupted after the timeout (504) or
        when `cancelled` is set (the client left). Blocking: call it off the event loop."""
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

        watchdog = threading.Thread(target=watch, name="analysis-watchdog", daemon=True)
        watchdog.start()
        try:
            return work(cursor)
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

    # --- tables -------------------------------------------------------------------------------

    def build_later(self, data_key: str, fields: list[dict[str, Any]] | None) -> None:
        """Build a layer's table in the background (after its upload answered)."""
        self._background.submit(self._safely_built, data_key, fields)

    def _safely_built(self, data_key: str, fields: list[dict[str, Any]] | None) -> None:
        try:
            self.table(data_key, fields)
        except Exception:  # the first question tries again, and says what is wrong
            logs.log.exception("could not build the table of %s", data_key)

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
