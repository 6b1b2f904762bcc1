#!/usr/bin/env bash
# Added latency of `mcp-guard proxy --url` per listing and per call over
# loopback, against the same Streamable HTTP server direct, in one run
# (scripts/bench-proxy-http.mjs prints the table).
#
#   scripts/bench-proxy-http.sh            # N=300 TOOLS=50 MODE=json
#   N=1000 TOOLS=200 MODE=sse scripts/bench-proxy-http.sh
#
# Builds the CLI in release mode and installs cli/tests/e2e's npm packages
# (as scripts/test-proxy.sh does) when they are missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
e2e=cli/tests/e2e
if [ ! -f "$e2e/node_modules/.package-lock.json" ] || [ "$e2e/package-lock.json" -nt "$e2e/node_modules/.package-lock.json" ]; then
  (cd "$e2e" && npm ci --no-audit --no-fund)
fi
cargo build -q --release -p mcp-guard-cli
export MCP_GUARD_BIN="${CARGO_TARGET_DIR:-$root/target}/release/mcp-guard"
node scripts/bench-proxy-http.mjs
