"""`maproom mcp`: the MCP server on stdio, for an assistant on the user's machine. It talks
to a maproom service over HTTP with the client settings (`MAPROOM_URL`, `MAPROOM_KEY`), and
adds `upload_file`, which reads the files of this machine."""

from __future__ import annotations

from typing import Any

import anyio
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server

from maproom.client import AsyncClient
from maproom.mcp import tools


def serve(url: str | None, key: str | None) -> None:
    """Serve until stdin closes."""
    server = tools.build(lambda: AsyncClient(url, key), local_files=True)
    anyio.run(_run, server)


async def _run(server: Server[Any, Any]) -> None:
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())
