#!/usr/bin/env python3
"""Fit the discovery search's learned query expansions (src/discovery/expand.rs)
on the training queries of eval/search/train/, choose its settings on servers
left out of the fitting, and write the table the engine ships.

Steps (README.md beside this file says why each is so):

1. `cargo test --release --test search_train dump -- --ignored`: the engine
   writes every training query and development query with its stems, and every
   tool of their catalogs with its terms per field (exactly the search's
   analysis: no tokenizer or stemmer is re-implemented here).
2. Fit: for a query stem q and a tool stem t, over the training queries that
   say q,

       lift(q, t) = sum over those queries of  x_t(right tool) - mean_{tools of its catalog} x_t(tool)
       weight(q, t) = lift(q, t) / (n(q) + ALPHA)

   where x_t(tool) is the weight of the best field of the tool that has t
   (FIELD_X) and n(q) the number of queries saying q. A pair is kept when t
   was in the right tool's text for at least MIN_QUERIES queries of at least
   MIN_CATALOGS catalogs (a word learnt on one server is that server's
   vocabulary), its weight is above MIN_WEIGHT, and t is not q; at most
   TOP_K pairs per q, strongest first. The engine uses weight * SCALE (capped
   at 255/256 of the word itself) as the weight of t as an alternative of q.
3. `--cv`: 5 folds by server (sha256 of the catalog name); each fold's table
   is fitted on the other four and evaluated by the engine
   (`search_train evaluate`) on the fold's queries, beside the ranker without
   expansions; the development part of eval/search is the second check.
4. `--write`: fit on every training query and write
   src/discovery/expand_table.rs (generated, do not edit).

Deterministic: sorted iteration everywhere, no randomness, integer output.
Standard library only.
"""
import argparse, hashlib, json, os, subprocess, sys, tempfile
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
TABLE_RS = os.path.join(ROOT, "src", "discovery", "expand_table.rs")

# Settings (chosen by --cv; see README.md). Fields: name, title, lead
# sentence, property names, description, property descriptions.
SETTINGS = dict(
    FIELD_X=(1.0, 1.0, 0.6, 0.4, 0.4, 0.0),
    ALPHA=2.0,
    MIN_QUERIES=2,
    MIN_CATALOGS=2,
    MIN_WEIGHT=0.05,
    TOP_K=12,
    SCALE=1.0,
    USE_DEV=True,
    HARD=0.0,
    HARD_K=5,
)
FOLDS = 5


def target_dir():
    return os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))


