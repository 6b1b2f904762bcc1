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

`GuardedSession` puts the engine's mediation core (`Guard.mediator`, the
same decisions as `mcp-guard proxy`) between the session and its transport:
every message the session writes goes through `Mediator.on_client_message`
before the write stream, and every message the transport delivers goes
through `on_server_message` before the session's dispatcher sees it. What
they return goes to the server, to the session, and to the log. This module
only moves messages and turns the mediator's refusals into exceptions:

- **`list_tools()`**: the mediator fetches every page itself, pins the first
  listing and compares later ones: served (unchanged, or cut to the
  unchanged tools), or refused (`ListingRefused`, `kind` `drift`; or
  `session-invalidated`, which tombstones the session in the store). An
  unusable listing raises `GuardError` (the engine's kind, `cursor-loop`,
  `too-many-pages`, `invalid-json`, ...): it is never passed on raw.
- **`call_tool()`**: the mediator's call gate decides; a refused call raises
  `CallRefused` and never reaches the server; an allowed one goes out under
  the upstream name with the arguments mapped back from the dialect. Under
  discovery the engine answers `search_tools` / `get_tool_schema` itself.
- **List changes** (`notifications/tools/list_changed`, or a
  `subscriptions/listen` frame in 2026-07-28): the mediator re-lists and
  compares at once, so a drifted tool leaves the gate even if the client
  never re-lists. A listing or a call waits for that re-list to finish.
- **Every path of the session is mediated**: its own `list_tools`/`call_tool`
  are the wrapper's (so `mcp.Client`'s are too), and a raw `send_request`
  goes through the mediator like any other message (a raw `tools/list` gets
  the sanitized catalog, a raw `tools/call` is gated: `MCPError` whose
  `data.reason` is the refusal).
- **Response ids**: the server only ever sees ids the mediator minted
  (`"mcp-guard-<uuid>-<n>"`, strings that read as no number), so the SDK's
  loose matching (`int(id)` for a string id) never meets a server's id.
- **State** (the baseline, the tombstone) lives in a `SessionStore` under
  `session_key`: saved after each listing, loaded into the mediator before
  each listing and call, so replicas sharing a `RedisStore` share pins and
  tombstones, and a stored baseline outlives a connection.
- **Pins across runs** (`pins=Pins(store, server, principal)`): the mediator
  keeps the pin record of the server the host names (never what the server
  reports), loaded from the store when the session is made and written back
  on each `persist` the mediator returns. The first listing of every run is
  compared with the approved pins; what changed or is new is held back
  (the pinning mode defaults to `quarantine`) until a person approves it
  (`mcp_guard.pins`, the same calls as `mcp-guard pins`). The session store
  is then not used.

The hook is on the session's dispatcher (`JSONRPCDispatcher`: its write
stream and its per-message `_dispatch`), so an already running session can
be wrapped too; a session without one (another dispatcher, a future SDK) is
refused with `TypeError` rather than left unguarded.
"""

from __future__ import annotations

import json
import uuid
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Awaitable, Callable, Iterable, Optional

import anyio
import mcp.types as types
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp.shared.inbound import MCP_METHOD_HEADER, MCP_NAME_HEADER, MCP_PROTOCOL_VERSION_HEADER, NAME_BEARING_METHODS, encode_header_value
from mcp.shared.message import ClientMessageMetadata, SessionMessage

from .errors import CallRefused, GuardError, ListingRefused, check_unicode
from .guard import Guard, Mediator
from .pins import Pins, record_id, record_key, record_policy
from .store import MemoryStore, SessionStore, Tombstone

MessageHandler = Callable[[Any], Awaitable[None]]

_WRAPPED = "_mcp_guard_wrapped"
# JSON-RPC codes of the mediator's refusals (src/jsonrpc.rs `code`).
_PARSE_ERROR = -32700
_INVALID_PARAMS = -32602
_REFUSED = -32001
# How long a listing or a call waits for the mediator's own re-list (then
# it goes on, and is judged on its own).
_RELIST_WAIT = 60.0


def _wire(message: Any) -> str:
    """A message as the transport would write it. A str with a lone
    surrogate has no UTF-8 form: written as a `\\udXXX` escape, which the
    mediator's strict parser refuses like any unreadable text."""
    try:
        text = message.model_dump_json(by_alias=True, exclude_unset=True)
        text.encode("utf-8")
        return text
    except (UnicodeEncodeError, ValueError):
        data = message.model_dump(by_alias=True, exclude_unset=True, mode="python")
        return json.dumps(data, ensure_ascii=True, separators=(",", ":"), default=str)


