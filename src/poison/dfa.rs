//! A dense Aho-Corasick automaton of our own, for the detector's two
//! byte-level passes: the trigger prefilter (every string) and the exact
//! gates on text that folds without Unicode tables (see `Gates`).
//!
//! Why not `aho_corasick::dfa::DFA`: the general one reads each byte through
//! the `Automaton` trait (a special-state test, then a match test, then the
//! pattern list), ~14 instructions a byte. Here the match states are numbered
//! last, so the loop is one class lookup, one transition and one compare, and
//! what a match state marks is one precomputed bit set (the union over every
//! pattern ending there, suffixes included — what the overlapping search
//! reported one pattern at a time).
//!
//! A gate automaton reads the text *as folded* (`Reading::Folded`): bytes that
//! fold to a space share the space's class and a run of them counts as one
//! (a state entered by a space stays there on more spaces), and bytes folding
//! drops leave the state as it is. So a match on the raw bytes is a match on
//! `fold(text).plain`, for text whose folding needs no Unicode tables.

use super::matcher::{ASCII_CLASS, DROP, SPACE};

/// What a match state marks: slots for the prefilter, rule groups for gates.
pub type Bits = [u64; 4];

#[derive(Clone, Copy, PartialEq)]
pub enum Reading {
    /// The bytes as they are, ASCII letters in either case.
    Raw,
    /// As `matcher::fold` leaves them (whitespace runs collapsed, controls
    /// dropped, ASCII letters in either case). Patterns must not start with
    /// a space (folded text never does, at a match's start, after a word).
    Folded,
}

pub struct Dfa {
    /// Byte → class (a column of `trans`): `[0]` in ASCII text, `[1]` in
    /// other text (they differ on `\r` and form feed, as `fold` does).
    class: [[u8; 256]; 2],
    /// `trans[(state << 3) + class]`: the next state, as `u16`. A state is
    /// stored as its row's offset divided by 8 (rows are a multiple of 8
    /// wide), so a step is one `lea` and one read, as with premultiplied
    /// `u32` states, in half the bytes: the rows the text keeps coming back
    /// to take half the cache lines. (A plain `u16` state index would need a
    /// multiply or shift by the row width on the chain from one state to
    /// the next.)
    ///
    /// Laid out for the cache, since the prefilter reads every byte of a
    /// catalog through it: states are numbered breadth first, so the shallow
    /// states almost every byte of text stays in (the root, the first letters
    /// of the patterns) share a few kilobytes of the table instead of being
    /// spread over all of it; and the ASCII-only table the detector uses for
    /// ASCII text has rows as wide as its classes (52, so 56), not a power of two.
    trans: Vec<u16>,
    /// The width of a row (the classes, rounded up to a multiple of 8).
    cols: u32,
    /// States at or above this one are match states.
    first_match: u16,
    /// Per match state (`(state - first_match) * 8 / cols`): what it marks.
    out: Vec<Bits>,
    /// Raw reading: the longest pattern's length (lanes overlap by one
    /// less, see `run`); `None` for folded reading, where a match may span
    /// any number of raw bytes (a run of spaces, dropped controls).
    longest: Option<usize>,
    /// For `Debug`.
    states: usize,
    /// Per class table (`other_text`), the state after a space from the
    /// start: `run_spaced` begins there, as if the text followed a space.
    after_space: [u16; 2],
}

