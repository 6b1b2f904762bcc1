"""The official Python SDK client (`mcp` 2.x, protocol 2026-07-28) through
URL, for listen.test.mjs: lists, opens a `subscriptions/listen` stream for
tool list changes, calls `grow` (the server adds `extra` and publishes the
change), waits for the frame, lists again and calls `extra`. Prints one JSON
line: the tools before and after, whether the frame arrived, the result or
error of the call.

    python py-listen.py URL
"""

import asyncio
import json
import sys

import anyio
from mcp import Client
from mcp.shared.exceptions import MCPError


async def main(url: str) -> None:
    out: dict = {}
    async with Client(url) as client:
        out["protocol"] = client.protocol_version
        out["before"] = sorted(t.name for t in (await client.list_tools()).tools)
        out["frame"] = False
        with anyio.fail_after(20):
            async with client.listen(tools_list_changed=True) as sub:
                await client.call_tool("grow", {})
                async for _event in sub:
                    out["frame"] = True
                    break
        out["after"] = sorted(t.name for t in (await client.list_tools()).tools)
        try:
            result = await client.call_tool("extra", {"note": "hi"})
            out["extra"] = [c.text for c in result.content if c.type == "text"]
            out["extra_error"] = None
        except MCPError as e:
            out["extra"] = None
            out["extra_error"] = {"code": e.error.code, "data": e.error.data}
    print(json.dumps(out))


asyncio.run(main(sys.argv[1]))
