//! Sandbox limits: a hostile catalog meets the store's memory limit or fuel
//! budget and ends in a typed host error (a trap), never a hang or a crash
//! of the host, and the host keeps serving with fresh instances.

mod common;

use std::time::{Duration, Instant};

use common::{instance, HOST};
use mcp_guard_host::{default_options, to_native, HostError, Limits};
use wasmtime::Trap;

/// `tools` tools, each with one `enum` of `values` distinct values: every
/// per-tool limit of the default policy holds (max 1000 enum values), only
/// the volume is hostile.
fn enum_bomb(tools: usize, values: usize, numeric: bool) -> String {
    let values: Vec<String> =
        (0..values).map(|i| if numeric { format!("{i}.5") } else { format!("\"v{i:04}\"") }).collect();
    let values = values.join(",");
    let tools: Vec<String> = (0..tools)
        .map(|t| {
            format!(
                r#"{{"name":"t{t}","description":"bomb","inputSchema":{{"type":"object","properties":{{"x":{{"enum":[{values}]}}}}}}}}"#
            )
        })
        .collect();
    format!(r#"{{"tools":[{}]}}"#, tools.join(","))
}

/// 2000 tools x 1000 string values: ~16 MB, just under the default 16 MiB
/// catalog limit.
fn schema_bomb() -> String {
    enum_bomb(2000, 1000, false)
}

/// Fuel the largest real catalog (every tool of `testdata/catalogs`, 1.7 MB)
/// needs, measured: budgets below are multiples of it, not magic numbers.
fn real_catalog_fuel() -> (String, u64) {
    let path = common::testdata::bench_catalog();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut g = instance();
    let before = g.fuel().unwrap();
    g.sanitize_once("{}", &text, &default_options()).unwrap().unwrap();
    (text, before - g.fuel().unwrap())
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

/// What the component needs to answer a small catalog: its initial memory
/// (the static tables: scorer weights, word clusters, discovery's vectors;
/// ~4.2 MiB) plus the policy build (the trigger DFA alone is 2 MiB). Measured
/// 11.75 MiB in session 31 (256 KiB steps); a table or a build that grows it
/// past this budget fails here, not at a gateway that sized its limit by it.
const SMALL_CATALOG_BUDGET: usize = 16 << 20;

/// The store limit the bomb meets: a small catalog is answered under it, the
/// bomb is larger than all of it.
const STORE_LIMIT: usize = 16 << 20;

#[test]
fn the_component_answers_a_small_catalog_within_its_memory_budget() {
    let mut g = HOST
        .instantiate(Limits { memory_bytes: SMALL_CATALOG_BUDGET, fuel: None })
        .expect("the component's initial memory fits its budget");
    let out = g.sanitize_once("{}", SMALL, &default_options()).expect("no trap").expect("no error");
    assert_eq!(out.catalog, SMALL);
}

#[test]
fn schema_bomb_under_a_16_mib_memory_limit_traps() {
    let bomb = schema_bomb();
    // Its copy alone fills what the engine's ~12 MiB leave of the limit.
    assert!(bomb.len() > STORE_LIMIT / 2, "the bomb must not fit the limit: {} bytes", bomb.len());
    let mut g = HOST.instantiate(Limits { memory_bytes: STORE_LIMIT, fuel: None }).expect("instantiate under 16 MiB");
    // The same instance answers a small catalog first: the trap below is the
    // bomb's, not the engine failing to start under the limit.
    let out = g.sanitize_once("{}", SMALL, &default_options()).expect("no trap").expect("no error");
    assert_eq!(out.catalog, SMALL);
    let t = Instant::now();
    let err = match g.sanitize_once("{}", &bomb, &default_options()) {
        Err(e) => e,
        Ok(r) => panic!("expected a trap at the memory limit, got {:?}", r.map(|o| o.catalog.len())),
    };
    assert!(t.elapsed() < Duration::from_secs(30), "took {:?}", t.elapsed());
    let msg = describe(&err);
    assert!(msg.contains("memory"), "not a memory-limit trap: {msg}");
    eprintln!("16 MiB limit: trapped after {:?}: {}", t.elapsed(), msg.lines().last().unwrap_or(""));

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

/// A host budget of 5x what the largest real catalog costs stops the 16 MB
/// bomb with a typed out-of-fuel trap, quickly, while the real catalog passes
/// under the same budget. (Measured: the bomb, 9.4x the real catalog's
/// bytes, costs 9.8x its fuel — 7.05 G against 718 M — since the poisoning
/// memo reads its repeated enum values once; the budget was 10x before the
/// learned scorer made real prose dearer and the memo made the bomb cheaper.)
#[test]
fn schema_bomb_under_tight_fuel_runs_out_of_fuel() {
    let (real, real_fuel) = real_catalog_fuel();
    let budget = real_fuel * 5;
    let mut g = HOST.instantiate(Limits { memory_bytes: 512 << 20, fuel: Some(budget) }).unwrap();
    g.sanitize_once("{}", &real, &default_options()).expect("the real catalog fits the budget").unwrap();

    let bomb = schema_bomb();
    let mut g = HOST.instantiate(Limits { memory_bytes: 512 << 20, fuel: Some(budget) }).unwrap();
    let t = Instant::now();
    let err = g.sanitize_once("{}", &bomb, &default_options()).err().expect("expected fuel exhaustion");
    assert!(t.elapsed() < Duration::from_secs(30), "took {:?}", t.elapsed());
    assert_eq!(err.downcast_ref::<Trap>(), Some(&Trap::OutOfFuel), "not out of fuel: {}", describe(&err));
    assert_eq!(g.fuel().unwrap(), 0);
    eprintln!("fuel: real catalog {real_fuel}, budget {budget}, bomb stopped after {:?}", t.elapsed());
    drop(g);
    fresh_instance_still_works();
}

/// Regression: enum de-duplication used to compare values pairwise
/// (quadratic; 200 tools x 1000 numeric values cost seconds). It is linear
/// now (canonical keys in a hash set), so the same bomb finishes *inside* the
/// fuel budget that the largest real catalog needs ten times over — bounded by
/// the engine itself, not only by the host's limits — and matches native.
#[test]
fn numeric_enum_bomb_is_linear_and_fits_the_real_catalog_budget() {
    let (real, real_fuel) = real_catalog_fuel();
    let bomb = enum_bomb(200, 1000, true);
    assert!(bomb.len() < real.len(), "the bomb is smaller than the real catalog");
    let mut g = HOST.instantiate(Limits { memory_bytes: 512 << 20, fuel: Some(real_fuel * 10) }).unwrap();
    let t = Instant::now();
    let wasm = to_native(g.sanitize_once("{}", &bomb, &default_options()).expect("no trap: linear work fits the budget")).unwrap();
    assert!(t.elapsed() < Duration::from_secs(30), "took {:?}", t.elapsed());
    let native = mcp_guard::sanitize(&mcp_guard::Policy::default(), &bomb, &mcp_guard::SanitizeOptions::default());
    assert_eq!(wasm, native);
    eprintln!("numeric enum bomb: {:?}, fuel used {}", t.elapsed(), real_fuel * 10 - g.fuel().unwrap());
}

/// With room to work, a (smaller) bomb is sanitized exactly as natively.
#[test]
fn schema_bomb_with_generous_limits_matches_native() {
    let bomb = enum_bomb(200, 1000, false);
    let mut g = HOST.instantiate(Limits { memory_bytes: 512 << 20, fuel: None }).unwrap();
    let t = Instant::now();
    let wasm = to_native(g.sanitize_once("{}", &bomb, &default_options()).expect("no trap")).unwrap();
    eprintln!("bomb of {} bytes: component {:?}", bomb.len(), t.elapsed());
    let native = mcp_guard::sanitize(&Default::default(), &bomb, &Default::default());
    assert_eq!(native, wasm);
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
        Err(mcp_guard_host::WitError::TooLarge(e)) => {
            assert_eq!(e.limit, 1 << 20);
            assert_eq!(e.actual, bomb.len() as u64);
        }
        other => panic!("expected too-large, got {:?}", other.map(|o| o.catalog.len())),
    }
}