impl Dfa {
    /// `patterns`: bytes (lower-cased ASCII letters match either case) and
    /// what an occurrence marks. Empty patterns are ignored.
    pub fn new(patterns: &[(Vec<u8>, Bits)], reading: Reading) -> Dfa {
        // Classes: one per byte occurring in a pattern (ASCII letters folded),
        // one for every other byte (0), and for folded reading one shared by
        // the bytes that fold to a space and one for bytes folding drops.
        let mut class = [[0u8; 256]; 2];
        let mut n_classes = 1u32;
        let mut byte_class = [0u32; 256];
        let folded = reading == Reading::Folded;
        if folded {
            byte_class[b' ' as usize] = n_classes;
            n_classes += 1;
        }
        for (p, _) in patterns {
            for &b in p {
                let b = b.to_ascii_lowercase();
                if byte_class[b as usize] == 0 && !(folded && b == b' ') {
                    byte_class[b as usize] = n_classes;
                    n_classes += 1;
                }
            }
        }
        let (space, stay) = if folded {
            n_classes += 1;
            (Some(byte_class[b' ' as usize]), Some(n_classes - 1))
        } else {
            (None, None)
        };
        for (mode, table) in class.iter_mut().enumerate() {
            for b in 0..=255u8 {
                let fold_class = ASCII_CLASS[mode][b as usize];
                let c = match (space, stay) {
                    (Some(sp), _) if b < 0x80 && fold_class == SPACE => sp,
                    (_, Some(st)) if b < 0x80 && fold_class == DROP => st,
                    _ => byte_class[b.to_ascii_lowercase() as usize],
                };
                // `new` refuses more than 256 classes below.
                table[b as usize] = c.min(255) as u8;
            }
        }
        assert!(n_classes <= 256, "trigger automaton: too many byte classes");
        // Construction works on rows `n_classes` wide (power-of-two rows
        // filled and copied columns no byte reaches); the final table's rows
        // are rounded up to a multiple of 8 (see `trans`).
        let stride = n_classes as usize;

        // The trie, with `NONE` for a missing child.
        const NONE: u32 = u32::MAX;
        let mut goto: Vec<u32> = vec![NONE; stride];
        let mut out: Vec<Bits> = vec![[0; 4]];
        // Class of the byte leading into each node (root: none).
        let mut label: Vec<u32> = vec![u32::MAX];
        for (p, bits) in patterns {
            if p.is_empty() {
                continue;
            }
            let mut node = 0usize;
            for &b in p {
                let c = class[0][b as usize] as usize;
                node = match goto[node * stride + c] {
                    NONE => {
                        let n = out.len();
                        goto[node * stride + c] = n as u32;
                        goto.extend(std::iter::repeat_n(NONE, stride));
                        out.push([0; 4]);
                        label.push(c as u32);
                        n
                    }
                    n => n as usize,
                };
            }
            for (o, b) in out[node].iter_mut().zip(bits) {
                *o |= b;
            }
        }
        let nodes = out.len();
        assert!(nodes * stride < (u32::MAX >> 1) as usize, "trigger automaton too large");

        // Failure links in breadth-first order; each node's output gains its
        // failure node's (patterns that are suffixes of its path).
        let mut fail = vec![0usize; nodes];
        let mut order = Vec::with_capacity(nodes);
        let mut trans = vec![0u32; nodes * stride];
        for c in 0..stride {
            let child = goto[c];
            if child != NONE {
                order.push(child as usize);
                trans[c] = child;
            }
        }
        let mut k = 0;
        while let Some(&n) = order.get(k) {
            k += 1;
            // The failure node is shallower, so its row is filled already.
            let nc = n_classes as usize;
            let f_row = fail[n] * stride;
            for (c, &child) in goto[n * stride..][..nc].iter().enumerate() {
                let via_fail = trans[f_row + c];
                if child == NONE {
                    trans[n * stride + c] = via_fail;
                } else {
                    let ch = child as usize;
                    fail[ch] = via_fail as usize;
                    let f = out[via_fail as usize];
                    for (o, b) in out[ch].iter_mut().zip(&f) {
                        *o |= b;
                    }
                    trans[n * stride + c] = child;
                    order.push(ch);
                }
            }
        }
        // Folded reading: a dropped byte changes nothing; a space after a
        // space is no new character (only nodes entered by a space, and the
        // root, can be where a space left us: the root stays the root since
        // no pattern starts with a space).
        for n in 0..nodes {
            if let Some(st) = stay {
                trans[n * stride + st as usize] = n as u32;
            }
            if let Some(sp) = space {
                if label[n] == sp || n == 0 {
                    trans[n * stride + sp as usize] = n as u32;
                }
            }
        }

        // Renumber: plain states first (the root stays 0), match states last,
        // each group breadth first (`order` is the trie's breadth-first
        // order below the root): see `trans`.
        let is_match = |n: usize| out[n] != [0; 4];
        let cols = (n_classes as usize).next_multiple_of(8);
        assert!(nodes * cols / 8 <= usize::from(u16::MAX), "trigger automaton too large");
        let mut new_id = vec![0u16; nodes];
        let mut next = 1usize;
        for pass in [false, true] {
            for &n in &order {
                if is_match(n) == pass {
                    new_id[n] = (next * cols / 8) as u16;
                    next += 1;
                }
            }
        }
        let first_match = (0..nodes).filter(|&n| is_match(n)).map(|n| new_id[n]).min().unwrap_or(u16::MAX);
        // Padded to a power of two, see `lanes`.
        let mut dense = vec![0u16; (nodes * cols).next_power_of_two()];
        let mut outs = vec![[0u64; 4]; (0..nodes).filter(|&n| is_match(n)).count()];
        for n in 0..nodes {
            let base = usize::from(new_id[n]) * 8;
            let nc = n_classes as usize;
            for (d, &t) in dense[base..][..nc].iter_mut().zip(&trans[n * stride..][..nc]) {
                *d = new_id[t as usize];
            }
            if is_match(n) {
                outs[usize::from(new_id[n] - first_match) * 8 / cols] = out[n];
            }
        }
        let longest = (!folded).then(|| patterns.iter().map(|(p, _)| p.len()).max().unwrap_or(0));
        let after_space = [0, 1].map(|t: usize| dense.get(usize::from(class[t][b' ' as usize])).copied().unwrap_or(0));
        Dfa { class, trans: dense, cols: cols as u32, first_match, out: outs, longest, states: nodes, after_space }
    }

