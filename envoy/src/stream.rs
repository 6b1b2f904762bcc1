//! One HTTP stream of the filter, over the engine's mediation core
//! (`mcp_guard::mediate`): every MCP decision — minted ids and the answers
//! taken under them, the listing's pin / compare / serve / refuse, the call
//! gate and its name mapping, list changes, the protocol version of each
//! message, `input_required`, error shapes and log lines — is the
//! [`Mediator`]'s, exactly as in the stdio proxy. This module only does what
//! HTTP adds: which POSTs are MCP at all, the `Mcp-Method` / `Mcp-Name`
//! headers (checked by `mediate::headers`), one body in and one body out per
//! direction (a JSON body or SSE events), the HTTP status of an answer the
//! filter gives itself, and writing the pin state back (`Commit`). No host
//! call: it is tested natively (`cargo test -p mcp-guard-envoy`).
//!
//! One [`Stream`] is one request (Streamable HTTP: each POST carries one
//! request, its answer comes back on that POST's response) with a mediator
//! of its own, made from the shared pin state (the baseline in Envoy shared
//! data) and an id prefix unique to the stream. Its answer must come under
//! the id minted for it, exactly; anything else on the stream is dropped or
//! fails the request, as the mediator decides.
//!
//! What the filter cannot do as the stdio proxy does (it has no upstream of
//! its own, only the client's request): fetch the next page of a listing
//! (a paged listing is refused, `paginated`) or re-list after a list change
//! (`relist-skipped`; the client's next listing is compared) —
//! [`Mediator::without_own_requests`]. A `notifications/cancelled` names a
//! request of another stream, whose minted id this one never saw: it is
//! dropped (`cancel-dropped`); closing the stream cancels in 2026-07-28.

use crate::config::FilterConfig;
use crate::sse;
use mcp_guard::json::{self, Value};
use mcp_guard::jsonrpc::{error_response, method, obj, parse_message, s};
use mcp_guard::mediate::headers::{self, Headers, HEADER_MISMATCH};
use mcp_guard::mediate::{KeptListing, Mediator, Out, MAX_DEPTH};
use mcp_guard::pinning::Baseline;
use std::sync::Arc;

/// Attempts at a compare-and-swap write of the pin state before a listing
/// fails closed (another listing of the same state kept winning).
pub const CAS_ATTEMPTS: usize = 4;

/// What a listing leaves for the host to store (shared data).
pub enum Write<'a> {
    /// Session scope: the baseline of the session.
    Baseline(&'a Baseline),
    /// Persistent scope: the pin record text (`Out::Persist`), stored
    /// under the stream's record key.
    Record(&'a str),
    /// Session scope: the listing was answered from the kept answer
    /// (`mediate::KeptListing`), which holds only for the pin state the
    /// stream was opened on: nothing to write, but the host confirms that
    /// state is still the stored one (a `Conflict` runs the listing again
    /// on the state now, as for a write).
    Unchanged,
}

/// What became of the pin state a listing left (the host's shared data).
pub enum Stored {
    /// Written (or unchanged).
    Ok,
    /// Someone wrote first: the baseline now (run the listing again on it).
    Conflict(Option<Baseline>),
    /// Someone wrote the record first (another listing, an approval): the
    /// record text now (run the listing again on it).
    RecordConflict(Option<String>),
    /// Cannot be written: the listing fails closed.
    Failed(String),
}

/// Writes what a listing left.
pub type Commit<'a> = dyn FnMut(Write<'_>) -> Stored + 'a;

