#!/usr/bin/env python3
"""The seed rule (issue #20, round 8): how much the minibatch trainer's seed
moves the development out-of-fold figures, where that comes from, and which
rule removes it. Development only: `held`, `held2`, `held3` and the held-out
real servers are never read (T.oof_scores scores the fitted parts' folds).

    python3 eval/poisoning/model/variance.py --set DIR --seeds 24 [--trainers base,lr-half]
                                             [--always-train STEM,...] [--without STEM,...]
                                             [--out results/variance-r8.json]

One run trains every (trainer, seed, fold) once on the shipped features and
keeps the float weights, then scores the same out-of-fold items under each
rule:
  single      one seed's model (the status quo ships seed 1): mean and spread
              over seeds;
  bagK        the float weights of K seeds averaged per fold (a linear model:
              one table), quantized once, thresholds from the bag's own
              out-of-fold scores; disjoint bags (seeds 1..K, K+1..2K, ...);
  swa / ema   the weights averaged over the last epoch's steps (SWA), or an
              exponential average over every step, of one seed's run;
  flag-win    a smoother flag line: the mean of the development real tools'
              out-of-fold logits ranked in the 0.4%-0.6% top window, in place
              of the single 0.5% quantile (block unchanged);
and, to find what moves between seeds, the recall of seed i's poisoned
scores at seed j's flag line (rows: the poisoned scores; columns: the
benign tail).
"""

import json
import os
import statistics as st
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import train as T  # noqa: E402  (makes and enters its venv: numpy)
import scorer  # noqa: E402
import numpy as np  # noqa: E402

K_FOLDS = 4
# trainer variants: keyword arguments of `train_snapshots` (base = what ships)
TRAINERS = {
    "base": {},
    "lr-half-8ep": {"lr": 1.5e-3, "epochs": 8},
    "bs4096": {"bs": 4096, "lr": 6e-3},
    "ep2": {"epochs": 2},
    "bs4096-ep8": {"bs": 4096, "epochs": 8},
    "bs2048": {"bs": 2048, "lr": 4.5e-3},
    # round 10 candidates (README "Round 10 candidates"): the round-9 trainer
    # (train.MINIBATCH) and steps along its axis (less training), the same
    # thing seen as regularisation (`l2`, `drop`), and the round-4 training
    # files under it (`data`: a key of DATA)
    "r9": {"bs": 4096, "lr": 6e-3},
    "r9-bs8192": {"bs": 8192, "lr": 6e-3},
    "r9-lr3e-3": {"bs": 4096, "lr": 3e-3},
    "r9-ep3": {"bs": 4096, "lr": 6e-3, "epochs": 3},
    "r9-ep2": {"bs": 4096, "lr": 6e-3, "epochs": 2},
    "r9-lr1.2e-2-ep2": {"bs": 4096, "lr": 1.2e-2, "epochs": 2},
    "r9-l2-1e-6": {"bs": 4096, "lr": 6e-3, "l2": 1e-6},
    "r9-l2-1e-4": {"bs": 4096, "lr": 6e-3, "l2": 1e-4},
    "r9-drop0.2": {"bs": 4096, "lr": 6e-3, "drop": 0.2},
    "r9-drop0.45": {"bs": 4096, "lr": 6e-3, "drop": 0.45},
    "r9-drop0.6": {"bs": 4096, "lr": 6e-3, "drop": 0.6},
    "r9-drop0.7": {"bs": 4096, "lr": 6e-3, "drop": 0.7},
    "r9-drop0.8": {"bs": 4096, "lr": 6e-3, "drop": 0.8},
    "r9-drop0.7-ep5": {"bs": 4096, "lr": 6e-3, "drop": 0.7, "epochs": 5},
    "r9-r4-d12d13": {"bs": 4096, "lr": 6e-3, "data": "r4-d12d13"},
    "r9-r4-all": {"bs": 4096, "lr": 6e-3, "data": "r4-all"},
}
# Training data variants for a trainer row's `data`: the extra files (stems)
# left out of its training rows. Round 4's files (/work/data-out6, copied to
# extra/train_r4_*.py only in a research worktree: they are not committed and
# the set's digests stay) sit in train.ALWAYS_TRAIN, so every row scores the
# same items whatever its data; a row without `data` trains without them.
R4 = ("train_r4_d12", "train_r4_d13", "train_r4_d14", "train_r4_d15", "benign_train_r4_d13", "benign_train_r4_d14")
DATA = {"": set(R4), "r4-d12d13": {"train_r4_d14", "train_r4_d15", "benign_train_r4_d14"}, "r4-all": set()}


