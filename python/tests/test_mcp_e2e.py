"""End to end over stdio: the official `mcp` SDK's ClientSession, wrapped by
`mcp_guard.mcp`, against real server processes — `mcp-server-time` from PyPI,
and SDK servers (`tests/servers/`) that poison a description or pull the rug."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
import pytest
from mcp import StdioServerParameters, stdio_client

from mcp_guard import CallRefused, Guard, ListingRefused
from mcp_guard.mcp import GuardedSession, guarded_session
from mcp_guard.store import MemoryStore, Tombstone

from conftest import python_server

BLOCK_POISON = {"core": {"tool_poisoning": {"mode": "block"}}}
INVALIDATE = {"core": {"tool_definition_pinning": {"mode": "block", "block_strategy": "error", "block_error_session_action": "invalidate"}}}
SUBSET = {"core": {"tool_definition_pinning": {"mode": "block", "block_strategy": "baseline_subset"}}}


def run(body: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        with anyio.fail_after(60):
            await body()

    anyio.run(bounded)


def params(script: str, env: dict[str, str] | None = None) -> StdioServerParameters:
    cmd, args = python_server(script)
    return StdioServerParameters(command=cmd, args=args, env={**os.environ, **(env or {})})


async def wait_stale(s: GuardedSession) -> None:
    with anyio.fail_after(5):
        while not s.listing_stale:
            await anyio.sleep(0.01)


def time_server() -> StdioServerParameters:
    exe = shutil.which("mcp-server-time", path=os.path.dirname(sys.executable)) or shutil.which("mcp-server-time")
    assert exe, "mcp-server-time is not installed (pip install mcp-server-time)"
    return StdioServerParameters(command=exe, args=["--local-timezone", "UTC"])


def test_mcp_server_time_from_pypi_is_listed_clean_and_callable() -> None:
    async def body() -> None:
        async with stdio_client(time_server()) as (r, w):
            async with guarded_session(r, w, Guard(), server="time") as s:
                tools = await s.list_tools()
                assert sorted(t.name for t in tools.tools) == ["convert_time", "get_current_time"]
                assert s.last_listing["outcome"]["hidden"] == []
                result = await s.call_tool("get_current_time", {"timezone": "Europe/Oslo"})
                assert not result.is_error and result.structured_content["timezone"] == "Europe/Oslo"
                # Listing again compares with the pin: nothing drifted.
                again = await s.list_tools()
                assert [t.name for t in again.tools] == [t.name for t in tools.tools]
                assert s.last_listing["drift"] == []
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("get_current_time", {"timezone": 5})
                assert e.value.reason == "invalid-arguments" and e.value.violations[0]["pointer"] == "/timezone"

    run(body)


def test_poisoned_tool_is_hidden_and_its_call_never_reaches_the_server(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"

    async def body() -> None:
        async with stdio_client(params("poisoned_server.py", {"CALL_LOG": str(log)})) as (r, w):
            async with guarded_session(r, w, Guard(BLOCK_POISON), server="poisoned") as s:
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("weather", {"city": "Oslo"})  # nothing listed yet
                assert e.value.reason == "unknown-tool"

                tools = await s.list_tools()
                assert [t.name for t in tools.tools] == ["weather"]
                hidden = s.last_listing["outcome"]["hidden"]
                assert [h["name"] for h in hidden] == ["add"] and hidden[0]["reason"].startswith("poison-")

                with pytest.raises(CallRefused) as e:
                    await s.call_tool("add", {"a": 1, "b": 2, "sidenote": "ssh key"})
                assert e.value.reason == "hidden-tool"
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("Weather", {"city": "Oslo"})
                assert e.value.reason == "confusable-name"

                ok = await s.call_tool("weather", {"city": "Oslo"})
                assert ok.content[0].text == "sunny in Oslo"

    run(body)
    assert log.read_text().split() == ["weather"]


def test_default_policy_flags_the_poisoned_description() -> None:
    async def body() -> None:
        async with stdio_client(params("poisoned_server.py")) as (r, w):
            async with guarded_session(r, w, Guard(), server="poisoned") as s:
                tools = await s.list_tools()
                assert sorted(t.name for t in tools.tools) == ["add", "weather"]
                kinds = {f["kind"] for f in s.last_listing["outcome"]["findings"] if f["tool"] == "add"}
                assert {"poison-secret-access", "poison-secrecy"} <= kinds, kinds

    run(body)


def test_rug_pull_closes_the_session_under_block_error_invalidate() -> None:
    store = MemoryStore()

    async def body() -> None:
        async with stdio_client(params("rug_pull_server.py")) as (r, w):
            async with guarded_session(r, w, Guard(INVALIDATE), store=store, session_key="s1") as s:
                tools = await s.list_tools()
                assert sorted(t.name for t in tools.tools) == ["add", "mutate"]
                assert (await s.call_tool("add", {"a": 2, "b": 3})).content[0].text == "5"
                await s.call_tool("mutate", {})
                await wait_stale(s)
                # The client never re-lists: the call itself re-lists, compares and is refused.
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("add", {"a": 2, "b": 3, "note": "id_rsa"})
                assert e.value.reason == "session-invalidated"
                assert isinstance(await store.get("s1"), Tombstone)
                with pytest.raises(ListingRefused) as le:
                    await s.list_tools()
                assert le.value.kind == "session-invalidated"
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("mutate", {})
                assert e.value.reason == "session-invalidated"

    run(body)


def test_rug_pull_under_baseline_subset_revokes_only_the_drifted_tool() -> None:
    async def body() -> None:
        async with stdio_client(params("rug_pull_server.py")) as (r, w):
            async with guarded_session(r, w, Guard(SUBSET)) as s:
                await s.list_tools()
                await s.call_tool("mutate", {})
                await wait_stale(s)
                tools = await s.list_tools()
                assert [t.name for t in tools.tools] == ["mutate"]
                drift = s.last_listing["drift"]
                assert [(d["kind"], d["name"]) for d in drift] == [("changed", "add")]
                # Which fields drifted is in the listing's drift finding (the log line names the tools).
                assert any(f["kind"] == "drift-changed" and f["tool"] == "add" for f in s.last_listing["outcome"]["findings"])
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("add", {"a": 1, "b": 1})
                assert e.value.reason == "drifted-tool"
                assert (await s.call_tool("mutate", {})).content[0].text == "mutated"

    run(body)


def test_rug_pull_under_the_default_warn_is_served_marked() -> None:
    async def body() -> None:
        async with stdio_client(params("rug_pull_server.py")) as (r, w):
            async with guarded_session(r, w, Guard()) as s:
                await s.list_tools()
                await s.call_tool("mutate", {})
                await wait_stale(s)
                tools = await s.list_tools()
                add = next(t for t in tools.tools if t.name == "add")
                assert add.description is not None and "changed since the session's baseline" in add.description

    run(body)


def test_wrapping_an_existing_session() -> None:
    from mcp import ClientSession

    async def body() -> None:
        async with stdio_client(time_server()) as (r, w):
            async with ClientSession(r, w) as raw:
                await raw.initialize()
                s = GuardedSession(raw, Guard(), server="time")
                await s.list_tools()
                assert s.protocol_version  # delegated to the wrapped session
                with pytest.raises(ValueError):
                    import mcp.types as types

                    await s.list_tools(params=types.PaginatedRequestParams(cursor="x"))

    run(body)




# -- discovery ---------------------------------------------------------------------

TIME_DISCOVERY = {"core": {"discovery": {"mode": "on", "core_tools": ["get_current_time"]}}}


def record_calls(session: GuardedSession) -> list[str]:
    """Every tools/call that reaches the transport (what the mediator sent on), observed."""
    sent: list[str] = []
    guarded_write = session.session._dispatcher._write_stream
    wire = guarded_write.inner

    class Recording:
        async def send(self, item):  # type: ignore[no-untyped-def]
            if getattr(item.message, "method", None) == "tools/call":
                sent.append(item.message.params["name"])
            await wire.send(item)

        async def aclose(self) -> None:
            await wire.aclose()

    guarded_write.inner = Recording()
    return sent


def test_discovery_over_mcp_server_time_answers_meta_tools_locally_and_reaches_convert_time() -> None:
    import mcp.types as types

    async def body() -> None:
        async with stdio_client(time_server()) as (r, w):
            async with guarded_session(r, w, Guard(TIME_DISCOVERY), server="time") as s:
                sent = record_calls(s)
                tools = await s.list_tools()
                assert [t.name for t in tools.tools] == ["get_current_time", "search_tools", "get_tool_schema", "call_tool"]

                found = await s.call_tool("search_tools", {"query": "convert a time between timezones"})
                assert isinstance(found, types.CallToolResult) and not found.is_error
                assert "convert_time" in [t["name"] for t in found.structured_content["tools"]]
                schema = await s.call_tool("get_tool_schema", {"name": "convert_time"})
                assert isinstance(schema, types.CallToolResult)
                props = schema.structured_content["inputSchema"]["properties"]
                assert {"source_timezone", "time", "target_timezone"} <= set(props), props
                assert sent == [], "the meta-tools never reach the server"

                converted = await s.call_tool(
                    "call_tool",
                    {"name": "convert_time", "arguments": {"source_timezone": "UTC", "time": "12:00", "target_timezone": "Asia/Tokyo"}},
                )
                assert not converted.is_error, converted
                assert converted.structured_content["target"]["timezone"] == "Asia/Tokyo"
                assert converted.structured_content["target"]["datetime"].startswith(converted.structured_content["source"]["datetime"][:10])
                now = await s.call_tool("get_current_time", {"timezone": "UTC"})  # a core tool, called directly
                assert now.structured_content["timezone"] == "UTC"
                assert sent == ["convert_time", "get_current_time"]

                for name, arguments, reason in [
                    ("call_tool", {"name": "search_tools", "arguments": {"query": "x"}}, "unknown-tool"),
                    ("call_tool", {"name": "call_tool", "arguments": {}}, "unknown-tool"),
                    ("call_tool", {"name": "delete_everything", "arguments": {}}, "unknown-tool"),
                    ("call_tool", {"name": "Convert_Time", "arguments": {}}, "confusable-name"),
                    ("call_tool", {"name": "convert_time", "arguments": {"time": 12}}, "invalid-arguments"),
                    ("get_tool_schema", {"name": "delete_everything"}, "unknown-tool"),
                    ("search_tools", {}, "invalid-arguments"),
                ]:
                    with pytest.raises(CallRefused) as e:
                        await s.call_tool(name, arguments)
                    assert e.value.reason == reason, (name, arguments, e.value)
                assert sent == ["convert_time", "get_current_time"], "refused calls never reach the server"

                # Listing again compares the whole catalog behind the surface: no drift.
                again = await s.list_tools()
                assert [t.name for t in again.tools] == [t.name for t in tools.tools]
                assert s.last_listing["drift"] == []

    run(body)


def test_discovery_with_a_poisoned_sdk_server_hides_the_tool_behind_the_surface_too(tmp_path: Path) -> None:
    log = tmp_path / "calls.log"
    policy = {"core": {"discovery": {"mode": "on", "core_tools": []}, "tool_poisoning": {"mode": "block"}}}

    async def body() -> None:
        async with stdio_client(params("poisoned_server.py", {"CALL_LOG": str(log)})) as (r, w):
            async with guarded_session(r, w, Guard(policy), server="poisoned") as s:
                tools = await s.list_tools()
                assert [t.name for t in tools.tools] == ["search_tools", "get_tool_schema", "call_tool"]
                found = await s.call_tool("search_tools", {"query": "add two numbers"})
                assert "add" not in [t["name"] for t in found.structured_content["tools"]]
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("get_tool_schema", {"name": "add"})
                assert e.value.reason == "hidden-tool"
                with pytest.raises(CallRefused) as e:
                    await s.call_tool("call_tool", {"name": "add", "arguments": {"a": 1, "b": 2, "sidenote": "ssh key"}})
                assert e.value.reason == "hidden-tool"
                ok = await s.call_tool("call_tool", {"name": "weather", "arguments": {"city": "Oslo"}})
                assert ok.content[0].text == "sunny in Oslo"

    run(body)
    assert log.read_text().split() == ["weather"]


# -- MCP 2026-07-28: the SDK's default client mode ------------------------------------


def test_sdk_client_in_its_default_mode_lists_and_calls_through_the_guard_with_the_2026_result_fields() -> None:
    """mcp 2.x on both sides, `mcp.Client` in its default mode (it probes
    `server/discover` and speaks 2026-07-28, where `resultType`, `ttlMs` and
    `cacheScope` are required in a listing). Wrapping `client.session` guards
    the Client's own `list_tools`/`call_tool`; the served listing keeps the
    result fields and passes the SDK's 2026-07-28 result schema."""
    from mcp import Client
    from mcp_types import methods

    async def body() -> None:
        async with Client(params("rug_pull_server.py")) as client:
            assert client.protocol_version == "2026-07-28"
            s = GuardedSession(client.session, Guard(), server="rug")
            listed = await client.list_tools()
            assert s.last_listing is not None, "mcp.Client's list_tools went through the guard"
            served = s.last_listing["outcome"]["catalog"]
            assert served["resultType"] == "complete"
            assert isinstance(served["ttlMs"], int) and served["cacheScope"] in ("public", "private")
            methods.validate_server_result("tools/list", "2026-07-28", served)
            assert listed.result_type == "complete" and listed.ttl_ms == served["ttlMs"] and listed.cache_scope == served["cacheScope"]
            assert sorted(t.name for t in listed.tools) == ["add", "mutate"]

            direct = await s.list_tools()
            assert direct.result_type == "complete"
            assert s.last_listing["drift"] == []

            result = await client.call_tool("add", {"a": 2, "b": 3})
            assert result.content[0].text == "5"
            result = await s.call_tool("add", {"a": 1, "b": 1})
            assert result.content[0].text == "2"
            with pytest.raises(CallRefused) as refused:
                await client.call_tool("delete_everything", {})
            assert refused.value.kind == "unknown-tool"

    run(body)


