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

fn run(args: &[&str], env: &[(&str, &str)]) -> std::process::Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_mcp-guard"));
    c.args(args).stdin(Stdio::null());
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().expect("run")
}

#[test]
fn help_lists_the_remote_options_and_a_desktop_entry() {
    let out = run(&["proxy", "--help"], &[]);
    let help = String::from_utf8_lossy(&out.stdout);
    for opt in
        ["--url URL", "--header 'NAME: VALUE'", "--timeout S", "OAuth", "\"--url\", \"https://mcp.example.com/mcp\""]
    {
        assert!(help.contains(opt), "{opt} missing from:\n{help}");
    }
}

#[test]
fn url_and_a_command_together_are_a_usage_error() {
    let out = run(&["proxy", "--url", "http://127.0.0.1:9/mcp", "--", "cat"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("either --url URL or -- COMMAND"));
}

#[test]
fn a_header_naming_a_missing_variable_is_a_usage_error_that_shows_no_value() {
    let out = run(
        &["proxy", "--url", "http://127.0.0.1:9/mcp", "--header", "Authorization: Bearer ${MCP_GUARD_NO_SUCH_VAR}"],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    // The first line is the error; the usage text after it has examples.
    let first = err.lines().next().unwrap_or_default();
    assert!(first.contains("MCP_GUARD_NO_SUCH_VAR") && !first.contains("Bearer"), "{err}");
}

#[test]
fn an_unreachable_server_fails_the_request_under_the_clients_id() {
    // Port 9 (discard) on loopback: nothing listens in a test environment.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mcp-guard"))
        .args([
            "proxy",
            "--pin-scope",
            "session",
            "--url",
            "http://127.0.0.1:9/mcp",
            "--timeout",
            "5",
            "--header",
            "X-Key: ${MCP_GUARD_TEST_KEY}",
        ])
        .env("MCP_GUARD_TEST_KEY", "hunter2-secret")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let init = r#"{"jsonrpc":"2.0","id":"a","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#;
    child.stdin.take().expect("stdin").write_all(format!("{init}\n").as_bytes()).expect("write");
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains(r#""id":"a""#) && stdout.contains(r#""reason":"upstream-unreachable""#), "{stdout}");
    assert!(!String::from_utf8_lossy(&out.stderr).contains("hunter2"));
}
