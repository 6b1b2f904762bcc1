#!/usr/bin/env bash
# Short libFuzzer runs of every fuzz target (CI smoke; run longer by hand):
#
#   scripts/fuzz.sh            # 20 s per target
#   scripts/fuzz.sh 600        # 10 min per target
#   scripts/fuzz.sh 150 --report   # ... and rewrite fuzz/REPORT.md's table
#
# Each input has a 5 s budget (a slow input fails like a crash).
#
# Every run ends with one table: executions, corpus size and peak RSS per
# target (the figures issue #11 asks for, in one place).
#
# cargo-fuzz needs nightly-only flags; the machine has one stable toolchain,
# so RUSTC_BOOTSTRAP=1 unlocks them (the documented escape hatch).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root/fuzz"
secs="${1:-20}"
report="${2:-}"
summary=""
if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked >&2
fi
export RUSTC_BOOTSTRAP=1
for target in catalog policy schema pinning mediate; do
    mkdir -p "corpus/$target"
    # -rss_limit_mb: the engine's own budgets must keep memory bounded.
    # -timeout: every scan is linear, so no input of at most -max_len bytes
    # may take seconds; a slow one is a finding (a timeout-* artifact).
    out=$(cargo fuzz run "$target" "corpus/$target" -- \
        -max_total_time="$secs" -rss_limit_mb=1024 -max_len=262144 -timeout=5 -print_final_stats=1 2>&1 \
        | grep -E 'stat::number_of_executed_units|stat::peak_rss_mb|ERROR|panicked|Done|SUMMARY' || true)
    echo "$out"
    execs=$(echo "$out" | sed -n 's/.*stat::number_of_executed_units: *//p' | tail -1)
    rss=$(echo "$out" | sed -n 's/.*stat::peak_rss_mb: *//p' | tail -1)
    summary+="| \`$target\` | ${secs} s | ${execs:-?} | $(ls "corpus/$target" | wc -l) | ${rss:-?} MB | 0 |"$'\n'
    # A crash leaves an artifact and a non-zero exit; grep above swallows the
    # exit code, so check for artifacts explicitly.
    if compgen -G "artifacts/$target/crash-*" >/dev/null || compgen -G "artifacts/$target/oom-*" >/dev/null \
        || compgen -G "artifacts/$target/timeout-*" >/dev/null; then
        echo "fuzz: $target found a crash:" >&2
        ls "artifacts/$target" >&2
        exit 1
    fi
done
table="| target | time | executions | corpus files | peak RSS | crashes |"$'\n'"|---|---|---|---|---|---|"$'\n'"$summary"
echo
echo "$table"
echo "fuzz: no crashes"
if [ "$report" = "--report" ]; then
    # Keep the hand-written part of REPORT.md; replace the table of the last run.
    python3 - "$table" "$(date -u +%Y-%m-%d)" <<'PY'
import re, sys
table, day = sys.argv[1], sys.argv[2]
path = "REPORT.md"
text = open(path).read()
block = f"<!-- fuzz-table:begin -->\nLast run: {day}.\n\n{table}<!-- fuzz-table:end -->"
text = re.sub(r"<!-- fuzz-table:begin -->.*<!-- fuzz-table:end -->", lambda m: block, text, flags=re.S)
open(path, "w").write(text)
PY
fi
