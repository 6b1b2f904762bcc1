"""JSON-RPC id confusion against `guarded_session`, end to end: the official
`mcp` SDK's ClientSession (2.3), wrapped by the package, on a hostile stdio
server (`servers/hostile_ids_server.py`) that answers every guarded request
under an id spelled another way, with a second, different answer for the
same id, and with an answer for the id it predicts the client sends next.

What the SDK would do with them (`JSONRPCDispatcher._resolve_pending` keys
pending requests by `coerce_request_id(id)`, `int(id)` for a string that
parses: `"3"`, `" 3 "`, `"+3"`, `"0_3"`, `"٣"` all answer request 3) no
longer matters: the session is mediated, so the server only ever sees ids
the mediator minted (`"mcp-guard-<uuid>-<n>"`, strings that read as no
number, which every spelling below leaves as they are), an answer is taken
only under such an id exactly, and the SDK gets it back under its own id.
The loose spellings against the mediator itself are the conformance cases
`loose-id-answer-*` (tests/test_mediation.py). These tests hold the wrapper
to what the caller sees: every listing judged by the engine, only gated
`tools/call` requests on the wire, whatever the server writes.
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

from mcp_guard import CallRefused, Guard, ListingRefused
from mcp_guard.mcp import GuardedSession, guarded_session

from conftest import python_server

POLICY = {
    "core": {
        "tool_poisoning": {"mode": "block"},
        "tool_definition_pinning": {"mode": "block", "block_strategy": "error", "block_error_session_action": "invalidate"},
    }
}
# The spellings a client might take for the request's id (the SDK's
# `int(id)` takes the first six, drops the others); against minted ids each
# is the id itself.
VARIANTS = ["exact", "string", "padded", "plus", "underscore", "arabic-digits", "float", "exp", "hex", "string-float"]
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


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_listing_answered_under_another_id_spelling_is_judged_by_the_engine(variant: str, tmp_path: Path) -> None:
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile(variant, "rug", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
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


@pytest.mark.parametrize("variant", VARIANTS)
def test_two_answers_for_one_id_the_caller_gets_the_engines_judgment_of_the_one_the_sdk_took(variant: str, tmp_path: Path) -> None:
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile(variant, "raw-first", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                served = await s.list_tools()
                assert_no_poison(served_json(served), "the served listing")
                assert [t.name for t in served.tools] == ["echo"]
                hidden = sorted(h["name"] for h in s.last_listing["outcome"]["hidden"])
                # Taken: the poisoned first answer, judged; the second one is dropped.
                assert hidden == ["notes", "search"]
                again = await s.list_tools()
                assert_no_poison(served_json(again), "the re-list")
                assert s.last_listing["drift"] == []
                result = await s.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == "first"
                assert wire_lines(wire) == ["tools/list", "tools/list", "tools/call echo"]

    run(body)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_second_answer_is_never_taken_and_an_answer_sent_ahead_for_the_next_id_is_judged(variant: str, tmp_path: Path) -> None:
    """The server answers the first listing twice (honest, then the rug pull)
    and sends the rug pull ahead for the id it predicts the next listing
    gets. The second answer is dropped. The one sent ahead is dropped when
    the mediator reads it before it mints that id; when the session's reader
    is slower than the client (it may be), the id is pending by then and
    the answer is taken: it is then the re-list's answer, judged like any
    other (the rug pull closes the session). Either way nothing poisoned is
    served, and nothing is called after a refusal."""
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile(variant, "exact-first", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                served = await s.list_tools()
                assert [t.description for t in served.tools if t.name == "echo"] == ["Echoes the message back"]
                try:
                    again = await s.list_tools()
                except ListingRefused as refused:
                    assert refused.kind == "session-invalidated"
                    assert [d["name"] for d in s.last_listing["drift"]] == ["echo"]
                    with pytest.raises(CallRefused):
                        await s.call_tool("echo", {"message": "hi"})
                    # (The server may log the second tools/list after its answer, sent ahead, was taken.)
                    assert "tools/call echo" not in wire_lines(wire)
                    return
                assert_no_poison(served_json(again), "the re-list")
                assert s.last_listing["drift"] == []
                result = await s.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == "first"
                assert wire_lines(wire) == ["tools/list", "tools/list", "tools/call echo"]

    run(body)


def test_every_path_of_the_wrapped_session_is_mediated(tmp_path: Path) -> None:
    """A raw send_request of tools/list or tools/call goes through the
    mediator like any other message: the listing is the sanitized one, the
    call is gated before the wire. The session's own list_tools/call_tool
    are the guarded ones; the SDK's per-tool caches hold what was served."""
    wire = tmp_path / "wire.log"

    async def body() -> None:
        async with stdio_client(hostile("string", "rug", wire)) as (r, w):
            async with guarded_session(r, w, Guard(POLICY), read_timeout_seconds=TIMEOUT) as s:
                raw_list = await s.session.send_request(types.ListToolsRequest(), types.ListToolsResult)
                assert_no_poison(served_json(raw_list), "a raw tools/list")
                assert [t.name for t in raw_list.tools] == ["echo"]
                assert s.last_listing["outcome"]["hidden"], "it went through the engine"

                served = await s.session.list_tools()
                assert_no_poison(served_json(served), "session.list_tools()")
                assert s.last_listing["drift"] == []
                # The SDK's output-schema cache (used to validate call results)
                # was filled from the served listing: the hidden tools are not in it.
                assert set(getattr(s.session, "_tool_output_schemas", {"echo": None})) == {"echo"}

                with pytest.raises(CallRefused) as gated:
                    await s.session.call_tool("notes", {})
                assert gated.value.kind == "hidden-tool"
                with pytest.raises(MCPError) as raw_call:
                    await s.session.send_request(
                        types.CallToolRequest(params=types.CallToolRequestParams(name="notes", arguments={})), types.CallToolResult
                    )
                assert raw_call.value.error.data["reason"] == "hidden-tool"
                result = await s.session.call_tool("echo", {"message": "hi"})
                assert result.content[0].text == "called echo"
                assert wire_lines(wire) == ["tools/list", "tools/list", "tools/call echo"]

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
