//! FROZEN REFERENCE (test only): `src/poison/decode.rs` as of commit 30cba90
//! (session 31), before the gates' evidence moved into the scorer's single
//! pass. Do not edit: the red-team tests of `gate_redteam.rs` compare the
//! current gates and decoders against these, the decoders as they read
//! every text before any of the folding. Its own doc follows.
#![allow(dead_code)]
//  The decoders of the learned scorer's later variants (scorer.py:
//  `_entities_decoded`, `_spaced_decoded`, `_leet_decoded`,
//  `_reversed_rot13`): the encodings that carry no decode hint of their own —
//  character references, spaced letters, leet, reversed text and ROT13.
// 
//  Each gate is one linear pass that allocates nothing and that almost all
//  real text fails (of the 238,820 strings of `testdata/catalogs-wide`, three
//  take one of these variants); only a text that passes is copied, once. The
//  input is already cut at the scorer's `MAX_CHARS`, and no decoder makes its
//  text longer (reversed, ROT13 and leet keep its length; references and
//  spaced letters shorten it): every variant stays bounded.
// 
//  The reversed / ROT13 / leet gates count function words (`FUNCTION_WORDS`)
//  in each reading. The cluster table was tried as the vocabulary and knows
//  too much: 28 of the 31 words of a ROT13 payload are in it.

/// Character references before a text is read decoded.
const MIN_REFS: usize = 4;
/// Single characters in a run before it is joined…
const MIN_SPACED: usize = 8;
/// …each at most this many spaces after the one before (more is layout).
const MAX_GAP: usize = 4;
/// Words of a text the reversed / ROT13 gates look at…
const VOCAB_WORDS: usize = 64;
/// …at least this many…
const MIN_WORDS: usize = 5;
/// …and the function words the other reading must show.
const MIN_FUNCTION: usize = 3;
/// Leet words that read as function words.
const MIN_LEET: usize = 2;
/// The longest function word: longer words are not looked up.
const LONGEST_FUNCTION: usize = 6;

/// Function words of the languages of the set's Latin-script payloads. None
/// is another's reversal or ROT13 ("or" / "be", "le" / "el" are left out), so
/// that text as written never counts in the other readings; nor is any the
/// reversal of a token common in real tool text ("id" / "di", "no" / "on",
/// "us" / "su", "me" / "em", "ad" / "da", "fi" / "if", "red" / "der").
const FUNCTION_WORDS: &[&[u8]] = &[
    b"the", b"to", b"of", b"and", b"in", b"is", b"for", b"with", b"that", b"this", b"you", b"your",
    b"it", b"are", b"as", b"by", b"from", b"at", b"not", b"all", b"any", b"an", b"will", b"can",
    b"do", b"we", b"was", b"has", b"have", b"what", b"when", b"must", b"should", b"its", b"into", b"then",
    b"them", b"they", b"their", b"there", b"these", b"those", b"which", b"who", b"would", b"been", b"were", b"than",
    b"only", b"also", b"but", b"de", b"la", b"los", b"las", b"que", b"del", b"por", b"para", b"una",
    b"con", b"les", b"des", b"et", b"est", b"pour", b"dans", b"une", b"vous", b"sur", b"au", b"die",
    b"das", b"und", b"ist", b"nicht", b"sie", b"zu", b"mit", b"den", b"ein", b"eine", b"auf", b"dem",
    b"il", b"che", b"per", b"sono", b"della", b"um", b"com",
];

/// A word of at most 8 lower-case ASCII letters as one integer (its bytes,
/// big-endian; letters are never 0, so the length is in it too).
const fn pack(w: &[u8]) -> u64 {
    let (mut x, mut i) = (0u64, 0);
    while i < w.len() {
        x = x << 8 | w[i] as u64;
        i += 1;
    }
    x
}

