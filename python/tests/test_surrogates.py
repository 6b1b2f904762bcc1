"""Strings that cannot cross the boundary (README, "Strings that cannot
cross"): the shared fixture parity/surrogates.json, read by every host's tests.

A `str` holding a surrogate code point (a lone UTF-16 half, or a byte decoded
with `surrogateescape`) has no UTF-8 form: it is refused before it crosses,
as `invalid-json` naming the argument and the index, never replaced. Bytes
that are not UTF-8 are `invalid-json` too. Escaped lone surrogates in JSON
text are the engine's to refuse, each argument under its own error; a dict
holding a lone surrogate is written with it escaped (as JSON.stringify does in
the npm package) and refused the same way."""

from __future__ import annotations

import json
import re
from typing import Any, Callable

import anyio
import pytest

import mcp.types as types
from mcp_guard import CallRefused, Guard, GuardError
from mcp_guard.mcp import GuardedSession

from conftest import ROOT

FIXTURE = json.loads((ROOT / "parity" / "surrogates.json").read_text(encoding="utf-8"))
CLEAN = '{"tools":[{"name":"echo","description":"Echoes the text back.","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}]}'
PH = re.compile(r"\{U\+([0-9A-F]{4})\}")


def expand(v: Any, baseline: str = "") -> Any:
    """`{U+D800}` in the fixture is that one code point; keys and values, recursively."""
    if isinstance(v, str):
        return PH.sub(lambda m: chr(int(m.group(1), 16)), v.replace("{BASELINE}", baseline))
    if isinstance(v, list):
        return [expand(x, baseline) for x in v]
    if isinstance(v, dict):
        return {expand(k): expand(x, baseline) for k, x in v.items()}
    return v


def to_bytes(s: str) -> bytes:
    """`{0xFF}` in the fixture is that one byte."""
    parts = re.split(r"\{0x([0-9A-F]{2})\}", s)
    return b"".join(bytes([int(p, 16)]) if i % 2 else p.encode() for i, p in enumerate(parts))


@pytest.fixture(scope="module")
def guard() -> Guard:
    return Guard()


@pytest.fixture(scope="module")
def baseline(guard: Guard) -> str:
    return guard.pin(CLEAN)["baseline"]


def calls_with(argument: str, value: Any, g: Guard, baseline: str) -> list[tuple[str, str, Callable[[], Any]]]:
    """Every `Guard` method that takes `argument`: (method, Python argument name, call)."""
    table: dict[str, list[tuple[str, str, Callable[[], Any]]]] = {
        "catalog": [
            ("sanitize", "catalog", lambda: g.sanitize(value)),
            ("pin", "catalog", lambda: g.pin(value)),
            ("compare", "catalog", lambda: g.compare(baseline, value)),
            ("estimate_tokens", "catalog", lambda: g.estimate_tokens(value)),
        ],
        "policy": [("Guard", "policy", lambda: Guard(value))],
        "baseline": [
            ("compare", "baseline", lambda: g.compare(value, CLEAN)),
            ("check_call", "baseline", lambda: g.check_call(value, "echo", {})),
            ("search", "baseline", lambda: g.search(value, "echo")),
            ("tool_schema", "baseline", lambda: g.tool_schema(value, "echo")),
        ],
        "name": [
            ("check_call", "name", lambda: g.check_call(baseline, value, {})),
            ("tool_schema", "name", lambda: g.tool_schema(baseline, value)),
            ("tool_name_ok", "name", lambda: g.tool_name_ok(value, "none")),
        ],
        "query": [("search", "query", lambda: g.search(baseline, value))],
        "server": [
            ("sanitize", "server", lambda: g.sanitize(CLEAN, server=value)),
            ("pin", "server", lambda: g.pin(CLEAN, server=value)),
            ("compare", "server", lambda: g.compare(baseline, CLEAN, server=value)),
        ],
        "foreign-names": [("sanitize", "foreign_names[1]", lambda: g.sanitize(CLEAN, foreign_names=["ok", value]))],
        "arguments": [
            ("check_call", "arguments", lambda: g.check_call(baseline, "echo", value)),
            ("coerce_arguments", "arguments", lambda: g.coerce_arguments('{"type":"object"}', "none", value)),
        ],
        "schema": [
            ("normalize_schema", "schema", lambda: g.normalize_schema(value)),
            ("validate", "schema", lambda: g.validate(value, {})),
            ("coerce_arguments", "original_schema", lambda: g.coerce_arguments(value, "none", "{}")),
        ],
    }
    return table[argument]