/// What the filter does with a client's POST body.
#[derive(Debug, PartialEq)]
pub enum Request {
    /// Not JSON-RPC (an OAuth client registration, any other JSON API on the
    /// route): forward untouched; its answer is none of the filter's business.
    Other,
    /// Forward `body` instead of the client's; set the listed headers
    /// (`Mcp-Method`, `Mcp-Name` after name mapping, only those the client
    /// sent).
    Forward { body: String, set_headers: Vec<(&'static str, String)> },
    /// Answer the client now, nothing goes upstream.
    Answer { status: u32, body: String },
}

/// A mediator on the pin record of `key` (`stored`: its text), before any
/// message: what a host keeps per stored record and copies for each stream
/// ([`Stream::from_template`]). Reading a record (parse, check, the
/// compare text) costs far more than the call gate: 56 ms for an
/// 868-tool record, against 0.06 ms to gate a call.
pub fn record_template(cfg: &FilterConfig, key: &str, stored: Option<&str>) -> Result<Mediator, String> {
    let m = Mediator::new(cfg.policy.clone(), cfg.opts.clone(), "mcp-guard-template").map_err(|e| e.to_string())?;
    m.without_own_requests().with_record(key, stored).map_err(|e| e.to_string())
}

/// A JSON-RPC message of a client: an object naming `jsonrpc` or a `method`.
fn is_jsonrpc(m: &Value) -> bool {
    m.as_object().is_some_and(|o| o.get("jsonrpc").is_some() || o.get("method").is_some())
}

/// One body out of compact messages: nothing, the one, or a batch (`batch`:
/// always an array, as the client sent one).
fn join(mut parts: Vec<String>, batch: bool) -> String {
    match parts.len() {
        0 => String::new(),
        1 if !batch => parts.pop().unwrap_or_default(),
        _ => format!("[{}]", parts.join(",")),
    }
}

/// One stream's mediation. See the module docs.
pub struct Stream {
    m: Mediator,
    /// Persistent scope: the key of the pin record the mediator keeps
    /// (`None`: session scope, a baseline).
    record_key: Option<String>,
    /// The client sent a batch: its answers go back as one array.
    batch: bool,
    /// The request holds a `tools/list`: a server answer may change the pin
    /// state, so it is run on a copy that a lost write can undo.
    listing: bool,
    /// Answers the mediator gave at request time while other elements of a
    /// batch went upstream: they go out with the server's answers.
    early: Vec<String>,
    /// Drift closed the session (the `session-invalidated` log line).
    invalidated: bool,
    logs: Vec<Value>,
}

impl Stream {
    /// A stream over the shared pin state `baseline`; `prefix` makes the ids
    /// it mints unique (per stream, per worker, per Envoy).
    pub fn open(cfg: &FilterConfig, baseline: Option<Baseline>, prefix: &str) -> Result<Stream, String> {
        let m = Mediator::new(cfg.policy.clone(), cfg.opts.clone(), prefix).map_err(|e| e.to_string())?;
        let m = m.without_own_requests();
        let m = match baseline {
            Some(b) => m.with_baseline(b),
            None => m,
        };
        Ok(Stream::of(m, None))
    }

    /// A stream over the pin record of `key` (persistent scope; `stored`:
    /// its text in shared data, `None` when there is none yet). The
    /// record's approved pins gate calls, its pending tools stay held back
    /// (`Mediator::with_record`); a listing that changes the record writes
    /// it back. `Err`: a stored record that does not read, or is another
    /// key's (never replaced silently: that would trust the server afresh).
    pub fn open_record(cfg: &FilterConfig, key: &str, stored: Option<&str>, prefix: &str) -> Result<Stream, String> {
        Stream::from_template(&record_template(cfg, key, stored)?, key, prefix)
    }

    /// A stream on a mediator prepared by [`record_template`] (copied, with
    /// the stream's own id prefix).
    pub fn from_template(template: &Mediator, key: &str, prefix: &str) -> Result<Stream, String> {
        let m = template.clone().with_id_prefix(prefix).map_err(|e| e.to_string())?;
        Ok(Stream::of(m, Some(key.to_string())))
    }

    /// The stream starts with a listing answer a previous stream of the
    /// same pin state kept ([`Stream::kept`]); the mediator serves it only
    /// to the same catalog under the same policy and pin state.
    pub fn with_kept(mut self, kept: Option<Arc<KeptListing>>) -> Stream {
        if let Some(k) = kept {
            self.m = self.m.with_kept_listing(k);
        }
        self
    }

    /// The listing answer to hand the next stream of this pin state (`None`
    /// after a listing that changed the state: nothing to keep).
    pub fn kept(&self) -> Option<Arc<KeptListing>> {
        self.m.kept_listing()
    }

    /// The request held a `tools/list` (its answer may have changed what
    /// [`Stream::kept`] says).
    pub fn listed(&self) -> bool {
        self.listing
    }

    fn of(m: Mediator, record_key: Option<String>) -> Stream {
        Stream { m, record_key, batch: false, listing: false, early: Vec::new(), invalidated: false, logs: Vec::new() }
    }

    /// The log lines decided since the last call (the host stamps and writes
    /// them).
    pub fn take_logs(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.logs)
    }

    /// Drift closed the session while this stream was answered.
    pub fn invalidated(&self) -> bool {
        self.invalidated
    }

    /// Requests of the stream still wait for their answer.
    pub fn waiting(&self) -> bool {
        self.m.waiting()
    }

    /// Splits the mediator's outputs: (to the server, to the client); the
    /// log lines are kept.
    fn split(&mut self, outs: Vec<Out>) -> (Vec<String>, Vec<String>) {
        let (mut up, mut down) = (Vec::new(), Vec::new());
        for o in outs {
            match o {
                Out::Server(t) => up.push(t),
                Out::Client(t) => down.push(t),
                Out::Log(v) => {
                    if v.as_object().and_then(|o| o.get("event")).and_then(Value::as_str) == Some("session-invalidated") {
                        self.invalidated = true;
                    }
                    self.logs.push(v);
                }
                // Written (and retried on a conflict) in `server`, before the
                // listing that changed the record reaches the client.
                Out::Persist(_) => {}
            }
        }
        (up, down)
    }

    /// The client's POST body with its `Mcp-*` headers.
    pub fn request(&mut self, h: &Headers<'_>, body: &[u8]) -> Request {
        let value = match parse_message(body, MAX_DEPTH) {
            Ok(v) => v,
            Err((_, why)) => {
                // Not forwarded: a tools/call the gate cannot read must not
                // reach the server through a parser disagreement.
                let (_, down) = self.split(self.m.client_unreadable(&why));
                return Request::Answer { status: 400, body: join(down, false) };
            }
        };
        let jsonrpc = match &value {
            Value::Array(items) => items.iter().any(is_jsonrpc),
            v => is_jsonrpc(v),
        };
        if !jsonrpc {
            return Request::Other;
        }
        if let Err(e) = headers::check(h, &value) {
            // HTTP 400 and -32020 (HeaderMismatch), as the spec's "Server
            // Validation" answers: whatever reads the header further on
            // (a router, a rate limiter, the server) must never see a
            // tools/call the gate judged under another name.
            let id = value.as_object().and_then(|o| o.get("id")).cloned().unwrap_or(Value::Null);
            let message = format!("mcp-guard: {e}");
            let data = obj([("reason", s(e.reason())), ("header", s(e.header()))]);
            self.logs.push(obj([
                ("event", s("request-refused")),
                ("reason", s(e.reason())),
                ("header", s(e.header())),
                ("method", method(&value).map_or(Value::Null, s)),
                ("message", s(&e.to_string())),
            ]));
            return Request::Answer { status: 400, body: error_response(&id, HEADER_MISMATCH, &message, Some(data)) };
        }
        self.batch = matches!(value, Value::Array(_));
        self.listing = match &value {
            Value::Array(items) => items.iter().any(|m| method(m) == Some("tools/list")),
            v => method(v) == Some("tools/list"),
        };
        let outs = self.m.on_client_message(value);
        let (up, down) = self.split(outs);
        if up.is_empty() {
            // Answered by the mediator (a refused or meta-tool call, a
            // refused listing); a notification it dropped gets the 202 a
            // server gives one.
            let status = if down.is_empty() { 202 } else { 200 };
            return Request::Answer { status, body: join(down, self.batch) };
        }
        self.early = down;
        let mut set_headers = Vec::new();
        if !self.batch && (!h.method.is_empty() || !h.name.is_empty()) {
            // The headers follow the body that leaves: the call gate may
            // have mapped the tool's name to its upstream one.
            if let Ok(out) = parse_message(up[0].as_bytes(), MAX_DEPTH) {
                let (m, n) = headers::for_body(&out);
                if let (Some(m), false) = (m, h.method.is_empty()) {
                    set_headers.push((headers::METHOD, m));
                }
                if let (Some(n), false) = (n, h.name.is_empty()) {
                    set_headers.push((headers::NAME, n));
                }
            }
        }
        Request::Forward { body: join(up, self.batch), set_headers }
    }

    /// One message (or batch) from the server (`v`, parsed from `raw`),
    /// with the pin state written back after a listing; what goes to the
    /// client.
    fn server(&mut self, v: Value, raw: &[u8], commit: &mut Commit) -> Vec<String> {
        // Only an answer on a stream that asked for a listing can change the
        // pin state; anything else needs no undo copy.
        let plain = !self.listing || v.as_object().is_some_and(|o| o.get("method").is_some());
        if plain {
            let outs = self.m.on_server_message(v);
            return self.split(outs).1;
        }
        let before = self.m.clone();
        // A run after a lost write reads the answer again from its bytes:
        // a copy of the parsed catalog for the rare retry cost as much as
        // the whole answer served from a kept answer.
        let mut v = Some(v);
        for _ in 0..CAS_ATTEMPTS {
            let msg = match v.take() {
                Some(m) => m,
                None => match parse_message(raw, MAX_DEPTH) {
                    Ok(m) => m,
                    Err((kind, why)) => {
                        self.m = before;
                        return self.fail(kind, &why);
                    }
                },
            };
            let outs = self.m.on_server_message(msg);
            let stored = match &self.record_key {
                // The core says when the record changed; the last record
                // is the one it holds (a batch may change it more than once).
                Some(_) => match outs.iter().rev().find_map(|o| if let Out::Persist(t) = o { Some(t.as_str()) } else { None }) {
                    Some(text) => commit(Write::Record(text)),
                    None => Stored::Ok,
                },
                None => {
                    let mut listings = outs.iter().filter_map(|o| match o {
                        Out::Log(Value::Object(l)) if l.get("event").and_then(Value::as_str) == Some("listing") => Some(l),
                        _ => None,
                    });
                    let listing = listings.next();
                    // Every listing of the answer (a batch holds several):
                    // one the engine ran may have changed the state.
                    let kept = listing.is_some_and(|l| {
                        std::iter::once(l).chain(listings).all(|l| l.get("kept") == Some(&Value::Bool(true)))
                    });
                    match (listing, self.m.baseline()) {
                        // The kept answer's state is the one opened on:
                        // confirmed, not written (a baseline's text is
                        // as large as the catalog).
                        (Some(_), Some(_)) if kept => commit(Write::Unchanged),
                        (Some(_), Some(b)) => commit(Write::Baseline(b)),
                        _ => Stored::Ok,
                    }
                }
            };
            match stored {
                Stored::Ok => return self.split(outs).1,
                Stored::Conflict(Some(now)) => self.m = before.clone().with_baseline(now),
                Stored::RecordConflict(now) => {
                    // The listing runs again on the record as it is now (an
                    // approval or another stream's listing won); a record
                    // forgotten meanwhile means trust on first use again.
                    let mut m = before.clone();
                    m.set_baseline(None);
                    let key = self.record_key.clone().unwrap_or_default();
                    match m.with_record(&key, now.as_deref()) {
                        Ok(m) => self.m = m,
                        Err(e) => {
                            self.m = before;
                            let outs = self.m.fail_pending("invalid-baseline", &format!("the stored pin record is unusable ({e})"));
                            return self.split(outs).1;
                        }
                    }
                }
                Stored::Conflict(None) => {
                    self.m = before;
                    let outs = self.m.fail_pending("state-conflict", "the pin state was removed during the listing");
                    return self.split(outs).1;
                }
                Stored::Failed(why) => {
                    self.m = before;
                    let outs = self.m.fail_pending("state-unavailable", &format!("cannot store the pin state ({why})"));
                    return self.split(outs).1;
                }
            }
        }
        self.m = before;
        let outs = self.m.fail_pending("state-conflict", "the pin state kept changing under concurrent listings");
        self.split(outs).1
    }

    /// The stream's waiting requests fail with `kind` (their answer cannot
    /// be read, or never came): the messages for the client.
    pub fn fail(&mut self, kind: &str, why: &str) -> Vec<String> {
        let outs = self.m.fail_pending(kind, why);
        self.split(outs).1
    }

    /// A whole `application/json` answer: the body to send instead.
    pub fn json_answer(&mut self, body: &[u8], commit: &mut Commit) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.early);
        if body.is_empty() && !self.waiting() {
            // A 202 to a notification, typed as JSON: nothing to judge.
            return join(out, self.batch).into_bytes();
        }
        match parse_message(body, MAX_DEPTH) {
            Ok(v) => {
                let batch = self.batch || matches!(v, Value::Array(_));
                out.extend(self.server(v, body, commit));
                // One body is all the answer a POST gets: requests it left
                // unanswered fail now instead of waiting forever.
                out.extend(self.fail("not-a-response", "the answer body holds no answer to the request"));
                join(out, batch).into_bytes()
            }
            Err((kind, why)) => {
                let line = self.m.server_unreadable(&why, body.len());
                self.split(vec![line]);
                out.extend(self.fail(kind, &format!("the answer is not strict JSON ({why})")));
                join(out, self.batch).into_bytes()
            }
        }
    }

    /// The answer cannot be read at all (compressed, another content type,
    /// over the cap): the body to send instead (empty when nothing waits).
    pub fn unreadable(&mut self, kind: &str, why: &str) -> String {
        let mut out = std::mem::take(&mut self.early);
        out.extend(self.fail(kind, why));
        join(out, self.batch)
    }
}

