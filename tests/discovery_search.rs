//! The `search_tools` ranker (issue #7): hand-written task queries over the
//! real catalogs of the shared corpus must find the right tool in the top 3
//! for at least 90% of them, plus the ranker's small contracts
//! (tokenization, stemming, ties, empty queries, summaries, exact scores).

mod common;

use mcp_guard::discovery::search::terms;
use mcp_guard::discovery::{summary, Expansions, Hit, SearchIndex};
use mcp_guard::json::{self, Object, ParseOptions, Value};
use mcp_guard::{Policy, SanitizeOptions};

/// The visible tools of a sanitized catalog (the ranker only ever sees what
/// the client would see).
fn sanitized_tools(text: &str) -> Vec<Object> {
    let out = mcp_guard::sanitize(&Policy::default(), text, &SanitizeOptions::default()).expect("sanitize");
    let v = json::parse(&out.catalog, ParseOptions::default()).expect("sanitized catalog parses").value;
    v.as_object()
        .and_then(|o| o.get("tools"))
        .and_then(Value::as_array)
        .expect("tools array")
        .iter()
        .filter_map(|t| t.as_object().cloned())
        .collect()
}

fn name(t: &Object) -> &str {
    t.get("name").and_then(Value::as_str).unwrap_or("")
}

fn tools_from(json_text: &str) -> Vec<Object> {
    let v = json::parse(json_text, ParseOptions::default()).unwrap().value;
    v.as_array().unwrap().iter().map(|t| t.as_object().unwrap().clone()).collect()
}

fn index(tools: &[Object]) -> SearchIndex {
    let refs: Vec<&Object> = tools.iter().collect();
    SearchIndex::build(&refs, &[])
}

#[test]
fn task_queries_find_the_right_tool_in_the_top_3() {
    let catalogs = common::real_catalogs();
    let fixture = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/discovery/queries.jsonl")).unwrap();
    let mut built: std::collections::BTreeMap<String, (Vec<Object>, SearchIndex)> = Default::default();
    let (mut total, mut top1, mut top3) = (0usize, 0usize, 0usize);
    let mut misses = Vec::new();
    for line in fixture.lines().filter(|l| !l.trim().is_empty()) {
        let q = json::parse(line, ParseOptions::default()).unwrap().value;
        let q = q.as_object().unwrap();
        let field = |k: &str| q.get(k).and_then(Value::as_str).unwrap().to_string();
        let (catalog, query, expect) = (field("catalog"), field("query"), field("expect"));
        let (tools, idx) = built.entry(catalog.clone()).or_insert_with(|| {
            let text = &catalogs.iter().find(|(n, _)| *n == catalog).unwrap_or_else(|| panic!("no catalog {catalog}")).1;
            let tools = sanitized_tools(text);
            let idx = index(&tools);
            (tools, idx)
        });
        assert!(tools.iter().any(|t| name(t) == expect), "{catalog}: no tool {expect}");
        let hits = idx.search(&query, 10);
        let names: Vec<&str> = hits.iter().map(|h| name(&tools[h.index])).collect();
        let rank = names.iter().position(|n| *n == expect);
        total += 1;
        if rank == Some(0) {
            top1 += 1;
        }
        if rank.is_some_and(|r| r < 3) {
            top3 += 1;
        } else {
            misses.push(format!(
                "  {catalog} ({} tools): {query:?} → expected {expect} (rank {}), got {:?}",
                tools.len(),
                rank.map_or("-".to_string(), |r| (r + 1).to_string()),
                &names[..names.len().min(3)]
            ));
        }
    }
    let catalogs_used = built.len();
    println!(
        "discovery search: {top3}/{total} in top 3 ({:.1}%), {top1}/{total} first ({:.1}%), over {catalogs_used} catalogs",
        100.0 * top3 as f64 / total as f64,
        100.0 * top1 as f64 / total as f64
    );
    for m in &misses {
        println!("{m}");
    }
    assert!(total >= 60 && catalogs_used >= 12);
    assert!(top3 * 10 >= total * 9, "top-3 hit rate below 90%: {top3}/{total}");
}