const SLOTS: usize = 256;
const fn slot(x: u64) -> usize {
    (x.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize
}

/// `FUNCTION_WORDS` packed, in an open-addressed table (0: empty): a lookup
/// is a multiplication and one or two comparisons.
const FUNCTION_TABLE: [u64; SLOTS] = {
    let mut t = [0u64; SLOTS];
    let mut i = 0;
    while i < FUNCTION_WORDS.len() {
        let x = pack(FUNCTION_WORDS[i]);
        let mut j = slot(x);
        while t[j] != 0 {
            j = (j + 1) % SLOTS;
        }
        t[j] = x;
        i += 1;
    }
    t
};

/// Whether the packed word `x` is a function word.
fn is_function(x: u64) -> bool {
    let mut j = slot(x);
    loop {
        let k = FUNCTION_TABLE[j];
        if k == x {
            return true;
        }
        if k == 0 {
            return false;
        }
        j = (j + 1) % SLOTS;
    }
}

fn is_function_word(w: &[u8]) -> bool {
    w.len() <= LONGEST_FUNCTION && is_function(pack(w))
}

// ---------------------------------------------------------------------------
// the gates: eight bytes at a time

/// Which decoders can apply to a text, from one pass over its bytes eight at
/// a time (`gates`): each flag is a necessary condition of its decoder's own
/// test, so a text the pass turns away is one the decoder would not read.
/// (Reversed text and ROT13 have no such shortcut: `reversed_rot13` reads at
/// most `VOCAB_WORDS` words.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Gates {
    /// An `&`.
    pub refs: bool,
    /// An aligned block of eight bytes with a space, a byte that is not one,
    /// no control byte and no two characters side by side: every run of
    /// `MIN_SPACED` one-character tokens spans fifteen bytes or more, so it
    /// holds such a block (its gaps are at most `MAX_GAP` < 8 spaces, its
    /// tokens no control characters).
    pub spaced: bool,
    /// `MIN_LEET` leet words that read as function words (`leet`'s own
    /// test), looked for only in the blocks that hold a digit `0`–`7`, `@`
    /// or `$`.
    pub leet: bool,
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// `0x80` in each byte of `x` equal to `b`, `0` elsewhere (exact: no borrow
/// crosses bytes).
#[inline]
fn eq_mask(x: u64, b: u8) -> u64 {
    let v = x ^ (ONES * b as u64);
    !(((v & !HIGH) + !HIGH) | v) & HIGH
}

fn is_leet_byte(b: u8) -> bool {
    leet_of(b).is_some()
}

/// Whether the word (see `leet_words`) around the leet character at `i` reads
/// as a function word; where it ends. Words longer than the longest function
/// word are not measured past it.
fn leet_hit_at(b: &[u8], i: usize) -> (bool, usize) {
    let mut s = i;
    while s > 0 && is_leet_word_byte(b[s - 1]) && i - s <= LONGEST_FUNCTION {
        s -= 1;
    }
    let mut e = i + 1;
    while e < b.len() && is_leet_word_byte(b[e]) && e - s <= LONGEST_FUNCTION {
        e += 1;
    }
    if e - s > LONGEST_FUNCTION {
        // Too long to be a function word: skip to its end.
        while e < b.len() && is_leet_word_byte(b[e]) {
            e += 1;
        }
        return (false, e);
    }
    let w = &b[s..e];
    let alpha = w.iter().any(u8::is_ascii_alphabetic);
    let other = w.iter().any(|&c| c.is_ascii_digit() && leet_of(c).is_none());
    let mut x = 0u64;
    for &c in w {
        x = x << 8 | leet_of(c).unwrap_or(c).to_ascii_lowercase() as u64;
    }
    (alpha && !other && is_function(x), e)
}

/// The gates of `text`.
// Out of line (called once a string), so that a profile names it.
#[inline(never)]
pub(super) fn gates(text: &str) -> Gates {
    let b = text.as_bytes();
    let mut g = Gates { refs: memchr::memchr(b'&', b).is_some(), ..Gates::default() };
    // Leet words that read as function words, and the end of the last word
    // looked at (a word with two leet characters is read once).
    let (mut hits, mut done) = (0usize, 0usize);
    let mut look = |i: usize, hits: &mut usize| {
        if i >= done && is_leet_byte(b[i]) {
            let (hit, end) = leet_hit_at(b, i);
            *hits += hit as usize;
            done = end;
        }
    };
    let mut chunks = b.chunks_exact(8);
    for (k, c) in chunks.by_ref().enumerate() {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        if !g.spaced {
            let sp = eq_mask(x, b' ');
            let cont = eq_mask(x & (ONES * 0xC0), 0x80);
            let ns = !sp & HIGH;
            // A character (not a continuation byte) right after a non-space.
            let bad = (ns << 8) & ns & !cont;
            let control = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
            g.spaced = sp != 0 && sp != HIGH && bad == 0 && control == 0;
        }
        if hits < MIN_LEET {
            let lt = eq_mask(x & (ONES * 0xF8), b'0') | eq_mask(x, b'@') | eq_mask(x, b'$');
            if lt != 0 {
                for i in 8 * k..8 * k + 8 {
                    look(i, &mut hits);
                }
            }
        }
    }
    for i in b.len() - chunks.remainder().len()..b.len() {
        look(i, &mut hits);
    }
    g.leet = hits >= MIN_LEET;
    g
}

// ---------------------------------------------------------------------------
// character references

/// The character and the byte length of a reference (`&#NN;`, `&#xHH;`, or a
/// named one) at `i` (where `b[i]` is `&`).
fn reference_at(b: &[u8], i: usize) -> Option<(char, usize)> {
    let n = b.len();
    let mut j = i + 1;
    if j < n && b[j] == b'#' {
        j += 1;
        let hexa = j < n && (b[j] == b'x' || b[j] == b'X');
        if hexa {
            j += 1;
        }
        let (mut k, mut v) = (j, 0u32);
        while k < n && k - j < 8 && if hexa { b[k].is_ascii_hexdigit() } else { b[k].is_ascii_digit() } {
            v = v * if hexa { 16 } else { 10 } + (b[k] as char).to_digit(16).unwrap_or(0);
            k += 1;
        }
        if k == j || k >= n || b[k] != b';' || v == 0 {
            return None;
        }
        // Past U+10FFFF or a surrogate: not a character, left as written.
        return char::from_u32(v).map(|c| (c, k + 1 - i));
    }
    let mut k = j;
    while k < n && k - j < 5 && b[k].is_ascii_alphabetic() {
        k += 1;
    }
    if k >= n || b[k] != b';' {
        return None;
    }
    let c = match &b[j..k] {
        b"amp" => '&',
        b"lt" => '<',
        b"gt" => '>',
        b"quot" => '"',
        b"apos" => '\'',
        b"nbsp" => '\u{a0}',
        _ => return None,
    };
    Some((c, k + 1 - i))
}

/// The text with its character references decoded, when it has at least
/// `MIN_REFS` of them.
pub(super) fn entities(text: &str) -> Option<String> {
    let b = text.as_bytes();
    // Counted first without copying (most text has no `&` at all).
    let mut refs = 0;
    let mut at = 0;
    while let Some(p) = memchr::memchr(b'&', &b[at..]) {
        let i = at + p;
        match reference_at(b, i) {
            Some((_, len)) => {
                refs += 1;
                at = i + len;
            }
            None => at = i + 1,
        }
    }
    if refs < MIN_REFS {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let (mut at, mut copied) = (0, 0);
    while let Some(p) = memchr::memchr(b'&', &b[at..]) {
        let i = at + p;
        match reference_at(b, i) {
            Some((c, len)) => {
                out.push_str(&text[copied..i]);
                out.push(c);
                at = i + len;
                copied = at;
            }
            None => at = i + 1,
        }
    }
    out.push_str(&text[copied..]);
    Some(out)
}

// ---------------------------------------------------------------------------
// spaced letters

/// The tokens of `text` between spaces (`' '` only): (start, end, spaces
/// before it), as byte offsets.
fn tokens(text: &str) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        let mut gap = 0;
        while i < b.len() && b[i] == b' ' {
            gap += 1;
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let s = i;
        i += memchr::memchr(b' ', &b[i..]).unwrap_or(b.len() - i);
        Some((s, i, gap))
    })
}

