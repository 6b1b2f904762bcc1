//! The exported world: what a host sees, and that it matches the engine.

mod common;

use common::{instance, wasm_tools, HOST};
use mcp_guard_host::{dialect_id, dialect_to_native, wasm_path, wit_dialect_cases, wit_finding_kind_cases, DIALECTS};

/// The component must import nothing: no WASI, no clock, no I/O. Anything
/// imported would be an ambient capability a host has to grant.
#[test]
fn component_imports_nothing() {
    let path = wasm_path();
    let out = wasm_tools()
        .arg("component")
        .arg("wit")
        .arg(&path)
        .output()
        .expect("run wasm-tools (scripts/build-component.sh installs it)");
    assert!(out.status.success(), "wasm-tools component wit failed: {}", String::from_utf8_lossy(&out.stderr));
    let wit = String::from_utf8(out.stdout).expect("utf-8 WIT");
    let world: Vec<&str> = wit
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("import ") || l.starts_with("export "))
        .collect();
    assert!(world.iter().all(|l| !l.starts_with("import ")), "the component imports something: {world:#?}");
    assert_eq!(
        world,
        [
            "export mcp-guard:engine/types@0.1.0;",
            "export mcp-guard:engine/sanitize@0.1.0;",
            "export mcp-guard:engine/schema@0.1.0;",
            "export mcp-guard:engine/pinning@0.1.0;",
            "export mcp-guard:engine/discovery@0.1.0;",
            "export mcp-guard:engine/mediation@0.1.0;",
        ],
        "exported world changed"
    );
}

/// Instantiating with an empty linker also proves there is nothing to import.
#[test]
fn instantiates_with_an_empty_linker() {
    let mut g = instance();
    assert_eq!(g.engine_version().unwrap(), mcp_guard::ENGINE_VERSION);
}

/// `enum finding-kind` lists exactly the engine's `FindingKind::ALL` ids,
/// in order: a kind the engine grows must be added to the WIT too (else the
/// component refuses catalogs that trigger it with `error.other`).
#[test]
fn wit_finding_kinds_mirror_the_engine() {
    let wit = wit_finding_kind_cases().unwrap();
    let engine: Vec<&str> = mcp_guard::FindingKind::ALL.iter().map(|k| k.id()).collect();
    let missing: Vec<&&str> = engine.iter().filter(|id| !wit.iter().any(|w| w == *id)).collect();
    let extra: Vec<&String> = wit.iter().filter(|w| !engine.contains(&w.as_str())).collect();
    assert!(missing.is_empty() && extra.is_empty(), "WIT finding-kind vs engine: missing {missing:?}, extra {extra:?}");
    assert_eq!(wit, engine, "same ids, different order");
}

/// `enum dialect` lists exactly the engine's `Dialect` ids, in order, and
/// every generated case converts to the engine's dialect of the same id.
#[test]
fn wit_dialects_mirror_the_engine() {
    let wit = wit_dialect_cases().unwrap();
    let generated: Vec<String> = DIALECTS.iter().map(|d| dialect_id(*d)).collect();
    assert_eq!(wit, generated, "DIALECTS vs wit/types.wit");
    let engine: Vec<&str> = DIALECTS.iter().map(|d| dialect_to_native(*d).unwrap().id()).collect();
    assert_eq!(engine, ["none", "gemini", "openai-strict", "anthropic", "portable"]);
    for d in DIALECTS {
        assert_eq!(mcp_guard_host::dialect_from_native(dialect_to_native(d).unwrap()), d);
    }
}

/// The component is compiled once; instances are cheap and independent.
#[test]
fn instances_are_independent() {
    let mut a = HOST.instantiate(Default::default()).unwrap();
    let mut b = HOST.instantiate(Default::default()).unwrap();
    let pa = a.policy("{}").unwrap().unwrap();
    let pb = b.policy(r#"{"preset":"strict"}"#).unwrap().unwrap();
    let cat = r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#;
    let oa = a.sanitize(&pa, cat, &mcp_guard_host::default_options()).unwrap().unwrap();
    let ob = b.sanitize(&pb, cat, &mcp_guard_host::default_options()).unwrap().unwrap();
    assert_eq!(oa.catalog, cat);
    assert_eq!(ob.catalog, cat);
    a.drop_policy(pa).unwrap();
    b.drop_policy(pb).unwrap();
}