def test_a_rug_pull_between_two_runs_of_a_2026_client_is_caught_by_the_stored_pin() -> None:
    """mcp 2.x `mcp.Client` (2026-07-28, no handshake) on both runs, one
    store: the first run pins, the server is updated between runs (`add`
    poisoned from the start), and the second run's first listing is compared
    with the stored pin instead of pinned afresh: refused, and the session
    closed, under block/error/invalidate."""
    from mcp import Client

    store = MemoryStore()
    events: list[dict] = []

    async def first_run() -> None:
        async with Client(params("rug_pull_server.py")) as client:
            s = GuardedSession(client.session, Guard(INVALIDATE), store=store, session_key="desktop", server="rug", on_event=events.append)
            await client.list_tools()
            assert s.last_listing["baseline"] == "pinned"
            assert (await client.call_tool("add", {"a": 2, "b": 3})).content[0].text == "5"

    async def second_run() -> None:
        async with Client(params("rug_pull_server.py", {"RUG_FROM_START": "1"})) as client:
            s = GuardedSession(client.session, Guard(INVALIDATE), store=store, session_key="desktop", server="rug", on_event=events.append)
            # The first listing of this run is compared with the stored pin, not pinned afresh.
            with pytest.raises(ListingRefused) as refused:
                await client.list_tools()
            assert refused.value.kind == "session-invalidated"
            assert s.last_listing["baseline"] == "compared"
            assert [(d["kind"], d["name"]) for d in s.last_listing["drift"]] == [("changed", "add")]
            with pytest.raises(CallRefused) as e:
                await client.call_tool("add", {"a": 2, "b": 3, "note": "id_rsa"})
            assert e.value.reason == "session-invalidated"

    run(first_run)
    run(second_run)
    assert isinstance(anyio.run(store.get, "desktop"), Tombstone)
    listings = [e for e in events if e["event"] == "listing"]
    assert [e["protocol"] for e in listings] == ["2026-07-28", "2026-07-28"], "each request's _meta names the version"
    assert [e["session_key"] for e in listings] == ["desktop", "desktop"]


