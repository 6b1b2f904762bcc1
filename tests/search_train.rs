//! The engine's side of the learned query expansions
//! (`eval/search/model/train.py` drives both; its README says how):
//!
//! - `dump`: every training query (`eval/search/train/`) and development
//!   query (`eval/search/queries/`, held-back part never opened) with the
//!   engine's stems of its words, and every tool of their catalogs with the
//!   engine's terms per field, as the search of a discovery session sees them
//!   (pinned under the default policy, visible tools only). The script fits
//!   the table on these, so its stems are exactly the search's.
//! - `evaluate`: top-1 / top-3 of the engine with expansion tables the script
//!   wrote, on the queries of the catalogs it names (servers left out of that
//!   table's fitting), without rebuilding the engine.
//!
//! Ignored by default: both read and write files the script names in the
//! environment.

#[path = "../testdata/testdata.rs"]
mod testdata;
#[path = "../eval/search/queries.rs"]
mod search_queries;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mcp_guard::discovery::search::{terms, tool_terms};
use mcp_guard::discovery::vectors::Vectors;
use mcp_guard::discovery::{Expansions, SearchIndex};
use mcp_guard::json::{Object, Value};
use mcp_guard::pinning;
use mcp_guard::{Policy, SanitizeOptions};

fn eval_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("eval/search")
}

struct Session {
    /// Visible tools in catalog order, as `search_tools` indexes them.
    tools: Vec<Object>,
    /// Upstream name → visible name.
    visible: BTreeMap<String, String>,
}

impl Session {
    fn open(path: &Path) -> Session {
        let policy = Policy::from_json(r#"{"core":{"discovery":{"mode":"on"}}}"#).unwrap();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let pinned = pinning::pin(&policy, &text, &SanitizeOptions::default()).expect("pin");
        let callable: std::collections::BTreeSet<&str> = pinned.baseline.surface.iter().map(|c| c.name.as_str()).collect();
        let tools = pinned
            .baseline
            .catalog
            .iter()
            .filter_map(Value::as_object)
            .filter(|t| t.get("name").and_then(Value::as_str).is_some_and(|n| callable.contains(n)))
            .cloned()
            .collect();
        let visible = pinned.outcome.name_map.iter().map(|m| (m.upstream.clone(), m.visible.clone())).collect();
        Session { tools, visible }
    }

    fn name(&self, i: usize) -> &str {
        self.tools[i].get("name").and_then(Value::as_str).unwrap_or("")
    }

    /// Indices of the expected tools (upstream names) among the visible tools.
    fn expected(&self, expect: &[String]) -> Vec<usize> {
        let names: Vec<&str> = expect.iter().map(|e| self.visible.get(e).map_or(e.as_str(), String::as_str)).collect();
        (0..self.tools.len()).filter(|&i| names.contains(&self.name(i))).collect()
    }

    fn index(&self) -> SearchIndex {
        let refs: Vec<&Object> = self.tools.iter().collect();
        SearchIndex::build(&refs, &[])
    }
}

/// (catalog, set, queries): `set` is `train` (catalog in `testdata/catalogs-wide`)
/// or `dev` (`testdata/catalogs`, development part only).
fn all_queries() -> Vec<(String, &'static str, Vec<search_queries::Query>)> {
    let mut out: Vec<(String, &'static str, Vec<search_queries::Query>)> = Vec::new();
    let mut push = |set: &'static str, q: search_queries::Query| match out.last_mut() {
        Some((c, s, qs)) if *c == q.catalog && *s == set => qs.push(q),
        _ => out.push((q.catalog.clone(), set, vec![q])),
    };
    for q in read_train() {
        push("train", q);
    }
    for q in search_queries::read(&eval_dir(), false) {
        push("dev", q);
    }
    out
}

/// The training queries: the line format of the evaluation set, no split.
fn read_train() -> Vec<search_queries::Query> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(eval_dir().join("train"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let catalog = path.file_stem().unwrap().to_string_lossy().into_owned();
        for line in std::fs::read_to_string(&path).unwrap().lines() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let mut parts = line.splitn(3, '|').map(str::trim);
            let (head, expect, text) = (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
            let (class, style) = head.split_once(' ').unwrap();
            out.push(search_queries::Query {
                catalog: catalog.clone(),
                class: class.into(),
                style: style.into(),
                held: None,
                expect: expect.split(',').map(|e| e.trim().to_string()).collect(),
                text: text.into(),
            });
        }
    }
    out
}

fn catalog_path(set: &str, catalog: &str) -> PathBuf {
    let dir = if set == "train" { testdata::catalogs_wide() } else { testdata::catalogs() };
    dir.join(format!("{catalog}.json"))
}

fn json_str(s: &str) -> String {
    mcp_guard::json::write_compact(&Value::String(s.to_string()))
}

fn json_list(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|s| json_str(s)).collect::<Vec<_>>().join(","))
}

