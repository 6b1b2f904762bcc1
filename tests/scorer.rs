//! The engine's learned scorer gives every string and every tool the score
//! the Python specification (`eval/poisoning/model/scorer.py`) gives it, with
//! the same model file: the expected values are written by the Python script,
//! never by the Rust code.
//!
//! `testdata/scorer/expected-sample.jsonl` is a committed sample (development
//! items, hard benign tools and real tools; regenerate it with
//! `python3 eval/poisoning/model/scorer.py --expect SET_DIR testdata/scorer/expected-sample.jsonl --sample`
//! after a retraining). The evaluation runner (`tests/poisoning_eval.rs`)
//! checks the whole set the same way.

use mcp_guard::json::{parse, ParseOptions, Value};
use mcp_guard::poison::scorer;

/// Compares every line of an expected-scores file; returns the mismatches.
pub fn mismatches(expected: &str) -> (usize, Vec<String>) {
    let mut bad = Vec::new();
    let mut n = 0;
    for line in expected.lines() {
        let v: serde_json::Value = serde_json::from_str(line).expect("one JSON value per line");
        let want = v["score"].as_i64().map(|s| s as i32);
        n += 1;
        if let Some(lines) = v.get("other_script_lines") {
            let got: serde_json::Value = scorer::other_script_lines().into_iter().map(|(k, l)| (k.to_string(), serde_json::json!(l))).collect();
            if &got != lines {
                bad.push(format!("other-script lines: engine {got}, python {lines}"));
            }
            continue;
        }
        if let Some(text) = v["text"].as_str() {
            let field = v["field"].as_str().expect("a field");
            let got = scorer::score_string(field, text);
            if got != want {
                bad.push(format!("{field} {text:?}: engine {got:?}, python {want:?}"));
            }
        } else {
            let raw = serde_json::to_string(&v["tool"]).unwrap();
            let Value::Object(tool) = parse(&raw, ParseOptions::default()).expect("a tool").value else {
                panic!("a tool is an object")
            };
            let scored = scorer::score_tool(&tool, &[], &mut scorer::Scratch::default());
            let got = scored.as_ref().map(|t| t.score);
            if got != want {
                bad.push(format!("tool {:?}: engine {got:?}, python {want:?}", v["tool"]["name"]));
            }
            // The best property or definition name's score (`name_reading`).
            let want = v["name"].as_i64().map(|s| s as i32);
            let got = scored.as_ref().and_then(|t| t.name_score());
            if got != want {
                bad.push(format!("tool {:?}, its best name: engine {got:?}, python {want:?}", v["tool"]["name"]));
            }
            // [margin over the script's line, score] of the best unit.
            let want = v["other_script"].as_array().map(|a| (a[0].as_i64().unwrap(), a[1].as_i64().unwrap() as i32));
            let got = scorer::other_script(&tool, &[], None, &mut scorer::Scratch::default()).best.map(|t| (t.margin().unwrap(), t.score));
            if got != want {
                bad.push(format!("tool {:?}, a sentence in another script: engine {got:?}, python {want:?}", v["tool"]["name"]));
            }
        }
    }
    (n, bad)
}

#[test]
fn engine_scores_equal_the_python_specification_on_the_committed_sample() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/scorer/expected-sample.jsonl");
    let (n, bad) = mismatches(&std::fs::read_to_string(path).unwrap());
    assert!(n > 500, "the sample has {n} lines");
    assert!(bad.is_empty(), "{} of {n} differ:\n{}", bad.len(), bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}

/// The whole evaluation set and every real catalog of `testdata/` (about
/// 20,000 distinct strings): the Python script writes the expected scores.
///
/// ```sh
/// cargo test --release --test scorer -- --ignored
/// ```
#[test]
#[ignore = "runs the Python generator and scorer over the whole set (~1 min)"]
fn engine_scores_equal_the_python_specification_on_the_whole_set() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scorer-equivalence");
    let run = |args: &[&std::ffi::OsStr]| {
        let ok = std::process::Command::new("python3").args(args).status().expect("python3 runs").success();
        assert!(ok, "python3 {args:?} failed");
    };
    run(&[root.join("eval/poisoning/generate.py").as_os_str(), "--out".as_ref(), dir.as_os_str(), "--check".as_ref()]);
    let expected = dir.join("expected-scores.jsonl");
    run(&[root.join("eval/poisoning/model/scorer.py").as_os_str(), "--expect".as_ref(), dir.as_os_str(), expected.as_os_str()]);
    let (n, bad) = mismatches(&std::fs::read_to_string(&expected).unwrap());
    assert!(n > 10_000, "only {n} lines");
    assert!(bad.is_empty(), "{} of {n} differ:\n{}", bad.len(), bad.iter().take(20).cloned().collect::<Vec<_>>().join("\n"));
}
