//! The concept reading's learned line (issue #20, session 45): a linear
//! model over the concepts of a window of a sentence, fitted by
//! `eval/poisoning/concepts/fit.py` and shipped as `concept_model.tsv`
//! (weights in hundredths of a logit, integer arithmetic: every host the
//! same verdict).
//!
//! The hand-written combinations (`concepts::COMBOS`) name the concepts an
//! order of each class cannot do without. Attacks in a language nobody
//! fitted often hold most of them, or others that mean the same in context
//! ("the assistant … the data … send"); a weight per concept and per pair of
//! concepts, fitted on the development languages, reads those. The features
//! name no word: what the fit learned of the 27 development languages is read
//! the same in any of the lexicon's 72.
//!
//! A window's set: its concepts, a web address of the sentence, and for each
//! match a negation stands next to (`NEAR` bytes, another match) its concepts
//! *negated* (`NOT_TELL`: "do not tell"), and `DENSE` when the window holds
//! many matches. Its score: the bias, the weight of each feature of the set
//! and of each pair. A sentence's reading scores its best window.

/// How many concepts a window's set holds: the lexicon's and the marks set on
/// matches (`concepts::ALL`), then each of them negated.
pub(super) const N: usize = 37;

/// How wide the line's window is, in `concepts::width` units: wider than
/// the combinations' (`concepts::WINDOW`, 60), read out of fold (80 read
/// more of the held-out languages' payloads at the same benign lines).
pub(super) const WINDOW: usize = 80;

/// A window holding this many matches has `DENSE` in its set: an order
/// packs its concepts, API prose spreads the same ones over a sentence.
const DENSE_MATCHES: usize = 5;

/// `DENSE`'s bit, after the concepts and their negated copies.
pub(super) const DENSE: usize = 2 * N;

/// How many features a set may hold.
const F: usize = 2 * N + 1;

/// A match's concepts, a bit per concept (`concepts::C`).
pub(super) type Bits = u64;

/// A window's set: a bit per concept, then one per concept negated, then
/// `DENSE`.
pub(super) type Set = u128;

// A concept's bit must fit `Bits`, and `DENSE`'s (after both copies) `Set`:
// a shift past either would wrap silently in a release build.
const _: () = assert!(N <= Bits::BITS as usize && 2 * N < Set::BITS as usize);

/// The shipped model.
pub(super) const MODEL: &str = include_str!("concept_model.tsv");

/// A match of a reading, as the model reads it: its concepts (a bit per
/// `concepts::C`), where it starts in width units (`concepts::width`), and
/// its bytes in the normalized sentence.
#[derive(Clone, Copy)]
pub(super) struct Match {
    pub bits: Bits,
    pub w: usize,
    pub at: usize,
    pub end: usize,
}

pub(super) struct Model {
    bias: i32,
    /// The line a reading's score must reach (hundredths of a logit).
    pub flag: i32,
    /// The line for a unit in a script the rest of its tool does not write
    /// (`scorer::other_script`'s units): `fit.py` puts it above every such
    /// honest unit of the development benign catalogs, each scored out of
    /// fold and by the shipped fit. An order in another script planted in a
    /// tool has no prose of its own language around it to look like; honest
    /// text there is rare (42 units in 13,218 development benign tools).
    pub foreign: i32,
    single: Vec<i32>,
    /// `pair[a * F + b]` for a < b.
    pair: Vec<i32>,
}

/// A window's best score and its set.
pub(super) struct Best {
    pub score: i32,
    pub set: Set,
}

impl Model {
    /// The shipped model; `ids` names concept `k` (`concepts::C::id`). A
    /// line naming no known concept is skipped (the file's test checks that
    /// none is).
    pub fn shipped(ids: &[&str]) -> Model {
        Model::of(MODEL, ids)
    }

