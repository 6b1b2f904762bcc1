//! The host glue: Envoy's callbacks in, `stream`'s decisions out.
//!
//! Host calls go through `proxy_wasm::hostcalls` directly, not the trait
//! helpers: those `unwrap()` the host's status, and a panic traps the VM.
//! Here a failed host call is a value — for a `tools/list` answer it fails
//! the listing closed. (The SDK's hostcalls still panic on a status the ABI
//! does not allow for that call; that is a broken host, not input.)
//!
//! Shared data (one store per `vm_id`, shared by every worker thread):
//! - `mcp-guard/1/record/<record id>` (`pin_scope: persistent`): the pin
//!   record of one server identity and principal (`PinRecord::to_json`;
//!   the id is `record_id` of the key `<server>` or
//!   `<server> principal="<principal>"`), updated with compare-and-swap by
//!   listings and by the admin path;
//! - `mcp-guard/1/records/<server>`: the keys of that server's records
//!   (a JSON array), what the admin path lists;
//! - `mcp-guard/1/baseline/<server>/<session>` (`pin_scope: session`): the
//!   pin state (`Baseline::to_json`), updated with compare-and-swap;
//! - `mcp-guard/1/tombstone/<server>/<session>`: the expiry of a session
//!   closed by drift, milliseconds since the epoch from the host's clock.
//!
//! proxy-wasm 0.2.1 cannot delete a key: an empty value means "none".

use crate::admin::{self, Edit, Reply, Route};
use crate::config::{Admin, FilterConfig, PinScope, MAX_PRINCIPAL_BYTES};
use crate::stream::{self, Request, SseGuard, Stored, Stream, Write, CAS_ATTEMPTS};
use mcp_guard::json::{Number, Value};
use mcp_guard::jsonrpc::{code, error_response, obj, reason, s};
use mcp_guard::mediate::headers::Headers;
use mcp_guard::mediate::KeptListing;
use mcp_guard::json;
use mcp_guard::pinning::{record_id, Baseline, PinRecord};
use proxy_wasm::hostcalls;
use proxy_wasm::traits::{Context, HttpContext, RootContext};
use proxy_wasm::types::{Action, BufferType, ContextType, LogLevel, MapType, Status};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

proxy_wasm::main! {{
    proxy_wasm::set_log_level(LogLevel::Info);
    proxy_wasm::set_root_context(|_| -> Box<dyn RootContext> { Box::new(Root { cfg: None }) });
}}

/// The filter's log lines: refusals and drops are warnings.
fn log_lines(lines: Vec<Value>) {
    for l in lines {
        let ev = l.as_object().and_then(|o| o.get("event")).and_then(Value::as_str).unwrap_or("");
        let warn = matches!(
            ev,
            "response-dropped" | "server-line-dropped" | "request-failed" | "listing-unusable" | "request-refused" | "session-invalidated"
        );
        log(if warn { LogLevel::Warn } else { LogLevel::Info }, l);
    }
}

fn log(level: LogLevel, event: Value) {
    // Logging is best effort: a failed log call must not fail a request.
    let _ = hostcalls::log(level, &format!("mcp-guard {}", stream::log_text(&event)));
}

thread_local! {
    /// This VM's part of every id prefix: random (WASI `random_get`, through
    /// std's hasher keys), so ids minted by two workers, or two Envoys in
    /// front of one server, never collide within a session (an SDK server
    /// routes answers to streams by request id).
    static NONCE: u64 = std::collections::hash_map::RandomState::new().build_hasher().finish();
    /// Streams opened by this VM: the other part.
    static STREAMS: Cell<u64> = const { Cell::new(0) };
}

