"""The concept reading's learned line (`src/poison/concept_model.tsv`; issue #20, session 45).

The combinations of `src/poison/concepts.rs` (`COMBOS`) were written by hand from the classes'
definitions. This fits a linear model over the same concepts instead: a window of a sentence's
reading (the concepts of about ten words, `WINDOW`) is the set of its concepts, plus a "negated"
concept for each concept a negation stands next to (`NEAR`); its features are each concept and each
pair of concepts of the set. A sentence scores its best window of its best reading. The features
name no word of any language, so what it learns from the fitted languages is read the same way in
a language nobody fitted, as far as the lexicon (72 languages) reads its words.

Fitted on the development parts only:
- positive: the distinct non-English payloads of the `dev` and `train` parts (each payload's best
  window, chosen again after each fit: multiple-instance learning);
- negative: every window of every non-ASCII line of the `dev` / `train` hard benign tools and of
  the development real servers (`train.real_servers`, not held out).
The flag line is read out of fold with whole languages held out (five groups), at
`ADDED_LINES` negative lines over what the hand-written combinations already read.

    python3 eval/poisoning/concepts/fit.py --set /tmp/pe            # CV figures and the line
    python3 eval/poisoning/concepts/fit.py --set /tmp/pe --export   # writes src/poison/concept_model.tsv
    python3 eval/poisoning/concepts/fit.py --set /tmp/pe --expect testdata/scorer/concept-model-sample.tsv

The engine's concept reading is the featurizer: an ignored unit test
(`concept_readings_of_lines`) prints each line's readings; this script runs it through cargo.
The scoring here is a second, independent implementation of the engine's
(`the_learned_line_scores_as_fit_py` in `src/poison/concepts.rs` compares them on a committed sample).
"""
import argparse
import json
import math
import os
import random
import runpy
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(REPO, "eval", "poisoning", "model"))
import train  # noqa: E402  (execs into a venv with numpy when numpy is missing)
import scorer  # noqa: E402
import numpy as np  # noqa: E402

# The line's window (`concept_model::WINDOW`; the combinations' is 60) and how many matches make
# a window `DENSE` (`concept_model::DENSE_MATCHES`): session 46, out of fold over four fold seeds,
# 80 + DENSE read 1,107-1,169 of 3,702 against 60 alone 1,024-1,074 at the same benign lines.
WINDOW = 80
DENSE_MATCHES = 5
NEAR = 10
MODEL = os.path.join(REPO, "src", "poison", "concept_model.tsv")
L2 = 1e-4
ITERS = 300
ROUNDS = 3
GROUPS = 5
SEED = 7
# Negative lines the line may read over the hand-written combinations' own (out of fold).
ADDED_LINES = 15


def strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, list):
        for y in x:
            yield from strings(y)
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from strings(v)


def build_sets(set_dir):
    """(positive lines with class and language, negative lines)."""
    pos = {}
    for prefix in ("", "extra-"):
        for line in open(os.path.join(set_dir, prefix + "labels.jsonl"), encoding="utf-8"):
            d = json.loads(line)
            if d["kind"] == "poisoned" and d["part"] in train.FIT_PARTS and d["language"] != "en":
                pos.setdefault(d["payload"].replace("\n", " "), (d["class"], d["language"]))
    neg = set()

    def add(x):
        for s in strings(x):
            for line in s.split("\n"):
                if not line.isascii() and line.strip():
                    neg.add(line.strip())

    for lab, tools in train.load_set(set_dir):
        if lab["kind"] == "benign" and lab["part"] in train.FIT_PARTS:
            add(tools)
    for _, held, tools in train.real_servers():
        if not held:
            add(tools)
    return sorted(pos.items()), sorted(neg)


def honest_catalogs(set_dir):
    """Development benign catalogs, each a list of tools: the development real servers, the `dev` /
    `train` hard benign items, and transfer `--set 3`'s tools (one each), as
    `eval/poisoning/model/other_script_lines.py` reads them."""
    for _, held, tools in train.real_servers():
        if not held:
            yield tools
    for lab, tools in train.load_set(set_dir):
        if lab["kind"] == "benign" and lab["part"] in train.FIT_PARTS:
            yield tools
    path = os.path.join(REPO, "eval", "poisoning", "transfer2", "benign_d20.py")
    for _topic, _lang, tool in runpy.run_path(path)["BENIGN"]:
        yield [tool]


