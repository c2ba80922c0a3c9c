"""Pure-ASGI middleware: request ids and crash envelopes, authentication with rate limits,
and idempotent POST replay. Pure ASGI, so streaming responses pass through untouched."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import tempfile
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import anyio.to_thread
import orjson

from maproom.api import API_PREFIX
from maproom.domain import idempotency
from maproom.domain.keys import hash_key, looks_like_key
from maproom.domain.ratelimit import RateDecision
from maproom.domain.urlpolicy import ALLOWED
from maproom.errors import (
    BadRequest,
    InsufficientStorage,
    InternalError,
    MaproomError,
    PayloadTooLarge,
    RateLimited,
    Unauthorized,
    storage_full,
)
from maproom.logs import REQUEST_ID
from maproom.runtime import Services

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

log = logging.getLogger("maproom")
PROTECTED = (f"{API_PREFIX}/", "/mcp")  # the MCP endpoint: the same keys and limits
PUBLIC_PATHS = (f"{API_PREFIX}/openapi.json", f"{API_PREFIX}/docs")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:-]{1,128}$")
KEPT_HEADERS = {b"content-type", b"etag", b"location"}
_READ_ONLY = {"GET", "HEAD", "OPTIONS"}


async def send_error(send: Send, error: MaproomError, extra: list[tuple[bytes, bytes]]) -> None:
    """Send an error envelope straight from middleware."""
    body = orjson.dumps(error.body())
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        *[(k.lower().encode(), v.encode()) for k, v in error.headers.items()],
        *extra,
    ]
    await send({"type": "http.response.start", "status": error.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key == name:
            return str(value.decode("latin-1"))
    return None


class RequestContextMiddleware:
    """Gives every response an `X-Request-Id` and turns any crash into a 500 envelope (a full
    disk into 507); sets what the request's code reads from context (its id, the fetch
    allow-list)."""

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.allowed = services.settings.fetch_allowed
        self.bus = services.bus

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = _header(scope, b"x-request-id")
        request_id = incoming if incoming and _REQUEST_ID.match(incoming) else os.urandom(16).hex()
        scope.setdefault("state", {})["request_id"] = request_id
        started = False
        # Several workers: a change is answered once the others were sent what it changed
        # (`RedisBus.sent`), so the caller's next request finds every worker told.
        bus = self.bus if scope["method"] not in _READ_ONLY else None

        async def send_with_id(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                if bus is not None:
                    await bus.sent()
                started = True
                message["headers"] = [
                    *message.get("headers", []),
                    (b"x-request-id", request_id.encode()),
                ]
            await send(message)

        token = REQUEST_ID.set(request_id)
        ALLOWED.set(self.allowed)
        try:
            await self.app(scope, receive, send_with_id)
        except Exception as exc:
            if storage_full(exc) and not started:
                log.error("storage full in request %s %s (request id %s): %s",
                          scope.get("method"), scope.get("path"), request_id, exc)  # fmt: skip
                await send_error(send_with_id, InsufficientStorage(), [])
                return
            log.exception(
                "unhandled error in request %s %s (request id %s)",
                scope.get("method"),
                scope.get("path"),
                request_id,
            )
            if started:
                raise
            error = InternalError(
                f"Internal error; quote request id {request_id} when reporting it"
            )
            await send_error(send_with_id, error, [])
        finally:
            REQUEST_ID.reset(token)


class AuthMiddleware:
    """Authenticates `/api/v1` requests, applies the per-key rate limit, counts usage.

    The principal lands in `scope["state"]["principal"]`; every authenticated response gets
    the RateLimit-* headers. Authentication comes before any validation of the request.
    """

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if (
            scope["type"] != "http"
            or not path.startswith(PROTECTED)
            or path.startswith(PUBLIC_PATHS)
        ):
            await self.app(scope, receive, send)
            return
        principal = await self._authenticate(_header(scope, b"authorization"))
        if principal is None:
            await send_error(
                send,
                Unauthorized(headers={"WWW-Authenticate": 'Bearer realm="maproom"'}),
                [],
            )
            return
        decision = await self.services.limiter.hit(principal.key_id)
        headers = rate_headers(decision)
        if not decision.allowed:
            error = RateLimited(
                f"More than {decision.limit} requests per minute; "
                f"retry in {decision.retry_after} s",
                headers={"Retry-After": str(decision.retry_after)},
            )
            await send_error(send, error, headers)
            return
        self.services.meter.record(principal)
        scope.setdefault("state", {})["principal"] = principal

        async def send_with_limits(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        await self.app(scope, receive, send_with_limits)

    async def _authenticate(self, header: str | None) -> Any:
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not looks_like_key(token):
            return None
        digest = hash_key(token)
        auth = self.services.authenticator
        return auth.cached(digest) or auth.lookup(token, digest)  # a read: inline


class PublicLimitMiddleware:
    """Rate limits the keyless pages and their data (`/live/*`, `/embed/*`, `/r/*`) per link
    and client address: `MAPROOM_PUBLIC_RATE_LIMIT_PER_MINUTE`, then 429 with `Retry-After`.
    The client address is the connection's (uvicorn puts a trusted proxy's
    `X-Forwarded-For` there)."""

    PREFIXES = ("live", "embed", "r", "basemap")

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.limiter = services.public_limiter

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        parts = scope.get("path", "").split("/", 3) if scope["type"] == "http" else []
        if len(parts) < 3 or parts[1] not in self.PREFIXES or not parts[2]:
            await self.app(scope, receive, send)
            return
        client = (scope.get("client") or ("?", 0))[0]
        decision = await self.limiter.hit(f"{parts[1]}:{parts[2]}:{client}")
        if not decision.allowed:
            error = RateLimited(
                f"More than {decision.limit} requests per minute to this link from your "
                f"address; retry in {decision.retry_after} s",
                headers={"Retry-After": str(decision.retry_after)},
            )
            await send_error(send, error, rate_headers(decision))
            return
        await self.app(scope, receive, send)


def rate_headers(decision: RateDecision) -> list[tuple[bytes, bytes]]:
    """The RateLimit-* headers of a decision."""
    return [
        (b"ratelimit-limit", str(decision.limit).encode()),
        (b"ratelimit-remaining", str(decision.remaining).encode()),
        (b"ratelimit-reset", str(decision.reset).encode()),
    ]


class BodyLimitMiddleware:
    """413 for a request body over its ceiling, before it is read whole: at once when
    `Content-Length` says so, else as soon as the bytes received pass it (chunked bodies).

    JSON and other bodies may be `MAPROOM_MAX_BODY_MB`; `multipart/form-data` (uploads) the
    upload ceiling plus room for the form's own parts, which the upload parser then checks
    exactly."""

    MULTIPART_ROOM = 1_048_576

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.settings = services.settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        kind = (_header(scope, b"content-type") or "").lower()
        multipart = kind.startswith("multipart/form-data")
        limit = (
            self.settings.upload_max_bytes + self.MULTIPART_ROOM
            if multipart
            else self.settings.max_body_bytes
        )
        error = PayloadTooLarge(
            f"The request body is over {limit // 1_048_576} MB"
            + ("" if multipart else " (MAPROOM_MAX_BODY_MB)")
        )
        declared = _header(scope, b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await send_error(send, error, [])
            return
        received = 0
        started = refused = False

        async def counted() -> Message:
            # Past the ceiling, the 413 goes out at once, and the application is told that
            # the client left (whatever it answers then is dropped).
            nonlocal received, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    refused = True
                    if not started:
                        await send_error(send, error, [])
                    return {"type": "http.disconnect"}
            return message

        async def tracked(message: Message) -> None:
            nonlocal started
            if refused:
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, tracked)
        except Exception:
            if not refused:
                raise


class IdempotencyMiddleware:
    """Replays the stored response of a POST retried with the same `Idempotency-Key`.

    The body is spooled (memory first, then a temporary file) so that it can be hashed before
    the application sees it; the application then reads it as usual.
    """

    SPOOL_IN_MEMORY = 1_048_576

    def __init__(self, app: ASGIApp, services: Services) -> None:
        self.app = app
        self.services = services

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        principal = scope.get("state", {}).get("principal")
        idem_key = _header(scope, b"idempotency-key") if scope["type"] == "http" else None
        if principal is None or scope.get("method") != "POST" or idem_key is None:
            await self.app(scope, receive, send)
            return
        if not 1 <= len(idem_key) <= 255 or not idem_key.isprintable():
            await send_error(
                send, BadRequest("Idempotency-Key must be 1 to 255 printable characters"), []
            )
            return
        spool = tempfile.SpooledTemporaryFile(max_size=self.SPOOL_IN_MEMORY)  # noqa: SIM115
        try:
            digest = await self._spool(scope, receive, spool)
            if digest is None:
                await send_error(send, PayloadTooLarge("Request body too large"), [])
                return
            await self._run(scope, receive, send, spool, principal.key_id, idem_key, digest)
        finally:
            spool.close()

    async def _spool(self, scope: Scope, receive: Receive, spool: Any) -> str | None:
        query = scope.get("query_string", b"").decode()
        hasher = hashlib.sha256(f"{scope['method']} {scope['path']}?{query}\n".encode())
        limit = self.services.settings.upload_max_bytes + self.SPOOL_IN_MEMORY
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                return None
            hasher.update(chunk)
            spool.write(chunk)
            if not message.get("more_body", False):
                break
        spool.seek(0)
        return hasher.hexdigest()

    async def _run(
        self,
        scope: Scope,
        receive: Receive,
        send: Send,
        spool: Any,
        key_id: str,
        idem_key: str,
        digest: str,
    ) -> None:
        db = self.services.db
        ids = {"key_id": key_id, "idem_key": idem_key}
        try:
            stored = await anyio.to_thread.run_sync(
                lambda: idempotency.begin(db, request_hash=digest, **ids)
            )
        except MaproomError as error:
            await send_error(send, error, [])
            return
        if stored is not None:
            headers = [(k.encode(), v.encode()) for k, v in stored.headers]
            headers += [
                (b"content-length", str(len(stored.body)).encode()),
                (b"idempotent-replayed", b"true"),
            ]
            await send({"type": "http.response.start", "status": stored.status, "headers": headers})
            await send({"type": "http.response.body", "body": stored.body})
            return

        drained = False

        async def replay_body() -> Message:
            nonlocal drained
            if drained:  # after the body, only a disconnect can come
                return await receive()
            chunk = spool.read(65536)
            drained = not chunk
            return {"type": "http.request", "body": chunk, "more_body": bool(chunk)}

        status = 500
        kept: list[tuple[str, str]] = []
        body = bytearray()
        settled = False

        async def settle() -> None:
            # Keep (or forget) the answer before its last byte leaves: a client that has read
            # the whole answer and retries at once must find the record complete.
            nonlocal settled
            settled = True
            if status >= 500:
                await anyio.to_thread.run_sync(lambda: idempotency.abandon(db, **ids))
                return
            response = idempotency.StoredResponse(status, kept, bytes(body))
            await anyio.to_thread.run_sync(
                lambda: idempotency.complete(db, response=response, **ids)
            )

        async def capture(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                kept.extend(
                    (k.decode(), v.decode())
                    for k, v in message.get("headers", [])
                    if k.lower() in KEPT_HEADERS
                )
            elif message["type"] == "http.response.body":
                body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    await settle()
            await send(message)

        try:
            await self.app(scope, replay_body, capture)
        except BaseException:
            if not settled:
                await anyio.to_thread.run_sync(lambda: idempotency.abandon(db, **ids))
            raise
        if not settled:  # the application ended without a last body message
            await anyio.to_thread.run_sync(lambda: idempotency.abandon(db, **ids))