#[test]
fn camel_snake_and_kebab_names_give_the_same_terms() {
    let parts = vec!["get", "stock", "pric"];
    assert_eq!(terms("get_stock_price"), parts);
    assert_eq!(terms("get-stock-price"), parts);
    assert_eq!(terms("GET_STOCK_PRICE"), parts);
    // a camelCase run gives its parts, then the whole run (so `JavaScript`
    // meets `javascript`)
    assert_eq!(terms("getStockPrice"), vec!["get", "stock", "pric", "getstockpric"]);
    assert_eq!(terms("GetStockPrice"), vec!["get", "stock", "pric", "getstockpric"]);
    assert_eq!(terms("JavaScript"), vec!["java", "script", "javascript"]);
    // and every spelling finds every other
    let tools = tools_from(r#"[{"name":"getStockPrice"},{"name":"get_weather"},{"name":"run-java-script"},{"name":"eval_javascript"}]"#);
    let idx = index(&tools);
    for q in ["get_stock_price", "get-stock-price", "stock price", "GetStockPrice"] {
        assert_eq!(idx.search(q, 1)[0].index, 0, "{q}");
    }
    assert_eq!(idx.search("javascript", 1)[0].index, 3);
    // capital runs: the last capital before a lower-case letter starts a word
    assert_eq!(terms("parseHTMLDocument"), vec!["pars", "html", "document", "parsehtmldocument"]);
    // letter/digit runs are names, a capital after a digit starts a word
    assert_eq!(terms("list k8s ec2 s3Bucket"), vec!["list", "k8s", "ec2", "s3", "bucket", "s3bucket"]);
    // accents fold, other scripts pass through
    assert_eq!(terms("Café résumé"), vec!["caf", "resum"]);
    assert_eq!(terms("поиск"), vec!["поиск"]);
    // stop words go, including "tool"
    assert_eq!(terms("Use this tool to read the file"), vec!["read", "fil"]);
    assert!(terms("").is_empty());
    assert!(terms("  ---  ").is_empty());
}

#[test]
fn stemming_joins_plurals_and_verb_forms() {
    let same = |a: &str, b: &str| assert_eq!(terms(a), terms(b), "{a} vs {b}");
    same("files", "file");
    same("queries", "query");
    same("indexes", "index");
    same("matches", "match");
    same("creating", "create");
    same("created", "create");
    same("running", "run");
    same("stopped", "stop");
    same("listing", "lists");
    same("logs", "log");
    same("copied", "copy");
    same("billing", "bill");
    // endings that are not plurals stay
    assert_eq!(terms("status class analysis"), vec!["status", "class", "analysis"]);
    // short words are left alone
    assert_eq!(terms("sms aws vms"), vec!["sms", "aws", "vms"]);
}

#[test]
fn equal_scores_keep_catalog_order() {
    // Names without a meaning (no word vector): `alpha`, `beta`, `gamma`
    // would make the tools differ through the dense feature.
    let tools = tools_from(
        r#"[{"name":"zqa","description":"Send a message."},
            {"name":"zqb","description":"Send a message."},
            {"name":"zqc","description":"Send a message."}]"#,
    );
    let hits = index(&tools).search("message", 10);
    assert_eq!(hits.iter().map(|h| h.index).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert!(hits.windows(2).all(|w| w[0].score_milli == w[1].score_milli));
    // and the limit keeps the first ones
    assert_eq!(index(&tools).search("message", 2).iter().map(|h| h.index).collect::<Vec<_>>(), vec![0, 1]);
}

#[test]
fn empty_stop_word_or_unknown_queries_find_nothing() {
    let tools = tools_from(r#"[{"name":"read_file","description":"Read a file."}]"#);
    let idx = index(&tools);
    assert!(idx.search("", 10).is_empty());
    assert!(idx.search("   \n\t", 10).is_empty());
    assert!(idx.search("the a of to", 10).is_empty());
    assert!(idx.search("zebra", 10).is_empty());
    assert!(idx.search("read", 0).is_empty());
    assert!(SearchIndex::build(&[], &[]).search("read", 10).is_empty());
}

#[test]
fn synonyms_reach_tools_at_reduced_weight_and_policy_groups_extend_them() {
    let tools = tools_from(
        r#"[{"name":"fetch_invoice","description":"Fetch an invoice."},
            {"name":"get_invoice","description":"Get an invoice."}]"#,
    );
    let idx = index(&tools);
    // "get" matches get_invoice directly and fetch_invoice through the built-in group
    let hits = idx.search("get invoice", 10);
    assert_eq!(hits.iter().map(|h| h.index).collect::<Vec<_>>(), vec![1, 0]);
    assert!(hits[0].score_milli > hits[1].score_milli);
    // a word no synonym group, WordNet relation or learned expansion
    // links to the tools reaches nothing…
    assert!(idx.search("zorblax", 10).is_empty());
    // …until the policy adds a group
    let refs: Vec<&Object> = tools.iter().collect();
    let idx2 = SearchIndex::build(&refs, &[vec!["zorblax".into(), "invoice".into()]]);
    assert_eq!(idx2.search("zorblax", 10).len(), 2);
}

/// Fixed features for a tiny index, computed by hand, so a change to the
/// arithmetic (or a host that computes differently) shows up as a diff; the
/// score is their weighted sum (`search::WEIGHTS`, fitted by
/// `eval/search/model/train.py`). Learned expansions off
/// (`Expansions::none()`): their table is regenerated from data.
///
/// Tools: 0 `read_file` ("Read a file."), 1 `write_file` ("Write a file."),
/// 2 `list_directory` ("List a directory."). No titles, no schemas.
/// Terms after analysis — names: [read fil], [writ fil], [list directory];
/// leads and descriptions: the same words (`a` is a stop word).
/// Every field length is 2, the averages 2, so every length norm is 1.
/// Features: [query words, synonyms, learned, WordNet, name coverage], in
/// fixed point (1 = 65536).
///
/// Query "read": one tool has it (n = 1, N = 3):
///   idf = ln(1 + (3 − 1 + 0.5)/(1 + 0.5)) = ln(8/3) = 0.980829
///   tool 0: tf 1 in name (w 6), lead (w 2), description (w 1):
///     wtf = 6 + 2 + 1 = 9; saturated 9 · 2.2 / (9 + 1.2) = 1.941176
///     BM25F = 1.941176 · 0.980829 = 1.903962 → 124775
///   name coverage: `fil` is in 2 of 3 names (more than half), so only
///     `read` counts, and the query covers it: 2 · 1/1 = 2 → 131072.
///
/// Query "file": n = 2 → idf = ln(1 + 1.5/2.5) = ln(1.6) = 0.470004
///   tools 0 and 1 alike: 1.941176 · 0.470004 = 0.912360 → 59791; their
///   counted name words (`read`, `writ`) are not covered: no bonus (a tie:
///   catalog order). "file" also has the synonym "document"; no tool has it.
///
/// Query "save file": `save` is no word of any tool, but it is a synonym of
///   `write` (group write/save/store), at weight 0.5: tool 1 gets
///   0.5 · 1.941176 · 0.980829 = 0.951981 → 62387 as a synonym, plus 59791
///   for "file", plus name coverage 2 · 0.5/1 = 1 → 65536 (`writ` matched
///   through a synonym counts half); tool 0 only "file".
///
/// Fixed-point truncation (16 fractional bits) may take the last digit one
/// lower than the real-number value.
#[test]
fn scores_are_fixed_for_a_hand_computed_index() {
    let tools = tools_from(
        r#"[{"name":"read_file","description":"Read a file."},
            {"name":"write_file","description":"Write a file."},
            {"name":"list_directory","description":"List a directory."}]"#,
    );
    // the dense word-vector feature off: its values are the vector table's
    let idx = index(&tools).with_expansions(Expansions::none()).with_bilinear(&[]);
    assert_eq!(idx.features("read"), vec![(0, [124775, 0, 0, 0, 131072, 0, 0])]);
    assert_eq!(idx.features("file"), vec![(0, [59791, 0, 0, 0, 0, 0, 0]), (1, [59791, 0, 0, 0, 0, 0, 0])]);
    assert_eq!(idx.features("save file"), vec![(0, [59791, 0, 0, 0, 0, 0, 0]), (1, [59791, 62387, 0, 0, 65536, 0, 0])]);
    // the score is the weighted sum of the features, × 1000 in whole units
    let score = |f: [u64; 7]| {
        let s: u64 = f.iter().zip(mcp_guard::discovery::search::WEIGHTS).map(|(x, w)| x * w).sum::<u64>() / 16;
        s * 1000 / 65536
    };
    let hit = |index, score_milli| Hit { index, score_milli };
    assert_eq!(idx.search("read", 10), vec![hit(0, score([124775, 0, 0, 0, 131072, 0, 0]))]);
    assert_eq!(idx.search("file", 10), vec![hit(0, score([59791, 0, 0, 0, 0, 0, 0])), hit(1, score([59791, 0, 0, 0, 0, 0, 0]))]);
    assert_eq!(
        idx.search("save file", 10),
        vec![hit(1, score([59791, 62387, 0, 0, 65536, 0, 0])), hit(0, score([59791, 0, 0, 0, 0, 0, 0]))]
    );
    // deterministic: a rebuilt index gives the same answer
    assert_eq!(index(&tools).search("save file", 10), index(&tools).search("save file", 10));
}

