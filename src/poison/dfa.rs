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
    class: [[u32; 256]; 2],
    /// `trans[state + class]`: the next state; states are premultiplied by
    /// `1 << shift`, the start state is 0.
    trans: Vec<u32>,
    shift: u32,
    /// States at or above this one are match states.
    first_match: u32,
    /// Per match state (`(state - first_match) >> shift`): what it marks.
    out: Vec<Bits>,
}

impl Dfa {
    /// `patterns`: bytes (lower-cased ASCII letters match either case) and
    /// what an occurrence marks. Empty patterns are ignored.
    pub fn new(patterns: &[(Vec<u8>, Bits)], reading: Reading) -> Dfa {
        // Classes: one per byte occurring in a pattern (ASCII letters folded),
        // one for every other byte (0), and for folded reading one shared by
        // the bytes that fold to a space and one for bytes folding drops.
        let mut class = [[0u32; 256]; 2];
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
                table[b as usize] = match (space, stay) {
                    (Some(sp), _) if b < 0x80 && fold_class == SPACE => sp,
                    (_, Some(st)) if b < 0x80 && fold_class == DROP => st,
                    _ => byte_class[b.to_ascii_lowercase() as usize],
                };
            }
        }
        let stride = n_classes.next_power_of_two() as usize;
        let shift = stride.trailing_zeros();

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
            for c in 0..stride {
                let child = goto[n * stride + c];
                let via_fail = trans[fail[n] * stride + c];
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

        // Renumber: plain states first (the root stays 0), match states last;
        // premultiply.
        let is_match = |n: usize| out[n] != [0; 4];
        let mut new_id = vec![0u32; nodes];
        let mut next = 0u32;
        for pass in [false, true] {
            for (n, id) in new_id.iter_mut().enumerate() {
                if is_match(n) == pass {
                    *id = next << shift;
                    next += 1;
                }
            }
        }
        let first_match = (0..nodes).filter(|&n| is_match(n)).map(|n| new_id[n]).min().unwrap_or(u32::MAX);
        let mut dense = vec![0u32; nodes * stride];
        let mut outs = vec![[0u64; 4]; (0..nodes).filter(|&n| is_match(n)).count()];
        for n in 0..nodes {
            let base = new_id[n] as usize;
            for c in 0..stride {
                dense[base + c] = new_id[trans[n * stride + c] as usize];
            }
            if is_match(n) {
                outs[((new_id[n] - first_match) >> shift) as usize] = out[n];
            }
        }
        Dfa { class, trans: dense, shift, first_match, out: outs }
    }

    /// ORs into `acc` what every match in `hay` marks. `other_text`: `hay`
    /// is (part of) a string that is not all ASCII (see `class`).
    ///
    /// Not inlined: the loop keeps its state in registers only in a function
    /// of its own (inlined into `evaluate`, it reloaded the text's address
    /// from the stack on every byte).
    #[inline(never)]
    pub fn run(&self, hay: &[u8], other_text: bool, acc: &mut Bits) {
        let class = &self.class[usize::from(other_text)];
        let first_match = self.first_match;
        // The index is always in range (a premultiplied state plus a class
        // below the stride); clamping it to the last entry proves that to
        // the compiler, so the read has neither a bounds test nor a panic.
        let Some(last) = self.trans.len().checked_sub(1) else { return };
        let trans = &self.trans[..=last];
        let mut s = 0u32;
        for &b in hay {
            s = trans[((s + class[b as usize]) as usize).min(last)];
            if s >= first_match {
                self.mark(s, acc);
            }
        }
    }

    #[cold]
    fn mark(&self, s: u32, acc: &mut Bits) {
        if let Some(m) = self.out.get(((s - self.first_match) >> self.shift) as usize) {
            for (a, x) in acc.iter_mut().zip(m) {
                *a |= x;
            }
        }
    }

    pub fn states(&self) -> usize {
        self.trans.len() >> self.shift
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
