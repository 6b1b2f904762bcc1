//! Typed errors through the component: an unusable policy or a catalog that
//! is not a tools/list result comes back as the matching case of the WIT
//! `error` variant, with the same payload as the native engine.

mod common;

use common::instance;
use mcp_guard_host::{default_options, error_kind, to_native_error, WitError};

/// Component and native engine agree on the error, payload included.
fn expect_error(policy: &str, catalog: &str, kind: &str) -> WitError {
    let mut g = instance();
    let got = match g.sanitize_once(policy, catalog, &default_options()).expect("no trap") {
        Err(e) => e,
        Ok(o) => panic!("expected {kind}, got an outcome: {}", o.catalog),
    };
    assert_eq!(error_kind(&got), kind, "{got:?}");
    let native = mcp_guard::Policy::from_json(policy)
        .and_then(|p| mcp_guard::sanitize(&p, catalog, &Default::default()))
        .expect_err("native engine accepted it");
    assert_eq!(native, to_native_error(got.clone()));
    got
}

#[test]
fn policy_that_is_not_json_is_invalid_policy() {
    match expect_error("{", "{}", "invalid-policy") {
        WitError::InvalidPolicy(e) => assert_eq!(e.field, ""),
        e => unreachable!("{e:?}"),
    }
}

#[test]
fn unknown_preset_is_invalid_policy_naming_the_field() {
    match expect_error(r#"{"preset":"yolo"}"#, "{}", "invalid-policy") {
        WitError::InvalidPolicy(e) => assert_eq!(e.field, "preset"),
        e => unreachable!("{e:?}"),
    }
}

#[test]
fn wrong_type_in_policy_is_invalid_policy_naming_the_field() {
    match expect_error(r#"{"core":{"schema_limits":{"max_depth":"deep"}}}"#, "{}", "invalid-policy") {
        WitError::InvalidPolicy(e) => assert_eq!(e.field, "core.schema_limits.max_depth"),
        e => unreachable!("{e:?}"),
    }
}

#[test]
fn unknown_policy_key_is_invalid_policy() {
    expect_error(r#"{"core":{"tool_fields":{"allow":["name","inputSchema"],"surprise":1}}}"#, "{}", "invalid-policy");
}

/// The constructor itself returns the error: no policy handle is created.
#[test]
fn policy_constructor_returns_the_error() {
    let mut g = instance();
    match g.policy(r#"{"servers":[{"id":""}]}"#).expect("no trap") {
        Err(WitError::InvalidPolicy(e)) => assert_eq!(e.field, "servers[0].id"),
        Err(e) => panic!("{e:?}"),
        Ok(_) => panic!("an invalid policy produced a handle"),
    }
}

#[test]
fn top_level_array_is_invalid_envelope() {
    expect_error("{}", "[]", "invalid-envelope");
}

#[test]
fn tools_null_is_invalid_envelope() {
    expect_error("{}", r#"{"tools":null}"#, "invalid-envelope");
}

#[test]
fn tools_missing_is_invalid_envelope() {
    expect_error("{}", r#"{"nextCursor":"x"}"#, "invalid-envelope");
}

#[test]
fn duplicate_keys_are_refused_with_pointer_and_key() {
    let cat = r#"{"tools":[{"name":"a","name":"b","inputSchema":{"type":"object"}}]}"#;
    match expect_error("{}", cat, "duplicate-key") {
        WitError::DuplicateKey(e) => {
            assert_eq!(e.key, "name");
            assert_eq!(e.pointer, "/tools/0");
        }
        e => unreachable!("{e:?}"),
    }
}

#[test]
fn three_thousand_nested_arrays_are_too_deep() {
    let cat = format!(r#"{{"tools":{}{}}}"#, "[".repeat(3000), "]".repeat(3000));
    match expect_error("{}", &cat, "too-deep") {
        WitError::TooDeep(max) => assert_eq!(max, 128),
        e => unreachable!("{e:?}"),
    }
}

#[test]
fn truncated_json_is_invalid_json_with_offset() {
    let cat = r#"{"tools":[{"name":"a""#;
    match expect_error("{}", cat, "invalid-json") {
        WitError::InvalidJson(e) => assert!(e.offset <= cat.len() as u64),
        e => unreachable!("{e:?}"),
    }
}

#[test]
fn byte_order_mark_is_invalid_json() {
    expect_error("{}", "\u{feff}{\"tools\":[]}", "invalid-json");
}

#[test]
fn trailing_data_is_invalid_json() {
    expect_error("{}", r#"{"tools":[]} {"tools":[]}"#, "invalid-json");
}

#[test]
fn catalog_over_the_byte_limit_is_too_large() {
    match expect_error(r#"{"core":{"catalog_limits":{"max_catalog_bytes":16}}}"#, r#"{"tools":[],"x":"0123456789"}"#, "too-large") {
        WitError::TooLarge(e) => assert_eq!((e.limit, e.actual), (16, 29)),
        e => unreachable!("{e:?}"),
    }
}

/// After any number of typed errors the instance is still healthy (errors
/// are values, not traps).
#[test]
fn errors_do_not_poison_the_instance() {
    let mut g = instance();
    for bad in ["[]", "{", r#"{"tools":null}"#, "\"x\"", "null"] {
        assert!(g.sanitize_once("{}", bad, &default_options()).expect("no trap").is_err(), "{bad}");
    }
    let ok = r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#;
    assert_eq!(g.sanitize_once("{}", ok, &default_options()).unwrap().unwrap().catalog, ok);
}
