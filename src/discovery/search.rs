//! The ranker behind `search_tools`: BM25F over a tool's visible metadata.
//!
//! A model that only sees the discovery surface finds tools by describing the
//! task ("take a picture of the web page"), not by knowing names
//! (`browser_take_screenshot`). So the ranker reads everything the client
//! would see about a tool — name, title, description, the names and
//! descriptions of its input properties — and matches words, not strings:
//!
//! - **Tokens**: runs of letters and digits, split further at camelCase humps
//!   (`getStockPrice`, `get_stock_price`, `get-stock-price` → `get stock price`),
//!   lower-cased, common Latin accents folded (`café` → `cafe`). A camelCase
//!   run is also kept whole (`JavaScript` → `java script javascript`).
//! - **Stems**: a few suffix rules (plural `-s`/`-es`/`-ies`, `-ing`, `-ed`,
//!   final `-e`) so `files`/`file`, `creating`/`created`/`create`,
//!   `queries`/`query` meet. Deliberately cruder than Porter: the same rules
//!   run on both sides, so a stem only has to be consistent, not a word.
//!   Irregular forms go to their base first, from WordNet's exception lists
//!   (`wrote` → `write`, `indices` → `index`; [`super::lexicon`]).
//! - **Stop words** (`the`, `a`, `to`, `tool`, …) are dropped on both sides.
//! - **Synonyms**: each query word also matches the other members of its
//!   synonym groups (built-in tool vocabulary plus the policy's), at half
//!   weight; a word and its synonyms count once per tool (the best of them),
//!   so a description that says both "get" and "fetch" gains nothing. A
//!   multi-word member (`how many`, `pull request`) matches as a phrase of
//!   the query as typed, stop words included.
//! - **Word relations** (WordNet 3.1, compiled into tables at build time by
//!   `scripts/gen-lexicon.py`): each query word, looked up as typed and as
//!   its base form (`muted` → `mute`, `written` → `write`), also matches the
//!   words WordNet relates to it and the catalog uses, weighted by relation
//!   (derived form 0.8, synonym 0.5, hypernym and hyponym 0.3, hypernym two
//!   levels up 0.15), the best alternative counting once per tool.
//! - **Learned expansions** ([`super::expand`]): each query word also matches
//!   the tool words that task queries saying it were found to mean ("get rid
//!   of" → `delete`, "spin up" → `create`), at their learned weights, learned
//!   from labelled task queries over 182 real catalogs.
//! - **Compounds**: two adjacent query words that the catalog writes as one
//!   (`data sources` / `datasources`) also match the joined word, counting as
//!   the better of the two spellings; a query word the catalog lacks is tried
//!   as two words it has (`dropdown` → `drop down`).
//! - **Scoring**: BM25F (Robertson & Zaragoza, "The Probabilistic Relevance
//!   Framework", 2009): per-field term frequencies, length-normalized per
//!   field (b = 0.75), weighted (name 6, title 4, first sentence of the
//!   description 2, property names 2, description 1, property descriptions and
//!   enum values 0.5), summed, then saturated once (k1 = 1.2) and multiplied
//!   by the term's idf `ln(1 + (N - n + 0.5) / (n + 0.5))`.
//! - **Name coverage**: plus up to 2 for the share of the tool's name the
//!   query accounts for (words on more than half the catalog's names, such as
//!   a `browser_` prefix, left out). Names are short and chosen to say what a
//!   tool does; a word like `datasource` that every Grafana tool mentions has
//!   almost no idf, yet "list data sources" is plainly `list_datasources`.
//! - **Word vectors** ([`super::vectors`]): the cosine between the query's
//!   and each tool's idf-weighted word vectors (distilled from a sentence
//!   encoder) through a learned
//!   bilinear map, so a word none of the lists above relates to the tool's
//!   ("music" for `play_track`) still counts for the tools nearest in
//!   meaning. Every tool with a positive cosine is a candidate, so a query
//!   of real words usually has hits even when no word matches.
//! - **The score** is a weighted sum of seven features ([`FEATURES`]): the
//!   BM25F score of the query's concepts, split by where each concept's best
//!   alternative came from (the query's own word, a synonym, a learned
//!   expansion, a WordNet relation), the name coverage and two word-vector
//!   cosines (against the tool's whole text, and its name and title). The weights are
//!   fitted (`eval/search/model/train.py`, out-of-fold on the training
//!   queries of `eval/search/train/`) and ship as integers with the learned
//!   table (`expand_table.rs`, generated).
//!
//! The field weights, k1, b, synonym weight and name coverage were set by hand
//! on `tests/fixtures/discovery/queries.jsonl` (task phrasings written before
//! the ranker, over the real corpus catalogs); what is learned is described in
//! `eval/search/model/README.md`.
//!
//! ## Determinism across hosts
//! The engine runs natively and as a wasm32 component, and a search must
//! rank the same on both. Transcendental functions (`f64::ln`) come from the
//! platform's libm and are not guaranteed to agree to the last bit, so
//! every number here is an integer in fixed point (`ONE` = 2^16); the one
//! logarithm is computed with integer shifts and multiplications
//! ([`ln_fixed`]). Iteration never follows a hash order: terms live in a
//! `BTreeMap`, hits are sorted by (score, catalog index).
//!
//! ## Bounded work
//! Per tool at most [`MAX_FIELD_TOKENS`] tokens per field and
//! [`MAX_SCHEMA_NODES`] schema nodes are read; a query is read up to
//! [`MAX_QUERY_BYTES`] bytes and [`MAX_QUERY_TERMS`] terms. A search costs
//! O(query terms × synonyms × postings) plus the word-vector cosine of
//! every tool (DIMS multiplications each) and a sort of the matched tools.

use std::collections::BTreeMap;

use super::expand::Expansions;
use super::expand_table::FEATURE_WEIGHTS;
use super::lexicon::{self, Rel};
use super::vectors::{self, Vectors, MAPS};
use crate::json::{Object, Value};

/// Fixed-point scale: 16 fractional bits (resolution 1.5e-5, well below the
/// 1e-3 that `score_milli` shows).
const ONE: u64 = 1 << 16;

/// BM25 saturation k1 = 1.2 and length normalization b = 0.75, the textbook
/// values; b is applied as the fraction B_NUM / B_DEN.
const K1: u64 = ONE * 12 / 10;
const B_NUM: u64 = 3;
const B_DEN: u64 = 4;

/// Weight of a synonym relative to the word the user typed: a synonym is
/// evidence, but weaker than the word itself.
const SYNONYM_WEIGHT: u64 = ONE / 2;

/// Weight of a word related to the query's word through the WordNet tables
/// ([`super::lexicon`]), by relation, relative to the word itself.
fn rel_weight(rel: Rel) -> u64 {
    match rel {
        Rel::Derived => ONE * 8 / 10,
        Rel::Synonym => ONE / 2,
        Rel::Hypernym => ONE * 3 / 10,
        Rel::Hypernym2 => ONE * 15 / 100,
        Rel::Hyponym => ONE * 3 / 10,
    }
}

