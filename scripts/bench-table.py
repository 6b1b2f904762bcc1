"""The performance table of BENCHMARKS.md (issue #11): inputs and rendering.

    python3 scripts/bench-table.py plan CORPUS OUTDIR [--quick] > OUTDIR/plan.json
    python3 scripts/bench-table.py render PLAN RESULTS.jsonl BENCHMARKS.md LOAD_START LOAD_END SECONDS

`plan` writes the inputs every row's driver reads (scripts/bench-table.sh
passes the same plan.json to all of them, so no two rows see different
bytes): the one-tool catalog (the corpus's median-sized tool) and the
100 / 1,000 / 10,000-tool catalogs (every 17th tool of the corpus, wrapping
around; a repeat gets a unique name, `NAME_r2`, `NAME_r3`, ...), and how many runs
each workload gets. `render` turns the drivers' JSON lines into the table
and writes it into BENCHMARKS.md between the `perf-table` markers (the block
goes before the first section when the markers are not there yet).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BEGIN, END = "<!-- perf-table:begin -->", "<!-- perf-table:end -->"
# Sources whose uncommitted changes the measured builds include (named in the table).
ENGINE_PATHS = ("src", "component", "wit", "envoy/src", "js/index.js", "python/src")

# The default 16 MiB catalog cap refuses the 10,000-tool catalog (~20 MB):
# the scaling column raises that one limit, for every size and every row.
SCALE_POLICY = {"core": {"catalog_limits": {"max_catalog_bytes": 64 << 20}}}
SIZES = (100, 1000, 10000)
# The scaling catalogs take every 17th tool of the corpus, wrapping around
# (17 is prime to 868, so each pass over the corpus holds every tool once):
# the corpus is grouped by server, and its first 100 tools are 39% larger
# than its average; every 17th averages 1,982 bytes against 1,971, so the
# per-tool ratio compares like with like.
STRIDE = 17

# (warm-up, rounds, calls per round) per workload; full and --quick.
RUNS = {
    "full": {"corpus": (3, 150, 1), "one": (3, 100, 200), 100: (3, 150, 1), 1000: (2, 50, 1), 10000: (1, 20, 1)},
    "quick": {"corpus": (1, 5, 1), "one": (1, 5, 50), 100: (1, 5, 1), 1000: (1, 3, 1), 10000: (1, 2, 1)},
}
MEMORY_RUNS = {"full": 5, "quick": 2}
# Envoy answers one request at a time over loopback: fewer requests per
# single-tool round than the in-process rows' calls.
ENVOY_CALLS = 20

# Table rows: (driver row id, label); the floors last.
ROWS = [
    ("native", "native engine (Rust)"),
    ("component", "component in wasmtime 48 (Rust host)"),
    ("npm", "npm package (Node, jco)"),
    ("python", "Python package (wasmtime-py)"),
    ("envoy-new", "Envoy filter (1.40, V8), added latency: a session's first listing (pin)"),
    ("envoy-same", "Envoy filter, added latency: a session's repeated listing"),
    ("serde", "floor: `serde_json` `Value` round trip"),
    ("node-json", "floor: Node `JSON.stringify(JSON.parse(text))`"),
    ("python-json", "floor: Python `json.dumps(json.loads(text))`"),
]


def compact(v: object) -> str:
    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)


def write(out: Path, name: str, catalog: dict) -> dict:
    path = out / name
    text = compact(catalog)
    path.write_text(text, "utf-8")
    return {"path": str(path), "bytes": len(text.encode()), "tools": len(catalog["tools"])}


def plan(corpus: Path, out: Path, quick: bool) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    tools = json.loads(corpus.read_text("utf-8"))["tools"]
    by_size = sorted(range(len(tools)), key=lambda i: (len(compact(tools[i]).encode()), i))
    median = tools[by_size[len(by_size) // 2]]
    inputs = {
        "corpus": {"path": str(corpus), "bytes": corpus.stat().st_size, "tools": len(tools)},
        "one": write(out, "one-tool.json", {"tools": [median]}) | {"tool": median["name"]},
    }
    for n in SIZES:
        repeated = []
        for i in range(n):
            t = dict(tools[i * STRIDE % len(tools)])
            if i >= len(tools):
                t["name"] = f"{t['name']}_r{i // len(tools) + 1}"
            repeated.append(t)
        inputs[n] = write(out, f"tools-{n}.json", {"tools": repeated})
    mode = "quick" if quick else "full"
    workloads = []
    for key, inp in inputs.items():
        warmup, rounds, calls = RUNS[mode][key]
        name = key if isinstance(key, str) else f"scale-{key}"
        policy = "default" if isinstance(key, str) else "scale"
        workloads.append({"name": name, "policy": policy, "warmup": warmup, "rounds": rounds, "calls": calls} | inp)
    return {
        "mode": mode,
        "policies": {"default": "{}", "scale": compact(SCALE_POLICY)},
        "workloads": workloads,
        "memory": {"workload": "corpus", "runs": MEMORY_RUNS[mode]},
        "envoy_calls": ENVOY_CALLS,
    }


# ---------------------------------------------------------------------------
# Rendering


def ms(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def us(x_ms: float | None) -> str:
    if x_ms is None:
        return "—"
    x = x_ms * 1000
    return f"{x:,.0f}" if x >= 10 else f"{x:.1f}"


def load(results: Path) -> tuple[dict, dict, dict]:
    """(times by (row, workload), memory by row, info lines by row)."""
    times, memory, info = {}, {}, {}
    for line in results.read_text("utf-8").splitlines():
        if not line.startswith("{"):
            continue
        r = json.loads(line)
        if "info" in r:
            info.setdefault(r["row"], {}).update(r["info"])
        elif r["workload"] == "memory":
            memory[r["row"]] = r
        else:
            times[(r["row"], r["workload"])] = r
    # Envoy: the filter's cost is the same request with the filter minus
    # without it, best from best and median from median (same rounds).
    for way in ("new", "same"):
        for (row, w), g in list(times.items()):
            p = times.get((f"envoy-{way}-plain", w))
            if row == f"envoy-{way}-guarded" and p:
                times[(f"envoy-{way}", w)] = {
                    "best_ms": g["best_ms"] - p["best_ms"],
                    "median_ms": g["median_ms"] - p["median_ms"],
                    "repeats": times.get((f"envoy-{way}-filter", w), {}).get("repeats", 0),
                }
    return times, memory, info


def cells(row: str, times: dict, memory: dict) -> list[str]:
    t = lambda w: times.get((row, w))
    # `*`: the filter answered (some of) the measured listings with a kept answer, not the engine.
    kept = lambda w: "*" if t(w) and t(w).get("repeats") else ""
    corpus, one = t("corpus"), t("one")
    c_corpus = f"{ms(corpus['best_ms'])} / {ms(corpus['median_ms'])}{kept('corpus')}" if corpus else "n/a"
    c_one = f"{us(one['best_ms'])} / {us(one['median_ms'])}{kept('one')}" if one else "n/a"
    filt = times.get((f"{row}-filter", "corpus"))
    if filt:
        c_corpus += f" (in the filter: {ms(filt['best_ms'])} / {ms(filt['median_ms'])})"
    scale = [t(f"scale-{n}") for n in SIZES]
    c_scale = " / ".join(ms(s["best_ms"]) + kept(f"scale-{n}") if s else "n/a" for n, s in zip(SIZES, scale))
    if scale[0] and scale[-1]:
        ratio = scale[-1]["best_ms"] / scale[0]["best_ms"] / (SIZES[-1] / SIZES[0])
        c_ratio = f"{ratio:.2f}" + (kept(f"scale-{SIZES[0]}") or kept(f"scale-{SIZES[-1]}"))
    else:
        c_ratio = "n/a"
    m = memory.get(row)
    c_mem = f"{m['peak_mib']:.1f}" if m else "n/a"
    c_guest = f"{m['guest_mib']:.1f}" if m and m.get("guest_mib") is not None else "—"
    return [c_corpus, c_one, c_scale, c_ratio, c_mem, c_guest]


def filter_times(times: dict, way: str) -> str:
    names = {"corpus": "corpus {} ms", "one": "one tool {} µs", "scale-100": "100 tools {} ms", "scale-1000": "1k {} ms", "scale-10000": "10k {} ms"}
    out = []
    for w, label in names.items():
        f = times.get((f"envoy-{way}-filter", w))
        if f:
            fmt = us if w == "one" else ms
            kept = f" ({f['repeats']} of {f['listings']} kept answers)" if f.get("repeats") else ""
            out.append(label.format(f"{fmt(f['best_ms'])} / {fmt(f['median_ms'])}") + kept)
    return "; ".join(out) or "n/a"


def git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def block(plan_: dict, results: Path, load_start: str, load_end: str, seconds: str) -> str:
    times, memory, info = load(results)
    w = {x["name"]: x for x in plan_["workloads"]}
    quick = plan_["mode"] == "quick"
    head = "| row | `shared-real-tools.json`, ms best / median | one tool, µs best / median | 100 / 1k / 10k tools, ms (best) | per-tool ratio 10k ÷ 100 | peak memory, MiB | guest linear memory, MiB |"
    lines = [head, "|" + "---|" * 7]
    for row, label in ROWS:
        lines.append(f"| {label} | " + " | ".join(cells(row, times, memory)) + " |")
    versions = "; ".join(f"{k}: {v}" for r in ("native", "npm", "python", "envoy-new-guarded") for k, v in info.get(r, {}).items())
    c, o = w["corpus"], w["one"]
    runs = ", ".join(
        f"{name} {x['warmup']} + {x['rounds']}" + (f" × {x['calls']} calls" if x["calls"] > 1 else "")
        for name, x in w.items()
    )
    changed = [line[3:] for line in git("status", "--porcelain", "--", *ENGINE_PATHS).splitlines()]
    dirty = sorted({p for p in ENGINE_PATHS for f in changed if f.startswith(p)})
    commit = git("rev-parse", "--short", "HEAD") + (f" plus uncommitted changes in {', '.join(dirty)}" if dirty else "")
    warn = (
        "**Quick-mode run (`--quick`, a smoke test of the command): few runs on a busy machine, noisy; "
        "do not quote these numbers — regenerate in full mode on a quiet machine.**\n\n"
        if quick
        else ""
    )
    return f"""{BEGIN}