def test_host_strings_with_a_surrogate_are_refused_before_they_cross_naming_the_argument_and_index(guard: Guard, baseline: str) -> None:
    n = 0
    for c in FIXTURE["host_strings"]:
        value = expand(c["value"], baseline)
        expect = c["expect"]
        if "served_description" in expect:
            assert guard.sanitize(value)["catalog"]["tools"][0]["description"] == expect["served_description"], c["case"]
            continue
        index = len(baseline) if expect["index"] == "len(baseline)" else expect["index"]
        for via, argument, f in calls_with(c["argument"], value, guard, baseline):
            with pytest.raises(GuardError) as e:
                f()
            where = f"{c['case']} via {via}"
            assert e.value.kind == expect["error"], where
            assert e.value.detail["argument"] == argument, where
            assert e.value.detail["index"] == index, where
            assert e.value.detail["offset"] == len(value[:index].encode()), where
            assert re.search(r"U\+D[89A-F][0-9A-F]{2}", str(e.value)), where
            n += 1
    assert n >= 20, n
    # The engine still runs after every refusal (nothing crossed, nothing trapped).
    assert guard.sanitize(CLEAN)["catalog"]["tools"][0]["name"] == "echo"


def test_a_surrogate_pair_as_two_code_points_has_no_utf8_form_either(guard: Guard) -> None:
    # Python's str is code points: the pair of halves is not the character
    # it would encode in UTF-16 (the character itself, '\U0001F600', crosses).
    text = CLEAN.replace("the text", "\ud83d\ude00")
    with pytest.raises(GuardError) as e:
        guard.sanitize(text)
    assert e.value.kind == "invalid-json" and e.value.detail["index"] == text.index("\ud83d")
    assert guard.sanitize(CLEAN.replace("the text", "\U0001F600"))["catalog"]["tools"][0]["description"] == "Echoes \U0001F600 back."


def test_escaped_lone_surrogates_in_json_text_are_the_engines_to_refuse(guard: Guard, baseline: str) -> None:
    for c in FIXTURE["json_text"]:
        text, expect, case = c["text"], c["expect"], c["case"]
        arg = c["argument"]
        if arg == "catalog" and "served_description" in expect:
            assert guard.sanitize(text)["catalog"]["tools"][0]["description"] == expect["served_description"], case
            assert guard.pin(text.encode())["outcome"]["catalog"]["tools"][0]["description"] == expect["served_description"], case
            continue
        if arg == "arguments":
            d = guard.check_call(baseline, "echo", text)
            assert (d["action"], d["reason"]) == ("refuse", expect["refuse"]), case
            continue
        calls: list[Callable[[], Any]] = {
            "catalog": [lambda: guard.sanitize(text), lambda: guard.pin(text.encode()), lambda: guard.compare(baseline, text)],
            "policy": [lambda: Guard(text), lambda: Guard(text.encode())],
            "baseline": [lambda: guard.compare(text, CLEAN), lambda: guard.check_call(text, "echo", {})],
            "schema": [lambda: guard.normalize_schema(text)],
        }[arg]
        for f in calls:
            with pytest.raises(GuardError) as e:
                f()
            assert e.value.kind == expect["error"], case


def test_bytes_that_are_not_utf8_are_invalid_json(guard: Guard) -> None:
    for c in FIXTURE["not_utf8"]:
        data = to_bytes(c["bytes"])
        f = (lambda: Guard(data)) if c["argument"] == "policy" else (lambda: guard.sanitize(data))
        with pytest.raises(GuardError) as e:
            f()
        assert e.value.kind == c["expect"]["error"], c["case"]


