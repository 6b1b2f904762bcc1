// Included (`include!`) by the Rust tests that read parity/surrogates.json
// (cli/tests/cli.rs, envoy/src/stream/tests.rs): one decoder beside the fixture.

/// `{0xFF}` in parity/surrogates.json is that one byte.
fn fixture_bytes(s: &str) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = s;
    while let Some(i) = rest.find("{0x") {
        out.extend_from_slice(&rest.as_bytes()[..i]);
        out.push(u8::from_str_radix(&rest[i + 3..i + 5], 16).unwrap());
        rest = &rest[i + 6..];
    }
    out.extend_from_slice(rest.as_bytes());
    out
}
