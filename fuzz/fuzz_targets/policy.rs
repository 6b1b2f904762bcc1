//! Policy compilation: any text gives a policy or a typed error, never a panic.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = mcp_guard::Policy::from_json(text);
    }
});