/// A token of one character, not a control character (a line break is
/// layout).
fn single(text: &str, (s, e, _): (usize, usize, usize)) -> bool {
    text[s..].chars().next().is_some_and(|c| c.len_utf8() == e - s && c >= ' ')
}

/// Runs of at least `MIN_SPACED` single characters, each apart from the next
/// by one space, joined ("i g n o r e" → "ignore"); two or more spaces, or a
/// lone `/`, between two of them is a word gap (one space). `None` when the
/// text has no such run.
pub(super) fn spaced(text: &str) -> Option<String> {
    // Found first without copying: the runs' (start, end) are re-read below.
    let (mut run, mut any) = (0, false);
    for t in tokens(text) {
        run = if !single(text, t) {
            0
        } else if t.2 > MAX_GAP {
            1
        } else {
            run + 1
        };
        if run >= MIN_SPACED {
            any = true;
            break;
        }
    }
    if !any {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    // The current run: its first token's start, its tokens.
    let mut run: Vec<(usize, usize, usize)> = Vec::new();
    let flush = |run: &mut Vec<(usize, usize, usize)>, out: &mut String, copied: &mut usize| {
        if run.len() >= MIN_SPACED {
            out.push_str(&text[*copied..run[0].0]);
            let mut word_gap = false;
            for (k, &(s, e, gap)) in run.iter().enumerate() {
                let c = &text[s..e];
                if c == "/" {
                    word_gap = true;
                    continue;
                }
                if k > 0 && (word_gap || gap >= 2) {
                    out.push(' ');
                }
                word_gap = false;
                out.push_str(c);
            }
            *copied = run[run.len() - 1].1;
        }
        run.clear();
    };
    for t in tokens(text) {
        if !single(text, t) {
            flush(&mut run, &mut out, &mut copied);
            continue;
        }
        if t.2 > MAX_GAP {
            flush(&mut run, &mut out, &mut copied);
        }
        run.push(t);
    }
    flush(&mut run, &mut out, &mut copied);
    out.push_str(&text[copied..]);
    Some(out)
}

// ---------------------------------------------------------------------------
// leet

/// The letter a leet digit or symbol stands for.
const fn leet_of(b: u8) -> Option<u8> {
    Some(match b {
        b'0' => b'o',
        b'1' => b'i',
        b'3' => b'e',
        b'4' => b'a',
        b'5' => b's',
        b'7' => b't',
        b'@' => b'a',
        b'$' => b's',
        _ => return None,
    })
}

fn is_leet_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'@' || b == b'$'
}

