#!/usr/bin/env python3
"""Wide & deep prototype of the learned poisoning scorer (issue #20, recall).

The linear scorer (train.py) saturated: doubling the training text gained
nothing at equal false positives. This script keeps the v3 features of
scorer.py exactly (the same distinct buckets per segment, the same spans of
one or two segments, the same max over variants, strings and tools) and adds
a small hidden layer over the same buckets:

    score(span) = bias + sum_{segments s of span} lin(s)
                  + sum_h v_h * relu(b1_h + sum_{s} sum_{distinct b in s} E[b & MASK_E, h])

It compares linear models and wide & deep models IN ONE RUN on development
out-of-fold figures only (the same 4 folds as train.py, grouped by phrasing
family, benign tool and real server): recall at `flag` (<= 0.5% of
development real tools out of fold at or above) and at `block` (above every
development benign tool out of fold), by class. Every figure is computed with
the integer model (int16 linear weights, int8 E, i64 hidden sum shifted by
VSHIFT), the arithmetic a port would copy; `check` compares it with the float
model. The held-back parts (`held`, `held2`) are never read here.

    python3 mlp.py prep  --set DIR                  # featurize once (pickle in DIR, ~30 s)
    python3 mlp.py cv    --set DIR --grid report    # the comparison in README.md (~6 min)
    python3 mlp.py check --set DIR                  # integer spec == float model

Outcome (results/mlp-cv.json, README "Capacity"): the hidden layer adds
nothing over a linear model trained the same way (minibatch Adam, 4 epochs):
68.6% at flag for the linear model, 66-69% with 16 hidden units; what gains
(+17.7 points over the shipped 50.9%) is the training, not the capacity.

Needs numpy and scipy (sparse matrix products for the hidden layer; numpy
alone needs a bincount per hidden unit and step); makes its own venv like
train.py.
"""

import json
import os
import pickle
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PKGS = ["numpy==2.4.6", "scipy==1.17.1"]


def ensure_deps():
    try:
        import numpy  # noqa: F401
        import scipy  # noqa: F401
        return
    except ImportError:
        pass
    venv = os.environ.get("MLP_VENV")
    if not venv:
        tgt = os.environ.get("CARGO_TARGET_DIR")
        venv = os.path.join(tgt, "tools", "mlp-venv") if tgt else os.path.expanduser("~/.cache/mcp-guard/mlp-venv")
    py = os.path.join(venv, "bin", "python")
    if not os.path.exists(py):
        subprocess.check_call([sys.executable, "-m", "venv", venv])
        subprocess.check_call([py, "-m", "pip", "install", "-q"] + PKGS)
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        sys.exit("numpy/scipy missing in " + venv)
    os.execv(py, [py] + sys.argv)


ensure_deps()
import numpy as np  # noqa: E402
import scipy.sparse as sp  # noqa: E402

sys.path.insert(0, HERE)
import scorer  # noqa: E402
import train as T  # noqa: E402

BITS = 16
K = 4

# ---------------------------------------------------------------------------
# data: training rows (train.build_training) and an evaluation index


class Index:
    """Every distinct segment once (its distinct buckets), every string as its
    spans of one or two segments (per variant), every tool as its strings."""

    def __init__(self):
        self.seg_id, self.segs = {}, []
        self.str_id, self.str_spans = {}, []

    def seg(self, buckets):
        key = tuple(buckets)
        i = self.seg_id.get(key)
        if i is None:
            i = self.seg_id[key] = len(self.segs)
            self.segs.append(key)
        return i

    def string(self, fz, field, text):
        key = (field, text)
        i = self.str_id.get(key)
        if i is None:
            spans = []
            for _vk, buckets, _segs in fz.units(field, text):
                ids = [self.seg(b) for b in buckets]
                for a in range(len(ids)):
                    spans.append((ids[a], -1))
                    if a + 1 < len(ids):
                        spans.append((ids[a], ids[a + 1]))
            i = self.str_id[key] = len(self.str_spans)
            self.str_spans.append(spans)
        return i

    def tool(self, fz, tool):
        return [self.string(fz, f, t) for f, t in scorer.strings_of_tool(tool)]


