//! The host glue: Envoy's callbacks in, `guard`'s decisions out.
//!
//! Host calls go through `proxy_wasm::hostcalls` directly, not the trait
//! helpers: those `unwrap()` the host's status, and a panic traps the VM.
//! Here a failed host call is a value — for a `tools/list` answer it fails
//! the listing closed. (The SDK's hostcalls still panic on a status the ABI
//! does not allow for that call; that is a broken host, not input.)
//!
//! Shared data (one store per `vm_id`, shared by every worker thread):
//! - `mcp-guard/1/baseline/<server>/<session>`: the session's
//!   `Baseline::to_json`, updated with compare-and-swap;
//! - `mcp-guard/1/tombstone/<server>/<session>`: the expiry of a session
//!   closed by drift, milliseconds since the epoch from the host's clock.
//!
//! proxy-wasm 0.2.1 cannot delete a key: an empty value means "none".

use crate::config::FilterConfig;
use crate::guard::{self, code, Expect, Gate, Listed, Prepared, Repeat, Request, SseGuard};
use mcp_guard::json::{self, Object, Value};
use mcp_guard::pinning::Baseline;
use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, BufferType, ContextType, LogLevel, MapType, Status};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::{Duration, UNIX_EPOCH};

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|_| -> Box<dyn RootContext> { Box::new(Root { cfg: None }) });
}}

/// Attempts at a compare-and-swap update of a session before the listing
/// fails closed (another listing of the same session kept winning).
const CAS_ATTEMPTS: usize = 4;

/// The filter's own log lines: refusals and drops are warnings.
fn log_lines(lines: Vec<Value>) {
    for l in lines {
        let ev = l.as_object().and_then(|o| o.get("event")).and_then(Value::as_str).unwrap_or("");
        let level = if matches!(ev, "response-dropped" | "answer-refused" | "listing-unusable") { LogLevel::Warn } else { LogLevel::Info };
        log(level, l);
    }
}

fn log(level: LogLevel, event: Value) {
    // Logging is best effort: a failed log call must not fail a request.
    let _ = hostcalls::log(level, &format!("mcp-guard {}", json::write_compact(&event)));
}

struct Root {
    /// `None` until `on_configure` succeeded.
    cfg: Option<Rc<FilterConfig>>,
}

impl Context for Root {}

impl RootContext for Root {
    fn on_configure(&mut self, _size: usize) -> bool {
        let bytes = match hostcalls::get_buffer(BufferType::PluginConfiguration, 0, usize::MAX) {
            Ok(b) => b.unwrap_or_default(),
            Err(s) => {
                let _ = hostcalls::log(LogLevel::Critical, &format!("mcp-guard: cannot read the filter configuration ({s:?})"));
                return false;
            }
        };
        match FilterConfig::from_bytes(&bytes) {
            Ok(c) => {
                self.cfg = Some(Rc::new(c));
                true
            }
            Err(e) => {
                // Returning false fails the plugin: Envoy rejects the
                // configuration, the filter never runs half-configured.
                let _ = hostcalls::log(LogLevel::Critical, &format!("mcp-guard: bad filter configuration: {e}"));
                false
            }
        }
    }

    fn create_http_context(&self, _id: u32) -> Option<Box<dyn HttpContext>> {
        Some(Box::new(Http {
            cfg: self.cfg.clone(),
            session: String::new(),
            inspect_request: false,
            get: false,
            expect: None,
            response: Response::Off,
        }))
    }

    fn get_type(&self) -> Option<ContextType> {
        Some(ContextType::HttpContext)
    }
}

/// What happens to the response body.
enum Response {
    /// Not an MCP stream: passes untouched.
    Off,
    /// `application/json` answer: buffered until the end, then judged.
    Json(Expect),
    /// `text/event-stream` answer: judged event by event.
    Sse(SseGuard),
    /// Buffered and replaced by this message at the end (an answer the
    /// filter cannot read: compressed, unknown content type).
    Replace(String),
    /// Already answered: every further byte is dropped.
    Discard,
    /// Unreadable (compressed, another content type) with nothing waiting
    /// for an answer: dropped like `Discard`, logged once if any byte comes
    /// (a 202 to a notification often has an empty body of no type).
    Unread(String),
}