    fn of(text: &str, ids: &[&str]) -> Model {
        let mut m = Model { bias: 0, flag: i32::MAX, foreign: i32::MAX, single: vec![0; F], pair: vec![0; F * F] };
        let index = |name: &str| match name.strip_prefix("NOT_") {
            _ if name == "DENSE" => Some(DENSE),
            Some(n) => ids.iter().position(|i| *i == n).filter(|&k| k < N).map(|k| k + N),
            None => ids.iter().position(|i| *i == name).filter(|&k| k < N),
        };
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some((key, value)) = line.split_once('\t') else { continue };
            let Ok(v) = value.trim().parse::<i32>() else { continue };
            match key {
                "bias" => m.bias = v,
                "flag" => m.flag = v,
                "foreign" => m.foreign = v,
                _ => match key.split_once('+') {
                    None => {
                        if let Some(a) = index(key) {
                            m.single[a] = v;
                        }
                    }
                    Some((x, y)) => {
                        if let (Some(a), Some(b)) = (index(x), index(y)) {
                            m.pair[a.min(b) * F + a.max(b)] = v;
                        }
                    }
                },
            }
        }
        m
    }

    /// The score of a window's set.
    pub fn score(&self, set: Set) -> i32 {
        let mut s = self.bias;
        let mut rest = set;
        while rest != 0 {
            let a = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            s += self.single[a];
            let mut after = rest;
            while after != 0 {
                let b = after.trailing_zeros() as usize;
                after &= after - 1;
                s += self.pair[a * F + b];
            }
        }
        s
    }

    /// The features of `set` that add most to its score, best first, at
    /// most `k`: (concept, second concept of a pair).
    pub fn strongest(&self, set: Set, k: usize) -> Vec<(usize, Option<usize>)> {
        let mut all: Vec<(i32, usize, Option<usize>)> = Vec::new();
        let idx: Vec<usize> = (0..F).filter(|&a| set & (1 << a) != 0).collect();
        for (i, &a) in idx.iter().enumerate() {
            all.push((self.single[a], a, None));
            for &b in &idx[i + 1..] {
                all.push((self.pair[a * F + b], a, Some(b)));
            }
        }
        all.sort_by(|x, y| y.0.cmp(&x.0).then((x.1, x.2).cmp(&(y.1, y.2))));
        all.into_iter().filter(|f| f.0 > 0).take(k).map(|f| (f.1, f.2)).collect()
    }

    /// The best window of a reading (its matches in order; `url`: the
    /// sentence holds a web address, which joins every window; `DENSE` a
    /// window of `DENSE_MATCHES` matches or more). Linear: the
    /// negations' reach is found by one sort and a search per match, and a
    /// window's set is kept by counts as the window slides.
    pub fn best(&self, mets: &[Match], url: bool, neg: Bits, url_bit: Bits, near: usize) -> Option<Best> {
        let u = if url { Set::from(url_bit) } else { 0 };
        if mets.is_empty() {
            return url.then(|| Best { score: self.score(u), set: u });
        }
        let negated = negated(mets, neg, near);
        let full = |k: usize| Set::from(mets[k].bits) | (Set::from(negated[k]) << N);
        let mut count = [0u32; 2 * N];
        let mut set = u;
        let mut best: Option<Best> = None;
        let mut last = None;
        let mut i = 0;
        for j in 0..mets.len() {
            let mut b = full(j);
            while b != 0 {
                let k = b.trailing_zeros() as usize;
                b &= b - 1;
                count[k] += 1;
                set |= 1 << k;
            }
            while mets[j].w - mets[i].w > WINDOW {
                let mut b = full(i);
                while b != 0 {
                    let k = b.trailing_zeros() as usize;
                    b &= b - 1;
                    count[k] -= 1;
                    if count[k] == 0 {
                        set &= !(1 << k);
                    }
                }
                set |= u;
                i += 1;
            }
            let set = if j + 1 - i >= DENSE_MATCHES { set | 1 << DENSE } else { set };
            if last == Some(set) {
                continue;
            }
            last = Some(set);
            let score = self.score(set);
            if best.as_ref().is_none_or(|b| score > b.score) {
                best = Some(Best { score, set });
            }
        }
        best
    }
}

