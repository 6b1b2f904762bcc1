//! The shared conformance suite (`conformance/cases/<case>/`): the same files
//! are run by this test (native engine), by `host` (the component in
//! wasmtime), and by the Node and Python packages.
//!
//! A case is `input.json` (raw text, may be malformed on purpose), optional
//! `policy.json`, optional `options.json` (`{"server": .., "foreign_names": [..]}`)
//! and `expected.json`:
//! `{"error": null | "<error kind>", "catalog": <sanitized catalog>,
//!   "findings": [{kind, severity, tool, tool_index, pointer, action}],
//!   "hidden": [{index, name, reason}]}` — finding `detail` text is not API and
//! is not compared. `expected.json` files were generated with
//! `UPDATE_GOLDEN=1 cargo test --test conformance` and reviewed by hand.

use mcp_guard::json::{self, Object, Value};
use mcp_guard::{Policy, SanitizeOptions};
use std::path::{Path, PathBuf};

fn cases() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("conformance/cases");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.path()).filter(|p| p.is_dir()).collect();
    v.sort();
    v
}

fn opt_str(s: &Option<String>) -> Value {
    s.as_ref().map(|x| Value::str(x.clone())).unwrap_or(Value::Null)
}

fn num(n: u64) -> Value {
    Value::Number(json::Number::from_u64(n))
}

/// The comparable form of a run, as it is stored in `expected.json`.
fn actual(case: &Path) -> Value {
    let input = std::fs::read_to_string(case.join("input.json")).unwrap();
    let policy = match std::fs::read_to_string(case.join("policy.json")) {
        Ok(p) => Policy::from_json(&p).expect("case policy"),
        Err(_) => Policy::default(),
    };
    let mut opts = SanitizeOptions::default();
    if let Ok(o) = std::fs::read_to_string(case.join("options.json")) {
        let v = json::parse(&o, Default::default()).unwrap().value;
        let o = v.as_object().unwrap();
        opts.server = o.get("server").and_then(Value::as_str).map(str::to_string);
        if let Some(Value::Array(a)) = o.get("foreign_names") {
            opts.foreign_names = a.iter().filter_map(Value::as_str).map(str::to_string).collect();
        }
    }
    let mut out = Object::new();
    match mcp_guard::sanitize(&policy, &input, &opts) {
        Err(e) => {
            out.insert("error", Value::str(e.kind()));
            out.insert("catalog", Value::Null);
            out.insert("findings", Value::Array(vec![]));
            out.insert("hidden", Value::Array(vec![]));
        }
        Ok(o) => {
            out.insert("error", Value::Null);
            out.insert("catalog", json::parse(&o.catalog, Default::default()).unwrap().value);
            let findings = o
                .findings
                .iter()
                .map(|f| {
                    let mut m = Object::new();
                    m.insert("kind", Value::str(f.kind.id()));
                    m.insert("severity", Value::str(f.severity.id()));
                    m.insert("tool", opt_str(&f.tool));
                    m.insert("tool_index", f.tool_index.map(|i| num(i as u64)).unwrap_or(Value::Null));
                    m.insert("pointer", Value::str(f.pointer.clone()));
                    m.insert("action", Value::str(f.action.id()));
                    Value::Object(m)
                })
                .collect();
            out.insert("findings", Value::Array(findings));
            let hidden = o
                .hidden
                .iter()
                .map(|h| {
                    let mut m = Object::new();
                    m.insert("index", num(h.index as u64));
                    m.insert("name", opt_str(&h.name));
                    m.insert("reason", Value::str(h.reason.id()));
                    Value::Object(m)
                })
                .collect();
            out.insert("hidden", Value::Array(hidden));
        }
    }
    Value::Object(out)
}

#[test]
fn conformance_suite() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut failures = Vec::new();
    let cases = cases();
    assert!(cases.len() >= 20, "conformance cases missing");
    for case in &cases {
        let got = actual(case);
        let path = case.join("expected.json");
        if update {
            std::fs::write(&path, json::write_pretty(&got) + "\n").unwrap();
        }
        let want = json::parse(&std::fs::read_to_string(&path).expect("expected.json"), Default::default()).unwrap().value;
        if got != want {
            failures.push(format!("{}:\n  got  {}\n  want {}", case.display(), json::write_compact(&got), json::write_compact(&want)));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
