"""Who may call an operation, and how a route reaches the domain.

Every `/api/v1` operation is a `ScopedRoute`: its endpoint declares the scopes it needs with
`@requires(...)` (none: any valid key), and the route checks them before FastAPI validates the
request, so a key without the scope gets 403 whatever its body. A route with no declaration
refuses to register: a forgotten check fails at start-up, not in production.

The check is a wrapper around the route's handler rather than a FastAPI dependency: on the hot
read path a dependency costs more than the database read it guards (see docs/performance.md).
Endpoints take the `Request` and get their `Caller` from it.

Domain functions are synchronous. On the embedded SQLite, `Caller.read` runs a read inline
(a WAL snapshot read never waits on a lock and takes microseconds, far less than a hop to a
worker thread) and `Caller.change` runs a short change inline too: SQLite takes one writer at a
time anyway, and a change run on the event loop costs a fraction of a millisecond, while one
run in a worker thread waits for the interpreter lock behind the busy event loop at each
statement (docs/performance.md). `Caller.write` is for changes that do slow work besides
(conversions, blob copies and deletes): always in the thread pool. On PostgreSQL a read runs
inline too, on a connection the event loop's thread keeps (one round trip, no lock waits under
MVCC), and every change runs in the thread pool (`Database.run`).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

import anyio.to_thread
import orjson
from fastapi import Depends, Header, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute

from maproom.domain import history
from maproom.domain.keys import Principal
from maproom.errors import BadRequest, Unauthorized
from maproom.limits import MAX_JSON_DEPTH, control_character, json_text_problem
from maproom.runtime import Services

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])
SCOPES_ATTRIBUTE = "__maproom_scopes__"
SCOPES_EXTENSION = "x-required-scopes"
PARSED_BODY = "json_body"  # where `check_input` leaves the parsed JSON body


def requires(*any_of: str) -> Callable[[F], F]:
    """Declare the scopes an endpoint needs: one of them suffices; none means any valid key."""

    def mark(endpoint: F) -> F:
        setattr(endpoint, SCOPES_ATTRIBUTE, any_of)
        return endpoint

    return mark


def operation_id(route: APIRoute) -> str:
    """An operation's id in `openapi.json`: its endpoint's name."""
    return route.name


class ScopedRoute(APIRoute):
    """An API operation whose caller must hold one of the endpoint's declared scopes."""

    def __init__(self, path: str, endpoint: Callable[..., Any], **kwargs: Any) -> None:
        if not hasattr(endpoint, SCOPES_ATTRIBUTE):
            raise TypeError(f"{endpoint.__name__}: declare its scopes with @requires(...)")
        self.required_scopes: tuple[str, ...] = getattr(endpoint, SCOPES_ATTRIBUTE)
        extra = dict(kwargs.pop("openapi_extra", None) or {})
        extra[SCOPES_EXTENSION] = list(self.required_scopes)
        # Readable, stable operation ids (`get_project`, `dispatch_actions`): the endpoint
        # function's name, which generated clients turn into their function names.
        kwargs["generate_unique_id_function"] = operation_id
        super().__init__(path, endpoint, openapi_extra=extra, **kwargs)

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = self._direct_handler() or super().get_route_handler()
        scopes = self.required_scopes

        async def guarded(request: Request) -> Response:
            principal: Principal | None = request.scope.get("state", {}).get("principal")
            if principal is None:
                raise Unauthorized()
            if scopes:
                principal.require(*scopes)
            await check_input(request)
            via = request.scope.get("state", {}).get("via") or way_in(request.url.path)
            history.ACTOR.set(history.Actor(principal.email or None, principal.key_id, via))
            return await handler(request)

        return guarded

    def _direct_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]] | None:
        """For an endpoint of string path parameters and the request alone (a plain GET or
        DELETE answering a `Response`): call it straight, skipping FastAPI's per-request
        dependency solving, which has nothing to validate there and costs more than the
        endpoint's own database read on the hot path (docs/performance.md)."""
        dependant = self.dependant
        plain = (
            dependant.request_param_name == "request"
            and not dependant.dependencies
            and not (dependant.query_params or dependant.header_params)
            and not (dependant.cookie_params or dependant.body_params)
            and all(p.field_info.annotation is str for p in dependant.path_params)
            and inspect.iscoroutinefunction(self.endpoint)
            and _returns_response(self.endpoint)
        )
        if not plain:
            return None
        endpoint = self.endpoint

        async def direct(request: Request) -> Response:
            response: Response = await endpoint(request=request, **request.path_params)
            return response

        return direct


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def way_in(path: str) -> str:
    """How a request changes a project, as its history names it (`via`)."""
    if path.endswith("/map/actions"):
        return "actions"
    if path.endswith(("/chat", "/ask/respond")):
        return "chat"
    if path.endswith("/restore"):
        return "restore"
    return "api"