## Performance table (every host, one run)

{warn}Regenerate with `scripts/bench-table.sh` (full mode: ~4 min of runs after the builds;
`--quick`: a smoke run, ~40 s). This one: {'`--quick`' if quick else 'full mode'}, {time.strftime('%Y-%m-%d %H:%M %Z')},
commit `{commit}`; {platform.machine()}, {os.cpu_count()} cores; load average (1 min) {load_start} at the
start and {load_end} at the end ({seconds} s of measuring). {versions}. One process at a time,
never two: a process per driver times its rows in the same rounds (Rust: native, component,
`serde_json`; Node: npm package and Node's round trip; Python: package and CPython's round trip;
Envoy with and without the filter), and a fresh process per row measures its memory.

{chr(10).join(lines)}

What the columns mean:

- **`shared-real-tools.json`**: the merged real corpus ({c['bytes']:,} bytes, {c['tools']} tools),
  default policy (`Policy::default()`, `{{}}`), JSON text in → sanitized catalog text out, one
  policy compiled beforehand and reused; best and median (the middle round) of the rounds.
  The floors are timed on the same bytes: `serde_json` and Node write compact JSON as the
  engine does; CPython's `json.dumps` defaults (`ensure_ascii`, `", "` and `": "`) write
  {times.get(("python-json", "corpus"), {}).get("output_bytes", 0):,} bytes for the corpus's {c['bytes']:,}.
