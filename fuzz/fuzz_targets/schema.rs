//! The schema interface: normalize an arbitrary schema for every dialect,
//! then map arbitrary arguments back and validate them. Never a panic; a
//! normalized schema normalizes to itself (idempotence), and arguments the
//! coercion accepts validate against the original schema.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_guard::json::{self, ParseOptions};
use mcp_guard::policy::Dialect;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // Schema and arguments, separated by the first NUL (no NUL: empty args).
    let (schema_text, args_text) = text.split_once('\0').unwrap_or((text, "{}"));
    let Ok(schema) = json::parse(schema_text, ParseOptions::default()) else { return };
    let schema = schema.value;
    let args = json::parse(args_text, ParseOptions::default()).map(|p| p.value).ok();
    for target in [Dialect::None, Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable] {
        if let Ok(n) = mcp_guard::dialect::normalize(&schema, target, 4, 2000) {
            let twice = mcp_guard::dialect::normalize(&n.schema, target, 4, 2000).expect("a normalized schema normalizes");
            assert!(twice.schema.schema_eq(&n.schema), "not idempotent for {}", target.id());
        }
        if let Some(a) = &args {
            if let Ok(out) = mcp_guard::dialect::coerce_arguments(&schema, target, a) {
                assert!(mcp_guard::dialect::validate(&schema, &out).is_empty(), "coerced arguments do not validate");
            }
        }
    }
});
