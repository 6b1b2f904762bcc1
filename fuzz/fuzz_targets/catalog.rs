//! The catalog entry point under the default and strict presets and a
//! rewriting policy: never a panic; the output always parses and is a fixed
//! point of a second pass.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_guard::{Policy, SanitizeOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let policies = [
        Policy::default(),
        Policy::preset(mcp_guard::Preset::Strict),
        Policy::from_json(r#"{"core":{"tool_names":{"on_invalid_name":"sanitize","server_prefix":true},"tool_description_policy":{"mode":"truncate","max_chars":32},"schema_limits":{"max_depth":3,"on_exceed":"truncate"}}}"#).unwrap(),
    ];
    let opts = SanitizeOptions { server: Some("srv".into()), foreign_names: vec!["read_file".into()] };
    for p in &policies {
        if let Ok(out) = mcp_guard::sanitize(p, text, &opts) {
            let again = mcp_guard::sanitize(p, &out.catalog, &SanitizeOptions::default()).expect("output must be a valid catalog");
            assert_eq!(again.hidden.len(), 0, "second pass hid a tool");
        }
    }
});
