#!/usr/bin/env bash
# End-to-end test of `mcp-guard proxy` (issue #6): the official MCP
# TypeScript SDK client drives real stdio servers through the proxy
# (@modelcontextprotocol/server-everything from npm, and the SDK-based
# rug-pull server cli/tests/e2e/mutating-server.mjs).
#
#   scripts/test-proxy.sh
#
# Installs the test's npm packages from cli/tests/e2e/package-lock.json
# (npm ci) when they are missing or stale, builds the CLI (debug), runs
# `node --test`. Needs Node.js >= 18 and npm.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
e2e=cli/tests/e2e

# npm ci wipes node_modules; only when the lock changed since the last install.
if [ ! -f "$e2e/node_modules/.package-lock.json" ] || [ "$e2e/package-lock.json" -nt "$e2e/node_modules/.package-lock.json" ]; then
  (cd "$e2e" && npm ci --no-audit --no-fund)
fi

cargo build -q -p mcp-guard-cli
export MCP_GUARD_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/mcp-guard"
node --test "$e2e/proxy.test.mjs"
