"""The application factory: routers, error handlers, middleware, lifespan and health checks."""

from __future__ import annotations

import contextlib
import gc
import logging
import shutil
import threading
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.routing import Route

from maproom import __version__
from maproom.api import errors, openapi
from maproom.api.middleware import (
    AuthMiddleware,
    BodyLimitMiddleware,
    IdempotencyMiddleware,
    PublicLimitMiddleware,
    RequestContextMiddleware,
)
from maproom.api.responses import json_response
from maproom.api.routes import (
    chat,
    files,
    keys,
    layers,
    map_actions,
    meta,
    pages,
    projects,
    views,
)
from maproom.api.routes import history as history_routes
from maproom.domain import history, orphans, usage, workers
from maproom.domain.layers import profile_missing
from maproom.errors import ServiceUnavailable
from maproom.mcp.http import PATH as MCP_PATH
from maproom.mcp.http import McpEndpoint
from maproom.runtime import Services
from maproom.settings import MB, Settings
from maproom.storage import migrate, scratch
from maproom.web import assets

GC_YOUNG_THRESHOLD = 20_000
log = logging.getLogger("maproom")
USAGE_FLUSH_SECONDS = 5.0


def create_app(settings: Settings | None = None) -> FastAPI:
    """A ready-to-serve maproom for these settings (the environment's when omitted)."""
    settings = settings or Settings()
    services = Services.build(settings)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(migrate.upgrade, services.db)
        # Nothing heavy is loaded at start (the raster stack, the chat's gazetteer): each is
        # loaded by the first request that needs it, so a server answers within a second or
        # two of starting and a fresh process stays small (docs/performance.md).
        services.hub.start()
        registered = None
        if not settings.redis_url:  # alone on the database, or refuse to start (docs/scaling.md)
            registered = await anyio.to_thread.run_sync(workers.register, services.db)
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
        swept = await anyio.to_thread.run_sync(scratch.sweep)
        if swept:
            log.info("removed %d scratch entries left by processes that stopped", swept)
        # Everything alive now (modules, routes, models) lives as long as the process: keep it
        # out of the collector's full passes, which would otherwise rescan it every few
        # thousand requests and show up as latency spikes.
        gc.collect()
        gc.freeze()
        # Fewer young-generation passes: a broadcast to thousands of live streams allocates
        # in bursts, and each default pass (every 700 allocations) is a pause for all of them.
        gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
        stopping = threading.Event()
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_flush_usage_forever, services)
            tasks.start_soon(_profile_missing, services, stopping)
            tasks.start_soon(_measure_unmeasured, services, stopping)
            tasks.start_soon(_sweep_orphans, services, stopping)
            tasks.start_soon(_sweep_history_forever, services)
            tasks.start_soon(services.bus.run)
            tasks.start_soon(mcp_endpoint.run)
            if registered is not None:
                tasks.start_soon(_still_running, services, registered)
            try:
                yield
            finally:
                stopping.set()  # lets the profiling thread end before the database closes
                tasks.cancel_scope.cancel()
        services.tiles.close()
        services.analysis.close()
        await services.close()
        if registered is not None:
            await anyio.to_thread.run_sync(workers.leave, services.db, registered)
        await anyio.to_thread.run_sync(services.meter.flush, services.db)
        services.db.dispose()

    app = FastAPI(
        title="maproom",
        version=__version__,
        openapi_url=None,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.services = services
    app.state.settings = settings
    errors.install(app)
    # The routers' routes join the app's own list instead of being included: FastAPI wraps an
    # included router in a layer that matches every request twice, which costs more than the
    # project read on the hot path (docs/performance.md). Routes are matched one by one, in
    # order, so the hottest come first: reading a project, then dispatching actions.
    routers = [projects.router, map_actions.router, layers.router, files.router, views.router]
    routers += [chat.router, history_routes.router, keys.router]
    for router in (*routers, meta.router, pages.router):
        app.router.routes.extend(router.routes)
    app.router.routes.sort(key=_hot_first)
    app.mount(meta.DOCS_ASSETS, StaticFiles(directory=meta.SWAGGER_DIR), name="docs-assets")
    app.mount(pages.STATIC_PREFIX, StaticFiles(directory=pages.WEB_DIR / "static"), name="static")
    app.mount(pages.VENDOR_PREFIX, StaticFiles(directory=assets.vendor_dir()), name="vendor")
    app.openapi = lambda: openapi.build(app)  # type: ignore[method-assign]
    mcp_endpoint = McpEndpoint(app)
    app.router.routes.append(Route(MCP_PATH, mcp_endpoint, methods=["GET", "POST", "DELETE"]))

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> Response:
        """The process is alive."""
        return json_response({"status": "ok"})

    @app.get("/readyz", include_in_schema=False)
    async def readyz() -> Response:
        """Database and storage answer."""
        try:
            await anyio.to_thread.run_sync(services.db.ping)
        except Exception as exc:
            log.warning("readiness: database unreachable: %s", exc)
            raise ServiceUnavailable("database unreachable") from None
        try:
            await anyio.to_thread.run_sync(services.blobs.ping)
            free = await anyio.to_thread.run_sync(_free_bytes, services)
        except OSError as exc:
            log.warning("readiness: storage unusable: %s", exc)
            raise ServiceUnavailable("storage unusable") from None
        if free < settings.min_free_mb * MB:
            log.warning("readiness: %d MB free, under MAPROOM_MIN_FREE_MB", free // MB)
            raise ServiceUnavailable(
                f"storage nearly full: {free // MB} MB free, under MAPROOM_MIN_FREE_MB"
            )
        return json_response({"status": "ready", "checks": {"database": "ok", "storage": "ok"}})

    # Added innermost first: the request context wraps everything, auth wraps the body limit,
    # which wraps idempotency (which reads bodies).
    app.add_middleware(IdempotencyMiddleware, services=services)
    app.add_middleware(BodyLimitMiddleware, services=services)
    app.add_middleware(AuthMiddleware, services=services)
    app.add_middleware(PublicLimitMiddleware, services=services)
    app.add_middleware(RequestContextMiddleware, services=services)
    return app


HOT_ENDPOINTS = (projects.get_project, map_actions.dispatch_actions)


def _hot_first(route: object) -> int:
    """Sort key putting the hottest endpoints first, the others in their order (stable)."""
    endpoint = getattr(route, "endpoint", None)
    return HOT_ENDPOINTS.index(endpoint) if endpoint in HOT_ENDPOINTS else len(HOT_ENDPOINTS)


async def _flush_usage_forever(services: Services) -> None:
    while True:
        await anyio.sleep(USAGE_FLUSH_SECONDS)
        try:
            await anyio.to_thread.run_sync(services.meter.flush, services.db)
        except Exception:
            log.exception("could not write usage counters; will retry")


async def _still_running(services: Services, registered: str) -> None:
    while True:
        await anyio.sleep(workers.BEAT_SECONDS)
        try:
            await anyio.to_thread.run_sync(workers.beat, services.db, registered)
        except Exception:
            log.exception("could not refresh this worker's registration; will retry")


async def _profile_missing(services: Services, stopping: threading.Event) -> None:
    """Gather the field statistics of layers stored before maproom kept them (once, at start)."""
    try:
        done = await anyio.to_thread.run_sync(
            profile_missing, services.db, services.blobs, stopping
        )
    except Exception:
        log.exception("could not gather the field statistics of older layers")
        return
    if done:
        log.info("gathered the field statistics of %d older layers", done)


async def _measure_unmeasured(services: Services, stopping: threading.Event) -> None:
    """Measure the stored files of before maproom counted bytes (once, at start)."""
    try:
        done = await anyio.to_thread.run_sync(
            usage.measure_unmeasured, services.db, services.blobs, stopping
        )
    except Exception:
        log.exception("could not measure the storage of older files")
        return
    if done:
        log.info("measured the storage of %d older files", done)


HISTORY_SWEEP_SECONDS = 3600.0


async def _sweep_history_forever(services: Services) -> None:
    """Let go of versions past `MAPROOM_HISTORY_DAYS` (and the data only they kept), at start
    and hourly: the count bound is kept as each version is written."""
    while True:
        try:
            await anyio.to_thread.run_sync(history.sweep, services.db, services.retention)
        except Exception:
            log.exception("could not sweep the projects' history; will retry")
        await anyio.sleep(HISTORY_SWEEP_SECONDS)


async def _sweep_orphans(services: Services, stopping: threading.Event) -> None:
    """Remove stored blobs that no row refers to (left by a crash), once, at start."""
    grace = services.settings.orphan_grace_s
    try:
        removed = await anyio.to_thread.run_sync(
            lambda: orphans.sweep(services.db, services.blobs, grace_seconds=grace, stop=stopping)
        )
    except Exception:
        log.exception("could not sweep the blob store of files no row refers to")
        return
    log.info("removed the stored files of %d uploads that no row refers to", removed)


def _free_bytes(services: Services) -> int:
    """The least free space of the data dir (the embedded database) and the blob store."""
    data_dir = Path(services.settings.data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    free = shutil.disk_usage(data_dir).free
    store = services.blobs.free_bytes()
    return free if store is None else min(free, store)


def app_from_env() -> FastAPI:
    """Factory for `uvicorn --factory maproom.app:app_from_env` (settings from the environment)."""
    return create_app(Settings())
