//! The Streamable HTTP upstream: `mcp-guard proxy --url URL`.
//!
//! Each message the mediator sends upstream (`Out::Server`) becomes one POST;
//! what comes back — one JSON body or the events of an SSE stream — goes into
//! the same `Mediator::on_server_message` that stdio lines go into, so every
//! decision (ids, listings, the call gate, list changes) is the mediator's,
//! exactly as for a stdio server. Nothing the server sends reaches the client
//! except through the mediator: bodies and events are parsed with the
//! engine's strict parser and re-serialized; what cannot be parsed is dropped
//! with a log line.
//!
//! Both protocol versions:
//! - 2025-11-25: the `initialize` answer's `Mcp-Session-Id` is kept and sent
//!   on every later request with `MCP-Protocol-Version` (the handshake's
//!   version); after `notifications/initialized` a GET stream carries the
//!   server's own notifications and requests (list changes, sampling),
//!   reopened when it drops (405: the server has none); DELETE ends the
//!   session when the client closes stdin.
//! - 2026-07-28: stateless POSTs, each with `MCP-Protocol-Version`,
//!   `Mcp-Method` and `Mcp-Name` copied from the body, and for a tool whose
//!   schema (in the server's own listing) marks arguments `x-mcp-header`,
//!   `Mcp-Param-*` (`mcp_guard::mediate::http`); `subscriptions/listen` is a
//!   POST whose SSE stream stays open (its events are the notifications).
//!
//! Not done: resuming a dropped stream with `Last-Event-ID` (a reopened GET
//! stream starts afresh) and re-initializing after a 404 for the session
//! (the client gets `upstream-session-expired`).
//!
//! Failures: a request whose answer the transport cannot get (connection
//! error, `--timeout`, redirect, 401, other HTTP errors, a body that is not
//! JSON, over the cap or of another content type, an SSE stream that ends
//! first, an answer under another id) fails under the client's id with a
//! JSON-RPC error naming the cause (`Mediator::fail_request`; `error.data.reason`
//! `upstream-*`). Header values given with `--header` appear in no log and no
//! error.
//!
//! Threads: the main thread takes the mediator's messages in order; each
//! request is POSTed from a thread of its own (a slow call must not hold up a
//! listing; a listen stream stays open), notifications and the client's
//! answers from the main thread (in order, as the client sent them).

use super::{client_side, flush_client, lock, spawn, Log, Sinks, ToServer, MAX_LINE};
use crate::Failure;
use mcp_guard::json::{Number, Value};
use mcp_guard::jsonrpc::{method, parse_message};
use mcp_guard::mediate::{self, http::ACCEPT, protocol, Mediator, MAX_DEPTH};
use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use ureq::http::Response;
use ureq::{Agent, Body};

/// Bytes a `tools/list` answer may take beyond the policy's
/// `catalog_limits.max_catalog_bytes` (the JSON-RPC envelope, `_meta`,
/// `nextCursor`); the engine then applies the limit itself.
const LISTING_SLACK: u64 = 64 << 10;

/// Longest text of a server's header (`Location`, `WWW-Authenticate`,
/// `Content-Type`) quoted in an error to the client.
const MAX_QUOTED: usize = 300;

/// Consecutive failures to open the GET stream before it is given up.
const GET_RETRIES: u32 = 5;

/// Headers the transport sets itself: a `--header` may not replace them.
const OWN_HEADERS: &[&str] = &[
    "accept",
    "connection",
    "content-length",
    "content-type",
    "host",
    "last-event-id",
    "mcp-method",
    "mcp-name",
    "mcp-protocol-version",
    "mcp-session-id",
    "transfer-encoding",
];

/// The `--url` options, checked.
pub(super) struct Options {
    /// The endpoint, without its fragment.
    url: String,
    /// The server key: the URL without userinfo, query and fragment.
    pub(super) key: String,
    /// `--header`s, `${VAR}`s expanded. The values are secrets: never logged.
    headers: Vec<(String, String)>,
    timeout: Duration,
}