    /// ORs into `acc` what every match in `hay` marks. `other_text`: `hay`
    /// is (part of) a string that is not all ASCII (see `class`).
    ///
    /// A text longer than a few patterns is read as two or four slices at
    /// once, each from the start state. One slice is a chain of dependent
    /// reads (each state's row is only known when the previous read
    /// returns), so the core waits on the cache for every byte; independent
    /// slices fill those waits. The
    /// matches are the same: a slice starts `longest - 1` bytes before the
    /// previous one ends, so each occurrence lies whole in some slice, and
    /// an automaton started anywhere finds every occurrence that starts
    /// there or later. (Only for raw reading: a folded match can span any
    /// number of raw bytes.)
    ///
    /// Not inlined: the loop keeps its state in registers only in a function
    /// of its own (inlined into `evaluate`, it reloaded the text's address
    /// from the stack on every byte).
    #[inline(never)]
    pub fn run(&self, hay: &[u8], other_text: bool, acc: &mut Bits) {
        self.run_from(hay, other_text, 0, acc);
    }

    /// `run` as if `hay` followed a space: a pattern that starts with one
    /// (a word between spaces) is found at its start too.
    pub fn run_spaced(&self, hay: &[u8], other_text: bool, acc: &mut Bits) {
        self.run_from(hay, other_text, self.after_space[usize::from(other_text)], acc);
    }

    #[inline(always)]
    fn run_from(&self, hay: &[u8], other_text: bool, s0: u16, acc: &mut Bits) {
        // Below these lengths, the slices' overlap costs more than the
        // waits they fill (measured on a real catalog: most strings are
        // short, and a single chain is where the time went).
        match self.longest {
            Some(l) if hay.len() >= 3 * l => self.lanes::<4>(hay, l.saturating_sub(1), other_text, s0, acc),
            Some(l) if hay.len() >= l + 8 => self.lanes::<2>(hay, l.saturating_sub(1), other_text, s0, acc),
            _ => self.one_lane(hay, other_text, s0, acc),
        }
    }