def train_snapshots(rows, bits, l2, epochs=4, ema_decay=0.99, **kw):
    """T.train_minibatch (its draws: `final` is its result), also returning
    the mean of the iterates over the last epoch (`swa`) and an exponential
    mean over every step (`ema`), gathered through its `on_step`."""
    acc = {"sw_w": np.zeros(1 << bits), "sw_b": 0.0, "sw_n": 0, "em_w": np.zeros(1 << bits), "em_b": 0.0, "steps": 0}

    def on_step(ep, w, b):
        if ep == epochs - 1:
            acc["sw_w"] += w
            acc["sw_b"] += b
            acc["sw_n"] += 1
        acc["em_w"] = ema_decay * acc["em_w"] + (1 - ema_decay) * w
        acc["em_b"] = ema_decay * acc["em_b"] + (1 - ema_decay) * b
        acc["steps"] += 1

    w, b, _info = T.train_minibatch(rows, bits, l2, epochs=epochs, on_step=on_step, **kw)
    c = 1 - ema_decay ** acc["steps"]  # bias-corrected like Adam's moments
    return {"final": (w, b), "swa": (acc["sw_w"] / acc["sw_n"], acc["sw_b"] / acc["sw_n"]),
            "ema": (acc["em_w"] / c, acc["em_b"] / c)}


def quantize_hi(w, b):
    """Near-float scoring (int64, 2^40 at the largest weight): what int16
    quantization costs, measured beside it."""
    scale = float(1 << 40) / max(float(np.abs(w).max()), 1e-12)
    return np.round(w * scale).astype(np.int64), int(round(b * scale)), scale


def oof_from(items, real, fz, per_fold, quant=T.quantize):
    """T.oof_scores with given per-fold float weights."""
    out = {"items": [], "real": []}
    for f in range(K_FOLDS):
        w, b = per_fold[f]
        wq, bq, scale = quant(w, b)
        its = [(lab, tools) for lab, tools in items
               if lab["part"] in T.FIT_PARTS and T.group_of(lab) is not None and T.fold_of(T.group_of(lab), K_FOLDS) == f]
        rl = [(name, held, tools) for name, held, tools in real if not held and T.fold_of("real:" + name, K_FOLDS) == f]
        res = T.evaluate(its, rl, fz, wq, bq)
        for part in ("items", "real"):
            for r in res[part]:
                r["max"] /= scale
                r["sum"] /= scale
                out[part].append(r)
    return out


def flag_window(real_sorted, lo=0.994, hi=0.996):
    """The smoother flag line: the mean of the ranks between lo and hi."""
    n = len(real_sorted)
    a, z = int(lo * n), int(hi * n)
    return float(np.mean(real_sorted[a:z + 1]))


def figures(oof, flag_rule="q"):
    """T.oof_summary's figures (flag, block, by class) with the flag line of
    `flag_rule` ("q": the 0.5% quantile, T's rule; "win": flag_window)."""
    hard, real, t_flag, t_block = T.oof_thresholds(oof, "max")
    if flag_rule == "win":
        t_flag = flag_window(real)
    pos = [r for r in oof["items"] if r["kind"] == "poisoned"]
    out = {"flag_logit": t_flag, "block_logit": t_block,
           "flag": 100.0 * sum(r["max"] > t_flag for r in pos) / len(pos),
           "block": 100.0 * sum(r["max"] > t_block for r in pos) / len(pos),
           "hard_at_flag": sum(h > t_flag for h in hard),
           "real_at_flag": sum(x > t_flag for x in real), "real_n": len(real)}
    for name, t in (("flag", t_flag), ("block", t_block)):
        by = {}
        for r in pos:
            g = by.setdefault(r["class"], [0, 0])
            g[0] += r["max"] > t
            g[1] += 1
        out["class_" + name] = {k: round(100.0 * a / n, 2) for k, (a, n) in sorted(by.items())}
    return out


