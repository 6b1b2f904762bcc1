#!/usr/bin/env python3
"""Generate the two extra parts of the poisoning set (standard library only).

    python3 eval/poisoning/generate_extra.py --out DIR [--check]

Writes to DIR, beside what generate.py writes there:
  extra-poisoned.jsonl, extra-benign.jsonl, extra-labels.jsonl
with the same shapes as generate.py's files, and two parts:

  train   training text written after the first set, by writers who saw the
          class definitions, the slot list and the 44 family names to avoid,
          never the held-back items nor the detector (extra/train_*.py,
          extra/benign_train_*.py; round 3's files are named `*_r3_*` so
          that they sort after the earlier ones: ids are numbered in file
          order, and the earlier items keep theirs). Fitted on, like `dev`.
  held2   a second held-back part (extra/held2_*.py) written by a writer who
          saw neither the first set nor the training text: never fitted on,
          never read to choose anything; reported beside `held`.
  held3   a third held-back part (extra/held3_*.py, session 31) by a writer who saw
          only the class definitions and the kinds of input independent
          evaluators found missed (described by class, no instances); it may
          use the first set's held-back languages (pt, ru, ko, hi, uk), since
          nothing is fitted on it. Never fitted on, read once per session.
  held4   a fourth held-back part (extra/held4_*.py, session 36) in nine
          languages no fitted part has (HELD4_LANGUAGES), by a writer who saw
          only the class definitions: languages never fitted, beside the first
          set's four. Never fitted on, read once per session.

Every sentence becomes items the way generate.py makes them (the same
carriers, slots, locations and encodings; its make_item): one in the tool
description, one in another location in rotation, and every third sentence
once more encoded, encodings in rotation. The families of both parts are
named `x.<form>` so that they never share a name with generate.py's 44.
--check compares the SHA-256 of the written files with
expected-digests-extra.json (the output is deterministic).
"""

import argparse
import hashlib
import json
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import generate as g  # noqa: E402

EXTRA = os.path.join(HERE, "extra")
OTHER_LOCATIONS = [l for l in g.LOCATIONS if l != "description"]


def sources(prefix, var):
    """(file stem, entries) for extra/<prefix>*.py, sorted by name."""
    out = []
    for f in sorted(os.listdir(EXTRA)):
        if f.startswith(prefix) and f.endswith(".py"):
            out.append((f[:-3], runpy.run_path(os.path.join(EXTRA, f))[var]))
    return out


# Id prefix per part: held2 and held3 share a first letter.
ID_PREFIX = {"train": "t", "held2": "h", "held3": "k", "held4": "q"}
# Parts that may use the first set's held-back languages: only parts nothing
# is fitted on (a training sentence in Russian would leak into `held`).
MEASURE_ONLY = ("held3", "held4")
# `held4`'s languages (session 36): in no fitted part, nor a near neighbour of
# a fitted language (bg, be, sr of the fitted Slavic ones; ur, ne, mr of hi;
# az of tr; sk of cs). The transfer sets, never fitted either, have lt.
HELD4_LANGUAGES = ("bn", "ta", "te", "tl", "ka", "hy", "sq", "lt", "mn")


def language_allowed(part, lang):
    if part == "held4":
        return lang in HELD4_LANGUAGES
    if lang in HELD4_LANGUAGES:
        return False
    return lang not in g.HELD_LANGUAGES or part in MEASURE_ONLY


def check_entry(part, src, e):
    if len(e) != 4 or e[0] not in g.CLASSES or not all(isinstance(x, str) and x for x in e):
        sys.exit("%s: bad entry %r" % (src, e))
    if not language_allowed(part, e[2]):
        sys.exit("%s: language %s is not allowed in part %s" % (src, e[2], part))