/// The streaming side of a `text/event-stream` answer (a POST's, or the
/// 2025 GET stream, whose stream has no request: every answer on it is
/// dropped by the mediator).
///
/// It never holds more than one incomplete event (bounded by the cap) and
/// hands every complete event to the mediator as it passes, so a stream the
/// server keeps open (`subscriptions/listen`) still flows.
pub struct SseGuard {
    pub stream: Stream,
    tail: Vec<u8>,
    /// Over the cap: everything after is dropped.
    closed: bool,
    cap: usize,
}

impl SseGuard {
    pub fn new(stream: Stream, cap: u64) -> SseGuard {
        SseGuard { stream, tail: Vec::new(), closed: false, cap: usize::try_from(cap).unwrap_or(usize::MAX) }
    }

    fn events(bytes: &mut Vec<u8>, msgs: Vec<String>) {
        for m in msgs {
            bytes.extend_from_slice(&sse::event(&m));
        }
    }

    /// An event over the cap: the stream is cut here (what was decided
    /// before still goes out), waiting requests get an error.
    fn overflow(&mut self, bytes: &mut Vec<u8>) {
        self.tail = Vec::new();
        self.closed = true;
        self.stream.logs.push(obj([
            ("event", s("server-line-dropped")),
            ("reason", s("an event of the stream exceeds max_body_bytes; the stream is cut")),
        ]));
        let why = format!("the answer exceeds the filter's max_body_bytes ({})", self.cap);
        Self::events(bytes, self.stream.fail("too-large", &why));
    }