struct Http {
    cfg: Option<Rc<FilterConfig>>,
    /// The `Mcp-Session-Id` ("" without one: a stateless server's clients
    /// share one baseline, the server's catalog for everyone).
    ///
    /// Protocol 2026-07-28 (the Python SDK's default mode) has no session at
    /// all: no `initialize`, no `Mcp-Session-Id`, the version in each
    /// request's `_meta`. Its requests take the same "" baseline, keyed by
    /// the configured `server` alone: the first listing through the filter
    /// pins the server's catalog, every later one (any client's) is compared
    /// with it, and a call is gated against it. That keeps it closed — no
    /// listing is served, no call forwarded, without the engine — with
    /// nothing the filter does not do today. Not done yet (a later issue):
    /// pins that follow one client across requests, checks of the
    /// `Mcp-Method`/`Mcp-Name` headers against the body (a mapped tool name
    /// is rewritten in the body only, so such a server refuses the call
    /// with -32020), and the expiry of a tombstone for "" (checked only for
    /// a session id: a stateless server closed by drift stays closed).
    session: String,
    /// A JSON POST whose body the filter reads before it goes upstream.
    inspect_request: bool,
    /// A GET for the server's event stream (read as one, whatever its
    /// content type says: the SDK clients do).
    get: bool,
    /// The answers this stream may carry (`guard::Expect`, the
    /// response-id rule); `None`: not an MCP stream, passes untouched.
    expect: Option<Expect>,
    response: Response,
}

/// Sessions whose parsed baseline a worker keeps (each worker runs its own
/// VM; a miss only costs one parse).
const CACHE_ENTRIES: usize = 256;

thread_local! {
    /// Parsed baselines by shared-data key, with the CAS token they were
    /// read or written at. Parsing a 100-tool baseline on every tools/call
    /// would cost more than the call gate itself.
    static PARSED: RefCell<HashMap<String, Parsed>> = RefCell::new(HashMap::new());
}

/// Bytes of catalogs and answers a worker keeps for repeated listings.
const REPEAT_BYTES: usize = 32 << 20;

thread_local! {
    /// Per session (shared-data key): the last listing that left the state
    /// as it was. See `guard::Repeat`: a client listing an unchanged catalog
    /// again is served without the engine.
    static REPEATS: RefCell<HashMap<String, Kept>> = RefCell::new(HashMap::new());
}

/// A kept answer, with the CAS token of the state and the configuration it
/// was computed under (`Rc` identity: a reconfigured filter has a new one).
type Kept = (u32, Rc<FilterConfig>, Repeat);

/// A session's state as loaded: parsed, its CAS token, its bytes.
type Stored = (Option<Rc<Baseline>>, Option<u32>, Vec<u8>);

fn repeat(key: &str, cas: Option<u32>, cfg: &Rc<FilterConfig>, catalog: &str, id: &Value) -> Option<(String, Value)> {
    let cas = cas?;
    REPEATS.with(|m| {
        let m = m.borrow();
        let (c, conf, r) = m.get(key)?;
        if *c != cas || !Rc::ptr_eq(conf, cfg) {
            return None;
        }
        r.answer(catalog, id)
    })
}

fn remember_repeat(key: String, cas: u32, cfg: Rc<FilterConfig>, r: Repeat) {
    REPEATS.with(|m| bounded_insert(&mut m.borrow_mut(), key, (cas, cfg, r), |(_, _, r)| r.size(), REPEAT_BYTES));
}

/// Inserts into one of a worker's caches, bounded by entries and by bytes:
/// crude but bounded — when either bound would be passed it starts over
/// rather than track recency, and a value over the byte bound alone is not
/// kept.
fn bounded_insert<V>(m: &mut HashMap<String, V>, key: String, v: V, size: impl Fn(&V) -> usize, max_bytes: usize) {
    m.remove(&key);
    let n = size(&v);
    if m.len() >= CACHE_ENTRIES || m.values().map(&size).sum::<usize>() + n > max_bytes {
        m.clear();
    }
    if n <= max_bytes {
        m.insert(key, v);
    }
}

