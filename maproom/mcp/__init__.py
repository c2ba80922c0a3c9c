"""The Model Context Protocol server: on the service at `/mcp` (`maproom.mcp.http`) and on
stdio as `maproom mcp` (`maproom.mcp.stdio`), one set of tools (`maproom.mcp.tools`)."""
