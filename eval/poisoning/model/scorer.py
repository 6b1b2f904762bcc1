"""Features and scoring of the learned poisoning scorer (standard library only).

This module is the specification the engine's port (`src/poison/scorer.rs`)
follows step by step: plain loops over characters, Unicode general categories,
NFKC and lower case, FNV-1a / multiplicative hashes of UTF-8 bytes, integer
sums of int16 weights.
`tests/scorer.rs` and the evaluation runner compare the engine's score of every
string with the one this file computes (`--expect`).

Pipeline for one tool:
  1. walk the tool's model-visible strings, each with its field kind
     (`strings_of_tool`);
  2. for each string, the original and at most one decoded variant of each
     kind (`variants`: Unicode tag characters, base64 runs, hex runs, URL
     percent-encoding), each read in chunks of MAX_CHARS characters
     (`chunks`: one every STRIDE characters, so no part goes unread);
  3. normalize (`normalize`: invisible characters and controls dropped, NFKC,
     lower case) and cut into segments (sentences / lines, `segments`);
  4. each segment gets hashed features (`segment_features`): words, word
     pairs, byte 4-grams, the field (and field x length), the variant;
  5. a segment's contribution is the sum of the weights of its features'
     distinct buckets (presence: a repeated phrase or a run of one letter adds
     nothing); a string's score is bias + the best span of one or two
     consecutive segments, so a payload appended to a long benign description
     is not diluted by it;
  6. the tool's score is the max over its strings and their variants; a
     "sum" mode (research only) adds the positive spans of all strings of the
     tool and of the two best tools of a catalog.

    python3 scorer.py --pack                          # weights.bin/json -> src/poison/scorer.weights
    python3 scorer.py --expect SET_DIR OUT [--sample] # the scores the engine must give
"""

import unicodedata

MAX_CHARS = 4096        # a string is scored in chunks of MAX_CHARS characters
STRIDE = MAX_CHARS // 2 # that start every STRIDE characters
MAX_SEGMENTS = MAX_CHARS  # every segment of a chunk (a cap of 64 let 64 short lines hide a payload)

# ---------------------------------------------------------------------------
# walking a tool

SKIP_SCHEMA_KEYS = {"type", "$ref", "required", "$comment"}


def strings_of_tool(tool):
    """[(field, text)] in a fixed order (JSON object order of the input)."""
    out = []
    if not isinstance(tool, dict):
        return out
    for key in ("name", "title", "description"):
        v = tool.get(key)
        if isinstance(v, str):
            out.append(("tool." + key, v))
    ann = tool.get("annotations")
    if isinstance(ann, dict) and isinstance(ann.get("title"), str):
        out.append(("annotations.title", ann["title"]))
    if isinstance(tool.get("inputSchema"), dict):
        _walk_schema(tool["inputSchema"], "in", out)
    if isinstance(tool.get("outputSchema"), dict):
        _walk_schema(tool["outputSchema"], "out", out)
    return out


def _strings_in(value, field, out):
    if isinstance(value, str):
        out.append((field, value))
    elif isinstance(value, list):
        for v in value:
            _strings_in(v, field, out)
    elif isinstance(value, dict):
        for k, v in value.items():
            out.append((field + ".key", k))
            _strings_in(v, field, out)


def _walk_schema(schema, side, out, depth=0):
    if not isinstance(schema, dict) or depth > 128:  # the JSON nesting bound
        return
    pre = "out." if side == "out" else ""
    for k, v in schema.items():
        if k in ("description", "title"):
            if isinstance(v, str):
                out.append((pre + "schema." + k, v))
        elif k in ("$id", "$schema"):
            if isinstance(v, str):
                out.append((pre + "schema.uri", v))
        elif k in ("enum", "default", "examples", "const", "format", "pattern"):
            _strings_in(v, pre + k, out)
        elif k in ("properties", "patternProperties", "dependentSchemas", "$defs", "definitions"):
            if isinstance(v, dict):
                kind = "defs.key" if k in ("$defs", "definitions") else "prop.name"
                for name, sub in v.items():
                    out.append((pre + kind, name))
                    _walk_schema(sub, side, out, depth + 1)
        elif k in ("items", "additionalItems", "not", "if", "then", "else", "contains", "propertyNames",
                   "additionalProperties", "unevaluatedProperties", "unevaluatedItems"):
            if isinstance(v, dict):
                _walk_schema(v, side, out, depth + 1)
            elif isinstance(v, list):
                for s in v:
                    _walk_schema(s, side, out, depth + 1)
        elif k in ("anyOf", "oneOf", "allOf", "prefixItems"):
            if isinstance(v, list):
                for s in v:
                    _walk_schema(s, side, out, depth + 1)
        elif k in SKIP_SCHEMA_KEYS:
            continue


# ---------------------------------------------------------------------------
# character classes (the engine's `text::is_invisible` / `is_control`)

def is_control(ch):
    cp = ord(ch)
    return (cp < 0x20 and ch not in "\n\t") or 0x7F <= cp <= 0x9F


def is_invisible(ch):
    cp = ord(ch)
    if cp < 0xA0:
        return False
    if (0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF or cp in (0x115F, 0x1160, 0x3164, 0xFFA0, 0x034F)
            or 0x180B <= cp <= 0x180F or cp in (0x17B4, 0x17B5, 0x2800)):
        return True
    return unicodedata.category(ch) in ("Cf", "Co", "Cn", "Cs")


def is_space(ch):
    """Separators inside a line: `_` reads as a space (snake_case names are words)."""
    return ch in " \t\r\x0b\x0c_" or unicodedata.category(ch) in ("Zs", "Zl", "Zp")


def is_word(ch):
    return unicodedata.category(ch)[0] in "LMN"


def is_letter(ch):
    return unicodedata.category(ch)[0] == "L"


# ---------------------------------------------------------------------------
# decoded variants (each kind at most once, never recursively). Written as
# plain loops rather than regexes so that the Rust port (src/poison/scorer)
# can follow them step by step: the equivalence test compares every score.

B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
B64_VAL = {c: i for i, c in enumerate(B64)}
HEXD = "0123456789abcdefABCDEF"


def _readable(d):
    """Decoded text worth reading: > 95% visible characters, >= 40% letters."""
    n = len(d)
    if n == 0:
        return False
    good = sum(1 for ch in d if not is_control(ch) and not is_invisible(ch))
    letters = sum(1 for ch in d if is_letter(ch))
    return good * 20 > n * 19 and letters * 5 >= n * 2


