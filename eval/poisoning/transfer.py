"""The carrier-transfer evaluation (issue #20): do payloads the detector never saw still get
flagged when they sit in tools it never saw?

Every item of the labelled set (`generate.py`, `generate_extra.py`) is a payload planted in one of
the 32 carriers of `carriers.py`, in every part, held parts included: a figure on those parts says
how the detector reads payloads in those 32 tools. Here the payloads of four writers (session 33,
`transfer/d12.py` .. `d15.py`: 2,449 sentences, 7 classes, 35 languages, written from the class
definitions and the earlier training files only) are planted twice, in the same field:

- in a carrier of `carriers.py` (as the generator does), and
- in one of 526 hard benign tools by two more writers (`transfer/benign_d13.py`,
  `benign_d14.py`: login, session, policy, masking, webhooks, payees, cc/bcc, ...),

and the shipped CLI (`mcp-guard check`, default policy; `block` policy for hidden) reads each as a
one-tool catalog. Each payload is planted a third time, in the unseen tool only, at one of the
labelled set's other locations (`plant.py`: titles, property names and titles, enum, default,
examples, const, `$defs`, outputSchema, format, pattern, split across two fields or two tools), in
rotation, and reported by location. No weight or rule is fitted on these files. Split by phrasing family
(sha256("transfer|" + family)[0] odd -> held): `dev` may be read while choosing, `held` once
after. The same benign tools alone give the false-positive side.

    python3 eval/poisoning/transfer.py [--cli target/release/mcp-guard] [--part dev|held|all] [--halves] [--set 1|2]
"""

from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import random
import runpy
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from carriers import CARRIERS  # noqa: E402
from plant import LOCATIONS, copy_tool, ensure_param, plant as plant_at, split_text, string_props  # noqa: E402

ATTACKS = ("d12.py", "d13.py", "d14.py", "d15.py")
BENIGN = ("benign_d13.py", "benign_d14.py")
# --set 2: the round-5 writers of session 34 (`transfer2/`: 1,678 sentences, 396 hard benign
# tools), written as training data from the training files only; they did not pay as training
# (model README "Round 11") and became a second set nothing is fitted on.
# --set 3: 328 hard benign tools, 80% in non-Latin scripts (`transfer2/benign_d20.py`, session
# 34), alone: is `block` safe outside Latin text? (transfer2's own benign tools were hidden 3 times.)
SETS = {"1": ("transfer", ATTACKS, BENIGN), "2": ("transfer2", ("d16.py", "d17.py", "d18.py"), ("benign_d19.py",)),
        "3": ("transfer2", (), ("benign_d20.py",))}
SLOTS = {"{secret}": "~/.ssh/id_rsa", "{env}": "OPENAI_API_KEY", "{url}": "https://sync-relay.example.net/c",
         "{email}": "archive@relay-mailbox.net", "{other}": "send_email", "{paytool}": "transfer_funds",
         "{param}": "notes"}
BLOCK = {"core": {"tool_poisoning": {"mode": "block"}}}


def part_of(family: str) -> str:
    return "held" if hashlib.sha256(("transfer|" + family).encode()).digest()[0] % 2 else "dev"


def half_of(family: str) -> str:
    """research (--halves): the development families in two halves, A and B, for an experiment
    that trains on A and reads B (README "Round 11")."""
    return "A" if hashlib.sha256(("transfer-ab|" + family).encode()).digest()[0] % 2 == 0 else "B"


def fill(text: str, this: str) -> str:
    for k, v in SLOTS.items():
        text = text.replace(k, v)
    return text.replace("{this}", this)


def plant(tool: dict, text: str, where: str) -> dict:
    """The payload appended to the description, or to the first property's description."""
    t = copy_tool(tool)
    props = t.get("inputSchema", {}).get("properties", {})
    if where == "property" and props:
        k = sorted(props)[0]
        if isinstance(props[k], dict):
            props[k]["description"] = (str(props[k].get("description", "")) + " " + text).strip()
            return t
    t["description"] = (str(t.get("description", "")) + " " + text).strip()
    return t


# Every other location the labelled set plants in (plant.py), in rotation over the payloads: the
# unseen tool gets the payload once more there. The description and the first property's
# description are the pairs above.
OTHER_LOCATIONS = [loc for loc in LOCATIONS if loc not in ("description", "property.description")]
CLASSES = ("authority", "exfil_url", "injection", "line_jumping", "secrecy", "secret", "shadowing")


def plant_other(tool: dict, second: dict, text: str, location: str, rng: random.Random) -> list[dict]:
    """The payload at `location` of a copy of `tool` (split ones: half in the description, half in a
    string property, or in a copy of `second`); returns the catalog's tools."""
    t = copy_tool(tool)
    t.setdefault("inputSchema", {"type": "object"})
    if location == "split.fields":
        a, b = split_text(text)
        t["description"] = (str(t.get("description", "")) + " " + a).strip()
        p = rng.choice(string_props(t))
        props = t["inputSchema"]["properties"]
        props[p]["description"] = (str(props[p].get("description", "")) + " " + b).strip()
        return [t]
    if location == "split.tools":
        a, b = split_text(text)
        t2 = copy_tool(second)
        if t2["name"] == t["name"]:
            t2["name"] += "_v2"
        t["description"] = (str(t.get("description", "")) + " " + a).strip()
        t2["description"] = (str(t2.get("description", "")) + " " + b).strip()
        return [t, t2]
    plant_at(t, text, location, rng, {"param": SLOTS["{param}"]})
    return [t]


