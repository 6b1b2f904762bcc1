"""mcp-guard: a firewall for MCP tool metadata, on the engine's WebAssembly component.

```python
from mcp_guard import Guard

guard = Guard({"core": {"tool_poisoning": {"mode": "block"}}})
out = guard.sanitize(tools_list_result, server="docs")
out["catalog"]   # the sanitized tools/list result
out["findings"]  # every change, with a JSON pointer into the input
```

`mcp_guard.mcp.GuardedSession` wraps an `mcp.ClientSession` (sanitize and
pin `list_tools()`, gate `call_tool()`); `mcp_guard.store` holds the session
stores (memory, Redis).
"""

from .errors import CallRefused, EngineTrap, GuardError, ListingRefused
from .guard import (
    CallDecision,
    Compared,
    Decision,
    Finding,
    Guard,
    HiddenTool,
    Normalized,
    Outcome,
    Pinned,
    SearchHit,
    ToolReport,
    engine_version,
)

__version__ = "0.1.0"

__all__ = [
    "CallDecision",
    "CallRefused",
    "Compared",
    "Decision",
    "EngineTrap",
    "Finding",
    "Guard",
    "GuardError",
    "HiddenTool",
    "ListingRefused",
    "Normalized",
    "Outcome",
    "Pinned",
    "SearchHit",
    "ToolReport",
    "engine_version",
]