def _utf8(b):
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _b64_decode(run):
    """Standard alphabet, no padding needed; a last lone character is ignored."""
    out = bytearray()
    acc, nbits = 0, 0
    for ch in run:
        acc = (acc << 6) | B64_VAL[ch]
        nbits += 6
        if nbits >= 8:
            nbits -= 8
            out.append((acc >> nbits) & 0xFF)
    return _utf8(bytes(out))


def _hex_decode(run):
    return _utf8(bytes(int(run[i:i + 2], 16) for i in range(0, len(run) - 1, 2)))


def _runs_decoded(text, is_run_char, min_len, decode):
    """Replaces each maximal run of `is_run_char` of >= min_len characters by
    " decoded " when it decodes to readable text; None when none does."""
    out, i, n, changed = [], 0, len(text), False
    while i < n:
        if not is_run_char(text[i]):
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < n and is_run_char(text[j]):
            j += 1
        run = text[i:j]
        d = decode(run) if len(run) >= min_len else None
        if d is not None and _readable(d):
            out.append(" " + d + " ")
            changed = True
        else:
            out.append(run)
        i = j
    return "".join(out) if changed else None


def _pct_count(text):
    n, i = 0, 0
    while i < len(text):
        if text[i] == "%" and i + 2 < len(text) + 0 and text[i + 1] in HEXD and text[i + 2] in HEXD:
            n += 1
            i += 3
        else:
            i += 1
    return n


def _pct_decode(text):
    b, i = bytearray(), 0
    while i < len(text):
        if text[i] == "%" and i + 2 < len(text) and text[i + 1] in HEXD and text[i + 2] in HEXD:
            b.append(int(text[i + 1:i + 3], 16))
            i += 3
        else:
            b += text[i].encode("utf-8")
            i += 1
    return bytes(b).decode("utf-8", errors="replace")


# Decoders of the encodings that need no hint of their own (src/poison/decode.rs
# follows them): character references, spaced letters, leet, reversed text and
# ROT13. Each gate is one linear pass that almost all real text fails. The
# reversed / ROT13 / leet gates count function words (FUNCTION_WORDS) in each
# reading: the cluster table was tried as the vocabulary and knows too much
# (28 of the 31 words of a ROT13 payload are in it, "lbh" and "gur" too).

NAMED_REFS = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'", "nbsp": "\u00a0"}
MIN_REFS = 4        # character references before the text is read decoded
MIN_SPACED = 8      # single characters in a run before it is joined
MAX_GAP = 4         # spaces between two of them (more is layout)
ALPHA = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
LEET_OF = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
VOCAB_WORDS = 64    # words of a text the reversed / ROT13 gates look at
MIN_WORDS = 5       # words a text needs before it can be read reversed / ROT13
MIN_FUNCTION = 3    # function words the reversed / ROT13 reading must show
MIN_LEET = 2        # leet words that read as function words
# Function words of the languages of the set's Latin-script payloads; none is
# another's reversal or ROT13 ("or" / "be", "le" / "el" are left out), so
# that text as written never counts in the other readings.
# Nor is any the reversal of a token common in real tool text ("id" / "di",
# "no" / "on", "us" / "su", "me" / "em", "ad" / "da", "fi" / "if", "red" / "der").
FUNCTION_WORDS = frozenset("""the to of and in is for with that this you your it are as by from at
not all any an will can do we was has have what when must should its into then them they their
there these those which who would been were than only also but
de la los las que del por para una con les des et est pour dans une vous sur au
die das und ist nicht sie zu mit den ein eine auf dem il che per sono della um com""".split())


def _ref_at(text, i):
    """(decoded character, length) of a character reference at `i`, else None."""
    n = len(text)
    j = i + 1
    if j < n and text[j] == "#":
        j += 1
        hexa = j < n and text[j] in "xX"
        if hexa:
            j += 1
        k, v = j, 0
        while k < n and k - j < 8 and (text[k] in HEXD if hexa else "0" <= text[k] <= "9"):
            v = v * (16 if hexa else 10) + int(text[k], 16)
            k += 1
        if k == j or v == 0 or v > 0x10FFFF or 0xD800 <= v <= 0xDFFF:
            return None
        # The ";" may be left out, as HTML reads "&#105gnore"; a named
        # reference needs it.
        return chr(v), (k + 1 - i if k < n and text[k] == ";" else k - i)
    k = j
    while k < n and k - j < 5 and text[k] in ALPHA:
        k += 1
    if k < n and text[k] == ";" and text[j:k] in NAMED_REFS:
        return NAMED_REFS[text[j:k]], k + 1 - i
    return None


def _entities_decoded(text):
    """Character references (`&#NN;`, `&#xHH;`, the named ones of NAMED_REFS)
    decoded, when there are at least MIN_REFS; None otherwise."""
    if "&" not in text:
        return None
    out, i, n, refs = [], 0, len(text), 0
    while i < n:
        r = _ref_at(text, i) if text[i] == "&" else None
        if r is None:
            out.append(text[i])
            i += 1
        else:
            out.append(r[0])
            refs += 1
            i += r[1]
    return "".join(out) if refs >= MIN_REFS else None


def _spaced_decoded(text):
    """Runs of at least MIN_SPACED single characters (not a control character),
    each apart from the next by one to MAX_GAP spaces, joined ("i g n o r e" ->
    "ignore"); two or more spaces, or a lone `/`, between two of them is a word
    gap (one space). None when no run. (A line break or a wider gap is layout,
    and ends a run.)"""
    toks, i, n = [], 0, len(text)   # (start, end, spaces before)
    gap = 0
    while i < n:
        if text[i] == " ":
            gap += 1
            i += 1
            continue
        j = i
        while j < n and text[j] != " ":
            j += 1
        toks.append((i, j, gap))
        gap = 0
        i = j
    def single(k):
        return toks[k][1] - toks[k][0] == 1 and text[toks[k][0]] >= " "

    out, copied, changed, t = [], 0, False, 0
    while t < len(toks):
        if not single(t):
            t += 1
            continue
        u = t + 1
        while u < len(toks) and single(u) and toks[u][2] <= MAX_GAP:
            u += 1
        if u - t >= MIN_SPACED:
            out.append(text[copied:toks[t][0]])
            word_gap = False
            for k in range(t, u):
                ch = text[toks[k][0]]
                if ch == "/":
                    word_gap = True
                    continue
                if k > t and (word_gap or toks[k][2] >= 2):
                    out.append(" ")
                word_gap = False
                out.append(ch)
            copied = toks[u - 1][1]
            changed = True
        t = u
    if not changed:
        return None
    out.append(text[copied:])
    return "".join(out)