/// At most this many tokens are read from one field of one tool (a
/// 300 KB description must not make indexing or scoring slow; the start of
/// a text says what it is about).
pub const MAX_FIELD_TOKENS: usize = 2_000;
/// At most this many schema nodes are walked per tool for property names and
/// descriptions, and no deeper than `MAX_SCHEMA_DEPTH` levels of `properties`.
pub const MAX_SCHEMA_NODES: usize = 512;
const MAX_SCHEMA_DEPTH: usize = 6;
/// A query is read up to this many bytes…
pub const MAX_QUERY_BYTES: usize = 1_024;
/// …and up to this many terms (after stop words).
pub const MAX_QUERY_TERMS: usize = 64;
/// Longer tokens (hashes, base64, run-together identifiers) are cut here.
const MAX_TOKEN_CHARS: usize = 40;

// Fields of a tool, in the order of `FIELD_WEIGHTS`.
const F_NAME: usize = 0;
const F_TITLE: usize = 1;
const F_LEAD: usize = 2;
const F_PROPS: usize = 3;
const F_DESC: usize = 4;
const F_PROP_DESC: usize = 5;
const FIELDS: usize = 6;

/// Field weights in fixed point. The name is what the tool *is* and is short,
/// so a match there is the strongest evidence; a title is the same in prose.
/// The lead (first sentence) of the description states the purpose, the rest
/// of it is often usage notes, caveats and examples that mention other tools'
/// vocabulary. Property names say what a tool works on (`collection`, `url`);
/// property descriptions and enum values are the noisiest.
const FIELD_WEIGHTS: [u64; FIELDS] = [6 * ONE, 4 * ONE, 2 * ONE, 2 * ONE, ONE, ONE / 2];

/// Common words that carry no meaning about which tool to pick. Kept short
/// on purpose: a word that distinguishes tools (`all`, `new`, `not`) stays.
/// Sorted (binary search; a unit test checks).
const STOP_WORDS: &[&str] = &[
    "a", "about", "an", "and", "any", "are", "as", "at", "be", "been", "by", "can", "could", "do", "does", "for", "from",
    "given", "has", "have", "how", "i", "if", "in", "into", "is", "it", "its", "me", "my", "of", "on", "or", "our",
    "please", "should", "so", "some", "that", "the", "their", "them", "then", "there", "these", "this", "those", "to",
    "tool", "tools", "use", "used", "uses", "using", "want", "was", "we", "what", "when", "which", "will", "with",
    "would", "you", "your",
];

/// Built-in synonym groups: everyday tool vocabulary where users and servers
/// pick different words for the same operation or object. Each group is
/// symmetric. A word may sit in several groups (its alternatives are the
/// union). Multi-word members (`pull request`) match as a phrase in the query.
const BUILTIN_SYNONYMS: &[&[&str]] = &[
    // operations
    &["get", "fetch", "retrieve", "read", "load", "obtain"],
    &["list", "enumerate", "show", "display"],
    &["search", "find", "query", "lookup", "look up", "locate"],
    &["create", "add", "new", "make", "insert", "generate"],
    &["delete", "remove", "destroy", "drop", "erase", "purge"],
    &["update", "edit", "modify", "change", "patch", "alter", "set"],
    &["run", "execute", "exec", "invoke", "trigger", "launch"],
    &["screenshot", "capture", "snapshot", "picture", "image"],
    &["navigate", "goto", "go to", "open", "visit", "browse"],
    &["click", "press", "tap"],
    &["type", "enter", "input"],
    &["write", "save", "store"],
    &["send", "post", "submit"],
    &["upload", "attach"],
    &["download", "export"],
    &["close", "shut", "quit"],
    &["start", "begin", "launch"],
    &["stop", "end", "halt", "cancel", "terminate"],
    &["copy", "duplicate", "clone"],
    &["move", "rename", "relocate"],
    &["describe", "detail", "info", "information", "inspect"],
    &["count", "number of", "how many", "total"],
    &["check", "verify", "validate"],
    &["analyze", "analyse", "inspect", "examine"],
    &["convert", "transform", "translate"],
    &["summarize", "summarise", "summary", "overview"],
    // objects
    &["file", "document"],
    &["folder", "directory", "dir"],
    &["repo", "repository"],
    &["issue", "ticket", "bug"],
    &["pr", "pull request", "merge request"],
    &["message", "email", "mail"],
    &["user", "account", "member", "person", "people"],
    &["price", "cost", "pricing", "billing"],
    &["log", "logs", "logging"],
    &["metric", "metrics", "measurement"],
    &["db", "database"],
    &["table", "collection"],
    &["record", "row", "entry", "item", "document"],
    &["column", "field", "attribute"],
    &["webpage", "web page", "page", "site", "website"],
    &["url", "link", "address", "uri"],
    &["vm", "virtual machine"],
    &["k8s", "kubernetes"],
    &["postgres", "postgresql", "pg"],
    &["js", "javascript"],
    &["ts", "typescript"],
    &["sql", "sqlite", "mysql"],
    &["config", "configuration", "settings", "setting"],
    &["credential", "secret", "password", "token", "key"],
    &["permission", "access", "sharing", "share", "role"],
    &["meeting", "event", "appointment"],
    &["batch", "bulk", "multiple", "several", "many"],
    &["chart", "graph", "plot", "diagram", "visualize", "visualization"],
    &["alert", "alarm", "notification"],
    &["error", "failure", "fail", "exception"],
    &["history", "log", "audit"],
    &["commit", "revision"],
    &["slide", "presentation", "deck"],
    &["spreadsheet", "sheet"],
    &["doc", "document"],
    &["ci", "pipeline", "build"],
    &["text", "content"],
    &["image", "png", "jpeg", "photo"],
    &["time", "clock", "timezone"],
    &["flag", "toggle", "feature flag"],
    &["container", "docker"],
    &["function", "method", "symbol"],
    &["reference", "usage", "references"],
];

/// Bonus (fixed point) for a query that covers a tool's whole name; see
/// `add_name_coverage`. About the score of one good description match.
const NAME_COVERAGE: u64 = 2 * ONE;

/// One query concept: weighted alternative stems, the best of which counts.
/// `parts`: for a compound (`datasource` from `data source`), the concepts of
/// its two words.
struct Concept {
    alts: Vec<(String, u64, Via)>,
    parts: Option<(usize, usize)>,
}

/// Where an alternative of a query concept came from; also the index of the
/// feature its score goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Via {
    /// The query's own word (or a compound of its words).
    Word = 0,
    /// A synonym group (built-in or the policy's).
    Synonym = 1,
    /// A learned expansion ([`super::expand`]).
    Learned = 2,
    /// A WordNet relation ([`super::lexicon`]).
    Lexicon = 3,
}

