#!/usr/bin/env bash
# Cross-host parity (issue #11): the conformance suite and every catalog of
# testdata/ (real and adversarial), under several policies, through the native engine, the
# component in wasmtime, the npm package and the Python package; the four
# dumps must be the same bytes (parity/README.md has the jobs and the format).
# Then the same inputs as tools/list answers through a real Envoy running the
# filter (envoy/): the served listings must match the native dump.
#
#   scripts/parity.sh
#
# Builds what it runs: dist/mcp-guard.wasm (incremental), the Rust producer
# (host example, release), and through scripts/setup-hosts.sh js/gen,
# the Python venv (the one scripts/test-python.sh makes; the producer imports
# the package from python/src with the component just built, so no
# reinstall), the Envoy filter, Envoy and envoy/test's packages.
#
# Environment:
#   PARITY_OUT         where the jobs and dumps are written (default
#                      $CARGO_TARGET_DIR/parity); the dumps are deleted after a
#                      clean run unless PARITY_KEEP=1
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_TARGET_DIR="$target"

# The large adversarial catalogs are generated, not committed (testdata/README.md).
python3 testdata/make-large-adversarial.py

out="${PARITY_OUT:-$target/parity}"
mkdir -p "$out"

scripts/build-component.sh >/dev/null
wasm="$root/dist/mcp-guard.wasm"
cargo build -q --release -p mcp-guard-host --example parity_dump

# js/gen, the Python venv, the Envoy filter, Envoy and envoy/test's packages.
MCP_GUARD_WASM="$wasm" scripts/setup-hosts.sh
py="$target/tools/pyvenv/bin/python"
export MCP_GUARD_ENVOY_WASM="$target/wasm32-wasip1/wasm/mcp_guard_envoy.wasm"
export ENVOY_BIN="$target/tools/envoy-venv/bin/envoy"

python3 parity/jobs.py testdata > "$out/jobs.json"

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