def prep(set_dir, with_held):
    items = T.load_set(set_dir)
    real = T.real_servers()
    fz = T.Featurizer(T.CONFIGS["full"], BITS)
    rows, _ = T.build_training(items, real, fz)
    ix = Index()
    ev_items, ev_real = [], []
    for lab, tools in items:
        if lab["part"] in T.FIT_PARTS or with_held:
            ev_items.append((lab, [ix.tool(fz, t) for t in tools]))
    for f, held, tools in real:
        if not held or with_held:
            for t in tools:
                ev_real.append((f, held, t.get("name"), ix.tool(fz, t)))
    return {"rows": rows, "ix": ix, "items": ev_items, "real": ev_real}


def load(set_dir, with_held=False):
    path = os.path.join(set_dir, "mlp-prep%s.pkl" % ("-held" if with_held else ""))
    if not os.path.exists(path):
        t0 = time.time()
        d = prep(set_dir, with_held)
        with open(path, "wb") as fh:
            pickle.dump(d, fh, protocol=pickle.HIGHEST_PROTOCOL)
        print("prep %.0fs" % (time.time() - t0), flush=True)
    with open(path, "rb") as fh:
        return pickle.load(fh)


def csr(lists, ncols, colmap=None):
    indptr = np.zeros(len(lists) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(x) for x in lists])
    idx = np.fromiter((b for x in lists for b in x), dtype=np.int64, count=int(indptr[-1]))
    if colmap is not None:
        idx = colmap(idx)
    m = sp.csr_matrix((np.ones(len(idx), dtype=np.float32), idx, indptr), shape=(len(lists), ncols))
    m.sum_duplicates()
    return m


# ---------------------------------------------------------------------------
# the wide & deep model (float training)