/// Bytes of stored baselines whose parsed form a worker keeps. Bounded by
/// size as well as by count: a few sessions of a 10,000-tool catalog (20 MB
/// of baseline each) exhausted a worker's memory when only the count was
/// bounded (found by the benchmark of BENCHMARKS.md's performance table).
const PARSED_BYTES: usize = 32 << 20;

/// A parsed baseline: the CAS token and the size of the bytes it was read from.
type Parsed = (u32, usize, Rc<Baseline>);

fn cached(key: &str, cas: u32) -> Option<Rc<Baseline>> {
    PARSED.with(|m| m.borrow().get(key).filter(|(c, _, _)| *c == cas).map(|(_, _, b)| b.clone()))
}

/// Keeps the parsed form of `bytes` stored bytes of baseline.
fn remember(key: String, cas: u32, bytes: usize, b: Rc<Baseline>) {
    PARSED.with(|m| bounded_insert(&mut m.borrow_mut(), key, (cas, bytes, b), |(_, n, _)| *n, PARSED_BYTES));
}

fn header(map: MapType, name: &str) -> Option<String> {
    hostcalls::get_map_value(map, name).ok().flatten()
}

fn now() -> Option<Duration> {
    hostcalls::get_current_time().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok())
}

impl Http {
    fn key(&self, kind: &str, cfg: &FilterConfig) -> String {
        format!("mcp-guard/1/{kind}/{}/{}", cfg.opts.server.as_deref().unwrap_or(""), self.session)
    }

    /// Answers the client from the filter; nothing of upstream follows.
    fn answer(&mut self, status: u32, body: &str) {
        self.expect = None;
        let headers = vec![("content-type", "application/json")];
        if let Err(s) = hostcalls::send_http_response(status, headers, Some(body.as_bytes())) {
            log(LogLevel::Error, guard::obj([("event", guard::s("send-failed")), ("status", guard::s(&format!("{s:?}")))]));
        }
    }

    /// A live tombstone for this session (expired ones are cleared, with
    /// the session's baseline: the session id then starts afresh).
    fn tombstoned(&self, cfg: &FilterConfig) -> bool {
        let key = self.key("tombstone", cfg);
        let Ok((Some(v), cas)) = hostcalls::get_shared_data(&key) else { return false };
        if v.is_empty() {
            return false;
        }
        let expiry = std::str::from_utf8(&v).ok().and_then(|t| t.parse::<u64>().ok());
        let now_ms = now().map(|d| d.as_millis() as u64);
        match (expiry, now_ms) {
            (Some(e), Some(n)) if n >= e => {
                let _ = hostcalls::set_shared_data(&key, Some(b""), cas);
                let _ = hostcalls::set_shared_data(&self.key("baseline", cfg), Some(b""), None);
                false
            }
            // Unreadable expiry or no clock: still dead (closed, not open).
            _ => true,
        }
    }

    /// The session's baseline and its CAS token. `Err`: stored but
    /// unreadable (fail closed, never start over silently).
    fn load(&self, cfg: &FilterConfig) -> Result<(Option<Rc<Baseline>>, Option<u32>), String> {
        self.load_stored(cfg).map(|(b, cas, _)| (b, cas))
    }

    /// [`Http::load`], with the stored bytes.
    fn load_stored(&self, cfg: &FilterConfig) -> Result<Stored, String> {
        let key = self.key("baseline", cfg);
        match hostcalls::get_shared_data(&key) {
            Ok((Some(v), cas)) if !v.is_empty() => {
                // Envoy bumps the CAS token on every write: the same token
                // means the same bytes, already parsed on this worker.
                if let Some(b) = cas.and_then(|c| cached(&key, c)) {
                    return Ok((Some(b), cas, v));
                }
                let text = std::str::from_utf8(&v).map_err(|_| "the stored baseline is not UTF-8".to_string())?;
                let b = Rc::new(Baseline::from_json(text).map_err(|e| e.to_string())?);
                if let Some(c) = cas {
                    remember(key, c, v.len(), b.clone());
                }
                Ok((Some(b), cas, v))
            }
            Ok((_, cas)) => Ok((None, cas, Vec::new())),
            Err(s) => Err(format!("shared data unavailable ({s:?})")),
        }
    }