/// Number of ranking features of a (query, tool) pair:
/// - `X_WORD`, `X_SYNONYM`, `X_LEARNED`, `X_LEXICON`: the BM25F score (field-weighted,
///   saturated, times idf) of the query's concepts, each concept counted once
///   (its best alternative) and credited to where that alternative came from;
/// - `X_COVER`: the share of the tool's name the query covers
///   (`add_name_coverage`), up to `NAME_COVERAGE`.
///
/// The score is their weighted sum (`FEATURE_WEIGHTS`, in 1/`FEATURE_ONE`),
/// weights fitted by `eval/search/model/train.py` on out-of-fold features of
/// the training queries (all 16 is the hand-set ranker it started from).
pub const FEATURES: usize = 7;
const X_COVER: usize = 4;
/// - `X_DENSE + m`: the cosine of the query's and the tool's word vectors
///   through learned bilinear map `m` ([`super::vectors`]), clamped at 0;
///   map 0 reads the tool's whole text, map 1 its name and title.
const X_DENSE: usize = 5;
const FEATURE_ONE: u64 = 16;
/// The shipped feature weights (for tests that check a score by hand).
#[doc(hidden)]
pub const WEIGHTS: [u64; FEATURES] = FEATURE_WEIGHTS;

/// One hit of [`SearchIndex::search`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// Index into the `tools` slice the index was built from.
    pub index: usize,
    /// BM25F score × 1000, rounded down. Integer so it is the same on every
    /// host and can cross the WIT boundary without float formatting.
    pub score_milli: u64,
}

/// Per-tool, per-field term frequencies of one term.
#[derive(Clone, Debug)]
struct Posting {
    doc: u32,
    tf: [u16; FIELDS],
    /// The saturated BM25F weight of this posting before idf
    /// ([`SearchIndex::saturated`]), computed once when the index is built:
    /// a query then costs one multiplication per posting, however many
    /// words its expansions add.
    sat: u64,
}

/// A searchable index over a catalog's visible tools. Built once per
/// catalog; searching does not change it.
#[derive(Clone, Debug)]
pub struct SearchIndex {
    docs: usize,
    /// Length of each field of each tool, in tokens.
    field_len: Vec<[u32; FIELDS]>,
    /// Sum of each field's length over all tools (for the average).
    total_len: [u64; FIELDS],
    /// Stem → postings (sorted by tool). BTreeMap: no hash order anywhere.
    terms: BTreeMap<String, Vec<Posting>>,
    /// Synonym groups, each member a sequence of stems.
    synonyms: Vec<Vec<Vec<String>>>,
    /// Distinct stems of tool names (camelCase compounds left out) that are
    /// on at most half the catalog's names → the tools whose name has them,
    /// in tool order (for the name coverage).
    name_docs: BTreeMap<String, Vec<u32>>,
    /// Per tool, how many such stems its name has.
    name_counted: Vec<u32>,
    /// Learned query expansions ([`super::expand`]).
    expansions: Expansions<'static>,
    /// Word vectors and the bilinear map of the dense feature.
    vectors: Vectors<'static>,
    /// Per map, per tool, its unit word vector ([`Vectors::document`]),
    /// [`Vectors::dims`] per tool, all zero for a tool none of whose words (in
    /// that map's fields) has a vector.
    doc_vecs: [Vec<i32>; MAPS],
}

/// Weight of a tool's stem in its dense vector of each map, by the best field
/// it is in, in 1/16 (name, title, lead, property names, description,
/// property descriptions). Map 0: like `FIELD_WEIGHTS`, property
/// descriptions (mostly argument formats) left out; map 1: what the tool is
/// called, alone (a long description otherwise outweighs its name). Chosen
/// with the fit of the bilinear maps (`eval/search/model/vectors.py`).
const DENSE_FIELD_WEIGHTS: [[u64; FIELDS]; MAPS] = [[16, 16, 10, 6, 5, 0], [16, 16, 0, 0, 0, 0]];