def _ascii_words(text, limit):
    """The first `limit` runs of two or more ASCII letters, lower case."""
    out, cur = [], []
    for ch in text:
        if ch in ALPHA:
            cur.append(ch.lower())
            continue
        if len(cur) >= 2:
            out.append("".join(cur))
            if len(out) >= limit:
                return out
        cur = []
    if len(cur) >= 2 and len(out) < limit:
        out.append("".join(cur))
    return out


ROT13 = str.maketrans(ALPHA, "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM")


def _reversed_rot13(text):
    """(reversed text or None, ROT13 text or None): read so when, over the
    text's first VOCAB_WORDS words (at least MIN_WORDS), that reading has at
    least MIN_FUNCTION function words and at least half as many as the text
    as written (a payload after a short benign sentence still counts)."""
    words = _ascii_words(text, VOCAB_WORDS)
    if len(words) < MIN_WORDS:
        return None, None
    f0 = fr = f13 = 0
    for w in words:
        f0 += w in FUNCTION_WORDS
        fr += w[::-1] in FUNCTION_WORDS
        f13 += w.translate(ROT13) in FUNCTION_WORDS
    rev = text[::-1] if fr >= MIN_FUNCTION and 2 * fr >= f0 else None
    rot = text.translate(ROT13) if f13 >= MIN_FUNCTION and 2 * f13 >= f0 else None
    return rev, rot


def _leet_decoded(text):
    """Words of ASCII letters and leet digits / symbols (at least one of each,
    no other digit) with those read as letters, when at least MIN_LEET of them
    read as function words ("4ll", "7h3"); None otherwise."""
    out, i, n, hits, changed = [], 0, len(text), 0, False
    while i < n:
        if not (text[i] in ALPHA or text[i] in LEET_OF or "0" <= text[i] <= "9"):
            out.append(text[i])
            i += 1
            continue
        j = i
        while j < n and (text[j] in ALPHA or text[j] in LEET_OF or "0" <= text[j] <= "9"):
            j += 1
        w = text[i:j]
        if any(ch in ALPHA for ch in w) and all(ch in ALPHA or ch in LEET_OF for ch in w) and any(ch in LEET_OF for ch in w):
            d = "".join(LEET_OF.get(ch, ch) for ch in w)
            hits += d.lower() in FUNCTION_WORDS
            out.append(d)
            changed = True
        else:
            out.append(w)
        i = j
    return "".join(out) if changed and hits >= MIN_LEET else None


def chunks(text):
    """The chunks of `text` the scorer reads: MAX_CHARS characters from every
    STRIDE-th character on, up to the one that reaches the end (the whole text
    when it is no longer than MAX_CHARS)."""
    out, start = [], 0
    while True:
        out.append(text[start:start + MAX_CHARS])
        if start + MAX_CHARS >= len(text):
            return out
        start += STRIDE


def variants(text, decode=True):
    """[(kind, text)]: the original first, then the decoded variants that apply
    (of the whole text; `string_units` cuts each into chunks)."""
    out = [("orig", text)]
    if not decode:
        return out
    if any(0xE0020 <= ord(ch) <= 0xE007E for ch in text):
        out.append(("tags", "".join(chr(ord(ch) - 0xE0000) if 0xE0020 <= ord(ch) <= 0xE007E else ch for ch in text)))
    v = _runs_decoded(text, lambda ch: ch in B64_VAL, 24, _b64_decode)
    if v is not None:
        out.append(("base64", v))
    v = _runs_decoded(text, lambda ch: ch in HEXD, 24, _hex_decode)
    if v is not None:
        out.append(("hex", v))
    if _pct_count(text) >= 4:
        out.append(("url", _pct_decode(text)))
    v = _entities_decoded(text)
    if v is not None:
        out.append(("entities", v))
    v = _spaced_decoded(text)
    if v is not None:
        out.append(("spaced", v))
    v = _leet_decoded(text)
    if v is not None:
        out.append(("leet", v))
    rev, rot = _reversed_rot13(text)
    if rev is not None:
        out.append(("reversed", rev))
    if rot is not None:
        out.append(("rot13", rot))
    return out


# ---------------------------------------------------------------------------
# normalization and segments

def normalize(text):
    """Invisible characters and controls dropped, NFKC, lower case, and a
    backslash before a non-alphanumeric character dropped (regex literals:
    "ignore\ all" reads "ignore all")."""
    t = "".join(ch for ch in text if not is_invisible(ch) and not is_control(ch))
    t = unicodedata.normalize("NFKC", t).lower()
    out, n = [], len(t)
    for i, ch in enumerate(t):
        if ch == "\\" and i + 1 < n and not (t[i + 1].isascii() and t[i + 1].isalnum()):
            continue
        out.append(ch)
    return "".join(out)


SENT_END = ".!?;"
CJK_END = "。！？；"


def segments(text):
    """Sentences and lines of the normalized text, separators collapsed to one
    space, at most MAX_SEGMENTS."""
    return cut(normalize(text))


def cut(t):
    """`segments` of a text already normalized (research callers cut text
    normalized otherwise, e.g. with its case kept)."""
    out, cur, space = [], [], False

    def end():
        nonlocal cur, space
        if cur:
            out.append("".join(cur))
        cur, space = [], False

    for ch in t:
        if len(out) >= MAX_SEGMENTS:
            break
        if ch == "\n":
            end()
        elif is_space(ch):
            if cur and cur[-1] in SENT_END:
                end()
            elif cur:
                space = True
        else:
            if space:
                cur.append(" ")
                space = False
            cur.append(ch)
            if ch in CJK_END:
                end()
    if len(out) < MAX_SEGMENTS:
        end()
    return out


# ---------------------------------------------------------------------------
# features

def field_group(field):
    """Fields with the same role share a structural feature."""
    f = field[4:] if field.startswith("out.") else field
    if f.endswith(".key"):
        f = f[:-4]
    return ("out." if field.startswith("out.") else "") + f


def length_bucket(n):
    for i, b in enumerate((8, 24, 64, 160, 400)):
        if n < b:
            return i
    return 5