/// A fresh id prefix for one stream's mediator.
fn prefix() -> String {
    let n = STREAMS.with(|c| {
        c.set(c.get() + 1);
        c.get()
    });
    format!("mcp-guard-{:016x}-{n}", NONCE.with(|x| *x))
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
            stream: None,
            cas: None,
            tombstoned: false,
            response: Response::Off,
            record_key: None,
            admin: None,
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
    /// `application/json` answer: buffered until the end, then mediated.
    Json(Stream),
    /// `text/event-stream` answer: mediated event by event.
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
    /// The `Mcp-Session-Id` ("" without one). Pins are keyed by it: a
    /// 2025-11-25 session pins its first listing; a stateless server's
    /// clients, and every 2026-07-28 client (no sessions in that
    /// protocol), share the "" state of the configured `server`: the first
    /// listing through the filter pins the server's catalog, every later
    /// one (any client's) is compared with it, and calls are gated by it.
    session: String,
    /// A JSON POST whose body the filter reads before it goes upstream.
    inspect_request: bool,
    /// A GET for the server's event stream (read as one, whatever its
    /// content type says: the SDK clients do).
    get: bool,
    /// The MCP stream this HTTP stream carries (`None`: not one; the
    /// answer passes untouched).
    stream: Option<Stream>,
    /// CAS token of the pin state the stream was opened on.
    cas: Option<u32>,
    /// This stream already wrote the session's tombstone.
    tombstoned: bool,
    response: Response,
    /// Persistent scope: the key of the pin record the stream runs on.
    record_key: Option<String>,
    /// An admin request waiting for its body (approve, forget).
    admin: Option<Route>,
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

thread_local! {
    /// Persistent scope: a mediator prepared on each stored pin record, by
    /// shared-data key, with the CAS token and size of the record it was
    /// read from; each stream copies it (`Stream::from_template`).
    static TEMPLATES: RefCell<HashMap<String, Template>> = RefCell::new(HashMap::new());
}

type Template = (u32, usize, Rc<mcp_guard::mediate::Mediator>);

fn cached_template(key: &str, cas: u32) -> Option<Rc<mcp_guard::mediate::Mediator>> {
    TEMPLATES.with(|m| m.borrow().get(key).filter(|(c, _, _)| *c == cas).map(|(_, _, t)| t.clone()))
}

fn remember_template(key: String, cas: u32, bytes: usize, t: Rc<mcp_guard::mediate::Mediator>) {
    // Bounded like the parsed baselines (a record's text stands for its size).
    TEMPLATES.with(|m| bounded_insert(&mut m.borrow_mut(), key, (cas, bytes, t), |(_, n, _)| *n, PARSED_BYTES));
}

/// Bytes of kept listing answers a worker keeps for repeated listings
/// (`KeptListing::size`: catalog, answer, log lines, state).
const KEPT_BYTES: usize = 32 << 20;

thread_local! {
    /// Per pin state (its shared-data key): the listing answer the last
    /// stream on it kept (`mediate::KeptListing`), handed to the next
    /// stream. The mediator decides whether it applies (same catalog text,
    /// policy and pin state); a stale one only costs the engine's time.
    static KEPT: RefCell<HashMap<String, Arc<KeptListing>>> = RefCell::new(HashMap::new());
}

fn kept(key: &str) -> Option<Arc<KeptListing>> {
    KEPT.with(|m| m.borrow().get(key).cloned())
}

fn header(map: MapType, name: &str) -> Option<String> {
    hostcalls::get_map_value(map, name).ok().flatten()
}

fn now() -> Option<Duration> {
    hostcalls::get_current_time().ok().and_then(|t| t.duration_since(UNIX_EPOCH).ok())
}

/// An answer the filter gives for a request it could not mediate at all.
fn failure(code: i64, message: &str, why: &str) -> String {
    error_response(&Value::Null, code, message, Some(reason(why)))
}

/// The shared-data key of the pin record of `key`: its `record_id`, so a
/// principal holding `/` never shapes the key.
fn record_shared_key(key: &str) -> String {
    format!("mcp-guard/1/record/{}", record_id(key))
}

/// The shared-data key of the index of `server`'s records.
fn index_key(cfg: &FilterConfig) -> String {
    format!("mcp-guard/1/records/{}", cfg.opts.server.as_deref().unwrap_or(""))
}

/// The record key of this request: the configured `server`, and with
/// `principal_header` the principal a trusted filter in front set (`Err`:
/// why the request cannot be keyed; it is refused, never pinned under
/// someone else's record).
fn record_key(cfg: &FilterConfig) -> Result<String, String> {
    let server = cfg.opts.server.as_deref().unwrap_or("");
    let Some(h) = cfg.principal_header.as_deref() else { return Ok(server.to_string()) };
    // Every value: a header sent twice names no one principal.
    let pairs = hostcalls::get_map(MapType::HttpRequestHeaders).unwrap_or_default();
    let values: Vec<&str> = pairs.iter().filter(|(k, _)| k.eq_ignore_ascii_case(h)).map(|(_, v)| v.as_str()).collect();
    match values.as_slice() {
        [p] if !p.is_empty() && p.len() <= MAX_PRINCIPAL_BYTES => {
            Ok(format!("{server} principal={}", json::write_compact(&Value::str(*p))))
        }
        [] | [""] => Err(format!("the request names no principal ({h}); the pins are kept per principal")),
        [_] => Err(format!("the principal ({h}) is longer than {MAX_PRINCIPAL_BYTES} bytes")),
        _ => Err(format!("the principal header ({h}) is repeated")),
    }
}

/// The stored record of `key` and its CAS token (`None`: none, or
/// forgotten). `Err`: shared data failed, or the bytes are not UTF-8.
fn read_record(key: &str) -> Result<(Option<String>, Option<u32>), String> {
    match hostcalls::get_shared_data(&record_shared_key(key)) {
        Ok((Some(v), cas)) if !v.is_empty() => {
            String::from_utf8(v).map(|t| (Some(t), cas)).map_err(|_| "the stored record is not UTF-8".to_string())
        }
        Ok((_, cas)) => Ok((None, cas)),
        Err(s) => Err(format!("shared data unavailable ({s:?})")),
    }
}

/// The keys of this server's records, and the index's CAS token.
fn index_read(cfg: &FilterConfig) -> (Vec<String>, Option<u32>) {
    match hostcalls::get_shared_data(&index_key(cfg)) {
        Ok((v, cas)) => (admin::index_read(&v.unwrap_or_default()), cas),
        Err(_) => (Vec::new(), None),
    }
}

/// Adds `key` to (or removes it from) the index, with compare-and-swap.
/// Best effort: the index only serves the admin path's list; the record
/// itself is what gates.
fn index_edit(cfg: &FilterConfig, key: &str, add: bool) {
    for _ in 0..CAS_ATTEMPTS {
        let (keys, cas) = index_read(cfg);
        let Some(text) = admin::index_edit(&keys, key, add) else {
            if add && !keys.iter().any(|k| k == key) {
                log(LogLevel::Warn, obj([("event", s("pins-index-full")), ("key", s(key)), ("max", s(&admin::MAX_INDEXED.to_string()))]));
            }
            return;
        };
        match hostcalls::set_shared_data(&index_key(cfg), Some(text.as_bytes()), cas) {
            Err(Status::CasMismatch) => continue,
            _ => return,
        }
    }
}

fn index_add(cfg: &FilterConfig, key: &str) {
    index_edit(cfg, key, true)
}

impl Http {
    fn key(&self, kind: &str, cfg: &FilterConfig) -> String {
        format!("mcp-guard/1/{kind}/{}/{}", cfg.opts.server.as_deref().unwrap_or(""), self.session)
    }

    /// Answers the client from the filter; nothing of upstream follows.
    fn answer(&mut self, status: u32, body: &str) {
        self.stream = None;
        let headers = vec![("content-type", "application/json")];
        if let Err(e) = hostcalls::send_http_response(status, headers, Some(body.as_bytes())) {
            log(LogLevel::Error, obj([("event", s("send-failed")), ("status", s(&format!("{e:?}")))]));
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

    /// The session's pin state, its CAS token and its bytes. `Err`: stored
    /// but unreadable (fail closed, never start over silently).
    fn load(&self, cfg: &FilterConfig) -> Result<(Option<Rc<Baseline>>, Option<u32>, Vec<u8>), String> {
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

    /// A stream over the pin state (`Err`: the HTTP status and the answer
    /// to give).
    fn open(&mut self, cfg: &FilterConfig) -> Result<Stream, (u32, String)> {
        if cfg.pin_scope == PinScope::Persistent {
            return self.open_record(cfg);
        }
        let (baseline, cas, _) = self.load(cfg).map_err(|why| {
            (500, failure(code::UNUSABLE_CATALOG, &format!("mcp-guard: the pin state is unusable: {why}"), "invalid-baseline"))
        })?;
        self.cas = cas;
        Stream::open(cfg, baseline.map(|b| (*b).clone()), &prefix())
            .map(|st| st.with_kept(kept(&self.key("baseline", cfg))))
            .map_err(|e| (500, failure(code::INVALID_REQUEST, &format!("mcp-guard: {e}"), "internal")))
    }

    /// Persistent scope: a stream over the pin record of the server (and
    /// the request's principal).
    fn open_record(&mut self, cfg: &FilterConfig) -> Result<Stream, (u32, String)> {
        let key = record_key(cfg).map_err(|why| (403, failure(code::REFUSED, &format!("mcp-guard: {why}"), "no-principal")))?;
        let unusable = |why: String| {
            let message = format!("mcp-guard: the pin record is unusable: {why}; forget it on the admin path to trust the server on first use again");
            (500, failure(code::UNUSABLE_CATALOG, &message, "invalid-baseline"))
        };
        let skey = record_shared_key(&key);
        let (text, cas) = read_record(&key).map_err(unusable)?;
        self.cas = cas;
        // Envoy bumps the CAS token on every write: the same token means the
        // same record, already read on this worker.
        let template = match cas.and_then(|c| cached_template(&skey, c)) {
            Some(t) => t,
            None => {
                let t = Rc::new(stream::record_template(cfg, &key, text.as_deref()).map_err(unusable)?);
                if let Some(c) = cas {
                    remember_template(skey, c, text.as_ref().map_or(0, String::len), t.clone());
                }
                t
            }
        };
        let st = Stream::from_template(&template, &key, &prefix()).map_err(unusable)?.with_kept(kept(&record_shared_key(&key)));
        self.record_key = Some(key);
        Ok(st)
    }

    /// Writes what a listing left.
    fn commit(&mut self, cfg: &FilterConfig, w: Write<'_>) -> Stored {
        match w {
            Write::Baseline(b) => self.commit_baseline(cfg, b),
            Write::Record(text) => self.commit_record(cfg, text),
            Write::Unchanged => self.confirm_baseline(cfg),
        }
    }

    /// A listing answered from the kept answer: the session's pin state
    /// must still be the one the stream was opened on (the same CAS token:
    /// Envoy bumps it on every write). Another listing of the session that
    /// wrote meanwhile makes this one run again on the state now.
    fn confirm_baseline(&mut self, cfg: &FilterConfig) -> Stored {
        let key = self.key("baseline", cfg);
        match hostcalls::get_shared_data(&key) {
            Ok((_, cas)) if cas.is_some() && cas == self.cas => Stored::Ok,
            Ok(_) => match self.load(cfg) {
                Ok((now, cas, _)) => {
                    self.cas = cas;
                    Stored::Conflict(now.map(|b| (*b).clone()))
                }
                Err(why) => Stored::Failed(why),
            },
            Err(s) => Stored::Failed(format!("{s:?}")),
        }
    }

    /// The key a stream's kept listing answer is filed under: its pin
    /// state's shared-data key.
    fn kept_key(&self, cfg: &FilterConfig) -> Option<String> {
        match cfg.pin_scope {
            PinScope::Session => Some(self.key("baseline", cfg)),
            PinScope::Persistent => self.record_key.as_deref().map(record_shared_key),
        }
    }

    /// After a listing: the answer it kept for the next stream of the same
    /// pin state, or none (the listing changed the state).
    fn keep(&self, cfg: &FilterConfig, st: &Stream) {
        if !st.listed() {
            return;
        }
        let Some(key) = self.kept_key(cfg) else { return };
        KEPT.with(|m| {
            let mut m = m.borrow_mut();
            match st.kept() {
                Some(k) if m.get(&key).is_some_and(|old| Arc::ptr_eq(old, &k)) => {}
                Some(k) => bounded_insert(&mut m, key, k, |k| k.size(), KEPT_BYTES),
                None => {
                    m.remove(&key);
                }
            }
        });
    }

    /// Writes the pin record a listing changed, with compare-and-swap
    /// against the record the stream was opened on (a conflict re-runs the
    /// listing on the record now: an approval or another listing won).
    fn commit_record(&mut self, cfg: &FilterConfig, text: &str) -> Stored {
        let Some(key) = self.record_key.clone() else { return Stored::Failed("no record key".into()) };
        let skey = record_shared_key(&key);
        match hostcalls::set_shared_data(&skey, Some(text.as_bytes()), self.cas) {
            Ok(()) => {
                self.cas = hostcalls::get_shared_data(&skey).ok().and_then(|(_, c)| c);
                log(LogLevel::Info, obj([("event", s("pins-saved")), ("key", s(&key)), ("id", s(&record_id(&key)))]));
                index_add(cfg, &key);
                Stored::Ok
            }
            Err(Status::CasMismatch) => match read_record(&key) {
                Ok((now, cas)) => {
                    self.cas = cas;
                    Stored::RecordConflict(now)
                }
                Err(why) => Stored::Failed(why),
            },
            Err(e) => Stored::Failed(format!("{e:?}")),
        }
    }

    /// Writes the pin state a listing left, with compare-and-swap against
    /// the state the stream was opened on (a conflict re-runs the listing
    /// on the state now).
    fn commit_baseline(&mut self, cfg: &FilterConfig, b: &Baseline) -> Stored {
        let key = self.key("baseline", cfg);
        let text = b.to_json();
        match hostcalls::get_shared_data(&key) {
            // Unchanged: nothing to write.
            Ok((Some(v), cas)) if cas == self.cas && v == text.as_bytes() => return Stored::Ok,
            Ok(_) => {}
            Err(s) => return Stored::Failed(format!("{s:?}")),
        }
        match hostcalls::set_shared_data(&key, Some(text.as_bytes()), self.cas) {
            Ok(()) => {
                // Learn the token of our own write, so the next request of
                // the session skips parsing it — unless another worker wrote
                // in between (then its bytes are parsed).
                if let Ok((Some(v), Some(c))) = hostcalls::get_shared_data(&key) {
                    if v == text.as_bytes() {
                        remember(key, c, v.len(), Rc::new(b.clone()));
                        self.cas = Some(c);
                    }
                }
                Stored::Ok
            }
            Err(Status::CasMismatch) => match self.load(cfg) {
                Ok((now, cas, _)) => {
                    self.cas = cas;
                    Stored::Conflict(now.map(|b| (*b).clone()))
                }
                Err(why) => Stored::Failed(why),
            },
            Err(s) => Stored::Failed(format!("{s:?}")),
        }
    }

    /// After a stream's messages: its log lines, and the tombstone of a
    /// session drift closed. `t0`: when the answer's body came; a `listing`
    /// line then carries the filter's own time (engine and shared data, free
    /// of network noise: the benchmark reads it) and the bytes sent.
    fn settle(&mut self, cfg: &FilterConfig, st: &mut Stream, t0: Option<Duration>, bytes: usize) {
        let mut lines = st.take_logs();
        if let (Some(a), Some(b)) = (t0, now()) {
            for l in &mut lines {
                if let Some(o) = l.as_object_mut().filter(|o| o.get("event").and_then(Value::as_str) == Some("listing")) {
                    o.insert("micros", Value::Number(Number::from_u64(b.saturating_sub(a).as_micros() as u64)));
                    o.insert("bytes", Value::Number(Number::from_u64(bytes as u64)));
                }
            }
        }
        log_lines(lines);
        if st.invalidated() && !self.tombstoned {
            self.tombstoned = true;
            let expiry = now().map(|n| (n + cfg.tombstone_ttl).as_millis() as u64).unwrap_or(u64::MAX);
            // The baseline already says `invalidated`, so a lost tombstone
            // write still refuses every call and listing.
            let _ = hostcalls::set_shared_data(&self.key("tombstone", cfg), Some(expiry.to_string().as_bytes()), None);
            log(LogLevel::Warn, obj([("event", s("session-tombstoned")), ("session", s(&self.session))]));
        }
    }
}

impl Http {
    /// An admin request's headers: authorized, routed, answered (approve and
    /// forget wait for their body).
    fn admin_headers(&mut self, cfg: &FilterConfig, a: &Admin, method: &str, path: &str, eos: bool) -> Action {
        let auth = header(MapType::HttpRequestHeaders, "authorization");
        if !admin::authorized(a, auth.as_deref()) {
            log(LogLevel::Warn, obj([("event", s("admin-refused")), ("method", s(method)), ("path", s(path))]));
            let r = admin::error(401, "unauthorized", "a bearer token is needed");
            let headers = vec![("content-type", "application/json"), ("www-authenticate", "Bearer")];
            let _ = hostcalls::send_http_response(r.status, headers, Some(r.body.as_bytes()));
            return Action::Pause;
        }
        let route = match admin::route(a, method, path) {
            Ok(r) => r,
            Err(r) => return self.reply(r),
        };
        match route {
            Route::Approve(_) | Route::Forget(_) if !eos => {
                // Envoy hands the body over while the headers are held
                // (allow_on_headers_stop_iteration, as for MCP POSTs).
                let _ = hostcalls::remove_map_value(MapType::HttpRequestHeaders, "content-length");
                self.admin = Some(route);
                Action::Pause
            }
            route => {
                let r = admin_run(cfg, route, b"");
                self.reply(r)
            }
        }
    }

    fn admin_body(&mut self, size: usize, eos: bool) -> Action {
        if size > admin::MAX_ADMIN_BODY {
            self.admin = None;
            return self.reply(admin::error(413, "too-large", "the admin request body is too large"));
        }
        if !eos {
            return Action::Pause;
        }
        let Some(route) = self.admin.take() else { return Action::Pause };
        let Some(cfg) = self.cfg.clone() else { return Action::Pause };
        let body = hostcalls::get_buffer(BufferType::HttpRequestBody, 0, size).ok().flatten().unwrap_or_default();
        let r = admin_run(&cfg, route, &body);
        self.reply(r)
    }

    fn reply(&mut self, r: Reply) -> Action {
        self.answer(r.status, &r.body);
        Action::Pause
    }
}

/// Runs an authorized admin request on shared data.
fn admin_run(cfg: &FilterConfig, route: Route, body: &[u8]) -> Reply {
    let server = cfg.opts.server.as_deref().unwrap_or("");
    let (keys, _) = index_read(cfg);
    let approving = matches!(route, Route::Approve(_));
    match route {
        Route::List => {
            let records: Vec<(String, Result<PinRecord, String>)> = keys
                .iter()
                .filter_map(|k| match read_record(k) {
                    Ok((Some(t), _)) => Some((k.clone(), PinRecord::from_json(&t).map_err(|e| e.to_string()))),
                    Ok((None, _)) => None,
                    Err(e) => Some((k.clone(), Err(e))),
                })
                .collect();
            admin::list(server, &records)
        }
        Route::Show(id) => {
            let key = match admin::resolve(&keys, &id) {
                Ok(k) => k,
                Err(r) => return r,
            };
            match read_record(key) {
                Ok((Some(t), _)) => match PinRecord::from_json(&t) {
                    Ok(r) => admin::show(&r),
                    Err(e) => admin::error(500, "invalid-baseline", &format!("the stored pin record is unusable ({e})")),
                },
                Ok((None, _)) => admin::error(404, "unknown-record", "the record was forgotten"),
                Err(e) => admin::error(500, "state-unavailable", &e),
            }
        }
        Route::Approve(id) | Route::Forget(id) => {
            let tools = match admin::tools_of(body) {
                Ok(t) => t,
                Err(r) => return r,
            };
            let key = match admin::resolve(&keys, &id) {
                Ok(k) => k.to_string(),
                Err(r) => return r,
            };
            let skey = record_shared_key(&key);
            for _ in 0..CAS_ATTEMPTS {
                let (text, cas) = match read_record(&key) {
                    Ok((Some(t), cas)) => (t, cas),
                    Ok((None, _)) => return admin::error(404, "unknown-record", "the record was forgotten"),
                    // Not UTF-8: only forgetting the whole record helps.
                    Err(e) if !approving && tools.is_empty() => (e, hostcalls::get_shared_data(&skey).ok().and_then(|(_, c)| c)),
                    Err(e) => return admin::error(500, "state-unavailable", &e),
                };
                let edit = match if approving { admin::approve(&text, &tools) } else { admin::forget(&key, &text, &tools) } {
                    Ok(e) => e,
                    Err(r) => return r,
                };
                let (bytes, reply, removed) = match edit {
                    Edit::Store { text, reply } => (text.into_bytes(), reply, false),
                    Edit::Remove { reply } => (Vec::new(), reply, true),
                };
                match hostcalls::set_shared_data(&skey, Some(&bytes), cas) {
                    Ok(()) => {
                        if removed {
                            index_edit(cfg, &key, false);
                        }
                        let event = if approving { "pins-approved" } else { "pins-forgotten" };
                        log(LogLevel::Warn, obj([("event", s(event)), ("key", s(&key)), ("tools", Value::Array(tools.iter().map(|t| s(t)).collect()))]));
                        return reply;
                    }
                    // A listing wrote the record meanwhile: read it again.
                    Err(Status::CasMismatch) => continue,
                    Err(e) => return admin::error(500, "state-unavailable", &format!("cannot write the record ({e:?})")),
                }
            }
            admin::error(409, "state-conflict", "the record kept changing under concurrent listings; try again")
        }
    }
}

impl Context for Http {}

impl HttpContext for Http {
    fn on_http_request_headers(&mut self, _n: usize, eos: bool) -> Action {
        let Some(cfg) = self.cfg.clone() else {
            // Unreachable once configured (Envoy never creates a stream for
            // a plugin whose on_configure failed); closed if it ever is.
            self.answer(503, &failure(code::REFUSED, "mcp-guard: filter not configured", "not-configured"));
            return Action::Pause;
        };
        let method = header(MapType::HttpRequestHeaders, ":method").unwrap_or_default();
        if let Some(a) = cfg.admin.as_ref() {
            let path = header(MapType::HttpRequestHeaders, ":path").unwrap_or_default();
            if admin::is_admin_path(a, &path) {
                // Answered here; nothing of it goes upstream.
                return self.admin_headers(&cfg, a, &method, &path, eos);
            }
        }
        let session = header(MapType::HttpRequestHeaders, "mcp-session-id");
        self.session = session.clone().unwrap_or_default();
        if session.is_some() && method == "DELETE" {
            // The client ends the session: in session scope its baseline
            // goes (a tombstone stays until it expires); a pin record
            // outlives sessions. DELETE of a dead session passes, so the
            // client can still end it upstream.
            if cfg.pin_scope == PinScope::Session {
                let _ = hostcalls::set_shared_data(&self.key("baseline", &cfg), Some(b""), None);
            }
            return Action::Continue;
        }
        if session.is_some() && self.tombstoned(&cfg) {
            // A session closed by drift surfaces as a conflict with
            // the session's state, not as a rate limit.
            let message = "mcp-guard: this session was closed because its tools changed; start a new session";
            self.answer(409, &failure(code::REFUSED, message, "session-invalidated"));
            return Action::Pause;
        }
        let json = header(MapType::HttpRequestHeaders, "content-type")
            .is_some_and(|c| c.to_ascii_lowercase().starts_with("application/json"));
        let sse = header(MapType::HttpRequestHeaders, "accept").is_some_and(|a| a.to_ascii_lowercase().contains("text/event-stream"));
        // MCP's own headers mark a request of an MCP client whatever else it
        // carries: its answer is read as one.
        let mcp = session.is_some() || header(MapType::HttpRequestHeaders, "mcp-protocol-version").is_some();
        if (method == "GET" && (sse || mcp)) || (method == "POST" && (json || mcp)) {
            // The 2025 GET event stream carries no request of the client:
            // every answer on it is dropped (a client would match one by id
            // to a pending request of another stream); requests and
            // notifications of the server pass. A POST's answer is read
            // the same way until its body names the request.
            self.get = method == "GET";
            match self.open(&cfg) {
                Ok(st) => self.stream = Some(st),
                Err((status, body)) => {
                    self.answer(status, &body);
                    return Action::Pause;
                }
            }
            let _ = hostcalls::remove_map_value(MapType::HttpRequestHeaders, "accept-encoding");
        }
        if method == "POST" && (json || mcp) && !eos {
            // Read whatever its content type says when MCP's own headers
            // mark it: a server may parse a tools/call out of a body typed
            // text/plain, so such a body must not pass unread.
            // content-length goes because the body is rewritten (minted id,
            // the call gate's upstream name; Envoy frames it itself);
            // accept-encoding (above) so that the answer comes back readable.
            self.inspect_request = true;
            let _ = hostcalls::remove_map_value(MapType::HttpRequestHeaders, "content-length");
            if cfg.hold_request_headers {
                // The headers wait for the body (Envoy's
                // `allow_on_headers_stop_iteration`): a refused call never
                // reaches upstream at all, and `Mcp-Name` leaves rewritten
                // with the body. Without that knob Envoy would stop the
                // body too and never call on_http_request_body (see
                // README, "Configuration").
                return Action::Pause;
            }
        }
        Action::Continue
    }

    fn on_http_request_body(&mut self, size: usize, eos: bool) -> Action {
        if self.admin.is_some() {
            return self.admin_body(size, eos);
        }
        if !self.inspect_request {
            return Action::Continue;
        }
        let Some(cfg) = self.cfg.clone() else { return Action::Continue };
        if size as u64 > cfg.max_body_bytes {
            // A body the filter cannot read could be a tools/call: refused.
            self.inspect_request = false;
            let message = format!("mcp-guard: the request body exceeds max_body_bytes ({})", cfg.max_body_bytes);
            self.answer(413, &failure(code::INVALID_REQUEST, &message, "too-large"));
            return Action::Pause;
        }
        if !eos {
            return Action::Pause;
        }
        self.inspect_request = false;
        let body = match hostcalls::get_buffer(BufferType::HttpRequestBody, 0, size) {
            Ok(b) => b.unwrap_or_default(),
            Err(s) => {
                self.answer(500, &failure(code::INVALID_REQUEST, &format!("mcp-guard: cannot read the request body ({s:?})"), "internal"));
                return Action::Pause;
            }
        };
        let Some(mut st) = self.stream.take() else { return Action::Continue };
        // Every value of each header (a repeated one is refused): the
        // single-value getter returns only the first.
        let pairs = hostcalls::get_map(MapType::HttpRequestHeaders).unwrap_or_default();
        let h = Headers::from_pairs(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        let decided = st.request(&h, &body);
        self.settle(&cfg, &mut st, None, 0);
        match decided {
            // Not MCP: neither the request nor its answer is touched.
            Request::Other => Action::Continue,
            Request::Answer { status, body } => {
                self.answer(status, &body);
                Action::Pause
            }
            Request::Forward { body: new, set_headers } => {
                for (k, v) in &set_headers {
                    // Only while the headers are held (hold_request_headers);
                    // after they left this changes nothing, and a server
                    // that checks Mcp-Name refuses a mapped call (-32020).
                    let _ = hostcalls::set_map_value(MapType::HttpRequestHeaders, k, Some(v));
                }
                self.stream = Some(st);
                match hostcalls::set_buffer(BufferType::HttpRequestBody, 0, size, new.as_bytes()) {
                    Ok(()) => Action::Continue,
                    Err(s) => {
                        self.answer(500, &failure(code::INVALID_REQUEST, &format!("mcp-guard: cannot rewrite the request ({s:?})"), "internal"));
                        Action::Pause
                    }
                }
            }
        }
    }

    fn on_http_response_headers(&mut self, _n: usize, eos: bool) -> Action {
        let Some(st) = self.stream.take() else { return Action::Continue };
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
        let unreadable = |this: &mut Http, mut st: Stream, kind: &str, why: &str| {
            if !st.waiting() {
                // The GET stream, a POST of notifications: nothing of the
                // body passes.
                return Response::Unread(why.to_string());
            }
            let body = st.unreadable(kind, why);
            this.settle(&cfg, &mut st, None, 0);
            Response::Replace(body)
        };
        self.response = if encoded {
            unreadable(self, st, "encoded", "the answer is content-encoded; the filter reads identity bodies only")
        } else if ctype.starts_with("application/json") && !self.get {
            Response::Json(st)
        } else if ctype.starts_with("text/event-stream") || self.get {
            Response::Sse(SseGuard::new(st, cfg.max_body_bytes))
        } else {
            unreadable(self, st, "content-type", &format!("the answer has content type {ctype:?}"))
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
                log(LogLevel::Warn, obj([("event", s("response-dropped")), ("reason", s(&why))]));
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
            Response::Json(mut st) => {
                if size as u64 > cfg.max_body_bytes {
                    let why = format!("the answer exceeds the filter's max_body_bytes ({})", cfg.max_body_bytes);
                    let msg = st.unreadable("too-large", &why);
                    self.settle(&cfg, &mut st, None, 0);
                    self.response = if eos { Response::Off } else { Response::Discard };
                    if !set(msg.as_bytes()) {
                        let _ = hostcalls::reset_http_response();
                    }
                    return Action::Continue;
                }
                if !eos {
                    // Pause until end_of_stream: Envoy keeps buffering and
                    // hands the whole body to the last call.
                    self.response = Response::Json(st);
                    return Action::Pause;
                }
                // An unreadable buffer reads as empty: not JSON, so the
                // answer fails closed.
                let body = hostcalls::get_buffer(BufferType::HttpResponseBody, 0, size).ok().flatten().unwrap_or_default();
                let t0 = now();
                let out = st.json_answer(&body, &mut |w| self.commit(&cfg, w));
                self.keep(&cfg, &st);
                self.settle(&cfg, &mut st, t0, out.len());
                if out != body && !set(&out) {
                    let _ = hostcalls::reset_http_response();
                }
                Action::Continue
            }
            Response::Sse(mut g) => {
                let chunk = hostcalls::get_buffer(BufferType::HttpResponseBody, 0, size).ok().flatten().unwrap_or_default();
                let t0 = now();
                let out = g.feed(&chunk, eos, &mut |w| self.commit(&cfg, w));
                self.keep(&cfg, &g.stream);
                self.settle(&cfg, &mut g.stream, t0, out.len());
                // Every chunk is replaced by what the mediator let through
                // (an incomplete event waits in the guard, bounded by the cap).
                if !set(&out) {
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
