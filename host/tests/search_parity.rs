//! The tool search ranks the same in the component as natively, query by
//! query, on the development queries of `eval/search/` (phrasings a user
//! would type, over the real catalogs they were written for).
//!
//! The ranker expands query words through compiled WordNet tables and scores
//! in fixed point; a difference between native and wasm32 (a table read
//! differently, an integer width, a hash order) would reorder hits on some
//! query. `pinning.rs` checks one query per catalog; this checks ~440 real
//! ones, their whole top 10 in order. Held-back queries are not read (see
//! eval/search/README.md): parity needs no more than the development part.

mod common;

use common::{instance, workspace};
use mcp_guard_host::default_options;

const POLICY: &str = r#"{"core":{"discovery":{"mode":"on"}}}"#;

#[path = "../../eval/search/queries.rs"]
mod search_queries;

/// (catalog file stem, development queries of it), the held-back part left
/// unread.
fn development_queries() -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for q in search_queries::read(&workspace().join("eval/search"), false) {
        match out.last_mut() {
            Some((c, qs)) if *c == q.catalog => qs.push(q.text),
            _ => out.push((q.catalog, vec![q.text])),
        }
    }
    out
}

#[test]
fn search_ranks_the_development_queries_the_same_in_the_component() {
    let mut g = instance();
    let policy = mcp_guard::Policy::from_json(POLICY).unwrap();
    let h = g.policy(POLICY).unwrap().unwrap();
    let opts = mcp_guard::SanitizeOptions::default();
    let mut compared = 0usize;
    for (catalog, queries) in development_queries() {
        let path = workspace().join("testdata/catalogs").join(format!("{catalog}.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let native = mcp_guard::pinning::pin(&policy, &text, &opts).unwrap_or_else(|e| panic!("{catalog}: pin: {e}"));
        let wasm = g.pin(&h, &text, &default_options()).unwrap().unwrap_or_else(|e| panic!("{catalog}: component pin: {e:?}"));
        let baseline = native.baseline.to_json();
        assert_eq!(baseline, wasm.baseline, "{catalog}: baseline bytes");
        for q in &queries {
            let n: Vec<String> = mcp_guard::discovery::search_tools(&native.baseline, q, 10).into_iter().map(|h| h.name).collect();
            let w: Vec<String> = g.search(&wasm.baseline, q, 10).unwrap().unwrap().into_iter().map(|h| h.name).collect();
            assert_eq!(n, w, "{catalog}: {q:?}");
            compared += 1;
        }
    }
    g.drop_policy(h).unwrap();
    assert!(compared >= 400, "only {compared} development queries compared");
}