/// For each word of ASCII letters, digits, `@` and `$` that mixes letters
/// with leet digits / symbols and holds no other digit: its byte range.
fn leet_words(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || loop {
        while i < b.len() && !is_leet_word_byte(b[i]) {
            i += 1;
        }
        if i >= b.len() {
            return None;
        }
        let s = i;
        let (mut alpha, mut leet, mut other) = (false, false, false);
        while i < b.len() && is_leet_word_byte(b[i]) {
            alpha |= b[i].is_ascii_alphabetic();
            leet |= leet_of(b[i]).is_some();
            other |= b[i].is_ascii_digit() && leet_of(b[i]).is_none();
            i += 1;
        }
        if alpha && leet && !other {
            return Some((s, i));
        }
    })
}

/// The leet words (see `leet_words`) read as letters, when at least
/// `MIN_LEET` of them read as function words ("4ll", "7h3").
pub(super) fn leet(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut hits = 0;
    let mut word = [0u8; LONGEST_FUNCTION];
    for (s, e) in leet_words(text) {
        if e - s <= LONGEST_FUNCTION {
            for (d, &c) in word.iter_mut().zip(&b[s..e]) {
                *d = leet_of(c).unwrap_or(c).to_ascii_lowercase();
            }
            hits += is_function_word(&word[..e - s]) as usize;
        }
    }
    if hits < MIN_LEET {
        return None;
    }
    let mut out = Vec::with_capacity(b.len());
    let mut copied = 0;
    for (s, e) in leet_words(text) {
        out.extend_from_slice(&b[copied..s]);
        out.extend(b[s..e].iter().map(|&c| leet_of(c).unwrap_or(c)));
        copied = e;
    }
    out.extend_from_slice(&b[copied..]);
    // Only ASCII bytes were replaced by ASCII bytes: still UTF-8.
    String::from_utf8(out).ok()
}