def words_of(seg):
    out, cur = [], []
    for ch in seg:
        if is_word(ch):
            cur.append(ch)
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


# Hashes. Every feature is a 32-bit hash H, its bucket (H ^ H >> 16) & mask.
# Byte 4-grams (the only character n-grams: one per byte of text, hashed by
# one multiplication of the four bytes read as a big-endian u32) and words,
# word pairs and the structural features (FNV-1a 32 of a tag and the bytes).
# v2 hashed char 3-, 4- and 5-grams with CRC-32: three features per
# character, most of the engine's cost (README: cost).

GRAM_SALT = 0x5A17C0DE
GRAM_MUL = 0x9E3779B1


def fnv(*parts):
    h = 0x811C9DC5
    for p in parts:
        for x in p:
            h = ((h ^ x) * 0x01000193) & 0xFFFFFFFF
    return h


def gram_hashes(seg):
    p = b" " + seg.encode("utf-8") + b" "
    return [(((int.from_bytes(p[i:i + 4], "big") ^ GRAM_SALT) * GRAM_MUL) & 0xFFFFFFFF) for i in range(len(p) - 3)]


# Word clusters (clusters.py): English words grouped by their GloVe vectors,
# so that a phrasing never seen in training ("conceal" for "hide", "mention"
# for "tell") still lands on features that were trained. The table maps a
# word's `w:` hash (the one its word feature already has) to a cluster id.

class Clusters:
    """The engine's word -> cluster table (src/poison/clusters.bin), read
    with the standard library: a 16-byte header (b"MGWC", a version, a byte,
    u16 K, u32 n, u32 reserved), n sorted u32 keys (fnv(b"w:", word)), then
    per cluster family n u16 cluster ids; and K representative words per
    family (one per line, UTF-8, in the .txt file beside it, family after
    family) that name a cluster feature. Version 1: one family (the byte is
    0); version 2: the byte is the number of families (2: GloVe's clusters,
    `kk:`/`k3:`, and MiniLM's, `jk:`/`j3:`). Little-endian throughout."""

    def __init__(self, path):
        import struct
        raw = open(path, "rb").read()
        assert raw[:4] == b"MGWC" and raw[4] in (1, 2), path
        nf = 1 if raw[4] == 1 else raw[5]
        self.k, n = struct.unpack("<HI", raw[6:12])
        at = 16
        keys = struct.unpack("<%dI" % n, raw[at:at + 4 * n])
        fams = [struct.unpack("<%dH" % n, raw[at + 4 * n + 2 * n * f:at + 6 * n + 2 * n * f]) for f in range(nf)]
        assert len(raw) == at + 4 * n + 2 * n * nf, path
        self.of = dict(zip(keys, fams[0]))
        self.of2 = dict(zip(keys, fams[1])) if nf > 1 else None
        names = open(path[:-len(".bin")] + ".txt", encoding="utf-8").read().split("\n")
        self.names = names[:self.k]
        self.names2 = names[self.k:2 * self.k] if nf > 1 else None


_CLUSTERS = {}


def clusters_at(path):
    if path not in _CLUSTERS:
        _CLUSTERS[path] = Clusters(path)
    return _CLUSTERS[path]


# What ships: cluster pairs and triples (clusters.py, grids k2-k5: `k:`,
# the cluster x word pairs `kw:`/`wk:` and the skip pairs `k2:` measured, not
# kept), of both families of the table (grids m1-m3: `kk:`/`k3:` by GloVe,
# `jk:`/`j3:` by MiniLM).
CLUSTER_FEATS = ("bi", "tri")


CLUSTER2_PFX = (b"jk:", b"j3:")


def cluster_features(words, hw, cl, feats_kind, pfx=(b"kk:", b"k3:"), of=None):
    """Cluster features of a segment's words, given their `w:` hashes: each
    pair of adjacent words that both have a cluster (`kk:`) and each three
    (`k3:`); research options: each word's cluster (`k:`), cluster x word
    pairs, pairs one word apart (`k2:`). A word without a cluster (not
    English, a number, an identifier) adds nothing and breaks the chain."""
    of = cl.of if of is None else of
    out = []
    prev = None
    pw = None
    if "skip" in feats_kind or "tri" in feats_kind:
        ks = [of.get(h) for h in hw]
        kb = [None if c is None else bytes((c & 0xFF, c >> 8)) for c in ks]
        for i in range(len(kb) - 2):
            if kb[i] is not None and kb[i + 2] is not None:
                if "skip" in feats_kind:
                    out.append(fnv(b"k2:", kb[i], kb[i + 2]))
                if "tri" in feats_kind and kb[i + 1] is not None:
                    out.append(fnv(pfx[1], kb[i], kb[i + 1], kb[i + 2]))
    for w, h in zip(words, hw):
        c = of.get(h)
        cb = None if c is None else bytes((c & 0xFF, c >> 8))
        if "kw" in feats_kind and pw is not None:
            if prev is not None:
                out.append(fnv(b"kw:", prev, w))
            if cb is not None:
                out.append(fnv(b"wk:", pw, b" ", cb))
        pw = w
        if cb is None:
            prev = None
            continue
        if "uni" in feats_kind:
            out.append(fnv(b"k:", cb))
        if prev is not None and "bi" in feats_kind:
            out.append(fnv(pfx[0], prev, cb))
        prev = cb
    return out


def segment_features(seg, field, vkind, cfg):
    """Feature hashes of one normalized segment (order irrelevant)."""
    feats = []
    if cfg.get("words", True):
        words = [w.encode("utf-8") for w in words_of(seg)]
        hw = [fnv(b"w:", w) for w in words]
        feats += hw
        feats += [fnv(b"b:", a, b" ", b) for a, b in zip(words, words[1:])]
        if cfg.get("clusters"):
            cl = clusters_at(cfg["clusters"])
            feats += cluster_features(words, hw, cl, cfg.get("cluster_feats", CLUSTER_FEATS))
            if cl.of2 is not None:  # the second family of a version 2 table
                feats += cluster_features(words, hw, cl, CLUSTER_FEATS, CLUSTER2_PFX, cl.of2)
        if cfg.get("clusters2"):  # research: a second cluster family (clusters.py --cv), own prefixes
            feats += cluster_features(words, hw, clusters_at(cfg["clusters2"]), CLUSTER_FEATS, CLUSTER2_PFX)
    if cfg.get("chars", True):
        feats += gram_hashes(seg)
    if cfg.get("concepts"):  # research (session 35): concept co-occurrence in the segment
        feats += concept_features(words_of(seg), cfg["concepts"])
    if cfg.get("struct", True):
        fg = field_group(field).encode("utf-8")
        feats.append(fnv(b"f:", fg))
        feats.append(fnv(b"fl:", fg, b"|", str(length_bucket(len(seg))).encode()))
        vt = variant_tag(vkind, cfg.get("vtags", VTAGS))
        if vt is not None:
            feats.append(vt)
    return feats


