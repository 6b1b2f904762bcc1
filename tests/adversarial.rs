//! Every file in `testdata/adversarial` is handled as its
//! `expectations.jsonl` says, with the default policy and no panic.
//!
//! Rows the engine cannot satisfy *yet* are listed in `PENDING` with the issue
//! that will handle them; rows where the engine deliberately does something
//! stricter than the expectation are in `STRICTER`, each with the reason. A
//! pending row that starts passing makes the test fail, so the list is kept
//! honest.

use mcp_guard::json::{self, Value};
use mcp_guard::pinning;
use mcp_guard::{Action, FindingKind, Outcome, Policy, SanitizeOptions, ToolStatus};
use std::path::PathBuf;

#[path = "../testdata/testdata.rs"]
mod testdata;

fn corpus() -> PathBuf {
    testdata::adversarial()
}

/// (file prefix, tool index, why it is pending).
const PENDING: &[(&str, Option<u32>, &str)] = &[];

/// (file, index, what we do instead and why).
const STRICTER: &[(&str, u32, &str)] = &[(
    "03-invisible-and-bidi-characters.json",
    13,
    "schema_invisible also has a zero-width space in a property *name*; names are sent back to the \
     server and are never rewritten, so the tool is hidden instead of stripped (unsafe-value)",
)];

struct Row {
    file: String,
    tool: String,
    index: Option<u32>,
    expect: String,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(corpus().join("expectations.jsonl")).expect("expectations.jsonl");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v = json::parse(l, Default::default()).unwrap().value;
            let o = v.as_object().unwrap();
            Row {
                file: o.get("file").and_then(Value::as_str).unwrap().to_string(),
                tool: o.get("tool").and_then(Value::as_str).unwrap().to_string(),
                index: match o.get("index") {
                    Some(Value::Number(n)) => n.as_u64().map(|x| x as u32),
                    _ => None,
                },
                expect: o.get("expect").and_then(Value::as_str).unwrap().to_string(),
            }
        })
        .collect()
}

fn has(out: &Outcome, index: u32, pred: impl Fn(&mcp_guard::Finding) -> bool) -> bool {
    out.findings.iter().any(|f| f.tool_index == Some(index) && pred(f))
}

fn status(out: &Outcome, index: u32) -> ToolStatus {
    out.tools.iter().find(|t| t.index == index).map(|t| t.status).expect("tool report")
}

/// Checks one per-tool row. Returns Err(description) if unmet.
fn check_tool(out: &Outcome, i: u32, expect: &str) -> Result<(), String> {
    let hidden = status(out, i) == ToolStatus::Hidden;
    let changed = |a: &[Action]| has(out, i, |f| a.contains(&f.action));
    let flagged = has(out, i, |f| f.action == Action::Flagged);
    let at = |suffix: &str| has(out, i, |f| f.action == Action::Removed && f.pointer.starts_with(&format!("/tools/{i}/{suffix}")));
    let ok = match expect {
        "keep" => !hidden && !flagged && !has(out, i, |f| f.severity >= mcp_guard::Severity::Medium),
        "keep-safely" => !hidden,
        "normalize" => !hidden && changed(&[Action::Rewritten, Action::Removed]),
        // Line separators are "stripped" by rewriting them to `\n`.
        "strip-and-flag" => !hidden && changed(&[Action::Removed, Action::Rewritten]),
        // Reported to the user: a flag, or a change reported at medium or above
        // (a contradiction in hints is reported *and* resolved toward destructive).
        "flag" => !hidden && (flagged || has(out, i, |f| f.severity >= mcp_guard::Severity::Medium)),
        "flag-or-reject" => hidden || flagged,
        "reject" | "reject-duplicates" => hidden,
        "truncate-or-reject" => {
            hidden
                || has(out, i, |f| {
                    f.action == Action::Truncated || (f.kind == FindingKind::WhitespaceNormalized && f.action == Action::Rewritten)
                })
        }
        "keep-or-truncate" => !hidden,
        "keep-or-reject" => true,
        "normalize-or-reject" | "reject-or-normalize" => hidden || changed(&[Action::Rewritten]),
        "reject-or-drop-field" | "strip-or-reject" => hidden || changed(&[Action::Removed]),
        "reject-or-drop-outputSchema" => hidden || at("outputSchema"),
        "reject-or-drop-pattern" => hidden || has(out, i, |f| f.kind == FindingKind::PatternDropped),
        "drop-icon" => !hidden && at("icons"),
        "drop-field" => !hidden && changed(&[Action::Removed]),
        "drop-hints" => !hidden && at("annotations"),
        "drop-meta-or-flag" => !hidden && (at("_meta") || flagged),
        other => return Err(format!("unknown expectation {other:?}")),
    };
    if ok {
        Ok(())
    } else {
        let fs: Vec<String> = out
            .findings
            .iter()
            .filter(|f| f.tool_index == Some(i))
            .map(|f| format!("{}/{}@{}", f.kind, f.action, f.pointer))
            .collect();
        Err(format!("status {:?}, findings {fs:?}", status(out, i)))
    }
}