impl Options {
    /// Checks `--url`, `--header`s and `--timeout`; `env` reads a variable.
    /// An error names the header and the variable, never a value.
    pub(super) fn new(
        url: &str,
        headers: &[String],
        timeout: Duration,
        env: impl Fn(&str) -> Option<String>,
    ) -> Result<Options, String> {
        let (url, key) = endpoint(url)?;
        let mut out = Vec::new();
        for h in headers {
            let Some((name, value)) = h.split_once(':') else {
                return Err("--header wants 'NAME: VALUE'".to_string());
            };
            let name = name.trim();
            let token = |b: u8| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b);
            if name.is_empty() || !name.bytes().all(token) {
                return Err(format!("--header: {:?} is no header name", crate::term::escape(name)));
            }
            let lower = name.to_ascii_lowercase();
            if OWN_HEADERS.contains(&lower.as_str()) || lower.starts_with("mcp-param-") {
                return Err(format!("--header {name}: the proxy sets this header itself"));
            }
            let value = expand(value.trim(), &env).map_err(|e| format!("--header {name}: {e}"))?;
            if !value.bytes().all(|b| b == b'\t' || (0x20..0x7f).contains(&b)) {
                return Err(format!(
                    "--header {name}: the value (after ${{VAR}} expansion) holds a line break, a control \
                     character or non-ASCII text"
                ));
            }
            out.push((name.to_string(), value.trim().to_string()));
        }
        Ok(Options { url, key, headers: out, timeout })
    }
}

/// The URL to POST to (without fragment) and the server key (also without
/// userinfo and query). Userinfo is refused: credentials go in a header,
/// where they stay out of logs.
fn endpoint(url: &str) -> Result<(String, String), String> {
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url[8..]
    } else if lower.starts_with("http://") {
        &url[7..]
    } else {
        return Err("--url wants an http:// or https:// URL".to_string());
    };
    let scheme = &url[..url.len() - rest.len()];
    let url = url.split('#').next().unwrap_or(url);
    let rest = rest.split('#').next().unwrap_or(rest);
    let end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..end];
    if authority.contains('@') {
        return Err("--url: no user:password@ in the URL; send credentials with --header".to_string());
    }
    if authority.is_empty() || url.bytes().any(|b| b <= b' ' || b == 0x7f) {
        return Err("--url: no host, or spaces or control characters in the URL".to_string());
    }
    let path = rest[end..].split('?').next().unwrap_or("");
    Ok((url.to_string(), format!("{}{}{}", scheme.to_ascii_lowercase(), authority.to_ascii_lowercase(), path)))
}