#[test]
fn summary_takes_the_first_sentence_collapses_and_cuts() {
    assert_eq!(summary("Read a file. Then more.", 80), "Read a file.");
    assert_eq!(summary("Navigate to a URL", 80), "Navigate to a URL");
    assert_eq!(summary("First line\nsecond line.", 80), "First line");
    assert_eq!(summary("  Lots   of\tspace.  ", 80), "Lots of space.");
    // abbreviations, versions and list numbers do not end a sentence
    assert_eq!(summary("Fetch a page, e.g. a blog post. More.", 80), "Fetch a page, e.g. a blog post.");
    assert_eq!(summary("Uses API v1.2 only. More.", 80), "Uses API v1.2 only.");
    // a heading line is skipped, a list marker dropped
    assert_eq!(summary("    🎯 Purpose:\n      1. Retrieves a list of objects. 2. More", 80), "Retrieves a list of objects.");
    assert_eq!(summary("**PARAMETERS:**\n- Gets the price.", 80), "Gets the price.");
    // cut on a char boundary, "…" included in the budget
    assert_eq!(summary("Take a screenshot of the current page", 10), "Take a sc…");
    assert_eq!(summary("Écrire ünïcödé текст", 8), "Écrire…");
    assert_eq!(summary("abc", 0), "");
    assert_eq!(summary("", 10), "");
    assert!(summary(&"word ".repeat(100_000), 50).chars().count() <= 50);
}