    /// Runs the engine on our `tools/list` answer and stores the session
    /// state with compare-and-swap (a concurrent listing of the same session
    /// that stored first makes this one re-run on the new state).
    fn listing(&self, cfg: &Rc<FilterConfig>, msg: &Object) -> (String, Value) {
        // The filter's own time per listing (engine + shared data), in the
        // log line: the benchmark reads it, free of network noise.
        let t0 = now();
        let (message, mut line) = self.listing_inner(cfg, msg);
        if let (Some(a), Some(b), Some(o)) = (t0, now(), line.as_object_mut()) {
            let us = b.saturating_sub(a).as_micros() as u64;
            o.insert("micros", Value::Number(json::Number::from_u64(us)));
            o.insert("bytes", Value::Number(json::Number::from_u64(message.len() as u64)));
        }
        (message, line)
    }

    fn listing_inner(&self, cfg: &Rc<FilterConfig>, msg: &Object) -> (String, Value) {
        let id = msg.get("id").cloned().unwrap_or(Value::Null);
        let catalog = match guard::prepare(msg) {
            Prepared::Done(l) => return (l.message, l.log),
            Prepared::Catalog(c) => c,
        };
        let key = self.key("baseline", cfg);
        for _ in 0..CAS_ATTEMPTS {
            let (baseline, cas, stored) = match self.load_stored(cfg) {
                Ok(x) => x,
                Err(why) => {
                    let l = guard::fail_closed(&id, "invalid-baseline", &why);
                    return (l.message, l.log);
                }
            };
            if let Some(hit) = repeat(&key, cas, cfg, &catalog, &id) {
                return hit;
            }
            let Listed { message, store, tombstone, log: line } = guard::answer_catalog(cfg, baseline.as_deref(), &id, &catalog);
            let Some(next) = store else { return (message, line) };
            let text = next.to_json();
            if !tombstone && text.as_bytes() == stored.as_slice() {
                // The state is as it was: nothing to write, and the same
                // catalog against it will get this answer again.
                if let Some((c, r)) = cas.and_then(|c| Some((c, Repeat::new(catalog, &id, &message, &line)?))) {
                    remember_repeat(key, c, cfg.clone(), r);
                }
                return (message, line);
            }
            match hostcalls::set_shared_data(&key, Some(text.as_bytes()), cas) {
                Ok(()) => {
                    // Learn the token of our own write, so the next request
                    // of the session skips parsing it — unless another
                    // worker wrote in between (then its bytes are parsed).
                    if let Ok((Some(v), Some(c))) = hostcalls::get_shared_data(&key) {
                        if v == text.as_bytes() {
                            remember(key, c, v.len(), Rc::new(next));
                        }
                    }
                }
                Err(Status::CasMismatch) => continue,
                Err(s) => {
                    let l = guard::fail_closed(&id, "state-unavailable", &format!("cannot store the session state ({s:?})"));
                    return (l.message, l.log);
                }
            }
            if tombstone {
                let expiry = now().map(|n| (n + cfg.tombstone_ttl).as_millis() as u64).unwrap_or(u64::MAX);
                // The baseline already says `invalidated`, so a lost
                // tombstone write still refuses every call and listing.
                let _ = hostcalls::set_shared_data(&self.key("tombstone", cfg), Some(expiry.to_string().as_bytes()), None);
                log(LogLevel::Warn, guard::obj([("event", guard::s("session-invalidated")), ("session", guard::s(&self.session))]));
            }
            return (message, line);
        }
        let l = guard::fail_closed(&id, "state-conflict", "the session state kept changing under concurrent listings");
        (l.message, l.log)
    }
}

impl Context for Http {}

