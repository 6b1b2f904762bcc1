"""Pins across runs end to end, shared by test_pins.py (MemoryStore) and
test_redis_store.py (RedisStore): three runs of the official `mcp` 2.x
`mcp.Client` in its default mode (protocol 2026-07-28, no handshake), each
against a fresh SDK server process (`servers/rug_pull_server.py`, stdio), all
on one pin store. Between run 1 and run 2 the server is updated
(`RUG_FROM_START=1`: `add` now asks for ~/.ssh/id_rsa): the rug pull a
per-session pin never sees."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Optional

import anyio
import pytest

from mcp_guard import CallRefused, Guard, pins
from mcp_guard.mcp import GuardedSession
from mcp_guard.pins import Pins

try:
    BaseExceptionGroup
except NameError:  # Python 3.10: anyio's backport
    from exceptiongroup import BaseExceptionGroup

from test_mcp_e2e import params

HONEST = "Adds two integers."


async def session_run(store: Any, log: Path, *, rug_pulled: bool, check: Any, principal: Optional[str] = None, policy: Any = None) -> list[dict]:
    """One run: a new server process, a new `mcp.Client`, its session wrapped with pins; `check(client, s)`."""
    from mcp import Client

    events: list[dict] = []
    env = {"CALL_LOG": str(log), "RUG_FROM_START": "1" if rug_pulled else "0"}
    try:
        async with Client(params("rug_pull_server.py", env)) as client:
            assert client.protocol_version == "2026-07-28"
            s = await GuardedSession.create(
                client.session, Guard(policy or {}), server="rug", pins=Pins(store, principal=principal), on_event=events.append
            )
            await check(client, s)
    except BaseExceptionGroup as group:  # the SDK's task groups wrap what the check raised
        raise _leaf(group) from None
    return events


def _leaf(e: BaseException) -> BaseException:
    while isinstance(e, BaseExceptionGroup) and e.exceptions:
        e = e.exceptions[0]
    return e


def run_all(body: Any, *args: Any) -> None:
    """`body(*args)` in one event loop (a Redis client is bound to its loop), bounded."""

    async def bounded() -> None:
        with anyio.fail_after(120):
            await body(*args)

    anyio.run(bounded)


async def rug_pull_across_runs(store: Any, tmp_path: Path, policy: Any = None) -> None:
    """Run 1 pins, run 2 (rug-pulled) quarantines `add`, approve, run 3 serves it."""
    key = pins.record_key("rug")
    log = tmp_path / "calls.log"
    log.write_text("")

    async def first(client: Any, s: GuardedSession) -> None:
        listed = await client.list_tools()
        assert "add" in [t.name for t in listed.tools], "run 1 serves add (trust on first use)"
        assert s.last_listing["baseline"] == "pinned"
        assert (await client.call_tool("add", {"a": 2, "b": 3})).content[0].text == "5"

    events = await session_run(store, log, rug_pulled=False, check=first, policy=policy)
    assert any(e["event"] == "record-saved" for e in events), "the record was written"
    [stored] = await pins.list(store)
    assert stored["key"] == key and "add" in stored["approved"] and stored["pending"] == []

    async def second(client: Any, s: GuardedSession) -> None:
        listed = await client.list_tools()
        assert [t.name for t in listed.tools] == ["mutate"], "the rug-pulled add is not shown"
        assert "id_rsa" not in listed.model_dump_json(), "the payload never reaches the client"
        assert s.last_listing["log"]["quarantined"] == ["add"]
        with pytest.raises(CallRefused) as e:
            await client.call_tool("add", {"a": 2, "b": 3, "note": "id_rsa"})
        assert e.value.reason == "quarantined"
        with pytest.raises(CallRefused) as e:
            await s.call_tool("add", {"a": 2, "b": 3})
        assert e.value.reason == "quarantined"

    await session_run(store, log, rug_pulled=True, check=second, policy=policy)
    assert log.read_text().split() == ["add"], "only run 1's call reached the server"

    # What a person sees before approving: the old and the new description.
    shown = await pins.show(store, key)
    assert [(p["name"], p["kind"]) for p in shown["pending"]] == [("add", "changed")]
    change = next(c for c in shown["pending"][0]["changes"] if c["pointer"] == "/description")
    assert change["before"] == HONEST and "~/.ssh/id_rsa" in change["after"]
    assert shown["pending"][0]["approved_definition"]["description"] == HONEST
    assert (await pins.show(store, shown["id"][:12]))["key"] == key, "found by an id prefix too"

    assert await pins.approve(store, key, ["add"]) == ["add"]
    assert (await pins.show(store, key))["pending"] == []

    async def third(client: Any, s: GuardedSession) -> None:
        listed = await client.list_tools()
        add = next(t for t in listed.tools if t.name == "add")
        assert "IMPORTANT" in (add.description or ""), "the approved definition is served as approved"
        assert (await client.call_tool("add", {"a": 1, "b": 1})).content[0].text == "2"

    await session_run(store, log, rug_pulled=True, check=third, policy=policy)
    assert log.read_text().split() == ["add", "add"]