/// `value` with each `${NAME}` replaced by the environment variable NAME.
fn expand(value: &str, env: &impl Fn(&str) -> Option<String>) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = value;
    while let Some(i) = rest.find("${") {
        out.push_str(&rest[..i]);
        let Some(j) = rest[i + 2..].find('}') else { return Err("an unclosed ${".to_string()) };
        let name = &rest[i + 2..i + 2 + j];
        let ok = name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !ok {
            return Err(format!("${{{}}} is no variable name", crate::term::escape(name)));
        }
        match env(name) {
            Some(v) => out.push_str(&v),
            None => return Err(format!("the environment variable {name} is not set")),
        }
        rest = &rest[i + 3 + j..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Why a request that still waits gets no answer: `error.data.reason` and
/// the message.
struct Fail {
    reason: &'static str,
    message: String,
}

fn fail(reason: &'static str, message: impl Into<String>) -> Fail {
    Fail { reason, message: message.into() }
}

/// The connection to one server.
struct Conn {
    o: Options,
    /// Requests: the whole exchange, answer included, within `--timeout`.
    agent: Agent,
    /// Long-lived streams (listen, GET): only until their headers arrive.
    streams: Agent,
    session_id: Mutex<Option<String>>,
    /// The version the `initialize` handshake settled (2025-11-25).
    negotiated: Mutex<Option<String>>,
    /// The latest per-request version a message carried (2026-07-28), for
    /// the messages that carry none (notifications).
    latest: Mutex<Option<String>>,
    /// Upstream tool name → its `x-mcp-header` annotations (only tools that
    /// have some), read from the server's own listings: the server checks
    /// a call's `Mcp-Param-*` headers against its schema, not the client's.
    params: Mutex<HashMap<String, mediate::http::Annotations>>,
    get_started: AtomicBool,
    closing: AtomicBool,
    /// Requests in flight (listen streams excepted), for the exit.
    in_flight: Mutex<usize>,
    mediator: Arc<Mutex<Mediator>>,
    sinks: Sinks,
    /// Byte cap of a `tools/list` answer.
    listing_cap: u64,
}

pub(super) fn serve(
    session: Mediator,
    o: Options,
    max_catalog_bytes: u64,
    log: Log,
    pins: Option<Arc<crate::pins::Saver>>,
) -> Result<u8, Failure> {
    let config = |b: ureq::config::ConfigBuilder<ureq::typestate::AgentScope>| {
        b.http_status_as_error(false)
            // A redirect is an error naming its target (a silent redirect
            // could move the session, and its headers, to another host).
            .max_redirects(0)
            .user_agent(concat!("mcp-guard/", env!("CARGO_PKG_VERSION")))
            .timeout_connect(Some(o.timeout))
    };
    let agent: Agent = config(Agent::config_builder()).timeout_global(Some(o.timeout)).build().into();
    let streams: Agent = config(Agent::config_builder()).timeout_recv_response(Some(o.timeout)).build().into();
    let names = o.headers.iter().map(|(k, _)| Value::str(k.clone())).collect();
    log.event(
        "start",
        vec![
            ("url", Value::str(o.key.clone())),
            ("headers", Value::Array(names)),
            ("timeout_ms", Value::Number(Number::from_u64(o.timeout.as_millis() as u64))),
        ],
    );
    let mediator = Arc::new(Mutex::new(session));
    let (to_server, server_rx) = mpsc::channel();
    let (sinks, to_client, _stdin_closed) = client_side(&mediator, to_server, &log, pins)?;
    let conn = Arc::new(Conn {
        o,
        agent,
        streams,
        session_id: Mutex::new(None),
        negotiated: Mutex::new(None),
        latest: Mutex::new(None),
        params: Mutex::new(HashMap::new()),
        get_started: AtomicBool::new(false),
        closing: AtomicBool::new(false),
        in_flight: Mutex::new(0),
        mediator,
        sinks,
        listing_cap: max_catalog_bytes.saturating_add(LISTING_SLACK).min(MAX_LINE as u64),
    });
    for m in &server_rx {
        match m {
            ToServer::Line(l) => dispatch(&conn, l),
            ToServer::Close => break,
        }
    }
    // The client closed stdin: the answers already asked for still go out
    // (a client may close its input and read on), then the session ends.
    // The mediator may still send (the next page of a listing), so its
    // messages are still dispatched meanwhile.
    conn.closing.store(true, Ordering::SeqCst);
    let deadline = Instant::now() + conn.o.timeout + Duration::from_secs(1);
    while *lock(&conn.in_flight) > 0 && Instant::now() < deadline {
        match server_rx.recv_timeout(Duration::from_millis(20)) {
            Ok(ToServer::Line(l)) => dispatch(&conn, l),
            Ok(ToServer::Close) | Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    end_session(&conn, &log);
    flush_client(&to_client, Duration::from_secs(5));
    log.event("exit", vec![("code", Value::Number(Number::from_u64(0)))]);
    Ok(0)
}

/// One message from the mediator: a request goes out from a thread of its
/// own; anything else (a notification, the client's answer to a server
/// request) from here, in order.
fn dispatch(conn: &Arc<Conn>, line: String) {
    // The mediator wrote it: it parses (a failure would be a bug; dropped
    // with a log line rather than sent unread).
    let msg = match parse_message(line.as_bytes(), MAX_DEPTH) {
        Ok(v) => v,
        Err((_, why)) => {
            conn.sinks.log.event("upstream-message-dropped", vec![("reason", Value::str(why))]);
            return;
        }
    };
    let one = |m: &Value| match (method(m), m.as_object().and_then(|o| o.get("id"))) {
        (Some(_), Some(Value::String(id))) => Some(id.clone()),
        _ => None,
    };
    let ids: Vec<String> = match &msg {
        Value::Array(items) => items.iter().filter_map(one).collect(),
        m => one(m).into_iter().collect(),
    };
    if let Some(v) = protocol::meta_version(&msg) {
        *lock(&conn.latest) = Some(v.to_string());
    }
    if ids.is_empty() {
        exchange(conn, &line, &msg, &ids);
        if method(&msg) == Some("notifications/initialized") {
            start_get_stream(conn);
        }
        return;
    }
    let listen = method(&msg) == Some("subscriptions/listen");
    if !listen {
        *lock(&conn.in_flight) += 1;
    }
    let (c, pending) = (conn.clone(), ids.clone());
    let started = spawn("upstream request", move || {
        exchange(&c, &line, &msg, &ids);
        if !listen {
            *lock(&c.in_flight) -= 1;
        }
    });
    if started.is_err() {
        // No thread for it (resources exhausted): the request fails, the
        // proxy goes on.
        if !listen {
            *lock(&conn.in_flight) -= 1;
        }
        for id in pending {
            let out = lock(&conn.mediator).fail_request(&id, "the proxy could not start a thread for it", "proxy-busy");
            conn.sinks.send(out);
        }
    }
}

/// POSTs one message and hands what comes back to the mediator; then every
/// request of `ids` that still waits fails with the cause.
fn exchange(conn: &Conn, body: &str, msg: &Value, ids: &[String]) {
    let m = method(msg);
    let listen = m == Some("subscriptions/listen");
    let agent = if listen { &conn.streams } else { &conn.agent };
    let mut req = agent.post(&conn.o.url).header("Content-Type", "application/json").header("Accept", ACCEPT);
    req = with_headers(conn, req, msg);
    let cap = if m == Some("tools/list") { conn.listing_cap } else { MAX_LINE as u64 };
    let why = match req.send(body.as_bytes()) {
        Err(e) => from_ureq(&e, conn.o.timeout),
        Ok(resp) => answer(conn, resp, m, cap, !ids.is_empty()),
    };
    if ids.is_empty() {
        if let Some(f) = why.filter(|f| f.reason != "upstream-no-answer") {
            conn.sinks.log.event(
                "upstream-post-failed",
                vec![
                    ("method", m.map_or(Value::Null, Value::str)),
                    ("reason", Value::str(f.reason)),
                    ("message", Value::str(f.message)),
                ],
            );
        }
        return;
    }
    let f = why.unwrap_or_else(|| fail("upstream-no-answer", "the server's reply held no answer to this request"));
    for id in ids {
        let out = lock(&conn.mediator).fail_request(id, &f.message, f.reason);
        conn.sinks.send(out);
    }
}

/// The user's headers, the session and the MCP headers of `msg`.
fn with_headers<B>(conn: &Conn, mut req: ureq::RequestBuilder<B>, msg: &Value) -> ureq::RequestBuilder<B> {
    for (k, v) in &conn.o.headers {
        req = req.header(k, v);
    }
    if let Some(sid) = lock(&conn.session_id).clone() {
        req = req.header("Mcp-Session-Id", sid);
    }
    let fallback = lock(&conn.negotiated).clone().or_else(|| lock(&conn.latest).clone());
    let mcp = mediate::http::request_headers(msg, fallback.as_deref());
    let per_request = mcp.iter().any(|(k, _)| *k == "Mcp-Method");
    for (k, v) in mcp {
        req = req.header(k, v);
    }
    if per_request && method(msg) == Some("tools/call") {
        let p = msg.as_object().and_then(|o| o.get("params"));
        let name = p.and_then(|p| p.as_object()?.get("name")?.as_str());
        let args = p.and_then(|p| p.as_object()?.get("arguments"));
        if let (Some(name), Some(args)) = (name, args) {
            if let Some(ann) = lock(&conn.params).get(name) {
                for (k, v) in mediate::http::param_headers(ann, args) {
                    req = req.header(k, v);
                }
            }
        }
    }
    req
}

/// Keeps the `x-mcp-header` annotations of the tools in a `tools/list`
/// answer (one page; later pages and re-lists add or replace).
fn learn_params(conn: &Conn, answer: &Value) {
    let Some(tools) = mcp_guard::json::pointer_get(answer, "/result/tools").and_then(Value::as_array) else { return };
    let mut params = lock(&conn.params);
    for t in tools {
        let Some(name) = t.as_object().and_then(|o| o.get("name")).and_then(Value::as_str) else { continue };
        let schema = t.as_object().and_then(|o| o.get("inputSchema")).unwrap_or(&Value::Null);
        match mediate::http::x_mcp_headers(schema) {
            Some(a) if !a.is_empty() => drop(params.insert(name.to_string(), a)),
            _ => drop(params.remove(name)),
        }
    }
}

/// What a send error means for the request.
fn from_ureq(e: &ureq::Error, timeout: Duration) -> Option<Fail> {
    Some(match e {
        ureq::Error::Timeout(_) => timed_out(timeout),
        ureq::Error::HostNotFound => fail("upstream-unreachable", "the server's host name does not resolve"),
        // rustls reports a refused certificate or a failed handshake as
        // InvalidData through the socket (ureq re-exports no rustls type).
        ureq::Error::Io(io) if io.kind() == io::ErrorKind::InvalidData => {
            fail("upstream-tls", format!("TLS with the server failed: {io}"))
        }
        ureq::Error::Io(io) => fail("upstream-unreachable", format!("cannot reach the server: {io}")),
        ureq::Error::Tls(_) | ureq::Error::Pem(_) | ureq::Error::Rustls(_) => {
            fail("upstream-tls", format!("TLS with the server failed: {e}"))
        }
        other => fail("upstream-unreachable", format!("the request failed: {other}")),
    })
}

fn timed_out(timeout: Duration) -> Fail {
    fail("upstream-timeout", format!("no answer from the server within {} s (--timeout)", timeout.as_secs_f64()))
}

/// A header of the server's, as text safe to quote to the client: printable
/// ASCII only, at most `MAX_QUOTED` characters.
fn quoted(resp: &Response<Body>, name: &str) -> String {
    let Some(v) = resp.headers().get(name) else { return "(none)".to_string() };
    let mut s: String = v.as_bytes().iter().filter(|b| (0x20..0x7f).contains(*b)).map(|&b| b as char).collect();
    if s.len() > MAX_QUOTED {
        s.truncate(MAX_QUOTED);
        s.push_str("...");
    }
    s
}

/// Reads one reply. Returns why a request of it that still waits gets no
/// answer (`None`: a notification's 202).
fn answer(conn: &Conn, resp: Response<Body>, m: Option<&str>, cap: u64, is_request: bool) -> Option<Fail> {
    let status = resp.status().as_u16();
    if m == Some("initialize") {
        if let Some(sid) = resp.headers().get("mcp-session-id").and_then(|v| v.to_str().ok()) {
            // Sent back on every request: only a visible-ASCII id is kept.
            if !sid.is_empty() && sid.bytes().all(|b| (0x21..0x7f).contains(&b)) {
                *lock(&conn.session_id) = Some(sid.to_string());
            }
        }
    }
    let ctype = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(|t| t.split(';').next().unwrap_or("").trim().to_ascii_lowercase())
        .unwrap_or_default();
    match status {
        // 202/204: accepted, no body (what a notification or an answer to
        // the server gets); a request's answer is then missing.
        202 | 204 => is_request
            .then(|| fail("upstream-no-answer", format!("the server accepted the request (HTTP {status}) but sent no answer"))),
        200..=299 if ctype == "application/json" => read_json(conn, resp, m, cap),
        200..=299 if ctype == "text/event-stream" => read_sse(conn, resp.into_body(), m, cap, conn.o.timeout),
        200..=299 => Some(fail(
            "upstream-content-type",
            format!(
                "the server answered with Content-Type {:?} (expected application/json or text/event-stream); \
                 the body was not read",
                quoted(&resp, "content-type")
            ),
        )),
        300..=399 => Some(fail(
            "upstream-redirect",
            format!(
                "the server redirects (HTTP {status}) to {}; redirects are not followed: give that URL to --url if you trust it",
                quoted(&resp, "location")
            ),
        )),
        401 => Some(fail(
            "upstream-unauthorized",
            format!(
                "the server wants authorization (HTTP 401; WWW-Authenticate: {}); mcp-guard runs no OAuth flow: \
                 pass a token with --header 'Authorization: Bearer ${{VAR}}'",
                quoted(&resp, "www-authenticate")
            ),
        )),
        _ => {
            // A JSON-RPC error in the body (a 2026-07-28 server answers a
            // refused request 400/404 with one) goes through the mediator
            // like any answer; the status names the cause otherwise.
            if ctype == "application/json" {
                let _ = read_json(conn, resp, None, cap);
            }
            let session = status == 404 && lock(&conn.session_id).is_some();
            Some(if session {
                fail("upstream-session-expired", "the server no longer knows the session (HTTP 404); restart the client")
            } else {
                fail("upstream-http-status", format!("the server answered HTTP {status}"))
            })
        }
    }
}

/// Reads a read error: a time-out, or the connection broke.
fn read_error(e: &io::Error, timeout: Duration, what: &str) -> Fail {
    let timeout_hit = e.kind() == io::ErrorKind::TimedOut
        || e.get_ref()
            .and_then(|i| i.downcast_ref::<ureq::Error>())
            .is_some_and(|u| matches!(u, ureq::Error::Timeout(_)));
    if timeout_hit {
        timed_out(timeout)
    } else {
        fail("upstream-stream-ended", format!("the connection broke while reading {what}: {e}"))
    }
}

/// One JSON body, at most `cap` bytes, into the mediator.
fn read_json(conn: &Conn, resp: Response<Body>, m: Option<&str>, cap: u64) -> Option<Fail> {
    let mut body = Vec::new();
    if let Err(e) = resp.into_body().into_reader().take(cap + 1).read_to_end(&mut body) {
        return Some(read_error(&e, conn.o.timeout, "the answer"));
    }
    if body.len() as u64 > cap {
        let out = lock(&conn.mediator).server_unreadable("body over the cap", body.len());
        conn.sinks.send(vec![out]);
        return Some(fail("upstream-too-large", format!("the server's answer is larger than {cap} bytes; not read")));
    }
    message(conn, &body, m)
}

/// One message (a body, an event's data) into the mediator.
fn message(conn: &Conn, bytes: &[u8], m: Option<&str>) -> Option<Fail> {
    match parse_message(bytes, MAX_DEPTH) {
        Err((_, why)) => {
            let out = lock(&conn.mediator).server_unreadable(&why, bytes.len());
            conn.sinks.send(vec![out]);
            Some(fail("upstream-not-json", format!("the server's answer is not strict JSON ({why}); dropped")))
        }
        Ok(v) => {
            if m == Some("tools/list") {
                learn_params(conn, &v);
            }
            if m == Some("initialize") {
                if let Some(ver) = mcp_guard::json::pointer_get(&v, "/result/protocolVersion").and_then(Value::as_str) {
                    *lock(&conn.negotiated) = Some(ver.to_string());
                }
            }
            let out = lock(&conn.mediator).on_server_message(v);
            conn.sinks.send(out);
            None
        }
    }
}

/// An SSE stream's events into the mediator, each at most `cap` bytes,
/// until it ends; returns why a request still waiting got no answer.
fn read_sse(conn: &Conn, body: Body, m: Option<&str>, cap: u64, timeout: Duration) -> Option<Fail> {
    let cap = cap.min(MAX_LINE as u64) as usize;
    let mut r = BufReader::new(body.into_reader());
    let mut data: Vec<u8> = Vec::new();
    let (mut has_data, mut over) = (false, false);
    let mut line = Vec::new();
    let mut last_fail = None;
    loop {
        line.clear();
        let n = match (&mut r).take(cap as u64 + 1).read_until(b'\n', &mut line) {
            Ok(n) => n,
            Err(e) => return Some(read_error(&e, timeout, "the SSE stream")),
        };
        if n == 0 {
            // EOF: an event without its blank line is incomplete, never used.
            return last_fail
                .or_else(|| Some(fail("upstream-stream-ended", "the server's SSE stream ended before the answer")));
        }
        if line.last() != Some(&b'\n') && line.len() > cap {
            // Over the cap: skip to the end of the line, drop the event.
            over = true;
            let mut sink = Vec::new();
            loop {
                sink.clear();
                match (&mut r).take(1 << 16).read_until(b'\n', &mut sink) {
                    Ok(0) => break,
                    Ok(_) if sink.last() == Some(&b'\n') => break,
                    Ok(_) => continue,
                    Err(e) => return Some(read_error(&e, timeout, "the SSE stream")),
                }
            }
            continue;
        }
        while matches!(line.last(), Some(b'\n' | b'\r')) {
            line.pop();
        }
        if line.is_empty() {
            if over {
                let out = lock(&conn.mediator).server_unreadable("SSE event over the cap", data.len());
                conn.sinks.send(vec![out]);
                last_fail = Some(fail(
                    "upstream-too-large",
                    format!("an SSE event of the server's is larger than {cap} bytes; dropped"),
                ));
            } else if has_data && !data.iter().all(u8::is_ascii_whitespace) {
                // (An event with empty data primes a stream for resumption.)
                if let Some(f) = message(conn, &data, m) {
                    last_fail = Some(f);
                }
            }
            data.clear();
            (has_data, over) = (false, false);
            continue;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => (&line[..i], line[i + 1..].strip_prefix(b" ").unwrap_or(&line[i + 1..])),
            None => (&line[..], &b""[..]),
        };
        if field == b"data" && !over {
            if has_data {
                data.push(b'\n');
            }
            if data.len() + value.len() > cap {
                over = true;
                data.clear();
            } else {
                data.extend_from_slice(value);
            }
            has_data = true;
        }
    }
}

/// 2025-11-25: opens the GET stream for the server's own messages, once
/// per session, after the handshake.
fn start_get_stream(conn: &Arc<Conn>) {
    if lock(&conn.negotiated).is_none() || conn.get_started.swap(true, Ordering::SeqCst) {
        return;
    }
    let c = conn.clone();
    if spawn("upstream GET stream", move || get_stream(&c)).is_err() {
        conn.sinks.log.event("get-stream", vec![("state", Value::str("not-started"))]);
    }
}

fn get_stream(conn: &Conn) {
    let log = &conn.sinks.log;
    let mut failures = 0;
    while !conn.closing.load(Ordering::SeqCst) {
        let req = conn.streams.get(&conn.o.url).header("Accept", "text/event-stream");
        // No message: only the session's version header applies.
        let req = with_headers(conn, req, &Value::Null);
        let why = match req.call() {
            Err(e) => from_ureq(&e, conn.o.timeout),
            Ok(resp) => {
                let status = resp.status().as_u16();
                let sse = resp.headers().get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|t| {
                    t.split(';').next().unwrap_or("").trim().eq_ignore_ascii_case("text/event-stream")
                });
                if status == 405 {
                    log.event(
                        "get-stream",
                        vec![("state", Value::str("unavailable")), ("status", Value::Number(Number::from_u64(405)))],
                    );
                    return;
                }
                if status == 200 && sse {
                    failures = 0;
                    log.event("get-stream", vec![("state", Value::str("open"))]);
                    read_sse(conn, resp.into_body(), None, MAX_LINE as u64, conn.o.timeout)
                } else {
                    Some(fail("upstream-http-status", format!("HTTP {status}")))
                }
            }
        };
        if conn.closing.load(Ordering::SeqCst) {
            return;
        }
        failures += 1;
        let message = why.map_or_else(String::new, |f| f.message);
        log.event("get-stream", vec![("state", Value::str("closed")), ("message", Value::str(message))]);
        if failures >= GET_RETRIES {
            log.event("get-stream", vec![("state", Value::str("given-up"))]);
            return;
        }
        std::thread::sleep(Duration::from_millis(500 * u64::from(failures)));
    }
}

/// 2025-11-25: DELETE ends the session (a server that keeps none answers
/// 405; either way the proxy is done).
fn end_session(conn: &Conn, log: &Log) {
    if lock(&conn.session_id).is_none() {
        return;
    }
    let req = with_headers(conn, conn.agent.delete(&conn.o.url), &Value::Null);
    let status = match req.call() {
        Ok(r) => Value::Number(Number::from_u64(r.status().as_u16().into())),
        Err(e) => Value::str(from_ureq(&e, conn.o.timeout).map_or_else(String::new, |f| f.message)),
    };
    log.event("session-closed", vec![("status", status)]);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(url: &str, headers: &[&str]) -> Result<Options, String> {
        let env = |k: &str| (k == "TOKEN").then(|| "s3cret".to_string());
        let h: Vec<String> = headers.iter().map(|s| s.to_string()).collect();
        Options::new(url, &h, Duration::from_secs(1), env)
    }

    #[test]
    fn the_server_key_drops_userinfo_query_and_fragment() {
        let o = opts("HTTPS://Mcp.Example.com:8443/mcp/v1?token=abc#frag", &[]).unwrap();
        assert_eq!(o.key, "https://mcp.example.com:8443/mcp/v1");
        assert_eq!(o.url, "HTTPS://Mcp.Example.com:8443/mcp/v1?token=abc");
        assert!(opts("https://user:pw@example.com/mcp", &[]).err().unwrap().contains("--header"));
        assert!(opts("ftp://example.com", &[]).is_err());
        assert!(opts("https:///mcp", &[]).is_err());
    }

    #[test]
    fn header_variables_expand_and_errors_never_show_a_value() {
        let o = opts("http://127.0.0.1:1/mcp", &["Authorization: Bearer ${TOKEN}", "X-A:b"]).unwrap();
        assert_eq!(o.headers, [("Authorization".into(), "Bearer s3cret".into()), ("X-A".into(), "b".into())]);
        let e = opts("http://h/", &["Authorization: Bearer ${MISSING}"]).err().unwrap();
        assert!(e.contains("MISSING") && !e.contains("Bearer"), "{e}");
        let e = opts("http://h/", &["X-Bad: a\r\nHost: evil"]).err().unwrap();
        assert!(!e.contains("evil"), "{e}");
        assert!(opts("http://h/", &["Mcp-Session-Id: x"]).is_err());
        assert!(opts("http://h/", &["Bad Name: x"]).is_err());
        assert!(opts("http://h/", &["X: ${UNCLOSED"]).is_err());
    }
}