impl HttpContext for Http {
    fn on_http_request_headers(&mut self, _n: usize, eos: bool) -> Action {
        let Some(cfg) = self.cfg.clone() else {
            // Unreachable once configured (Envoy never creates a stream for
            // a plugin whose on_configure failed); closed if it ever is.
            self.answer(503, &guard::error_response(&Value::Null, code::REFUSED, "mcp-guard: filter not configured", None));
            return Action::Pause;
        };
        let method = header(MapType::HttpRequestHeaders, ":method").unwrap_or_default();
        let session = header(MapType::HttpRequestHeaders, "mcp-session-id");
        self.session = session.clone().unwrap_or_default();
        if session.is_some() && method == "DELETE" {
            // The client ends the session: its baseline goes (a tombstone
            // stays until it expires). DELETE of a dead session passes, so
            // the client can still end it upstream.
            let _ = hostcalls::set_shared_data(&self.key("baseline", &cfg), Some(b""), None);
            return Action::Continue;
        }
        if session.is_some() && self.tombstoned(&cfg) {
            // A session closed by drift surfaces as a conflict with
            // the session's state, not as a rate limit.
            let message = "mcp-guard: this session was closed because its tools changed; start a new session";
            self.answer(409, &guard::error_response(&Value::Null, code::REFUSED, message, Some(guard::reason("session-invalidated"))));
            return Action::Pause;
        }
        let json = header(MapType::HttpRequestHeaders, "content-type")
            .is_some_and(|c| c.to_ascii_lowercase().starts_with("application/json"));
        let sse = header(MapType::HttpRequestHeaders, "accept").is_some_and(|a| a.to_ascii_lowercase().contains("text/event-stream"));
        // MCP's own headers mark a request of an MCP client whatever else it
        // carries: its answer is read as one.
        let mcp = session.is_some() || header(MapType::HttpRequestHeaders, "mcp-protocol-version").is_some();
        if method == "GET" && (sse || mcp) {
            // The server's own event stream carries no request of the
            // client: every response on it is dropped (servers must not
            // send them there; a client would match one by id to a pending
            // request on another stream). Read as identity, like answers.
            self.get = true;
            self.expect = Some(Expect::none());
            let _ = hostcalls::remove_map_value(MapType::HttpRequestHeaders, "accept-encoding");
        }
        if method == "POST" && (json || mcp) {
            // Until the body is read (or when it is not JSON), the stream
            // carries no request the filter knows of: an answer arriving
            // before it is judged as on a stream without requests (dropped),
            // never passed unread.
            self.expect = Some(Expect::none());
        }
        if method == "POST" && json && !eos {
            // Headers cannot wait for the body here: Envoy turns a paused
            // headers callback into StopAll, and the body callback never
            // comes. So the headers go on now and the body waits (a refused
            // call's body never leaves; Envoy resets the upstream request).
            // Both headers are dropped now because they cannot be changed
            // later: content-length, since the gate may rewrite the body
            // (Envoy frames it itself); accept-encoding, so that a
            // tools/list answer comes back readable, not compressed.
            self.inspect_request = true;
            let _ = hostcalls::remove_map_value(MapType::HttpRequestHeaders, "content-length");
            let _ = hostcalls::remove_map_value(MapType::HttpRequestHeaders, "accept-encoding");
        }
        Action::Continue
    }