def other_script_units(tools):
    """The units of a catalog's tools in a script the rest of their tool does not write, as the
    engine's `scorer::other_script` gates them (`scorer.read_units`), whatever the script."""
    counts = scorer.catalog_script_strings(tools)
    return [unit.replace("\n", " ") for tool in tools for _field, unit, _script in scorer.read_units(tool, counts)]


def engine_test(test, var, lines):
    """The output of one of the engine's ignored unit tests that reads `lines` from the file named
    by the environment variable `var`."""
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    env = dict(os.environ, **{var: f.name})
    out = subprocess.run(["cargo", "test", "-q", "--release", "--lib", "--", "--exact",
                          "poison::concepts::tests::" + test, "--ignored", "--nocapture"],
                         cwd=REPO, env=env, capture_output=True, text=True, check=True).stdout
    os.unlink(f.name)
    return out


def readings(lines):
    """The engine's readings of each line: per sentence read, a web address and per reading its
    matches [bits, w, at, end, clause]; and the concepts' names in bit order."""
    out = engine_test("concept_readings_of_lines", "MCP_GUARD_CONCEPTS_DUMP", lines)
    names, rows = None, []
    for line in out.split("\n"):
        if line.startswith("#BITS "):
            names = line.split()[1:]
        elif line.startswith("["):
            rows.append(json.loads(line))
    assert names and len(rows) == len(lines), (len(rows), len(lines))
    return names, rows


def bits(b):
    out = []
    while b:
        k = (b & -b).bit_length() - 1
        out.append(k)
        b &= b - 1
    return out


def window_sets(mets, url, names):
    """The concept sets of a reading's windows. A match a negation stands next to (at most
    `NEAR` bytes apart, another match) also gives its concepts negated (bit + len(names)); a
    window of `DENSE_MATCHES` matches or more has `DENSE` (bit 2 * len(names))."""
    nb = len(names)
    negbit = 1 << names.index("NEG")
    u = (1 << names.index("URL")) if url else 0
    negated = [0] * len(mets)
    for ai, a in enumerate(mets):
        if a[0] & negbit:
            for bi, b in enumerate(mets):
                if bi != ai and a[3] + NEAR >= b[2] and b[3] + NEAR >= a[2]:
                    negated[bi] |= b[0] & ~negbit
    sets = set()
    i = 0
    for j in range(len(mets)):
        while mets[j][1] - mets[i][1] > WINDOW:
            i += 1
        s = u
        for k in range(i, j + 1):
            s |= mets[k][0] | (negated[k] << nb)
        if j - i + 1 >= DENSE_MATCHES:
            s |= 1 << (2 * nb)
        sets.add(s)
    if not mets and u:
        sets.add(u)
    return sets


def line_sets(row, names):
    out = set()
    for sentence in row:
        for r in sentence["readings"]:
            out |= window_sets(r, sentence["url"], names)
    return sorted(out)


def feats(s):
    bs = bits(s)
    return [(a,) for a in bs] + [(a, b) for i, a in enumerate(bs) for b in bs[i + 1:]]


class Model:
    def fit(self, P, N):
        """P: one window set per positive; N: {window set: count} of the negatives."""
        sets = list(P) + list(N)
        vocab = {}
        for s in sets:
            for f in feats(s):
                vocab.setdefault(f, len(vocab))
        X = [[vocab[f] for f in feats(s)] for s in sets]
        y = np.array([1.0] * len(P) + [0.0] * len(N))
        cnt = np.array([1.0] * len(P) + [float(N[s]) for s in N])
        sw = np.where(y == 1, 0.5 / len(P), 0.5 / cnt[len(P):].sum()) * cnt
        rows = np.concatenate([np.full(len(x), i) for i, x in enumerate(X)])
        cols = np.concatenate([np.array(x, dtype=int) for x in X])
        w = np.zeros(len(vocab))
        b = 0.0
        g2 = np.full(len(vocab), 1e-8)
        for _ in range(ITERS):
            z = np.bincount(rows, weights=w[cols], minlength=len(y)) + b
            r = (1 / (1 + np.exp(-z)) - y) * sw
            gw = np.bincount(cols, weights=r[rows], minlength=len(vocab)) + L2 * w
            g2 += gw * gw
            w -= 0.5 * gw / np.sqrt(g2)
            b -= 0.5 * r.sum()
        self.w = {f: w[i] for f, i in vocab.items()}
        self.b = b
        self.memo = {}
        return self

    def set_score(self, s):
        v = self.memo.get(s)
        if v is None:
            v = self.memo[s] = self.b + sum(self.w.get(f, 0.0) for f in feats(s))
        return v

    def score(self, sets):
        return max((self.set_score(s) for s in sets), default=-1e9)


