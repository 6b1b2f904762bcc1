"""The shared conformance suite (`conformance/cases/*/`) through the Python package.

The same files drive the native engine (`tests/conformance.rs`) and the
wasmtime host (`host/tests/conformance.rs`); this runner only
translates, and compares the same way: `error` (the error kind, or null),
the sanitized `catalog`, and `findings`/`hidden` entries projected on the
keys each expected entry names (`detail` text is not API).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from mcp_guard import Guard, GuardError

from conftest import CASES


def cases() -> list[Path]:
    if not CASES.is_dir():
        return []
    return sorted(p for p in CASES.iterdir() if (p / "input.json").is_file())


def test_suite_is_present() -> None:
    found = cases()
    if os.environ.get("MCP_GUARD_REQUIRE_CONFORMANCE") == "1":
        assert len(found) >= 20, f"{CASES}: {len(found)} cases"


def project(got: list[dict[str, Any]], want: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: g.get(k) for k in w} for g, w in zip(got, want)]


@pytest.mark.parametrize("case", cases(), ids=lambda p: p.name)
def test_case(case: Path) -> None:
    text = (case / "input.json").read_text("utf-8")
    policy = (case / "policy.json").read_text("utf-8") if (case / "policy.json").is_file() else "{}"
    opts = json.loads((case / "options.json").read_text("utf-8")) if (case / "options.json").is_file() else {}
    expected = json.loads((case / "expected.json").read_text("utf-8"))

    guard = Guard(policy)
    try:
        out = guard.sanitize(text, server=opts.get("server"), foreign_names=opts.get("foreign_names") or [])
    except GuardError as e:
        assert expected["error"] == e.kind, f"unexpected error {e.kind}: {e}"
        return
    assert expected["error"] is None, f"expected error {expected['error']}, got an outcome"

    assert out["catalog"] == expected["catalog"]
    # Numbers compared by lexeme too: json.loads makes 1 == 1.0.
    assert json.dumps(out["catalog"], sort_keys=True) == json.dumps(expected["catalog"], sort_keys=True)
    for key in ("findings", "hidden"):
        want = expected[key]
        got = out[key]
        assert len(got) == len(want), f"{key}: {len(got)} entries, expected {len(want)}:\n{got}"
        assert project(got, want) == want  # type: ignore[arg-type]