    fn on_http_request_body(&mut self, size: usize, eos: bool) -> Action {
        if !self.inspect_request {
            return Action::Continue;
        }
        let Some(cfg) = self.cfg.clone() else { return Action::Continue };
        if size as u64 > cfg.max_body_bytes {
            // A body the filter cannot read could be a tools/call: refused.
            self.inspect_request = false;
            let message = format!("mcp-guard: the request body exceeds max_body_bytes ({})", cfg.max_body_bytes);
            self.answer(413, &guard::error_response(&Value::Null, code::INVALID_REQUEST, &message, Some(guard::reason("too-large"))));
            return Action::Pause;
        }
        if !eos {
            return Action::Pause;
        }
        self.inspect_request = false;
        let body = match hostcalls::get_buffer(BufferType::HttpRequestBody, 0, size) {
            Ok(b) => b.unwrap_or_default(),
            Err(s) => {
                self.answer(500, &guard::error_response(&Value::Null, code::INVALID_REQUEST, &format!("mcp-guard: cannot read the request body ({s:?})"), None));
                return Action::Pause;
            }
        };
        match guard::classify(&body) {
            Request::Other => {
                self.expect = None;
                Action::Continue
            }
            Request::Pass { ids } => {
                self.expect = Some(Expect::batch(ids));
                Action::Continue
            }
            Request::Answer { status, body, reason } => {
                log(LogLevel::Info, guard::obj([("event", guard::s("request-refused")), ("reason", guard::s(reason))]));
                self.answer(status, &body);
                Action::Pause
            }
            Request::List { id } => {
                self.expect = Some(Expect::listing(id));
                Action::Continue
            }
            Request::Call { msg } => {
                // A forwarded call's answer must carry its id exactly.
                self.expect = Some(Expect::request(mcp_guard::jsonrpc::request_id(&msg).cloned().unwrap_or(Value::Null)));
                let baseline = match self.load(&cfg) {
                    Ok((b, _)) => b,
                    Err(why) => {
                        let message = format!("mcp-guard: the session state is unusable: {why}");
                        let id = msg.as_object().and_then(|o| o.get("id")).cloned().unwrap_or(Value::Null);
                        self.answer(200, &guard::error_response(&id, code::INVALID_PARAMS, &message, Some(guard::reason("invalid-baseline"))));
                        return Action::Pause;
                    }
                };
                match guard::gate(baseline.as_deref(), msg) {
                    Gate::Forward(None) => Action::Continue,
                    Gate::Respond(body) => {
                        self.answer(200, &body);
                        Action::Pause
                    }
                    Gate::Forward(Some(new)) => {
                        // content-length was dropped with the headers.
                        match hostcalls::set_buffer(BufferType::HttpRequestBody, 0, size, new.as_bytes()) {
                            Ok(()) => Action::Continue,
                            Err(s) => {
                                self.answer(500, &guard::error_response(&Value::Null, code::INVALID_REQUEST, &format!("mcp-guard: cannot rewrite the call ({s:?})"), None));
                                Action::Pause
                            }
                        }
                    }
                    Gate::Refuse { body, tool, reason } => {
                        log(
                            LogLevel::Info,
                            guard::obj([
                                ("event", guard::s("call-refused")),
                                ("tool", tool.as_deref().map_or(Value::Null, guard::s)),
                                ("reason", guard::s(&reason)),
                            ]),
                        );
                        self.answer(200, &body);
                        Action::Pause
                    }
                }
            }
        }
    }

    fn on_http_response_headers(&mut self, _n: usize, eos: bool) -> Action {
        let Some(mut expect) = self.expect.take() else { return Action::Continue };
        let Some(cfg) = self.cfg.clone() else { return Action::Continue };
        let status = header(MapType::HttpResponseHeaders, ":status").unwrap_or_default();
        // A non-2xx answer is a transport error to the client, never read
        // for messages; an empty one carries nothing.
        if !status.starts_with('2') || eos {
            return Action::Continue;
        }
        let ctype = header(MapType::HttpResponseHeaders, "content-type").unwrap_or_default().to_ascii_lowercase();
        let encoded = header(MapType::HttpResponseHeaders, "content-encoding").is_some_and(|e| !e.eq_ignore_ascii_case("identity"));
        // The body changes size (or is replaced): drop content-length now,
        // before the headers leave; Envoy frames the new body.
        let _ = hostcalls::remove_map_value(MapType::HttpResponseHeaders, "content-length");
        let unreadable = |expect: &mut Expect, kind: &str, why: &str| {
            if !expect.waiting() {
                // The GET stream, a POST of notifications: nothing of the
                // body passes.
                return Response::Unread(why.to_string());
            }
            let (body, logs) = guard::unreadable(expect, kind, why);
            log_lines(logs);
            Response::Replace(body)
        };
        self.response = if encoded {
            unreadable(&mut expect, "encoded", "the answer is content-encoded; the filter reads identity bodies only")
        } else if ctype.starts_with("application/json") && !self.get {
            Response::Json(expect)
        } else if ctype.starts_with("text/event-stream") || self.get {
            Response::Sse(SseGuard::new(expect, cfg.max_body_bytes))
        } else {
            unreadable(&mut expect, "content-type", &format!("the answer has content type {ctype:?}"))
        };
        if matches!(self.response, Response::Replace(_) | Response::Unread(_)) {
            let _ = hostcalls::remove_map_value(MapType::HttpResponseHeaders, "content-encoding");
            let _ = hostcalls::set_map_value(MapType::HttpResponseHeaders, "content-type", Some("application/json"));
        }
        Action::Continue
    }

