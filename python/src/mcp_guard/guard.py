"""`Guard`: the engine's functions over plain Python values.

JSON crosses the component boundary as text; that is internal. Callers pass
dicts (or JSON text or bytes, which skip a `json.dumps`) and get dicts back.
Records are dicts with snake_case keys (`tool_index`, `name_map`,
`strict_ok`); enum values are the WIT ids (`field-dropped`, `hidden`).
"""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any, Iterable, Literal, Mapping, Optional, TypedDict, Union

from wasmtime import WasmtimeError

from . import _component
from .errors import EngineTrap, GuardError, check_unicode

JsonInput = Union[Mapping[str, Any], str, bytes, bytearray]
Dialect = Literal["none", "gemini", "openai-strict", "anthropic", "portable"]


class Finding(TypedDict):
    kind: str
    severity: str
    tool: Optional[str]
    tool_index: Optional[int]
    pointer: str
    action: str
    detail: str


class HiddenTool(TypedDict):
    index: int
    name: Optional[str]
    reason: str
    detail: str


class ToolReport(TypedDict):
    index: int
    name: Optional[str]
    visible_name: Optional[str]
    status: str
    flagged: bool
    raw_span: dict[str, int]


class NameMapping(TypedDict):
    visible: str
    upstream: str


class Outcome(TypedDict):
    """The sanitized catalog (a dict, or compact JSON text with `as_json=True`) and the report."""

    catalog: Any
    findings: list[Finding]
    hidden: list[HiddenTool]
    tools: list[ToolReport]
    name_map: list[NameMapping]


class Pinned(TypedDict):
    outcome: Outcome
    baseline: str


class Decision(TypedDict, total=False):
    """`{"action": "serve", "catalog": ...}` or `{"action": "refuse", "invalidate": bool, "message": str}`."""

    action: Literal["serve", "refuse"]
    catalog: Any
    invalidate: bool
    message: str


class Compared(TypedDict):
    outcome: Outcome
    drift: list[dict[str, Any]]
    decision: Decision
    baseline: str


class CallDecision(TypedDict, total=False):
    """`{"action": "allow", "upstream", "arguments", "warning"}`,
    `{"action": "refuse", "reason", "message", "violations"}`, or (a discovery
    meta-tool the engine answered) `{"action": "respond", "result"}`."""

    action: Literal["allow", "refuse", "respond"]
    upstream: str
    #: `allow`: the arguments to send (a dict, or the engine's JSON text with
    #: `as_json=True`), None when the call had none.
    arguments: Any
    warning: Optional[str]
    reason: str
    message: str
    violations: list[dict[str, str]]
    #: `respond`: a complete MCP `CallToolResult` (a dict, or its JSON text with `as_json=True`).
    result: Any


class SearchHit(TypedDict):
    """One `search_tools` result (discovery)."""

    name: str
    title: Optional[str]
    #: One line from the sanitized description (or the title).
    summary: str


class Normalized(TypedDict):
    schema: Any
    changes: list[dict[str, Any]]
    strict_ok: bool


def to_json_text(value: JsonInput) -> Union[str, bytes]:
    """JSON text for the engine: text and bytes pass as they are (the engine's
    strict parser then sees exactly what the server sent), anything else is
    serialized compactly."""
    if isinstance(value, str):
        return value
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return _dumps(value)