    /// Rewrites one chunk: the bytes to send instead.
    pub fn feed(&mut self, chunk: &[u8], eos: bool, commit: &mut Commit) -> Vec<u8> {
        let mut bytes = Vec::new();
        if self.closed {
            return bytes;
        }
        Self::events(&mut bytes, std::mem::take(&mut self.stream.early));
        self.tail.extend_from_slice(chunk);
        let buf = std::mem::take(&mut self.tail);
        let events = sse::events(&buf);
        let consumed = events.last().map_or(0, |e| e.end);
        for e in events {
            let text = &buf[e.start..e.end];
            if text.len() > self.cap {
                // Checked per event too: a whole catalog can arrive in one
                // chunk and never sit in the tail.
                self.overflow(&mut bytes);
                return bytes;
            }
            if !e.has_data {
                // Comments (keep-alives), retry and id-only events.
                bytes.extend_from_slice(text);
                continue;
            }
            let parsed = match &e.data {
                Some(d) => parse_message(d.as_bytes(), MAX_DEPTH),
                None => Err(("invalid-json", "the event data is not UTF-8".to_string())),
            };
            match parsed {
                Ok(v) => {
                    let raw = e.data.as_deref().unwrap_or_default().as_bytes();
                    let mut msgs = self.stream.server(v, raw, commit).into_iter();
                    // The event keeps its other fields (`id:`, `event:`);
                    // further messages (an error for a request the event
                    // failed) follow as events of their own.
                    if let Some(first) = msgs.next() {
                        bytes.extend_from_slice(&sse::rewrite(text, &first));
                    }
                    Self::events(&mut bytes, msgs.collect());
                }
                // Another parser might read an answer out of it: dropped,
                // and the waiting requests are answered with an error.
                Err((kind, why)) => {
                    let line = self.stream.m.server_unreadable(&why, e.end - e.start);
                    self.stream.split(vec![line]);
                    let why = format!("an event of the answer stream is not strict JSON ({why})");
                    Self::events(&mut bytes, self.stream.fail(kind, &why));
                }
            }
        }
        self.tail = buf[consumed..].to_vec();
        if self.tail.len() > self.cap {
            self.overflow(&mut bytes);
            return bytes;
        }
        if eos {
            // An event cut off by the end of the stream is never dispatched
            // by a client either: dropped.
            self.tail = Vec::new();
            Self::events(&mut bytes, self.stream.fail("no-response", "the server's event stream ended without the answer"));
        }
        bytes
    }
}

/// Compact JSON of a log line.
pub fn log_text(v: &Value) -> String {
    json::write_compact(v)
}

#[cfg(test)]
mod tests;