    fn on_http_response_body(&mut self, size: usize, eos: bool) -> Action {
        let Some(cfg) = self.cfg.clone() else { return Action::Continue };
        let set = |bytes: &[u8]| hostcalls::set_buffer(BufferType::HttpResponseBody, 0, size, bytes).is_ok();
        match std::mem::replace(&mut self.response, Response::Off) {
            Response::Off => Action::Continue,
            Response::Discard => {
                self.response = Response::Discard;
                if !set(b"") {
                    // Cannot drop the bytes: end the stream rather than let
                    // them through.
                    let _ = hostcalls::reset_http_response();
                }
                Action::Continue
            }
            Response::Unread(why) => {
                if size == 0 {
                    self.response = Response::Unread(why);
                    return Action::Continue;
                }
                log(LogLevel::Warn, guard::obj([("event", guard::s("response-dropped")), ("reason", guard::s(&why))]));
                self.response = Response::Discard;
                if !set(b"") {
                    let _ = hostcalls::reset_http_response();
                }
                Action::Continue
            }
            Response::Replace(msg) => {
                if !eos && (size as u64) <= cfg.max_body_bytes {
                    self.response = Response::Replace(msg);
                    return Action::Pause;
                }
                self.response = if eos { Response::Off } else { Response::Discard };
                if !set(msg.as_bytes()) {
                    let _ = hostcalls::reset_http_response();
                }
                Action::Continue
            }
            Response::Json(mut expect) => {
                if size as u64 > cfg.max_body_bytes {
                    let why = format!("the answer exceeds the filter's max_body_bytes ({})", cfg.max_body_bytes);
                    let (msg, logs) = guard::unreadable(&mut expect, "too-large", &why);
                    log_lines(logs);
                    self.response = if eos { Response::Off } else { Response::Discard };
                    if !set(msg.as_bytes()) {
                        let _ = hostcalls::reset_http_response();
                    }
                    return Action::Continue;
                }
                if !eos {
                    // Pause until end_of_stream: Envoy keeps buffering and
                    // hands the whole body to the last call.
                    self.response = Response::Json(expect);
                    return Action::Pause;
                }
                // An unreadable buffer reads as empty: not JSON, so the
                // answer fails closed below.
                let body = hostcalls::get_buffer(BufferType::HttpResponseBody, 0, size).ok().flatten().unwrap_or_default();
                let (out, logs) = guard::json_answer(&body, &mut expect, &mut |m| self.listing(&cfg, m));
                log_lines(logs);
                if out != body && !set(&out) {
                    let _ = hostcalls::reset_http_response();
                }
                Action::Continue
            }
            Response::Sse(mut g) => {
                let chunk = hostcalls::get_buffer(BufferType::HttpResponseBody, 0, size).ok().flatten().unwrap_or_default();
                let out = g.feed(&chunk, eos, &mut |m| self.listing(&cfg, m));
                log_lines(out.logs);
                // Every chunk is replaced by what the guard let through (an
                // incomplete event waits in the guard, bounded by the cap).
                if !set(&out.bytes) {
                    let _ = hostcalls::reset_http_response();
                    return Action::Continue;
                }
                if !eos {
                    self.response = Response::Sse(g);
                }
                Action::Continue
            }
        }
    }
}
