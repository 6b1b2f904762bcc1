#!/usr/bin/env bash
# End-to-end test of `mcp-guard proxy` (issue #6): the official MCP
# TypeScript SDK client drives real stdio servers through the proxy
# (@modelcontextprotocol/server-everything from npm, the SDK-based rug-pull
# server cli/tests/e2e/mutating-server.mjs, and hostile-ids-server.mjs, which
# answers under ids a client would take for its own request); the same
# client through `proxy --url` to Streamable HTTP servers on loopback (the
# SDK's StreamableHTTPServerTransport, JSON and SSE answers, and a hostile
# server: http.test.mjs); and the official Python SDK 2.x on both sides
# (protocol 2026-07-28), its server over stdio and over Streamable HTTP.
#
#   scripts/test-proxy.sh
#
# Installs the test's npm packages from cli/tests/e2e/package-lock.json
# (npm ci) and the Python ones from cli/tests/e2e/requirements.txt (a venv
# under $CARGO_TARGET_DIR/tools/proxy-pyvenv) when they are missing or stale,
# builds the CLI (debug), runs `node --test` and pytest. Needs Node.js >= 18,
# npm and python3 >= 3.10.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
e2e=cli/tests/e2e

# npm ci wipes node_modules; only when the lock changed since the last install.
if [ ! -f "$e2e/node_modules/.package-lock.json" ] || [ "$e2e/package-lock.json" -nt "$e2e/node_modules/.package-lock.json" ]; then
  (cd "$e2e" && npm ci --no-audit --no-fund)
fi

# A venv of its own (not test-python.sh's: that one needs the component);
# reinstalled when requirements.txt changed since the last install.
venv="${CARGO_TARGET_DIR:-$root/target}/tools/proxy-pyvenv"
if [ ! -f "$venv/.installed" ] || [ "$e2e/requirements.txt" -nt "$venv/.installed" ]; then
  [ -x "$venv/bin/python" ] || python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$e2e/requirements.txt"
  touch "$venv/.installed"
fi

cargo build -q -p mcp-guard-cli
export MCP_GUARD_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/mcp-guard"
# http.test.mjs starts the Python SDK's HTTP server with it.
export MCP_GUARD_PYTHON="$venv/bin/python"
# No test may keep pin records in the user's state directory.
export XDG_STATE_HOME="$(mktemp -d)"
trap 'rm -rf "$XDG_STATE_HOME"' EXIT
node --test "$e2e/proxy.test.mjs" "$e2e/hostile-ids.test.mjs" "$e2e/http.test.mjs" "$e2e/pins.test.mjs"
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$e2e/test_python_sdk.py" "$e2e/test_served_results.py"