def train_wd(X, XE, y, cfg, seed=1, init=None, keys=None):
    """Minibatch Adam, balanced classes (mean loss as train.train), L2 as
    weight decay; deterministic (fixed seed permutation and init)."""
    rng = np.random.default_rng(seed)
    n, nb = X.shape
    ne = XE.shape[1]
    H = cfg["H"]
    npos = y.sum()
    sw = np.where(y == 1, 0.5 / npos, 0.5 / (n - npos)).astype(np.float64)
    P = {"w": np.zeros(nb), "b": np.zeros(1),
         "E": rng.normal(0, cfg.get("init", 0.05), (ne, H)), "b1": np.zeros(H),
         "v": rng.normal(0, 0.5, H)}
    if init is not None:
        P["w"], P["b"] = init["w"].copy(), init["b"].copy()
    keys = keys or list(P)
    M = {k: np.zeros_like(p) for k, p in P.items()}
    V = {k: np.zeros_like(p) for k, p in P.items()}
    l2 = {"w": cfg["l2"], "b": 0.0, "E": cfg["l2e"], "b1": 0.0, "v": cfg.get("l2v", 1e-4)}
    bs, lr, drop = cfg.get("bs", 1024), cfg["lr"], cfg.get("drop", 0.0)
    b1m, b2m, eps = 0.9, 0.999, 1e-8
    step = 0
    nsteps = cfg["epochs"] * ((n + bs - 1) // bs)
    for _ep in range(cfg["epochs"]):
        perm = rng.permutation(n)
        for s in range(0, n, bs):
            ib = perm[s:s + bs]
            Xb, XEb = X[ib], XE[ib]
            if drop:
                # input dropout on the deep part: a phrase must not hang on one n-gram
                XEb = XEb.copy()
                XEb.data = XEb.data * (rng.random(len(XEb.data)) >= drop) / (1 - drop)
            if cfg.get("dropw"):
                Xb = Xb.copy()
                Xb.data = Xb.data * (rng.random(len(Xb.data)) >= cfg["dropw"]) / (1 - cfg["dropw"])
            a = XEb @ P["E"] + P["b1"]
            hr = np.maximum(a, 0)
            z = Xb @ P["w"] + hr @ P["v"] + P["b"][0]
            p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
            r = (p - y[ib]) * sw[ib] * (n / len(ib))
            ga = (r[:, None] * P["v"][None, :]) * (a > 0)
            G = {"w": Xb.T @ r, "b": np.array([r.sum()]), "E": XEb.T @ ga, "b1": ga.sum(0), "v": hr.T @ r}
            step += 1
            c1, c2 = 1 - b1m ** step, 1 - b2m ** step
            lrs = lr * (0.1 + 0.9 * (1 - step / nsteps))  # linear decay to 10%
            for k in keys:
                g = G[k] + l2[k] * P[k]
                M[k] = b1m * M[k] + (1 - b1m) * g
                V[k] = b2m * V[k] + (1 - b2m) * g * g
                P[k] -= lrs * (M[k] / c1) / (np.sqrt(V[k] / c2) + eps)
    return P


# ---------------------------------------------------------------------------
# quantization and exact integer scoring (what the engine does)

VSHIFT = 8          # v is stored with 8 extra bits; the hidden sum is shifted back
DEEP_CLAMP = 1 << 30


def quantize_wd(P):
    s = 32767.0 / max(float(np.abs(P["w"]).max()), 1e-12)
    if P["E"].shape[1] == 0:
        return {"scale": s, "w": np.clip(np.round(P["w"] * s), -32767, 32767).astype(np.int16),
                "bias": int(round(float(P["b"][0]) * s)), "E": None}
    Emax = float(np.abs(P["E"]).max())
    sE = 127.0 / max(Emax, 1e-12)
    Q = {"scale": s, "sE": sE,
         "w": np.clip(np.round(P["w"] * s), -32767, 32767).astype(np.int16),
         "bias": int(round(float(P["b"][0]) * s)),
         "E": np.clip(np.round(P["E"] * sE), -127, 127).astype(np.int8),
         "b1": np.round(P["b1"] * sE).astype(np.int64),
         # logit = v * relu(a / sE) -> score units: v * s / sE * relu(a)
         "v": np.round(P["v"] * s / sE * (1 << VSHIFT)).astype(np.int64)}
    return Q


def segment_tables(ix, Q, maskE):
    S = csr(ix.segs, 1 << BITS)
    lin = (S @ Q["w"].astype(np.float64)).astype(np.int64)  # exact: integers < 2^53
    if Q.get("E") is None:
        return lin, None
    SE = csr(ix.segs, maskE + 1, lambda i: i & maskE)
    hid = (SE @ Q["E"].astype(np.float64)).astype(np.int64)
    return lin, hid


def string_scores(ix, Q, maskE):
    """Per string: bias + best span (integers), None-like -2^40 when no span."""
    lin, hid = segment_tables(ix, Q, maskE)
    spans = [sp_ for ss in ix.str_spans for sp_ in ss]
    starts = np.cumsum([0] + [len(ss) for ss in ix.str_spans])
    A = np.array([a for a, _ in spans], dtype=np.int64)
    B = np.array([b for _, b in spans], dtype=np.int64)
    two = B >= 0
    Bc = np.where(two, B, 0)
    sc = lin[A] + np.where(two, lin[Bc], 0)
    if hid is not None:
        pre = hid[A] + np.where(two[:, None], hid[Bc], 0) + Q["b1"][None, :]
        deep = (np.maximum(pre, 0) * Q["v"][None, :]).sum(1) >> VSHIFT
        sc = sc + np.clip(deep, -DEEP_CLAMP, DEEP_CLAMP)
    out = np.full(len(ix.str_spans), -(1 << 40), dtype=np.int64)
    ne = starts[1:] > starts[:-1]
    out[ne] = np.maximum.reduceat(sc, starts[:-1][ne]) if len(sc) else 0
    out[ne] += Q["bias"]
    return out


def tool_score(ss, strs):
    return max((int(ss[i]) for i in strs), default=-(1 << 40))


def score_all(d, Q, maskE, items_pred, real_pred):
    ss = string_scores(d["ix"], Q, maskE)
    it = [(lab, max(tool_score(ss, t) for t in tools) / Q["scale"]) for lab, tools in d["items"] if items_pred(lab)]
    rl = [(f, held, name, tool_score(ss, t) / Q["scale"]) for f, held, name, t in d["real"] if real_pred(f, held)]
    return it, rl


# ---------------------------------------------------------------------------
# cross-validation: linear vs wide & deep, same folds, same run

def figures(it, rl):
    hard = sorted(s for lab, s in it if lab["kind"] == "benign")
    real = sorted(s for *_x, s in rl)
    pos = [(lab, s) for lab, s in it if lab["kind"] == "poisoned"]
    t_flag = real[int(0.995 * len(real))]
    t_block = max(hard[-1], real[-1])
    out = {"flag_logit": round(t_flag, 3), "block_logit": round(t_block, 3), "n_pos": len(pos),
           "n_hard": len(hard), "n_real": len(real),
           "hard_at_flag": sum(s > t_flag for s in hard)}
    for name, t in (("flag", t_flag), ("block", t_block)):
        out[name] = round(100.0 * sum(s > t for _l, s in pos) / len(pos), 2)
        by = {}
        for lab, s in pos:
            g = by.setdefault(lab["class"], [0, 0])
            g[0] += s > t
            g[1] += 1
        out[name + "_by_class"] = {k: round(100.0 * a / b, 1) for k, (a, b) in sorted(by.items())}
    return out


def _g(name, **kw):
    c = {"name": name, "H": 16, "ebits": 14, "l2": 1e-5, "l2e": 1e-5, "lr": 0.01, "epochs": 4}
    c.update(kw)
    return c


GRIDS = {
    "g5": [_g("stack-h16-e14", lr=3e-3, dropw=0.3, stage2={"lr": 1e-3, "epochs": 2, "l2e": 1e-3, "dropw": 0}),
           _g("stack-h16-e14-l2e1e-4", lr=3e-3, dropw=0.3, stage2={"lr": 1e-3, "epochs": 2, "l2e": 1e-4, "dropw": 0}),
           _g("stack-h16-e16", lr=3e-3, dropw=0.3, ebits=16, stage2={"lr": 1e-3, "epochs": 2, "l2e": 1e-3, "dropw": 0}),
           _g("stack-h16-e14-drop", lr=3e-3, dropw=0.3, stage2={"lr": 1e-3, "epochs": 2, "l2e": 1e-3, "drop": 0.3, "dropw": 0}),
           _g("stack-h16-e14-lr3e-3", lr=3e-3, dropw=0.3, stage2={"lr": 3e-3, "epochs": 4, "l2e": 1e-3, "dropw": 0})],
    "report": [{"name": "linear-shipped-trainer", "trainer": "full-batch"},
               _g("linear-minibatch", H=0, lr=3e-3, dropw=0.3),
               _g("linear-minibatch-bag3", H=0, lr=3e-3, dropw=0.3, bag=3),
               _g("wd-h16-e14", lr=3e-3, l2e=1e-2),
               _g("wd-h16-e14-bag3", lr=3e-3, l2e=1e-2, bag=3),
               _g("wd-h16-e16", lr=3e-3, ebits=16),
               _g("wd-h16-e16-bag3", lr=3e-3, ebits=16, bag=3),
               _g("wd-h8-e14-drop", lr=3e-3, l2e=1e-3, H=8, drop=0.3, dropw=0.3)],
    "g4": [_g("wd-lr3e-3-e16-s2", lr=3e-3, ebits=16, seed=2), _g("wd-lr3e-3-e16-s3", lr=3e-3, ebits=16, seed=3),
           _g("lin-lr3e-3-dropw0.3-s2", H=0, lr=3e-3, dropw=0.3, seed=2),
           _g("lin-lr3e-3-dropw0.3-s3", H=0, lr=3e-3, dropw=0.3, seed=3),
           _g("wd-lr3e-3-e16-l2e1e-2", lr=3e-3, ebits=16, l2e=1e-2),
           _g("wd-lr3e-3-e16-l2e3e-3-h8", lr=3e-3, ebits=16, l2e=3e-3, H=8)],
    "g3": [_g("lin-lr3e-3-ep3", H=0, lr=3e-3, epochs=3), _g("lin-lr3e-3-ep6", H=0, lr=3e-3, epochs=6),
           _g("lin-lr3e-3-dropw0.3", H=0, lr=3e-3, dropw=0.3), _g("lin-lr3e-3-l2-0", H=0, lr=3e-3, l2=0.0),
           _g("wd-lr3e-3-l2e1e-3", lr=3e-3, l2e=1e-3), _g("wd-lr3e-3-l2e3e-3", lr=3e-3, l2e=3e-3),
           _g("wd-lr3e-3-l2e1e-2", lr=3e-3, l2e=1e-2), _g("wd-lr1e-2-l2e1e-2", l2e=1e-2),
           _g("wd-lr3e-3-l2e1e-3-dropw", lr=3e-3, l2e=1e-3, dropw=0.3, drop=0.3),
           _g("wd-lr3e-3-l2e1e-3-h32", lr=3e-3, l2e=1e-3, H=32), _g("wd-lr3e-3-l2e1e-3-h8", lr=3e-3, l2e=1e-3, H=8),
           _g("wd-lr3e-3-l2e1e-3-e12", lr=3e-3, l2e=1e-3, ebits=12)],
    "g2": [_g("lin-lr1e-3", H=0, lr=1e-3), _g("lin-lr3e-3-ep2", H=0, lr=3e-3, epochs=2),
           _g("lin-lr3e-3-ep1", H=0, lr=3e-3, epochs=1), _g("lin-lr1e-3-ep2", H=0, lr=1e-3, epochs=2),
           _g("wd-lr3e-3", lr=3e-3), _g("wd-lr3e-3-ep2", lr=3e-3, epochs=2), _g("wd-lr1e-3", lr=1e-3),
           _g("wd-lr1e-3-ep2", lr=1e-3, epochs=2),
           _g("wd-lr3e-3-drop", lr=3e-3, drop=0.3), _g("wd-lr3e-3-h32", lr=3e-3, H=32),
           _g("wd-lr1e-3-h32-drop", lr=1e-3, H=32, drop=0.3), _g("wd-lr3e-3-e16", lr=3e-3, ebits=16)],
    "g1": [_g("mb-linear", H=0), _g("mb-linear-l2e-4", H=0, l2=1e-4), _g("mb-linear-lr3e-3", H=0, lr=3e-3),
           _g("wd-l2-1e-4", l2=1e-4, l2e=1e-4), _g("wd-ep2", epochs=2), _g("wd-ep8", epochs=8),
           _g("wd-drop0.3", drop=0.3), _g("wd-h8", H=8), _g("wd-h32", H=32), _g("wd-e16", ebits=16),
           _g("wd-lr3e-3", lr=3e-3), _g("wd-l2e-1e-3", l2e=1e-3)],
    "base": [{"name": "linear", "trainer": "full-batch"},
             {"name": "wd-h16-e14", "H": 16, "ebits": 14, "l2": 1e-5, "l2e": 1e-5, "lr": 0.01, "epochs": 4}],
}


def fold_data(d, k):
    rows = d["rows"]
    y = np.array([r[1] for r in rows], dtype=np.float64)
    folds = np.array([-1 if T.fold_of(r[2], K) is None else T.fold_of(r[2], K) for r in rows])
    return rows, y, folds


def run_config(d, cfg, X, XEs, y, train_mask):
    if cfg.get("trainer") == "full-batch":  # train.train, as shipped
        rows = [r for r, m in zip(d["rows"], train_mask) if m]
        w, b, _ = T.train(rows, BITS, cfg.get("l2", 1e-5))
        wq, bq, scale = T.quantize(w, b)
        return {"scale": scale, "w": wq, "bias": bq, "E": None}, 0
    maskE = (1 << cfg["ebits"]) - 1
    Xt, XEt, yt = X[train_mask], XEs[cfg["ebits"]][train_mask], y[train_mask]
    if cfg.get("stage2"):
        # the linear part first (as linear-minibatch), then only the hidden
        # units on top of it: do they add anything the linear part has not?
        lin = train_wd(Xt, XEt, yt, dict(cfg, H=0), seed=cfg.get("seed", 1))
        c2 = dict(cfg, **cfg["stage2"])
        Ps = [train_wd(Xt, XEt, yt, c2, seed=cfg.get("seed", 1), init=lin, keys=["E", "b1", "v"])]
    else:
        Ps = [train_wd(Xt, XEt, yt, cfg, seed=cfg.get("seed", 1) + k) for k in range(cfg.get("bag", 1))]
    # a bag of n models is one model: the wide parts averaged, the hidden
    # units side by side (n x H units, their output weights divided by n)
    n = len(Ps)
    P = {"w": sum(p["w"] for p in Ps) / n, "b": sum(p["b"] for p in Ps) / n,
         "E": np.concatenate([p["E"] for p in Ps], axis=1), "b1": np.concatenate([p["b1"] for p in Ps]),
         "v": np.concatenate([p["v"] for p in Ps]) / n}
    return quantize_wd(P), maskE


def cv(set_dir, grid):
    d = load(set_dir)
    rows, y, folds = fold_data(d, K)
    X = csr([r[0] for r in rows], 1 << BITS)
    XEs = {}
    for cfg in GRIDS[grid]:
        if "ebits" in cfg and cfg["ebits"] not in XEs:
            m = (1 << cfg["ebits"]) - 1
            XEs[cfg["ebits"]] = csr([r[0] for r in rows], m + 1, lambda i, m=m: i & m)
    results = {}
    for cfg in GRIDS[grid]:
        t0 = time.time()
        it_all, rl_all = [], []
        for f in range(K):
            Q, maskE = run_config(d, cfg, X, XEs, y, folds != f)
            it, rl = score_all(d, Q, maskE,
                               lambda lab, f=f: T.group_of(lab) is not None and T.fold_of(T.group_of(lab), K) == f,
                               lambda name, held, f=f: not held and T.fold_of("real:" + name, K) == f)
            it_all += it
            rl_all += rl
        fig = figures(it_all, rl_all)
        fig["seconds"] = round(time.time() - t0)
        fig["config"] = cfg
        results[cfg["name"]] = fig
        print("%-28s flag %5.1f%% block %5.1f%%  (t %.2f / %.2f, hard@flag %d) %ds | flag %s | block %s" % (
            cfg["name"], fig["flag"], fig["block"], fig["flag_logit"], fig["block_logit"], fig["hard_at_flag"],
            fig["seconds"], fig["flag_by_class"], fig["block_by_class"]), flush=True)
        with open(os.path.join(set_dir, "mlp-cv-%s.json" % grid), "w") as fh:
            json.dump(results, fh, indent=1, sort_keys=True)
    return results


def check(set_dir):
    """The integer spec against the float model it was quantized from, on
    the training rows of fold 0 (a bug in the integer path would understate
    the hidden layer)."""
    d = load(set_dir)
    rows, y, folds = fold_data(d, K)
    X = csr([r[0] for r in rows], 1 << BITS)
    XE = csr([r[0] for r in rows], 1 << 14, lambda i: i & ((1 << 14) - 1))
    m = folds != 0
    P = train_wd(X[m], XE[m], y[m], _g("check", lr=3e-3, l2e=1e-2))
    Q = quantize_wd(P)
    deep_f = np.maximum(XE @ P["E"] + P["b1"], 0) @ P["v"]
    zf = X @ P["w"] + deep_f + P["b"][0]
    lin = (X @ Q["w"].astype(np.float64)).astype(np.int64)
    pre = (XE @ Q["E"].astype(np.float64)).astype(np.int64) + Q["b1"]
    zi = (lin + ((np.maximum(pre, 0) * Q["v"]).sum(1) >> VSHIFT) + Q["bias"]) / Q["scale"]
    print("max |float - integer| %.3f logits, correlation %.7f; std of the linear part %.2f, of the hidden part %.2f" % (
        np.abs(zf - zi).max(), np.corrcoef(zf, zi)[0, 1], (X @ P["w"]).std(), deep_f.std()))


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=["prep", "cv", "check"])
    ap.add_argument("--set", default="/tmp/poisoning-eval-scorer")
    ap.add_argument("--grid", default="report")
    a = ap.parse_args()
    if a.cmd == "prep":
        load(a.set)
    elif a.cmd == "cv":
        cv(a.set, a.grid)
    else:
        check(a.set)


if __name__ == "__main__":
    main()