    fn one_lane(&self, hay: &[u8], other_text: bool, s0: u16, acc: &mut Bits) {
        let class = &self.class[usize::from(other_text)];
        let (first_match, trans) = (self.first_match, &self.trans[..]);
        // The index is always in range (a state plus a class below the row
        // width). A checked read rather than an indexing panic path: its
        // test is a predicted branch, off the chain from one state to the
        // next (masking the index, as `lanes` does, puts an `and` on it;
        // clamping it, as this loop once did, a compare and a conditional
        // move).
        let mut s = s0;
        for &b in hay {
            s = trans.get((usize::from(s) << 3) + usize::from(class[b as usize])).copied().unwrap_or(0);
            if s >= first_match {
                self.mark(s, acc);
            }
        }
    }

    /// `run` over `N` slices of `hay` read at once, each overlapping the
    /// previous one by `overlap` bytes. The index is always in range (a
    /// state plus a class below the row width); the table's length is a
    /// power of two, so masking it proves that to the compiler: no bounds
    /// test, no panic path, and one register fewer than a checked read
    /// (with four chains in flight, registers are what runs out).
    #[inline(always)]
    fn lanes<const N: usize>(&self, hay: &[u8], overlap: usize, other_text: bool, s0: u16, acc: &mut Bits) {
        let class = &self.class[usize::from(other_text)];
        let mask = self.trans.len().wrapping_sub(1);
        let Some(trans) = self.trans.get(..=mask) else { return };
        let first_match = usize::from(self.first_match);
        // States as `usize` here: kept as `u16`, four of them did not stay
        // in registers.
        let step = |s: usize, b: u8| usize::from(trans[((s << 3) + usize::from(class[b as usize])) & mask]);
        // (A state read from the table fits `u16` again, for `mark`.)
        let chunk = hay.len().div_ceil(N);
        let lanes: [&[u8]; N] = std::array::from_fn(|k| &hay[(k * chunk).saturating_sub(overlap).min(hay.len())..((k + 1) * chunk).min(hay.len())]);
        let common = lanes.iter().map(|l| l.len()).min().unwrap_or(0);
        let heads = lanes.map(|l| &l[..common]);
        // The first slice starts where the text does, from `s0`; the others
        // start `overlap` bytes early, from the root.
        let mut st = [0usize; N];
        st[0] = usize::from(s0);
        // One index into every slice: the slices advance in lockstep.
        #[allow(clippy::needless_range_loop)]
        for i in 0..common {
            for k in 0..N {
                st[k] = step(st[k], heads[k][i]);
            }
            if st.iter().any(|&s| s >= first_match) {
                for &s in &st {
                    if s >= first_match {
                        self.mark(s as u16, acc);
                    }
                }
            }
        }
        for (l, mut s) in lanes.iter().zip(st) {
            for &b in &l[common..] {
                s = step(s, b);
                if s >= first_match {
                    self.mark(s as u16, acc);
                }
            }
        }
    }

    #[cold]
    fn mark(&self, s: u16, acc: &mut Bits) {
        if let Some(m) = self.out.get(usize::from(s - self.first_match) * 8 / self.cols.max(1) as usize) {
            for (a, x) in acc.iter_mut().zip(m) {
                *a |= x;
            }
        }
    }