impl SearchIndex {
    /// Indexes `tools` (visible tool objects in catalog order). `synonyms`:
    /// extra groups of words that mean the same, merged with the built-in
    /// groups (a word's alternatives are the union of all groups it is in).
    /// Non-string fields and malformed schemas are skipped, never an error.
    pub fn build(tools: &[&Object], synonyms: &[Vec<String>]) -> SearchIndex {
        let mut terms: BTreeMap<String, Vec<Posting>> = BTreeMap::new();
        let mut field_len = Vec::with_capacity(tools.len());
        let mut total_len = [0u64; FIELDS];
        for (doc, tool) in tools.iter().enumerate() {
            let fields = tool_fields(tool);
            let mut lens = [0u32; FIELDS];
            // (stem, field) pairs sorted, then counted: per-tool term
            // frequencies without a map, in stem order (no hash order).
            let mut all: Vec<(String, usize)> = Vec::new();
            for (f, toks) in fields.into_iter().enumerate() {
                lens[f] = toks.len() as u32;
                total_len[f] += toks.len() as u64;
                all.extend(toks.into_iter().map(|t| (t, f)));
            }
            all.sort_unstable();
            let mut tfs: Vec<(String, [u16; FIELDS])> = Vec::new();
            for (t, f) in all {
                match tfs.last_mut() {
                    Some((last, tf)) if *last == t => tf[f] = tf[f].saturating_add(1),
                    _ => {
                        let mut tf = [0u16; FIELDS];
                        tf[f] = 1;
                        tfs.push((t, tf));
                    }
                }
            }
            field_len.push(lens);
            for (stem, tf) in tfs {
                terms.entry(stem).or_default().push(Posting { doc: doc as u32, tf, sat: 0 });
            }
        }
        let mut name_stems: Vec<Vec<String>> = Vec::with_capacity(tools.len());
        let mut name_df: BTreeMap<String, u32> = BTreeMap::new();
        for tool in tools {
            let mut v = analyze_parts(tool.get("name").and_then(Value::as_str).unwrap_or(""), 64);
            v.sort();
            v.dedup();
            for st in &v {
                *name_df.entry(st.clone()).or_insert(0) += 1;
            }
            name_stems.push(v);
        }
        // Name words on more than half the catalog's names (a server prefix)
        // are left out of the coverage; the others, stem → tools.
        let mut name_docs: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        let mut name_counted = vec![0u32; tools.len()];
        for (d, v) in name_stems.into_iter().enumerate() {
            for st in v {
                if name_df.get(&st).copied().unwrap_or(0) as usize * 2 > tools.len() {
                    continue;
                }
                name_counted[d] += 1;
                name_docs.entry(st).or_default().push(d as u32);
            }
        }
        let mut groups: Vec<Vec<Vec<String>>> = Vec::new();
        let builtin = BUILTIN_SYNONYMS.iter().map(|g| g.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        for g in builtin.chain(synonyms.iter().cloned()) {
            // Members keep their stop words (`how many`, `go to`): a phrase
            // is matched against the query as typed, stop words included.
            let members: Vec<Vec<String>> = g
                .iter()
                .take(64)
                .map(|m| words(m, 8).into_iter().map(|w| w.stem).collect::<Vec<_>>())
                .filter(|m| !m.is_empty())
                .collect();
            if members.len() >= 2 {
                groups.push(members);
            }
        }
        let mut index = SearchIndex {
            docs: tools.len(),
            field_len,
            total_len,
            terms,
            synonyms: groups,
            name_docs,
            name_counted,
            expansions: Expansions::learned(),
            vectors: Vectors::shipped(),
            doc_vecs: Default::default(),
        };
        let mut terms = std::mem::take(&mut index.terms);
        for postings in terms.values_mut() {
            for p in postings.iter_mut() {
                p.sat = index.saturated(p);
            }
        }
        index.terms = terms;
        index.doc_vecs = std::array::from_fn(|m| index.document_vectors(&DENSE_FIELD_WEIGHTS[m]));
        index
    }

    /// Each tool's dense vector: its distinct stems, each weighted by its
    /// best field (`field_weights`, not increasing along the fields) times
    /// its idf, through [`Vectors::document`]. One pass over the postings.
    fn document_vectors(&self, field_weights: &[u64; FIELDS]) -> Vec<i32> {
        let mut per_doc: Vec<Vec<(&str, u64)>> = vec![Vec::new(); self.docs];
        if !self.vectors.is_on() {
            return Vec::new();
        }
        for (stem, postings) in &self.terms {
            if self.vectors.of(stem).is_none() {
                continue;
            }
            let idf = self.idf(postings.len());
            for p in postings {
                // the field weights do not increase along the fields: the
                // first field that has the stem is its best
                let Some(f) = (0..FIELDS).find(|&f| p.tf[f] > 0) else { continue };
                if field_weights[f] > 0 {
                    per_doc[p.doc as usize].push((stem.as_str(), field_weights[f] * idf));
                }
            }
        }
        let dims = self.vectors.dims();
        let mut out = vec![0i32; self.docs * dims];
        for (d, stems) in per_doc.iter().enumerate() {
            if let Some(v) = self.vectors.document(stems) {
                out[d * dims..(d + 1) * dims].copy_from_slice(&v);
            }
        }
        out
    }

    /// The same index with other bilinear maps of the dense features (the
    /// training script's evaluation, per fold; empty turns the features
    /// off). The tool side does not depend on them.
    #[doc(hidden)]
    pub fn with_bilinear(mut self, bilinear: &'static [i32]) -> SearchIndex {
        self.vectors = self.vectors.with_bilinear(bilinear);
        self
    }

    /// The same index with another word-vector table and its maps (the
    /// training script compares candidate tables without rebuilding the
    /// engine); the tools' vectors are computed again from the postings.
    #[doc(hidden)]
    pub fn with_vectors(mut self, vectors: Vectors<'static>) -> SearchIndex {
        self.vectors = vectors;
        self.doc_vecs = std::array::from_fn(|m| self.document_vectors(&DENSE_FIELD_WEIGHTS[m]));
        self
    }

    /// The same index with another expansion table (the training script's
    /// evaluation compares tables without rebuilding the engine;
    /// [`Expansions::none`] gives the ranker without learned expansions).
    #[doc(hidden)]
    pub fn with_expansions(mut self, expansions: Expansions<'static>) -> SearchIndex {
        self.expansions = expansions;
        self
    }

    /// Number of tools indexed.
    pub fn len(&self) -> usize {
        self.docs
    }

    pub fn is_empty(&self) -> bool {
        self.docs == 0
    }

    /// Ranked hits, best first, at most `limit`; equal scores keep catalog
    /// order. An empty query, a query of stop words only, or one that matches
    /// no tool's words and has no word in the vector table gives no hits. A tool's score is the weighted sum of its
    /// [`features`](Self::features) (`FEATURE_WEIGHTS`).
    pub fn search(&self, query: &str, limit: usize) -> Vec<Hit> {
        if limit == 0 || self.docs == 0 {
            return Vec::new();
        }
        let mut hits: Vec<Hit> = self
            .features(query)
            .into_iter()
            .map(|(d, f)| {
                let s: u128 = f.iter().zip(FEATURE_WEIGHTS).map(|(&x, w)| x as u128 * w as u128).sum::<u128>() / FEATURE_ONE as u128;
                Hit { index: d as usize, score_milli: (s * 1000 / ONE as u128) as u64 }
            })
            .filter(|h| h.score_milli > 0)
            .collect();
        hits.sort_by(|a, b| b.score_milli.cmp(&a.score_milli).then(a.index.cmp(&b.index)));
        hits.truncate(limit);
        hits
    }

    /// The ranking features of every tool `query` matches, in tool order
    /// (fixed point, `ONE` = 1): what [`search`](Self::search) weighs and what
    /// the training script of the weights reads (`tests/search_train.rs`).
    /// See [`FEATURES`] for what each is.
    #[doc(hidden)]
    pub fn features(&self, query: &str) -> Vec<(u32, [u64; FEATURES])> {
        if self.docs == 0 {
            return Vec::new();
        }
        let q = truncate_bytes(query, MAX_QUERY_BYTES);
        let concepts = self.concepts(&words(q, MAX_QUERY_TERMS));
        // Per concept, the tools it matched with their score (best
        // alternative) and how that alternative came, in tool order.
        let mut best = vec![0u64; self.docs];
        let mut best_via = vec![Via::Word; self.docs];
        let mut touched: Vec<u32> = Vec::new();
        let mut matched: Vec<Vec<(u32, u64, Via)>> = Vec::with_capacity(concepts.len());
        for c in &concepts {
            for (stem, weight, via) in &c.alts {
                let Some(postings) = self.terms.get(stem) else { continue };
                let idf = self.idf(postings.len());
                for p in postings {
                    let s = self.term_score(p, idf) * weight / ONE;
                    let d = p.doc as usize;
                    if s > best[d] {
                        if best[d] == 0 {
                            touched.push(p.doc);
                        }
                        best[d] = s;
                        best_via[d] = *via;
                    }
                }
            }
            touched.sort_unstable();
            matched.push(touched.iter().map(|&d| (d, std::mem::take(&mut best[d as usize]), best_via[d as usize])).collect());
            touched.clear();
        }
        let score_of = |ci: usize, d: u32| matched[ci].binary_search_by_key(&d, |&(x, _, _)| x).map_or(0, |k| matched[ci][k].1);
        let mut feats = vec![[0u64; FEATURES]; self.docs];
        for (ci, c) in concepts.iter().enumerate() {
            for &(d, s, via) in &matched[ci] {
                feats[d as usize][via as usize] += match c.parts {
                    // A compound counts as max(parts, compound): a tool that
                    // says `log group` and `loggroup` is not matched twice.
                    Some((a, b)) => s.saturating_sub(score_of(a, d) + score_of(b, d)),
                    None => s,
                };
            }
        }
        self.add_name_coverage(&concepts, &mut feats);
        self.add_dense(q, &mut feats);
        feats.into_iter().enumerate().filter(|(_, f)| f.iter().any(|&x| x > 0)).map(|(d, f)| (d as u32, f)).collect()
    }

    /// Turns the query's words into concepts, each a list of weighted
    /// alternative stems of which the best one counts per tool:
    /// - each distinct content word, with the words of its synonym groups;
    /// - each synonym phrase found in the query (`how many`, `pull request`),
    ///   with the other members of its group (the phrase's own content words
    ///   are concepts of their own already);
    /// - two adjacent words that the catalog writes as one (`data source` →
    ///   `datasource`), and a word the catalog only knows as two
    ///   (`dropdown` → `drop down`): compounds are spelled both ways.
    fn concepts(&self, qwords: &[Word]) -> Vec<Concept> {
        let stems: Vec<&str> = qwords.iter().map(|w| w.stem.as_str()).collect();
        let mut out: Vec<Concept> = Vec::new();
        // index in `out` of the concept of each query position's word
        let mut concept_of: Vec<Option<usize>> = vec![None; qwords.len()];
        let mut seen: Vec<&str> = Vec::new();
        let mut phrase_groups: Vec<usize> = Vec::new();
        let add_group = |alts: &mut Vec<(String, u64, Via)>, g: &Vec<Vec<String>>| {
            for m in g {
                for st in m {
                    if !alts.iter().any(|(a, _, _)| a == st) && !is_stop_stem(st) {
                        alts.push((st.clone(), SYNONYM_WEIGHT, Via::Synonym));
                    }
                }
            }
        };
        for (i, w) in qwords.iter().enumerate() {
            // synonym phrases starting here
            for (gi, g) in self.synonyms.iter().enumerate() {
                let hit = g.iter().any(|m| m.len() > 1 && stems.len() >= i + m.len() && stems[i..i + m.len()] == m[..]);
                if hit && !phrase_groups.contains(&gi) {
                    phrase_groups.push(gi);
                    let mut alts = Vec::new();
                    add_group(&mut alts, g);
                    out.push(Concept { alts, parts: None });
                }
            }
            if w.stop {
                continue;
            }
            if let Some(k) = seen.iter().position(|s| *s == w.stem) {
                // a repeated word is one concept, not a stronger one
                concept_of[i] = concept_of[..i].iter().flatten().nth(k).copied();
                continue;
            }
            seen.push(&w.stem);
            let mut alts: Vec<(String, u64, Via)> = vec![(w.stem.clone(), ONE, Via::Word)];
            for g in &self.synonyms {
                if g.iter().any(|m| m.len() == 1 && m[0] == w.stem) {
                    add_group(&mut alts, g);
                }
            }
            self.add_expansions(&w.stem, &mut alts);
            self.add_lexicon(&w.raw, &mut alts);
            concept_of[i] = Some(out.len());
            out.push(Concept { alts, parts: None });
            // `dropdown` → `drop down`, only for a word the catalog lacks
            if !self.terms.contains_key(&w.stem) {
                if let Some((a, b)) = self.split_compound(&w.raw) {
                    out.push(Concept { alts: vec![(a, ONE, Via::Word)], parts: None });
                    out.push(Concept { alts: vec![(b, ONE, Via::Word)], parts: None });
                }
            }
        }
        // `data source` → `datasource`: two adjacent content words the
        // catalog also writes as one.
        for i in 0..qwords.len().saturating_sub(1) {
            let (w, next) = (&qwords[i], &qwords[i + 1]);
            let (Some(a), Some(b)) = (concept_of[i], concept_of[i + 1]) else { continue };
            if a == b {
                continue;
            }
            let joined = stem(&format!("{}{}", w.raw, next.raw));
            if self.terms.contains_key(&joined) && !stems.contains(&joined.as_str()) {
                out.push(Concept { alts: vec![(joined, ONE, Via::Word)], parts: Some((a, b)) });
            }
        }
        out
    }

    /// Adds the words WordNet relates to `raw` (a query word) that the
    /// catalog uses, each at its relation's weight; a stem already among the
    /// alternatives keeps its higher weight.
    fn add_lexicon(&self, raw: &str, alts: &mut Vec<(String, u64, Via)>) {
        for entry in lexicon::lookup(raw) {
            let base = stem(entry.word());
            if !alts.iter().any(|(a, _, _)| *a == base) && self.terms.contains_key(&base) {
                alts.push((base, ONE, Via::Word));
            }
            for (word, rel) in lexicon::related(entry) {
                let st = stem(word);
                // The catalog lookup first: most related words are not in
                // it, and `is_stop_stem` stems every stop word.
                if !self.terms.contains_key(&st) || is_stop_stem(&st) {
                    continue;
                }
                let w = rel_weight(rel);
                match alts.iter_mut().find(|(a, _, _)| *a == st) {
                    Some((_, have, via)) => {
                        if w > *have {
                            *have = w;
                            *via = Via::Lexicon;
                        }
                    }
                    None => alts.push((st, w, Via::Lexicon)),
                }
            }
        }
    }

    /// Adds the learned expansions of `stem` that the catalog uses, each at
    /// its learned weight; a stem already among the alternatives keeps the
    /// higher of its two weights.
    fn add_expansions(&self, stem: &str, alts: &mut Vec<(String, u64, Via)>) {
        for (target, w) in self.expansions.of(stem) {
            // The catalog lookup first: most targets are not in it.
            if !self.terms.contains_key(target) || is_stop_stem(target) {
                continue;
            }
            let w = ONE * u64::from(w) / 256;
            match alts.iter_mut().find(|(a, _, _)| a == target) {
                // The stronger link says where the match came from.
                Some((_, have, via)) => {
                    if w > *have {
                        *have = w;
                        *via = Via::Learned;
                    }
                }
                None => alts.push((target.to_string(), w, Via::Learned)),
            }
        }
    }

    /// Adds to each matched tool a bonus for the share of its name the query
    /// covers. Tool names are short and chosen to say what the tool does, so
    /// a query that accounts for all of `list_datasources` is about that tool
    /// even when `datasource` is too common in the catalog to carry idf
    /// weight. Name words shared by more than half of the catalog (a server
    /// prefix such as `browser_`, `API-`) are left out of the share; a word
    /// matched through a synonym counts half.
    /// The dense features ([`super::vectors`]): the query's distinct content
    /// stems, each weighted by its idf in this catalog (a word the catalog
    /// lacks has the highest), against every tool's vector of each map.
    fn add_dense(&self, query: &str, feats: &mut [[u64; FEATURES]]) {
        if !self.vectors.is_on() {
            return;
        }
        let mut stems: Vec<(String, u64)> = Vec::new();
        for w in words(query, MAX_QUERY_TERMS) {
            if !w.stop && !stems.iter().any(|(s, _)| *s == w.stem) {
                let df = self.terms.get(&w.stem).map_or(0, Vec::len);
                stems.push((w.stem, self.idf(df)));
            }
        }
        let refs: Vec<(&str, u64)> = stems.iter().map(|(s, w)| (s.as_str(), *w)).collect();
        for (m, docs) in self.doc_vecs.iter().enumerate() {
            let Some(q) = self.vectors.query(m, &refs) else { return };
            let dims = self.vectors.dims();
            if docs.len() != self.docs * dims {
                continue;
            }
            for (d, f) in feats.iter_mut().enumerate() {
                f[X_DENSE + m] = vectors::cosine(&q, &docs[d * dims..(d + 1) * dims]);
            }
        }
    }

    fn add_name_coverage(&self, concepts: &[Concept], feats: &mut [[u64; FEATURES]]) {
        let mut want: BTreeMap<&str, u64> = BTreeMap::new();
        for c in concepts {
            for (st, w, _) in &c.alts {
                let e = want.entry(st.as_str()).or_insert(0);
                *e = (*e).max(*w);
            }
        }
        // The query's covered share of each name, stem by stem (an integer
        // sum: the order of the terms does not change it).
        let mut covered = vec![0u64; self.docs];
        for (st, w) in &want {
            if let Some(docs) = self.name_docs.get(*st) {
                for &d in docs {
                    covered[d as usize] += w;
                }
            }
        }
        for (d, f) in feats.iter_mut().enumerate() {
            let counted = u64::from(self.name_counted[d]);
            if counted > 0 && f[..X_COVER].iter().any(|&x| x > 0) {
                f[X_COVER] = NAME_COVERAGE * covered[d] / (counted * ONE);
            }
        }
    }

    /// The first split (longest left part first) of `raw` into two words of
    /// at least 3 characters that are both index terms.
    fn split_compound(&self, raw: &str) -> Option<(String, String)> {
        if !raw.is_ascii() || raw.len() < 6 {
            return None;
        }
        for k in (3..=raw.len() - 3).rev() {
            let (l, r) = raw.split_at(k);
            if is_stop(l) || is_stop(r) {
                continue;
            }
            let (a, b) = (stem(l), stem(r));
            if self.terms.contains_key(&a) && self.terms.contains_key(&b) {
                return Some((a, b));
            }
        }
        None
    }

    /// BM25 idf in fixed point: ln(1 + (N - n + 0.5) / (n + 0.5)), computed
    /// as ln((N + 1) / (n + 0.5)) = ln((2N + 2) / (2n + 1)). Always > 0.
    fn idf(&self, n: usize) -> u64 {
        let num = 2 * self.docs as u64 + 2;
        let den = 2 * n as u64 + 1;
        ln_fixed(num, den)
    }

    /// BM25F term weight of one posting, before query weight: its
    /// saturated weight (below) times idf.
    fn term_score(&self, p: &Posting, idf: u64) -> u64 {
        (p.sat as u128 * idf as u128 / ONE as u128) as u64
    }

    /// The saturated BM25F weight of one posting, before idf:
    /// wtf = Σ_f w_f · tf_f / (1 − b + b · len_f / avglen_f), then
    /// wtf · (k1 + 1) / (wtf + k1).
    fn saturated(&self, p: &Posting) -> u64 {
        let n = self.docs as u128;
        let lens = &self.field_len[p.doc as usize];
        let mut wtf: u128 = 0;
        for f in 0..FIELDS {
            let tf = p.tf[f] as u128;
            if tf == 0 || self.total_len[f] == 0 {
                continue;
            }
            let one = ONE as u128;
            // 1 − b + b·len/avg, with avg = total/N: (1−b)·ONE + b·ONE·len·N/total
            let norm = one * (B_DEN - B_NUM) as u128 / B_DEN as u128
                + one * B_NUM as u128 * lens[f] as u128 * n / (B_DEN as u128 * self.total_len[f] as u128);
            wtf += FIELD_WEIGHTS[f] as u128 * tf * one / norm.max(1);
        }
        let k1 = K1 as u128;
        (wtf * (k1 + ONE as u128) / (wtf + k1)) as u64
    }
}

/// The terms the index sees in each field of `tool`, in the order name,
/// title, lead sentence, property names, description, property descriptions:
/// what the training script of the learned expansions reads
/// (`tests/search_train.rs` dumps it).
#[doc(hidden)]
pub fn tool_terms(tool: &Object) -> Vec<Vec<String>> {
    tool_fields(tool).into_iter().collect()
}

/// The tokens of each field of one tool (see `FIELD_WEIGHTS`).
fn tool_fields(tool: &Object) -> [Vec<String>; FIELDS] {
    let mut fields: [Vec<String>; FIELDS] = Default::default();
    let text = |k: &str| tool.get(k).and_then(Value::as_str).unwrap_or("");
    fields[F_NAME] = analyze(text("name"), MAX_FIELD_TOKENS);
    fields[F_TITLE] = analyze(text("title"), MAX_FIELD_TOKENS);
    // Annotations may carry a title too (the older place for it).
    if fields[F_TITLE].is_empty() {
        if let Some(t) = tool.get("annotations").and_then(Value::as_object).and_then(|a| a.get("title")).and_then(Value::as_str) {
            fields[F_TITLE] = analyze(t, MAX_FIELD_TOKENS);
        }
    }
    let desc = text("description");
    fields[F_LEAD] = analyze(&summary(desc, 400), MAX_FIELD_TOKENS);
    fields[F_DESC] = analyze(desc, MAX_FIELD_TOKENS);
    if let Some(schema) = tool.get("inputSchema").and_then(Value::as_object) {
        let mut walk = SchemaWalk { nodes: 0, props: Vec::new(), prop_desc: Vec::new() };
        walk.visit(schema, 0);
        fields[F_PROPS] = walk.props;
        fields[F_PROP_DESC] = walk.prop_desc;
    }
    fields
}

/// Collects property names and property descriptions (and string enum
/// values) from an input schema, bounded in nodes, depth and tokens.
struct SchemaWalk {
    nodes: usize,
    props: Vec<String>,
    prop_desc: Vec<String>,
}

impl SchemaWalk {
    fn visit(&mut self, schema: &Object, depth: usize) {
        if depth > MAX_SCHEMA_DEPTH || self.nodes >= MAX_SCHEMA_NODES {
            return;
        }
        self.nodes += 1;
        if depth > 0 {
            if let Some(d) = schema.get("description").and_then(Value::as_str) {
                self.push_desc(d);
            }
            if let Some(values) = schema.get("enum").and_then(Value::as_array) {
                for v in values.iter().take(64) {
                    if let Some(s) = v.as_str() {
                        self.push_desc(s);
                    }
                }
            }
        }
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            for (name, sub) in props.iter() {
                if self.props.len() < MAX_FIELD_TOKENS {
                    let room = MAX_FIELD_TOKENS - self.props.len();
                    self.props.extend(analyze(name, room));
                }
                if let Some(sub) = sub.as_object() {
                    self.visit(sub, depth + 1);
                }
            }
        }
        // Nested shapes: array items and alternatives describe the same
        // arguments, one level of structure down.
        if let Some(items) = schema.get("items").and_then(Value::as_object) {
            self.visit(items, depth + 1);
        }
        for k in ["anyOf", "oneOf", "allOf"] {
            if let Some(alts) = schema.get(k).and_then(Value::as_array) {
                for a in alts.iter().filter_map(Value::as_object) {
                    self.visit(a, depth + 1);
                }
            }
        }
    }