#[test]
fn adversarial_corpus_is_handled_as_expected() {
    let policy = Policy::default();
    let mut failures = Vec::new();
    let mut checked = 0;
    let mut pending_passing = Vec::new();
    let rows = rows();
    for row in &rows {
        let path = corpus().join(&row.file);
        let Ok(text) = std::fs::read_to_string(&path) else {
            // Some rows name files kept outside shared/ (used to check the work).
            continue;
        };
        let result = mcp_guard::sanitize(&policy, &text, &SanitizeOptions::default());
        let verdict: Result<(), String> = match (row.expect.as_str(), &result) {
            ("reject-catalog", Err(_)) => Ok(()),
            ("reject-catalog", Ok(_)) => Err("catalog accepted".into()),
            (_, Err(e)) => Err(format!("catalog refused: {e}")),
            ("keep-tools-drop-extras", Ok(out)) => {
                let dropped = out.findings.iter().any(|f| f.tool.is_none() && f.action == Action::Removed);
                let kept = out.tools.iter().all(|t| t.status != ToolStatus::Hidden);
                let doc = json::parse(&out.catalog, Default::default()).unwrap().value;
                let keys: Vec<&str> = doc.as_object().unwrap().keys().map(|k| k.as_str()).collect();
                // The protocol's own result fields (MCP 2026-07-28) stay,
                // type-checked; everything else at the top level goes.
                let protocol = ["tools", "nextCursor", "resultType", "ttlMs", "cacheScope", "_meta"];
                if dropped && kept && keys.iter().all(|k| protocol.contains(k)) {
                    Ok(())
                } else {
                    Err(format!("keys {keys:?}"))
                }
            }
            ("flag-change", Ok(_)) => check_change(&row.file, &text, row.index.unwrap_or(0)),
            (expect, Ok(out)) => match row.index {
                Some(i) => check_tool(out, i, expect),
                None if row.tool.starts_with("bulk_") => out
                    .tools
                    .iter()
                    .filter(|t| t.name.as_deref().is_some_and(|n| n.starts_with("bulk_")))
                    .try_for_each(|t| check_tool(out, t.index, expect)),
                None => out
                    .tools
                    .iter()
                    .filter(|t| t.name.is_none())
                    .try_for_each(|t| check_tool(out, t.index, expect)),
            },
        };
        checked += 1;
        let pending = PENDING.iter().any(|(f, i, _)| *f == row.file && *i == row.index);
        let stricter = STRICTER.iter().any(|(f, i, _)| *f == row.file && Some(*i) == row.index);
        match verdict {
            Ok(()) if pending => pending_passing.push(format!("{} #{:?} {}", row.file, row.index, row.tool)),
            Ok(()) => {}
            Err(_) if pending => {}
            Err(_) if stricter && matches!(row.index, Some(i) if result.as_ref().is_ok_and(|o| status(o, i) == ToolStatus::Hidden)) => {}
            Err(why) => failures.push(format!("{} #{:?} {} expect {}: {why}", row.file, row.index, row.tool, row.expect)),
        }
    }
    assert!(checked > 100, "only {checked} rows checked");
    assert!(failures.is_empty(), "{} rows not handled as expected:\n{}", failures.len(), failures.join("\n"));
    eprintln!("{checked} rows checked; pending rows now passing (remove from PENDING): {pending_passing:?}");
}

/// `flag-change`: pinned from the earlier snapshot (`…-v1.json` for
/// `…-v2.json`), the change must be caught in every pinning mode, strategy and
/// session action: reported under `warn`, the tool withheld under
/// `baseline_subset`, the listing refused under `error`.
fn check_change(file: &str, text: &str, index: u32) -> Result<(), String> {
    let earlier = std::fs::read_to_string(corpus().join(file.replace("-v2", "-v1"))).map_err(|e| format!("earlier snapshot: {e}"))?;
    let opts = SanitizeOptions::default();
    for pinning in [
        r#"{"mode":"warn"}"#,
        r#"{"mode":"block","block_strategy":"baseline_subset"}"#,
        r#"{"mode":"block","block_strategy":"error","block_error_session_action":"keep"}"#,
        r#"{"mode":"block","block_strategy":"error","block_error_session_action":"invalidate"}"#,
    ] {
        let policy = Policy::from_json(&format!(r#"{{"core":{{"tool_definition_pinning":{pinning}}}}}"#)).unwrap();
        let pinned = pinning::pin(&policy, &earlier, &opts).map_err(|e| e.to_string())?;
        let c = pinning::compare(&policy, &pinned.baseline, text, &opts).map_err(|e| e.to_string())?;
        let caught = c.drift.iter().any(|d| d.kind == pinning::DriftKind::Changed && d.tool_index == Some(index));
        let finding = has(&c.outcome, index, |f| f.kind == FindingKind::DriftChanged);
        let enforced = match &c.decision {
            pinning::Decision::Serve(cat) if pinning.contains("warn") => cat.contains("[mcp-guard: this tool changed"),
            pinning::Decision::Serve(cat) => !cat.contains("get_stock_price") && pinning.contains("baseline_subset"),
            pinning::Decision::Refuse { invalidate, .. } => *invalidate == pinning.contains("invalidate"),
        };
        if !(caught && finding && enforced) {
            return Err(format!("{pinning}: caught {caught}, finding {finding}, enforced {enforced}"));
        }
    }
    Ok(())
}

#[test]
fn parser_bombs_fail_cleanly() {
    // 06b: 3,000 nested arrays inside a default: a typed error, never a stack overflow.
    let text = std::fs::read_to_string(corpus().join("06b-deep-nesting-parser-limit.json")).unwrap();
    let err = mcp_guard::sanitize(&Policy::default(), &text, &SanitizeOptions::default()).unwrap_err();
    assert_eq!(err.kind(), "too-deep");
}
