//! The stdio upstream: `mcp-guard proxy -- COMMAND [ARGS…]` spawns the
//! server and moves newline-delimited JSON-RPC lines between its stdio and
//! the mediator.
//!
//! Threads, beside the client side of [`super`]:
//! - server reader: the child's stdout → mediator → client writer / server writer;
//! - server writer: the child's stdin, fed by a channel (the mediator's own
//!   page requests are written from the server reader: a single shared
//!   writer could deadlock on a full pipe);
//! - the main thread waits for the child and exits with its code.
//!
//! The child's stderr is inherited (the client's log shows the server's
//! messages as before).

use super::{client_side, flush_client, lock, read_lines, spawn, too_long, Line, Log, ToServer};
use crate::Failure;
use mcp_guard::json::{Number, Value};
use mcp_guard::mediate::Mediator;
use std::io::{self, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// After the client closed our stdin, how long the server gets to exit on
/// its own before it is killed (the MCP stdio shutdown sequence: close its
/// input, wait, then kill).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// After the server exited, how long its stdout may stay open (a grandchild
/// holding it) before the proxy stops waiting for its last lines.
const DRAIN_GRACE: Duration = Duration::from_secs(5);

pub(super) fn serve(
    session: Mediator,
    command: &[String],
    log: Log,
    pins: Option<Arc<crate::pins::Saver>>,
) -> Result<u8, Failure> {
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| Failure::Plain(format!("cannot start {}: {e}", crate::term::escape(&command[0]))))?;
    log.event(
        "start",
        vec![
            ("command", Value::Array(command.iter().map(|c| Value::str(c.clone())).collect())),
            ("pid", Value::Number(Number::from_u64(child.id().into()))),
        ],
    );
    let (Some(child_in), Some(child_out)) = (child.stdin.take(), child.stdout.take()) else {
        let _ = child.kill();
        return Err(Failure::Plain("the server's stdio pipes are missing".to_string()));
    };
    let session = Arc::new(Mutex::new(session));
    let (to_server, server_rx) = mpsc::channel();
    spawn("server writer", move || write_server(child_in, server_rx))?;
    // Client → server. EOF on our stdin closes the server's.
    let (sinks, to_client, stdin_closed_rx) = client_side(&session, to_server, &log, pins)?;

    // Server → client.
    let (drained, drained_rx) = mpsc::channel::<()>();
    {
        let (session, sinks) = (session.clone(), sinks.clone());
        spawn("server reader", move || {
            read_lines(BufReader::new(child_out), |line| match line {
                Line::Text(l) => sinks.send(lock(&session).on_server_line(l)),
                Line::TooLong(len) => sinks.log.write(too_long("server", len)),
            });
            let _ = drained.send(());
        })?;
    }

    let status = wait_child(&mut child, &stdin_closed_rx, &log);
    // The server's last lines (its answer to a final request) still go out.
    let _ = drained_rx.recv_timeout(DRAIN_GRACE);
    flush_client(&to_client, DRAIN_GRACE);
    let code = match &status {
        Ok(s) => exit_code(s),
        Err(_) => 1,
    };
    let how = match status {
        Ok(s) => Value::str(s.to_string()),
        Err(e) => Value::str(format!("cannot wait for the server: {e}")),
    };
    log.event("exit", vec![("code", Value::Number(Number::from_u64(code.into()))), ("status", how)]);
    Ok(code)
}

/// Waits for the server; once the client has closed our stdin, gives it
/// `SHUTDOWN_GRACE` to exit before killing it.
fn wait_child(child: &mut Child, stdin_closed: &Receiver<()>, log: &Log) -> io::Result<std::process::ExitStatus> {
    let mut closed_at: Option<Instant> = None;
    let mut killed = false;
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(status);
        }
        match stdin_closed.recv_timeout(Duration::from_millis(50)) {
            Ok(()) => closed_at = closed_at.or_else(|| Some(Instant::now())),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {}
        }
        if !killed && closed_at.is_some_and(|t| t.elapsed() > SHUTDOWN_GRACE) {
            log.event("kill", vec![("reason", Value::str("the server did not exit after its stdin was closed"))]);
            let _ = child.kill();
            killed = true;
        }
    }
}

/// The server's exit code; killed by a signal: 128 + the signal (as a shell does).
fn exit_code(s: &std::process::ExitStatus) -> u8 {
    if let Some(c) = s.code() {
        return (c & 0xff) as u8;
    }
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = s.signal() {
            return (128 + (sig & 0x7f)) as u8;
        }
    }
    1
}

fn write_server(stdin: ChildStdin, rx: Receiver<ToServer>) {
    let mut stdin = Some(stdin);
    for m in rx {
        match m {
            ToServer::Line(l) => {
                if let Some(w) = stdin.as_mut() {
                    let ok = w.write_all(l.as_bytes()).and_then(|_| w.write_all(b"\n")).and_then(|_| w.flush()).is_ok();
                    if !ok {
                        // The server is gone; the main thread sees it exit.
                        stdin = None;
                    }
                }
            }
            // Dropping the handle closes the pipe: the server sees EOF.
            ToServer::Close => stdin = None,
        }
    }
}