    fn push_desc(&mut self, text: &str) {
        if self.prop_desc.len() < MAX_FIELD_TOKENS {
            let room = MAX_FIELD_TOKENS - self.prop_desc.len();
            self.prop_desc.extend(analyze(text, room));
        }
    }
}

/// The terms the index sees for `text`: words split at camelCase,
/// snake_case and kebab-case boundaries, lower-cased, accent-folded, stop
/// words dropped, stemmed. For tests and for explaining a ranking.
pub fn terms(text: &str) -> Vec<String> {
    analyze(truncate_bytes(text, MAX_QUERY_BYTES), MAX_QUERY_TERMS)
}

/// Text → stems: tokenize, fold, drop stop words, stem; at most `max` stems.
fn analyze(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w, _| {
        if out.len() >= max {
            return false;
        }
        if !is_stop(w) {
            out.push(stem(w));
        }
        true
    });
    out
}

/// Like `analyze`, without the joined camelCase runs (the words a name is
/// made of).
fn analyze_parts(text: &str, max: usize) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w, compound| {
        if out.len() >= max {
            return false;
        }
        if !compound && !is_stop(w) {
            out.push(stem(w));
        }
        true
    });
    out
}

/// One word of a query (or synonym phrase), stop words kept and marked.
struct Word {
    raw: String,
    stem: String,
    stop: bool,
}