- **one tool**: the same for a one-tool catalog, the corpus's median-sized tool
  (`{o['tool']}`, {o['bytes']:,} bytes): per call, the mean of a round of calls
  (Envoy: of requests).
- **100 / 1k / 10k tools**: catalogs of every 17th tool of the corpus, wrapping around (a
  spread sample: the corpus is grouped by server), repeats renamed uniquely (`NAME_r2`, ...;
  {', '.join(f"{w[f'scale-{n}']['bytes']:,}" for n in SIZES)} bytes); default policy with
  `catalog_limits.max_catalog_bytes` raised to 64 MiB, because the default 16 MiB cap refuses
  the 10k catalog. **Per-tool ratio** = time(10k) / time(100) / 100: 1.00 is linear, above 1
  grows faster than the catalog (bytes per tool: {', '.join(f"{w[f'scale-{n}']['bytes'] / n:,.0f}" for n in SIZES)}).
- **Envoy**: the filter in Envoy (one worker, `--concurrency 1`) in front of a loopback node
  HTTP server that answers every `tools/list` POST with the same fixed bytes
  (`{{"jsonrpc":"2.0","id":1,"result":CATALOG}}`). The time is the added latency: the same
  request through a second listener of the same Envoy without the filter, in the same rounds,
  subtracted (best − best, median − median). In brackets, and below the table for every
  workload: the filter's own time per listing from its log lines (`micros`: the engine and
  shared data, no network). Filter configuration: the scale policy above and `max_body_bytes`
  64 MiB (Envoy's buffer limits raised to match) for every workload. Two ways to list:
  - **a session's first listing**: the session (`Mcp-Session-Id`) is ended after every
    listing (DELETE, untimed), so the engine sanitizes and pins each one: the other rows' work
    plus the pin. One session id restarted, not a new id per listing, so the worker's caches
    hold one session whatever the workload (a new id per listing first showed that those
    caches were bounded by count only: nine sessions of the 10k-tool catalog used up the
    filter's memory; they are now bounded by bytes too, 32 MiB each).
  - **a session's repeated listing**: one session per workload, its first listing pinned and
    the next compared before the measured ones; that compare leaves the pin state as it found
    it, so the mediation core keeps its answer (`src/mediate/kept.rs`) and serves it, without
    the engine, to the same catalog text under the same policy and pin state, while catalog,
    answer, log lines and the state's copy fit 32 MiB (not at 10k tools: those are compares). `*` marks the cells with kept answers (a
    ratio with a `*` compares kept answers with the engine's work).
- **Peak memory**: a fresh process per row; its VmHWM (`/proc/self/status`, for Envoy
  `/proc/PID/status`) after {plan_['memory']['runs']} runs of the corpus workload minus its VmRSS just
  before the first of them (set up, input read and policy compiled; the high-water mark is reset
  there through `/proc/PID/clear_refs`). For Envoy, a fresh Envoy with the filter only, listing
  the way its row does; the process holds the filter's V8 VM, Envoy's buffers of request and
  answer, the session's baseline in shared data and (repeated listings) the kept answer.
- **Guest linear memory**: the wasm instance's memory after those runs (it never shrinks),
  where the host exposes it: the Rust host's store limiter, the jco instance's exported memory;
  not reachable through wasmtime-py's or Envoy's API (—). Every component host runs the same
  guest code, so the figures should agree.

The Envoy filter's own time per listing (log `micros`), best / median. A session's first listing:
{filter_times(times, "new")}. A session's repeated listing: {filter_times(times, "same")}.

Runs (warm-up + rounds): {runs}; Envoy: rounds of at most {plan_['envoy_calls']} requests.
{END}"""


def render(plan_path: Path, results: Path, md: Path, load_start: str, load_end: str, seconds: str) -> None:
    plan_ = json.loads(plan_path.read_text("utf-8"))
    new = block(plan_, results, load_start, load_end, seconds)
    text = md.read_text("utf-8")
    if BEGIN in text and END in text:
        a, b = text.index(BEGIN), text.index(END) + len(END)
        text = text[:a] + new + text[b:]
    else:
        # After the intro: before the first section.
        at = text.index("\n## ") + 1
        text = text[:at] + new + "\n\n" + text[at:]
    md.write_text(text, "utf-8")
    print(new)


def main() -> None:
    a = sys.argv[1:]
    if a[:1] == ["plan"] and len(a) in (3, 4):
        print(json.dumps(plan(Path(a[1]), Path(a[2]), "--quick" in a[3:]), indent=1))
    elif a[:1] == ["render"] and len(a) == 7:
        render(Path(a[1]), Path(a[2]), Path(a[3]), a[4], a[5], a[6])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
