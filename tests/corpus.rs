//! Real catalogs (`testdata/catalogs`) through the `default` preset:
//! no tool hidden, and the findings per catalog by kind match the reviewed
//! snapshot `tests/golden/corpus-findings.txt` (regenerate with
//! `UPDATE_GOLDEN=1 cargo test --test corpus`, then review the diff: every
//! kind there must be one we would defend to that server's author).
//! Also: sanitizing twice changes nothing.

use mcp_guard::{Action, Policy, SanitizeOptions};
use std::collections::BTreeMap;
use std::path::PathBuf;

mod common;
use common::real_catalogs as catalogs;

fn golden_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/corpus-findings.txt")
}

#[test]
fn real_catalogs_keep_every_tool_and_findings_match_the_reviewed_snapshot() {
    let policy = Policy::default();
    let mut report = String::new();
    for (name, text) in catalogs() {
        let out = mcp_guard::sanitize(&policy, &text, &SanitizeOptions::default())
            .unwrap_or_else(|e| panic!("{name}: refused: {e}"));
        assert!(out.hidden.is_empty(), "{name}: hidden {:?}", out.hidden);
        let mut by: BTreeMap<String, usize> = BTreeMap::new();
        for f in &out.findings {
            // The last pointer token says *what* was touched (`_meta`,
            // `x-fastmcp-wrap-result`, `description`), which is what a
            // reviewer needs to judge the finding.
            let what = f.pointer.rsplit('/').next().unwrap_or("");
            let what = if what.chars().all(|c| c.is_ascii_digit()) { "#" } else { what };
            *by.entry(format!("{} {} {what}", f.kind, f.action)).or_default() += 1;
        }
        report.push_str(&format!("{name}: {} tools\n", out.tools.len()));
        for (k, n) in by {
            report.push_str(&format!("  {k}: {n}\n"));
        }
    }
    let path = golden_path();
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &report).unwrap();
    }
    let golden = std::fs::read_to_string(&path).expect("golden snapshot; run with UPDATE_GOLDEN=1 and review");
    assert_eq!(report, golden, "findings per catalog changed; review and regenerate with UPDATE_GOLDEN=1");
}

#[test]
fn sanitizing_twice_changes_nothing() {
    for preset in ["default", "strict", "permissive"] {
        let policy = Policy::from_json(&format!(r#"{{"preset":"{preset}"}}"#)).unwrap();
        for (name, text) in catalogs() {
            let once = mcp_guard::sanitize(&policy, &text, &SanitizeOptions::default()).unwrap();
            let twice = mcp_guard::sanitize(&policy, &once.catalog, &SanitizeOptions::default()).unwrap();
            assert_eq!(once.catalog, twice.catalog, "{preset} {name}: not idempotent");
            let changes: Vec<_> = twice.findings.iter().filter(|f| f.action != Action::Flagged).collect();
            assert!(changes.is_empty(), "{preset} {name}: second pass changed {changes:?}");
        }
    }
}

#[test]
fn clean_catalog_output_is_the_input_minus_dropped_fields() {
    // A catalog that needs nothing comes out with the same content, keys in
    // the same order (deterministic and diff-friendly).
    let text = r#"{"tools":[{"name":"a","description":"x","inputSchema":{"type":"object","properties":{"q":{"type":"string","enum":["b","a"]}},"required":["q"]},"annotations":{"readOnlyHint":true}}],"nextCursor":"c2"}"#;
    let out = mcp_guard::sanitize(&Policy::default(), text, &SanitizeOptions::default()).unwrap();
    assert_eq!(out.catalog, text);
    assert!(out.findings.is_empty());
}