/// Every word of `text` with its stem, up to `max` content words (and at
/// most 4 × `max` words in all, so a query of stop words is bounded too).
fn words(text: &str, max: usize) -> Vec<Word> {
    let mut out = Vec::new();
    let mut content = 0;
    for_each_word(text, |w, _| {
        if content >= max || out.len() >= 4 * max {
            return false;
        }
        let stop = is_stop(w);
        content += usize::from(!stop);
        out.push(Word { raw: w.to_string(), stem: stem(w), stop });
        true
    });
    out
}

/// Whether `w` is a stop word (`STOP_WORDS` is sorted: one binary search
/// per token instead of a scan).
fn is_stop(w: &str) -> bool {
    STOP_WORDS.binary_search(&w).is_ok()
}

/// Whether a stem is that of a stop word (stop words are short and stem to
/// themselves, except a few such as `uses`).
fn is_stop_stem(st: &str) -> bool {
    // A word of 3 characters or fewer is its own stem: only the longer stop
    // words need stemming, and their stems are listed (a query checks
    // hundreds of related words; stemming every stop word for each was most
    // of a query's time).
    is_stop(st) || STOP_STEMS.binary_search(&st).is_ok()
}

/// The stems of the stop words longer than 3 characters, sorted (a unit
/// test checks the list against `stem`).
const STOP_STEMS: &[&str] = &[
    "about", "be", "could", "doe", "from", "given", "hav", "into", "pleas", "should", "som", "that",
    "their", "them", "then", "ther", "thes", "this", "thos", "tool", "use", "used", "using", "want",
    "what", "when", "which", "will", "with", "would", "your",
];

