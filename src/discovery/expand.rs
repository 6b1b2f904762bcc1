//! Learned query expansions for the tool search: which words a tool's text
//! uses for a word a user types.
//!
//! Users and servers name the same thing differently ("get rid of" a branch
//! / `delete_branch`, "spin up" a VM / `create`, "who is on call" /
//! `schedule`). The pairs here were learned from task queries labelled with
//! the tool that does them (`eval/search/train/`, written from 182 real
//! catalogs) by `eval/search/model/train.py`: a query stem `q` expands to a
//! tool stem `t` when the right tools use `t` more often than the other tools
//! of their catalog, over the queries that say `q`, in several catalogs; the
//! weight is that lift, shrunk toward zero for rare words (see the script's
//! doc for the exact formula and `eval/search/model/README.md` for how its
//! settings were chosen on servers left out of the fitting).
//!
//! The table is keyed by the search's own stems (`search::stem` on both
//! sides), so an entry is used exactly as the search analyzes text. It is a
//! sorted static table read by binary search: no allocation, no hash order,
//! the same answer on every host.

use super::expand_table::{PAIRS, START, WORDS};

/// A table of weighted expansions, stem → stems. [`Expansions::learned`] is
/// the one the engine ships; tests and the training script's evaluation load
/// others to compare settings without rebuilding.
#[derive(Clone, Copy, Debug)]
pub struct Expansions<'t> {
    /// Every stem of the table, sorted and distinct.
    pub words: &'t [&'t str],
    /// Expansions of `words[i]` are `pairs[start[i]..start[i + 1]]`;
    /// `start.len() == words.len() + 1`.
    pub start: &'t [u32],
    /// `(index of the target in words) << 8 | weight`, the weight in 1/256
    /// of the word itself (1..=255), strongest first.
    pub pairs: &'t [u32],
}

impl Expansions<'static> {
    /// The table learned from `eval/search/train/` (generated; see the
    /// module doc).
    pub const fn learned() -> Expansions<'static> {
        Expansions { words: WORDS, start: START, pairs: PAIRS }
    }

    /// No expansions at all (the ranker as it was before the table).
    pub const fn none() -> Expansions<'static> {
        Expansions { words: &[], start: &[0], pairs: &[] }
    }
}

impl<'t> Expansions<'t> {
    /// The expansions of `stem`: (target stem, weight in 1/256), strongest
    /// first. Empty for a stem the table lacks or a malformed table.
    pub fn of(&self, stem: &str) -> impl Iterator<Item = (&'t str, u32)> + '_ {
        let range = self
            .words
            .binary_search(&stem)
            .ok()
            .and_then(|i| Some((*self.start.get(i)? as usize, *self.start.get(i + 1)? as usize)))
            .filter(|(a, b)| a <= b && *b <= self.pairs.len())
            .unwrap_or((0, 0));
        self.pairs[range.0..range.1]
            .iter()
            .filter_map(|&p| Some((*self.words.get((p >> 8) as usize)?, p & 0xff)))
    }

    /// Number of (stem, expansion) pairs.
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_is_sorted_and_in_bounds() {
        let t = Expansions::learned();
        assert!(t.words.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(t.start.len(), t.words.len() + 1);
        assert!(t.start.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(*t.start.last().unwrap() as usize, t.pairs.len());
        assert!(t.pairs.iter().all(|&p| ((p >> 8) as usize) < t.words.len() && p & 0xff > 0));
    }

    #[test]
    fn a_malformed_table_expands_nothing_instead_of_panicking() {
        let words: &[&str] = &["a", "b"];
        let t = Expansions { words, start: &[0, 5], pairs: &[1 << 8 | 9] };
        assert_eq!(t.of("a").count(), 0);
        assert_eq!(t.of("b").count(), 0);
        let t = Expansions { words, start: &[0, 1, 1], pairs: &[7 << 8 | 9] };
        assert_eq!(t.of("a").count(), 0, "a target out of range is skipped");
        assert_eq!(Expansions::none().of("a").count(), 0);
    }
}
