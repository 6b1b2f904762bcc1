"""The official `mcp` SDK's `ClientSession`, behind the firewall.

```python
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp_guard import Guard
from mcp_guard.mcp import guarded_session

guard = Guard({"core": {"tool_poisoning": {"mode": "block"}}})
async with stdio_client(StdioServerParameters(command="mcp-server-time")) as (read, write):
    async with guarded_session(read, write, guard, server="time") as session:
        tools = await session.list_tools()        # sanitized, pinned
        result = await session.call_tool("get_current_time", {"timezone": "UTC"})  # gated
```

What `GuardedSession` does, as `mcp-guard proxy` does for stdio clients:

- **`list_tools()`** fetches every page itself (following `nextCursor`,
  bounded), so one whole catalog is sanitized and pinned and no page is shown
  before the decision. The first listing of a session is pinned
  (`Guard.pin`); later ones are compared with the baseline (`Guard.compare`)
  and served (unchanged, or cut to the unchanged tools), or refused with
  `ListingRefused` (`kind` `drift`; or `session-invalidated`, which
  tombstones the session in the store). An unusable listing raises
  `GuardError`: it is never passed on raw.
- **`call_tool()`** asks the call gate (`Guard.check_call`) first: a refused
  call raises `CallRefused` and never reaches the server; an allowed one goes
  out under the upstream name with the arguments mapped back from the
  dialect. A call before any listing is refused (`unknown-tool`). Under
  discovery (`core.discovery.mode: "on"`) the gate answers `search_tools`
  and `get_tool_schema` itself (returned as a `CallToolResult`, nothing
  sent) and turns `call_tool` into a call of the inner tool.
- **`notifications/tools/list_changed`** (seen when the session was made by
  `guarded_session`, or when you route messages to `handle_message`) marks
  the listing stale: the next `call_tool` re-lists and compares first, so a
  drifted tool leaves the call gate even if the client never re-lists.
- **State** (the baseline, the tombstone) lives in a `SessionStore` under
  `session_key`: `MemoryStore` by default, `RedisStore` for several replicas
  that serve one MCP session.

Limit: the SDK has already parsed the server's JSON (and validated it into
pydantic models) when the wrapper sees the listing, so a duplicate key or a
tool field the SDK's `Tool` model does not know is resolved or dropped by the
SDK first. `mcp-guard proxy` sees the raw bytes; this wrapper sees what the
SDK would hand to the model.
"""

from __future__ import annotations

import uuid
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Optional

import anyio.to_thread
import mcp.types as types
from mcp import ClientSession

from .errors import CallRefused, GuardError, ListingRefused
from .guard import Compared, Guard, Pinned
from .store import MemoryStore, SessionStore, Tombstone

MessageHandler = Callable[[Any], Awaitable[None]]