#[test]
fn hostile_inputs_do_not_panic_and_stay_bounded() {
    let huge = "x".repeat(1_000_000);
    let camel = "aB".repeat(200_000);
    // eight levels of `properties`, the innermost described as "xyzzy" (a
    // word with no WordNet relation: `deepest` would reach the tool named
    // `deep` through its base form)
    let mut deep = r#"{"description":"xyzzy"}"#.to_string();
    for k in ["golf", "foxtrot", "echo", "delta", "charlie", "bravo", "alpha"] {
        deep = format!(r#"{{"properties":{{"{k}":{deep}}}}}"#);
    }
    let tools = tools_from(&format!(
        r#"[{{"name":"{huge}","description":"{camel}"}},
            {{"name":42,"title":[],"description":null,"inputSchema":"nope"}},
            {{"name":"deep","inputSchema":{deep}}}]"#
    ));
    let idx = index(&tools);
    let _ = idx.search(&"query ".repeat(100_000), usize::MAX);
    let _ = idx.search("\u{0}\u{202e}\u{fffd}", 10);
    // property names are indexed, below the depth bound
    assert!(idx.search("alpha", 10).iter().any(|h| h.index == 2));
    assert!(idx.search("xyzzy", 10).is_empty());
}

/// Build + one query over the merged real corpus; prints the timing
/// (BENCHMARKS.md records the release figure).
#[test]
fn bench_build_and_query_shared_real_tools() {
    let text = std::fs::read_to_string(common::testdata::bench_catalog()).expect("testdata/bench");
    let v = json::parse(&text, ParseOptions::default()).unwrap().value;
    let tools: Vec<Object> = v
        .as_object()
        .and_then(|o| o.get("tools"))
        .and_then(Value::as_array)
        .unwrap()
        .iter()
        .filter_map(|t| t.as_object().cloned())
        .collect();
    let refs: Vec<&Object> = tools.iter().collect();
    let runs = 5;
    let q = "take a screenshot of the web page";
    // best of `runs`: build, the first query on the fresh index, the same
    // query again, and the first query of an index without the learned
    // expansions (what they cost)
    let mut t = [std::time::Duration::MAX; 4];
    for _ in 0..runs {
        let t0 = std::time::Instant::now();
        let idx = SearchIndex::build(&refs, &[]);
        let t1 = std::time::Instant::now();
        let hits = idx.search(q, 10);
        let t2 = std::time::Instant::now();
        assert!(!hits.is_empty());
        assert_eq!(idx.search(q, 10), hits);
        let t3 = std::time::Instant::now();
        let plain = SearchIndex::build(&refs, &[]).with_expansions(Expansions::none());
        let t4 = std::time::Instant::now();
        assert!(!plain.search(q, 10).is_empty());
        let t5 = std::time::Instant::now();
        for (k, d) in [t1 - t0, t2 - t1, t3 - t2, t5 - t4].into_iter().enumerate() {
            t[k] = t[k].min(d);
        }
    }
    println!(
        "discovery search over {} tools: build {:?}, one query {:?}, again {:?}; without learned expansions one query {:?} (best of {runs})",
        tools.len(),
        t[0],
        t[1],
        t[2],
        t[3]
    );
}

