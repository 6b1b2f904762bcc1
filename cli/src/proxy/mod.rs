//! `mcp-guard proxy [options] -- COMMAND [ARGS…]` and
//! `mcp-guard proxy [options] --url URL`: an MCP proxy for desktop clients
//! (issues #6 and #25). The client side is always stdio (newline-delimited
//! JSON-RPC on our stdin/stdout); the upstream is a spawned stdio server
//! ([`stdio`]) or a remote Streamable HTTP server ([`http`]).
//!
//! The engine sits in the two places that matter: every `tools/list` result
//! is sanitized and pinned/compared before the client sees it, and every
//! `tools/call` goes through the call gate before the server sees it. The
//! decisions are the engine's (`mcp_guard::mediate`: pending ids, the
//! listing's pin / compare / serve / refuse, the call gate, pagination,
//! list changes, protocol versions); this module and its transports only
//! move messages: `Out::Server` to the upstream, the upstream's messages
//! back into the one `Mediator`, `Out::Client` to our stdout.
//!
//! Threads (std only, no async runtime — the CLI has none):
//! - client reader (here): our stdin → mediator → upstream / client writer;
//! - one writer for our stdout (here), fed by a channel, so no reader ever
//!   blocks on a full pipe while the other side waits for it;
//! - the upstream's own threads (see each transport).
//!
//! stdout is the protocol channel: logs go to stderr or `--log FILE`, one
//! JSON object per line.

mod http;
mod stdio;

use crate::args::{Args, Tok, UsageError};
use crate::{EngineArgs, EngineChoice, EngineKind, Failure};
use mcp_guard::json::{self, Number, Value};
use mcp_guard::mediate::{Mediator, Out};
use mcp_guard::{Policy, SanitizeOptions};
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

pub const USAGE: &str = "\
Usage: mcp-guard proxy [options] -- COMMAND [ARGS...]
       mcp-guard proxy [options] --url URL [--header 'NAME: VALUE']... [--timeout S]

Speaks MCP on stdin/stdout for an upstream server: COMMAND (a stdio server
it runs) or URL (a remote Streamable HTTP server, protocol 2025-11-25 with
sessions or 2026-07-28). Every tools/list result is sanitized and compared
with the pins kept from earlier runs (see --pin-scope; with none yet, or per
session, the first listing pins); every tools/call is checked against the
tools the client was shown, under their upstream names. Findings and
decisions go to stderr (or --log FILE) as JSON lines. Exits with the
server's exit code (COMMAND) or 0 when the client closes stdin (URL).

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

Remote server (--url; excludes -- COMMAND):
  --url URL              the server's MCP endpoint (https://, or http:// for
                         loopback and tests); TLS is always verified (webpki
                         roots); HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and
                         NO_PROXY are read from the environment
  --header 'NAME: VALUE' sent on every request (repeatable); ${VAR} in VALUE
                         is read from the environment at start (a missing
                         VAR is an error), so secrets stay out of config
                         files; values never appear in logs or errors
  --timeout S            seconds one request may take, answer included
                         (default 60); listen and notification streams are
                         bounded only until their headers arrive
  OAuth stays with you: mcp-guard does not run an authorization flow. Give a
  token with --header 'Authorization: Bearer ${TOKEN}'; a 401 from the server
  reaches the client as a JSON-RPC error naming its WWW-Authenticate.
  Redirects are not followed (an error names the target).

Examples (a desktop client's server entry):
  mcp-guard proxy --policy ~/mcp-guard.json -- npx -y @modelcontextprotocol/server-everything
  { \"command\": \"mcp-guard\", \"args\": [\"proxy\", \"--server\", \"linear\",
    \"--url\", \"https://mcp.example.com/mcp\",
    \"--header\", \"Authorization: Bearer ${LINEAR_TOKEN}\"] }
";

/// Longest line read from either side; a longer one is discarded (from the
/// server: dropped with a log line; from the client: answered -32700), so a
/// peer that never sends a newline cannot exhaust memory. Over HTTP the
/// same cap bounds one body and one SSE event.
const MAX_LINE: usize = 256 << 20;

/// Stack of the reader threads: the engine runs there, and the parser's
/// recursion is bounded by depth (`mediate::MAX_DEPTH`), not by this.
const READER_STACK: usize = 16 << 20;

/// `--timeout` when none is given.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(60);

fn usage_error<T>(message: &str) -> Result<T, Failure> {
    Err(Failure::Usage(UsageError::new(Some("proxy"), message)))
}

/// Where the server is.
enum Upstream {
    /// A command to run, speaking MCP on its stdio.
    Stdio(Vec<String>),
    /// A Streamable HTTP endpoint.
    Http(http::Options),
}

/// Entry point: parses the options, starts the upstream, runs the session.
pub fn run(a: Args, engine: &EngineChoice) -> Result<u8, Failure> {
    let mut items = a.rest();
    // Everything after the first `--` is the server's command line, kept
    // verbatim (its own flags are not ours to parse).
    let command = match items.iter().position(|x| x == "--") {
        Some(sep) => {
            let c = items.split_off(sep + 1);
            items.pop();
            Some(c)
        }
        None => None,
    };
    let mut a = Args::new(items);
    a.set_command("proxy");
    let mut eng = EngineArgs::default();
    let mut log_path = None;
    let (mut url, mut headers, mut timeout) = (None, Vec::new(), None);
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
            "--log" => log_path = Some(a.value()?),
            "--url" => url = Some(a.value()?),
            "--header" => headers.push(a.value()?),
            "--timeout" => timeout = Some(a.value()?),
            "--pins" => pins.dir = Some(a.value()?),
            "--pin-scope" => pins.session_only = a.choice(&["persistent", "session"])? == "session",
            _ => return usage_error(&format!("unknown option {f}")),
        }
    }
    let upstream = match (command, url) {
        (Some(_), Some(_)) => return usage_error("give either --url URL or -- COMMAND, not both"),
        (None, None) => return usage_error("missing the server: --url URL or -- COMMAND [ARGS...]"),
        (Some(c), None) if c.is_empty() => return usage_error("missing the server command after --"),
        (Some(c), None) => {
            if !headers.is_empty() || timeout.is_some() {
                return usage_error("--header and --timeout go with --url");
            }
            Upstream::Stdio(c)
        }
        (None, Some(u)) => {
            let timeout = match timeout {
                None => DEFAULT_TIMEOUT,
                Some(t) => match t.parse::<f64>() {
                    Ok(s) if s.is_finite() && s > 0.0 && s <= 86_400.0 => Duration::from_secs_f64(s),
                    _ => return usage_error(&format!("--timeout wants seconds between 0 and 86400 (got {t:?})")),
                },
            };
            let env = |k: &str| std::env::var(k).ok();
            match http::Options::new(&u, &headers, timeout, env) {
                Ok(o) => Upstream::Http(o),
                Err(e) => return usage_error(&e),
            }
        }
    };
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
    let log = Log(Arc::new(Mutex::new(log)));
    let opts = SanitizeOptions { server: eng.server.clone(), foreign_names: eng.foreign_names.clone() };
    let key = server_key(eng.server.as_deref(), &upstream);
    let catalog_cap = policy.catalog.max_catalog_bytes;
    let (session, saver) = mediator(policy, opts, &key, &pins)?;
    match upstream {
        Upstream::Stdio(command) => stdio::serve(session, &command, log, saver),
        Upstream::Http(o) => http::serve(session, o, catalog_cap, log, saver),
    }
}