def _message(text: str) -> Any:
    return types.jsonrpc_message_adapter.validate_json(text, by_name=False)


def upstream_metadata(text: str, base: Any, last_headers: Optional[dict[str, str]]) -> Any:
    """The transport metadata for a message the mediator sends upstream.

    The session stamps HTTP routing headers (2026-07-28 Streamable HTTP:
    `Mcp-Method`, `Mcp-Name`, `MCP-Protocol-Version`) from the message *it*
    wrote; the mediator may send another one (a tool's upstream name for its
    visible one; its own page and re-list requests, which have no metadata).
    A server refuses a request whose `Mcp-Name` and body disagree, so the
    routing headers are re-read from what is sent: the client's headers
    (else, for the mediator's own requests, the latest client request's
    protocol version) with `Mcp-Method` and `Mcp-Name` of this message."""
    headers = getattr(base, "headers", None)
    msg = json.loads(text)
    method = msg.get("method") if isinstance(msg, dict) else None
    if headers is not None:
        headers = dict(headers)
    elif base is None and method is not None and last_headers is not None and MCP_PROTOCOL_VERSION_HEADER in last_headers:
        headers = {MCP_PROTOCOL_VERSION_HEADER: last_headers[MCP_PROTOCOL_VERSION_HEADER]}
    if headers is None or method is None:
        return base
    headers[MCP_METHOD_HEADER] = method
    key = NAME_BEARING_METHODS.get(method)
    name = (msg.get("params") or {}).get(key) if key is not None else None
    if isinstance(name, str):
        headers[MCP_NAME_HEADER] = encode_header_value(name)
    else:
        headers.pop(MCP_NAME_HEADER, None)
    if isinstance(base, ClientMessageMetadata):
        return ClientMessageMetadata(
            resumption_token=base.resumption_token,
            on_resumption_token_update=base.on_resumption_token_update,
            headers=headers,
        )
    return ClientMessageMetadata(headers=headers)


def _refusal(e: BaseException) -> Optional[tuple[int, Any, str, Any]]:
    """`(code, reason, message, data)` of a mediator refusal, else None (the server's own error)."""
    if not isinstance(e, MCPError):
        return None
    message = e.error.message
    # Every error the mediator writes says so; a server's error passes as it is.
    if not message.startswith("mcp-guard"):
        return None
    data = e.error.data if isinstance(e.error.data, dict) else {}
    return (e.error.code, data.get("reason"), message, data)


def _finding(f: dict[str, Any]) -> dict[str, Any]:
    return {k: f.get(k) for k in ("kind", "severity", "tool", "tool_index", "pointer", "action", "detail")}


