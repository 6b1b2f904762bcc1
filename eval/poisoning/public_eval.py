"""Public poisoned MCP tools, measured (issue #20): published examples of tool poisoning
(scanners' test fixtures, vulnerable demo servers, benchmark code, security articles), collected
from the public-code index by helpers who never saw the detector. The payloads are other people's
text and stay out of this repository: `public/README.md` lists every source, and a set is a
directory with `poisoned.jsonl` and `benign.jsonl`, one object a line:

    {"id": ..., "family": ..., "class": ..., "location": ..., "weak_label": bool, "tool": {...}}

Each tool is read alone as a one-tool catalog by the shipped CLI (default policy: flagged by any
`poison-*` finding; `block`: hidden by one). A tool without an `inputSchema` gets `{"type":
"object"}` (without it the engine hides it as an invalid tool, which says nothing of the
detector). `strict` leaves out the items labelled weak (no explicit instruction). `--part`
splits the families in two by sha256(SALT + family) (odd: held), so that one half can be read
while choosing and the other measured once.

    python3 eval/poisoning/public_eval.py --cli target/release/mcp-guard --set DIR [--part dev|held] [--salt public2|] [--misses]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import subprocess
import tempfile


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "mcp-guard"))
    ap.add_argument("--set", required=True)
    ap.add_argument("--part", choices=("all", "dev", "held"), default="all")
    ap.add_argument("--salt", default="public2|")
    ap.add_argument("--misses", action="store_true", help="print the poisoned tools not flagged (development half only)")
    a = ap.parse_args()
    if a.misses and a.part != "dev":
        ap.error("--misses reads the development half only")

    def part_of(family: str) -> str:
        return "held" if hashlib.sha256((a.salt + family).encode()).digest()[0] % 2 else "dev"

    tmp = tempfile.mkdtemp()
    block = os.path.join(tmp, "block.json")
    json.dump({"core": {"tool_poisoning": {"mode": "block"}}}, open(block, "w"))

    def read(tool: dict) -> tuple[bool, bool]:
        cat = os.path.join(tmp, "catalog.json")
        json.dump({"tools": [tool]}, open(cat, "w"), ensure_ascii=False)
        run = lambda *extra: json.loads(subprocess.run([a.cli, "check", cat, "--format", "json", *extra], capture_output=True, text=True).stdout)
        flagged = any(f["kind"].startswith("poison-") for f in run()["findings"])
        hidden = flagged and any(h["reason"].startswith("poison-") for h in run("--policy", block)["hidden"])
        return flagged, hidden

    stats = collections.defaultdict(lambda: [0, 0, 0])
    for line in open(os.path.join(a.set, "poisoned.jsonl"), encoding="utf-8"):
        it = json.loads(line)
        if a.part != "all" and part_of(it["family"]) != a.part:
            continue
        tool = it["tool"]
        tool.setdefault("inputSchema", {"type": "object"})
        fl, hid = read(tool)
        keys = ["all", "class:" + it["class"], "location:" + it["location"]] + ([] if it.get("weak_label") else ["strict"])
        for k in keys:
            s = stats[k]
            s[0], s[1], s[2] = s[0] + 1, s[1] + fl, s[2] + hid
        if a.misses and not fl:
            print("missed", it["id"], it["class"], json.dumps(tool, ensure_ascii=False)[:400])
    print(f"{a.set} part {a.part}: flagged (default policy) / hidden (block)")
    for k in sorted(stats, key=lambda k: (k != "all", k != "strict", k)):
        n, f, h = stats[k]
        print(f"  {k:<30} n={n:<4} {100 * f / n:5.1f}% / {100 * h / n:5.1f}%")
    n = f = h = 0
    for line in open(os.path.join(a.set, "benign.jsonl"), encoding="utf-8"):
        tool = json.loads(line)["tool"]
        tool.setdefault("inputSchema", {"type": "object"})
        fl, hid = read(tool)
        n, f, h = n + 1, f + fl, h + hid
    print(f"  benign: {n} tools, flagged {f}, hidden {h}")


if __name__ == "__main__":
    main()
