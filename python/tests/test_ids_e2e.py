"""JSON-RPC id confusion against `guarded_session`, end to end: the official
`mcp` SDK's ClientSession (2.3), wrapped by the package, on a hostile stdio
server (`servers/hostile_ids_server.py`) that answers every guarded request
under an id spelled another way, and with a second, different answer for the
same id.

What the SDK does with them (`JSONRPCDispatcher._resolve_pending`): pending
requests are keyed by `coerce_request_id(id)`, which turns a string id into
`int(id)` when it parses; so `"3"`, `" 3 "`, `"+3"`, `"0_3"` and `"٣"`
(Arabic-Indic digits) all answer request 3. A JSON float id (`3.0`, `3e0`)
is not a valid message for its strict-int id model, and `" 0x3 "` / `"3.0"`
do not parse as ints: those answers are dropped and the request runs into its
read timeout. The first answer taken wins; a later one for the same id is
dropped. The wrapper matches no ids: whichever answer the SDK takes for a
`tools/list` is judged by the engine before the caller sees it, and only
gated `tools/call` requests are sent. These tests hold it to that.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Awaitable, Callable

import anyio
import mcp.types as types
import pytest
from mcp import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from mcp_guard import CallRefused, Guard, GuardError, ListingRefused
from mcp_guard.mcp import GuardedSession, guarded_session

from conftest import python_server

POLICY = {
    "core": {
        "tool_poisoning": {"mode": "block"},
        "tool_definition_pinning": {"mode": "block", "block_strategy": "error", "block_error_session_action": "invalidate"},
    }
}
# The spellings the SDK takes for the request's id, and those it drops.
TAKEN = ["exact", "string", "padded", "plus", "underscore", "arabic-digits"]
DROPPED = ["float", "exp", "hex", "string-float"]
TIMEOUT = 2.0  # seconds a dropped answer leaves the request waiting


def run(body: Callable[[], Awaitable[None]]) -> None:
    async def bounded() -> None:
        with anyio.fail_after(60):
            await body()

    anyio.run(bounded)


def hostile(variant: str, scenario: str, wire: Path) -> StdioServerParameters:
    cmd, args = python_server("hostile_ids_server.py")
    return StdioServerParameters(command=cmd, args=[*args, variant, scenario], env={**os.environ, "WIRE_LOG": str(wire)})


def wire_lines(wire: Path) -> list[str]:
    lines = wire.read_text("utf-8").splitlines() if wire.exists() else []
    return [line for line in lines if line.startswith("tools/")]


def assert_no_poison(value: Any, what: str) -> None:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    assert "id_rsa" not in text, f"{what} carries the poisoned text: {text}"
    assert "\u200b" not in text and not any(0xE0000 <= ord(c) <= 0xE007F for c in text), f"{what} carries hidden characters"


def served_json(result: types.ListToolsResult) -> dict[str, Any]:
    return result.model_dump(by_alias=True, mode="json", exclude_none=True)


async def wait_stale(s: GuardedSession) -> None:
    with anyio.fail_after(5):
        while not s.listing_stale:
            await anyio.sleep(0.01)


@pytest.mark.parametrize("variant", TAKEN + DROPPED)
def test_a_listing_answered_under_another_id_spelling_is_judged_by_the_engine_or_never_arrives(variant: str, tmp_path: Path) -> None:
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile(variant, "rug", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                if variant in DROPPED:
                    # The SDK drops the answer: the listing times out, nothing is pinned or callable.
                    with pytest.raises(MCPError):
                        await s.list_tools()
                    assert s.last_listing is None
                    with pytest.raises(CallRefused) as refused:
                        await s.call_tool("echo", {"message": "hi"})
                    assert refused.value.kind == "unknown-tool"
                    assert wire_lines(wire) == ["tools/list"]
                    return
                served = await s.list_tools()
                assert_no_poison(served_json(served), "the served listing")
                assert [t.name for t in served.tools] == ["echo"], "notes and search are hidden"
                assert sorted(h["name"] for h in s.last_listing["outcome"]["hidden"]) == ["notes", "search"]
                result = await s.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == "called echo"
                with pytest.raises(CallRefused) as hidden:
                    await s.call_tool("notes", {})
                assert hidden.value.kind == "hidden-tool"
                # The rug pull, announced after that call and listed under the same spelling.
                await wait_stale(s)
                with pytest.raises(CallRefused) as closed:
                    await s.call_tool("echo", {"message": "again"})
                assert closed.value.kind == "session-invalidated"
                assert_no_poison(str(closed.value), "the refusal")
                assert wire_lines(wire) == ["tools/list", "tools/call echo", "tools/list"]

    run(body)


@pytest.mark.parametrize("variant", TAKEN + DROPPED)
def test_two_answers_for_one_id_the_caller_gets_the_engines_judgment_of_the_one_the_sdk_took(variant: str, tmp_path: Path) -> None:
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile(variant, "raw-first", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                served = await s.list_tools()
                assert_no_poison(served_json(served), "the served listing")
                assert [t.name for t in served.tools] == ["echo"]
                hidden = sorted(h["name"] for h in s.last_listing["outcome"]["hidden"])
                # Taken: the poisoned first answer, judged; dropped: the exact second one.
                assert hidden == (["notes", "search"] if variant in TAKEN else [])
                again = await s.list_tools()
                assert_no_poison(served_json(again), "the re-list")
                assert s.last_listing["drift"] == []
                result = await s.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == ("first" if variant in TAKEN else "second")
                assert wire_lines(wire) == ["tools/list", "tools/list", "tools/call echo"]

    run(body)


@pytest.mark.parametrize("variant", TAKEN + DROPPED)
def test_a_second_answer_and_an_unsolicited_answer_for_the_next_id_are_never_taken(variant: str, tmp_path: Path) -> None:
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile(variant, "exact-first", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                served = await s.list_tools()
                assert [t.description for t in served.tools if t.name == "echo"] == ["Echoes the message back"]
                again = await s.list_tools()
                assert_no_poison(served_json(again), "the re-list")
                assert s.last_listing["drift"] == [], "the rug pull sent ahead for the re-list's id was not taken"
                result = await s.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == "first"
                assert wire_lines(wire) == ["tools/list", "tools/list", "tools/call echo"]

    run(body)


def test_the_wrapped_sessions_own_paths_are_guarded(tmp_path: Path) -> None:
    """send_request with tools/list or tools/call is refused before the wire;
    the session's own list_tools/call_tool are the guarded ones; the SDK's
    per-tool caches hold what the engine served."""
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile("string", "rug", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                with pytest.raises(GuardError) as raw_list:
                    await s.send_request(types.ListToolsRequest(), types.ListToolsResult)
                assert raw_list.value.kind == "unguarded-request"
                assert wire_lines(wire) == []

                served = await s.session.list_tools()
                assert_no_poison(served_json(served), "session.list_tools()")
                assert s.last_listing["outcome"]["hidden"], "it went through the engine"
                # The SDK's output-schema cache (used to validate call results)
                # was filled from the served listing: the hidden tools are not in it.
                assert set(getattr(s.session, "_tool_output_schemas", {"echo": None})) == {"echo"}

                with pytest.raises(CallRefused) as gated:
                    await s.session.call_tool("notes", {})
                assert gated.value.kind == "hidden-tool"
                with pytest.raises(GuardError) as raw_call:
                    await s.session.send_request(
                        types.CallToolRequest(params=types.CallToolRequestParams(name="notes", arguments={})), types.CallToolResult
                    )
                assert raw_call.value.kind == "unguarded-request"
                result = await s.session.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == "called echo"
                assert wire_lines(wire) == ["tools/list", "tools/call echo"]

    run(body)


def test_a_session_is_wrapped_once(tmp_path: Path) -> None:
    async def body() -> None:
        async with stdio_client(hostile("exact", "rug", tmp_path / "wire.log")) as (r, w):
            async with guarded_session(r, w, Guard()) as s:
                with pytest.raises(TypeError):
                    GuardedSession(s.session, Guard())

    run(body)


def test_the_served_listing_keeps_the_2026_result_fields(tmp_path: Path) -> None:
    async def body() -> None:
        async with stdio_client(hostile("exact", "rug", tmp_path / "wire.log")) as (r, w):
            async with guarded_session(r, w, Guard()) as s:
                served = await s.list_tools()
                # Over the handshake (2025-11-25) the SDK drops a later
                # revision's fields before anyone sees them; _meta is kept.
                assert served.meta == {"example.com/trace": "t-1"}
                catalog = s.last_listing["outcome"]["catalog"]
                assert catalog.get("_meta") == {"example.com/trace": "t-1"}

    run(body)