def build(part, prefix, split):
    items, labels = [], []
    seen = set()
    n = 0
    enc_counter = 0
    for src, data in sources(prefix, "DATA"):
        for k, e in enumerate(data):
            check_entry(part, src, e)
            cls, form, lang, text = e
            if (cls, text) in seen:
                continue  # the same sentence twice in one part counts once
            seen.add((cls, text))
            rng = g.rng_for("extra", part, src, cls, form, lang, text)
            locs = [("description", "none", None),
                    (OTHER_LOCATIONS[(k * 5 + g.CLASSES.index(cls)) % len(OTHER_LOCATIONS)], "none", None)]
            if k % 3 == 0:
                enc = g.ENCODINGS[enc_counter % len(g.ENCODINGS)]
                if enc == "unicode_tags" and any(ord(c) > 127 for c in text):
                    enc = "base64"  # tag characters carry ASCII only
                hint = None if enc == "unicode_tags" or (enc_counter // len(g.ENCODINGS)) % 2 else enc_counter % 2
                loc = "description" if enc == "unicode_tags" else g.ENCODED_LOCATIONS[enc_counter % len(g.ENCODED_LOCATIONS)]
                locs.append((loc, enc, hint))
                enc_counter += 1
            for loc, enc, hint in locs:
                n += 1
                item, label = g.make_item("%s%05d" % (ID_PREFIX[part], n), cls, "x." + form, lang, text, loc, enc, hint, rng, split)
                label["part"] = part
                label["source"] = src
                items.append(item)
                labels.append(label)
    return items, labels


def build_benign(part, prefix):
    items, labels = [], []
    names = set()
    n = 0
    for src, data in sources(prefix, "BENIGN"):
        for topic, lang, tool in data:
            if not language_allowed(part, lang):
                sys.exit("%s: language %s is not allowed in part %s" % (src, lang, part))
            if tool["name"] in names:
                continue
            names.add(tool["name"])
            n += 1
            iid = "%sb%04d" % (ID_PREFIX[part], n)
            items.append({"id": iid, "catalog": {"tools": [g.copy_tool(tool)]}})
            labels.append({"id": iid, "kind": "benign", "part": part, "topic": topic, "language": lang,
                           "tools": [tool["name"]], "source": src})
    return items, labels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--write-digests", action="store_true")
    a = ap.parse_args()
    split = g.compute_split()
    p_items, p_labels, b_items, b_labels = [], [], [], []
    for part, attacks, benign in (("train", "train_", "benign_train_"), ("held2", "held2_attacks", "held2_benign"),
                                  ("held3", "held3_attacks", "held3_benign"), ("held4", "held4_attacks", "held4_benign")):
        it, lb = build(part, attacks, split)
        p_items += it
        p_labels += lb
        it, lb = build_benign(part, benign)
        b_items += it
        b_labels += lb
    os.makedirs(a.out, exist_ok=True)
    g.write_jsonl(os.path.join(a.out, "extra-poisoned.jsonl"), p_items)
    g.write_jsonl(os.path.join(a.out, "extra-benign.jsonl"), b_items)
    g.write_jsonl(os.path.join(a.out, "extra-labels.jsonl"), p_labels + b_labels)
    digests = {f: g.digest(os.path.join(a.out, f)) for f in ("extra-poisoned.jsonl", "extra-benign.jsonl", "extra-labels.jsonl")}
    dpath = os.path.join(HERE, "expected-digests-extra.json")
    if a.write_digests:
        with open(dpath, "w", encoding="utf-8", newline="\n") as f:
            f.write(json.dumps(digests, indent=1, sort_keys=True) + "\n")
    if a.check:
        with open(dpath, encoding="utf-8") as f:
            if json.load(f) != digests:
                sys.exit("generated extra set differs from expected-digests-extra.json: %s" % json.dumps(digests))
    for part in ("train", "held2", "held3", "held4"):
        sel = [l for l in p_labels + b_labels if l["part"] == part]
        pois = [l for l in sel if l["kind"] == "poisoned"]
        fam = {}
        for l in pois:
            fam.setdefault(l["class"], set()).add(l["form"])
        print("%s: poisoned %d (sentences %d), benign %d, languages %d, families/class %s" % (
            part, len(pois), len({(l["class"], l["payload"]) for l in pois}),
            len(sel) - len(pois), len({l["language"] for l in sel}), {k: len(v) for k, v in sorted(fam.items())}))


if __name__ == "__main__":
    main()