def test_dicts_holding_a_lone_surrogate_are_escaped_and_refused_like_json_text(guard: Guard, baseline: str) -> None:
    for c in FIXTURE["host_values"]:
        value = expand(c["value"])
        if c["argument"] == "catalog":
            for f in (lambda: guard.sanitize(value), lambda: guard.pin(value), lambda: guard.compare(baseline, value)):
                with pytest.raises(GuardError) as e:
                    f()
                assert e.value.kind == c["expect"]["error"], c["case"]
        else:
            d = guard.check_call(baseline, "echo", value)
            assert (d["action"], d["reason"]) == ("refuse", c["expect"]["refuse"]), c["case"]
    # surrogateescape: undecodable bytes smuggled into a str, inside a dict.
    smuggled = json.loads(CLEAN)
    smuggled["tools"][0]["description"] = b"Echoes \xff".decode("utf-8", "surrogateescape")
    with pytest.raises(GuardError) as e:
        guard.sanitize(smuggled)
    assert e.value.kind == "invalid-json"
    # validate's instance is a value: the same rule (a violation, as in npm).
    (v,) = guard.validate({"type": "string"}, "\ud800")
    assert v["pointer"] == "" and "surrogate" in v["reason"]


def test_the_sdk_refuses_a_lone_surrogate_escape_on_the_wire_before_the_wrapper() -> None:
    # The `mcp` SDK's transports parse each message with pydantic (jiter),
    # which refuses a lone surrogate escape: the listing fails in the SDK,
    # nothing reaches GuardedSession (and so nothing is pinned).
    line = '{"jsonrpc":"2.0","id":1,"result":' + FIXTURE["json_text"][0]["text"] + "}"
    with pytest.raises(ValueError):
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)


async def in_process_server(read: Any, write: Any, description: list[str], sent: list[str]) -> None:
    """A server on in-memory streams (an in-process transport): its answers
    are Python objects, so a lone surrogate reaches the session as one
    (over a wire the SDK's parser refuses it first)."""
    from mcp.shared.message import SessionMessage

    async for item in read:
        m = item.message
        if not isinstance(m, types.JSONRPCRequest):
            continue
        if m.method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": m.params["protocolVersion"],
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "in-process", "version": "1"},
            }
        elif m.method == "tools/list":
            schema = {"type": "object", "properties": {"text": {"type": "string"}}}
            result = {"tools": [{"name": "echo", "description": description[0], "inputSchema": schema}]}
        elif m.method == "tools/call":
            sent.append(m.params["name"])
            result = {"content": []}
        else:
            continue
        await write.send(SessionMessage(message=types.JSONRPCResponse(jsonrpc="2.0", id=m.id, result=result)))


def test_guarded_session_fails_a_surrogate_listing_closed_and_never_sends_a_surrogate_call() -> None:
    from mcp import ClientSession

    async def body() -> None:
        c2s_send, c2s_recv = anyio.create_memory_object_stream[Any](16)
        s2c_send, s2c_recv = anyio.create_memory_object_stream[Any](16)
        description = ["Echoes \ud800 back."]
        sent: list[str] = []
        async with anyio.create_task_group() as tg:
            tg.start_soon(in_process_server, c2s_recv, s2c_send, description, sent)
            async with ClientSession(s2c_recv, c2s_send) as session:
                s = GuardedSession(session, Guard())
                await session.initialize()
                # The mediator cannot read the answer: the listing fails closed.
                with pytest.raises(GuardError) as e:
                    await s.list_tools()
                assert e.value.kind == "invalid-json"
                assert await s.store.get(s.session_key) is None, "nothing pinned"
                description[0] = "Echoes"
                await s.list_tools()
                with pytest.raises(GuardError) as e:
                    await s.call_tool("echo\udc00", {})
                assert e.value.kind == "invalid-json" and e.value.detail["argument"] == "name"
                with pytest.raises(CallRefused) as r:
                    await s.call_tool("echo", {"text": "\udc00"})
                assert r.value.reason == "invalid-arguments"
                await s.call_tool("echo", {})
                assert sent == ["echo"], "only the clean call reached the server"
            tg.cancel_scope.cancel()

    anyio.run(body)
