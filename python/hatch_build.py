"""Build hook: put the engine component into the package before hatchling packs it.

The component is a build product of the Rust workspace (`scripts/build-component.sh`
writes `dist/mcp-guard.wasm` at the repository root) and is not committed. This hook
copies it to `src/mcp_guard/mcp-guard.wasm`, which `pyproject.toml` lists as a build
artifact, for both the sdist and the wheel. Source, first found:

1. `$MCP_GUARD_WASM` (a path to the component);
2. `../dist/mcp-guard.wasm` next to this `python/` directory (a repository checkout);
3. the copy already in the package (a wheel built from an sdist, which carries it).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class WasmHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        root = Path(self.root)
        dest = root / "src" / "mcp_guard" / "mcp-guard.wasm"
        env = os.environ.get("MCP_GUARD_WASM")
        candidates = [Path(env)] if env else []
        candidates.append(root.parent / "dist" / "mcp-guard.wasm")
        for src in candidates:
            if src.is_file():
                if not dest.is_file() or src.read_bytes() != dest.read_bytes():
                    shutil.copyfile(src, dest)
                break
        else:
            if not dest.is_file():
                raise RuntimeError(
                    "mcp-guard.wasm not found: run scripts/build-component.sh at the repository "
                    "root first, or set MCP_GUARD_WASM to the component's path"
                )
        if dest.read_bytes()[:8] != b"\x00asm\x0d\x00\x01\x00":
            raise RuntimeError(f"{dest} is not a WebAssembly component")