def cargo_test(fn, env):
    cmd = ["cargo", "test", "-q", "--release", "--test", "search_train", fn, "--", "--ignored", "--nocapture"]
    r = subprocess.run(cmd, cwd=ROOT, env={**os.environ, **env}, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(r.stdout + r.stderr)
    return r.stdout


def load_dump(path):
    cats = []
    for line in open(path):
        if line.strip():
            cats.append(json.loads(line))
    return cats


def fresh_dump():
    """The engine's features of every catalog, dumped now (a file per
    process: two runs at once must not read each other's half-written file)."""
    path = os.path.join(target_dir(), f"search-train-dump.{os.getpid()}.jsonl")
    cargo_test("dump", {"SEARCH_TRAIN_DUMP": path})
    cats = load_dump(path)
    os.remove(path)
    return cats


def fold_of(catalog):
    return hashlib.sha256(("search-train|" + catalog).encode()).digest()[0] % FOLDS


def tool_x(fields, field_x):
    """stem -> weight of the best field that has it."""
    x = {}
    for f, terms in enumerate(fields):
        w = field_x[f]
        if w <= 0:
            continue
        for t in terms:
            if x.get(t, 0.0) < w:
                x[t] = w
    return x


def fit(cats, s, hard=None):
    lift = defaultdict(float)
    hits = defaultdict(int)  # queries where t is in the right tool
    hit_cats = defaultdict(set)
    n = defaultdict(int)
    for c in cats:
        xs = [tool_x(t, s["FIELD_X"]) for t in c["tools"]]
        ntools = len(xs)
        mean = defaultdict(float)
        for x in xs:
            for t, w in x.items():
                mean[t] += w / ntools
        for qi, q in enumerate(c["queries"]):
            qs = sorted(set(q["terms"]))
            base = mean
            comp = hard.get((c["catalog"], qi)) if hard else None
            if comp:
                # what the right tool must beat: the tools ranked above it
                # without expansions, mixed with the catalog as a whole
                h = s["HARD"]
                base = defaultdict(float)
                for t, m in mean.items():
                    base[t] = (1 - h) * m
                for i in comp:
                    for t, w in xs[i].items():
                        base[t] += h * w / len(comp)
            # the right tools' words: the best of them per stem
            pos = {}
            for i in q["expect"]:
                for t, w in xs[i].items():
                    pos[t] = max(pos.get(t, 0.0), w)
            for a in qs:
                n[a] += 1
                for t, w in pos.items():
                    # a number in a tool's text is an example, not a meaning
                    if t == a or t.isdigit():
                        continue
                    d = w - base[t]
                    lift[(a, t)] += d
                    if d > 0:
                        hits[(a, t)] += 1
                        hit_cats[(a, t)].add(c["catalog"])
    table = defaultdict(list)
    for (a, t), l in lift.items():
        if hits[(a, t)] < s["MIN_QUERIES"] or len(hit_cats[(a, t)]) < s["MIN_CATALOGS"]:
            continue
        w = l / (n[a] + s["ALPHA"])
        if w < s["MIN_WEIGHT"]:
            continue
        table[a].append((w, t))
    out = {}
    for a in sorted(table):
        best = sorted(table[a], key=lambda p: (-p[0], p[1]))[: s["TOP_K"]]
        out[a] = [(t, max(1, min(255, round(256 * w * s["SCALE"])))) for w, t in best]
    return out


def write_text_table(table, path):
    with open(path, "w") as f:
        for a in sorted(table):
            for t, w in table[a]:
                f.write(f"{a} {t} {w}\n")


def write_plan(plan):
    """The plan file the engine-side runner (tests/search_train.rs) reads, and
    its tables, in a fresh directory: (directory, plan path)."""
    d = tempfile.mkdtemp(prefix="search-train-", dir=target_dir())
    lines = []
    for i, (label, table, cats, *bil) in enumerate(plan):
        path = "-"
        if table is not None:
            path = os.path.join(d, f"t{i}.txt")
            write_text_table(table, path)
        # the dense feature's bilinear map for this label (vectors.py --fit)
        lines.append(f"{label}\t{path}\t{','.join(cats)}" + "".join(f"\t{b}" for b in bil))
    plan_path = os.path.join(d, "plan.tsv")
    open(plan_path, "w").write("\n".join(lines) + "\n")
    return d, plan_path


def evaluate(plan):
    """plan: [(label, table or None, [catalogs])] -> {label: (n, top1, top3, mrr)}"""
    _, plan_path = write_plan(plan)
    out = cargo_test("evaluate", {"SEARCH_TRAIN_PLAN": plan_path})
    res = {}
    for line in out.splitlines():
        if line.startswith("RESULT\t"):
            _, label, n, t1, t3, rr = line.split("\t")
            res[label] = (int(n), int(t1), int(t3), float(rr))
    return res


FEATURE_ONE = 16
# Where the fit of the feature weights starts: the hand-set ranker, all 16
# (features: the query's own words, synonym groups, learned expansions, WordNet
# relations, name coverage, the two word-vector cosines;
# src/discovery/search.rs, FEATURES).
FEATURE_WEIGHTS = (16, 16, 16, 16, 16, 16, 16)
DENSE = 2  # the last features: word-vector cosines (vectors.py)
ONE = 1 << 16


def evaluate_features(plan):
    """Like evaluate, and the features of every query: {label: [(catalog, class, want, [(doc, feats)])]}"""
    d, plan_path = write_plan(plan)
    feats_path = os.path.join(d, "features.tsv")
    cargo_test("evaluate", {"SEARCH_TRAIN_PLAN": plan_path, "SEARCH_TRAIN_FEATURES": feats_path})
    out = defaultdict(list)
    for line in open(feats_path):
        line = line.rstrip("\n")
        if not line:
            continue
        label, catalog, cls, want, fs = line.split("\t")
        docs = []
        for item in fs.split(";") if fs else []:
            doc, xs = item.split(":")
            docs.append((int(doc), tuple(int(x) for x in xs.split(","))))
        out[label].append((catalog, cls, {int(w) for w in want.split(",")}, docs))
    return out


def rank_of(docs, want, weights):
    """The engine's ranking (SearchIndex::search), integer for integer."""
    scored = []
    for doc, xs in docs:
        s = sum(x * w for x, w in zip(xs, weights)) // FEATURE_ONE
        milli = s * 1000 // ONE
        if milli > 0:
            scored.append((-milli, doc))
    scored.sort()
    for r, (_, doc) in enumerate(scored[:10]):
        if doc in want:
            return r + 1
    return None


def metrics(rows, weights):
    n = t1 = t3 = 0
    rr = 0.0
    for _, _, want, docs in rows:
        r = rank_of(docs, want, weights)
        n += 1
        t1 += r == 1
        t3 += r is not None and r <= 3
        rr += 1 / r if r else 0
    return n, t1, t3, rr


def objective(m):
    n, t1, t3, rr = m
    return t3 + 0.5 * t1 + 0.5 * rr


def fit_weights(rows, start, steps=(16, 8, 4, 2, 1), lo=0, hi=192, frozen=()):
    """Coordinate ascent on the out-of-fold training queries: each weight in
    turn moved by +-step while the objective improves (ties keep the current
    weights, so the result does not depend on float noise)."""
    w = list(start)
    best = objective(metrics(rows, w))
    for step in steps:
        improved = True
        while improved:
            improved = False
            for i in range(len(w)):
                if i in frozen:
                    continue
                for delta in (step, -step):
                    cand = list(w)
                    cand[i] = min(hi, max(lo, cand[i] + delta))
                    if cand == w:
                        continue
                    o = objective(metrics(rows, cand))
                    if o > best + 1e-9:
                        w, best, improved = cand, o, True
    return w


def bilinear(label):
    """The dense feature's bilinear map fitted without `label`'s queries
    (`vectors.py --fit` writes one per fold and one on all training servers)."""
    path = os.path.join(target_dir(), "search-vectors", f"B-{label}.txt")
    if not os.path.exists(path):
        sys.exit(f"{path} missing: run eval/search/model/vectors.py --fit first")
    return path


def ltr(cats, s, start=FEATURE_WEIGHTS):
    train = [c for c in cats if c["set"] == "train"]
    plan = []
    for k in range(FOLDS):
        fit_on = [c for c in train if fold_of(c["catalog"]) != k]
        held = [c["catalog"] for c in train if fold_of(c["catalog"]) == k]
        plan.append((f"f{k}", fit(fit_on, s), held, bilinear(f"f{k}")))
    plan.append(("dev", fit(train, s), ["dev"], bilinear("dev")))
    plan.append(("dev-none", None, ["dev"], bilinear("dev")))
    feats = evaluate_features(plan)
    oof = [r for k in range(FOLDS) for r in feats[f"f{k}"]]
    w = fit_weights(oof, start)
    nodense = fit_weights(oof, list(start[:-DENSE]) + [0] * DENSE, frozen=set(range(len(start) - DENSE, len(start))))
    for label, rows, ws in [("train-oof start", oof, start), ("train-oof no dense", oof, nodense), ("train-oof fitted", oof, w), ("dev start", feats["dev"], start), ("dev no dense", feats["dev"], nodense), ("dev fitted", feats["dev"], w), ("dev no table, fitted", feats["dev-none"], w)]:
        n, t1, t3, rr = metrics(rows, ws)
        print(f"{label:22} top1 {pct(t1, n):18} top3 {pct(t3, n):18} mrr {rr / n:.4f}")
    print("weights", w)
    return w, feats


def hard_negatives(cats, k):
    """(catalog, query index) -> the top-k tools (not the right ones) of the
    ranker without expansions, for every training and development query."""
    plan = [("all", None, [c["catalog"] for c in cats if c["set"] == "train"] + ["dev"])]
    feats = evaluate_features(plan)["all"]
    out, pos = {}, defaultdict(int)
    for catalog, _, want, docs in feats:
        scored = sorted((-(sum(x * w for x, w in zip(xs, FEATURE_WEIGHTS)) // FEATURE_ONE), d) for d, xs in docs)
        qi = pos[catalog]
        pos[catalog] += 1
        out[(catalog, qi)] = [d for _, d in scored if d not in want][:k]
    return out




def pct(k, n):
    return f"{k}/{n} = {100 * k / max(n, 1):.1f}%"


def cv(cats, settings_list):
    train = [c for c in cats if c["set"] == "train"]
    dev = [c for c in cats if c["set"] == "dev"]
    plan = []
    for k in range(FOLDS):
        held = [c["catalog"] for c in train if fold_of(c["catalog"]) == k]
        plan.append((f"base/f{k}", None, held))
    plan.append(("base/dev", None, ["dev"]))
    hard = {}
    for k in sorted({s["HARD_K"] for s in settings_list if s["HARD"] > 0}):
        hard[k] = hard_negatives(cats, k)
    for si, s in enumerate(settings_list):
        for k in range(FOLDS):
            fit_on = [c for c in train if fold_of(c["catalog"]) != k]
            held = [c["catalog"] for c in train if fold_of(c["catalog"]) == k]
            plan.append((f"s{si}/f{k}", fit(fit_on, s, hard.get(s["HARD_K"])), held))
        plan.append((f"s{si}/dev", fit(train, s, hard.get(s["HARD_K"])), ["dev"]))
    res = evaluate(plan)
    rows = [("base", None)] + [(f"s{si}", s) for si, s in enumerate(settings_list)]
    for label, s in rows:
        n = sum(res[f"{label}/f{k}"][0] for k in range(FOLDS))
        t1 = sum(res[f"{label}/f{k}"][1] for k in range(FOLDS))
        t3 = sum(res[f"{label}/f{k}"][2] for k in range(FOLDS))
        rr = sum(res[f"{label}/f{k}"][3] for k in range(FOLDS))
        dn, d1, d3, drr = res[f"{label}/dev"]
        desc = "no expansions" if s is None else " ".join(f"{k}={v}" for k, v in s.items() if v != SETTINGS.get(k))
        print(f"{label:5} train-cv top1 {pct(t1, n):18} top3 {pct(t3, n):18} mrr {rr / n:.4f} | dev top1 {pct(d1, dn):18} top3 {pct(d3, dn):18} | {desc or 'defaults'}")
    return res


RS_HEADER = """// Generated by eval/search/model/train.py --write — do not edit.
// Learned query expansions (src/discovery/expand.rs): {pairs} pairs over
// {sources} query stems, fitted on {queries} training queries of {catalogs}
// catalogs (eval/search/train/). Settings: {settings}.
"""


def write_rs(table, weights, cats, s):
    words = sorted(set(table) | {t for v in table.values() for t, _ in v})
    index = {w: i for i, w in enumerate(words)}
    start, pairs = [0], []
    for w in words:
        for t, wt in table.get(w, []):
            pairs.append(index[t] << 8 | wt)
        start.append(len(pairs))
    fitted = [c for c in cats if c["set"] == "train" or (s["USE_DEV"] and c["set"] == "dev")]
    head = RS_HEADER.format(
        pairs=len(pairs),
        sources=len(table),
        queries=sum(len(c["queries"]) for c in fitted),
        catalogs=len(fitted),
        settings=", ".join(f"{k}={v}" for k, v in s.items()),
    )

    def chunks(items, per):
        for i in range(0, len(items), per):
            yield "    " + " ".join(items[i : i + per])

    body = [head, "pub(super) static WORDS: &[&str] = &["]
    body += chunks([json.dumps(w, ensure_ascii=False) + "," for w in words], 8)
    body += ["];", "pub(super) static START: &[u32] = &["]
    body += chunks([f"{x}," for x in start], 16)
    body += ["];", "pub(super) static PAIRS: &[u32] = &["]
    body += chunks([f"{x}," for x in pairs], 12)
    body += ["];", ""]
    body += [
        "// Feature weights of the search score (src/discovery/search.rs, FEATURES), in",
        "// 1/16, fitted on out-of-fold features of the training queries.",
        f"pub(super) const FEATURE_WEIGHTS: [u64; {len(weights)}] = [{', '.join(str(w) for w in weights)}];",
        "",
    ]
    open(TABLE_RS, "w").write("\n".join(body))
    print(f"wrote {TABLE_RS}: {len(words)} words, {len(pairs)} pairs, weights {weights}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", help="existing dump (default: make one)")
    ap.add_argument("--cv", action="store_true", help="cross-validate the settings grid")
    ap.add_argument("--ltr", action="store_true", help="fit the feature weights on out-of-fold features")
    ap.add_argument("--write", action="store_true", help="fit on all training data, write the engine's table")
    ap.add_argument("--check", action="store_true", help="lint eval/search/train only")
    args = ap.parse_args()
    if args.check:
        return check()
    dump = args.dump
    if not dump:
        dump = os.path.join(target_dir(), "search-train-dump.jsonl")
        print(cargo_test("dump", {"SEARCH_TRAIN_DUMP": dump}).strip().splitlines()[-1])
    cats = load_dump(dump)
    if args.cv:
        cv(cats, GRID)
    if args.ltr:
        ltr(cats, SETTINGS)
    if args.write:
        s = SETTINGS
        weights, _ = ltr(cats, s)
        fit_on = [c for c in cats if c["set"] == "train" or (s["USE_DEV"] and c["set"] == "dev")]
        write_rs(fit(fit_on, s), weights, cats, s)


def check():
    import glob
    errors, n = [], 0
    for path in sorted(glob.glob(os.path.join(HERE, "..", "train", "*.txt"))):
        catalog = os.path.basename(path)[:-4]
        data = json.load(open(os.path.join(ROOT, "testdata", "catalogs-wide", catalog + ".json")))
        tools = {t["name"] for t in data["tools"]}
        for i, line in enumerate(open(path), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|", 2)]
            if len(parts) != 3 or len(parts[0].split()) != 2 or not parts[2]:
                errors.append(f"{path}:{i}: not 'class style | tools | query'")
                continue
            n += 1
            for t in parts[1].split(","):
                if t.strip() not in tools:
                    errors.append(f"{path}:{i}: no tool {t.strip()} in {catalog}")
    print("\n".join(errors) or f"{n} training queries, every expected tool exists")
    sys.exit(1 if errors else 0)


def variant(**kw):
    return {**SETTINGS, **kw}


GRID = [SETTINGS]

if __name__ == "__main__":
    main()