#[test]
#[ignore = "writes the training dump to $SEARCH_TRAIN_DUMP; run by eval/search/model/train.py"]
fn dump() {
    let out = std::env::var("SEARCH_TRAIN_DUMP").expect("SEARCH_TRAIN_DUMP");
    let mut lines = Vec::new();
    for (catalog, set, queries) in all_queries() {
        let s = Session::open(&catalog_path(set, &catalog));
        let tools: Vec<String> = s
            .tools
            .iter()
            .map(|t| {
                let fields: Vec<String> = tool_terms(t).iter().map(|f| json_list(f)).collect();
                format!("[{}]", fields.join(","))
            })
            .collect();
        let qs: Vec<String> = queries
            .iter()
            .map(|q| {
                let expect: Vec<String> = s.expected(&q.expect).iter().map(usize::to_string).collect();
                assert!(!expect.is_empty(), "{catalog}: {:?} not served", q.expect);
                format!(
                    r#"{{"class":{},"style":{},"expect":[{}],"terms":{}}}"#,
                    json_str(&q.class),
                    json_str(&q.style),
                    expect.join(","),
                    json_list(&terms(&q.text))
                )
            })
            .collect();
        lines.push(format!(
            r#"{{"catalog":{},"set":"{set}","tools":[{}],"queries":[{}]}}"#,
            json_str(&catalog),
            tools.join(","),
            qs.join(",")
        ));
    }
    std::fs::write(&out, lines.join("\n") + "\n").unwrap();
    println!("dump: {} catalogs → {out}", lines.len());
}

/// An expansion table in the script's text form, one pair a line:
/// `source-stem target-stem weight(1..=255)`. Leaked: a test lives briefly.
fn load_table(path: &str) -> Expansions<'static> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut pairs: BTreeMap<String, Vec<(String, u32)>> = BTreeMap::new();
    let mut words = std::collections::BTreeSet::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let mut f = line.split_whitespace();
        let (a, b, w) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap().parse::<u32>().unwrap());
        words.insert(a.to_string());
        words.insert(b.to_string());
        pairs.entry(a.to_string()).or_default().push((b.to_string(), w.clamp(1, 255)));
    }
    let words: Vec<&'static str> = words.into_iter().map(|w| &*Box::leak(w.into_boxed_str())).collect();
    let (mut start, mut packed) = (vec![0u32], Vec::new());
    for w in &words {
        if let Some(list) = pairs.get(*w) {
            for (t, wt) in list {
                packed.push((words.binary_search(&t.as_str()).unwrap() as u32) << 8 | wt);
            }
        }
        start.push(packed.len() as u32);
    }
    Expansions { words: Box::leak(words.into_boxed_slice()), start: Box::leak(start.into_boxed_slice()), pairs: Box::leak(packed.into_boxed_slice()) }
}

/// A bilinear map in the text form of `vectors.py --fit` (integers in
/// 2^10, row-major, whitespace-separated); `-`: none (feature off). Leaked.
fn load_bilinear(path: &str) -> &'static [i32] {
    if path == "-" {
        return &[];
    }
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    Box::leak(text.split_whitespace().map(|x| x.parse::<i32>().unwrap()).collect::<Vec<_>>().into_boxed_slice())
}