class Cli:
    def __init__(self, path: str, tmp: str):
        self.path, self.tmp = path, tmp
        self.block = os.path.join(tmp, "block.json")
        json.dump(BLOCK, open(self.block, "w"))

    def read(self, tool: dict | list) -> tuple[bool, bool]:
        """(flagged by any poisoning finding under the default policy, hidden under `block`) for a
        tool, or for a catalog of several tools (hidden: any of them)."""
        cat = os.path.join(self.tmp, "catalog.json")
        with open(cat, "w", encoding="utf-8") as f:
            json.dump({"tools": tool if isinstance(tool, list) else [tool]}, f, ensure_ascii=False)
        d = json.loads(subprocess.run([self.path, "check", cat, "--format", "json"], capture_output=True, text=True).stdout)
        flagged = any(x["kind"].startswith("poison-") for x in d["findings"])
        hidden = False
        if flagged:
            b = json.loads(subprocess.run([self.path, "check", cat, "--policy", self.block, "--format", "json"],
                                          capture_output=True, text=True).stdout)
            # Hidden by the detector: a tool name outside [A-Za-z0-9._-] (transfer2's writer
            # named tools in their own script) is hidden under every policy, not for poisoning.
            hidden = any(h["reason"].startswith("poison-") for h in b["hidden"])
        return flagged, hidden


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", "target"), "release", "mcp-guard"))
    ap.add_argument("--part", default="dev", choices=("dev", "held", "all"))
    ap.add_argument("--halves", action="store_true", help="research: also report the families' halves A and B")
    ap.add_argument("--set", default="1", choices=sorted(SETS), help="1: transfer/ (session 33), 2: transfer2/ (session 34), 3: non-Latin hard benign tools alone")
    args = ap.parse_args()
    sdir, afiles, bfiles = SETS[args.set]
    attacks = [(c, fam, lang, text) for f in afiles for c, fam, lang, text in runpy.run_path(os.path.join(HERE, sdir, f))["DATA"]]
    benign = [tool for f in bfiles for _topic, _lang, tool in runpy.run_path(os.path.join(HERE, sdir, f))["BENIGN"]]
    carriers = [tool for _server, tool in CARRIERS]
    rng = random.Random(33)  # fixed: the same tool for the same payload in every run
    with tempfile.TemporaryDirectory() as tmp:
        cli = Cli(args.cli, tmp)
        stats = {k: collections.defaultdict(lambda: [0, 0, 0]) for k in ("carriers", "unseen tools")}
        other = collections.defaultdict(lambda: [0, 0, 0])
        for i, (cls, fam, lang, text) in enumerate(attacks):
            g, u = rng.choice(carriers), rng.choice(benign)  # drawn for every item: the draw does not depend on --part
            if args.part != "all" and part_of(fam) != args.part:
                continue
            where = "description" if i % 2 == 0 else "property"
            for key, tool in (("carriers", g), ("unseen tools", u)):
                fl, hid = cli.read(plant(tool, fill(text, tool["name"]), where))
                keys = [cls, "all", "lang:" + ("en" if lang == "en" else "other"), "field:" + where]
                if args.halves:
                    h = "half:" + half_of(fam)
                    keys += [h, h + ":" + cls]
                for k in keys:
                    s = stats[key][k]
                    s[0] += 1
                    s[1] += fl
                    s[2] += hid
            # The same payload once more in the unseen tool, at another location (its own RNG: the
            # pairs above draw exactly as before).
            loc = OTHER_LOCATIONS[(i * 5 + CLASSES.index(cls)) % len(OTHER_LOCATIONS)]
            lr = random.Random("transfer-location|%d" % i)
            second = lr.choice(benign)
            text_u = fill(text, u["name"])
            base = copy_tool(u)
            if "{param}" in text:
                base.setdefault("inputSchema", {"type": "object"})
                ensure_param(base, SLOTS["{param}"])
            fl, hid = cli.read(plant_other(base, second, text_u, loc, lr))
            for k in ("all", cls, "location:" + loc):
                s = other[k]
                s[0] += 1
                s[1] += fl
                s[2] += hid
        print(f"payloads of part {args.part}: flagged (default policy) / hidden (block), in the 32 carriers | in unseen tools")
        for k in sorted(stats["carriers"], key=lambda k: (k != "all", k)):
            a, b = stats["carriers"][k], stats["unseen tools"][k]
            print(f"  {k:<18} n={a[0]:<5} {100 * a[1] / a[0]:5.1f}% / {100 * a[2] / a[0]:4.1f}%  |  {100 * b[1] / b[0]:5.1f}% / {100 * b[2] / b[0]:4.1f}%")
        print("the same payloads in the unseen tools, at the labelled set's other locations (in rotation): flagged / hidden")
        for k in sorted(other, key=lambda k: (k != "all", k.startswith("location:"), k)):
            a = other[k]
            print(f"  {k:<34} n={a[0]:<5} {100 * a[1] / a[0]:5.1f}% / {100 * a[2] / a[0]:4.1f}%")
        fl = hid = 0
        for tool in benign:
            f, h = cli.read(tool)
            fl += f
            hid += h
        cf = sum(cli.read(t)[0] for t in carriers)
        print(f"benign, alone: {len(benign)} unseen hard benign tools flagged {fl} ({100 * fl / len(benign):.1f}%), hidden under block {hid}; "
              f"the 32 clean carriers flagged {cf}")


if __name__ == "__main__":
    main()
