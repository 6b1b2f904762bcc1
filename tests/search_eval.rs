//! Top-1 / top-3 of tool search on the labelled task queries of
//! `eval/search/` (see its README), for the development part and the
//! held-back part separately, for two rankers in the same run:
//!
//! - **engine**: `mcp_guard::discovery::search_tools`, used as a black box the
//!   way a client's `search_tools` call reaches it — each catalog is pinned
//!   under the default policy with `core.discovery.mode = "on"`, and every
//!   query searches that session's baseline;
//! - **bm25**: plain BM25 written here, over each tool's raw name +
//!   description, lower-cased and split at every character that is not a
//!   letter or digit, no stemming, no stop words, no synonyms; k1 = 1.2,
//!   b = 0.75, idf = ln(1 + (N − n + 0.5) / (n + 0.5)); distinct query words;
//!   equal scores keep catalog order; tools scoring 0 are not hits.
//!
//! A query searches the tools of its own catalog only. It counts as a top-k hit
//! when one of its expected tools is among the first k hits.
//!
//! The held-back part is the headline, and nothing may be tuned on it: this
//! runner prints its figures (whole, by class, by how it is held back) but
//! never its queries. The development part's misses are listed by class.
//!
//! Ignored by default (it prints a report). Deterministic: catalogs in name
//! order, queries in file order, no hash order anywhere, ties broken by
//! catalog order (the engine's ranking is integer arithmetic; BM25 here is
//! f64, the same on every run of one build):
//!
//! ```sh
//! cargo test --test search_eval -- --ignored --nocapture
//! ```

#[path = "../testdata/testdata.rs"]
mod testdata;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use mcp_guard::discovery;
use mcp_guard::pinning;
use mcp_guard::{Policy, SanitizeOptions};

#[path = "../eval/search/queries.rs"]
mod search_queries;
use search_queries::{Query, CLASSES, STYLES};

fn eval_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("eval/search")
}

/// Every query of `queries/*.txt`, held-back ones included (their figures
/// are reported, never their texts).
fn queries() -> Vec<Query> {
    search_queries::read(&eval_dir(), true)
}

/// Plain BM25 over name + description (see the module doc).
struct Bm25 {
    names: Vec<String>,
    /// Per tool: term → frequency.
    tf: Vec<BTreeMap<String, u32>>,
    len: Vec<f64>,
    avg_len: f64,
    /// Term → number of tools containing it.
    df: BTreeMap<String, u32>,
}

fn simple_tokens(text: &str) -> Vec<String> {
    text.to_lowercase().split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_string).collect()
}

impl Bm25 {
    const K1: f64 = 1.2;
    const B: f64 = 0.75;

    fn build(catalog: &serde_json::Value) -> Bm25 {
        let tools = catalog["tools"].as_array().expect("tools");
        let (mut names, mut tf, mut len, mut df) = (Vec::new(), Vec::new(), Vec::new(), BTreeMap::new());
        for t in tools {
            let name = t["name"].as_str().unwrap_or_default();
            let text = format!("{name} {}", t["description"].as_str().unwrap_or_default());
            let tokens = simple_tokens(&text);
            let mut counts: BTreeMap<String, u32> = BTreeMap::new();
            for w in &tokens {
                *counts.entry(w.clone()).or_default() += 1;
            }
            for w in counts.keys() {
                *df.entry(w.clone()).or_default() += 1;
            }
            names.push(name.to_string());
            len.push(tokens.len() as f64);
            tf.push(counts);
        }
        let avg_len = len.iter().sum::<f64>() / len.len().max(1) as f64;
        Bm25 { names, tf, len, avg_len, df }
    }

    fn search(&self, query: &str, limit: usize) -> Vec<String> {
        let terms: BTreeSet<String> = simple_tokens(query).into_iter().collect();
        let n = self.names.len() as f64;
        let mut scored: Vec<(f64, usize)> = Vec::new();
        for (doc, counts) in self.tf.iter().enumerate() {
            let mut score = 0.0;
            for term in &terms {
                let Some(&f) = counts.get(term) else { continue };
                let df = f64::from(self.df[term]);
                let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
                let f = f64::from(f);
                let norm = Self::K1 * (1.0 - Self::B + Self::B * self.len[doc] / self.avg_len);
                score += idf * f * (Self::K1 + 1.0) / (f + norm);
            }
            if score > 0.0 {
                scored.push((score, doc));
            }
        }
        // Best first; equal scores keep catalog order.
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().take(limit).map(|(_, d)| self.names[d].clone()).collect()
    }
}

