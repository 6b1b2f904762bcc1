#!/usr/bin/env bash
# Builds the component and runs it in a real wasmtime host:
#
#   scripts/test-host.sh            # build dist/mcp-guard.wasm, run host/ tests,
#                                   # then the CLI's `--engine wasm` tests
#   scripts/test-host.sh parity     # extra args go to both `cargo test` runs (a filter)
#
# Release build: wasmtime's Cranelift is far too slow in debug. The release
# profile keeps LTO off on purpose (it would double the host build).
# The CLI run uses the same profile and adds no wasmtime features, so it
# reuses the wasmtime that the host/ test run built (no second build).
#
# Environment:
#   MCP_GUARD_REQUIRE_CONFORMANCE=1   fail if conformance/cases/ has no cases
#   MCP_GUARD_WASM                    test another component file
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

scripts/build-component.sh

# The tests find wasm-tools on PATH or in the venv the build script made.
cargo test -p mcp-guard-host --release "$@"

# `mcp-guard --engine wasm`: byte-identical output to the native engine.
cargo test -p mcp-guard-cli --features wasm --release "$@"