/// Splits `text` into lower-cased, accent-folded words and calls `f` with
/// each until it returns false. Word boundaries: any character that is not a
/// letter or digit (so `_`, `-`, `.`, `/` split), a lower→upper or
/// digit→upper change (`getStock`, `s3Bucket`), and the last capital of a
/// capital run before a lower-case letter (`HTMLParser` → `html parser`).
/// Other letter↔digit changes do not split: `k8s`, `ec2`, `s3` are names.
///
/// A run split at camelCase humps is also given whole after its parts
/// (`JavaScript` → `java script javascript`): brand names are camel-cased in
/// one place and written in one lower-case word in another (`PostgreSQL` /
/// `postgresql`, `ClickHouse` / `clickhouse`), and both must meet.
pub(crate) fn for_each_word(text: &str, mut f: impl FnMut(&str, bool) -> bool) {
    let mut word = String::new();
    let mut word_chars = 0usize;
    // the whole alphanumeric run, and how many camelCase parts it had
    let mut run = String::new();
    let mut run_chars = 0usize;
    let mut parts = 0usize;
    let mut prev: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !word.is_empty() {
                parts += 1;
                if !f(&word, false) {
                    return;
                }
                word.clear();
                word_chars = 0;
            }
            if parts >= 2 && !f(&run, true) {
                return;
            }
            run.clear();
            run_chars = 0;
            parts = 0;
            prev = Some(c);
            continue;
        }
        if !word.is_empty() && c.is_uppercase() {
            let p = prev.unwrap_or(' ');
            let next_lower = chars.peek().is_some_and(|n| n.is_lowercase());
            if p.is_lowercase() || p.is_ascii_digit() || (p.is_uppercase() && next_lower) {
                parts += 1;
                if !f(&word, false) {
                    return;
                }
                word.clear();
                word_chars = 0;
            }
        }
        for l in c.to_lowercase() {
            let l = fold(l);
            if word_chars < MAX_TOKEN_CHARS {
                word.push(l);
            }
            if run_chars < MAX_TOKEN_CHARS {
                run.push(l);
            }
        }
        word_chars += 1;
        run_chars += 1;
        prev = Some(c);
    }
    if !word.is_empty() {
        parts += 1;
        if !f(&word, false) {
            return;
        }
    }
    if parts >= 2 {
        f(&run, true);
    }
}

/// Folds the common Latin-1 and Latin Extended-A accented lower-case letters
/// to ASCII (`é` → `e`); other characters pass unchanged. Cheap and total: a
/// full decomposition is not worth it for ranking.
fn fold(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'ĉ' | 'ċ' | 'č' => 'c',
        'ď' | 'đ' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ĕ' | 'ė' | 'ę' | 'ě' => 'e',
        'ĝ' | 'ğ' | 'ġ' | 'ģ' => 'g',
        'ì' | 'í' | 'î' | 'ï' | 'ĩ' | 'ī' | 'ĭ' | 'į' | 'ı' => 'i',
        'ñ' | 'ń' | 'ņ' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ŏ' | 'ő' => 'o',
        'ŕ' | 'ř' => 'r',
        'ś' | 'ŝ' | 'ş' | 'š' => 's',
        'ţ' | 'ť' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ũ' | 'ū' | 'ŭ' | 'ů' | 'ű' | 'ų' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        _ => c,
    }
}

/// A light, deterministic suffix stemmer (lower-case input). Rules, in order:
/// 1. plural: `-ies` → `-y` (`queries`), `-s` dropped unless the word ends
///    in `-ss`, `-us`, `-is` (`class`, `status`, `analysis`);
/// 2. `-ing` / `-ed` dropped when at least 3 characters remain, then a
///    doubled final consonant is undoubled except `l`, `s`, `z`
///    (`running` → `run`, `stopped` → `stop`, `billing` → `bill`);
///    `-ied` → `-y` (`copied`);
/// 3. a final `-e` is dropped (`create`, `created`, `creating` → `creat`).
///
/// Words of 3 characters or fewer, and words with non-ASCII letters, are
/// kept as they are (`aws`, `sms`, `vms`).
pub(crate) fn stem(word: &str) -> String {
    // 0. irregular forms (`wrote`, `indices`) first go to their base form
    suffix_stem(lexicon::irregular_base(word).unwrap_or(word))
}

