#!/usr/bin/env bash
# The performance table of BENCHMARKS.md (issue #11): the native engine, the
# component in wasmtime, the npm package, the Python package and the Envoy
# filter, with the JSON round trips of serde_json, Node and CPython as
# floors, on the same inputs in one run; the table is written into
# BENCHMARKS.md between the `perf-table` markers.
#
#   scripts/bench-table.sh           # full mode: ~4 min of runs after the builds
#   scripts/bench-table.sh --quick   # a smoke run of the command: few runs, ~40 s
#
# Builds what it runs, as scripts/parity.sh does (no-ops when up to date):
# dist/mcp-guard.wasm, the Rust driver (host example, release), js/gen,
# the Python venv, the Envoy filter, Envoy and envoy/test's packages.
# Then, one process at a time (never two: every row would slow the other on
# a small machine): per row a fresh process for its peak memory, and per
# driver one process timing its rows interleaved. The drivers print JSON
# lines; scripts/bench-table.py writes the inputs before and the table after.
#
# Environment:
#   CARGO_TARGET_DIR   as usual (default <repo>/target); the venvs live under it
#   BENCH_TABLE_OUT    keep the inputs, the plan and the drivers' lines there
#                      (default: a temporary folder, deleted at the end)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target="${CARGO_TARGET_DIR:-$root/target}"
export CARGO_TARGET_DIR="$target"

quick=
case "${1:-}" in
  --quick) quick=--quick ;;
  "") ;;
  *) echo "usage: scripts/bench-table.sh [--quick]" >&2; exit 2 ;;
esac

corpus="$root/testdata/bench/shared-real-tools.json"

# --- Builds (their output on stderr: stdout stays quiet) ----------------------
t0=$(date +%s)
scripts/build-component.sh >&2
wasm="$root/dist/mcp-guard.wasm"
export MCP_GUARD_WASM="$wasm"
cargo build -q --release -p mcp-guard-host --example bench_table
scripts/setup-hosts.sh
py="$target/tools/pyvenv/bin/python"
export ENVOY_BIN="$target/tools/envoy-venv/bin/envoy"
export MCP_GUARD_ENVOY_WASM="$target/wasm32-wasip1/wasm/mcp_guard_envoy.wasm"
echo "bench-table: built in $(( $(date +%s) - t0 )) s" >&2

# --- Inputs and runs -----------------------------------------------------------
out="${BENCH_TABLE_OUT:-}"
if [ -z "$out" ]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
plan="$out/plan.json"
results="$out/results.jsonl"
python3 scripts/bench-table.py plan "$corpus" "$out" $quick > "$plan"
: > "$results"
echo "{\"row\":\"native\",\"info\":{\"rustc\":\"$(rustc --version | cut -d' ' -f2)\"}}" >> "$results"

run() {
  echo "bench-table: $*" >&2
  "$@" >> "$results"
}
load_start="$(cut -d' ' -f1 /proc/loadavg)"
t0=$(date +%s)
bench_rust="$target/release/examples/bench_table"
for row in native serde component; do run "$bench_rust" "$plan" memory "$row"; done
run "$bench_rust" "$plan" time
for row in npm node-json; do run node js/bench/table.mjs "$plan" memory "$row"; done
run node js/bench/table.mjs "$plan" time
# The package from python/src with the component just built (as parity.sh).
for row in python python-json; do run env PYTHONPATH="$root/python/src" "$py" python/bench/table.py "$plan" memory "$row"; done
run env PYTHONPATH="$root/python/src" "$py" python/bench/table.py "$plan" time
for way in new same; do run node envoy/test/table.mjs "$plan" memory "$way"; done
run node envoy/test/table.mjs "$plan" time
load_end="$(cut -d' ' -f1 /proc/loadavg)"
seconds=$(( $(date +%s) - t0 ))
echo "bench-table: measured in $seconds s" >&2

python3 scripts/bench-table.py render "$plan" "$results" BENCHMARKS.md "$load_start" "$load_end" "$seconds"