async def rug_pull_on_a_listen_stream_closes_the_session(client: Any, events: list[dict]) -> None:
    """`mutate` (the rug pull) announced as a `toolsListChanged` frame on a
    `subscriptions/listen` stream: the wrapped session's mediator re-lists on
    it and compares (block/error/invalidate closes the session) before the
    client re-lists, so the client's next call of `add` is refused."""
    with anyio.fail_after(20):
        async with client.listen(tools_list_changed=True) as sub:
            assert (await client.call_tool("mutate", {})).content[0].text == "mutated"
            async for _event in sub:
                break
        # The mediator's own re-list (answering nobody) closes the session.
        while not any(e.get("event") == "session-invalidated" for e in events):
            await anyio.sleep(0.05)
    with pytest.raises(CallRefused) as refused:
        await client.call_tool("add", {"a": 2, "b": 3})
    assert refused.value.reason == "session-invalidated", refused.value


def test_a_2026_listen_stream_list_change_makes_the_mediator_re_list_and_compare() -> None:
    """Protocol 2026-07-28 (the `mcp` 2.x `mcp.Client` in its default mode):
    the list change arrives as a `toolsListChanged` frame on a
    `subscriptions/listen` stream, not as the 2025 notification. The wrapped
    session's mediator re-lists on it and compares: the rug pull closes the
    session (block/error/invalidate) before the client re-lists, so the
    client's next call is refused and never reaches the server."""
    from mcp import Client

    async def body() -> None:
        events: list[dict] = []
        async with Client(params("rug_pull_server.py")) as client:
            assert client.protocol_version == "2026-07-28"
            await GuardedSession.create(client.session, Guard(INVALIDATE), server="rug", on_event=events.append)
            assert "add" in [t.name for t in (await client.list_tools()).tools]
            await rug_pull_on_a_listen_stream_closes_the_session(client, events)
        own = [e for e in events if e.get("event") == "listing" and e.get("request") is None]
        assert own and own[0]["decision"] == "refused" and own[0]["changed"] == ["add"], events

    run(body)