class GuardedSession:
    """A `ClientSession` whose `list_tools` and `call_tool` go through a `Guard`.

    - `session`: an initialized (or about to be) `mcp.ClientSession`.
    - `guard`: the policy to apply.
    - `store`: where the session's baseline and tombstone live (default: a
      new `MemoryStore`).
    - `session_key`: the key in the store (default: a random UUID, i.e. a
      session of its own). Replicas that serve the same MCP session share it.
    - `server`: the server id for the policy's `servers[]` overrides and prefix.
    - `foreign_names`: other servers' tool names the client also sees.
    - `session_ttl`, `tombstone_ttl`: seconds (default 1 hour each).
    - `max_pages`: the most `tools/list` pages one listing may take.

    Every other attribute is the wrapped session's (`initialize`,
    `list_resources`, ...).
    """

    def __init__(
        self,
        session: ClientSession,
        guard: Guard,
        *,
        store: Optional[SessionStore] = None,
        session_key: Optional[str] = None,
        server: Optional[str] = None,
        foreign_names: Iterable[str] = (),
        session_ttl: float = 3600.0,
        tombstone_ttl: float = 3600.0,
        max_pages: int = 1000,
    ) -> None:
        self.session = session
        self.guard = guard
        self.store: SessionStore = store if store is not None else MemoryStore()
        self.session_key = session_key or str(uuid.uuid4())
        self.server = server
        self.foreign_names = list(foreign_names)
        self.session_ttl = session_ttl
        self.tombstone_ttl = tombstone_ttl
        self.max_pages = max_pages
        self._stale = False
        #: The last listing's engine result (`Pinned` or `Compared`), for audit and logs.
        self.last_listing: Optional[Any] = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    @property
    def listing_stale(self) -> bool:
        """A `tools/list_changed` arrived since the last listing."""
        return self._stale

    # -- notifications -----------------------------------------------------------

    async def handle_message(self, message: Any) -> None:
        """Feed the session's incoming messages here (`guarded_session` does)."""
        if isinstance(message, types.ToolListChangedNotification):
            self._stale = True

    # -- tools/list ------------------------------------------------------------------

    async def _fetch_catalog(self) -> dict[str, Any]:
        tools: list[Any] = []
        cursor: Optional[str] = None
        seen: set[str] = set()
        for _ in range(self.max_pages):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            page = await self.session.list_tools(params=params)
            tools.extend(t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return {"tools": tools}
            if cursor in seen:
                raise GuardError("cursor-loop", cursor, f"cursor-loop: the server repeated cursor {cursor!r}")
            seen.add(cursor)
        raise GuardError("too-many-pages", self.max_pages, f"too-many-pages: more than {self.max_pages} tools/list pages")

    async def list_tools(self, *, params: Optional[types.PaginatedRequestParams] = None) -> types.ListToolsResult:
        """The server's whole tool catalog, sanitized and pinned (see the module doc).

        Raises `ListingRefused` (drift under `block`; the session invalidated),
        `GuardError` (an unusable listing), `ValueError` for a `cursor`
        (the wrapper serves the whole catalog in one answer)."""
        if params is not None and params.cursor is not None:
            raise ValueError("GuardedSession.list_tools serves the whole catalog: no cursor")
        entry = await self.store.get(self.session_key)
        if isinstance(entry, Tombstone):
            raise ListingRefused("session-invalidated", entry.reason, f"session-invalidated: {entry.reason}")
        catalog = await self._fetch_catalog()
        g, server, foreign = self.guard, self.server, self.foreign_names
        if entry is None:
            pinned: Pinned = await anyio.to_thread.run_sync(lambda: g.pin(catalog, server, foreign))
            self.last_listing = pinned
            await self.store.put_baseline(self.session_key, pinned["baseline"], self.session_ttl)
            served = pinned["outcome"]["catalog"]
        else:
            base = entry.baseline
            compared: Compared = await anyio.to_thread.run_sync(lambda: g.compare(base, catalog, server, foreign))
            self.last_listing = compared
            decision = compared["decision"]
            if decision["action"] == "refuse":
                self._stale = False
                if decision["invalidate"]:
                    await self.store.tombstone(self.session_key, decision["message"], self.tombstone_ttl)
                    raise ListingRefused("session-invalidated", decision["message"], f"session-invalidated: {decision['message']}")
                await self.store.put_baseline(self.session_key, compared["baseline"], self.session_ttl)
                raise ListingRefused("drift", decision["message"], f"drift: {decision['message']}")
            await self.store.put_baseline(self.session_key, compared["baseline"], self.session_ttl)
            served = decision["catalog"]
        self._stale = False
        return types.ListToolsResult.model_validate(served)

    # -- tools/call --------------------------------------------------------------------

    async def call_tool(self, name: str, arguments: Optional[dict[str, Any]] = None, **kwargs: Any) -> Any:
        """Calls a tool the client was shown, through the call gate.

        Raises `CallRefused` (the call never reaches the server); returns the
        engine's `CallToolResult` for a discovery meta-tool (`search_tools`,
        `get_tool_schema`; nothing sent); otherwise the server's result,
        called under the upstream name (for `call_tool`, the inner tool's)
        with the arguments mapped back. `kwargs` go to `ClientSession.call_tool`."""
        if self._stale:
            try:
                await self.list_tools()
            except ListingRefused as e:
                if e.kind == "session-invalidated":
                    raise CallRefused("session-invalidated", str(e.detail)) from None
                # `drift` under block/error: the baseline now revokes the drifted tools.
        entry = await self.store.get(self.session_key)
        if isinstance(entry, Tombstone):
            raise CallRefused("session-invalidated", entry.reason)
        if entry is None:
            raise CallRefused("unknown-tool", f"no tools were listed to this session, so {name!r} is not callable")
        decision = self.guard.check_call(entry.baseline, name, arguments)
        if decision["action"] == "refuse":
            raise CallRefused(decision["reason"], decision["message"], decision["violations"])
        if decision["action"] == "respond":
            # A discovery meta-tool (search_tools, get_tool_schema) answered
            # from the session's baseline: nothing goes to the server.
            return types.CallToolResult.model_validate(decision["result"])
        if decision["action"] != "allow":  # a decision this version cannot carry out: fail closed
            raise CallRefused("other", f"call decision {decision['action']!r} is not supported by this package version")
        return await self.session.call_tool(decision["upstream"], decision["arguments"], **kwargs)


@asynccontextmanager
async def guarded_session(
    read_stream: Any,
    write_stream: Any,
    guard: Guard,
    *,
    message_handler: Optional[MessageHandler] = None,
    initialize: bool = True,
    store: Optional[SessionStore] = None,
    session_key: Optional[str] = None,
    server: Optional[str] = None,
    foreign_names: Iterable[str] = (),
    session_ttl: float = 3600.0,
    tombstone_ttl: float = 3600.0,
    **client_session_kwargs: Any,
) -> AsyncIterator[GuardedSession]:
    """A `ClientSession` over a transport's streams, wrapped in a `GuardedSession`
    that also sees the session's notifications (`list_changed`); your
    `message_handler`, if any, still gets every message. Initializes the
    session unless `initialize=False`."""
    holder: list[GuardedSession] = []

    async def on_message(message: Any) -> None:
        if holder:
            await holder[0].handle_message(message)
        if message_handler is not None:
            await message_handler(message)

    async with ClientSession(read_stream, write_stream, message_handler=on_message, **client_session_kwargs) as session:
        gs = GuardedSession(
            session,
            guard,
            store=store,
            session_key=session_key,
            server=server,
            foreign_names=foreign_names,
            session_ttl=session_ttl,
            tombstone_ttl=tombstone_ttl,
        )
        holder.append(gs)
        if initialize:
            await session.initialize()
        yield gs
