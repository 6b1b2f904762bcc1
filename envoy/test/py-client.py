"""The official Python SDK client (`mcp` 2.x) in its default mode
(`mode="auto"`: protocol 2026-07-28 when the server speaks it) against URL;
prints one JSON line: the protocol it settled on, the listed tool names, the
text of a call to `echo` (or the error of that call, `echo_error`; and the
text of `in_region`, whose `region` travels in the `Mcp-Param-Region`
header too), and the error of a call to `notes` (or null).

    python py-client.py URL [PREFIX [PRINCIPAL]]

PREFIX: the name prefix a guard puts before each tool (server_prefix):
the client calls `PREFIX + name`, and reports the listed names without it.
PRINCIPAL: sent as `x-principal` on every request (what an authn filter in
front of the guard would set; pins.test.mjs keys records by it).
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError


def error_of(e: MCPError) -> dict:
    return {"code": e.error.code, "data": e.error.data}


async def main(url: str, prefix: str, principal: str) -> None:
    out = {}
    server = url
    if principal:
        http = create_mcp_http_client(headers={"x-principal": principal})
        server = streamable_http_client(url, http_client=http)
    async with Client(server) as client:
        session = client.session
        out["discovered"] = session.discover_result is not None
        tools = await client.list_tools()
        out["listed"] = sorted(t.name for t in tools.tools)
        out["tools"] = sorted(t.name.removeprefix(prefix) for t in tools.tools)
        try:
            result = await client.call_tool(prefix + "echo", {"message": "hi"})
            out["echo"] = [c.text for c in result.content if c.type == "text"]
            out["echo_error"] = None
        except MCPError as e:
            out["echo"] = None
            out["echo_error"] = error_of(e)
        if "in_region" in out["tools"]:
            result = await client.call_tool(prefix + "in_region", {"region": "eu-west1", "query": "q"})
            out["in_region"] = [c.text for c in result.content if c.type == "text"]
        try:
            await client.call_tool(prefix + "notes", {"sidenote": "x"})
            out["notes_error"] = None
        except MCPError as e:
            out["notes_error"] = error_of(e)
    print(json.dumps(out))


arg = lambda i: sys.argv[i] if len(sys.argv) > i else ""
asyncio.run(main(arg(1), arg(2), arg(3)))
