"""Pins that outlive a session: the calls of `mcp-guard pins list | show |
approve | forget`, over a pin store (`MemoryStore`, `RedisStore`).

A desktop client starts its servers afresh every run, so pins kept per
session never see a rug pull between two runs. With
`guarded_session(..., pins=Pins(store, server="docs"))` the mediator keeps one
pin record per server identity in `store`: loaded when the session is made,
written back whenever the engine says it changed (`persist`). The first
listing of every run is compared with the approved pins; what changed or is
new is held back (`quarantine`: not shown, calls refused `quarantined`) until
a person approves it here:

```python
from mcp_guard import pins
for r in await pins.list(store):
    print(r["id"][:12], r["key"], r["pending"])
shown = await pins.show(store, pins.record_key("docs"))
for p in shown["pending"]:
    for c in p["changes"]:
        print(p["name"], c["pointer"], c["before"], "->", c["after"])
await pins.approve(store, pins.record_key("docs"), ["echo"])  # served from the next run
```

`server` in these calls is a record key (`record_key(server, principal)`), or
at least 8 leading hex characters of a record id (`list` shows them). A
session already running keeps the record it loaded; an approval is served
from the next session. The engine decides what a record holds and when it
changed; this module only reads and writes it.
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from .errors import GuardError
from .guard import Guard
from .store import PinStore

_ENGINE: Optional[Guard] = None
_ENGINE_LOCK = threading.Lock()


def _engine() -> Guard:
    """An engine instance for the record functions (they need no policy)."""
    global _ENGINE
    with _ENGINE_LOCK:
        if _ENGINE is None:
            _ENGINE = Guard()
        return _ENGINE


@dataclass(frozen=True)
class Pins:
    """Pins across runs for one guarded session: the pin `store`, the
    server's identity as the host knows it (`server`; default: the session's
    `server` option) and the `principal` when pins are kept per user. Never
    what the server reports about itself: a server that rug-pulls would
    rename itself to get a fresh trust on first use."""

    store: PinStore
    server: Optional[str] = None
    principal: Optional[str] = None


def record_key(server: Optional[str], principal: Optional[str] = None) -> str:
    """The record key of a server identity (and principal); the npm package
    builds the same (`recordKey` in `mcp-guard/mcp`)."""
    if not isinstance(server, str) or server == "":
        raise TypeError("pins need the server's identity: a non-empty string (Pins.server or server)")
    if principal is None:
        return server
    if not isinstance(principal, str) or principal == "":
        raise TypeError("Pins.principal must be a non-empty string")
    return f"{server} (principal {json.dumps(principal, ensure_ascii=False)})"


def record_id(key: str) -> str:
    """The record's id in a store: lower-case hex SHA-256 of the key."""
    return _engine().record_id(key)


def record_policy(policy_json: str) -> str:
    """The policy a mediator with a pin record runs: the engine's one rule
    (`core.tool_definition_pinning.mode` is `quarantine` unless the policy
    sets a mode; the same in `mcp-guard proxy` and the Envoy filter)."""
    return _engine().record_policy(policy_json)


async def _find(store: PinStore, server: str) -> tuple[str, str]:
    """`(id, text)` of `server` (a key, else an id prefix of 8+ hex characters)."""
    if not isinstance(server, str) or server == "":
        raise TypeError("server must be a record key or id prefix")
    rid = record_id(server)
    text = await store.get_record(rid)
    if text is not None:
        return rid, text
    prefix = server.lower()
    hits = [r for r in await store.list_records() if r[0].startswith(prefix)] if re.fullmatch(r"[0-9a-f]{8,64}", prefix) else []
    if len(hits) == 1:
        return hits[0]
    if len(hits) > 1:
        raise GuardError("ambiguous-server", {"server": server}, f"ambiguous-server: {len(hits)} records start with {prefix}: give more of the id")
    raise GuardError("unknown-server", {"server": server}, f"unknown-server: no pin record for server {server!r}")


async def list(store: PinStore) -> list[dict[str, Any]]:  # noqa: A001 - the CLI's verb
    """Every record: `{"id", "key", "server_info", "approved": [names],
    "pending": [names]}`, or `{"id", "kind", "error"}` for one that does not
    read (never removed silently)."""
    out: list[dict[str, Any]] = []
    for rid, text in await store.list_records():
        try:
            r = _engine().record_show(text)
        except GuardError as e:
            out.append({"id": rid, "kind": e.kind, "error": str(e)})
            continue
        out.append(
            {
                "id": rid,
                "key": r["key"],
                "server_info": r["server_info"],
                "approved": [a["name"] for a in r["approved"]],
                "pending": [p["name"] for p in r["pending"]],
            }
        )
    return out


async def show(store: PinStore, server: str) -> dict[str, Any]:
    """One record (`Guard.record_show`): the approved tools and each pending
    change with its pointers and the values before and after. Raises
    `GuardError` `unknown-server`, `invalid-baseline`."""
    _, text = await _find(store, server)
    return _engine().record_show(text)


async def approve(store: PinStore, server: str, names: Iterable[str] = ()) -> list[str]:
    """Approves the pending definitions of `names` (all pending when empty);
    the next session serves them. Returns the names approved. Raises
    `GuardError` `not-pending` (nothing changes), `unknown-server`,
    `invalid-baseline`."""
    rid, text = await _find(store, server)
    new, done = _engine().record_approve(text, names)
    await store.put_record(rid, new)
    return done


async def forget(store: PinStore, server: str, names: Optional[Iterable[str]] = None) -> list[str]:
    """Forgets the tools `names` (listed again, they are new and wait for
    approval), or the whole record when `names` is None (the next session
    trusts the server on first use again; this is also how a record that does
    not read goes). Returns the names forgotten (`[]` for the record)."""
    rid, text = await _find(store, server)
    if names is None:
        await store.delete_record(rid)
        return []
    new, done = _engine().record_forget(text, names)
    await store.put_record(rid, new)
    return done
