"""`/mcp` on the service: MCP's streamable HTTP transport, stateless and answering in JSON, so
any worker can answer any request and nothing is kept between them.

`AuthMiddleware` guards the path like `/api/v1` (401 in the envelope without a valid key; the
key's rate limit). Each tool call then runs the REST operations it stands for against this
same application, in process (`httpx.ASGITransport`), with the caller's own key: the scopes,
the validation and the answers are exactly those of the REST API.
"""

from __future__ import annotations

from typing import Any

import anyio
import httpx
from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

from maproom.client import AsyncClient

PATH = "/mcp"


class McpEndpoint:
    """The ASGI endpoint of `/mcp` for the application `app`. The MCP SDK is loaded and its
    transport started on the first request to `/mcp`, not with the service: a server nobody
    asks over MCP does not hold it (docs/performance.md, a fast start)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.server: Any = None
        self.manager: Any = None
        self._asked = anyio.Event()
        self._ready = anyio.Event()

    def _start(self) -> None:
        from mcp.server.streamable_http_manager import StreamableHTTPSessionManager

        from maproom.mcp import tools

        self.server = tools.build(self._client, local_files=False)
        self.manager = StreamableHTTPSessionManager(self.server, json_response=True, stateless=True)

    def _client(self) -> AsyncClient:
        request = self.server.request_context.request
        assert isinstance(request, Request)  # the HTTP transport hands its request over
        _, _, key = (request.headers.get("authorization") or "").partition(" ")
        # The outer request's origin, so that returned links (live views, reports) point
        # where the caller reached the service.
        base = str(request.base_url).rstrip("/")
        return AsyncClient(base, key.strip(), transport=httpx.ASGITransport(app=self._marked))

    async def _marked(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The application, for calls a tool makes: their changes are the history's `mcp`."""
        scope.setdefault("state", {})["via"] = "mcp"
        await self.app(scope, receive, send)

    async def run(self) -> None:
        """Runs while the application does (a task of its lifespan): once `/mcp` is first
        asked, starts the transport (its task group) and keeps it until the service stops."""
        await self._asked.wait()
        self._start()
        async with self.manager.run():
            self._ready.set()
            await anyio.sleep_forever()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self._asked.set()
        await self._ready.wait()
        await self.manager.handle_request(scope, receive, send)