def summarize(figs):
    def ms(key):
        xs = [f[key] for f in figs]
        return {"mean": round(st.mean(xs), 2), "sd": round(st.pstdev(xs), 2), "min": round(min(xs), 2),
                "max": round(max(xs), 2), "all": [round(x, 2) for x in xs]}
    out = {"n": len(figs), "flag": ms("flag"), "block": ms("block"), "flag_logit": ms("flag_logit"),
           "block_logit": ms("block_logit"), "hard_at_flag": [f["hard_at_flag"] for f in figs],
           "real_at_flag": [f["real_at_flag"] for f in figs]}
    for name in ("flag", "block"):
        cls = figs[0]["class_" + name]
        out["class_" + name] = {c: {"mean": round(st.mean(f["class_" + name][c] for f in figs), 1),
                                    "sd": round(st.pstdev(f["class_" + name][c] for f in figs), 1)} for c in cls}
    return out


def cross(oofs):
    """R[i][j]: recall of seed i's poisoned out-of-fold scores at seed j's
    flag line; the spread of row means (poisoned scores) against column means
    (the benign tail's line)."""
    lines = [T.oof_thresholds(o, "max")[2] for o in oofs]
    pos = [np.array([r["max"] for r in o["items"] if r["kind"] == "poisoned"]) for o in oofs]
    R = np.array([[100.0 * float((p > t).mean()) for t in lines] for p in pos])
    return {"R": [[round(x, 2) for x in row] for row in R],
            "sd_poisoned_scores(rows)": round(float(R.mean(1).std()), 2),
            "sd_flag_line(cols)": round(float(R.mean(0).std()), 2),
            "sd_diagonal": round(float(np.diag(R).std()), 2)}


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", default="/tmp/poisoning-eval-scorer")
    ap.add_argument("--seeds", type=int, default=24)
    ap.add_argument("--trainers", default="base")
    ap.add_argument("--bags", default="3,4,6")
    ap.add_argument("--always-train", default="", help="training file stems only ever in the training folds")
    ap.add_argument("--without", default="", help="training file stems left out")
    ap.add_argument("--snaps", default="final,swa,ema", help="which weights of each run to score")
    ap.add_argument("--hi", action="store_true", help="also score the bags at near-float precision")
    ap.add_argument("--no-singles", action="store_true", help="score only the bags (not each seed alone)")
    ap.add_argument("--out", default=os.path.join(HERE, "results", "variance-r8.json"))
    a = ap.parse_args()
    bits, l2 = 16, 1e-5
    T.ALWAYS_TRAIN = set(x for x in a.always_train.split(",") if x) | set(R4)
    without = set(x for x in a.without.split(",") if x)
    items = [(lab, tools) for lab, tools in T.load_set(a.set) if lab.get("source") not in without]
    real = T.real_servers()
    cfg = dict(T.CONFIGS["full"], clusters=scorer.ENGINE_CLUSTERS, cluster_feats=scorer.CLUSTER_FEATS)
    fz = T.Featurizer(cfg, bits)
    t0 = time.time()
    folds_of = {}  # data variant -> the 4 folds' training rows

    def folds_for(data):
        if data not in folds_of:
            t0 = time.time()
            rows, _ = T.build_training([(lab, tools) for lab, tools in items if lab.get("source") not in DATA[data]], real, fz)
            print("data %r: rows %d, %ds" % (data, len(rows), time.time() - t0), flush=True)
            folds_of[data] = [[r for r in rows if T.fold_of(r[2], K_FOLDS) != f] for f in range(K_FOLDS)]
        return folds_of[data]
    seeds = list(range(1, a.seeds + 1))
    res = {"seeds": seeds, "trainers": {t: TRAINERS[t] for t in a.trainers.split(",")}, "always_train": sorted(T.ALWAYS_TRAIN), "without": sorted(without), "rules": {}}

    def save():
        with open(a.out, "w", encoding="utf-8") as fh:
            json.dump(res, fh, indent=1, sort_keys=True)
            fh.write("\n")

    def report(name, figs, extra=None):
        s = summarize(figs)
        if extra:
            s.update(extra)
        res["rules"][name] = s
        print("%-22s flag %5.2f sd %4.2f [%5.2f..%5.2f] block %5.2f sd %4.2f | line %.2f sd %.2f | %s" % (
            name, s["flag"]["mean"], s["flag"]["sd"], s["flag"]["min"], s["flag"]["max"], s["block"]["mean"],
            s["block"]["sd"], s["flag_logit"]["mean"], s["flag_logit"]["sd"],
            " ".join("%s %.1f" % (c[:4], v["mean"]) for c, v in s["class_flag"].items())), flush=True)
        save()

    for tname in a.trainers.split(","):
        kw = dict(TRAINERS[tname])
        folds = folds_for(kw.pop("data", ""))
        l2r = kw.pop("l2", l2)
        W = {}  # (snap, seed) -> per-fold (w, b)
        t1 = time.time()
        for s in seeds:
            for f in range(K_FOLDS):
                snaps = train_snapshots(folds[f], bits, l2r, seed=s, **kw)
                for k, wb in snaps.items():
                    W.setdefault((k, s), [None] * K_FOLDS)[f] = wb
        print("%s: %d seeds x %d folds trained, %ds" % (tname, len(seeds), K_FOLDS, time.time() - t1), flush=True)
        singles = {}
        for snap in [x for x in a.snaps.split(",") if x and not a.no_singles]:
            oofs = [oof_from(items, real, fz, W[(snap, s)]) for s in seeds]
            if snap == "final":
                singles = oofs
            report("%s/%s" % (tname, snap), [figures(o) for o in oofs])
            if snap == "final":
                report("%s/%s/flag-win" % (tname, snap), [figures(o, "win") for o in oofs])
                res["rules"]["%s/final/cross" % tname] = cross(oofs)
                c = res["rules"]["%s/final/cross" % tname]
                print("  cross: sd rows (poisoned scores) %.2f, cols (flag line) %.2f, diagonal %.2f" % (
                    c["sd_poisoned_scores(rows)"], c["sd_flag_line(cols)"], c["sd_diagonal"]), flush=True)
        for k in [int(x) for x in a.bags.split(",") if x]:
            for snap in ("final",) if tname != "base" or a.no_singles else ("final", "swa"):
                figs, figs_hi, figs_win = [], [], []
                for j in range(len(seeds) // k):
                    group = seeds[j * k:(j + 1) * k]
                    per_fold = [(sum(W[(snap, s)][f][0] for s in group) / k, sum(W[(snap, s)][f][1] for s in group) / k)
                                for f in range(K_FOLDS)]
                    o = oof_from(items, real, fz, per_fold)
                    figs.append(figures(o))
                    figs_win.append(figures(o, "win"))
                    if a.hi:
                        figs_hi.append(figures(oof_from(items, real, fz, per_fold, quantize_hi)))
                report("%s/%s/bag%d" % (tname, snap, k), figs)
                report("%s/%s/bag%d/flag-win" % (tname, snap, k), figs_win)
                if figs_hi:
                    report("%s/%s/bag%d/float" % (tname, snap, k), figs_hi)
        if a.hi:
            report("%s/final/float" % tname, [figures(oof_from(items, real, fz, W[("final", s)], quantize_hi)) for s in seeds[:6]])
        del W
    save()


if __name__ == "__main__":
    main()