class GuardedSession:
    """A `ClientSession` whose every message goes through the engine's mediator.

    - `session`: an `mcp.ClientSession` (initialized or about to be).
    - `guard`: the policy to apply.
    - `store`: where the session's baseline and tombstone live (default: a
      new `MemoryStore`).
    - `session_key`: the key in the store (default: a random UUID, i.e. a
      session of its own). Replicas that serve the same MCP session share it;
      a later connection under the same key compares with its baseline.
    - `server`: the server id for the policy's `servers[]` overrides and prefix.
    - `foreign_names`: other servers' tool names the client also sees.
    - `session_ttl`, `tombstone_ttl`: seconds (default 1 hour each).
    - `max_pages`: accepted for compatibility; the mediator's bound
      (1000 pages) applies.
    - `on_event`: called with each of the mediator's log lines (a dict with
      `event`, plus `session_key`).
    - `pins`: pins across runs (`Pins(store, server, principal)`), with
      `stored_record`, the record text the store holds for it (None: none
      yet); `guarded_session` loads it. The policy's pinning mode defaults to
      `quarantine`; `store` and the TTLs are then unused.

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
        on_event: Optional[Callable[[dict[str, Any]], None]] = None,
        pins: Optional[Pins] = None,
        stored_record: Optional[str] = None,
    ) -> None:
        self.session = session
        #: `(store, key, id)` of this session's pin record, or None (per-session pins).
        self.pins: Optional[tuple[Any, str, str]] = None
        if pins is not None:
            for f in ("get_record", "put_record", "delete_record", "list_records"):
                if not callable(getattr(pins.store, f, None)):
                    raise TypeError(f"Pins.store needs {f}() (MemoryStore, RedisStore)")
            key = record_key(pins.server if pins.server is not None else server, pins.principal)
            self.pins = (pins.store, key, record_id(key))
            policy = record_policy(guard.policy_json)
            if policy != guard.policy_json:
                guard = Guard(policy)
        elif stored_record is not None:
            raise ValueError("stored_record needs pins")
        self.guard = guard
        self.store: SessionStore = store if store is not None else MemoryStore()
        self.session_key = session_key or str(uuid.uuid4())
        self.server = server
        self.foreign_names = list(foreign_names)
        self.session_ttl = session_ttl
        self.tombstone_ttl = tombstone_ttl
        self.max_pages = max_pages
        self.on_event = on_event
        #: The last listing (the wrapper's or the mediator's own re-list), for
        #: audit: `{"baseline": "pinned" | "compared", "outcome": {"findings",
        #: "hidden", "catalog"}, "drift": [{"kind", "name"}], "decision",
        #: "log"}`.
        self.last_listing: Optional[dict[str, Any]] = None
        self._stale = False
        self._known: Optional[str] = None  # the baseline text the mediator holds, as far as the store knows
        self._closed_by: Optional[dict[str, Any]] = None
        self._saves: list[Callable[[], Awaitable[None]]] = []
        self._last_headers: Optional[dict[str, str]] = None  # the latest client request's HTTP routing headers
        self._relist_done: Optional[anyio.Event] = None  # set while a listing or a call waits for the re-list
        record = None if self.pins is None else (self.pins[1], stored_record)
        self.mediator: Mediator = guard.mediator(server, self.foreign_names, record=record)
        self._hook(session)

    @classmethod
    async def create(cls, session: ClientSession, guard: Guard, *, pins: Optional[Pins] = None, **kwargs: Any) -> "GuardedSession":
        """A `GuardedSession` whose pin record (with `pins`) is loaded from
        `pins.store` first: the way to wrap a running session (`mcp.Client`'s
        `client.session`) with pins across runs. Raises `GuardError`
        `invalid-baseline` for a record that does not read."""
        stored = await _load_record(pins, kwargs.get("server"))
        return cls(session, guard, pins=pins, stored_record=stored, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.session, name)

    # -- the guarded transport ---------------------------------------------------------

    def _hook(self, session: ClientSession) -> None:
        if getattr(session, _WRAPPED, False):
            raise TypeError("this ClientSession is already wrapped by a GuardedSession")
        d = getattr(session, "_dispatcher", None)
        if d is None or not hasattr(d, "_write_stream") or not callable(getattr(d, "_dispatch", None)):
            # Fail closed: a session this module cannot mediate is not wrapped.
            raise TypeError("GuardedSession needs a ClientSession over a JSONRPCDispatcher (mcp 2.x streams)")
        setattr(session, _WRAPPED, True)
        self._sdk_list_tools = session.list_tools
        self._sdk_call_tool = session.call_tool
        session.list_tools = self.list_tools  # type: ignore[method-assign]
        session.call_tool = self.call_tool  # type: ignore[method-assign]

        real_write = d._write_stream
        orig_dispatch = d._dispatch
        handlers: dict[str, Any] = {"on_request": None, "on_notify": None}
        guarded = self

        async def to_client(text: str, metadata: Any, ctx: Any) -> None:
            await orig_dispatch(SessionMessage(message=_message(text), metadata=metadata), handlers["on_request"], handlers["on_notify"], ctx)

        async def dispatch(item: Any, on_request: Any, on_notify: Any, sender_ctx: Any) -> None:
            handlers["on_request"], handlers["on_notify"] = on_request, on_notify
            if isinstance(item, Exception):
                await orig_dispatch(item, on_request, on_notify, sender_ctx)
                return
            outs = guarded._from_server(item.message)
            await guarded._carry(
                outs,
                lambda text: write.inner.send(
                    SessionMessage(message=_message(text), metadata=upstream_metadata(text, None, guarded._last_headers))
                ),
                lambda text: to_client(text, item.metadata, sender_ctx),
            )
            if guarded._relist_done is not None and not guarded.mediator.relisting():
                guarded._relist_done.set()
                guarded._relist_done = None

        class GuardedWrite:
            """The dispatcher's write stream: every message through the
            mediator; `inner` is the transport's (what goes on the wire)."""

            def __init__(self) -> None:
                self.inner = real_write

            async def send(self, item: SessionMessage) -> None:
                headers = getattr(item.metadata, "headers", None)
                if headers:
                    guarded._last_headers = dict(headers)
                outs = guarded._from_client(item.message)
                await guarded._carry(
                    outs,
                    lambda text: self.inner.send(
                        SessionMessage(message=_message(text), metadata=upstream_metadata(text, item.metadata, None))
                    ),
                    lambda text: to_client(text, None, None),
                )

            async def aclose(self) -> None:
                await self.inner.aclose()

            async def __aenter__(self) -> "GuardedWrite":
                return self

            async def __aexit__(self, *exc: Any) -> None:
                await self.inner.aclose()

        write = GuardedWrite()
        d._write_stream = write
        d._dispatch = dispatch

    def _from_client(self, message: Any) -> list[dict[str, Any]]:
        outs = self.mediator.on_client_message(_wire(message))
        # Text the mediator cannot read is answered -32700 under id null (it
        # cannot read the id); the SDK made this message and knows its id, so
        # the error goes to that request instead of leaving it waiting.
        msg_id = getattr(message, "id", None)
        if msg_id is not None and any(o["to"] == "log" and o["log"].get("event") == "client-line-refused" for o in outs):
            for o in outs:
                if o["to"] == "client":
                    o["text"] = json.dumps({**json.loads(o["text"]), "id": msg_id})
        return outs

    def _from_server(self, message: Any) -> list[dict[str, Any]]:
        outs = self.mediator.on_server_message(_wire(message))
        # The SDK's parser read a message the engine's strict parser does not
        # (a surrogate, nesting past the mediator's bound): the mediator drops
        # it, and the request it answers would wait for its timeout. Only the
        # answer's id is kept: an error under that id goes through the
        # mediator, which takes it only for a pending minted id, exactly.
        dropped = [o for o in outs if o["to"] == "log" and o["log"].get("event") == "server-line-dropped"]
        msg_id = getattr(message, "id", None)
        if dropped and getattr(message, "method", None) is None and isinstance(msg_id, (str, int)):
            why = dropped[0]["log"].get("reason")
            error = {
                "jsonrpc": "2.0",
                "id": msg_id,
                "error": {"code": _PARSE_ERROR, "message": f"mcp-guard: the server's answer is not strict JSON ({why})", "data": {"reason": "invalid-json"}},
            }
            outs.extend(self.mediator.on_server_message(json.dumps(error)))
        return outs

    async def _carry(self, outs: list[dict[str, Any]], to_server: Callable[[str], Awaitable[None]], to_client: Callable[[str], Awaitable[None]]) -> None:
        """Carries out one mediator answer, in order; then saves what a listing changed."""
        findings: list[dict[str, Any]] = []
        listing: Optional[dict[str, Any]] = None
        for o in outs:
            if o["to"] == "server":
                if '"method":"tools/call"' in o["text"]:
                    self._touch()
                await to_server(o["text"])
            elif o["to"] == "client":
                if listing is not None and listing["log"].get("request") is not None:
                    answer = json.loads(o["text"])
                    if answer.get("id") == listing["log"]["request"] and isinstance(answer.get("result"), dict):
                        listing["outcome"]["catalog"] = answer["result"]
                await to_client(o["text"])
            elif o["to"] == "persist":
                self._persist(o["text"])
            else:
                listing = self._log(o["log"], findings) or listing
        if listing is not None:
            self._listed(listing)
        await self._flush()

    def _log(self, line: dict[str, Any], findings: list[dict[str, Any]]) -> Optional[dict[str, Any]]:
        event = line.get("event")
        if event == "finding":
            findings.append(_finding(line.get("finding") or {}))
        elif event == "listing":
            drift = (
                [{"kind": "changed", "name": n} for n in line["changed"]]
                + [{"kind": "new", "name": n} for n in line["new"]]
                + [{"kind": "removed", "name": n} for n in line["removed"]]
            )
            # The reason a tool is hidden: the first finding that hid it.
            hidden = [
                {"name": n, "reason": next((f["kind"] for f in findings if f["tool"] == n and f["action"] == "hidden"), None)}
                for n in line["hidden"]
            ]
            record = {
                "baseline": line["baseline"],
                "outcome": {"findings": list(findings), "hidden": hidden, "catalog": None},
                "drift": drift,
                "decision": line["decision"],
                "log": line,
            }
            findings.clear()
            self._emit(line)
            return record
        elif event == "meta-tool":
            self._touch()
        self._emit(line)
        return None

    def _emit(self, line: dict[str, Any]) -> None:
        if self.on_event is not None:
            try:
                self.on_event({**line, "session_key": self.session_key})
            except Exception:  # a failing log callback must not break the conversation
                pass

    def _persist(self, text: str) -> None:
        """The pin record changed: queue its write, in order with the other
        writes (a listing returns after it). A failed write is reported and
        the session goes on, as in `mcp-guard proxy`: the approved pins in
        the store are unchanged, so the next run still holds back what this
        one did."""
        if self.pins is None:
            # Only a mediator with a record persists; anything else is a bug to see.
            self._emit({"event": "record-dropped", "reason": "no pin store"})
            return
        store, key, rid = self.pins

        async def write() -> None:
            try:
                await store.put_record(rid, text)
            except Exception as e:  # reported, not raised: see the docstring
                self._emit({"event": "record-save-failed", "key": key, "id": rid, "message": str(e)})
            else:
                self._emit({"event": "record-saved", "key": key, "id": rid})

        self._saves.append(write)

    def _listed(self, record: dict[str, Any]) -> None:
        """After a listing: record it, queue the save of the baseline (or the tombstone)."""
        self.last_listing = record
        dead = self.mediator.dead()
        if self.pins is not None:
            # Across runs the record is the state (written on `persist`).
            if dead is not None and self._closed_by is None:
                self._closed_by = {"message": dead, "drift": record["drift"]}
            return
        key = self.session_key
        if dead is not None:
            if self._closed_by is None:
                self._closed_by = {"message": dead, "drift": record["drift"]}
            self._known = None
            self._saves.append(lambda: self.store.tombstone(key, dead, self.tombstone_ttl))
        else:
            baseline = self.mediator.baseline()
            self._known = baseline
            if baseline is not None:
                self._saves.append(lambda: self.store.put_baseline(key, baseline, self.session_ttl))

    def _touch(self) -> None:
        key = self.session_key
        touch = getattr(self.store, "touch", None)
        if touch is not None:
            self._saves.append(lambda: touch(key, self.session_ttl))

    async def _flush(self) -> None:
        while self._saves:
            await self._saves.pop(0)()

    async def _sync(self, what: str, name: Optional[str] = None) -> None:
        """Loads the store's entry into the mediator before a listing or a
        call (a replica may have pinned, compared or closed the session). A
        tombstone refuses here: the store says the session is closed, and this
        mediator may never have seen the drift that closed it."""
        if self.mediator.relisting():
            if self._relist_done is None:
                self._relist_done = anyio.Event()
            done = self._relist_done
            with anyio.move_on_after(_RELIST_WAIT):
                await done.wait()
        await self._flush()
        if self.pins is not None:
            return  # the mediator holds the record's state
        entry = await self.store.get(self.session_key)
        if isinstance(entry, Tombstone):
            if what == "listing":
                drift = self._closed_by["drift"] if self._closed_by else []
                raise ListingRefused("session-invalidated", {"message": entry.reason, "drift": drift}, f"session-invalidated: {entry.reason}")
            raise CallRefused("session-invalidated", entry.reason)
        text = entry.baseline if entry is not None else None
        if text != self._known:
            self.mediator.restore(text)
            self._known = text

    @property
    def listing_stale(self) -> bool:
        """A list change arrived since the client's last listing (the mediator
        has re-listed, or is re-listing, on its own)."""
        return self._stale

    # -- notifications -------------------------------------------------------------------

    async def handle_message(self, message: Any) -> None:
        """Feed the session's incoming messages here (`guarded_session` does)."""
        if isinstance(message, types.ToolListChangedNotification):
            self._stale = True

    # -- tools/list ------------------------------------------------------------------------

    async def list_tools(self, *, params: Optional[types.PaginatedRequestParams] = None) -> types.ListToolsResult:
        """The server's whole tool catalog, sanitized and pinned (see the module doc).

        Raises `ListingRefused` (drift under `block`; the session invalidated),
        `GuardError` (an unusable listing), `ValueError` for a `cursor`
        (the mediator serves the whole catalog in one answer)."""
        if params is not None and params.cursor is not None:
            raise ValueError("GuardedSession.list_tools serves the whole catalog: no cursor")
        await self._sync("listing")
        try:
            result = await self._sdk_list_tools(params=params)
        except MCPError as e:
            await self._flush()
            raise self._listing_error(e) from None
        await self._flush()
        self._stale = False
        return result

    def _listing_error(self, e: MCPError) -> BaseException:
        r = _refusal(e)
        if r is None:
            return e
        code, reason, message, _ = r
        if reason == "session-invalidated":
            self._stale = False
            drift = self._closed_by["drift"] if self._closed_by else (self.last_listing or {}).get("drift", [])
            return ListingRefused("session-invalidated", {"message": message, "drift": drift}, f"session-invalidated: {message}")
        if code == _REFUSED and reason == "drift":
            self._stale = False
            drift = (self.last_listing or {}).get("drift", [])
            return ListingRefused("drift", {"message": message, "drift": drift}, f"drift: {message}")
        if isinstance(reason, str):
            return GuardError(reason, message, f"{reason}: {message}")
        if code == _PARSE_ERROR:
            return GuardError("invalid-json", message, f"invalid-json: {message}")
        return e

    # -- tools/call ------------------------------------------------------------------------

    async def call_tool(self, name: str, arguments: Optional[dict[str, Any]] = None, *args: Any, **kwargs: Any) -> Any:
        """Calls a tool the client was shown, through the mediator's call gate.

        Raises `CallRefused` (the call never reaches the server); returns the
        engine's `CallToolResult` for a discovery meta-tool (nothing sent);
        otherwise the server's result. `args`/`kwargs` go to
        `ClientSession.call_tool` (`read_timeout_seconds`, `input_responses`,
        `allow_input_required`, ...: an `input_required` round is another
        call, gated again)."""
        check_unicode("name", name)
        await self._sync("call", name)
        try:
            return await self._sdk_call_tool(name, arguments, *args, **kwargs)
        except MCPError as e:
            raise self._call_error(e) from None

    def _call_error(self, e: MCPError) -> BaseException:
        r = _refusal(e)
        if r is None:
            return e
        code, reason, message, data = r
        if code == _INVALID_PARAMS and isinstance(reason, str) and "tool" in data:
            violations = [{"pointer": v.get("pointer"), "reason": v.get("reason")} for v in data.get("violations") or []]
            return CallRefused(reason, message, violations)
        if code == _PARSE_ERROR:
            # The name was checked above: what the engine could not read is in
            # the arguments (a surrogate has no UTF-8 form).
            return CallRefused("invalid-arguments", message, [{"pointer": "", "reason": message}])
        if isinstance(reason, str):
            return GuardError(reason, message, f"{reason}: {message}")
        return e

    async def forget(self) -> None:
        """Forgets this session's state in the store (tombstones too): the next listing pins afresh."""
        await self._flush()
        self._closed_by = None
        await self.store.remove(self.session_key)