/// For each match, the concepts (its own, the negation's bit aside) a
/// negation makes negated: another match holding `neg` at most `near` bytes
/// from it, either side. The negations sorted by start, with the two
/// greatest ends of each prefix: a match asks the last negation starting
/// close enough after it whether one of them ends close enough before it.
fn negated(mets: &[Match], neg: Bits, near: usize) -> Vec<Bits> {
    let mut negs: Vec<(usize, usize, usize)> = mets.iter().enumerate().filter(|(_, m)| m.bits & neg != 0).map(|(k, m)| (m.at, m.end, k)).collect();
    let mut out = vec![0; mets.len()];
    if negs.is_empty() {
        return out;
    }
    negs.sort_unstable();
    // The two greatest (end, match) of each prefix, of two different matches.
    let mut top: Vec<[(usize, usize); 2]> = Vec::with_capacity(negs.len());
    let mut t = [(0usize, usize::MAX); 2];
    for &(_, end, k) in &negs {
        if end > t[0].0 || t[0].1 == usize::MAX {
            t = [(end, k), t[0]];
        } else if end > t[1].0 || t[1].1 == usize::MAX {
            t[1] = (end, k);
        }
        top.push(t);
    }
    for (k, m) in mets.iter().enumerate() {
        let n = negs.partition_point(|&(at, _, _)| at <= m.end + near);
        if n == 0 {
            continue;
        }
        let [a, b] = top[n - 1];
        let end = if a.1 != k { Some(a) } else { Some(b).filter(|b| b.1 != usize::MAX) };
        if end.is_some_and(|(end, _)| end + near >= m.at) {
            out[k] = m.bits & !neg;
        }
    }
    out
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    fn m(bits: Bits, at: usize, end: usize) -> Match {
        Match { bits, w: at, at, end }
    }

    /// A seeded generator of numbers below `n` for the randomized tests
    /// (this module's and `concepts`'): the same cases in every run.
    pub(in crate::poison) fn below(seed: u64) -> impl FnMut(u64) -> u64 {
        let mut seed = seed;
        move |n: u64| {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (seed >> 33) % n
        }
    }

    /// The negations' reach, against the definition read pair by pair.
    #[test]
    fn negated_is_the_pairwise_definition() {
        let mut next = below(7);
        for _ in 0..2000 {
            let len = next(12) as usize;
            let mut mets: Vec<Match> = Vec::new();
            let mut at = 0;
            for _ in 0..len {
                at += next(14) as usize;
                let end = at + 1 + next(8) as usize;
                mets.push(m(1 << next(4), at, end));
            }
            let want: Vec<Bits> = (0..mets.len())
                .map(|b| {
                    let hit = (0..mets.len()).any(|a| a != b && mets[a].bits & 1 != 0 && mets[a].end + 10 >= mets[b].at && mets[b].end + 10 >= mets[a].at);
                    if hit { mets[b].bits & !1 } else { 0 }
                })
                .collect();
            assert_eq!(negated(&mets, 1, 10), want);
        }
    }

    #[test]
    fn a_window_scores_its_concepts_and_pairs() {
        let ids = ["A", "B", "NEG"];
        let model = Model::of("bias\t-100\nflag\t50\nA\t30\nB\t40\nA+B\t90\nNOT_B\t20\nA+NOT_B\t25\n", &ids);
        assert_eq!(model.score(0b011), -100 + 30 + 40 + 90);
        // A, a negation, B: the negation stands next to both (NOT_A has no weight).
        let mets = [m(0b001, 0, 3), m(0b100, 4, 6), m(0b010, 8, 12)];
        let best = model.best(&mets, false, 0b100, 0, 10).map(|b| (b.score, b.set));
        assert_eq!(best, Some((-100 + 30 + 40 + 90 + 20 + 25, 0b111 | (0b011 << N))));
        // Apart beyond the window, no pair.
        let far = [m(0b001, 0, 3), Match { bits: 0b010, w: 100, at: 100, end: 104 }];
        assert_eq!(model.best(&far, false, 0b100, 0, 10).map(|b| b.score), Some(-100 + 40));
        assert_eq!(model.strongest(0b011, 2), vec![(0, Some(1)), (1, None)]);
    }

    /// Five matches in one window add `DENSE` (and its pairs); four do not.
    #[test]
    fn a_window_of_many_matches_is_dense() {
        let ids = ["A", "B", "NEG"];
        let model = Model::of("bias\t-100\nA\t30\nDENSE\t7\nA+DENSE\t11\n", &ids);
        let four: Vec<Match> = (0..4).map(|k| m(0b001, 10 * k, 10 * k + 3)).collect();
        assert_eq!(model.best(&four, false, 0b100, 0, 10).map(|b| b.score), Some(-100 + 30));
        let five: Vec<Match> = (0..5).map(|k| m(0b001, 10 * k, 10 * k + 3)).collect();
        let best = model.best(&five, false, 0b100, 0, 10).map(|b| (b.score, b.set));
        assert_eq!(best, Some((-100 + 30 + 7 + 11, 0b001 | 1 << DENSE)));
        // Spread wider than a window, five matches are never in one.
        let spread: Vec<Match> = (0..5).map(|k| Match { bits: 0b001, w: 30 * k, at: 30 * k, end: 30 * k + 3 }).collect();
        assert_eq!(model.best(&spread, false, 0b100, 0, 10).map(|b| b.score), Some(-100 + 30));
    }
}
