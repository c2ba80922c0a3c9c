"""The application factory: routers, error handlers, middleware, lifespan and health checks."""

from __future__ import annotations

import contextlib
import gc
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import anyio.to_thread
from fastapi import FastAPI
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from maproom import __version__, geo
from maproom.api import errors, openapi
from maproom.api.middleware import AuthMiddleware, IdempotencyMiddleware, RequestContextMiddleware
from maproom.api.responses import json_response
from maproom.api.routes import files, keys, layers, map_actions, meta, pages, projects, views
from maproom.errors import ServiceUnavailable
from maproom.services import Services
from maproom.settings import Settings
from maproom.storage import migrate
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
        await anyio.to_thread.run_sync(geo.warm_up)
        services.hub.start()
        Path(settings.data_dir).mkdir(parents=True, exist_ok=True)
        # Everything alive now (modules, routes, models) lives as long as the process: keep it
        # out of the collector's full passes, which would otherwise rescan it every few
        # thousand requests and show up as latency spikes.
        gc.collect()
        gc.freeze()
        # Fewer young-generation passes: a broadcast to thousands of live streams allocates
        # in bursts, and each default pass (every 700 allocations) is a pause for all of them.
        gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(_flush_usage_forever, services)
            try:
                yield
            finally:
                tasks.cancel_scope.cancel()
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
    # project read on the hot path (docs/performance.md). The hottest routes come first.
    routers = [projects.router, layers.router, files.router, map_actions.router, views.router]
    routers += [keys.router]
    for router in (*routers, meta.router, pages.router):
        app.router.routes.extend(router.routes)
    app.mount(meta.DOCS_ASSETS, StaticFiles(directory=meta.SWAGGER_DIR), name="docs-assets")
    app.mount(pages.STATIC_PREFIX, StaticFiles(directory=pages.WEB_DIR / "static"), name="static")
    app.mount(pages.VENDOR_PREFIX, StaticFiles(directory=assets.vendor_dir()), name="vendor")
    app.openapi = lambda: openapi.build(app)  # type: ignore[method-assign]

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
        except OSError as exc:
            log.warning("readiness: storage unusable: %s", exc)
            raise ServiceUnavailable("storage unusable") from None
        return json_response({"status": "ready", "checks": {"database": "ok", "storage": "ok"}})

    # Added innermost first: the request context wraps everything, auth wraps idempotency.
    app.add_middleware(IdempotencyMiddleware, services=services)
    app.add_middleware(AuthMiddleware, services=services)
    app.add_middleware(RequestContextMiddleware)
    return app


async def _flush_usage_forever(services: Services) -> None:
    while True:
        await anyio.sleep(USAGE_FLUSH_SECONDS)
        try:
            await anyio.to_thread.run_sync(services.meter.flush, services.db)
        except Exception:
            log.exception("could not write usage counters; will retry")


def app_from_env() -> FastAPI:
    """Factory for `uvicorn --factory maproom.app:app_from_env` (settings from the environment)."""
    return create_app(Settings())
