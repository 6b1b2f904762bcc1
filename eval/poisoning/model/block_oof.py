#!/usr/bin/env python3
"""Block calibration on development out-of-fold scores (research only).

    python3 eval/poisoning/model/block_oof.py --set DIR --verdicts DIR/verdicts.jsonl [--seeds 3]

Which fitted-part tools would the engine hide if the learned scorer read them
as text never seen? The learned score of each `dev`/`train` item comes from
the 4 development folds (train.oof_scores, the shipped features, the
minibatch trainer, one run per seed); the rule kinds come from the engine
(tests/poisoning_eval.rs writes `rule_kinds`, the kinds of the findings of the
rules alone, to verdicts.jsonl). The engine's combination
(src/stages/poisoning.rs, src/poison/mod.rs `score`) is replayed at the item
level with each seed's out-of-fold thresholds: `Confident` from halfway
between flag and block, `Flagged` beside an exfiltration channel only, the
scorer alone from a quarter step above block. Variants of the rule for a
credential path (`poison-secret-access`) as the only rule kind beside the
scorer are compared on the same scores. Never reads a held-back part.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import train as T  # noqa: E402  (re-executes itself in the numpy venv)
import scorer  # noqa: E402

SECRET = "poison-secret-access"
EXFIL = "poison-exfiltration"


def group(k):
    return "poison-instruction" if k == "poison-shadowing" else k


def hidden(rule_kinds, s, th, variant):
    """Is the item hidden under `block`, for learned logit `s` and thresholds
    (flag, block), with the credential rule `variant`."""
    f, b = th
    corroborate, alone = f + (b - f) / 2, b + (b - f) / 4
    if s >= alone:
        return True
    kinds = sorted({group(k) for k in rule_kinds if k.startswith("poison-")})
    if not kinds:
        return False
    learned = "confident" if s >= corroborate else "flagged" if s >= f else "quiet"
    if learned == "flagged" and EXFIL in kinds:
        kinds.append("learned")
    if learned == "confident":
        only_secret = kinds == [SECRET]
        if variant == "v5" or not only_secret:
            kinds.append("learned")
        elif variant == "secret-needs-block" and s >= b:
            kinds.append("learned")
        # "secret-needs-rule": a credential path alone never pairs with the scorer
    return len(set(kinds)) >= 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", required=True)
    ap.add_argument("--verdicts", required=True)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--without", default="", help="SOURCE,SOURCE: training files left out")
    ap.add_argument("--vtags", default=scorer.VTAGS)
    a = ap.parse_args()
    verd = {}
    for line in open(a.verdicts, encoding="utf-8"):
        v = json.loads(line)
        verd[v["id"]] = v
    items = T.load_set(a.set)
    drop = set(x for x in a.without.split(",") if x)
    items = [(lab, tools) for lab, tools in items if lab.get("source") not in drop]
    real = T.real_servers()
    cfg = dict(T.CONFIGS["full"], vtags=a.vtags)
    fz = T.Featurizer(cfg, 16)
    rows, _ = T.build_training(items, real, fz)
    T.TRAINER = "minibatch"
    variants = ("v5", "secret-needs-block", "secret-needs-rule")
    res = {v: [] for v in variants}
    near = {}
    for seed in range(1, a.seeds + 1):
        T.TRAINERS["minibatch"] = lambda r, bits, l2, seed=seed: T.train_minibatch(r, bits, l2, seed=seed)
        oof = T.oof_scores(items, real, fz, rows, 16, 1e-5, 4)
        hard, realv, tf, tb = T.oof_thresholds(oof, "max")
        for v in variants:
            pos = [r for r in oof["items"] if r["kind"] == "poisoned" and r["part"] == "dev"]
            ben = [r for r in oof["items"] if r["kind"] == "benign"]
            hp = sum(hidden(verd[r["id"]]["rule_kinds"], r["max"], (tf, tb), v) for r in pos)
            hb = [r["id"] for r in ben if hidden(verd[r["id"]]["rule_kinds"], r["max"], (tf, tb), v)]
            hr = sum(r["max"] >= tb + (tb - tf) / 4 for r in oof["real"])
            res[v].append({"seed": seed, "flag": round(tf, 3), "block": round(tb, 3),
                           "dev_hidden": T.pct(hp, len(pos)), "hard_benign_hidden": hb, "real_hidden_alone": hr})
        for r in oof["items"]:
            if r["kind"] == "benign" and r["max"] >= tf + (tb - tf) / 2 and verd[r["id"]]["rule_kinds"]:
                near.setdefault(r["id"], []).append((seed, round(r["max"], 2), verd[r["id"]]["rule_kinds"]))
    for v in variants:
        print(v, json.dumps(res[v]))
    print("hard benign at or above the corroborate line with a rule kind (seed, logit, rule kinds):")
    for k in sorted(near):
        print(" ", k, near[k])


if __name__ == "__main__":
    main()