# The variants whose `v:` feature the v5 weights were trained with; the
# later decoders (entities, spaced, leet, reversed, rot13) had none there.
TRAINED_VARIANTS = ("tags", "base64", "hex", "url")
# How a decoded variant is tagged (`v:` feature): "v5" (only TRAINED_VARIANTS),
# "each" (every decoded variant its own `v:` + kind), "shared" (the v5 four
# their own, the later five one `v:decoded`).
VTAGS = "v5"


def variant_tag(vkind, mode):
    if vkind == "orig":
        return None
    if vkind in TRAINED_VARIANTS or mode == "each":
        return fnv(b"v:", vkind.encode())
    if mode == "shared":
        return fnv(b"v:", b"decoded")
    return None


# Research (session 35, not shipped): which roles a sentence's words play,
# whatever their order or distance. Each concept is a few seed words; a word
# belongs to it when it is a seed or shares a seed's cluster in either family
# of the cluster table (so synonyms and, through MiniLM's family, some
# translations join). Features: each concept present (`c1:`) and each
# unordered pair of concepts present (`cp:`) — "never ... tell ... user" at
# any distance, which adjacent pairs and triples cannot see.
CONCEPTS = {
    "model": "assistant model ai agent llm chatbot claude gpt copilot",
    "user": "user users customer customers human person client requester guests",
    "tell": "tell mention inform notify reveal disclose acknowledge narrate say report show display explain",
    "hide": "hide conceal omit secret secretly silently quietly covert invisible hidden",
    "neg": "never not don't dont no without nothing",
    "oblig": "must always should required mandatory need needs shall",
    "first": "first before prior every each start begin immediately beginning",
    "secret": "key keys token tokens password passwords credential credentials secret ssh env cookie cookies",
    "send": "send upload forward post transmit copy share sync mirror exfiltrate",
    "instr": "instructions instruction rules prompt guidelines policy directives directive orders",
    "override": "ignore disregard override forget replace supersede bypass overrule",
    "auth": "admin administrator developer operator system official authority vendor platform",
    "tool": "tool tools function functions call invoke",
    "file": "file files path directory home config folder",
}
_CONCEPT_INDEX = {}


def concept_index(path):
    if path not in _CONCEPT_INDEX:
        cl = clusters_at(path)
        seeds, k1, k2 = {}, {}, {}
        for i, (name, ws) in enumerate(sorted(CONCEPTS.items())):
            for w in ws.split():
                seeds.setdefault(w, set()).add(i)
                h = fnv(b"w:", w.encode())
                if h in cl.of:
                    k1.setdefault(cl.of[h], set()).add(i)
                if cl.of2 is not None and h in cl.of2:
                    k2.setdefault(cl.of2[h], set()).add(i)
        _CONCEPT_INDEX[path] = (seeds, k1, k2, cl)
    return _CONCEPT_INDEX[path]


def concept_features(words, path):
    seeds, k1, k2, cl = concept_index(path)
    present = set()
    for w in words:
        present |= seeds.get(w, set())
        h = fnv(b"w:", w.encode("utf-8"))
        c = cl.of.get(h)
        if c is not None:
            present |= k1.get(c, set())
        if cl.of2 is not None:
            c = cl.of2.get(h)
            if c is not None:
                present |= k2.get(c, set())
    ps = sorted(present)
    out = [fnv(b"c1:", bytes((a,))) for a in ps]
    out += [fnv(b"cp:", bytes((a, b))) for i, a in enumerate(ps) for b in ps[i + 1:]]
    return out


def distinct_buckets(feats, bits):
    """A segment counts each bucket once (presence, not counts): repeating a
    phrase, or a run of one letter, adds nothing to its score."""
    mask = (1 << bits) - 1
    return sorted(set((h ^ (h >> 16)) & mask for h in feats))


def string_units(field, text, cfg):
    """[(vkind, [segment feature-bucket lists])] for one string: each
    variant's chunks (a variant decoded whole: a base64 run longer than a
    chunk decodes as one)."""
    out = []
    for vkind, vt in variants(text, cfg.get("decode", True)):
        for chunk in chunks(vt):
            segs = segments(chunk)
            out.append((vkind, [segment_features(s, field, vkind, cfg) for s in segs], segs))
    return out


WINDOW = 2  # segments per scored span: the training rows are spans of 1 or 2

# A benign clause glued to a payload ("Lists the files in a folder, sorted by
# name, and " + payload) makes one segment whose ordinary words pull the
# payload's score under the line (red team, session 38: 5.50 -> -1.00 logits).
# A segment with much positive evidence (WINDOW_GATE logits of positive
# weights, ~0.3% of real segments) is also read in windows of WINDOW_WORDS
# words, every WINDOW_WORDS / 2 (`word_windows`), each scored as a segment.
# Windows of clauses (cut at punctuation and conjunctions) were tried first:
# the attacker picks the glue ("but", "while", no comma) and they missed it.
# In tenths of a logit. The gates are a rate: round 11's weights had them at
# 12 and 8 logits (8 and 10 read more, at 3 and 2 times the cost); round 12's
# give segments ~8% more positive evidence, and 13 and 8.7 read as many
# development real segments as 12 and 8 did (the engine's `WINDOW_GATE`).
WINDOW_GATE = 130
# A segment with a non-ASCII word character (a letter, mark or number:
# typographic quotes and dashes are not): a payload in another language
# carries less positive weight, and real tools write such segments rarely.
WINDOW_GATE_FOREIGN = 87
WINDOW_WORDS = 16


