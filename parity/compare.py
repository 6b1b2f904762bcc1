"""Diffs the parity dumps (parity/README.md): every host's line must be the
same bytes as the first host's.

    python3 parity/compare.py [--show N] NAME=DUMP.jsonl NAME=DUMP.jsonl ...

Prints a summary of what was compared and, for the first N differing lines
(default 8), the first field that differs with the text around the first
differing character. Exit 0 when all dumps are identical, 1 otherwise.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import Counter
from typing import Any, Iterator, Optional

CONTEXT = 60


def first_difference(a: Any, b: Any, path: str = "") -> Optional[tuple[str, Any, Any]]:
    """The path (JSON-pointer-like) and values of the first difference."""
    if type(a) is not type(b):
        return path or "/", a, b
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{path}/{k}", a.get(k, "<missing>"), b.get(k, "<missing>")
            d = first_difference(a[k], b[k], f"{path}/{k}")
            if d:
                return d
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}/{i}")
            if d:
                return d
        if len(a) != len(b):
            return f"{path} (length)", len(a), len(b)
        return None
    return None if a == b else (path or "/", a, b)


def show(v: Any, at: int = 0) -> str:
    if isinstance(v, str):
        lo = max(0, at - CONTEXT)
        s = v[lo : at + CONTEXT]
        return ("…" if lo else "") + json.dumps(s, ensure_ascii=True) + ("…" if at + CONTEXT < len(v) else "")
    s = json.dumps(v, ensure_ascii=True, sort_keys=True)
    return s if len(s) <= 2 * CONTEXT else s[: 2 * CONTEXT] + "…"


def explain(ref_name: str, ref_line: str, name: str, line: str) -> str:
    try:
        a, b = json.loads(ref_line), json.loads(line)
    except ValueError as e:
        return f"  {name}: not JSON ({e})"
    where = f"{a.get('input')} under {a.get('policy')}"
    if (a.get("input"), a.get("policy")) != (b.get("input"), b.get("policy")):
        return f"  {where}: {name} has the job {b.get('input')} under {b.get('policy')} here (jobs out of step)"
    d = first_difference(a, b)
    if d is None:  # same values, different bytes: the writing differs
        i = next(i for i, (x, y) in enumerate(zip(ref_line, line)) if x != y) if ref_line != line else 0
        return f"  {where}: same values, different bytes at offset {i} (canonical writing)\n" + (
            f"    {ref_name:>9}: {show(ref_line, i)}\n    {name:>9}: {show(line, i)}"
        )
    path, x, y = d
    at = 0
    if isinstance(x, str) and isinstance(y, str):
        at = next((i for i, (p, q) in enumerate(zip(x, y)) if p != q), min(len(x), len(y)))
        path += f" (first difference at character {at}; lengths {len(x)} / {len(y)})"
    return f"  {where}: {path}\n    {ref_name:>9}: {show(x, at)}\n    {name:>9}: {show(y, at)}"


def lines(path: str) -> Iterator[str]:
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f:
            yield line.rstrip("\n")


def summary(path: str) -> str:
    jobs, inputs, policies = 0, set(), Counter()
    san, pin, cmp, calls = Counter(), Counter(), Counter(), Counter()
    for line in lines(path):
        v = json.loads(line)
        jobs += 1
        inputs.add(v["input"])
        policies[v["policy"]] += 1
        if v["policy_error"]:
            san["policy error " + v["policy_error"]] += 1
            continue
        s = v["sanitize"]
        san["error " + s["error"] if "error" in s else "sanitized"] += 1
        p = v["pin"]
        pin["error " + p["error"] if "error" in p else "pinned"] += 1
        c = v["compare"]
        if c is not None:
            cmp["error " + c["error"] if "error" in c else c["decision"]["action"]] += 1
        for call in (v["calls"] or []) + ((c or {}).get("calls") or []):
            d = call["decision"]
            calls["error " + d["error"] if "error" in d else d["action"] + (" " + d["reason"] if "reason" in d else "")] += 1

    def fmt(c: Counter) -> str:
        return ", ".join(f"{n} {k}" for k, n in sorted(c.items(), key=lambda kv: -kv[1]))

    return (
        f"{jobs} jobs: {len(inputs)} inputs x policies ({fmt(policies)})\n"
        f"  sanitize: {fmt(san)}\n  pin: {fmt(pin)}\n  compare with the next input: {fmt(cmp)}\n"
        f"  check_call: {fmt(calls)}"
    )


def main() -> int:
    args = sys.argv[1:]
    limit = 8
    if args[:1] == ["--show"]:
        limit, args = int(args[1]), args[2:]
    dumps = [a.split("=", 1) for a in args]
    if len(dumps) < 2 or any(len(d) != 2 for d in dumps):
        sys.exit(__doc__)
    (ref_name, ref_path), others = dumps[0], dumps[1:]
    print(summary(ref_path))
    # In lockstep, one line of each dump at a time: dumps are large.
    differing: dict[str, list[int]] = {name: [] for name, _ in others}
    shown: dict[str, list[str]] = {name: [] for name, _ in others}
    count: Counter = Counter()
    streams = [lines(path) for _, path in dumps]
    for i, row in enumerate(itertools.zip_longest(*streams)):
        ref_line = row[0]
        for (name, _), line in zip(others, row[1:]):
            if line is not None:
                count[name] += 1
            if ref_line is None or line is None or line == ref_line:
                continue
            differing[name].append(i)
            if len(shown[name]) < limit:
                shown[name].append(explain(ref_name, ref_line, name, line))
        if ref_line is not None:
            count[ref_name] += 1
    total = count[ref_name]
    failed = total == 0
    for name, _ in others:
        if count[name] != total:
            failed = True
            print(f"parity: {name} has {count[name]} lines, {ref_name} {total}")
        if differing[name]:
            failed = True
            print(f"parity: {name} differs from {ref_name} on {len(differing[name])} of {total} jobs; the first {len(shown[name])}:")
            print("\n".join(shown[name]))
        elif count[name] == total:
            print(f"parity: {name} = {ref_name} on all {total} jobs, byte for byte")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
