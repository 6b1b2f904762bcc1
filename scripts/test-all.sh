#!/usr/bin/env bash
# Every test, every host: the README's second command and what CI runs.
#
#   scripts/test-all.sh
#
# Installs what it needs itself (rust wasm target, wasm-tools, cargo-fuzz).
# A persistent target dir outside the clone keeps rebuilds warm between runs
# on the same machine (CI clones afresh); override with CARGO_TARGET_DIR.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$HOME/.cache/mcp-guard/target}"
export MCP_GUARD_REQUIRE_CONFORMANCE=1
t0=$(date +%s)
step() { echo; echo "== $* ($(( $(date +%s) - t0 ))s)"; }

step "repository: self-contained (reads nothing beside the clone), behaviours named (no seed numbers)"
scripts/check-repo.sh

# The large adversarial catalogs are generated, not committed (testdata/README.md).
python3 testdata/make-large-adversarial.py

step "engine + CLI: unit, golden, conformance, corpus, adversarial, property tests"
cargo test

step "component in wasmtime: parity, conformance, sandbox limits"
scripts/test-host.sh

step "proxy end to end: the MCP TypeScript and Python SDK clients through mcp-guard proxy"
scripts/test-proxy.sh

step "Envoy filter: the MCP SDK client and server through a real Envoy 1.40"
scripts/test-envoy.sh

step "Python package: conformance, mcp SDK end to end, Redis store, wheel"
scripts/test-python.sh

step "npm package: conformance, MCP SDK end to end, Redis store, npm pack + install"
scripts/test-js.sh

step "parity: conformance + corpus x 5 policies through native, wasmtime, npm, Python (byte for byte) and Envoy"
scripts/parity.sh

step "fuzz smoke (${FUZZ_SECONDS:-20}s per target)"
scripts/fuzz.sh "${FUZZ_SECONDS:-20}"

step "done"