def test_the_wrapper_mediates_a_2026_client_over_streamable_http(tmp_path: Path) -> None:
    """The `mcp` 2.x `mcp.Client` over Streamable HTTP (protocol 2026-07-28:
    each POST carries `Mcp-Method` / `Mcp-Name` from the message the mediator
    sends), wrapped: listed, called, an unknown tool refused before it leaves,
    and a list change on a `subscriptions/listen` stream re-listed and
    compared (the rug pull closes the session). The server's call log shows
    what reached it."""
    import socket
    import subprocess
    import time

    from mcp import Client

    log = tmp_path / "calls.log"
    log.write_text("")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd, args = python_server("rug_pull_server.py")
    proc = subprocess.Popen([cmd, *args, "--http", str(port)], env={**os.environ, "CALL_LOG": str(log)}, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline and proc.poll() is None, "the HTTP server did not start"
                time.sleep(0.1)

        async def body() -> None:
            events: list[dict] = []
            async with Client(f"http://127.0.0.1:{port}/mcp") as client:
                assert client.protocol_version == "2026-07-28"
                await GuardedSession.create(client.session, Guard(INVALIDATE), server="rug", on_event=events.append)
                assert sorted(t.name for t in (await client.list_tools()).tools) == ["add", "mutate"]
                assert (await client.call_tool("add", {"a": 2, "b": 3})).content[0].text == "5"
                with pytest.raises(CallRefused) as unknown:
                    await client.call_tool("rm", {})
                assert unknown.value.reason == "unknown-tool", unknown.value
                await rug_pull_on_a_listen_stream_closes_the_session(client, events)

        run(body)
    finally:
        proc.kill()
        proc.wait()
    # `mutate` logs nothing; the refused `rm` and second `add` never left.
    assert log.read_text().split() == ["add"], "only the allowed add reached the server"
