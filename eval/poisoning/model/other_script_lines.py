"""The lines of the scorer's other-script reading (issue #20, session 39), from
development benign text only: for each non-Latin script with at least
MIN_HONEST honest units (`scorer._script_units`: runs of sentences mostly in
it), the first line above every one of them, in hundredths of a logit, never
below 0. A script with fewer has no line: above a handful of honest units a
line says little (a second red team flagged 15 of 76 honest Devanagari
samples at a line set from 22 units), and a script whose honest units reach
the flag line has none either (the weights saw attacks in it, and its honest
text scores like them).

Honest units: every unit of every tool, whatever its tool's own script, of
- the development part of `testdata/catalogs-wide` (real tools),
- the hard benign tools of the `dev` and `train` parts of the labelled set,
- transfer `--set 3` (328 hard benign tools, 80% in non-Latin scripts; used
  for `block` since session 35, so development data).
No held-back part, no held-out real server is read.

    python3 eval/poisoning/model/other_script_lines.py --set SET_DIR [--write | --check]

`--write` puts the table into scorer.py (`OTHER_SCRIPT_LINES`) and prints the
engine's (`src/poison/scripts.rs`, `LINES`); `--check` fails when scorer.py's
table is not what the data gives.
"""

import argparse
import json
import os
import re
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import scorer  # noqa: E402

REPO = scorer.REPO
MIN_HONEST = 50


def honest_tools(set_dir):
    split = json.load(open(os.path.join(REPO, "testdata", "catalogs-wide-split.json")))
    for name in split["development"]:
        path = os.path.join(REPO, "testdata", "catalogs-wide", name if name.endswith(".json") else name + ".json")
        yield from json.load(open(path, encoding="utf-8"))["tools"]
    labels = {}
    for f in ("labels.jsonl", "extra-labels.jsonl"):
        for line in open(os.path.join(set_dir, f), encoding="utf-8"):
            lab = json.loads(line)
            labels[lab["id"]] = lab
    for f in ("benign.jsonl", "extra-benign.jsonl"):
        for line in open(os.path.join(set_dir, f), encoding="utf-8"):
            it = json.loads(line)
            if labels[it["id"]]["part"] in ("dev", "train"):
                yield from it["catalog"]["tools"]
    for _topic, _lang, tool in runpy.run_path(os.path.join(REPO, "eval", "poisoning", "transfer2", "benign_d20.py"))["BENIGN"]:
        yield tool


def lines(set_dir):
    m = scorer.Model()
    best, n = {}, {}
    for tool in honest_tools(set_dir):
        for _at, field, unit, s in scorer._script_units(scorer.strings_of_tool(tool)):
            k = m.string_score(field, unit)
            if k is None:
                continue
            n[s] = n.get(s, 0) + 1
            best[s] = k if s not in best else max(best[s], k)
    out = {}
    for s in sorted(best):
        line = max(scorer.OTHER_SCRIPT_FLOOR, (best[s] * 100) // m.scale + 1)
        out[s] = None if n[s] < MIN_HONEST or line * m.scale >= m.flag * 100 else line
    return out, n, best, m.scale


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", required=True)
    ap.add_argument("--write", action="store_true")
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    table, n, best, scale = lines(a.set)
    # Only the scripts with a line are listed.
    listed = {s: v for s, v in table.items() if v is not None}
    for s in sorted(table):
        print(f"{s:<12} honest units {n[s]:>6}  highest {best[s] / scale:6.2f}  line {table[s]}")
    if a.check:
        if listed != scorer.OTHER_SCRIPT_LINES:
            sys.exit(f"scorer.py's OTHER_SCRIPT_LINES {scorer.OTHER_SCRIPT_LINES} is not {listed}")
        print("OTHER_SCRIPT_LINES is current")
    if a.write:
        path = os.path.join(HERE, "scorer.py")
        src = open(path, encoding="utf-8").read()
        src = re.sub(r"^OTHER_SCRIPT_LINES = \{.*?\}$", "OTHER_SCRIPT_LINES = " + repr(listed), src, count=1, flags=re.M)
        open(path, "w", encoding="utf-8").write(src)
        print("engine (src/poison/scripts.rs, LINES):")
        for s, v in listed.items():
            print(f'    ("{s}", {v}),')


if __name__ == "__main__":
    main()
