"""The Python package's row of BENCHMARKS.md's performance table, with
CPython's json round trip as its floor (scripts/bench-table.sh writes the plan):

    python bench/table.py PLAN.json time           # both rows, interleaved
    python bench/table.py PLAN.json memory ROW     # ROW = python | python-json, alone

The package as a gateway forwarding bytes uses it: one `Guard` per policy,
text in, `sanitize(..., as_json=True)`, the catalog text out. JSON lines on
stdout, in the format of scripts/bench-table-lib.mjs (the Node drivers').
"""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Callable

from mcp_guard import Guard

Row = tuple[str, Callable[[str, str], str]]


def row(name: str, policies: dict[str, str]) -> Row:
    if name == "python":
        guards = {k: Guard(p) for k, p in policies.items()}
        return name, lambda policy, text: guards[policy].sanitize(text, as_json=True)["catalog"]
    if name == "python-json":
        return name, lambda _, text: json.dumps(json.loads(text))
    raise SystemExit(f"unknown row {name} (python, python-json)")


def emit(line: dict) -> None:
    print(json.dumps(line), flush=True)


def vm(field: str) -> int:
    """A `Vm*` field of /proc/self/status, in KiB."""
    m = re.search(rf"^{field}:\s+(\d+) kB", Path("/proc/self/status").read_text(), re.M)
    assert m, field
    return int(m.group(1))


def memory(plan: dict, name: str) -> None:
    w = next(x for x in plan["workloads"] if x["name"] == plan["memory"]["workload"])
    _, run = row(name, {w["policy"]: plan["policies"][w["policy"]]})
    text = Path(w["path"]).read_text("utf-8")
    before = vm("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # reset the high-water mark (Linux >= 4.0)
    for _ in range(plan["memory"]["runs"]):
        run(w["policy"], text)
    # wasmtime-py's component API does not reach the guest's memory.
    emit({"row": name, "workload": "memory", "rss_before_mib": before / 1024, "peak_mib": max(0, vm("VmHWM") - before) / 1024, "guest_mib": None})


def measure(rows: list[Row], w: dict) -> None:
    """Per round, `calls` calls of each row in turn; best and median (the
    middle round, the upper one of two) of the per-call time."""
    text = Path(w["path"]).read_text("utf-8")
    policy, calls = w["policy"], w["calls"]
    # Warm-up; the first output's size goes into the line (every engine
    # host must write the same bytes).
    out = []
    for _, run in rows:
        out.append(len(run(policy, text).encode()))
        for _ in range(max(1, w["warmup"]) * calls - 1):
            run(policy, text)
    times: list[list[float]] = [[] for _ in rows]
    for _ in range(w["rounds"]):
        for (_, run), t in zip(rows, times):
            s = time.perf_counter()
            for _ in range(calls):
                run(policy, text)
            t.append((time.perf_counter() - s) * 1e3 / calls)
    for (name, _), t, o in zip(rows, times, out):
        t.sort()
        emit({"row": name, "workload": w["name"], "best_ms": t[0], "median_ms": t[len(t) // 2], "rounds": w["rounds"], "calls": calls, "output_bytes": o})


def main() -> None:
    plan = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    if sys.argv[2] == "memory":
        memory(plan, sys.argv[3])
        return
    from importlib.metadata import version

    rows = [row("python", plan["policies"]), row("python-json", plan["policies"])]
    emit({"row": "python", "info": {"python": sys.version.split()[0], "wasmtime-py": version("wasmtime")}})
    for w in plan["workloads"]:
        print(f"table.py: {w['name']} ({w['bytes']} bytes), {w['rounds']} rounds", file=sys.stderr)
        measure(rows, w)


if __name__ == "__main__":
    main()
