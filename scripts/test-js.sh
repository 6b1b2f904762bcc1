#!/usr/bin/env bash
# Tests of the npm package (js/, issue #8) with node's test runner: the shared
# conformance suite through the package, the API and its TypeScript
# declarations, end to end with the MCP TypeScript SDK against
# @modelcontextprotocol/server-everything (stdio and Streamable HTTP on
# loopback) and an SDK McpServer (poisoned catalog, rug pulls), the Redis
# store against a real redis-server, and npm pack + install of the tarball.
#
#   scripts/test-js.sh
#
# Installs what it needs: js/'s npm packages from js/package-lock.json, and
# redis-server (Debian package) when it is missing. Builds the package
# (`npm run build`: the component too if dist/mcp-guard.wasm is missing).
# Starts redis-server on a random loopback port and stops it after.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/js"

# `npm ci` refuses jco's lock file (optional platform packages it lists are
# not on the registry: EUSAGE; TOOLCHAIN.md), so `npm install`, which follows
# the lock, and only when the lock changed since the last install.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-audit --no-fund
fi

if ! command -v redis-server >/dev/null 2>&1; then
  echo "test-js: installing redis-server (Debian)" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y redis-server >/dev/null 2>&1 || { apt-get update >/dev/null && apt-get install -y redis-server >/dev/null; }
fi

npm run build

port="$(node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no --loglevel warning >/dev/null &
redis_pid=$!
trap 'kill "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true' EXIT
for _ in $(seq 1 50); do
  if redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then break; fi
  kill -0 "$redis_pid" 2>/dev/null || { echo "test-js: redis-server exited" >&2; exit 1; }
  sleep 0.1
done
export MCP_GUARD_REDIS_URL="redis://127.0.0.1:$port"

node --test test/*.test.mjs
