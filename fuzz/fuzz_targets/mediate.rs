//! The MCP mediator: an arbitrary conversation of newline-framed messages
//! from both peers (either protocol version, forged ids, answers to requests
//! never made, listings that change). Never a panic, and every message the
//! mediator writes is one line of valid JSON: the stdio framing a client and
//! a server read must hold whatever a peer sent.
#![no_main]
use libfuzzer_sys::fuzz_target;
use mcp_guard::json::{parse, ParseOptions};
use mcp_guard::mediate::{Mediator, Out};
use mcp_guard::{Policy, SanitizeOptions};

static POLICIES: std::sync::LazyLock<Vec<Policy>> = std::sync::LazyLock::new(|| {
    [
        r#"{}"#,
        r#"{"core":{"tool_definition_pinning":{"mode":"block","block_strategy":"baseline_subset"},"tool_names":{"on_invalid_name":"sanitize"}}}"#,
        r#"{"core":{"discovery":{"mode":"on","core_tools":["a*"]},"schema_dialect":{"target":"openai-strict"}}}"#,
    ]
    .iter()
    .map(|p| Policy::from_json(p).unwrap())
    .collect()
});

fn check(outs: &[Out]) {
    for o in outs {
        if let Out::Client(s) | Out::Server(s) = o {
            assert!(!s.contains('\n'), "a message spans lines: {s:?}");
            assert!(parse(s, ParseOptions::default()).is_ok(), "not JSON: {s:?}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let policy = POLICIES[usize::from(pick) % POLICIES.len()].clone();
    let mut m = Mediator::new(policy, SanitizeOptions::default(), "mg").unwrap();
    // Each line: a side byte (`c` from the client, anything else from the
    // server), then the message.
    for line in rest.split(|&b| b == b'\n') {
        let Some((&side, msg)) = line.split_first() else { continue };
        let outs = if side == b'c' { m.on_client_line(msg) } else { m.on_server_line(msg) };
        check(&outs);
    }
    check(&m.fail_pending("closed", "the fuzz input ended"));
});
