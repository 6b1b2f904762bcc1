"""Parity producer for the Python package (python/src/mcp_guard): reads the
job list and writes one dump, in the format of parity/README.md.

    python parity/dump.py JOBS.json OUT.jsonl

Goes through the package's public API only (`Guard.sanitize`, `pin`,
`compare`, `check_call`), with `as_json=True` so the texts it dumps are the
ones the package hands out unparsed. Inputs are passed as bytes, the way a
host forwards what a server sent.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Optional

from mcp_guard import Guard, GuardError


def canonical(v: Any) -> str:
    # json.dumps with these settings writes exactly the format's escaping
    # (control characters as \\u00xx lowercase, nothing else escaped).
    return json.dumps(v, sort_keys=True, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def outcome(o: dict[str, Any]) -> dict[str, Any]:
    return {
        "catalog": o["catalog"],
        "findings": [
            {k: f[k] for k in ("action", "detail", "kind", "pointer", "severity", "tool", "tool_index")}
            for f in o["findings"]
        ],
        "hidden": [{k: h[k] for k in ("detail", "index", "name", "reason")} for h in o["hidden"]],
        "name_map": [{"upstream": m["upstream"], "visible": m["visible"]} for m in o["name_map"]],
        "tools": [
            {
                "flagged": t["flagged"],
                "index": t["index"],
                "name": t["name"],
                "raw_span": [t["raw_span"]["start"], t["raw_span"]["end"]],
                "status": t["status"],
                "visible_name": t["visible_name"],
            }
            for t in o["tools"]
        ],
    }


def decision(d: dict[str, Any]) -> dict[str, Any]:
    if d["action"] == "allow":
        return {"action": "allow", "arguments": d["arguments"], "upstream": d["upstream"], "warning": d["warning"]}
    if d["action"] == "refuse":
        return {
            "action": "refuse",
            "message": d["message"],
            "reason": d["reason"],
            "violations": [{"pointer": v["pointer"], "reason": v["reason"]} for v in d["violations"]],
        }
    if d["action"] == "respond":
        return {"action": "respond", "result": d["result"]}
    raise RuntimeError(f"unknown call decision {d['action']!r}")


def calls(served_catalog: str) -> list[tuple[str, Optional[str]]]:
    out: list[tuple[str, Optional[str]]] = []
    tools = json.loads(served_catalog).get("tools")
    first = tools[0].get("name") if isinstance(tools, list) and tools and isinstance(tools[0], dict) else None
    if isinstance(first, str):
        quoted = json.dumps(first, ensure_ascii=False)
        out.append((first, "{}"))
        out.append(("call_tool", '{"name":' + quoted + ',"arguments":{}}'))
    out.append(("search_tools", '{"query":"read a file"}'))
    out.append(("no-such-tool", None))
    return out


def run_calls(guard: Guard, baseline: str, todo: list[tuple[str, Optional[str]]]) -> list[dict[str, Any]]:
    out = []
    for name, args in todo:
        try:
            d = decision(guard.check_call(baseline, name, args, as_json=True))
        except GuardError as e:
            d = {"error": e.kind}
        out.append({"arguments": args, "decision": d, "name": name})
    return out


def run_job(job: dict[str, Any], text: bytes, nxt: bytes) -> dict[str, Any]:
    opts = {"server": job["server"], "foreign_names": job["foreign_names"]}
    line: dict[str, Any] = {
        "input": job["input"],
        "policy": job["policy"],
        "policy_error": None,
        "sanitize": None,
        "pin": None,
        "calls": None,
        "compare": None,
    }
    try:
        guard = Guard(job["policy_json"])
    except GuardError as e:
        line["policy_error"] = e.kind
        return line
    with guard:
        try:
            line["sanitize"] = outcome(guard.sanitize(text, **opts, as_json=True))
        except GuardError as e:
            line["sanitize"] = {"error": e.kind}
        try:
            pinned = guard.pin(text, **opts, as_json=True)
        except GuardError as e:
            line["pin"] = {"error": e.kind}
            return line
        todo = calls(pinned["outcome"]["catalog"])
        line["pin"] = {"baseline": pinned["baseline"], "outcome": outcome(pinned["outcome"])}
        line["calls"] = run_calls(guard, pinned["baseline"], todo)
        try:
            c = guard.compare(pinned["baseline"], nxt, **opts, as_json=True)
        except GuardError as e:
            line["compare"] = {"error": e.kind}
            return line
        d = c["decision"]
        line["compare"] = {
            "baseline": c["baseline"],
            "calls": run_calls(guard, c["baseline"], todo),
            "decision": (
                {"action": "serve", "catalog": d["catalog"]}
                if d["action"] == "serve"
                else {"action": "refuse", "invalidate": d["invalidate"], "message": d["message"]}
            ),
            "drift": [
                {
                    "benign": x["benign"],
                    "changes": [{"kind": y["kind"], "pointer": y["pointer"]} for y in x["changes"]],
                    "changes_truncated": x["changes_truncated"],
                    "fields": x["fields"],
                    "kind": x["kind"],
                    "name": x["name"],
                    "tool_index": x["tool_index"],
                }
                for x in c["drift"]
            ],
            "outcome": outcome(c["outcome"]),
        }
    return line


def main() -> None:
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)["jobs"]
    t0 = time.perf_counter()
    with open(sys.argv[2], "w", encoding="utf-8", newline="\n") as out:
        for job in jobs:
            with open(job["path"], "rb") as f:
                text = f.read()
            with open(job["next_path"], "rb") as f:
                nxt = f.read()
            out.write(canonical(run_job(job, text, nxt)) + "\n")
    print(f"parity dump.py: {len(jobs)} jobs in {time.perf_counter() - t0:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
