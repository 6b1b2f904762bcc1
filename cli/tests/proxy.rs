//! `mcp-guard proxy` as a process, without Node: lifecycle and the stdout
//! channel. The protocol itself is tested in the engine (`src/mediate/tests.rs`, `tests/mediation.rs`)
//! and end to end with the MCP SDK by `scripts/test-proxy.sh`.
#![cfg(unix)]

use std::io::Write;
use std::process::{Command, Stdio};

fn proxy(server_script: &str, input: &str) -> std::process::Output {
    // Pins are kept per run here (these tests are about the channel, and
    // must not write records into the user's state directory).
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-guard"))
        .args(["proxy", "--pin-scope", "session", "--", "sh", "-c", server_script])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn mcp-guard");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write");
    child.wait_with_output().expect("wait")
}

#[test]
fn client_eof_closes_the_servers_stdin_and_its_exit_code_is_ours() {
    // `cat` only ends when the proxy closes the server's stdin.
    let out = proxy("cat > /dev/null; exit 7", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
    assert_eq!(out.status.code(), Some(7));
}

#[test]
fn non_json_server_output_never_reaches_the_protocol_channel() {
    let script = r#"echo 'Starting server...'; echo '{"jsonrpc":"2.0","method":"notifications/message","params":{}}'; printf '{"a":1,"a":2}\n'"#;
    let out = proxy(script, "");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{}}\n"
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(log.matches("\"event\":\"server-line-dropped\"").count(), 2, "{log}");
}

#[test]
fn a_call_reaches_the_server_only_after_a_listing() {
    // The server echoes back what it receives, as notifications it would
    // never send; stdout shows what got through the gate.
    let script = r#"while IFS= read -r l; do printf '{"jsonrpc":"2.0","method":"seen","params":%s}\n' "$l"; done"#;
    let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"rm","arguments":{}}}"#;
    let out = proxy(script, &format!("{call}\n"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(!stdout.contains("\"seen\""), "{stdout}");
    assert!(stdout.contains("\"reason\":\"unknown-tool\""), "{stdout}");
}

#[test]
fn a_server_that_cannot_start_is_exit_2() {
    let out = Command::new(env!("CARGO_BIN_EXE_mcp-guard"))
        .args(["proxy", "--pin-scope", "session", "--", "/nonexistent/mcp-server"])
        .stdin(Stdio::null())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_server_that_ignores_its_closed_stdin_is_killed_after_the_grace_period() {
    let t0 = std::time::Instant::now();
    let out = proxy("exec sleep 60", "");
    // SIGKILL: 128 + 9, as a shell reports it.
    assert_eq!(out.status.code(), Some(137));
    assert!(t0.elapsed() < std::time::Duration::from_secs(30));
    assert!(String::from_utf8_lossy(&out.stderr).contains("\"event\":\"kill\""));
}
