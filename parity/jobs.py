"""Writes the parity job list (parity/README.md, "Jobs") as JSON.

    python3 parity/jobs.py [TESTDATA_DIR] > jobs.json

TESTDATA_DIR holds catalogs/ and adversarial/ (default: the repository's
testdata/, whose large adversarial files scripts/parity.sh generates first).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

POLICIES = [
    ("default", "{}"),
    ("strict", '{"preset":"strict"}'),
    (
        "dialect-names",
        '{"core":{"schema_dialect":{"target":"openai-strict"},"tool_names":{"on_invalid_name":"sanitize"}}}',
    ),
    (
        "discovery-pinning",
        '{"core":{"discovery":{"mode":"on","core_tools":["*read*"]},'
        '"tool_definition_pinning":{"mode":"block","block_strategy":"baseline_subset"}}}',
    ),
    # Drift refused and the session closed: refuse decisions and
    # session-invalidated calls, which the policies above never reach.
    ("pinning-invalidate", '{"core":{"tool_definition_pinning":{"mode":"block","block_strategy":"error","block_error_session_action":"invalidate"}}}'),
]


def inputs(testdata: Path) -> list[dict]:
    out = []
    cases = ROOT / "conformance" / "cases"
    for case in sorted(p for p in cases.iterdir() if (p / "input.json").is_file()):
        opts = {}
        if (case / "options.json").is_file():
            opts = json.loads((case / "options.json").read_text(encoding="utf-8"))
        policy = None
        if (case / "policy.json").is_file():
            policy = (case / "policy.json").read_text(encoding="utf-8")
        out.append(
            {
                "input": f"conformance/{case.name}",
                "path": str(case / "input.json"),
                "server": opts.get("server"),
                "foreign_names": opts.get("foreign_names") or [],
                "case_policy": policy,
            }
        )
    for folder in ("catalogs", "adversarial"):
        d = testdata / folder
        files = sorted(p for p in d.iterdir() if p.suffix == ".json")
        if not files:
            sys.exit(f"parity: no catalogs in {d}")
        for p in files:
            out.append(
                {"input": f"{folder}/{p.name}", "path": str(p), "server": None, "foreign_names": [], "case_policy": None}
            )
    return out


def jobs(testdata: Path) -> list[dict]:
    ins = inputs(testdata)
    out = []
    for i, inp in enumerate(ins):
        nxt = ins[(i + 1) % len(ins)]["path"]
        policies = list(POLICIES)
        if inp["case_policy"] is not None:
            policies.append(("case", inp["case_policy"]))
        for label, text in policies:
            out.append(
                {
                    "input": inp["input"],
                    "path": inp["path"],
                    "next_path": nxt,
                    "policy": label,
                    "policy_json": text,
                    "server": inp["server"],
                    "foreign_names": inp["foreign_names"],
                }
            )
    return out


def main() -> None:
    if len(sys.argv) > 2:
        sys.exit(__doc__)
    testdata = Path(sys.argv[1]) if len(sys.argv) == 2 else ROOT / "testdata"
    json.dump({"jobs": jobs(testdata)}, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