def _dumps(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            # A str with surrogates inside the value: written as `\udXXX`
            # escapes, as JSON.stringify does in the npm package, so the
            # engine's strict parser refuses a lone one the same way in both
            # (docs/component.md, "Strings that cannot cross"); an escaped pair reads as
            # the one character it encodes.
            text = json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return text


def _text(value: Union[str, bytes]) -> str:
    if isinstance(value, str):
        return value
    try:
        return value.decode("utf-8")
    except UnicodeDecodeError as e:
        raise GuardError("invalid-json", {"offset": e.start, "reason": "input is not UTF-8"}) from None


def _names(names: Iterable[str]) -> list[str]:
    if isinstance(names, str):
        raise TypeError("names must be a list of tool names, not one string")
    out = list(names)
    for i, n in enumerate(out):
        if not isinstance(n, str):
            raise TypeError("names must be strings")
        check_unicode(f"names[{i}]", n)
    return out


def _error(err: Any) -> GuardError:
    kind, payload = err
    return GuardError(kind, payload)


class Guard:
    """A compiled policy and a component instance of its own.

    `Guard({})` is the safe default policy, `Guard({"preset": "strict"})` the
    strict preset; a dict or the policy's JSON text. An unusable policy raises
    `GuardError` with `kind == "invalid-policy"` and `detail["field"]` naming
    the setting. The component is compiled once per process and shared; each
    `Guard` instantiates it (~1 ms) in its own store.

    Thread-safe: calls on one `Guard` are serialized by a lock (use one
    `Guard` per thread for parallelism). A trap raises `EngineTrap` and the
    next call runs in a fresh instance.

    - `memory_limit`: the most linear memory the guest may grow to, in bytes
      (default 1 GiB; the default catalog cap is 16 MiB). Past it the call
      traps (`EngineTrap`). `None` for no limit.
    """

    def __init__(self, policy: JsonInput = "{}", *, memory_limit: Optional[int] = 1 << 30) -> None:
        self._policy_text = check_unicode("policy", _text(to_json_text(policy)))
        self._memory_limit = memory_limit
        self._lock = threading.Lock()
        self._inst: Optional[_component.GuestInstance] = None
        self._policy: Any = None
        with self._lock:
            self._ensure()

    # -- instance management -------------------------------------------------

    def _ensure(self) -> _component.GuestInstance:
        if self._inst is None:
            inst = _component.GuestInstance(self._memory_limit)
            try:
                tag, value = inst.new_policy(self._policy_text)
            except WasmtimeError as e:
                raise EngineTrap(str(e)) from None
            if tag == "err":
                raise _error(value)
            self._inst, self._policy = inst, value
        return self._inst

    def _call(self, name: str, *args: Any, with_policy: bool = False) -> Any:
        with self._lock:
            inst = self._ensure()
            if with_policy:  # the handle of *this* instance (a trap replaces both)
                args = (self._policy, *args)
            try:
                return getattr(inst, name)(inst.store, *args)
            except WasmtimeError as e:
                # A trap poisons the instance: drop it, the next call makes a new one.
                self._inst = self._policy = None
                raise EngineTrap(str(e)) from None

    def close(self) -> None:
        """Drops the policy and the instance (also done by the garbage collector)."""
        with self._lock:
            if self._inst is not None and self._policy is not None:
                try:
                    self._inst.drop(self._policy)
                except WasmtimeError:
                    pass
            self._inst = self._policy = None

    def __enter__(self) -> "Guard":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    # -- sanitize --------------------------------------------------------------

    @staticmethod
    def _options(server: Optional[str], foreign_names: Iterable[str]) -> Any:
        from wasmtime.component import Record

        names = list(foreign_names)
        # Strings inside the record are checked here, naming the field (the
        # top-level parameters are checked as they are lowered, `_component.Call`).
        if isinstance(server, str):
            check_unicode("server", server)
        for i, n in enumerate(names):
            if isinstance(n, str):
                check_unicode(f"foreign_names[{i}]", n)
        opts = Record()
        setattr(opts, "server", server)
        setattr(opts, "foreign-names", names)
        return opts

    @staticmethod
    def _outcome(o: dict[str, Any], as_json: bool) -> Outcome:
        if not as_json:
            o["catalog"] = json.loads(o["catalog"])
        return o  # type: ignore[return-value]

    def sanitize(
        self,
        catalog: JsonInput,
        server: Optional[str] = None,
        foreign_names: Iterable[str] = (),
        *,
        as_json: bool = False,
    ) -> Outcome:
        """Runs the whole pipeline over a `tools/list` result.

        `catalog` is the result object (dict) or its JSON text/bytes; `server`
        selects the policy's per-server overrides and prefix; `foreign_names`
        are other servers' tool names for look-alike checks. Returns the
        sanitized catalog (`as_json=True`: compact JSON text, e.g. to forward
        as is) with findings, hidden tools, per-tool reports and the name map.
        Raises `GuardError` for an unusable input (`invalid-json`,
        `duplicate-key`, `too-deep`, `too-large`, `invalid-envelope`).
        """
        tag, v = self._call(
            "sanitize", _text(to_json_text(catalog)), self._options(server, foreign_names), with_policy=True
        )
        if tag == "err":
            raise _error(v)
        return self._outcome(v, as_json)

    # -- pinning ----------------------------------------------------------------

    def pin(
        self,
        catalog: JsonInput,
        server: Optional[str] = None,
        foreign_names: Iterable[str] = (),
        *,
        as_json: bool = False,
    ) -> Pinned:
        """Sanitizes `catalog` and pins what the client will see: serve
        `outcome["catalog"]`, store `baseline` (an opaque string) for the session."""
        tag, v = self._call(
            "pin", _text(to_json_text(catalog)), self._options(server, foreign_names), with_policy=True
        )
        if tag == "err":
            raise _error(v)
        self._outcome(v["outcome"], as_json)
        return v  # type: ignore[no-any-return]

    def compare(
        self,
        baseline: str,
        catalog: JsonInput,
        server: Optional[str] = None,
        foreign_names: Iterable[str] = (),
        *,
        as_json: bool = False,
    ) -> Compared:
        """Sanitizes a later `catalog` and compares it with the session's
        `baseline` under the policy's `tool_definition_pinning`.

        `decision` is `{"action": "serve", "catalog": ...}` (the unchanged
        catalog or the baseline subset) or `{"action": "refuse", "invalidate",
        "message"}`; store the returned `baseline` either way (on `invalidate`,
        tombstone the session instead). Raises `GuardError` (`invalid-baseline`
        for a baseline this engine cannot use, or an input error)."""
        tag, v = self._call(
            "compare", baseline, _text(to_json_text(catalog)), self._options(server, foreign_names), with_policy=True
        )
        if tag == "err":
            raise _error(v)
        self._outcome(v["outcome"], as_json)
        dtag, d = v["decision"]
        if dtag == "serve":
            v["decision"] = {"action": "serve", "catalog": d if as_json else json.loads(d)}
        else:
            v["decision"] = {"action": "refuse", "invalidate": d["invalidate"], "message": d["message"]}
        return v  # type: ignore[no-any-return]

    def check_call(
        self, baseline: str, name: str, arguments: Optional[JsonInput] = None, *, as_json: bool = False
    ) -> CallDecision:
        """Decides a `tools/call` of `name` in the session `baseline`.

        Allowed: `{"action": "allow", "upstream": <name to send>, "arguments":
        <dict to send, mapped back from the dialect (JSON text with
        as_json=True, the bytes the engine wrote), or None>, "warning"}`.
        Refused: `{"action": "refuse", "reason": <refusal-reason id>,
        "message", "violations"}`. Answered (discovery's `search_tools` and
        `get_tool_schema`): `{"action": "respond", "result": <CallToolResult
        dict; JSON text with as_json=True>}`: reply with it, send nothing
        upstream (`call_tool` comes back as `allow` for the inner tool). Only
        an unusable baseline raises (`GuardError`, `invalid-baseline`)."""
        args = None if arguments is None else _text(to_json_text(arguments))
        tag, v = self._call("check_call", baseline, name, args)
        if tag == "err":
            raise _error(v)
        dtag, d = v
        if dtag == "allow":
            a = d["arguments"]
            return {
                "action": "allow",
                "upstream": d["upstream"],
                "arguments": a if a is None or as_json else json.loads(a),
                "warning": d["warning"],
            }
        if dtag == "refuse":
            return {"action": "refuse", "reason": d["reason"], "message": d["message"], "violations": d["violations"]}
        if dtag == "respond":
            return {"action": "respond", "result": d if as_json else json.loads(d)}
        # A decision case this package version does not know (a newer
        # component): pass it on as data; the session wrapper fails closed.
        return {"action": dtag, "payload": d}  # type: ignore[typeddict-unknown-key]

    # -- mediation ----------------------------------------------------------------

    @property
    def policy_json(self) -> str:
        """The policy's JSON text as given (for logs, or another replica)."""
        return self._policy_text

    def mediator(
        self,
        server: Optional[str] = None,
        foreign_names: Iterable[str] = (),
        *,
        id_prefix: Optional[str] = None,
        baseline: Optional[str] = None,
        record: Optional[tuple[str, Optional[str]]] = None,
    ) -> "Mediator":
        """One guarded MCP conversation under this policy: the engine's
        mediation core (`Mediator`). `id_prefix` starts every id it mints
        (default `mcp-guard-<uuid>`, unique per conversation); `baseline` is a
        stored one (`Mediator.baseline()` of an earlier conversation): the
        first listing is compared with it. Or, for pins across runs,
        `record=(key, stored)`: the pin record of the server the host
        identifies as `key` (never what the server reports), `stored` its text
        from the store or None (trust on first use); the mediator then returns
        `{"to": "persist", "text": ...}` whenever the record changed. Raises
        `GuardError` (`invalid-baseline`; `other` for a bad prefix)."""
        prefix = id_prefix if id_prefix is not None else f"mcp-guard-{uuid.uuid4()}"
        opts = self._options(server, foreign_names)
        if record is not None and baseline is not None:
            raise ValueError("a mediator takes a baseline or a record, not both")
        with self._lock:
            inst = self._ensure()
            try:
                if record is None:
                    tag, v = inst.new_mediator(self._policy, opts, prefix, baseline)
                else:
                    key, stored = record
                    tag, v = inst.new_mediator_with_record(self._policy, opts, prefix, key, stored)
            except WasmtimeError as e:
                self._inst = self._policy = None
                raise EngineTrap(str(e)) from None
        if tag == "err":
            raise _error(v)
        return Mediator(self, inst, v)

    # -- pin records ----------------------------------------------------------------
    #
    # What `mcp-guard pins show | approve | forget` does, over a record's text
    # (the engine's `PinRecord`); `mcp_guard.pins` keeps records in a store.

    def record_id(self, key: str) -> str:
        """A stable, key-safe name for the record of server `key` (lower-case hex SHA-256)."""
        return self._call("record_id", key)  # type: ignore[no-any-return]

    def record_policy(self, policy_json: str) -> str:
        """The policy JSON a mediator keeping a pin record works under: the
        engine's rule (`core.tool_definition_pinning.mode` is `quarantine`
        unless the policy sets a mode), as `mcp-guard proxy` and Envoy."""
        return self._call("record_policy", policy_json)  # type: ignore[no-any-return]

    def record_show(self, text: str) -> dict[str, Any]:
        """Reads a record: `{"id", "key", "server_info", "approved": [{"name",
        "digest", "definition"}], "pending": [{"name", "kind", "digest",
        "changes": [{"pointer", "kind", "before", "after"}],
        "changes_truncated", "approved_definition", "definition"}]}`
        (definitions and values parsed; `before`/`after` None where absent).
        Raises `GuardError` `invalid-baseline`."""
        tag, v = self._call("record_show", text)
        if tag == "err":
            raise _error(v)
        load = lambda t: None if t is None else json.loads(t)  # noqa: E731
        for a in v["approved"]:
            a["definition"] = json.loads(a["definition"])
        for p in v["pending"]:
            p["definition"] = json.loads(p["definition"])
            p["approved_definition"] = load(p["approved_definition"])
            for c in p["changes"]:
                c["before"], c["after"] = load(c["before"]), load(c["after"])
        return v  # type: ignore[no-any-return]

    def record_approve(self, text: str, names: Iterable[str] = ()) -> tuple[str, list[str]]:
        """Approves the pending definitions of `names` (all pending when empty):
        `(record to store, names approved)`. Raises `GuardError` `not-pending`
        (nothing changes) or `invalid-baseline`."""
        tag, v = self._call("record_approve", text, _names(names))
        if tag == "err":
            raise _error(v)
        return v["text"], v["names"]

    def record_forget(self, text: str, names: Iterable[str]) -> tuple[str, list[str]]:
        """Forgets the tools `names` (listed again, they are new and wait for
        approval): `(record to store, names forgotten)`. Raises `GuardError`
        `unknown-tool` (nothing changes) or `invalid-baseline`."""
        tag, v = self._call("record_forget", text, _names(names))
        if tag == "err":
            raise _error(v)
        return v["text"], v["names"]

    # -- discovery ----------------------------------------------------------------
    #
    # The meta-tools' answers as data (a UI, a log). Serving a discovery
    # session needs none of these: pin/compare serve the surface and
    # check_call answers the meta-tools.

    def search(self, baseline: str, query: str, limit: int = 10) -> list[SearchHit]:
        """`search_tools` over the tools callable in the session `baseline`,
        best first, at most `limit` (default 10, the meta-tool's):
        `[{"name", "title", "summary"}]`. Empty for a session without
        discovery. Raises `GuardError` (`invalid-baseline`)."""
        if not isinstance(limit, int) or isinstance(limit, bool) or not 0 <= limit <= 0xFFFF_FFFF:
            raise ValueError("limit must be an int in 0..2**32-1")
        tag, v = self._call("search", baseline, query, limit)
        if tag == "err":
            raise _error(v)
        return v  # type: ignore[no-any-return]

    def tool_schema(self, baseline: str, name: str, *, as_json: bool = False) -> Any:
        """`get_tool_schema`: the served definition of a callable tool (a dict;
        JSON text with `as_json=True`), or None when it is hidden, drifted or
        unknown (`check_call` says why). Raises `GuardError` (`invalid-baseline`)."""
        tag, v = self._call("tool_schema", baseline, name)
        if tag == "err":
            raise _error(v)
        if v is None or as_json:
            return v
        return json.loads(v)

    def estimate_tokens(self, catalog: JsonInput) -> int:
        """Estimated model tokens of a listing (dict or JSON text): UTF-8
        bytes / 4, rounded up. Compare a full catalog with its discovery surface."""
        return self._call("estimate_tokens", _text(to_json_text(catalog)))  # type: ignore[no-any-return]

    # -- schema -----------------------------------------------------------------

    def normalize_schema(
        self,
        schema: JsonInput,
        target: Dialect = "none",
        *,
        max_ref_depth: int = 8,
        node_budget: int = 2000,
        as_json: bool = False,
    ) -> Normalized:
        """Rewrites one JSON Schema into `target`'s dialect (`gemini`,
        `openai-strict`, `anthropic`, `portable`, `none`) and reports every
        change. Raises `GuardError` with kind `invalid-json`, `unsupported`
        or `other`."""
        tag, v = self._call("normalize_schema", _text(to_json_text(schema)), target, max_ref_depth, node_budget)
        if tag == "err":
            raise _error(v)
        if not as_json:
            v["schema"] = json.loads(v["schema"])
        return v  # type: ignore[no-any-return]

    def coerce_arguments(self, original_schema: JsonInput, target: Dialect, arguments: JsonInput) -> dict[str, Any]:
        """Maps a model's arguments back to what the server's original schema
        expects and validates them. Raises `GuardError` kind
        `invalid-arguments` with the violations as `detail`."""
        tag, v = self._call(
            "coerce_arguments", _text(to_json_text(original_schema)), target, _text(to_json_text(arguments))
        )
        if tag == "err":
            raise GuardError("invalid-arguments", v, "invalid-arguments: " + "; ".join(f"{x['pointer']}: {x['reason']}" for x in v))
        return json.loads(v)  # type: ignore[no-any-return]

    def validate(self, schema: JsonInput, instance: Any) -> list[dict[str, str]]:
        """Violations of `instance` (any JSON-serializable Python value; a `str`
        is a JSON string, not JSON text) against `schema` (empty: valid)."""
        return self._call("validate", _text(to_json_text(schema)), _dumps(instance))  # type: ignore[no-any-return]

    def tool_name_ok(self, name: str, target: Dialect) -> bool:
        """Whether `name` is a valid tool name for `target`."""
        return bool(self._call("tool_name_ok", name, target))

    def engine_version(self) -> str:
        """The engine's rule version (part of every pin digest)."""
        return self._call("engine_version")  # type: ignore[no-any-return]


class Mediator:
    """One guarded MCP conversation (WIT `mediation.mediator`), made by
    `Guard.mediator`. Feed it every message each way and carry out what it
    returns, in order: `{"to": "server", "text": ...}` and `{"to": "client",
    "text": ...}` (compact JSON-RPC text), `{"to": "log", "log": {...}}` (a
    log line: `event`, `server` and the event's fields). It mints the ids the
    server sees, fetches every page of a listing, pins, compares, gates calls
    and re-lists after a list change; the host only moves messages
    (`mcp_guard.mcp` is such a host).

    Its state lives in its `Guard`'s instance: should that trap, the
    conversation is lost and every later call raises `EngineTrap`.
    """

    def __init__(self, guard: Guard, inst: Any, resource: Any) -> None:
        self._guard = guard
        self._inst = inst
        self._resource = resource

    def _call(self, name: str, *args: Any) -> Any:
        g = self._guard
        with g._lock:
            if self._resource is None:
                raise GuardError("disposed", None, "disposed: this mediator was closed")
            if g._inst is not self._inst:
                raise EngineTrap("the engine instance that held this conversation trapped; the conversation is lost")
            try:
                return getattr(self._inst, name)(self._inst.store, self._resource, *args)
            except WasmtimeError as e:
                g._inst = g._policy = None
                raise EngineTrap(str(e)) from None

    @staticmethod
    def _outs(outs: list[Any]) -> list[dict[str, Any]]:
        result: list[dict[str, Any]] = []
        for tag, val in outs:
            if tag in ("server", "client"):
                result.append({"to": tag, "text": val})
            elif tag == "persist":
                # The pin record changed: the host writes it (mcp_guard.mcp: the pin store).
                result.append({"to": "persist", "text": val})
            elif tag == "log":
                result.append({"to": "log", "log": json.loads(val)})
            else:
                # A case this package version does not know (a newer
                # component): dropping it could lose a message; fail closed.
                raise GuardError("other", tag, f"other: unknown mediator output {tag!r} from the engine")
        return result

    def on_client_message(self, message: JsonInput) -> list[dict[str, Any]]:
        """One message (or batch) from the client: a dict or its JSON text."""
        return self._outs(self._call("on_client_message", _text(to_json_text(message))))

    def on_server_message(self, message: JsonInput) -> list[dict[str, Any]]:
        """One message (or batch) from the server: a dict or its JSON text."""
        return self._outs(self._call("on_server_message", _text(to_json_text(message))))

    def baseline(self) -> Optional[str]:
        """The current baseline (save it after each `listing` log line); None before the first listing."""
        return self._call("mediator_baseline")  # type: ignore[no-any-return]

    def dead(self) -> Optional[str]:
        """Why drift closed the conversation, or None."""
        return self._call("mediator_dead")  # type: ignore[no-any-return]

    def relisting(self) -> bool:
        """The mediator's own re-list (after a list change) is in flight."""
        return bool(self._call("mediator_relisting"))

    def restore(self, baseline: Optional[str]) -> None:
        """Replaces the baseline (another replica's, from a shared store); None forgets it."""
        tag, v = self._call("mediator_restore", baseline)
        if tag == "err":
            raise _error(v)

    def pin_record(self) -> Optional[str]:
        """The pin record as it stands (a mediator made with `record`); None before the first pinned listing."""
        return self._call("mediator_pin_record")  # type: ignore[no-any-return]

    def close(self) -> None:
        """Frees the conversation's state now rather than at garbage collection."""
        g = self._guard
        with g._lock:
            if self._resource is not None and g._inst is self._inst:
                try:
                    self._inst.drop(self._resource)
                except WasmtimeError:
                    pass
            self._resource = None


def engine_version() -> str:
    """The engine's rule version, e.g. `0.1.0`."""
    return Guard().engine_version()
