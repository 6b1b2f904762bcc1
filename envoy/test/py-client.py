"""The official Python SDK client (`mcp` 2.x) in its default mode
(`mode="auto"`: protocol 2026-07-28 when the server speaks it) against URL;
prints one JSON line: the protocol it settled on, the listed tool names, the
text of a call to `echo` (and of `in_region`, whose `region` travels in the
`Mcp-Param-Region` header too), and the error of a call to `notes` (or null).

    python py-client.py URL [PREFIX]

PREFIX: the name prefix a guard puts before each tool (server_prefix):
the client calls `PREFIX + name`, and reports the listed names without it.
"""

import asyncio
import json
import sys

from mcp import Client
from mcp.shared.exceptions import MCPError


async def main(url: str, prefix: str) -> None:
    out = {}
    async with Client(url) as client:
        session = client.session
        out["discovered"] = session.discover_result is not None
        tools = await client.list_tools()
        out["listed"] = sorted(t.name for t in tools.tools)
        out["tools"] = sorted(t.name.removeprefix(prefix) for t in tools.tools)
        result = await client.call_tool(prefix + "echo", {"message": "hi"})
        out["echo"] = [c.text for c in result.content if c.type == "text"]
        if "in_region" in out["tools"]:
            result = await client.call_tool(prefix + "in_region", {"region": "eu-west1", "query": "q"})
            out["in_region"] = [c.text for c in result.content if c.type == "text"]
        try:
            await client.call_tool(prefix + "notes", {"sidenote": "x"})
            out["notes_error"] = None
        except MCPError as e:
            out["notes_error"] = {"code": e.error.code, "data": e.error.data}
    print(json.dumps(out))


asyncio.run(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else ""))
