//! Pinning and the call gate: pin one arbitrary catalog, compare another
//! under each mode, call arbitrary names with arbitrary arguments, and
//! restore arbitrary baselines. Never a panic; a baseline round-trips
//! through its JSON form; the gate never allows a name outside the surface.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_guard::pinning::{self, Baseline, CallDecision};
use mcp_guard::{Policy, SanitizeOptions};

static POLICIES: std::sync::LazyLock<Vec<Policy>> = std::sync::LazyLock::new(|| {
    [
        r#"{}"#,
        r#"{"core":{"tool_definition_pinning":{"mode":"block","block_strategy":"baseline_subset"},"tool_names":{"on_invalid_name":"sanitize"}}}"#,
        r#"{"core":{"tool_definition_pinning":{"mode":"block","block_error_session_action":"keep"},"schema_dialect":{"target":"openai-strict"}}}"#,
        r#"{"core":{"discovery":{"mode":"on","core_tools":["a*"]},"schema_dialect":{"target":"gemini"}}}"#,
    ]
    .iter()
    .map(|p| Policy::from_json(p).unwrap())
    .collect()
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    // first catalog \0 second catalog \0 tool name \0 arguments
    let mut parts = text.splitn(4, '\0');
    let (a, b, name, args) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next().unwrap_or(""), parts.next());
    // Arbitrary text as a baseline: a typed error or a usable baseline.
    if let Ok(restored) = Baseline::from_json(a) {
        let _ = pinning::check_call(&restored, name, args);
    }
    let opts = SanitizeOptions::default();
    for p in POLICIES.iter() {
        let Ok(pinned) = pinning::pin(p, a, &opts) else { continue };
        let text = pinned.baseline.to_json();
        let restored = Baseline::from_json(&text).expect("a baseline restores");
        assert_eq!(restored.to_json(), text, "baseline round trip");
        let state = match pinning::compare(p, &pinned.baseline, b, &opts) {
            Ok(c) => c.baseline,
            Err(_) => pinned.baseline,
        };
        if let CallDecision::Allow(allowed) = pinning::check_call(&state, name, args) {
            let on_surface = state.surface.iter().any(|c| c.upstream == allowed.upstream);
            assert!(on_surface, "allowed a call outside the surface");
        }
    }
});