def word_windows(seg):
    """Windows of WINDOW_WORDS words (space-separated tokens of the normalized
    segment) starting every WINDOW_WORDS / 2 words, the last one ending at the
    segment's end; none when the segment is no longer than one window."""
    w = seg.split(" ")
    n = len(w)
    if n <= WINDOW_WORDS:
        return []
    starts = list(range(0, n - WINDOW_WORDS + 1, WINDOW_WORDS // 2))
    if starts[-1] != n - WINDOW_WORDS:
        starts.append(n - WINDOW_WORDS)
    return [" ".join(w[i:i + WINDOW_WORDS]) for i in starts]


def best_span(contribs):
    """Best sum over spans of 1..WINDOW consecutive segments.

    Bounded like the training rows: an unbounded best run (Kadane) let long
    benign documentation add up many mildly positive sentences (an out-of-fold
    real server reached logit 52 on the development part)."""
    best = None
    for i in range(len(contribs)):
        acc = 0
        for j in range(i, min(i + WINDOW, len(contribs))):
            acc += contribs[j]
            if best is None or acc > best:
                best = acc
    return 0 if best is None else best


# ---------------------------------------------------------------------------
# the shipped model, and the scores the engine must reproduce

HERE = __import__("os").path.dirname(__import__("os").path.abspath(__file__))
REPO = __import__("os").path.normpath(__import__("os").path.join(HERE, "..", "..", ".."))
ENGINE_MODEL = __import__("os").path.join(REPO, "src", "poison", "scorer.weights")
ENGINE_CLUSTERS = __import__("os").path.join(REPO, "src", "poison", "clusters.bin")
FULL = {"words": True, "chars": True, "struct": True, "decode": True, "clusters": ENGINE_CLUSTERS}


def pack_engine_model():
    """src/poison/scorer.weights from weights.bin + weights.json: a 24-byte
    header (b"MGSC", version 1, bits, 2 reserved bytes, then little-endian i32
    bias, flag threshold, block threshold, scale per logit) and the int16
    table as it is."""
    import json
    import os
    import struct
    meta = json.load(open(os.path.join(HERE, "weights.json"), encoding="utf-8"))
    blob = open(os.path.join(HERE, "weights.bin"), "rb").read()
    assert len(blob) == 2 << meta["bits"]
    head = b"MGSC" + struct.pack("<BBxxiiii", 1, meta["bits"], meta["bias"], meta["threshold_flag"],
                                 meta["threshold_block"], int(round(meta["scale"])))
    with open(ENGINE_MODEL, "wb") as fh:
        fh.write(head + blob)


class Model:
    """The engine's model file, read with the standard library."""

    def __init__(self, path=ENGINE_MODEL):
        import array
        import struct
        raw = open(path, "rb").read()
        assert raw[:5] == b"MGSC\x01"
        self.bits = raw[5]
        self.bias, self.flag, self.block, self.scale = struct.unpack("<iiii", raw[8:24])
        self.w = array.array("h")
        self.w.frombytes(raw[24:])
        if __import__("sys").byteorder != "little":
            self.w.byteswap()
        self.cache = {}

    def string_score(self, field, text):
        """bias + best span over the variants; None when the string has no segment."""
        key = (field, text)
        if key in self.cache:
            return self.cache[key]
        best = None
        for vk, seg_feats, segs in string_units(field, text, FULL):
            contribs = []
            for fs, seg in zip(seg_feats, segs):
                ws = [self.w[b] for b in distinct_buckets(fs, self.bits)]
                contribs.append(sum(ws))
                foreign = any(ord(ch) > 127 and is_word(ch) for ch in seg)
                gate = WINDOW_GATE_FOREIGN if foreign else WINDOW_GATE
                if sum(w for w in ws if w > 0) * 10 >= gate * self.scale:
                    for win in word_windows(seg):
                        k = sum(self.w[b] for b in distinct_buckets(segment_features(win, field, vk, FULL), self.bits))
                        best = k if best is None else max(best, k)
            if contribs:
                k = best_span(contribs)
                best = k if best is None else max(best, k)
        r = None if best is None else best + self.bias
        self.cache[key] = r
        return r

    def tool_score(self, tool):
        ss = [s for s in (self.string_score(f, t) for f, t in strings_of_tool(tool)) if s is not None]
        return max(ss) if ss else None

    def name_score(self, tool):
        """The best score of the tool's property and definition names
        (NAME_FIELDS), read from NAME_LINE (the engine's
        `ToolScore::name_reading`); None without a name."""
        ss = [s for s in (self.string_score(f, t) for f, t in strings_of_tool(tool) if f in NAME_FIELDS) if s is not None]
        return max(ss) if ss else None


# Property and definition names, read from a line of their own (the engine's
# `scorer::NAME_LINE`, hundredths of a logit): out of fold, the best name of a
# development real tool scores at most 0.90, of a hard benign item at most
# 0.40 (train.py --oof-only --names); a payload spelled as a name has too few
# words to reach the flag line with.
NAME_FIELDS = frozenset(("prop.name", "defs.key", "out.prop.name", "out.defs.key"))
NAME_LINE = 150


def name_flagged(model, tool):
    """Whether the tool's best name reaches NAME_LINE."""
    k = model.name_score(tool)
    return k is not None and k * 100 >= NAME_LINE * model.scale


# ---------------------------------------------------------------------------
# a sentence in a script the rest of the tool does not write (the engine's
# `scorer::other_script`)
#
# The weights were fitted on ~28 languages: a payload in a language whose
# script they saw no attack in scores low (held4, nine unseen languages: 42%
# flagged), but it still scores above what honest text in the same script
# scores, and in a tool written in another script it stands out. A run of
# consecutive sentences of a string whose letters are mostly one non-Latin
# script, with OTHER_SCRIPT_LETTERS letters of it, is a unit when that script
# is not the tool's own (fewer than half the letters of its prose, not its
# most common script) and fewer than OTHER_SCRIPT_STRINGS strings of the
# catalog's other tools hold such units (bilingual servers hold them in many;
# the tool's own are not counted, session 47: an order repeated in three of
# its strings turned the reading off). A unit is scored as
# one segment (its sentence ends read as spaces: a payload cut into lines or
# into one-word sentences is read whole) and flagged from its script's line,
# OTHER_SCRIPT_LINES: above every honest unit of that script in the
# development benign text (`other_script_lines.py`), never below 0 logits,
# for the scripts with at least 50 honest units there; the others have no
# line (a few honest units say little; where honest text reaches the flag
# line the weights saw attacks in the script), and the scorer's own reads
# them.

OTHER_SCRIPT_LETTERS = 12
OTHER_SCRIPT_STRINGS = 2
# script -> line in hundredths of a logit (`other_script_lines.py --write`);
# a script not listed has no lower line.
OTHER_SCRIPT_LINES = {'cyrillic': 154, 'hangul': 0}
OTHER_SCRIPT_FLOOR = 0

# Ranges of code points -> script, for letters (`is_letter`); a letter in no
# range is "other" (one script). Latin is never "another script": the
# scorer's own flag line reads it.
SCRIPT_RANGES = (
    (0x0000, 0x02AF, "latin"), (0x0370, 0x03FF, "greek"), (0x0400, 0x052F, "cyrillic"),
    (0x0530, 0x058F, "armenian"), (0x0590, 0x05FF, "hebrew"), (0x0600, 0x06FF, "arabic"),
    (0x0700, 0x074F, "syriac"), (0x0750, 0x077F, "arabic"), (0x0780, 0x07BF, "thaana"),
    (0x08A0, 0x08FF, "arabic"), (0x0900, 0x097F, "devanagari"), (0x0980, 0x09FF, "bengali"),
    (0x0A00, 0x0A7F, "gurmukhi"), (0x0A80, 0x0AFF, "gujarati"), (0x0B00, 0x0B7F, "oriya"),
    (0x0B80, 0x0BFF, "tamil"), (0x0C00, 0x0C7F, "telugu"), (0x0C80, 0x0CFF, "kannada"),
    (0x0D00, 0x0D7F, "malayalam"), (0x0D80, 0x0DFF, "sinhala"), (0x0E00, 0x0E7F, "thai"),
    (0x0E80, 0x0EFF, "lao"), (0x0F00, 0x0FFF, "tibetan"), (0x1000, 0x109F, "myanmar"),
    (0x10A0, 0x10FF, "georgian"), (0x1100, 0x11FF, "hangul"), (0x1200, 0x139F, "ethiopic"),
    (0x13A0, 0x13FF, "cherokee"), (0x1780, 0x17FF, "khmer"), (0x1800, 0x18AF, "mongolian"),
    (0x1C80, 0x1C8F, "cyrillic"), (0x1C90, 0x1CBF, "georgian"), (0x1D00, 0x1DBF, "latin"),
    (0x1E00, 0x1EFF, "latin"), (0x1F00, 0x1FFF, "greek"), (0x2C60, 0x2C7F, "latin"),
    (0x2D00, 0x2D2F, "georgian"), (0x2DE0, 0x2DFF, "cyrillic"), (0x2E80, 0x2FDF, "cjk"),
    (0x3040, 0x30FF, "cjk"), (0x3100, 0x312F, "cjk"), (0x3130, 0x318F, "hangul"),
    (0x31A0, 0x31FF, "cjk"), (0x3400, 0x4DBF, "cjk"), (0x4E00, 0x9FFF, "cjk"),
    (0xA640, 0xA69F, "cyrillic"), (0xA720, 0xA7FF, "latin"), (0xA960, 0xA97F, "hangul"),
    (0xAB30, 0xAB6F, "latin"), (0xAC00, 0xD7FF, "hangul"), (0xF900, 0xFAFF, "cjk"),
    (0xFB50, 0xFDFF, "arabic"), (0xFE70, 0xFEFF, "arabic"), (0xFF21, 0xFF5A, "latin"),
    (0xFF66, 0xFF9F, "cjk"), (0xFFA0, 0xFFDC, "hangul"), (0x20000, 0x3FFFF, "cjk"),
)
# Ends of a sentence: the scripts' own full stops (danda, Arabic question
# mark and full stop, Armenian and Ethiopic full stops, the ideographic and
# full-width ones) and a line break; `.!?;` when a space, a tab, a line break
# or the end follows (not the dot of "~/.ssh" or "3.5").
SENTENCE_ENDS = set("\n\u3002\uff01\uff1f\uff1b\u0964\u0965\u061f\u06d4\u0589\u1362")
SENTENCE_ENDS_BEFORE_SPACE = set(".!?;")
# The fields whose letters make a tool's own script: its prose (names, keys,
# formats, patterns and URIs are identifiers, nearly always Latin).
PROSE_FIELDS = {"tool.title", "tool.description", "annotations.title", "schema.description", "schema.title",
                "enum", "default", "examples", "const"}


def script_of(ch):
    """The script of a letter (`is_letter`), None for anything else."""
    if not is_letter(ch):
        return None
    cp = ord(ch)
    lo, hi = 0, len(SCRIPT_RANGES)
    while lo < hi:  # the last range starting at or before cp
        mid = (lo + hi) // 2
        if SCRIPT_RANGES[mid][0] <= cp:
            lo = mid + 1
        else:
            hi = mid
    if lo and cp <= SCRIPT_RANGES[lo - 1][1]:
        return SCRIPT_RANGES[lo - 1][2]
    return "other"


def sentences(text):
    """(start, end) of the text's sentences, ends included (`SENTENCE_ENDS`)."""
    out, a = [], 0
    for i, ch in enumerate(text):
        if ch in SENTENCE_ENDS or (ch in SENTENCE_ENDS_BEFORE_SPACE and (i + 1 == len(text) or text[i + 1] in " \t\n\r")):
            out.append((a, i + 1))
            a = i + 1
    if a < len(text):
        out.append((a, len(text)))
    return out


def _letters(sent):
    """script -> letters of a sentence."""
    n = {}
    for ch in sent:
        s = script_of(ch)
        if s is not None:
            n[s] = n.get(s, 0) + 1
    return n


def _dominant(n):
    """The script most of the letters `n` are in (the first by name on a tie)
    and its letters, or (None, 0) without letters."""
    if not n:
        return None, 0
    s = max(sorted(n), key=lambda k: n[k])
    return s, n[s]


def _unit_text(text, spans):
    """The run's sentences with each one's end (a line break, a full stop)
    read as a space: one segment."""
    out = []
    for a, z in spans:
        t = text[a:z]
        if t and (t[-1] in SENTENCE_ENDS or t[-1] in SENTENCE_ENDS_BEFORE_SPACE):
            t = t[:-1] + " "
        out.append(t)
    return "".join(out)


def _script_units(strs):
    """(place, field, unit text, script) of every run of consecutive
    sentences of a string that starts at a sentence mostly in one non-Latin
    script and goes on until a sentence with OTHER_SCRIPT_LETTERS letters
    mostly in another one (a short Latin path or name inside it, a sentence
    without letters, do not end it), with at least OTHER_SCRIPT_LETTERS
    letters of its script."""
    out = []
    for at, (field, text) in enumerate(strs):
        if text.isascii():
            continue
        run, script, letters = [], None, 0
        for a, z in sentences(text):
            n = _letters(text[a:z])
            d, k = _dominant(n)
            if script is not None and (d is None or d == script or k < OTHER_SCRIPT_LETTERS):
                run.append((a, z))
                letters += n.get(script, 0)
                continue
            if script is not None and letters >= OTHER_SCRIPT_LETTERS:
                out.append((at, field, _unit_text(text, run), script))
            run, script, letters = [], None, 0
            if d is not None and d != "latin":
                run, script, letters = [(a, z)], d, k
        if script is not None and letters >= OTHER_SCRIPT_LETTERS:
            out.append((at, field, _unit_text(text, run), script))
    return out


def script_strings(tool):
    """script -> how many of the tool's strings hold a unit of it
    (`_script_units`): summed over a catalog's tools, the catalog's count."""
    places = {}
    for at, _, _, s in _script_units(strings_of_tool(tool)):
        places.setdefault(s, set()).add(at)
    return {s: len(p) for s, p in places.items()}


def script_line(s):
    """A script's line in hundredths of a logit, None when it has none."""
    return OTHER_SCRIPT_LINES.get(s)


def read_units(tool, catalog=None):
    """[(field, unit, script)] of the tool's units that may be read (see
    above), whatever their script: the script is not the tool's own, and
    fewer than OTHER_SCRIPT_STRINGS strings of the catalog's other tools hold
    its units (`catalog`: `script_strings` summed over the catalog's tools,
    the tool's own taken out; the tool's own when None, so none). The
    engine's `scorer::other_script` gating; the concept line's reading
    (`concepts/fit.py`) reads these in every script."""
    strs = strings_of_tool(tool)
    if all(t.isascii() for _, t in strs):
        return []
    units = _script_units(strs)
    if not units:
        return []
    mine = script_strings(tool)
    counts = catalog if catalog is not None else mine
    own = {}
    for field, text in strs:
        if field.removeprefix("out.") in PROSE_FIELDS:
            for ch in text:
                s = script_of(ch)
                if s is not None:
                    own[s] = own.get(s, 0) + 1
    total = sum(own.values())
    main = max(sorted(own), key=lambda s: own[s]) if own else None
    return [(field, unit, s) for _at, field, unit, s in units
            if s != main and own.get(s, 0) * 2 < total and counts.get(s, 0) - mine.get(s, 0) < OTHER_SCRIPT_STRINGS]


def other_script_units(model, tool, catalog=None):
    """[(score, script, unit)] of the units `read_units` gives whose script
    has a line."""
    out = []
    for field, unit, s in read_units(tool, catalog):
        if script_line(s) is None:
            continue
        k = model.string_score(field, unit)
        if k is not None:
            out.append((k, s, unit))
    return out


def other_script_score(model, tool, catalog=None):
    """The best unit's margin over its script's line, in the model's units
    times 100 (flagged from 0), and its score; None without a unit."""
    best = None
    for k, s, _ in other_script_units(model, tool, catalog):
        m = k * 100 - script_line(s) * model.scale
        if best is None or m > best[0]:
            best = (m, k)
    return best


def catalog_script_strings(tools):
    """`script_strings` summed over a catalog's tools."""
    out = {}
    for t in tools:
        for s, n in script_strings(t).items():
            out[s] = out.get(s, 0) + n
    return out


def write_expected(set_dir, out_path, sample=False):
    """The scores the engine must reproduce: one JSON line per distinct
    (field, text) ({"field", "text", "score"}) and one per tool ({"tool",
    "score"}), over the set's tools and the real catalogs of testdata.
    `sample`: a small committed subset (every 40th development poisoned item,
    every 12th development benign one, the crafted tools of
    testdata/scorer/long-and-nested.json and other-script.json, the first 2
    tools of each real server). A tool's line has its `other_script_score`
    too (the tool's own counts)."""
    import json
    import os
    m = Model()
    labels = {}
    for line in open(os.path.join(set_dir, "labels.jsonl"), encoding="utf-8"):
        lab = json.loads(line)
        labels[lab["id"]] = lab
    tools = []
    for name, every in (("poisoned.jsonl", 40), ("benign.jsonl", 12)):
        n = 0
        for line in open(os.path.join(set_dir, name), encoding="utf-8"):
            it = json.loads(line)
            if sample:
                if labels[it["id"]]["part"] != "dev":
                    continue
                n += 1
                if n % every:
                    continue
            tools += it["catalog"]["tools"]
    # Crafted: payloads deep in long strings and in every subschema keyword
    # (the chunks and the walk), always whole.
    tools += json.load(open(os.path.join(REPO, "testdata", "scorer", "long-and-nested.json"), encoding="utf-8"))["tools"]
    # Crafted: sentences in a script the rest of the tool does not write.
    tools += json.load(open(os.path.join(REPO, "testdata", "scorer", "other-script.json"), encoding="utf-8"))["tools"]
    cat = os.path.join(REPO, "testdata", "catalogs")
    for f in sorted(os.listdir(cat)):
        if f.endswith(".json"):
            ts = json.load(open(os.path.join(cat, f), encoding="utf-8"))["tools"]
            tools += ts[:2] if sample else ts
    seen = set()
    with open(out_path, "w", encoding="utf-8") as fh:
        names = sorted({r[2] for r in SCRIPT_RANGES} | {"other"})
        fh.write(json.dumps({"other_script_lines": {s: script_line(s) for s in names}}, sort_keys=True) + "\n")
        for t in tools:
            for field, text in strings_of_tool(t):
                if (field, text) in seen:
                    continue
                seen.add((field, text))
                fh.write(json.dumps({"field": field, "text": text, "score": m.string_score(field, text)},
                                    ensure_ascii=False, sort_keys=True) + "\n")
            fh.write(json.dumps({"tool": t, "score": m.tool_score(t), "other_script": other_script_score(m, t), "name": m.name_score(t)},
                                ensure_ascii=False, sort_keys=True) + "\n")


if __name__ == "__main__":
    import sys
    if sys.argv[1:2] == ["--pack"]:
        pack_engine_model()
    elif sys.argv[1:2] == ["--expect"]:
        write_expected(sys.argv[2], sys.argv[3], sample="--sample" in sys.argv[4:])
    else:
        sys.exit("usage: scorer.py --pack | --expect SET_DIR OUT.jsonl [--sample]")