    pub fn states(&self) -> usize {
        self.states
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bit(i: usize) -> Bits {
        let mut b = [0; 4];
        b[i / 64] |= 1 << (i % 64);
        b
    }

    /// `run_spaced` reads the text as if after a space, in every lane
    /// layout (short and long texts), and nowhere else.
    #[test]
    fn spaced_run_finds_a_space_led_pattern_at_the_start_only() {
        let pats: Vec<(Vec<u8>, Bits)> = vec![(b" todas ".to_vec(), bit(0))];
        let d = Dfa::new(&pats, Reading::Raw);
        for pad in [0, 10, 40, 200] {
            let tail = " x".repeat(pad);
            let (mut plain, mut spaced) = ([0; 4], [0; 4]);
            let t = format!("Todas as regras{tail}");
            d.run(t.as_bytes(), false, &mut plain);
            d.run_spaced(t.as_bytes(), false, &mut spaced);
            assert_eq!((plain[0], spaced[0]), (0, 1), "{pad}");
            let (mut a, mut b) = ([0; 4], [0; 4]);
            let t = format!("xtodas as regras{tail}");
            d.run(t.as_bytes(), false, &mut a);
            d.run_spaced(t.as_bytes(), false, &mut b);
            assert_eq!((a[0], b[0]), (0, 0), "{pad}");
        }
    }

    #[test]
    fn raw_reading_marks_every_overlapping_pattern_in_either_case() {
        let pats: Vec<(Vec<u8>, Bits)> =
            ["he", "she", "hers", "忽略", "a b"].iter().enumerate().map(|(i, p)| (p.as_bytes().to_vec(), bit(i))).collect();
        let d = Dfa::new(&pats, Reading::Raw);
        let run = |t: &str| {
            let mut acc = [0; 4];
            d.run(t.as_bytes(), !t.is_ascii(), &mut acc);
            acc[0]
        };
        assert_eq!(run("uSHErs"), 0b0111);
        assert_eq!(run("忽略 a b"), 0b11000);
        assert_eq!(run("a  b h\x01e"), 0);
    }

    #[test]
    fn long_text_read_in_lanes_finds_every_occurrence_at_every_offset() {
        // A text is read as two or four overlapping slices at once (`run`):
        // an occurrence straddling a slice boundary, at the very start or
        // end, or made of the longest pattern must still be marked.
        let needles = ["ignore", "previous instructions", "~/.ssh", "x", "忽略", "zz"];
        let pats: Vec<(Vec<u8>, Bits)> = needles.iter().enumerate().map(|(i, p)| (p.as_bytes().to_vec(), bit(i))).collect();
        let d = Dfa::new(&pats, Reading::Raw);
        let mut rng = 7u64;
        for len in [20usize, 30, 45, 60, 64, 150, 257, 1000] {
            for (i, n) in needles.iter().enumerate() {
                for at in 0..len {
                    // Filler that holds no needle (no `x`, no `z` pair).
                    let mut t: Vec<u8> = (0..len)
                        .map(|_| {
                            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                            b"abcdefgh .-/"[(rng >> 33) as usize % 12]
                        })
                        .collect();
                    let at = at.min(len.saturating_sub(n.len()));
                    t.splice(at..at + n.len().min(len - at), n.bytes());
                    let mut acc = [0; 4];
                    d.run(&t, false, &mut acc);
                    let want = needles.iter().enumerate().filter(|(_, n)| t.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n.as_bytes()))).fold(0, |m, (j, _)| m | 1 << j);
                    assert_eq!(acc[0], want, "needle {i} at {at} of {len}");
                }
            }
        }
    }

    #[test]
    fn folded_reading_is_a_search_in_the_folded_text() {
        let needles = ["all requests", "<system ", "x-y"];
        let pats: Vec<(Vec<u8>, Bits)> = needles.iter().enumerate().map(|(i, p)| (p.as_bytes().to_vec(), bit(i))).collect();
        let d = Dfa::new(&pats, Reading::Folded);
        for t in [
            "ALL \n\t requests",
            "al\x01l requests",
            "all  \r requests",
            "<SYSTEM\n",
            "x-\x7fy",
            "all\x0crequests",
            "all requestsx <system",
            " all",
            "alll requests <systemx",
        ] {
            for other in [false, true] {
                let mut acc = [0; 4];
                d.run(t.as_bytes(), other, &mut acc);
                // The same text through `fold`: ASCII, or forced onto the
                // general path by a trailing character that folds to nothing.
                let f = if other { crate::poison::matcher::fold(&format!("{t}\u{200b}")) } else { crate::poison::matcher::fold(t) };
                let want = needles.iter().enumerate().filter(|(_, n)| f.plain.contains(*n)).fold(0, |m, (i, _)| m | 1 << i);
                assert_eq!(acc[0], want, "{t:?} other={other}");
            }
        }
    }
}
