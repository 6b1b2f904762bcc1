//! English word relations for the tool search, from WordNet.
//!
//! A user asks for a tool in their own words ("mute the alerts", "who wrote
//! this line"), a server describes it in its own ("silence", "blame"). The
//! tables in `lexicon_tables.rs` are derived at build time from WordNet 3.1
//! by `scripts/gen-lexicon.py` (committed output, regenerated and diffed by
//! `scripts/gen-lexicon.py --check`, like unicode-security's tables), and
//! give, per word:
//!
//! - its base form when it is irregular (`wrote` → `write`, `indices` →
//!   `index`, `children` → `child`): [`irregular_base`];
//! - related words and how they relate ([`Rel`]): derived forms
//!   (`annotate` / `note`), synonyms of its main senses, hypernyms one
//!   and two levels up, hyponyms: [`related`].
//!
//! Everything is a sorted static table searched by binary search: no
//! allocation, no hash order, the same answer on every host.

use super::lexicon_tables::{IRREGULAR, LEMMA_BIT, RELATED, RELATED_START, WORDS};
pub use super::lexicon_tables::WORDNET_VERSION;

/// How a related word relates to the word looked up, strongest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rel {
    /// Same root, another part of speech (`annotate` / `note`), or the
    /// noun an adjective pertains to (`financial` / `finance`).
    Derived,
    /// Another word for one of the word's main senses (`mute` / `muffle`).
    Synonym,
    /// A more general word (`ledger` → `record`).
    Hypernym,
    /// Two levels more general (`ledger` → `document`).
    Hypernym2,
    /// A more specific word (`chart` → `plot`).
    Hyponym,
}

impl Rel {
    fn from_bits(b: u32) -> Rel {
        match b {
            0 => Rel::Derived,
            1 => Rel::Synonym,
            2 => Rel::Hypernym,
            3 => Rel::Hypernym2,
            _ => Rel::Hyponym,
        }
    }
}

/// The base form of an irregular inflection (`wrote` → `write`), or `None`
/// for a regular or unknown word. Lower-case input.
/// A form that is a word of its own (`data`, `written`, `left`) is not
/// mapped: it keeps its own meaning in the index.
pub fn irregular_base(word: &str) -> Option<&'static str> {
    let k = IRREGULAR.binary_search_by(|(f, _)| (*f).cmp(word)).ok()?;
    let v = IRREGULAR[k].1;
    (v & LEMMA_BIT == 0).then(|| WORDS[v as usize])
}

/// The table entries for `word` (lower-case), at most 3, in this order:
/// the word itself, its irregular base, and the first base form that
/// WordNet's detachment rules (morphy: `-ies` → `-y`, `-es`, `-s`, `-ed`,
/// `-ing`, `-er`, `-est`, with or without a final `e`, a doubled consonant
/// undoubled) find in the table. `written` is both an adjective and a form
/// of `write`, `merging` both a noun and a form of `merge`: both count.
pub fn lookup(word: &str) -> Vec<Entry> {
    let mut out: Vec<Entry> = Vec::new();
    let push = |i: u32, out: &mut Vec<Entry>| {
        if !out.contains(&Entry(i)) {
            out.push(Entry(i));
        }
    };
    if let Some(i) = find(word) {
        push(i, &mut out);
    }
    if let Ok(k) = IRREGULAR.binary_search_by(|(f, _)| (*f).cmp(word)) {
        push(IRREGULAR[k].1 & !LEMMA_BIT, &mut out);
    }
    const RULES: &[(&str, &str)] = &[
        ("ies", "y"), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
        ("es", "e"), ("es", ""), ("s", ""), ("ied", "y"), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", ""),
        ("er", ""), ("er", "e"), ("est", ""), ("est", "e"),
    ];
    if !word.is_ascii() || word.len() <= 3 {
        return out;
    }
    let mut buf = String::with_capacity(word.len() + 2);
    for (suffix, repl) in RULES {
        let Some(stem) = word.strip_suffix(suffix) else { continue };
        if stem.len() < 2 {
            continue;
        }
        buf.clear();
        buf.push_str(stem);
        buf.push_str(repl);
        if let Some(i) = find(&buf) {
            push(i, &mut out);
            break;
        }
        // `stopped` → `stopp` → `stop`
        let b = stem.as_bytes();
        if repl.is_empty() && b.len() >= 3 && b[b.len() - 1] == b[b.len() - 2] {
            if let Some(i) = find(&stem[..stem.len() - 1]) {
                push(i, &mut out);
                break;
            }
        }
    }
    out
}

fn find(word: &str) -> Option<u32> {
    WORDS.binary_search(&word).ok().map(|i| i as u32)
}

/// A word of the tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry(u32);

impl Entry {
    /// The word's base form as the tables write it.
    pub fn word(self) -> &'static str {
        WORDS[self.0 as usize]
    }
}

/// The words related to `entry`, strongest relation first (then
/// alphabetical), at most 48.
pub fn related(entry: Entry) -> impl Iterator<Item = (&'static str, Rel)> {
    let i = entry.0 as usize;
    let (a, b) = (RELATED_START[i] as usize, RELATED_START[i + 1] as usize);
    RELATED[a..b].iter().map(|&r| (WORDS[(r >> 3) as usize], Rel::from_bits(r & 7)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(IRREGULAR.windows(2).all(|w| w[0].0 < w[1].0));
        assert_eq!(RELATED_START.len(), WORDS.len() + 1);
        assert!(RELATED_START.windows(2).all(|w| w[0] <= w[1]));
        assert!(RELATED.iter().all(|&r| ((r >> 3) as usize) < WORDS.len()));
    }

    #[test]
    fn irregular_forms_reach_their_base() {
        assert_eq!(irregular_base("wrote"), Some("write"));
        assert_eq!(irregular_base("indices"), Some("index"));
        assert_eq!(irregular_base("children"), Some("child"));
        // a word that is a lemma in its own right keeps its meaning
        assert_eq!(irregular_base("data"), None);
        // …but is still looked up as the form it is
        assert!(lookup("written").iter().any(|e| e.word() == "write"));
        assert!(lookup("data").iter().any(|e| e.word() == "datum"));
    }

    #[test]
    fn regular_inflections_reach_their_base() {
        assert!(lookup("annotated").iter().any(|e| e.word() == "annotate"));
        assert!(lookup("queries").iter().any(|e| e.word() == "query"));
        assert!(lookup("merging").iter().any(|e| e.word() == "merge"));
        assert!(lookup("dropping").iter().any(|e| e.word() == "drop"));
        assert!(lookup("muted").iter().any(|e| e.word() == "mute"));
    }

    #[test]
    fn relations_link_a_users_word_to_a_servers_word() {
        let rel = |w: &str| related(lookup(w)[0]).collect::<Vec<_>>();
        assert!(rel("annotate").contains(&("note", Rel::Derived)));
        assert!(rel("mute").contains(&("muffle", Rel::Synonym)));
        assert!(rel("journal").contains(&("diary", Rel::Synonym)));
        assert!(rel("ledger").iter().any(|(w, r)| *w == "record" && *r == Rel::Hypernym));
    }
}
