//! `mcp-guard proxy [options] -- COMMAND [ARGS…]`: a stdio MCP proxy for
//! desktop clients (issue #6).
//!
//! It spawns the real server, passes newline-delimited JSON-RPC both ways,
//! and puts the engine in the two places that matter: every `tools/list`
//! result is sanitized and pinned/compared before the client sees it, and
//! every `tools/call` goes through the call gate before the server sees it.
//! The decisions are the engine's (`mcp_guard::mediate`: pending ids, the
//! listing's pin / compare / serve / refuse, the call gate, pagination,
//! list changes, protocol versions); this file only moves lines.
//!
//! Threads (std only, no async runtime — the CLI has none):
//! - client reader: our stdin → session → server writer / client writer;
//! - server reader: the child's stdout → session → client writer / server writer;
//! - one writer per output (our stdout, the child's stdin), fed by channels,
//!   so neither reader ever blocks on a full pipe while the other side
//!   waits for it (a single shared writer could deadlock: the proxy's own
//!   page requests are written from the server reader);
//! - the main thread waits for the child and exits with its code.
//!
//! stdout is the protocol channel: logs go to stderr or `--log FILE`, one
//! JSON object per line. The child's stderr is inherited (the client's log
//! shows the server's messages as before).

use crate::args::{Args, Tok, UsageError};
use crate::{EngineArgs, EngineChoice, EngineKind, Failure};
use mcp_guard::json::{self, Number, Value};
use mcp_guard::mediate::{Mediator, Out};
use mcp_guard::SanitizeOptions;
use std::io::{self, BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

pub const USAGE: &str = "\
Usage: mcp-guard proxy [options] -- COMMAND [ARGS...]

Runs COMMAND (a stdio MCP server) and speaks MCP for it on stdin/stdout:
every tools/list result is sanitized and compared with the pins kept from
earlier runs (see --pin-scope; with none yet, or per session, the first
listing pins); every tools/call is checked against the
tools the client was shown, under their upstream names. Findings and
decisions go to stderr (or --log FILE) as JSON lines. Exits with the
server's exit code.

Options:
  --policy FILE          policy JSON (see README.md, sections Policy and Proxy)
  --preset NAME          default|strict|permissive, when no --policy is given
  --server ID            server id: selects servers[] overrides and the name prefix
  --foreign-names A,B    tool names other servers expose (look-alike checks)
  --dialect TARGET       none|gemini|openai-strict|anthropic|portable
  --log FILE             append the JSON log lines to FILE instead of stderr
  --pin-scope SCOPE      persistent (default): pins outlive the run, one record per
                         server (--server ID, else this command line); changed and
                         new tools wait for `mcp-guard pins approve` (the mode is
                         quarantine unless the policy sets one); session: the first
                         listing of each run pins
  --pins DIR             where the records live (default: $XDG_STATE_HOME/mcp-guard/pins,
                         else ~/.local/state/mcp-guard/pins)
  -h, --help             this help

Example (a desktop client's server entry):
  mcp-guard proxy --policy ~/mcp-guard.json -- npx -y @modelcontextprotocol/server-everything
";

/// Longest line read from either side; a longer one is discarded (from the
/// server: dropped with a log line; from the client: answered -32700), so a
/// peer that never sends a newline cannot exhaust memory.
const MAX_LINE: usize = 256 << 20;

/// After the client closed our stdin, how long the server gets to exit on
/// its own before it is killed (the MCP stdio shutdown sequence: close its
/// input, wait, then kill).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// After the server exited, how long its stdout may stay open (a grandchild
/// holding it) before the proxy stops waiting for its last lines.
const DRAIN_GRACE: Duration = Duration::from_secs(5);

/// Stack of the reader threads: the engine runs there, and the parser's
/// recursion is bounded by depth (`mediate::MAX_DEPTH`), not by this.
const READER_STACK: usize = 16 << 20;

fn usage_error(message: &str) -> Result<u8, Failure> {
    Err(Failure::Usage(UsageError::new(Some("proxy"), message)))
}

/// Entry point: parses the options, spawns the server, runs the session.
pub fn run(a: Args, engine: &EngineChoice) -> Result<u8, Failure> {
    let mut items = a.rest();
    // Everything after the first `--` is the server's command line, kept
    // verbatim (its own flags are not ours to parse).
    let Some(sep) = items.iter().position(|x| x == "--") else {
        if items.iter().any(|x| x == "-h" || x == "--help") {
            return crate::print_out(USAGE, crate::EXIT_OK);
        }
        return usage_error("missing `-- COMMAND [ARGS...]`: the server to run");
    };
    let command = items.split_off(sep + 1);
    items.pop();
    let mut a = Args::new(items);
    a.set_command("proxy");
    let mut eng = EngineArgs::default();
    let mut log_path = None;
    let mut pins = crate::pins::ProxyPins::default();
    loop {
        let tok = match a.next() {
            Ok(Some(t)) => t,
            Ok(None) => break,
            Err(e) => return Err(e.into()),
        };
        if let Tok::Value(v) = &tok {
            return usage_error(&format!("unexpected argument {v:?} (the server command goes after --)"));
        }
        match eng.accept(&tok, &mut a) {
            Ok(true) => continue,
            Ok(false) => {}
            Err(e) => return Err(e.into()),
        }
        let Tok::Flag(f) = tok else { continue };
        match f.as_str() {
            "-h" | "--help" => return crate::print_out(USAGE, crate::EXIT_OK),
            "--log" => match a.value() {
                Ok(v) => log_path = Some(v),
                Err(e) => return Err(e.into()),
            },
            "--pins" => pins.dir = Some(a.value()?),
            "--pin-scope" => pins.session_only = a.choice(&["persistent", "session"])? == "session",
            _ => return usage_error(&format!("unknown option {f}")),
        }
    }
    if command.is_empty() {
        return usage_error("missing the server command after --");
    }
    if eng.policy.is_some() && eng.preset.is_some() {
        return usage_error("give either --policy or --preset (a policy file names its preset with \"preset\")");
    }
    if engine.kind != EngineKind::Native {
        // Pinning and the call gate are not wired to the component in the
        // CLI; a proxy that silently used the native engine would lie.
        return Err(Failure::Plain("proxy runs the native engine only (drop --engine wasm)".to_string()));
    }
    if pins.session_only && pins.dir.is_some() {
        return usage_error("--pins DIR keeps pins across runs; it does not go with --pin-scope session");
    }
    let policy = match pins.session_only {
        true => eng.policy()?.compiled,
        false => crate::pins::store_policy(eng.policy()?)?.compiled,
    };
    let log: Box<dyn Write + Send> = match &log_path {
        None => Box::new(io::stderr()),
        Some(p) => Box::new(std::fs::OpenOptions::new().create(true).append(true).open(p).map_err(|e| {
            Failure::Unusable { message: format!("cannot open log {}: {e}", crate::term::escape(p)), kind: "io" }
        })?),
    };
    let opts = SanitizeOptions { server: eng.server.clone(), foreign_names: eng.foreign_names.clone() };
    // Minted ids start with the process id and start time: no client picks
    // such an id by accident (and the engine checks it reads as no number).
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let session = Mediator::new(policy, opts, &format!("mcp-guard-{}-{nanos:x}", std::process::id()))
        .map_err(|e| Failure::Plain(e.to_string()))?;
    let key = crate::pins::server_key(eng.server.as_deref(), &command);
    let (session, saver) = crate::pins::attach(session, &pins, &key)?;
    serve(session, &command, Log(Arc::new(Mutex::new(log))), saver.map(Arc::new))
}

/// The log sink, shared by the threads; one whole line per write.
#[derive(Clone)]
struct Log(Arc<Mutex<Box<dyn Write + Send>>>);

impl Log {
    fn write(&self, mut v: Value) {
        let ms = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
        if let Some(o) = v.as_object_mut() {
            o.insert("time_ms", Value::Number(Number::from_u64(ms)));
        }
        let mut line = json::write_compact(&v);
        line.push('\n');
        let mut w = lock(&self.0);
        // A log that cannot be written must not stop the protocol.
        let _ = w.write_all(line.as_bytes()).and_then(|_| w.flush());
    }

    fn event(&self, event: &str, fields: Vec<(&str, Value)>) {
        let mut o = json::Object::new();
        o.insert("event", Value::str(event));
        for (k, v) in fields {
            o.insert(k, v);
        }
        self.write(Value::Object(o));
    }
}

/// A poisoned lock only means another thread panicked mid-write; the data
/// (a writer, the session) is still usable, and the proxy must keep going.
fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

enum ToClient {
    Line(String),
    /// Flush and acknowledge (before the process exits).
    Flush(mpsc::SyncSender<()>),
}

enum ToServer {
    Line(String),
    /// Close the server's stdin (our stdin reached EOF).
    Close,
}

/// Where one reader's results go.
#[derive(Clone)]
struct Sinks {
    client: Sender<ToClient>,
    server: Sender<ToServer>,
    log: Log,
    /// The pin record's file (persistent pin scope).
    pins: Option<Arc<crate::pins::Saver>>,
}

impl Sinks {
    fn send(&self, outs: Vec<Out>) {
        for o in outs {
            // A closed channel means that writer is gone (its peer closed):
            // nothing left to deliver to.
            match o {
                Out::Client(l) => drop(self.client.send(ToClient::Line(l))),
                Out::Server(l) => drop(self.server.send(ToServer::Line(l))),
                Out::Log(v) => self.log.write(v),
                Out::Persist(r) => self.persist(&r),
            }
        }
    }
}

impl Sinks {
    /// Writes the pin record (under the session lock: writes stay in order).
    fn persist(&self, record: &str) {
        let Some(saver) = &self.pins else { return };
        match saver.save(record) {
            Ok(path) => self.log.event(
                "pins-saved",
                vec![("key", Value::str(saver.key())), ("file", Value::str(path.display().to_string()))],
            ),
            Err(message) => self.log.event("pins-write-failed", vec![("message", Value::str(message))]),
        }
    }
}

fn spawn<F: FnOnce() + Send + 'static>(name: &str, f: F) -> Result<thread::JoinHandle<()>, Failure> {
    thread::Builder::new()
        .name(name.to_string())
        .stack_size(READER_STACK)
        .spawn(f)
        .map_err(|e| Failure::Plain(format!("cannot start the {name} thread: {e}")))
}

fn serve(
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
    let (to_client, client_rx) = mpsc::channel();
    let (to_server, server_rx) = mpsc::channel();
    let sinks = Sinks { client: to_client.clone(), server: to_server, log: log.clone(), pins };

    spawn("stdout writer", move || write_client(client_rx))?;
    spawn("server writer", move || write_server(child_in, server_rx))?;

    // Client → server. EOF on our stdin closes the server's.
    let (stdin_closed, stdin_closed_rx) = mpsc::channel::<()>();
    {
        let (session, sinks) = (session.clone(), sinks.clone());
        spawn("client reader", move || {
            read_lines(io::stdin().lock(), |line| match line {
                Line::Text(l) => sinks.send(lock(&session).on_client_line(l)),
                Line::TooLong(len) => sinks.send(vec![
                    Out::Client(mcp_guard::jsonrpc::error_response(
                        &Value::Null,
                        mcp_guard::jsonrpc::code::PARSE_ERROR,
                        &format!("mcp-guard: message longer than {MAX_LINE} bytes"),
                        None,
                    )),
                    Out::Log(too_long("client", len)),
                ]),
            });
            let _ = sinks.server.send(ToServer::Close);
            let _ = stdin_closed.send(());
        })?;
    }

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
    let (ack, acked) = mpsc::sync_channel(1);
    if to_client.send(ToClient::Flush(ack)).is_ok() {
        let _ = acked.recv_timeout(DRAIN_GRACE);
    }
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

fn too_long(from: &str, len: usize) -> Value {
    let mut o = json::Object::new();
    o.insert("event", Value::str(format!("{from}-line-dropped")));
    o.insert("reason", Value::str(format!("line longer than {MAX_LINE} bytes")));
    o.insert("bytes", Value::Number(Number::from_u64(len as u64)));
    Value::Object(o)
}

fn write_client(rx: Receiver<ToClient>) {
    let mut out = io::stdout().lock();
    let mut open = true;
    for m in rx {
        match m {
            ToClient::Line(l) if open => {
                // Flushed per message: the client waits for each one.
                open = out.write_all(l.as_bytes()).and_then(|_| out.write_all(b"\n")).and_then(|_| out.flush()).is_ok();
            }
            ToClient::Line(_) => {}
            ToClient::Flush(ack) => {
                let _ = out.flush();
                let _ = ack.send(());
            }
        }
    }
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

enum Line<'a> {
    Text(&'a [u8]),
    /// A line over `MAX_LINE` bytes, discarded (its length).
    TooLong(usize),
}

/// Calls `f` with each line (without its `\n`) until EOF or a read error;
/// never holds more than `MAX_LINE` bytes of one line.
fn read_lines<R: BufRead>(mut r: R, mut f: impl FnMut(Line<'_>)) {
    let mut buf = Vec::new();
    let mut len = 0usize;
    loop {
        let (done, used) = match r.fill_buf() {
            Ok([]) => {
                if len > 0 {
                    emit(&buf, len, &mut f);
                }
                return;
            }
            Ok(chunk) => match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    take(&mut buf, &mut len, &chunk[..i]);
                    (true, i + 1)
                }
                None => {
                    take(&mut buf, &mut len, chunk);
                    (false, chunk.len())
                }
            },
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        };
        r.consume(used);
        if done {
            emit(&buf, len, &mut f);
            buf.clear();
            len = 0;
        }
    }
}

fn take(buf: &mut Vec<u8>, len: &mut usize, part: &[u8]) {
    *len = len.saturating_add(part.len());
    if *len <= MAX_LINE {
        buf.extend_from_slice(part);
    } else {
        // Over the cap: keep counting, stop storing.
        buf.clear();
    }
}

fn emit(buf: &[u8], len: usize, f: &mut impl FnMut(Line<'_>)) {
    if len > MAX_LINE {
        f(Line::TooLong(len));
    } else {
        f(Line::Text(buf));
    }
}
