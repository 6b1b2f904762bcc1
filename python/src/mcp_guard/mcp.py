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
- **The wrapped `ClientSession` is guarded too**: its `list_tools` and
  `call_tool` become the guarded ones (so `mcp.Client`'s `list_tools` /
  `call_tool` over `client.session`, and the SDK's own re-list when it
  validates a tool result, go through the guard), and its `send_request`
  refuses any other `tools/list` or `tools/call` (`GuardError`
  `unguarded-request`; nothing is sent). The SDK's per-tool caches (output
  schemas, `x-mcp-header` maps) are filled from the served listing, under
  the upstream names, not from the server's raw one.
- **Response ids**: the SDK matches them itself (its dispatcher keys pending
  requests by `int(id)` for a string id, so `"1"`, `" 1 "`, `"+1"` answer
  request 1; `1.0` is not a valid id there and the request waits for its
  timeout; a second answer for an id is dropped). The wrapper matches no ids:
  whichever answer the SDK takes for a `tools/list` is judged by the engine
  before the caller sees it, and only gated `tools/call` requests are sent.

Limit: the SDK has already parsed the server's JSON (and validated it into
pydantic models) when the wrapper sees the listing, so a duplicate key or a
tool field the SDK's `Tool` model does not know is resolved or dropped by the
SDK first. `mcp-guard proxy` sees the raw bytes; this wrapper sees what the
SDK would hand to the model.
"""

from __future__ import annotations

import uuid
from contextlib import asynccontextmanager
from contextvars import ContextVar
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Optional

import anyio.to_thread
import mcp.types as types
from mcp import ClientSession
from pydantic import TypeAdapter

from .errors import CallRefused, GuardError, ListingRefused
from .guard import Compared, Guard, Pinned
from .store import MemoryStore, SessionStore, Tombstone

MessageHandler = Callable[[Any], Awaitable[None]]

_GUARDED_METHODS = ("tools/list", "tools/call")
# The one guarded request the wrapper is about to send, per task: set around
# the SDK call that sends it, consumed by the first matching send_request.
_APPROVAL: ContextVar[Optional[dict[str, Any]]] = ContextVar("mcp_guard_approval", default=None)
# tools/list pages as the server sent them (after the SDK's own check of the
# negotiated version's result schema): a Tool model would drop fields the
# engine must see, and the result fields (resultType, ttlMs, cacheScope,
# _meta) are served as they came.
_RAW_RESULT: TypeAdapter[dict[str, Any]] = TypeAdapter(dict[str, Any])
_WRAPPED = "_mcp_guard_wrapped"


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
        self._guard_session_itself(session)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    # -- the wrapped session's own paths -----------------------------------------------

    def _guard_session_itself(self, session: ClientSession) -> None:
        """Fail closed around the wrapper: the session's `list_tools` and
        `call_tool` (which `mcp.Client` and the SDK itself call) become the
        guarded ones, and its `send_request` refuses every other `tools/list`
        and `tools/call`. Instance attributes, so the SDK's internal
        `self.list_tools()` / `self.send_request(...)` find them."""
        if getattr(session, _WRAPPED, False):
            raise TypeError("this ClientSession is already wrapped by a GuardedSession")
        setattr(session, _WRAPPED, True)
        self._sdk_call_tool = session.call_tool
        self._sdk_send_request = session.send_request

        async def list_tools(*, params: Optional[types.PaginatedRequestParams] = None) -> types.ListToolsResult:
            return await self.list_tools(params=params)

        session.list_tools = list_tools  # type: ignore[method-assign]
        session.call_tool = self.call_tool  # type: ignore[method-assign]
        session.send_request = self._send_request  # type: ignore[method-assign]

    async def _send_request(self, request: Any, *args: Any, **kwargs: Any) -> Any:
        method = getattr(request, "method", None)
        if method in _GUARDED_METHODS:
            approval = _APPROVAL.get()
            if approval is None or approval.get("owner") is not self or approval.get("method") != method:
                raise GuardError(
                    "unguarded-request",
                    method,
                    f"unguarded-request: a {method} request that did not go through the GuardedSession was not sent",
                )
            approval["method"] = None  # one request per approval
        return await self._sdk_send_request(request, *args, **kwargs)

    async def _approved(self, method: str, send: Callable[[], Awaitable[Any]]) -> Any:
        token = _APPROVAL.set({"owner": self, "method": method})
        try:
            return await send()
        finally:
            _APPROVAL.reset(token)

    def _absorb(self, served: dict[str, Any], name_map: list[Any]) -> None:
        """Hands the served tools, under their upstream names (the names
        `tools/call` sends), to the SDK's per-tool caches: it validates
        structured results against these output schemas and mirrors
        `x-mcp-header` arguments from these input schemas, so they must be the
        ones the engine served, not the server's. (A private SDK method; if a
        later SDK lacks it, the SDK re-lists through `list_tools`, which is
        guarded.)"""
        absorb = getattr(self.session, "_absorb_tool_listing", None)
        if absorb is None:
            return
        upstream = {m["visible"]: m["upstream"] for m in name_map}
        tools = [{**t, "name": upstream.get(t["name"], t["name"])} for t in served["tools"]]
        absorb(types.ListToolsResult.model_validate({"tools": tools}), complete=True)

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
        first: Optional[dict[str, Any]] = None
        cursor: Optional[str] = None
        seen: set[str] = set()
        for _ in range(self.max_pages):
            params = types.PaginatedRequestParams(cursor=cursor) if cursor is not None else None
            request = types.ListToolsRequest(params=params)
            page = await self._approved("tools/list", lambda: self.session.send_request(request, _RAW_RESULT))
            if not isinstance(page.get("tools"), list):
                # Let the engine refuse it with its own error kind.
                if first is None:
                    return page
                raise GuardError("invalid-envelope", "page", "invalid-envelope: a later tools/list page has no tools array")
            if first is None:
                # The result's own fields (resultType, ttlMs, cacheScope,
                # _meta) are the first page's; the engine checks and keeps them.
                first = {k: v for k, v in page.items() if k not in ("tools", "nextCursor")}
            tools.extend(page["tools"])
            cursor = page.get("nextCursor")
            if not isinstance(cursor, str):
                return {**first, "tools": tools}
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
            name_map = pinned["outcome"]["name_map"]
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
            name_map = compared["outcome"]["name_map"]
        self._stale = False
        result = types.ListToolsResult.model_validate(served)
        self._absorb(served, name_map)
        return result

    # -- tools/call --------------------------------------------------------------------

    async def call_tool(self, name: str, arguments: Optional[dict[str, Any]] = None, *args: Any, **kwargs: Any) -> Any:
        """Calls a tool the client was shown, through the call gate.

        Raises `CallRefused` (the call never reaches the server); returns the
        engine's `CallToolResult` for a discovery meta-tool (`search_tools`,
        `get_tool_schema`; nothing sent); otherwise the server's result,
        called under the upstream name (for `call_tool`, the inner tool's)
        with the arguments mapped back. `args`/`kwargs` go to
        `ClientSession.call_tool` (`read_timeout_seconds`, `input_responses`,
        `allow_input_required`, ...: an `input_required` round is another
        call, gated again)."""
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
        upstream, forwarded = decision["upstream"], decision["arguments"]
        return await self._approved("tools/call", lambda: self._sdk_call_tool(upstream, forwarded, *args, **kwargs))


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
