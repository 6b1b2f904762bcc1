"""An MCP server of the official Python SDK 2.x (`MCPServer`) over stdio, for
test_python_sdk.py: two plain tools, one that reports progress, and one that
tells what the server saw of the request (its id and protocol version);
`region` marks its argument `x-mcp-header` (over Streamable HTTP a
2026-07-28 call needs it as a header too);
`grow` adds a tool and announces the change to `subscriptions/listen`
streams (2026-07-28)."""

import os
from typing import Annotated

from pydantic import Field

from mcp.server import MCPServer
from mcp.server.mcpserver import Context

server = MCPServer("py2-server")


@server.tool()
def add(a: int, b: int) -> int:
    """Adds two integers."""
    return a + b


# ECHO_DESCRIPTION: how a test changes the tool between two runs (the
# environment, not an argument: the proxy's key is its command line).
@server.tool(description=os.environ.get("ECHO_DESCRIPTION", "Echoes the message back."))
def echo(message: str) -> str:
    return f"Echo: {message}"


@server.tool()
async def slow(steps: int, ctx: Context) -> str:
    """Counts to steps, reporting progress at each step."""
    for i in range(1, steps + 1):
        await ctx.report_progress(i, steps)
    return f"counted to {steps}"


@server.tool()
def whoami(ctx: Context) -> dict[str, str | None]:
    """The request id and protocol version the server saw."""
    return {"request_id": str(ctx.request_id), "protocol_version": ctx.protocol_version}


@server.tool()
def region(zone: Annotated[str, Field(json_schema_extra={"x-mcp-header": "Zone"})]) -> str:
    """Names the zone; over Streamable HTTP (2026-07-28) the zone also
    travels as the `Mcp-Param-Zone` header, which the server checks."""
    return f"zone {zone}"


def extra(note: str) -> str:
    """A tool added at run time by grow."""
    return note


@server.tool()
async def grow(ctx: Context) -> str:
    """Adds the tool `extra` and publishes a tools list change."""
    server.add_tool(extra)
    await ctx.notify_tools_changed()
    return "grown"


if __name__ == "__main__":
    server.run("stdio")