def fit(pos_sets, neg_sets):
    N = {}
    for row in neg_sets:
        for s in row:
            N[s] = N.get(s, 0) + 1
    # The first positive window: the one with most concepts; then each fit's best.
    P = [max(r, key=lambda s: bin(s).count("1")) for r in pos_sets if r]
    m = None
    for _ in range(ROUNDS):
        m = Model().fit(P, N)
        P = [max(r, key=m.set_score) for r in pos_sets if r]
    return m


def combos_read(lines):
    """Whether the hand-written combinations read each line (the engine's `concepts_of_lines`)."""
    out = engine_test("concepts_of_lines", "MCP_GUARD_CONCEPTS_FILE", lines)
    got = [l.split("\t") for l in out.split("\n") if l.startswith(("read\t", "skip\t"))]
    assert len(got) == len(lines)
    return np.array([g[0] == "read" and g[1] != "-" for g in got])


def shipped(names):
    """The exported model as integers: (bias, flag, {feature: weight})."""
    full = names + ["NOT_" + n for n in names] + ["DENSE"]
    bias, flag, w = 0, None, {}
    for line in open(MODEL, encoding="utf-8"):
        if line.startswith("#") or "\t" not in line:
            continue
        key, v = line.rstrip("\n").split("\t")
        if key == "bias":
            bias = int(v)
        elif key == "flag":
            flag = int(v)
        elif key == "foreign":
            continue
        else:
            w[tuple(sorted(full.index(k) for k in key.split("+")))] = int(v)
    return bias, flag, w