/// The one place a conversation's `Mediator` is made, for every transport:
/// the pin store (keyed by `key`, [`server_key`]) loads its record here, and
/// the saver that writes it back is returned (none with `--pin-scope
/// session`).
fn mediator(
    policy: Policy,
    opts: SanitizeOptions,
    key: &str,
    pins: &crate::pins::ProxyPins,
) -> Result<(Mediator, Option<Arc<crate::pins::Saver>>), Failure> {
    // Minted ids start with the process id and start time: no client picks
    // such an id by accident (and the engine checks it reads as no number).
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let session = Mediator::new(policy, opts, &format!("mcp-guard-{}-{nanos:x}", std::process::id()))
        .map_err(|e| Failure::Plain(e.to_string()))?;
    let (session, saver) = crate::pins::attach(session, pins, key)?;
    Ok((session, saver.map(Arc::new)))
}

/// Which server a conversation is with, for pins and logs: `--server ID`
/// when given; else for a remote server its URL without userinfo, query and
/// fragment (those may hold secrets and do not name the server), for a
/// command its command line as a JSON array (`stdio:[...]`: arguments with
/// spaces stay apart). Never what the server says of itself: a server that
/// renamed itself would get a fresh trust on first use.
fn server_key(server: Option<&str>, upstream: &Upstream) -> String {
    match (server, upstream) {
        (Some(id), _) => id.to_string(),
        (None, Upstream::Http(o)) => o.key.clone(),
        (None, Upstream::Stdio(c)) => {
            let argv = Value::Array(c.iter().map(|a| Value::str(a.clone())).collect());
            format!("stdio:{}", json::write_compact(&argv))
        }
    }
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

/// The client side, the same for every upstream: starts the stdout writer
/// and the stdin reader (each client line → the mediator → `server` / our
/// stdout). At EOF on stdin the reader sends `ToServer::Close` and signals
/// the returned receiver. Returns the sinks the upstream's readers use too,
/// and the stdout channel (for the final flush, [`flush_client`]).
fn client_side(
    session: &Arc<Mutex<Mediator>>,
    server: Sender<ToServer>,
    log: &Log,
    pins: Option<Arc<crate::pins::Saver>>,
) -> Result<(Sinks, Sender<ToClient>, Receiver<()>), Failure> {
    let (to_client, client_rx) = mpsc::channel();
    let sinks = Sinks { client: to_client.clone(), server, log: log.clone(), pins };
    spawn("stdout writer", move || write_client(client_rx))?;
    let (stdin_closed, stdin_closed_rx) = mpsc::channel::<()>();
    let (session, reader_sinks) = (session.clone(), sinks.clone());
    spawn("client reader", move || {
        read_lines(io::stdin().lock(), |line| match line {
            Line::Text(l) => reader_sinks.send(lock(&session).on_client_line(l)),
            Line::TooLong(len) => reader_sinks.send(vec![
                Out::Client(mcp_guard::jsonrpc::error_response(
                    &Value::Null,
                    mcp_guard::jsonrpc::code::PARSE_ERROR,
                    &format!("mcp-guard: message longer than {MAX_LINE} bytes"),
                    None,
                )),
                Out::Log(too_long("client", len)),
            ]),
        });
        let _ = reader_sinks.server.send(ToServer::Close);
        let _ = stdin_closed.send(());
    })?;
    Ok((sinks, to_client, stdin_closed_rx))
}

/// Waits (at most `grace`) until everything sent to our stdout is written.
fn flush_client(to_client: &Sender<ToClient>, grace: Duration) {
    let (ack, acked) = mpsc::sync_channel(1);
    if to_client.send(ToClient::Flush(ack)).is_ok() {
        let _ = acked.recv_timeout(grace);
    }
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
