//! Parity: the component and the native engine give the same answer, byte
//! for byte, on every catalog of `testdata/`, real and adversarial,
//! under the default and the strict policy.

mod common;

use std::path::PathBuf;

use common::{instance, json_files, testdata};
use mcp_guard_host::{options_from_native, to_native, GuardInstance};

const POLICIES: &[&str] = &["{}", r#"{"preset":"strict"}"#];

fn corpus() -> Vec<PathBuf> {
    let mut files = json_files(&testdata::catalogs());
    files.extend(json_files(&testdata::adversarial()));
    assert!(files.len() > 20, "testdata not found under {}", testdata::dir().display());
    files
}

/// Runs one input both ways and explains the first difference.
fn check(g: &mut GuardInstance, label: &str, policy_json: &str, text: &str, opts: &mcp_guard::SanitizeOptions) {
    let native = mcp_guard::Policy::from_json(policy_json).and_then(|p| mcp_guard::sanitize(&p, text, opts));
    let raw = g
        .sanitize_once(policy_json, text, &options_from_native(opts))
        .unwrap_or_else(|e| panic!("{label}: the component trapped: {e:#}"));
    let wasm = to_native(raw).unwrap_or_else(|e| panic!("{label}: {e}"));
    match (&native, &wasm) {
        (Ok(n), Ok(w)) => {
            assert!(n.catalog == w.catalog, "{label}: catalog bytes differ");
            assert_eq!(n.findings.len(), w.findings.len(), "{label}: number of findings");
            for (i, (a, b)) in n.findings.iter().zip(&w.findings).enumerate() {
                assert_eq!(a.kind, b.kind, "{label}: finding {i} kind");
                assert_eq!(a.severity, b.severity, "{label}: finding {i} severity");
                assert_eq!(a.tool, b.tool, "{label}: finding {i} tool");
                assert_eq!(a.tool_index, b.tool_index, "{label}: finding {i} tool_index");
                assert_eq!(a.pointer, b.pointer, "{label}: finding {i} pointer");
                assert_eq!(a.action, b.action, "{label}: finding {i} action");
                assert_eq!(a.detail, b.detail, "{label}: finding {i} detail");
            }
            assert_eq!(n.hidden, w.hidden, "{label}: hidden tools");
            assert_eq!(n.tools, w.tools, "{label}: tool reports");
            assert_eq!(n.name_map, w.name_map, "{label}: name map");
            assert_eq!(n, w, "{label}: outcome");
        }
        (Err(n), Err(w)) => {
            assert_eq!(n.kind(), w.kind(), "{label}: error kind");
            assert_eq!(n, w, "{label}: error payload");
        }
        (Ok(_), Err(w)) => panic!("{label}: native succeeded, component failed with {} ({w})", w.kind()),
        (Err(n), Ok(_)) => panic!("{label}: native failed with {} ({n}), component succeeded", n.kind()),
    }
}

fn run_corpus(policy_json: &str) -> (usize, usize) {
    let mut g = instance();
    let (mut ok, mut err) = (0, 0);
    for path in corpus() {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let label = format!("{} under {policy_json}", path.file_name().unwrap().to_string_lossy());
        check(&mut g, &label, policy_json, &text, &Default::default());
        let native_ok = mcp_guard::Policy::from_json(policy_json)
            .and_then(|p| mcp_guard::sanitize(&p, &text, &Default::default()))
            .is_ok();
        if native_ok {
            ok += 1
        } else {
            err += 1
        }
    }
    eprintln!("parity {policy_json}: {ok} sanitized, {err} refused, all identical");
    (ok, err)
}

#[test]
fn corpus_parity_default_policy() {
    let (ok, _) = run_corpus(POLICIES[0]);
    assert!(ok > 20);
}

#[test]
fn corpus_parity_strict_policy() {
    let (ok, _) = run_corpus(POLICIES[1]);
    assert!(ok > 20);
}

/// Options cross the boundary: a server id (prefix, per-server overrides)
/// and foreign names (look-alike checks) change the answer the same way.
#[test]
fn corpus_parity_with_server_and_foreign_names() {
    let policy = r#"{
        "core": {"tool_names": {"server_prefix": true, "on_invalid_name": "sanitize"}},
        "servers": [{"id": "srv", "tool_description_policy": {"mode": "placeholder"}}]
    }"#;
    let opts = mcp_guard::SanitizeOptions {
        server: Some("srv".into()),
        foreign_names: vec!["read_file".into(), "search".into(), "srv__get_weather".into()],
    };
    let mut g = instance();
    for path in corpus() {
        let text = std::fs::read_to_string(&path).unwrap();
        let label = format!("{} with server srv", path.file_name().unwrap().to_string_lossy());
        check(&mut g, &label, policy, &text, &opts);
    }
}

/// The one policy instance is reused across catalogs (no per-call state leaks).
#[test]
fn one_policy_many_catalogs() {
    let mut g = instance();
    let p = g.policy("{}").unwrap().unwrap();
    let native = mcp_guard::Policy::default();
    for path in corpus().into_iter().take(12) {
        let text = std::fs::read_to_string(&path).unwrap();
        let w = to_native(g.sanitize(&p, &text, &mcp_guard_host::default_options()).unwrap()).unwrap();
        let n = mcp_guard::sanitize(&native, &text, &Default::default());
        assert_eq!(n, w, "{}", path.display());
    }
    g.drop_policy(p).unwrap();
}
