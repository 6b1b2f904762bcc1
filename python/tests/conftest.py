"""Shared paths and helpers for the package's tests (real component, real servers)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "conformance" / "cases"
SERVERS = Path(__file__).resolve().parent / "servers"


def corpus_file() -> Path:
    return ROOT / "testdata" / "bench" / "shared-real-tools.json"


def python_server(name: str) -> tuple[str, list[str]]:
    """Command and args that run one of `tests/servers/*.py` over stdio."""
    return sys.executable, [str(SERVERS / name)]


@pytest.fixture(scope="session")
def corpus_text() -> str:
    p = corpus_file()
    if not p.is_file():
        if os.environ.get("MCP_GUARD_REQUIRE_CORPUS") == "1":
            pytest.fail(f"{p} missing (MCP_GUARD_REQUIRE_CORPUS=1)")
        pytest.skip(f"{p} missing")
    return p.read_text("utf-8")
