//! The catalog entry point under the default and strict presets, a rewriting
//! policy, and two dialect policies (one blocking poisoned tools): never a
//! panic; the output always parses and a second pass hides nothing.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_guard::{Policy, SanitizeOptions};

/// Compiled once per process: a policy carries the compiled poisoning
/// detector, far too costly to rebuild for every input.
static POLICIES: std::sync::LazyLock<Vec<Policy>> = std::sync::LazyLock::new(|| {
    vec![
        Policy::default(),
        Policy::preset(mcp_guard::Preset::Strict),
        Policy::from_json(r#"{"core":{"tool_names":{"on_invalid_name":"sanitize","server_prefix":true},"tool_description_policy":{"mode":"truncate","max_chars":32},"schema_limits":{"max_depth":3,"on_exceed":"truncate"}}}"#).unwrap(),
        Policy::from_json(r#"{"core":{"schema_dialect":{"target":"openai-strict"},"tool_poisoning":{"mode":"block"}}}"#).unwrap(),
        Policy::from_json(r#"{"core":{"schema_dialect":{"target":"portable","max_ref_depth":2}}}"#).unwrap(),
    ]
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let opts = SanitizeOptions { server: Some("srv".into()), foreign_names: vec!["read_file".into()] };
    for p in POLICIES.iter() {
        if let Ok(out) = mcp_guard::sanitize(p, text, &opts) {
            let again = mcp_guard::sanitize(p, &out.catalog, &SanitizeOptions::default()).expect("output must be a valid catalog");
            assert_eq!(again.hidden.len(), 0, "second pass hid a tool");
        }
    }
});
