"""The package's own lifters (`_component.Call`) against wasmtime-py's generic
conversion (`Func.__call__`), value for value: every conformance case and the
real corpus. A wasmtime-py release that changed the C value layout would fail
here, not in users' hands."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mcp_guard import Guard
from mcp_guard._component import _from_generic, shared

from conftest import CASES


def both(g: Guard, text: str) -> tuple[Any, Any]:
    inst = g._ensure()
    opts = g._options(None, ["send_email"])
    fast = inst.sanitize(inst.store, g._policy, text, opts)
    func = inst.instance.get_func(inst.store, shared().index("sanitize", "[method]policy.sanitize"))
    generic = _from_generic(func(inst.store, g._policy, text, opts))
    return fast, generic


def inputs() -> list[Path]:
    return sorted(CASES.glob("*/input.json"))


@pytest.mark.parametrize("path", inputs(), ids=lambda p: p.parent.name)
def test_fast_lift_equals_generic_lift_on_conformance_inputs(path: Path) -> None:
    policy = path.parent / "policy.json"
    g = Guard(policy.read_text() if policy.is_file() else "{}")
    fast, generic = both(g, path.read_text("utf-8"))
    # The generic path leaves `result<outcome, error>` untagged (its cases lift to
    # different Python classes): the bare outcome, or the bare error variant.
    _, value = fast
    assert value == generic


def test_fast_lift_equals_generic_lift_on_the_real_corpus(corpus_text: str) -> None:
    fast, generic = both(Guard(), corpus_text)
    assert fast[0] == "ok"
    assert fast[1] == generic
    assert len(generic["findings"]) > 100 and len(generic["tools"]) > 800


def test_pinning_results_lift_like_the_generic_path() -> None:
    g = Guard({"core": {"tool_definition_pinning": {"mode": "block", "block_strategy": "error"}}})
    inst = g._ensure()
    opts = g._options(None, [])
    cat = '{"tools":[{"name":"a","description":"x","inputSchema":{"type":"object"}}]}'
    pinned = inst.pin(inst.store, g._policy, cat, opts)
    pin_generic = inst.instance.get_func(inst.store, shared().index("pinning", "pin"))
    assert pinned[1] == _from_generic(pin_generic(inst.store, g._policy, cat, opts))
    baseline = pinned[1]["baseline"]
    drifted = cat.replace('"x"', '"y"')
    fast = inst.compare(inst.store, g._policy, baseline, drifted, opts)
    generic = _from_generic(inst.instance.get_func(inst.store, shared().index("pinning", "compare"))(inst.store, g._policy, baseline, drifted, opts))
    # The generic path leaves the untagged `decision` variant bare (a record for `refuse`).
    fast[1]["decision"] = fast[1]["decision"][1]
    assert fast[1] == generic
    check = inst.instance.get_func(inst.store, shared().index("pinning", "check-call"))
    for name in ("a", "b"):
        f = inst.check_call(inst.store, baseline, name, "{}")
        # `result<call-decision, error>`: both cases are variants, so the generic path tags it.
        assert f == _from_generic(check(inst.store, baseline, name, "{}"))


def test_discovery_results_lift_like_the_generic_path() -> None:
    """The `respond` case of `call-decision` and the `discovery` interface:
    `search-hit` records (with an absent and a present `title`), `option<string>`
    inside a `result`, a bare `u64`, and the error case of each."""
    g = Guard({"core": {"discovery": {"mode": "on", "core_tools": ["a"]}}})
    inst = g._ensure()
    cat = (
        '{"tools":[{"name":"a","description":"x","inputSchema":{"type":"object"}},'
        '{"name":"get-sum","title":"Sum","description":"Returns the sum of two numbers",'
        '"inputSchema":{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}}}},'
        '{"name":"add-all","description":"Adds a list of numbers","inputSchema":{"type":"object"}}]}'
    )
    baseline = inst.pin(inst.store, g._policy, cat, g._options(None, []))[1]["baseline"]

    def generic(iface: str, func: str, *args: object) -> object:
        return _from_generic(inst.instance.get_func(inst.store, shared().index(iface, func))(inst.store, *args))

    # check-call: `result<call-decision, error>` is tagged on both paths.
    for name, args in [
        ("search_tools", '{"query":"add numbers"}'),
        ("get_tool_schema", '{"name":"get-sum"}'),
        ("call_tool", '{"name":"get-sum","arguments":{"a":1,"b":"2"}}'),
        ("call_tool", '{"name":"search_tools","arguments":{}}'),
    ]:
        fast = inst.check_call(inst.store, baseline, name, args)
        assert fast == generic("pinning", "check-call", baseline, name, args), name
    assert inst.check_call(inst.store, baseline, "search_tools", '{"query":"sum"}')[1][0] == "respond"

    # The generic path leaves `result<list<..>, error>` and `result<option<..>, error>`
    # untagged: the bare value, or the bare error variant.
    hits = inst.search(inst.store, baseline, "add numbers", 5)
    assert hits[0] == "ok" and {h["title"] for h in hits[1]} == {"Sum", None}
    assert hits[1] == generic("discovery", "search", baseline, "add numbers", 5)
    for b, name in [(baseline, "get-sum"), (baseline, "nope"), ("not a baseline", "x")]:
        fast = inst.tool_schema(inst.store, b, name)
        assert fast[1] == generic("discovery", "tool-schema", b, name), name
    assert inst.tool_schema(inst.store, baseline, "nope") == ("ok", None)
    bad = inst.search(inst.store, "not a baseline", "x", 1)
    assert bad[0] == "err" and bad[1] == generic("discovery", "search", "not a baseline", "x", 1)
    assert inst.estimate_tokens(inst.store, cat) == generic("discovery", "estimate-tokens", cat) == -(-len(cat) // 4)
