//! The shared conformance suite (`conformance/cases/*/`), run through the
//! component in wasmtime. The same files drive the native Rust tests and the
//! other hosts; this runner only translates.
//!
//! A case directory holds `input.json`, optional `policy.json`, optional
//! `options.json` (`{"server": ..., "foreign_names": [...]}`) and
//! `expected.json`:
//! `{"catalog": <JSON>, "findings": [{kind, severity, tool, tool_index, pointer, action}],
//!   "hidden": [{index, name, reason}], "error": null | "<error kind>"}`.
//!
//! With no cases the test passes and says so, unless
//! `MCP_GUARD_REQUIRE_CONFORMANCE=1` (CI), where an empty suite fails.

mod common;

use std::path::{Path, PathBuf};

use common::{instance, workspace};
use mcp_guard_host::{error_kind, to_native_outcome, GuardInstance, SanitizeOptions};
use serde_json::{json, Value};

fn cases_dir() -> PathBuf {
    workspace().join("conformance/cases")
}

fn cases() -> Vec<PathBuf> {
    let Ok(rd) = std::fs::read_dir(cases_dir()) else { return Vec::new() };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.join("input.json").is_file()).collect();
    v.sort();
    v
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn read_json(p: &Path) -> Value {
    serde_json::from_str(&read(p)).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

fn options(dir: &Path) -> Result<SanitizeOptions, String> {
    let p = dir.join("options.json");
    if !p.is_file() {
        return Ok(mcp_guard_host::default_options());
    }
    let v = read_json(&p);
    let server = match v.get("server") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => return Err(format!("options.json: server must be a string, not {other}")),
    };
    let foreign_names = match v.get("foreign_names") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| x.as_str().map(str::to_string).ok_or_else(|| format!("options.json: foreign_names entry {x}")))
            .collect::<Result<_, _>>()?,
        Some(other) => return Err(format!("options.json: foreign_names must be an array, not {other}")),
    };
    Ok(SanitizeOptions { server, foreign_names })
}

/// Runs one case; `Err` explains the first mismatch.
fn run_case(g: &mut GuardInstance, dir: &Path) -> Result<(), String> {
    let input = read(&dir.join("input.json"));
    let policy = if dir.join("policy.json").is_file() { read(&dir.join("policy.json")) } else { "{}".to_string() };
    let opts = options(dir)?;
    let expected = read_json(&dir.join("expected.json"));
    let result = g.sanitize_once(&policy, &input, &opts).map_err(|e| format!("trapped: {e:#}"))?;

    let want_error = expected.get("error").and_then(Value::as_str);
    let out = match (want_error, result) {
        (Some(want), Err(e)) => {
            return if error_kind(&e) == want {
                Ok(())
            } else {
                Err(format!("expected error {want}, got {} ({e:?})", error_kind(&e)))
            }
        }
        (Some(want), Ok(_)) => return Err(format!("expected error {want}, got an outcome")),
        (None, Err(e)) => return Err(format!("unexpected error {}: {e:?}", error_kind(&e))),
        (None, Ok(out)) => out,
    };
    // Enum ids via the engine's own `id()`: the WIT cases must convert back.
    let out = to_native_outcome(out)?;

    let catalog: Value = serde_json::from_str(&out.catalog).map_err(|e| format!("component catalog is not JSON: {e}"))?;
    if let Some(want) = expected.get("catalog") {
        if *want != catalog {
            return Err(format!("catalog differs:\n  expected {want}\n  got      {catalog}"));
        }
    }
    if let Some(want) = expected.get("findings") {
        let got: Vec<Value> = out
            .findings
            .iter()
            .map(|f| {
                json!({
                    "kind": f.kind.id(),
                    "severity": f.severity.id(),
                    "tool": f.tool,
                    "tool_index": f.tool_index,
                    "pointer": f.pointer,
                    "action": f.action.id(),
                })
            })
            .collect();
        compare_list("findings", want, &got)?;
    }
    if let Some(want) = expected.get("hidden") {
        let got: Vec<Value> = out
            .hidden
            .iter()
            .map(|h| json!({"index": h.index, "name": h.name, "reason": h.reason.id()}))
            .collect();
        compare_list("hidden", want, &got)?;
    }
    Ok(())
}

/// Compares expected entries with actual ones on the keys the expected entry
/// names (so a case may leave out, e.g., `severity`).
fn compare_list(what: &str, want: &Value, got: &[Value]) -> Result<(), String> {
    let want = want.as_array().ok_or_else(|| format!("expected.json: {what} must be an array"))?;
    let project = |g: &Value, w: &Value| -> Value {
        match w.as_object() {
            Some(keys) => Value::Object(keys.keys().map(|k| (k.clone(), g.get(k).cloned().unwrap_or(Value::Null))).collect()),
            None => g.clone(),
        }
    };
    if want.len() != got.len() {
        return Err(format!(
            "{what}: expected {} entries, got {}:\n  expected {}\n  got      {}",
            want.len(),
            got.len(),
            Value::Array(want.clone()),
            Value::Array(got.to_vec())
        ));
    }
    for (i, (w, g)) in want.iter().zip(got).enumerate() {
        let g = project(g, w);
        if *w != g {
            return Err(format!("{what}[{i}]:\n  expected {w}\n  got      {g}"));
        }
    }
    Ok(())
}

#[test]
fn conformance_suite_through_the_component() {
    let cases = cases();
    let required = std::env::var("MCP_GUARD_REQUIRE_CONFORMANCE").is_ok_and(|v| v == "1");
    if cases.is_empty() {
        assert!(!required, "MCP_GUARD_REQUIRE_CONFORMANCE=1 but {} has no cases", cases_dir().display());
        eprintln!("conformance: found 0 cases in {} (set MCP_GUARD_REQUIRE_CONFORMANCE=1 to require them)", cases_dir().display());
        return;
    }
    let mut g = instance();
    let mut failures = Vec::new();
    for dir in &cases {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        if let Err(why) = run_case(&mut g, dir) {
            if why.starts_with("trapped") {
                g = instance(); // a trap poisons the instance
            }
            failures.push(format!("{name}: {why}"));
        }
    }
    eprintln!("conformance: found {} cases, {} passed, {} failed", cases.len(), cases.len() - failures.len(), failures.len());
    assert!(failures.is_empty(), "{} of {} conformance cases failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