def expect(path, pos, neg, names, prow, nrow):
    """A sample of lines and the shipped model's integer score of each (its best window), computed
    here from the exported table: `src/poison/concepts.rs` (`the_learned_line_scores_as_fit_py`)
    must give the same."""
    bias, flag, w = shipped(names)
    rng = random.Random(SEED)
    pick = sorted(rng.sample(range(len(pos)), 300)), sorted(rng.sample(range(len(neg)), 300))
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# fit.py --expect: a line's text and the shipped model's best window score (hundredths; - none). flag {flag}\n")
        for lines, rows, idx in (([p for p, _ in pos], prow, pick[0]), (neg, nrow, pick[1])):
            for i in idx:
                sets = line_sets(rows[i], names)
                score = max((bias + sum(w.get(f, 0) for f in feats(s)) for s in sets), default=None)
                f.write(f"{'-' if score is None else score}\t{lines[i]}\n")
    print("wrote", path)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--set", required=True, help="an evaluation set directory (generate.py + generate_extra.py)")
    ap.add_argument("--export", action="store_true")
    ap.add_argument("--expect", help="write a sample of lines with the shipped model's scores (for the engine's test)")
    a = ap.parse_args()
    pos, neg = build_sets(a.set)
    names, prow = readings([p for p, _ in pos])
    _, nrow = readings(neg)
    if a.expect:
        expect(a.expect, pos, neg, names, prow, nrow)
        return
    psets = [line_sets(r, names) for r in prow]
    nsets = [line_sets(r, names) for r in nrow]
    cls = [c for _, (c, _) in pos]
    lang = [l for _, (_, l) in pos]
    langs = sorted(set(lang))
    random.Random(SEED).shuffle(langs)
    group = {l: i % GROUPS for i, l in enumerate(langs)}
    nfold = [random.Random(i).randrange(GROUPS) for i in range(len(neg))]
    ps = np.full(len(pos), -1e9)
    ns = np.full(len(neg), -1e9)
    for g in range(GROUPS):
        m = fit([r for i, r in enumerate(psets) if group[lang[i]] != g], [r for i, r in enumerate(nsets) if nfold[i] != g])
        for i, r in enumerate(psets):
            if group[lang[i]] == g:
                ps[i] = m.score(r)
        for i, r in enumerate(nsets):
            if nfold[i] == g:
                ns[i] = m.score(r)
    pc = combos_read([p for p, _ in pos])
    nc = combos_read(neg)
    budget = int(nc.sum()) + ADDED_LINES
    line = None
    for t in sorted(set(ns.tolist()), reverse=True):
        if (nc | (ns >= t)).sum() > budget:
            break
        line = t
    line = float(line) + 1e-6  # strictly above the last negative let in
    hit = pc | (ps >= line)
    print(f"positives {len(pos)} ({len(langs)} languages), negative lines {len(neg)}")
    print(f"combinations alone: positives {pc.sum()}, negative lines {nc.sum()}")
    print(f"with the learned line {line:.3f} (out of fold, languages held out): positives {hit.sum()}, "
          f"negative lines {(nc | (ns >= line)).sum()}")
    for c in sorted(set(cls)):
        k = [i for i in range(len(pos)) if cls[i] == c]
        print(f"  {c:13} {pc[k].sum():4} -> {hit[k].sum():4} of {len(k)}")
    # The line for a unit in a script the rest of its tool does not write (`foreign`): above every
    # such honest unit of the development benign catalogs, each scored by a fit that never saw it
    # (its lines left out of every fold's negatives; the positives' folds as above).
    units = sorted({u for cat in honest_catalogs(a.set) for u in other_script_units(cat)})
    _, urow = readings(units)
    usets = [line_sets(r, names) for r in urow]
    inside = {i for i, l in enumerate(neg) if any(u in l or l in u for u in units)}
    us = np.full(len(units), -1e9)
    ps2 = np.full(len(pos), -1e9)
    for g in range(GROUPS):
        m = fit([r for i, r in enumerate(psets) if group[lang[i]] != g], [r for i, r in enumerate(nsets) if nfold[i] != g and i not in inside])
        for i, r in enumerate(usets):
            if i % GROUPS == g:
                us[i] = m.score(r)
        for i, r in enumerate(psets):
            if group[lang[i]] == g:
                ps2[i] = m.score(r)
    # Scored again by the fit that ships (the honest units' lines among its negatives, but a unit
    # joins a string's sentences, which no negative line does): the line is above both readings.
    shipped_fit = fit(psets, nsets)
    us = np.maximum(us, [shipped_fit.score(r) for r in usets])
    foreign = min(float(max(us.max(initial=-1e9), 0.0)) + 0.01, line)
    nonlatin = np.array([not all(scorer.script_of(ch) in (None, "latin") for ch in p) for p, _ in pos])
    print(f"honest units in another script {len(units)} (their lines left out of the fits: {len(inside)}); "
          f"best {us.max(initial=-1e9):.3f}: line {foreign:.2f}; non-Latin positives read {int((pc | (ps2 >= line))[nonlatin].sum())} "
          f"-> {int((pc | (ps2 >= foreign))[nonlatin].sum())} of {int(nonlatin.sum())}")
    if a.export:
        m = shipped_fit
        with open(MODEL, "w", encoding="utf-8") as f:
            f.write("# The concept reading's learned line: eval/poisoning/concepts/fit.py --export (do not edit).\n")
            f.write("# Weights in hundredths of a logit; a feature is a concept or a pair (NOT_X: X a negation stands next to).\n")
            f.write(f"bias\t{round(m.b * 100)}\nflag\t{round(line * 100)}\nforeign\t{math.ceil(foreign * 100)}\n")
            full = names + ["NOT_" + n for n in names] + ["DENSE"]
            for feat, w in sorted(m.w.items()):
                q = round(w * 100)
                if q:
                    f.write("+".join(full[k] for k in feat) + f"\t{q}\n")
        print("wrote", MODEL)


if __name__ == "__main__":
    main()
