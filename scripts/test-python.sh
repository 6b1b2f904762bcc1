#!/usr/bin/env bash
# The Python package (python/, issue #9): conformance suite, API, lifting
# parity, end to end with the official `mcp` SDK over stdio (mcp-server-time
# from PyPI, poisoned and rug-pulling SDK servers), the Redis store against a
# real redis-server, and the wheel in a clean venv.
#
#   scripts/test-python.sh [PYTEST ARGS...]
#
# Creates a venv under $CARGO_TARGET_DIR/tools/pyvenv (kept between runs),
# installs the package and its test dependencies, installs redis-server with
# apt-get when it is missing, and builds dist/mcp-guard.wasm when it is
# missing, older than wit/, or MCP_GUARD_REBUILD=1 (in scripts/test-all.sh the
# host step has just built it). Needs python3 (>= 3.10).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"

wasm=dist/mcp-guard.wasm
if [ ! -f "$wasm" ] || [ "${MCP_GUARD_REBUILD:-0}" = 1 ] || [ -n "$(find wit -newer "$wasm" -type f -print -quit)" ]; then
  scripts/build-component.sh
fi

if ! command -v redis-server >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get install -y -q redis-server >/dev/null 2>&1 || { apt-get update -q >/dev/null && apt-get install -y -q redis-server >/dev/null; }
  else
    sudo apt-get install -y -q redis-server >/dev/null
  fi
fi

venv="$CARGO_TARGET_DIR/tools/pyvenv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
py="$venv/bin/python"
"$py" -m pip install -q --disable-pip-version-check --upgrade pip
# Non-editable: the tests run the installed package, the way users get it.
"$py" -m pip install -q --disable-pip-version-check --force-reinstall --no-deps ./python
"$py" -m pip install -q --disable-pip-version-check "./python[test]"

cd python
exec "$py" -m pytest -q -p no:cacheprovider "$@"
