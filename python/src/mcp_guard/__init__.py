"""mcp-guard: a firewall for MCP tool metadata, on the engine's WebAssembly component.

```python
from mcp_guard import Guard

guard = Guard({"core": {"tool_poisoning": {"mode": "block"}}})
out = guard.sanitize(tools_list_result, server="docs")
out["catalog"]   # the sanitized tools/list result
out["findings"]  # every change, with a JSON pointer into the input
```

`Guard.mediator()` is the engine's MCP mediation core for one conversation;
`mcp_guard.mcp.GuardedSession` puts it between an `mcp.ClientSession` and its
transport (listings sanitized and pinned, calls gated); `mcp_guard.store` holds the session
stores (memory, Redis); `mcp_guard.pins` keeps pins across runs (`Pins`) and has the calls of
`mcp-guard pins` (list, show, approve, forget).
"""

from .errors import CallRefused, EngineTrap, GuardError, ListingRefused
from .guard import (
    CallDecision,
    Compared,
    Decision,
    Finding,
    Guard,
    HiddenTool,
    Mediator,
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
    "Mediator",
    "Normalized",
    "Outcome",
    "Pinned",
    "SearchHit",
    "ToolReport",
    "engine_version",
]