fn suffix_stem(word: &str) -> String {
    if word.len() <= 3 || !word.is_ascii() {
        return word.to_string();
    }
    let mut w = word.to_string();
    // 1. plurals
    if w.ends_with("ies") && w.len() > 4 {
        w.truncate(w.len() - 3);
        w.push('y');
    } else if w.ends_with('s') && !(w.ends_with("ss") || w.ends_with("us") || w.ends_with("is")) {
        w.pop();
    }
    // 2. -ing / -ed
    if w.ends_with("ied") && w.len() > 4 {
        w.truncate(w.len() - 3);
        w.push('y');
    } else {
        let cut = if w.ends_with("ing") && w.len() >= 6 {
            3
        } else if w.ends_with("ed") && w.len() >= 5 {
            2
        } else {
            0
        };
        if cut > 0 {
            w.truncate(w.len() - cut);
            let b = w.as_bytes();
            let n = b.len();
            if n >= 2 && b[n - 1] == b[n - 2] && !matches!(b[n - 1], b'l' | b's' | b'z' | b'a' | b'e' | b'i' | b'o' | b'u') {
                w.pop();
            }
        }
    }
    // 3. final e
    if w.len() > 3 && w.ends_with('e') {
        w.pop();
    }
    w
}

/// `text` cut to at most `max` bytes, on a char boundary.
fn truncate_bytes(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// ln(num / den) in fixed point (×`ONE`), for num ≥ den > 0 (0 otherwise),
/// with integer arithmetic only, so native and wasm32 agree bit for bit.
///
/// log2 by the classic shift-and-square method: the integer part is the
/// position of the leading bit; each further bit of the fraction comes from
/// squaring the mantissa y ∈ [1, 2) and checking whether it reached 2. 32
/// fractional bits are computed, then ln x = log2 x · ln 2.
pub(crate) fn ln_fixed(num: u64, den: u64) -> u64 {
    if den == 0 || num <= den {
        return 0;
    }
    const FRAC: u32 = 32;
    // x = num/den with 32 fractional bits; num < 2^64 so this fits in u128.
    let x: u128 = ((num as u128) << FRAC) / den as u128;
    // integer part of log2(x): leading bit position minus FRAC
    let top = 127 - x.leading_zeros(); // x ≥ 2^32, so top ≥ 32
    let int_part = (top - FRAC) as u128;
    // mantissa y = x / 2^int_part ∈ [1, 2), 32 fractional bits
    let mut y: u128 = x >> int_part;
    let mut frac: u128 = 0;
    for i in 1..=FRAC {
        y = (y * y) >> FRAC;
        if y >= 2u128 << FRAC {
            y >>= 1;
            frac |= 1u128 << (FRAC - i);
        }
    }
    let log2 = (int_part << FRAC) | frac; // 32 fractional bits
    // ln 2 with 32 fractional bits: round(0.693147180559945 · 2^32)
    const LN2: u128 = 2_977_044_472;
    let ln = (log2 * LN2) >> FRAC; // still 32 fractional bits
    (ln >> (FRAC - 16)) as u64 // to ONE = 2^16
}

/// A one-line summary of a description: its first sentence (or first line,
/// whichever ends first), whitespace collapsed, cut at `max_chars`
/// characters with "…" (the result is at most `max_chars` characters).
///
/// A sentence ends at `.`, `!` or `?` followed by whitespace or the end,
/// except after common abbreviations (`e.g.`, `i.e.`, `etc.`, `vs.`) and list
/// numbers (`1.`). A first line that is only a heading (ends with `:`, such as
/// `Purpose:`), or only markup, is skipped for the next non-empty line; a
/// leading list marker (`-`, `*`, `1.`, `#`) is dropped.
pub fn summary(description: &str, max_chars: usize) -> String {
    if max_chars == 0 {
        return String::new();
    }
    // Bound the work: a summary never needs more than the first few KB.
    let text = truncate_bytes(description, 16 * 1024);
    let mut lines = text.lines().map(str::trim).filter(|l| l.chars().any(char::is_alphanumeric));
    let mut line = lines.next().unwrap_or("");
    let mut skipped = 0;
    while skipped < 3 {
        let bare = line.trim_matches(|c: char| !c.is_alphanumeric());
        let heading = line.trim_end_matches(['*', '#', ' ']).ends_with(':') && bare.split_whitespace().count() <= 4;
        if !heading {
            break;
        }
        match lines.next() {
            Some(next) => line = next,
            None => break,
        }
        skipped += 1;
    }
    let line = strip_list_marker(line);
    let sentence = first_sentence(line);
    let collapsed = sentence.split_whitespace().collect::<Vec<_>>().join(" ");
    let n = collapsed.chars().count();
    if n <= max_chars {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(max_chars - 1).collect();
    while cut.ends_with(char::is_whitespace) {
        cut.pop();
    }
    cut.push('…');
    cut
}

/// Drops one leading list or heading marker: `- `, `* `, `• `, `# `…, `1. `, `1) `.
fn strip_list_marker(line: &str) -> &str {
    let l = line.trim_start();
    let l2 = l.trim_start_matches(['-', '*', '•', '#', '>']);
    if l2.len() != l.len() && l2.starts_with(' ') {
        return l2.trim_start();
    }
    let digits = l.len() - l.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && digits <= 3 {
        let rest = &l[digits..];
        if let Some(r) = rest.strip_prefix(". ").or_else(|| rest.strip_prefix(") ")) {
            return r.trim_start();
        }
    }
    l
}

/// The first sentence of one line (the whole line if it has one sentence).
fn first_sentence(line: &str) -> &str {
    const ABBREV: &[&str] = &["e.g", "i.e", "etc", "vs", "eg", "ie", "approx", "incl"];
    let bytes = line.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if !matches!(b, b'.' | b'!' | b'?') {
            continue;
        }
        let at_end = i + 1 == bytes.len();
        let before_space = bytes.get(i + 1).is_some_and(|c| c.is_ascii_whitespace());
        if !(at_end || before_space) {
            continue; // `v1.2`, `example.com`, `?query`
        }
        if b == b'.' {
            let word_start = line[..i].rfind(|c: char| c.is_whitespace() || c == '(').map_or(0, |p| p + 1);
            let word = &line[word_start..i];
            let lower = word.to_ascii_lowercase();
            if ABBREV.contains(&lower.as_str()) || (!word.is_empty() && word.bytes().all(|c| c.is_ascii_digit())) {
                continue;
            }
        }
        return &line[..=i];
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stop_words_are_sorted_for_binary_search() {
        assert!(STOP_WORDS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn stop_stems_are_the_stems_of_the_longer_stop_words() {
        let mut want: Vec<String> = STOP_WORDS.iter().filter(|w| w.len() > 3).map(|w| stem(w)).collect();
        want.sort();
        want.dedup();
        assert_eq!(STOP_STEMS, want.iter().map(String::as_str).collect::<Vec<_>>().as_slice());
    }

    #[test]
    fn ln_fixed_matches_known_values() {
        // ln 2 = 0.693147… → 45426.09 in 16-bit fixed point
        assert!((ln_fixed(2, 1) as i64 - 45426).abs() <= 1);
        // ln 10 = 2.302585… → 150902.4
        assert!((ln_fixed(10, 1) as i64 - 150902).abs() <= 1);
        // ln 1.5 = 0.405465… → 26572.5
        assert!((ln_fixed(3, 2) as i64 - 26572).abs() <= 1);
        assert_eq!(ln_fixed(1, 1), 0);
        assert_eq!(ln_fixed(1, 2), 0);
        assert_eq!(ln_fixed(5, 0), 0);
        // the largest argument the index can produce does not overflow
        assert!(ln_fixed(u64::MAX, 1) > 0);
    }
}