// ---------------------------------------------------------------------------
// reversed text and ROT13

fn rot13(b: u8) -> u8 {
    match b {
        b'a'..=b'z' => (b - b'a' + 13) % 26 + b'a',
        b'A'..=b'Z' => (b - b'A' + 13) % 26 + b'A',
        _ => b,
    }
}

/// Over the first `VOCAB_WORDS` words of `b` (runs of two or more ASCII
/// letters): how many there are, and how many of those of at most
/// `LONGEST_FUNCTION` letters each test of `test` (given the word packed in
/// lower case, and its length) finds.
#[inline]
fn count_words(b: &[u8], test: impl Fn(u64, usize) -> (bool, bool)) -> (usize, usize, usize) {
    let (mut words, mut one, mut two) = (0, 0, 0);
    // The current word packed (its last eight letters), its length.
    let (mut w, mut n) = (0u64, 0usize);
    let mut i = 0;
    loop {
        let c = b.get(i).copied().unwrap_or(b' ');
        i += 1;
        if c.is_ascii_alphabetic() {
            w = w << 8 | (c | 0x20) as u64;
            n += 1;
            continue;
        }
        if n >= 2 {
            words += 1;
            if n <= LONGEST_FUNCTION {
                let (x, y) = test(w, n);
                one += x as usize;
                two += y as usize;
            }
            if words == VOCAB_WORDS {
                break;
            }
        }
        (w, n) = (0, 0);
        if i > b.len() {
            break;
        }
    }
    (words, one, two)
}

/// ROT13 of a packed word of `n` (at most 7) lower-case letters, all its
/// bytes at once: 13 added, 26 taken back where that passed `z`.
fn rot13_packed(w: u64, n: usize) -> u64 {
    let m = ONES >> (64 - 8 * n);
    let y = w + 13 * m;
    let over = (y + 5 * m) & (m << 7);
    y - (over >> 7) * 26
}

/// (the text reversed, the text in ROT13), each when, over its first
/// `VOCAB_WORDS` words (runs of two or more ASCII letters; at least
/// `MIN_WORDS`), that reading has at least `MIN_FUNCTION` function words and
/// at least half as many as the text as written (a payload after a short
/// benign sentence still counts).
// Out of line (called once a string), so that a profile names it.
#[inline(never)]
pub(super) fn reversed_rot13(text: &str) -> (Option<String>, Option<String>) {
    let b = text.as_bytes();
    // The readings first: the text as written is counted only when one of
    // them reaches `MIN_FUNCTION` (rarely).
    let (words, fr, f13) = count_words(b, |w, n| (is_function(w.swap_bytes() >> (64 - 8 * n)), is_function(rot13_packed(w, n))));
    if words < MIN_WORDS || (fr < MIN_FUNCTION && f13 < MIN_FUNCTION) {
        return (None, None);
    }
    let (_, f0, _) = count_words(b, |w, _| (is_function(w), false));
    let rev = (fr >= MIN_FUNCTION && 2 * fr >= f0).then(|| text.chars().rev().collect());
    let rot = (f13 >= MIN_FUNCTION && 2 * f13 >= f0).then(|| {
        // Only ASCII letters change, into ASCII letters: still UTF-8.
        String::from_utf8(b.iter().map(|&c| rot13(c)).collect()).unwrap_or_default()
    });
    (rev, rot)
}

