"""Benchmark: the Python package on the merged real corpus.

    python python/bench/bench.py [--runs N]

Input: `testdata/bench/shared-real-tools.json` (1.7 MB) of the repository.
Prints, best of N and median:

- the floor any pure-Python sanitizer pays: `json.dumps(json.loads(text))`;
- the whole pipeline through the package, text in and text out (what a
  gateway forwarding bytes does), under the default policy (poisoning
  detector at `flag`) and with the detector `off`; and with the catalog
  parsed into a dict (`as_json=False`);
- where the package's time goes: lowering the arguments, the guest call
  (wasm execution plus the C API building the result value), lifting the
  result into Python, freeing it;
- start-up: first `Guard()` in a new process, with and without the compiled
  artifact cached.

The native engine's figure is not re-measured here (criterion does that:
`cargo bench --bench pipeline`); BENCHMARKS.md gives it next to these.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from ctypes import byref, pointer
from pathlib import Path
from typing import Callable

from wasmtime import _ffi as ffi

from mcp_guard import Guard

ROOT = Path(__file__).resolve().parents[2]


def corpus() -> Path:
    return ROOT / "testdata" / "bench" / "shared-real-tools.json"


def timed(fn: Callable[[], object], runs: int) -> list[float]:
    fn()  # warm
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1e3)
    return out


def show(label: str, ms: list[float], floor: float | None = None) -> None:
    best, med = min(ms), statistics.median(ms)
    ratio = f"  {best / floor:5.2f}x floor (best)" if floor else ""
    print(f"{label:<58} best {best:7.1f} ms  median {med:7.1f} ms{ratio}")


def split(g: Guard, text: str, runs: int) -> None:
    inst = g._ensure()
    call = inst.sanitize
    opts = g._options(None, [])
    parts: dict[str, list[float]] = {"lower": [], "call": [], "lift": [], "free": []}
    for _ in range(runs):
        n = len(call._params)
        args = (ffi.wasmtime_component_val_t * n)()
        t0 = time.perf_counter()
        for k, (ty, val) in enumerate(zip(call._params, (g._policy, text, opts))):
            ty.convert_to_c(inst.store, val, pointer(args[k]))
        t1 = time.perf_counter()
        out = ffi.wasmtime_component_val_t()
        err = ffi.wasmtime_component_func_call(byref(call._func), inst.store._context(), args, n, byref(out), 1)
        assert not err
        t2 = time.perf_counter()
        call._lift(ctypes.addressof(out))
        t3 = time.perf_counter()
        ffi.wasmtime_component_val_delete(byref(out))
        for k in range(n):
            ffi.wasmtime_component_val_delete(byref(args[k]))
        t4 = time.perf_counter()
        for key, a, b in (("lower", t0, t1), ("call", t1, t2), ("lift", t2, t3), ("free", t3, t4)):
            parts[key].append((b - a) * 1e3)
    print("  split (median): " + ", ".join(f"{k} {statistics.median(v):.1f} ms" for k, v in parts.items()))


def startup() -> None:
    code = "import time; t=time.perf_counter(); from mcp_guard import Guard; Guard(); print((time.perf_counter()-t)*1e3)"
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, MCP_GUARD_CACHE_DIR=d)
        run = lambda: float(subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True).stdout)
        cold = run()
        warm = [run() for _ in range(3)]
    print(f"{'start-up: import + first Guard(), compiling (no cache)':<58} {cold:7.0f} ms")
    print(f"{'start-up: import + first Guard(), cached artifact':<58} {min(warm):7.0f} ms (best of 3)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    runs = ap.parse_args().runs
    path = corpus()
    text = path.read_text("utf-8")
    print(f"input: {path} ({len(text.encode()):,} bytes, {len(json.loads(text)['tools'])} tools), {runs} runs each")

    floor_ms = timed(lambda: json.dumps(json.loads(text)), runs)
    floor = min(floor_ms)
    show("floor: json.dumps(json.loads(text))", floor_ms)
    show("json.loads(text) alone", timed(lambda: json.loads(text), runs))

    default = Guard()
    off = Guard({"core": {"tool_poisoning": {"mode": "off"}}})
    show("package, default policy, text in/out (as_json=True)", timed(lambda: default.sanitize(text, as_json=True), runs), floor)
    split(default, text, runs)
    show("package, default policy, catalog as dict", timed(lambda: default.sanitize(text), runs), floor)
    show("package, poisoning off, text in/out", timed(lambda: off.sanitize(text, as_json=True), runs), floor)
    split(off, text, runs)
    baseline = default.pin(text, as_json=True)["baseline"]
    show("package, default policy, compare (no drift), text out", timed(lambda: default.compare(baseline, text, as_json=True), runs), floor)
    show("package, check_call (one call)", timed(lambda: default.check_call(baseline, "mcp-server-chart__generate_area_chart", {}), runs))
    startup()


if __name__ == "__main__":
    main()