/// A user's word that is not the tool's, not a synonym, not a learned
/// expansion and not a WordNet relation of it ("music" for a track, "storm"
/// for a forecast, "bill" a "client" for an invoice to a customer) still finds
/// the tool through the word vectors (`discovery::vectors`); without them the
/// first two find nothing and the third puts the wrong tool first. (With the
/// distilled vectors, weather adjectives — "sunny", "rainy" — land nearer the
/// song than the forecast; GloVe's put "sunny" with the forecast.)
#[test]
fn words_no_list_knows_find_the_tool_by_word_vectors() {
    let tools = tools_from(
        r#"[{"name":"get_forecast","description":"Weather forecast for a city."},
            {"name":"list_repos","description":"List the repositories of an organization."},
            {"name":"send_invoice","description":"Send an invoice to a customer."},
            {"name":"play_track","description":"Play a song on the speaker."}]"#,
    );
    let on = index(&tools);
    let off = index(&tools).with_bilinear(&[]);
    let first = |idx: &SearchIndex, q: &str| idx.search(q, 3).first().map(|h| h.index);
    assert_eq!(first(&on, "music"), Some(3));
    assert_eq!(first(&on, "storm"), Some(0));
    assert_eq!(first(&on, "bill the client"), Some(2));
    assert_eq!(first(&off, "music"), None);
    assert_eq!(first(&off, "storm"), None);
    assert_eq!(first(&off, "bill the client"), Some(1));
}

