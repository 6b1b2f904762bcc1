//! Sandbox limits: a hostile catalog meets the store's memory limit or fuel
//! budget and ends in a typed host error (a trap), never a hang or a crash
//! of the host, and the host keeps serving with fresh instances.

mod common;

use std::time::{Duration, Instant};

use common::{instance, HOST};
use mcp_guard_host_tests::{default_options, to_native, HostError, Limits};
use wasmtime::Trap;

/// 2000 tools, each with a 1000-value `enum` (~12 MB of JSON, under the
/// default 16 MiB catalog limit): every limit the engine has is respected,
/// only the sheer volume is hostile.
fn schema_bomb() -> String {
    let values: Vec<String> = (0..1000).map(|i| format!("\"v{i:04}\"")).collect();
    let values = values.join(",");
    let tools: Vec<String> = (0..2000)
        .map(|t| {
            format!(
                r#"{{"name":"t{t}","description":"bomb","inputSchema":{{"type":"object","properties":{{"x":{{"type":"string","enum":[{values}]}}}}}}}}"#
            )
        })
        .collect();
    format!(r#"{{"tools":[{}]}}"#, tools.join(","))
}

const SMALL: &str = r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#;

/// A fresh instance after a trap still answers correctly.
fn fresh_instance_still_works() {
    let mut g = instance();
    let out = g.sanitize_once("{}", SMALL, &default_options()).expect("no trap").expect("no error");
    assert_eq!(out.catalog, SMALL);
}

fn describe(e: &HostError) -> String {
    format!("{e:#}")
}

#[test]
fn schema_bomb_under_a_4_mib_memory_limit_traps() {
    let bomb = schema_bomb();
    assert!(bomb.len() > 4 << 20, "the bomb must not fit the limit: {} bytes", bomb.len());
    let mut g = HOST.instantiate(Limits { memory_bytes: 4 << 20, fuel: None }).expect("instantiate under 4 MiB");
    let t = Instant::now();
    let err = match g.sanitize_once("{}", &bomb, &default_options()) {
        Err(e) => e,
        Ok(r) => panic!("expected a trap at the memory limit, got {:?}", r.map(|o| o.catalog.len())),
    };
    assert!(t.elapsed() < Duration::from_secs(30), "took {:?}", t.elapsed());
    let msg = describe(&err);
    assert!(msg.contains("memory"), "not a memory-limit trap: {msg}");
    eprintln!("4 MiB limit: trapped after {:?}: {}", t.elapsed(), msg.lines().next().unwrap_or(""));

    // The trapped instance is poisoned: further calls fail cleanly.
    assert!(g.sanitize_once("{}", SMALL, &default_options()).is_err(), "a trapped instance must refuse further calls");
    drop(g);
    fresh_instance_still_works();
}

/// The input fits, the work does not: memory runs out while sanitizing.
#[test]
fn schema_bomb_under_a_limit_that_fits_the_input_only() {
    let bomb = schema_bomb();
    let limit = bomb.len() * 2; // room for the input copy, not for the parse tree
    let mut g = HOST.instantiate(Limits { memory_bytes: limit, fuel: None }).unwrap();
    let err = g.sanitize_once("{}", &bomb, &default_options()).err().expect("expected a memory-limit trap");
    let msg = describe(&err);
    assert!(msg.contains("memory"), "not a memory-limit trap: {msg}");
    drop(g);
    fresh_instance_still_works();
}

#[test]
fn schema_bomb_under_tight_fuel_runs_out_of_fuel() {
    let bomb = schema_bomb();
    let mut g = HOST.instantiate(Limits { memory_bytes: 512 << 20, fuel: Some(20_000_000) }).unwrap();
    let t = Instant::now();
    let err = g.sanitize_once("{}", &bomb, &default_options()).err().expect("expected fuel exhaustion");
    assert!(t.elapsed() < Duration::from_secs(30), "took {:?}", t.elapsed());
    assert_eq!(err.downcast_ref::<Trap>(), Some(&Trap::OutOfFuel), "not out of fuel: {}", describe(&err));
    assert_eq!(g.fuel().unwrap(), 0);
    drop(g);
    fresh_instance_still_works();
}

/// With room to work, the bomb is sanitized, the same as natively.
#[test]
fn schema_bomb_with_generous_limits_matches_native() {
    let bomb = schema_bomb();
    let mut g = HOST.instantiate(Limits { memory_bytes: 512 << 20, fuel: Some(u64::MAX) }).unwrap();
    let t = Instant::now();
    let wasm = to_native(g.sanitize_once("{}", &bomb, &default_options()).expect("no trap")).unwrap();
    let spent = u64::MAX - g.fuel().unwrap();
    eprintln!("bomb of {} bytes: component {:?}, {spent} fuel", bomb.len(), t.elapsed());
    let t = Instant::now();
    let native = mcp_guard::sanitize(&Default::default(), &bomb, &Default::default());
    eprintln!("bomb natively: {:?}", t.elapsed());
    assert_eq!(native.map(|o| (o.catalog, o.findings.len(), o.hidden.len())), wasm.map(|o| (o.catalog, o.findings.len(), o.hidden.len())));
}

/// A catalog over the policy's byte limit is refused up front by the guest
/// (typed `too-large`), which is the cheap path a host should rely on first.
#[test]
fn oversized_catalog_is_a_typed_error_not_a_trap() {
    let bomb = schema_bomb();
    let mut g = instance();
    let r = g
        .sanitize_once(r#"{"core":{"catalog_limits":{"max_catalog_bytes":1048576}}}"#, &bomb, &default_options())
        .expect("no trap");
    match r {
        Err(mcp_guard_host_tests::WitError::TooLarge(e)) => {
            assert_eq!(e.limit, 1 << 20);
            assert_eq!(e.actual, bomb.len() as u64);
        }
        other => panic!("expected too-large, got {:?}", other.map(|o| o.catalog.len())),
    }
}