/// 1-based rank of the first expected tool among `hits`.
fn rank(hits: &[String], expect: &[String]) -> Option<usize> {
    hits.iter().position(|h| expect.contains(h)).map(|p| p + 1)
}

#[derive(Default, Clone, Copy)]
struct Tally {
    n: u32,
    top1: [u32; 2],
    top3: [u32; 2],
}

impl Tally {
    fn add(&mut self, ranks: [Option<usize>; 2]) {
        self.n += 1;
        for (i, r) in ranks.iter().enumerate() {
            self.top1[i] += u32::from(*r == Some(1));
            self.top3[i] += u32::from(r.is_some_and(|r| r <= 3));
        }
    }
}

fn pct(k: u32, n: u32) -> String {
    if n == 0 {
        return "-".into();
    }
    format!("{k}/{n} = {:.1}%", 100.0 * f64::from(k) / f64::from(n))
}

fn row(label: &str, t: &Tally) -> String {
    format!(
        "| {label} | {} | {} | {} | {} | {} |",
        t.n,
        pct(t.top1[0], t.n),
        pct(t.top3[0], t.n),
        pct(t.top1[1], t.n),
        pct(t.top3[1], t.n)
    )
}

#[test]
#[ignore = "prints the search evaluation report; run with --ignored --nocapture"]
fn search_eval_report() {
    let queries = queries();
    assert!(queries.len() >= 500, "the set has {} queries", queries.len());

    let policy = Policy::from_json(r#"{"core":{"discovery":{"mode":"on"}}}"#).expect("discovery policy");
    let catalogs: BTreeSet<String> = queries.iter().map(|q| q.catalog.clone()).collect();
    // Per catalog: the pinned discovery session and the BM25 index.
    let mut sessions = BTreeMap::new();
    for name in &catalogs {
        let path = testdata::catalogs().join(format!("{name}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let pinned = pinning::pin(&policy, &text, &SanitizeOptions::default()).expect("pin");
        assert!(pinned.baseline.discovery.is_some(), "{name}: not a discovery session");
        // Upstream name → name the client sees (the names stage may rename).
        let visible: BTreeMap<String, String> =
            pinned.outcome.name_map.iter().map(|m| (m.upstream.clone(), m.visible.clone())).collect();
        let callable: BTreeSet<String> = pinned.baseline.surface.iter().map(|c| c.name.clone()).collect();
        let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
        let upstream: BTreeSet<String> =
            raw["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str().map(str::to_string)).collect();
        sessions.insert(name.clone(), (pinned.baseline, visible, callable, upstream, Bm25::build(&raw)));
    }

    let rankers = ["engine", "bm25"];
    let mut by_part: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut by_part_class: BTreeMap<(&str, String), Tally> = BTreeMap::new();
    let mut by_part_style: BTreeMap<(&str, String), Tally> = BTreeMap::new();
    let mut by_catalog: BTreeMap<(&str, String), Tally> = BTreeMap::new();
    let mut dev_misses: BTreeMap<String, Vec<String>> = BTreeMap::new();
    // Engine top-3 misses per (part, class): [ranked 4-10, not in the top 10,
    // of which no hit at all]. Counts only: held-back queries are never shown.
    let mut miss_kinds: BTreeMap<(&str, String), [u32; 3]> = BTreeMap::new();
    let mut not_callable = Vec::new();
    for q in &queries {
        let (baseline, visible, callable, upstream, bm25) = &sessions[&q.catalog];
        for e in &q.expect {
            assert!(upstream.contains(e), "{}: no tool {e:?} (query {:?})", q.catalog, q.text);
        }
        // The engine answers with visible names; BM25 reads the raw catalog.
        let expect_visible: Vec<String> =
            q.expect.iter().map(|e| visible.get(e).cloned().unwrap_or_else(|| e.clone())).collect();
        if !expect_visible.iter().any(|e| callable.contains(e)) {
            not_callable.push(format!("{}: {:?}", q.catalog, q.expect));
        }
        let engine: Vec<String> = discovery::search_tools(baseline, &q.text, 10).into_iter().map(|h| h.name).collect();
        let plain = bm25.search(&q.text, 10);
        let ranks = [rank(&engine, &expect_visible), rank(&plain, &q.expect)];
        let part = if q.held.is_some() { "held-back" } else { "development" };
        by_part.entry(part).or_default().add(ranks);
        if let Some(how) = q.held {
            by_part.entry(how).or_default().add(ranks);
        }
        by_part_class.entry((part, q.class.clone())).or_default().add(ranks);
        by_part_style.entry((part, q.style.clone())).or_default().add(ranks);
        by_catalog.entry((part, q.catalog.clone())).or_default().add(ranks);
        if ranks[0].is_none_or(|r| r > 3) {
            let m = miss_kinds.entry((part, q.class.clone())).or_default();
            match ranks[0] {
                Some(_) => m[0] += 1,
                None => {
                    m[1] += 1;
                    m[2] += u32::from(engine.is_empty());
                }
            }
        }
        if q.held.is_none() && ranks[0].is_none_or(|r| r > 3) {
            let top: Vec<&str> = engine.iter().take(3).map(String::as_str).collect();
            dev_misses.entry(q.class.clone()).or_default().push(format!(
                "  {} | {:?} | expected {} | engine rank {} top 3 {:?} | bm25 rank {}",
                q.catalog,
                q.text,
                q.expect.join(","),
                ranks[0].map_or("-".into(), |r| r.to_string()),
                top,
                ranks[1].map_or("-".into(), |r| r.to_string())
            ));
        }
    }

    let header = format!(
        "| | queries | {0} top-1 | {0} top-3 | {1} top-1 | {1} top-3 |\n|---|---|---|---|---|---|",
        rankers[0], rankers[1]
    );
    println!("\n## Tool search on eval/search ({} queries, {} catalogs)\n", queries.len(), catalogs.len());
    println!("{header}");
    for key in ["held-back", "held-back catalog", "held-back style", "development"] {
        if let Some(t) = by_part.get(key) {
            println!("{}", row(key, t));
        }
    }
    for part in ["held-back", "development"] {
        println!("\n### {part}, by class\n\n{header}");
        for class in CLASSES {
            if let Some(t) = by_part_class.get(&(part, class.to_string())) {
                println!("{}", row(class, t));
            }
        }
        println!("\n### {part}, by style\n\n{header}");
        for style in STYLES {
            if let Some(t) = by_part_style.get(&(part, style.to_string())) {
                println!("{}", row(style, t));
            }
        }
        println!("\n### {part}, by catalog\n\n{header}");
        for ((p, catalog), t) in &by_catalog {
            if *p == part {
                println!("{}", row(catalog, t));
            }
        }
    }
    println!("\n### engine top-3 misses, by class\n");
    println!("| part | class | misses | ranked 4-10 | not in top 10 | no hit at all |\n|---|---|---|---|---|---|");
    for ((part, class), m) in miss_kinds.iter().rev() {
        println!("| {part} | {class} | {} | {} | {} | {} |", m[0] + m[1], m[0], m[1], m[2]);
    }
    println!("\n### development: engine top-3 misses, by class\n");
    for class in CLASSES {
        let misses = dev_misses.get(class).map_or(&[][..], Vec::as_slice);
        println!("{class}: {} misses", misses.len());
        for m in misses {
            println!("{m}");
        }
    }
    if !not_callable.is_empty() {
        println!("\nexpected tools the engine does not serve (counted as misses): {not_callable:#?}");
    }
    // Wiring check: a tool searched by its own name (split at `_`, `-`) is
    // found by both rankers, so a miss above is the query's words, not a
    // catalog, a name mapping or a session the harness got wrong.
    let (mut own, mut own_hits) = (0u32, [0u32; 2]);
    for (catalog, (baseline, visible, _, _, bm25)) in &sessions {
        let expected: BTreeSet<&String> =
            queries.iter().filter(|q| &q.catalog == catalog).flat_map(|q| q.expect.iter()).collect();
        for name in expected {
            let words = name.replace(['_', '-'], " ");
            let vis = visible.get(name).unwrap_or(name);
            let engine: Vec<String> = discovery::search_tools(baseline, &words, 3).into_iter().map(|h| h.name).collect();
            own += 1;
            own_hits[0] += u32::from(engine.contains(vis));
            own_hits[1] += u32::from(bm25.search(&words, 3).contains(name));
        }
    }
    println!("\nwiring check, tools searched by their own name, top 3: engine {}, bm25 {}", pct(own_hits[0], own), pct(own_hits[1], own));
    assert!(own_hits.iter().all(|&h| h * 5 >= own * 4), "a ranker misses tools searched by their own name: {own_hits:?} of {own}");
    // Every ranker saw every query once per part.
    let held = by_part.get("held-back").map_or(0, |t| t.n);
    let dev = by_part.get("development").map_or(0, |t| t.n);
    assert_eq!(held + dev, queries.len() as u32);
    assert!(held * 4 >= queries.len() as u32, "held-back part below a quarter: {held}");
}
