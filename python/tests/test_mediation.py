"""The mediation conformance cases (`conformance/mediation/*.json`) through
the Python package: the scripted conversations the native engine replays
(tests/mediation.rs), here against the component's `mediator` resource
(`Guard.mediator`), compared the same way: messages as compact JSON text,
key order and number spelling included; log lines in order, each as a subset
(texts for people may be left out of the expectation). A case with `record`
keeps pins across runs as tests/mediation.rs runs it: the mediator is made
with the record (`record=(key, stored)`), `persist` outputs are compared as
subsets and kept, `restart` makes a new mediator from the record last
persisted, and `approve` approves pending tools in it through
`Guard.record_approve` (what `pins.approve` does)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_guard import Guard, GuardError

from conftest import ROOT

CASES = sorted((ROOT / "conformance" / "mediation").glob("*.json"))


class Raw:
    """A JSON value with its exact compact text (`json.loads` would read the
    id `1e0` as `1.0`; the cases spell ids the way a hostile server does)."""

    def __init__(self, raw: str, entries: Any = None, items: Any = None) -> None:
        self.raw, self.entries, self.items = raw, entries, items

    def get(self, key: str) -> Any:
        return next((v for k, v in self.entries or [] if k == key), None)


def read_raw(text: str) -> Raw:
    i = 0

    def ws() -> None:
        nonlocal i
        while i < len(text) and text[i] in " \t\n\r":
            i += 1

    def string() -> str:
        nonlocal i
        start = i
        i += 1
        while text[i] != '"':
            i += 2 if text[i] == "\\" else 1
        i += 1
        return text[start:i]

    def value() -> Raw:
        nonlocal i
        ws()
        c = text[i]
        if c in "{[":
            obj = c == "{"
            i += 1
            items: list[tuple[Any, Raw]] = []
            ws()
            if text[i] != ("}" if obj else "]"):
                while True:
                    ws()
                    key = None
                    if obj:
                        key = string()
                        ws()
                        i += 1  # ':'
                    items.append((key, value()))
                    ws()
                    sep = text[i]
                    i += 1
                    if sep != ",":
                        break
            else:
                i += 1
            if obj:
                raw = "{" + ",".join(f"{k}:{v.raw}" for k, v in items) + "}"
                return Raw(raw, entries=[(json.loads(k), v) for k, v in items])
            return Raw("[" + ",".join(v.raw for _, v in items) + "]", items=[v for _, v in items])
        start = i
        if c == '"':
            string()
        else:
            while i < len(text) and text[i] not in ",}] \t\n\r":
                i += 1
        return Raw(text[start:i])

    return value()


def subset(want: Any, got: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(k in got and subset(v, got[k]) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(want) == len(got) and all(subset(w, g) for w, g in zip(want, got))
    return json.dumps(want) == json.dumps(got)


def test_the_mediation_suite_has_cases() -> None:
    assert len(CASES) >= 10, CASES


@pytest.mark.parametrize("path", CASES, ids=[p.name for p in CASES])
def test_mediation_case_replays_as_scripted(path: Path) -> None:
    text = path.read_text("utf-8")
    case = json.loads(text)
    raw = read_raw(text)
    options = case.get("options") or {}
    guard = Guard(case.get("policy") or {})
    rkey = (case.get("record") or {}).get("key")

    def start(stored: Any) -> Any:
        return guard.mediator(
            options.get("server"),
            options.get("foreign_names") or [],
            id_prefix=case.get("id_prefix", "mcp-guard-test"),
            record=None if rkey is None else (rkey, stored),
        )

    m = start(None)
    persisted = None
    try:
        for i, (step, step_raw) in enumerate(zip(case["steps"], raw.get("steps").items)):
            if step.get("restart") is True:
                m.close()
                m = start(persisted)
                continue
            if isinstance(step.get("approve"), list):
                assert persisted is not None, f"{path.name} step {i}: nothing persisted"
                persisted, _ = guard.record_approve(persisted, step["approve"])
                continue
            message = step_raw.get("message")
            data = message.raw if message is not None else step["text"]
            outs = m.on_client_message(data) if step["from"] == "client" else m.on_server_message(data)
            where = f"{path.name} step {i}"
            for key, to in (("to_server", "server"), ("to_client", "client")):
                want = [v.raw for v in (step_raw.get(key).items if step_raw.get(key) else [])]
                got = [read_raw(o["text"]).raw for o in outs if o["to"] == to]
                assert got == want, f"{where} {key}"
            persists = [json.loads(o["text"]) for o in outs if o["to"] == "persist"]
            want_persist = step.get("persist") or []
            assert len(want_persist) == len(persists) and all(subset(w, g) for w, g in zip(want_persist, persists)), (
                f"{where} persist:\n  want {want_persist}\n  got  {persists}"
            )
            persisted = next((o["text"] for o in reversed(outs) if o["to"] == "persist"), persisted)
            want_logs = step.get("log") or []
            got_logs = [o["log"] for o in outs if o["to"] == "log"]
            assert len(want_logs) == len(got_logs) and all(subset(w, g) for w, g in zip(want_logs, got_logs)), (
                f"{where} log:\n  want {want_logs}\n  got  {got_logs}"
            )
        if rkey is not None:
            assert persisted is not None, f"{path.name}: a record case persists a record"
            assert m.pin_record() == persisted, f"{path.name}: the record as it stands is the one last persisted"
    finally:
        m.close()
        guard.close()


def test_a_mediator_restored_from_a_stored_baseline_compares_and_forgets_it_on_request() -> None:
    guard = Guard()
    listing = {"tools": [{"name": "echo", "description": "Echoes", "inputSchema": {"type": "object"}}]}
    first = guard.mediator(id_prefix="mcp-guard-a")
    first.on_client_message({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    first.on_server_message({"jsonrpc": "2.0", "id": "mcp-guard-a-1", "result": listing})
    stored = first.baseline()
    assert isinstance(stored, str)

    # A later run: the stored baseline gates calls before any listing...
    later = guard.mediator(id_prefix="mcp-guard-b", baseline=stored)
    call = later.on_client_message({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo", "arguments": {}}})
    assert [o["to"] for o in call] == ["server"]
    # ...and its first listing is compared with it.
    later.on_client_message({"jsonrpc": "2.0", "id": 8, "method": "tools/list"})
    outs = later.on_server_message({"jsonrpc": "2.0", "id": "mcp-guard-b-2", "result": listing})
    assert next(o["log"] for o in outs if o["to"] == "log" and o["log"]["event"] == "listing")["baseline"] == "compared"

    # Forgotten: nothing is callable until a listing pins again.
    later.restore(None)
    assert later.baseline() is None
    refused = later.on_client_message({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "echo", "arguments": {}}})
    assert [o["to"] for o in refused] == ["client", "log"]
    assert json.loads(refused[0]["text"])["error"]["data"]["reason"] == "unknown-tool"

    # A baseline this engine cannot read is a typed error, not a guess.
    with pytest.raises(GuardError) as e:
        guard.mediator(baseline='{"format":"nope"}')
    assert e.value.kind == "invalid-baseline"
    with pytest.raises(GuardError) as e:
        later.restore("not json")
    assert e.value.kind == "invalid-baseline"
    with pytest.raises(GuardError) as e:
        guard.mediator(id_prefix="1-looks-like-a-number")
    assert e.value.kind == "other"


def test_upstream_http_routing_headers_follow_the_message_the_mediator_sends() -> None:
    """A server refuses a 2026-07-28 request whose `Mcp-Name` header and body
    disagree: after the mediator maps a visible name to the upstream one, and
    on the mediator's own requests, the headers are re-read from the message."""
    from mcp.shared.message import ClientMessageMetadata

    from mcp_guard.mcp import upstream_metadata

    client = ClientMessageMetadata(
        headers={"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/call", "mcp-name": "docs__search", "mcp-param-q": "x"}
    )
    mapped = '{"jsonrpc":"2.0","id":"mcp-guard-t-3","method":"tools/call","params":{"name":"search","arguments":{"q":"x"}}}'
    h = upstream_metadata(mapped, client, None).headers
    assert h["mcp-name"] == "search" and h["mcp-method"] == "tools/call" and h["mcp-param-q"] == "x"
    assert client.headers["mcp-name"] == "docs__search", "the client's metadata is not changed in place"

    own = '{"jsonrpc":"2.0","id":"mcp-guard-t-4","method":"tools/list","params":{"cursor":"p2"}}'
    h = upstream_metadata(own, None, client.headers).headers
    assert h == {"mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list"}
    # 2025-11-25 (no stamped headers): nothing is invented.
    assert upstream_metadata(own, None, None) is None
    assert upstream_metadata('{"jsonrpc":"2.0","id":"x","result":{}}', None, client.headers) is None