/// A candidate word-vector table (`vectors.py --table --out`): `<prefix>.words`
/// (one stem a line, sorted) and `<prefix>.bin` (their `i8` vectors, the
/// width the file's length says), with `bilinear` its maps. Leaked.
fn load_vectors(prefix: &str, bilinear: &'static [i32]) -> Vectors<'static> {
    let words = std::fs::read_to_string(format!("{prefix}.words")).unwrap_or_else(|e| panic!("{prefix}.words: {e}"));
    let words: Vec<&'static str> = words.lines().map(|w| &*Box::leak(w.to_string().into_boxed_str())).collect();
    let vecs = std::fs::read(format!("{prefix}.bin")).unwrap_or_else(|e| panic!("{prefix}.bin: {e}"));
    assert!(!words.is_empty() && vecs.len() % words.len() == 0, "{prefix}: {} bytes for {} words", vecs.len(), words.len());
    let dims = vecs.len() / words.len();
    let v = Vectors::from_parts(Box::leak(words.into_boxed_slice()), Box::leak(vecs.into_boxed_slice()), dims, bilinear);
    assert!(v.is_on(), "{prefix}: table and maps do not fit ({dims} dims)");
    v
}

#[test]
#[ignore = "evaluates the tables of $SEARCH_TRAIN_PLAN; run by eval/search/model/train.py"]
fn evaluate() {
    // Each plan line: `label<TAB>table file or "-"<TAB>catalog,catalog,…`
    // (`dev` as a catalog: every development catalog), optionally
    // `<TAB>bilinear map file` (the dense feature's B for that label,
    // `vectors.py --fit`; absent: the shipped one; `-`: feature off),
    // optionally `<TAB>word-vector table prefix` (a candidate table those
    // maps were fitted for, `load_vectors`; absent: the shipped table).
    let plan = std::fs::read_to_string(std::env::var("SEARCH_TRAIN_PLAN").expect("SEARCH_TRAIN_PLAN")).unwrap();
    let queries = all_queries();
    // With $SEARCH_TRAIN_FEATURES, every query's features per matched tool
    // too (the script fits the feature weights on them).
    let features_out = std::env::var("SEARCH_TRAIN_FEATURES").ok();
    let mut feature_lines = Vec::new();
    let mut sessions: BTreeMap<String, (Session, SearchIndex)> = BTreeMap::new();
    for line in plan.lines().filter(|l| !l.trim().is_empty()) {
        let mut f = line.split('\t');
        let (label, table, cats) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap_or(""));
        let table = if table == "-" { Expansions::none() } else { load_table(table) };
        let bilinear = f.next().map(load_bilinear);
        let vectors = f.next().map(|p| load_vectors(p, bilinear.unwrap_or(&[])));
        let wanted: Vec<&str> = cats.split(',').collect();
        let (mut n, mut top1, mut top3, mut rr) = (0u32, 0u32, 0u32, 0f64);
        for (catalog, set, qs) in &queries {
            if !(wanted.contains(&catalog.as_str()) || (*set == "dev" && wanted.contains(&"dev"))) {
                continue;
            }
            let (s, idx) = sessions.entry(format!("{set}/{catalog}")).or_insert_with(|| {
                let s = Session::open(&catalog_path(set, catalog));
                let idx = s.index();
                (s, idx)
            });
            let mut idx = idx.clone().with_expansions(table);
            if let Some(v) = vectors {
                idx = idx.with_vectors(v);
            } else if let Some(b) = bilinear {
                idx = idx.with_bilinear(b);
            }
            for q in qs {
                let want = s.expected(&q.expect);
                let hits = idx.search(&q.text, 10);
                let rank = hits.iter().position(|h| want.contains(&h.index));
                n += 1;
                top1 += u32::from(rank == Some(0));
                top3 += u32::from(rank.is_some_and(|r| r < 3));
                rr += rank.map_or(0.0, |r| 1.0 / (r + 1) as f64);
                if features_out.is_some() {
                    let feats: Vec<String> = idx
                        .features(&q.text)
                        .iter()
                        .map(|(d, f)| format!("{d}:{}", f.iter().map(u64::to_string).collect::<Vec<_>>().join(",")))
                        .collect();
                    let want: Vec<String> = want.iter().map(usize::to_string).collect();
                    feature_lines.push(format!("{label}\t{catalog}\t{}\t{}\t{}", q.class, want.join(","), feats.join(";")));
                }
            }
        }
        println!("RESULT\t{label}\t{n}\t{top1}\t{top3}\t{rr:.3}");
    }
    if let Some(path) = features_out {
        std::fs::write(path, feature_lines.join("\n") + "\n").unwrap();
    }
}

#[test]
#[ignore = "stems the words of $SEARCH_TRAIN_WORDS into $SEARCH_TRAIN_STEMS; run by eval/search/model/vectors.py"]
fn stems() {
    // One word a line in, `word<TAB>stem` out (nothing after the tab for a
    // stop word): the word-vector table is keyed by the engine's own stems.
    let words = std::fs::read_to_string(std::env::var("SEARCH_TRAIN_WORDS").expect("SEARCH_TRAIN_WORDS")).unwrap();
    let out: Vec<String> = words.lines().map(|w| format!("{w}\t{}", terms(w).join(" "))).collect();
    std::fs::write(std::env::var("SEARCH_TRAIN_STEMS").expect("SEARCH_TRAIN_STEMS"), out.join("\n") + "\n").unwrap();
}