async def _load_record(pins: Optional[Pins], server: Optional[str]) -> Optional[str]:
    """The stored pin record for `pins` (None: no pins, or none stored yet)."""
    if pins is None:
        return None
    return await pins.store.get_record(record_id(record_key(pins.server if pins.server is not None else server, pins.principal)))


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
    on_event: Optional[Callable[[dict[str, Any]], None]] = None,
    pins: Optional[Pins] = None,
    **client_session_kwargs: Any,
) -> AsyncIterator[GuardedSession]:
    """A `ClientSession` over a transport's streams, mediated from its first
    message (`initialize` too), wrapped in a `GuardedSession` that also sees
    the session's notifications (`listing_stale`); your `message_handler`, if
    any, still gets every message (as the mediator passed it). Initializes
    the session unless `initialize=False`. With `pins`, the server's pin
    record is loaded from `pins.store` first: a record that does not read
    raises `GuardError` `invalid-baseline` (it is never replaced silently,
    which would be a fresh trust on first use; `pins.forget` removes it)."""
    stored_record = await _load_record(pins, server)
    holder: list[GuardedSession] = []

    async def on_message(message: Any) -> None:
        if holder:
            await holder[0].handle_message(message)
        if message_handler is not None:
            await message_handler(message)

    session = ClientSession(read_stream, write_stream, message_handler=on_message, **client_session_kwargs)
    gs = GuardedSession(
        session,
        guard,
        store=store,
        session_key=session_key,
        server=server,
        foreign_names=foreign_names,
        session_ttl=session_ttl,
        tombstone_ttl=tombstone_ttl,
        on_event=on_event,
        pins=pins,
        stored_record=stored_record,
    )
    holder.append(gs)
    async with session:
        if initialize:
            await session.initialize()
        yield gs