async def check_input(request: Request) -> None:
    """Every operation's input meets the rules of `maproom.limits` (control characters, JSON
    depth), checked here once for all of them, after the scope check and before the body is
    validated. A JSON body is parsed once: `bodies.json_object` takes it from here."""
    for name, value in request.query_params.multi_items():
        message = control_character(value) or control_character(name)
        if message:
            raise BadRequest(f"{name}: {message}", details=[{"path": name, "message": message}])
    if request.method not in _BODY_METHODS:
        return
    kind = request.headers.get("content-type", "")
    if kind.startswith("multipart/"):  # streamed by the upload parser, which checks its fields
        return
    raw = await request.body()
    if not raw:
        return
    try:
        body = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        if str(exc).startswith("depth limit"):  # orjson's own limit, far past ours
            message = f"nested deeper than {MAX_JSON_DEPTH} levels"
            details = [{"path": "body", "message": message}]
            raise BadRequest(f"body: {message}", details=details) from None
        return  # the operation's own parsing says what is wrong
    problem = json_text_problem(raw, body)
    if problem is not None:
        path, message = problem
        raise BadRequest(f"{path}: {message}", details=[{"path": path, "message": message}])
    request.scope.setdefault("state", {})[PARSED_BODY] = body


def _returns_response(endpoint: Callable[..., Any]) -> bool:
    annotation = inspect.signature(endpoint, eval_str=True).return_annotation
    return isinstance(annotation, type) and issubclass(annotation, Response)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who is calling, and the services to act with."""

    principal: Principal
    services: Services

    @classmethod
    def of(cls, request: Request) -> Caller:
        """The caller of a request that a `ScopedRoute` has let through."""
        return cls(request.scope["state"]["principal"], request.app.state.services)

    async def run_change(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a short blocking domain call as `change` does (its arguments given whole)."""
        return await self.services.db.run(fn, *args, **kwargs)

    async def run_write(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
        """Run a blocking domain call that does slow work, in the thread pool."""
        return await anyio.to_thread.run_sync(functools.partial(fn, *args, **kwargs))

    async def read(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run a domain read for this caller: inline (see the module docstring)."""
        return fn(self.services.db, principal=self.principal, **kwargs)

    async def change(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run a short domain change for this caller (see the module docstring)."""
        return await self.run_change(fn, self.services.db, principal=self.principal, **kwargs)

    async def analyse(self, request: Request, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run a domain call that asks the analysis engine, off the event loop; if the client
        leaves meanwhile, the call is told (`cancelled`) and stops."""
        cancelled = threading.Event()
        call = functools.partial(
            fn, self.services.db, principal=self.principal, cancelled=cancelled, **kwargs
        )

        async def watch() -> None:
            while not await request.is_disconnected():
                await anyio.sleep(0.2)
            cancelled.set()

        failed: Exception | None = None
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(watch)
            try:
                answer = await anyio.to_thread.run_sync(call)
            except Exception as exc:  # raised below, not wrapped in the task group's error
                failed = exc
            finally:
                tasks.cancel_scope.cancel()
        if failed is not None:
            raise failed
        return answer

    async def write(self, fn: Callable[..., T], /, **kwargs: Any) -> T:
        """Run a domain change that does slow work besides, off the event loop."""
        return await self.run_write(fn, self.services.db, principal=self.principal, **kwargs)


async def get_if_match(
    if_match: Annotated[
        str | None,
        Header(description="ETag of the version this change is based on; 412 if stale"),
    ] = None,
) -> frozenset[str] | None:
    """The strong entity tags of `If-Match` (`*` kept); weak tags never match a strong one."""
    if if_match is None:
        return None
    tags = {tag.strip() for tag in if_match.split(",")}
    return frozenset(tag for tag in tags if tag and not tag.startswith("W/"))


IfMatch = Annotated[frozenset[str] | None, Depends(get_if_match)]


def public_origin(request: Request) -> str:
    """The origin returned URLs use: `MAPROOM_PUBLIC_URL`, else the request's own."""
    settings = request.app.state.settings
    return str(settings.public_url or f"{request.url.scheme}://{request.url.netloc}").rstrip("/")


def project_url(request: Request, project_id: str) -> str:
    """The project's URL under the API, on the public origin when one is configured."""
    return f"{public_origin(request)}/api/v1/sessions/{project_id}"
