//! MCP mediation: what a guarded conversation between one client and one
//! server does, decided once for every host. Pure: a message in (from the
//! client or from the server), the messages to send each way and the log
//! lines out ([`Out`]). No I/O, no clock, no globals; the host moves bytes,
//! stamps log lines with the time and supplies the id prefix.
//!
//! ```
//! use mcp_guard::mediate::{Mediator, Out};
//! let mut m = Mediator::new(Default::default(), Default::default(), "mcp-guard-doc").unwrap();
//! let out = m.on_client_line(br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
//! // Sent upstream under an id the mediator minted.
//! assert_eq!(out, [Out::Server(r#"{"jsonrpc":"2.0","id":"mcp-guard-doc-1","method":"tools/list"}"#.into())]);
//! let out = m.on_server_line(br#"{"jsonrpc":"2.0","id":"mcp-guard-doc-1","result":{"tools":[]}}"#);
//! assert!(out.contains(&Out::Client(r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#.into())));
//! ```
//!
//! # What it decides (cli/README.md, section "Proxy", documents it for users)
//! - **Pagination**: the mediator fetches every page itself (its own
//!   `tools/list` requests with the server's `nextCursor`) and answers the
//!   client's request once, with the whole sanitized catalog and no
//!   `nextCursor`. The engine pins and compares one whole catalog, and no
//!   tool reaches the model before the decision over the whole listing (a
//!   per-page decision would show page 1 of a drifted catalog before page 2
//!   refuses it). A client that sends a `cursor` anyway is answered with
//!   -32602: the mediator never handed one out.
//! - **Call before any listing**: refused (`unknown-tool`): the baseline is
//!   what the client saw, and it has seen nothing. No hidden fetch.
//! - **List changed** (`notifications/tools/list_changed`, bare in
//!   2025-11-25, stamped with a `subscriptions/listen` stream's id in
//!   2026-07-28): forwarded, and the mediator also re-lists at once and
//!   compares, so drift revokes tools from the call gate even for a client
//!   that never re-lists. That re-list answers nobody; the client's own
//!   re-list is compared again.
//! - **A repeated identical listing** ([`KeptListing`], `kept.rs`): a
//!   client's listing whose compare left the pin state as it found it is
//!   kept with everything it depended on; the next listing of the same
//!   catalog text under the same policy, options and pin state gets that
//!   answer without the engine (log `kept: true`), any other runs it.
//! - **Messages that are not strict JSON** (not UTF-8, syntax, duplicate
//!   keys, nesting past [`MAX_DEPTH`]): from the server they are dropped with
//!   a log line (no parser disagreement can smuggle a catalog past the
//!   engine); from the client they are answered with -32700 and not
//!   forwarded (a `tools/call` the gate cannot read must not reach the server).
//! - **Batches** (JSON arrays, MCP 2025-03-26): passed as they are unless
//!   they hold something the mediator acts on (a request, a cancellation, a
//!   response, a list change, a stamped stream frame); then each element is
//!   handled on its own and the messages go out as single messages.
//! - **Request ids** ([`requests`]): the mediator never forwards a client's
//!   request id; every request goes upstream under a minted id, and an
//!   answer is taken only when its id is exactly a pending minted id
//!   ([`crate::jsonrpc::id_match`]).
//! - **Protocol versions** ([`protocol`]): 2025-11-25 (an `initialize`
//!   handshake) and 2026-07-28 (each request carries its version and client
//!   capabilities in `_meta`) are told apart per message; the mediator's own
//!   requests carry the envelope of the client request they serve.
//!
//! # Shape, and what later hosts plug in
//! A [`Mediator`] is two pieces of state with different lifetimes:
//! - [`Requests`](requests::Requests): the requests in flight and the ids
//!   minted for them. It belongs to one *transport conversation*: a stdio
//!   pipe here; for a transport keyed by HTTP stream (the Envoy filter) one
//!   per stream, since each POST carries its own request and answer.
//! - the pinning state (policy, options, [`Baseline`], re-list flags):
//!   per *server identity*. A host that keeps pins across runs (a pin
//!   store) hands the stored [`PinRecord`] text, if any, to
//!   [`Mediator::with_record`] before the first message, with its own key
//!   for the server, and writes each [`Out::Persist`] under that key: the
//!   first listing of a run is compared with the approved pins, what is
//!   changed or new becomes pending for a person to approve, and the core
//!   says when the record changed. Per-session pinning is the default (no
//!   record: the first listing pins); [`Mediator::with_baseline`] starts a
//!   session from a baseline kept elsewhere.
//!
//! Every decision takes `&mut Mediator` and one parsed message
//! ([`Mediator::on_client_message`], [`Mediator::on_server_message`]) or one
//! line of bytes (the `*_line` forms parse it with the strict parser first),
//! so a transport that already framed a message (an HTTP body, an SSE
//! event) calls the same code as the stdio proxy. [`http`] says which
//! headers a Streamable HTTP POST of a message carries, and
//! [`Mediator::fail_request`] fails a request whose answer the transport
//! could not get (an HTTP error, a time-out, a dropped stream). The conformance cases in
//! `conformance/mediation/` script conversations against this API; every
//! host that wraps it can replay them.

mod gate;
pub mod headers;
pub mod http;
mod kept;
mod listing;
pub mod protocol;
pub mod requests;

#[cfg(test)]
mod tests;

use crate::json::{self, Number, Object, Value};
use crate::jsonrpc::{code, error_response, method, reason, request_id};
use crate::pinning::{Baseline, PinRecord, PendingTool, ServerInfo};
use crate::{Error, Finding, Policy, SanitizeOptions};
use listing::Listing;
use protocol::Protocol;
use requests::{id_for_log, Pending, Requests};
use std::fmt;

/// Nesting accepted in one message. Above the engine's catalog cap (128) so
/// deep tool results pass; bounded so a hostile line cannot exhaust the
/// reader's stack (the parser checks depth before recursing).
pub const MAX_DEPTH: usize = 512;

/// Pages one listing may take before it is refused (a server that hands out
/// cursors forever must not keep the client waiting forever).
pub const MAX_PAGES: usize = 1000;

pub use kept::{KeptListing, MAX_KEPT_BYTES};
pub use requests::{MAX_PENDING, MAX_PENDING_BYTES};

/// Where a message goes.
#[derive(Debug, PartialEq)]
pub enum Out {
    /// To the server (compact JSON text, one message).
    Server(String),
    /// To the client (compact JSON text, one message).
    Client(String),
    /// One log line (an object with `event` and `server`); the host adds the
    /// time and writes it where its operator reads logs.
    Log(Value),
    /// Store this pin record (the compact JSON of a
    /// [`PinRecord`]) under the key the host
    /// passed to [`Mediator::with_record`], replacing the one there. Only
    /// with a record, and only when it changed: the core decides when, the
    /// host only writes (atomically: a reader must never see half a record).
    Persist(String),
}

/// A setting [`Mediator::new`] cannot work with.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ConfigError {
    /// The prefix of minted ids must start with an ASCII letter and hold
    /// only ASCII letters, digits, `-` and `_`: then `"<prefix>-<n>"` reads
    /// as no number to any client (JavaScript's `ToNumber`, Python's
    /// `int()`), so no minted id is ever loosely equal to a client's id.
    IdPrefix { prefix: String },
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::IdPrefix { prefix } => write!(
                f,
                "id prefix {prefix:?} must start with an ASCII letter and hold only letters, digits, '-' and '_'"
            ),
        }
    }
}

impl std::error::Error for ConfigError {}

/// One guarded conversation: one client, one server, one baseline.
// Cloned by the property tests (one pinned session per case).
#[derive(Clone)]
pub struct Mediator {
    policy: Policy,
    opts: SanitizeOptions,
    /// `None` until the first listing was served (or a stored one loaded).
    baseline: Option<Baseline>,
    requests: Requests,
    protocol: Protocol,
    /// Another list change came while the mediator's re-list was in flight:
    /// its answer may predate the change, so re-list once more after it.
    relist_again: bool,
    /// The host can send the mediator's own requests (next pages, the
    /// re-list after a list change). `false` for a transport that forwards
    /// only what a client sent ([`Mediator::without_own_requests`]).
    own_requests: bool,
    /// Pins kept across runs (`with_record`); `None`: per-session pinning.
    record: Option<Box<RecordState>>,
    /// The last client listing that left the state as it found it, for the
    /// next identical one (kept.rs).
    kept: Option<std::sync::Arc<KeptListing>>,
}

/// A pin record and what the host last stored of it.
#[derive(Clone)]
struct RecordState {
    key: String,
    /// `None` until the first pinned listing when the host had none.
    record: Option<PinRecord>,
    /// The text last loaded or persisted: a record is written only when it
    /// differs.
    stored: Option<String>,
    /// The server's `serverInfo` as it last answered `initialize` or
    /// `server/discover` (display only).
    server_info: Option<ServerInfo>,
}

/// Longest `serverInfo` name or version kept in a record (display only; a
/// server must not grow the record with it).
const MAX_SERVER_INFO_CHARS: usize = 256;

/// A log field for a finding (`detail` is text for people, not API).
pub fn finding_value(f: &Finding) -> Value {
    let s = crate::jsonrpc::s;
    crate::jsonrpc::obj([
        ("kind", s(f.kind.id())),
        ("severity", s(f.severity.id())),
        ("tool", f.tool.as_deref().map_or(Value::Null, s)),
        ("tool_index", f.tool_index.map_or(Value::Null, |i| Value::Number(Number::from_u64(i.into())))),
        ("pointer", s(&f.pointer)),
        ("action", s(f.action.id())),
        ("detail", s(&f.detail)),
    ])
}

pub(crate) fn n(x: u64) -> Value {
    Value::Number(Number::from_u64(x))
}

pub(crate) use crate::jsonrpc::{obj, s};

/// `params` of a message, as an object.
pub(crate) fn params(m: &Value) -> Option<&Object> {
    m.as_object().and_then(|o| o.get("params")).and_then(Value::as_object)
}

pub(crate) fn params_mut(m: &mut Value) -> Option<&mut Object> {
    m.as_object_mut().and_then(|o| o.get_mut("params")).and_then(Value::as_object_mut)
}

/// A client message the mediator changes: a request (its id is replaced by
/// a minted one) or a cancellation (it names a request id).
fn client_acts_on(m: &Value) -> bool {
    match (method(m), request_id(m)) {
        (Some(_), Some(_)) => true,
        (Some(m), None) => m == "notifications/cancelled",
        (None, _) => false,
    }
}

/// A server message the mediator acts on: a list change, anything without a
/// method (a response, taken only under a pending minted id), and the
/// notifications that name a request (a cancellation, a frame of a
/// `subscriptions/listen` stream): their ids are minted ones.
fn server_acts_on(m: &Value) -> bool {
    match method(m) {
        None => true,
        Some("notifications/tools/list_changed" | "notifications/cancelled") => true,
        Some(_) => protocol::subscription_id(m).is_some(),
    }
}

/// See [`ConfigError::IdPrefix`].
fn check_id_prefix(id_prefix: &str) -> Result<(), ConfigError> {
    let ok = id_prefix.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && id_prefix.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(())
    } else {
        Err(ConfigError::IdPrefix { prefix: id_prefix.to_string() })
    }
}

impl Mediator {
    /// A conversation with no baseline yet. `id_prefix` starts every id the
    /// mediator mints (`"<id_prefix>-<n>"`); a host makes it unique per
    /// conversation (the stdio proxy: process id and start time).
    pub fn new(policy: Policy, opts: SanitizeOptions, id_prefix: &str) -> Result<Mediator, ConfigError> {
        check_id_prefix(id_prefix)?;
        Ok(Mediator {
            policy,
            opts,
            baseline: None,
            requests: Requests::new(id_prefix.to_string()),
            protocol: Protocol::default(),
            relist_again: false,
            own_requests: true,
            record: None,
            kept: None,
        })
    }

    /// The same mediator minting ids under another prefix, for a host that
    /// prepares one mediator per stored pin state ([`Mediator::with_record`]
    /// reads and checks the whole record) and copies it for each
    /// conversation, each with a prefix of its own. Meant before the first
    /// message: requests in flight are forgotten (their answers would then
    /// be dropped as unknown).
    pub fn with_id_prefix(mut self, id_prefix: &str) -> Result<Mediator, ConfigError> {
        check_id_prefix(id_prefix)?;
        self.requests = Requests::new(id_prefix.to_string());
        Ok(self)
    }

    /// For a transport that can only forward what the client sent (the
    /// Envoy filter: one request per HTTP stream, no upstream of its own):
    /// a listing the server splits into pages is refused (-32002
    /// `paginated`, never pinned page by page: page 2 would look like drift
    /// of page 1), and a list change is passed with a `relist-skipped` log
    /// line instead of the mediator's own re-list (the client's next
    /// listing is compared as always).
    pub fn without_own_requests(mut self) -> Mediator {
        self.own_requests = false;
        self
    }

    /// Keeps pins across runs in a pin record, for the server the host
    /// identifies as `key` (its configured identity: `--server ID`, the
    /// command line, the URL — never what the server reports). `stored` is
    /// the record the host has for that key (`None`: none yet; the first
    /// listing pins everything, trust on first use). Its approved baseline
    /// gates calls before the first listing and is what the first listing is
    /// compared with; changed and new tools become its pending entries, for
    /// a person to approve (`mcp-guard pins approve`). The mediator emits
    /// [`Out::Persist`] whenever the record changed.
    ///
    /// A stored text that does not read as a record, or is another key's
    /// record, is `Error::InvalidBaseline`: the host reports it and never
    /// replaces it silently (that would be a fresh trust on first use).
    pub fn with_record(mut self, key: &str, stored: Option<&str>) -> Result<Mediator, Error> {
        let record = match stored {
            None => None,
            Some(text) => {
                let r = PinRecord::from_json(text)?;
                if r.key != key {
                    return Err(Error::InvalidBaseline {
                        reason: format!("pin record: it is the record of {:?}, not of {key:?}", r.key),
                    });
                }
                Some(r)
            }
        };
        if let Some(r) = record.as_ref().filter(|r| r.approved.pinned) {
            // Pinned by another engine, for another server id, field set or
            // dialect: its digests cannot be compared. Said now, with the
            // record named, rather than as a refused listing later.
            let sp = self.policy.for_server(self.opts.server.as_deref());
            r.approved.check_compatible(self.opts.server.as_deref(), sp.dialect.target, &sp.pinning).map_err(|e| {
                Error::InvalidBaseline { reason: format!("pin record: {}", e.to_string().trim_start_matches("unusable baseline: ")) }
            })?;
            let mut b = r.approved.clone();
            if sp.pinning.mode != crate::policy::PinningMode::Warn {
                // A pending tool is one the server last listed in a form
                // nobody approved: until a listing of this conversation says
                // otherwise, a call to it is refused (`quarantined`) rather
                // than let through under its old approved pin. A host that
                // makes a mediator per request (the Envoy filter) has no
                // listing before a call at all, so the record alone must gate.
                // Under `warn` the approved surface gates as it did.
                for p in &r.pending {
                    b.surface.retain(|c| c.name != p.pin.name);
                    b.quarantined.push(p.pin.name.clone());
                }
            }
            self.baseline = Some(b);
        }
        let stored = record.as_ref().map(PinRecord::to_json);
        self.record = Some(Box::new(RecordState { key: key.to_string(), record, stored, server_info: None }));
        Ok(self)
    }

    /// The pin record as it stands (`None`: no record kept, or none yet).
    pub fn record(&self) -> Option<&PinRecord> {
        self.record.as_ref().and_then(|r| r.record.as_ref())
    }

    /// After a listing: the record takes the first pinned baseline (trust on
    /// first use) or this listing's pending tools, and is persisted when it
    /// changed. Nothing while pinning is off (nothing is pinned to keep).
    pub(crate) fn update_record(&mut self, baseline: &Baseline, pending: Vec<PendingTool>) -> Option<Out> {
        // A closed conversation looked at nothing: what it held back when it
        // closed stays pending.
        if self.dead().is_some() {
            return None;
        }
        let st = self.record.as_mut()?;
        if !baseline.pinned {
            return None;
        }
        match &mut st.record {
            Some(r) if r.approved.pinned => r.set_pending(pending),
            slot => *slot = Some(PinRecord::new(&st.key, baseline)),
        }
        let r = st.record.as_mut()?;
        if st.server_info.is_some() {
            r.server_info = st.server_info.clone();
        }
        let text = r.to_json();
        if st.stored.as_deref() == Some(text.as_str()) {
            return None;
        }
        st.stored = Some(text.clone());
        Some(Out::Persist(text))
    }

    /// Keeps the server's self-reported `serverInfo` for the record: the
    /// `initialize` result's (2025-11-25), or the `server/discover`
    /// result's `_meta` stamp `io.modelcontextprotocol/serverInfo`
    /// (2026-07-28).
    fn note_server_info(&mut self, msg: &Value) {
        let Some(st) = self.record.as_mut() else { return };
        let result = json::pointer_get(msg, "/result").and_then(Value::as_object);
        let stamp = || {
            result?.get("_meta")?.as_object()?.get("io.modelcontextprotocol/serverInfo")?.as_object()
        };
        let Some(info) = result.and_then(|r| r.get("serverInfo")).and_then(Value::as_object).or_else(stamp) else {
            return;
        };
        let text = |k: &str| {
            info.get(k).and_then(Value::as_str).map(|v| v.chars().take(MAX_SERVER_INFO_CHARS).collect::<String>())
        };
        if let Some(name) = text("name") {
            st.server_info = Some(ServerInfo { name, version: text("version") });
        }
    }

    /// The answer of the last client listing that left the pin state as it
    /// found it (see `kept.rs`): for a host that makes one mediator per
    /// request (the Envoy filter) to hand to the next one of the same
    /// conversation ([`Mediator::with_kept_listing`]). A mediator that lives
    /// as long as its conversation (the stdio proxy, the npm and Python
    /// packages) keeps its own.
    pub fn kept_listing(&self) -> Option<std::sync::Arc<KeptListing>> {
        self.kept.clone()
    }

    /// Starts with a kept listing answer (from [`Mediator::kept_listing`] of
    /// an earlier mediator). Served only to a listing of the same catalog
    /// text under the same policy, options and pin state as it was computed
    /// under (all checked here): any other one runs the engine.
    pub fn with_kept_listing(mut self, kept: std::sync::Arc<KeptListing>) -> Mediator {
        self.kept = Some(kept);
        self
    }

    /// Starts from a baseline kept elsewhere (a pin store): the first listing
    /// is compared with it instead of pinned afresh, and calls are gated by it
    /// before any listing.
    pub fn with_baseline(mut self, baseline: Baseline) -> Mediator {
        self.baseline = Some(baseline);
        self
    }

    /// The current baseline (what a pin store saves after a listing).
    pub fn baseline(&self) -> Option<&Baseline> {
        self.baseline.as_ref()
    }

    /// Replaces the baseline mid-conversation (`None` forgets it: the next
    /// listing pins afresh). For hosts whose pin store is shared by replicas
    /// of one session: they reload it before a listing or a call, so a pin
    /// or a revocation made by another replica holds here too. Requests in
    /// flight stay; a listing in flight is compared with the new baseline.
    pub fn set_baseline(&mut self, baseline: Option<Baseline>) {
        self.baseline = baseline;
    }

    /// The mediator's own re-list (after a list change) is in flight: a host
    /// may hold its client's next listing until it is done, so that listing
    /// is judged after the re-list instead of racing it upstream.
    pub fn relisting(&self) -> bool {
        self.requests.relisting()
    }

    /// The conversation was closed by drift (`error` + `invalidate`): the
    /// reason, shown to people.
    pub fn dead(&self) -> Option<&str> {
        self.baseline.as_ref().and_then(|b| b.invalidated.as_deref())
    }

    /// The transport lost the server's answers to every request in flight
    /// (an HTTP answer stream that ended, or could not be read): each one
    /// gets -32002 with `kind` as `data.reason` under the client's id, in
    /// the order they were sent, and is forgotten (a late answer is dropped
    /// like any second answer). The mediator's own re-list just ends.
    pub fn fail_pending(&mut self, kind: &str, why: &str) -> Vec<Out> {
        let message = format!("the server's answer is unusable: {why}");
        let pending: Vec<Pending> = self.requests.drain().into_iter().map(|(_, p)| p).collect();
        pending.into_iter().flat_map(|p| self.fail(p, &message, kind)).collect()
    }

    /// Requests in flight wait for the server's answer.
    pub fn waiting(&self) -> bool {
        !self.requests.is_empty()
    }

    fn log(&self, event: &str, fields: Vec<(&str, Value)>) -> Out {
        Out::Log(Value::Object(self.log_line(event, fields)))
    }

    /// A log line's object (`event`, `server`, then `fields`), for a caller
    /// that keeps the line besides writing it.
    fn log_line(&self, event: &str, fields: Vec<(&str, Value)>) -> Object {
        let mut o = Object::with_capacity(fields.len() + 2);
        o.insert("event", s(event));
        o.insert("server", self.opts.server.as_deref().map_or(Value::Null, s));
        for (k, v) in fields {
            o.insert(k, v);
        }
        o
    }

    // ---- client → server -------------------------------------------------

    /// One line (one message's bytes) from the client.
    pub fn on_client_line(&mut self, line: &[u8]) -> Vec<Out> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Vec::new();
        }
        let value = match crate::jsonrpc::parse_message(line, MAX_DEPTH) {
            Ok(v) => v,
            Err((_, why)) => return self.client_unreadable(&why),
        };
        let text = String::from_utf8_lossy(line).trim_end().to_string();
        self.client_value(value, Some(text))
    }

    /// What the client gets for a message the mediator cannot read (also for
    /// a transport that refused it before parsing, e.g. over its size cap).
    pub fn client_unreadable(&self, why: &str) -> Vec<Out> {
        // Not forwarded: a tools/call the gate cannot read must not reach
        // the server through a parser disagreement.
        let msg = format!("mcp-guard: the message is not strict JSON ({why})");
        vec![
            Out::Client(error_response(&Value::Null, code::PARSE_ERROR, &msg, None)),
            self.log("client-line-refused", vec![("reason", s(why))]),
        ]
    }

    /// One parsed message (or batch) from the client.
    pub fn on_client_message(&mut self, value: Value) -> Vec<Out> {
        self.client_value(value, None)
    }

    fn client_value(&mut self, value: Value, text: Option<String>) -> Vec<Out> {
        match value {
            Value::Array(items) if items.iter().any(client_acts_on) => {
                items.into_iter().flat_map(|m| self.client_message(m)).collect()
            }
            Value::Object(_) if client_acts_on(&value) => self.client_message(value),
            // Notifications, answers to the server's own requests (their ids
            // are the server's), anything else the mediator has no part in.
            other => vec![Out::Server(text.unwrap_or_else(|| json::write_compact(&other)))],
        }
    }

    /// One message from the client.
    fn client_message(&mut self, msg: Value) -> Vec<Out> {
        let Some(method) = method(&msg) else { return vec![Out::Server(json::write_compact(&msg))] };
        let Some(id) = request_id(&msg) else {
            if method == "notifications/cancelled" {
                return self.cancel(msg);
            }
            return vec![Out::Server(json::write_compact(&msg))];
        };
        if self.requests.full() {
            let message = format!(
                "mcp-guard: too many requests wait for the server's answer (at most {MAX_PENDING}, \
                 {MAX_PENDING_BYTES} bytes of ids and methods)"
            );
            return vec![
                Out::Client(error_response(id, code::INVALID_REQUEST, &message, Some(reason("too-many-pending")))),
                self.log("request-refused", vec![("reason", s("too-many-pending")), ("method", s(method))]),
            ];
        }
        let version = self.protocol.on_client_request(&msg);
        match method {
            "tools/list" => {
                if let Some(why) = self.dead() {
                    let message = format!("mcp-guard: {why}");
                    return vec![Out::Client(error_response(
                        id,
                        code::REFUSED,
                        &message,
                        Some(reason("session-invalidated")),
                    ))];
                }
                let cursor = params(&msg).and_then(|p| p.get("cursor"));
                if cursor.is_some_and(|c| *c != Value::Null) {
                    let message = "mcp-guard: unknown cursor (the proxy serves the whole catalog in one page)";
                    return vec![Out::Client(error_response(
                        id,
                        code::INVALID_PARAMS,
                        message,
                        Some(reason("invalid-cursor")),
                    ))];
                }
                let listing = Listing::new(Some(id.clone()), version, protocol::envelope(&msg));
                vec![self.forward(msg, Pending::Page(listing))]
            }
            "tools/call" => self.gate(msg),
            _ => {
                let p = Pending::Request { client_id: id.clone(), method: method.to_string(), tool: None };
                vec![self.forward(msg, p)]
            }
        }
    }

    /// Sends a client's request upstream under a minted id, remembering whose
    /// it is.
    fn forward(&mut self, mut msg: Value, p: Pending) -> Out {
        let minted = self.requests.mint();
        if let Some(o) = msg.as_object_mut() {
            o.insert("id", Value::String(minted.clone()));
        }
        self.requests.insert(minted, p);
        Out::Server(json::write_compact(&msg))
    }

    /// `notifications/cancelled` from the client names the client's id: sent
    /// on under the minted id, and the request is forgotten (its answer, if
    /// it still comes, is dropped). A cancellation of nothing pending is
    /// dropped: forwarding it would hand the server a client id.
    fn cancel(&mut self, mut msg: Value) -> Vec<Out> {
        let Some(target) = params(&msg).and_then(|p| p.get("requestId")).cloned() else {
            return vec![self.log("cancel-dropped", vec![("reason", s("no params.requestId"))])];
        };
        let minted = self.requests.pending_for_client_id(&target);
        if minted.is_empty() {
            return vec![self.log(
                "cancel-dropped",
                vec![("reason", s("no pending request has this id")), ("request", id_for_log(Some(&target)))],
            )];
        }
        let mut out = Vec::new();
        for m in minted {
            self.requests.remove(&m);
            if let Some(p) = params_mut(&mut msg) {
                p.insert("requestId", Value::String(m));
            }
            out.push(Out::Server(json::write_compact(&msg)));
        }
        out
    }

    // ---- server → client -------------------------------------------------

    /// One line (one message's bytes) from the server.
    pub fn on_server_line(&mut self, line: &[u8]) -> Vec<Out> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Vec::new();
        }
        let value = match crate::jsonrpc::parse_message(line, MAX_DEPTH) {
            Ok(v) => v,
            // Cannot be a valid MCP message; passing it on would let the
            // client's parser read something the engine never saw.
            Err((_, why)) => return vec![self.server_unreadable(&why, line.len())],
        };
        let text = String::from_utf8_lossy(line).trim_end().to_string();
        self.server_value(value, Some(text), line.len())
    }

    /// The log line for a server message the mediator cannot read (also for
    /// a transport that dropped it before parsing, e.g. over its size cap).
    pub fn server_unreadable(&self, why: &str, bytes: usize) -> Out {
        self.log("server-line-dropped", vec![("reason", s(why)), ("bytes", n(bytes as u64))])
    }

    /// One parsed message (or batch) from the server.
    pub fn on_server_message(&mut self, value: Value) -> Vec<Out> {
        self.server_value(value, None, 0)
    }

    fn server_value(&mut self, value: Value, text: Option<String>, bytes: usize) -> Vec<Out> {
        match value {
            Value::Array(items) if items.iter().any(server_acts_on) => {
                items.into_iter().flat_map(|m| self.server_message(m, None)).collect()
            }
            Value::Array(_) => vec![Out::Client(text.unwrap_or_else(|| json::write_compact(&value)))],
            Value::Object(_) => self.server_message(value, text),
            // A bare number, string, … is no JSON-RPC message.
            _ => vec![self.server_unreadable("not a JSON-RPC message", bytes)],
        }
    }

    fn server_message(&mut self, mut msg: Value, line: Option<String>) -> Vec<Out> {
        if let Some(m) = method(&msg) {
            // Requests from the server (sampling, elicitation, roots) and
            // notifications (progress, logging…) pass untouched: their ids
            // are the server's, and the client answers under them. Those
            // that name one of the mediator's requests are renamed.
            let list_changed = m == "notifications/tools/list_changed";
            let renamed = self.rename_for_client(&mut msg);
            let pass = Out::Client(match (renamed, line) {
                (false, Some(l)) => l,
                _ => json::write_compact(&msg),
            });
            let mut out = vec![pass];
            if list_changed {
                out.extend(self.relist());
            }
            return out;
        }
        // A response (or no message at all): taken only under a pending
        // minted id, exactly.
        let id = msg.as_object().and_then(|o| o.get("id")).cloned();
        if let Some(Value::String(k)) = &id {
            if let Some(p) = self.requests.remove(k) {
                return match p {
                    Pending::Page(listing) => self.page(listing, msg),
                    Pending::Request { client_id, method, tool } => {
                        let mut out = Vec::new();
                        if method == "initialize" {
                            self.protocol.on_initialize_result(&msg);
                        }
                        if method == "initialize" || method == "server/discover" {
                            self.note_server_info(&msg);
                        }
                        if method == "tools/call" && protocol::input_required(&msg) {
                            // Passed: the client answers the server's input
                            // requests with a new tools/call, gated again.
                            out.push(self.log(
                                "call-input-required",
                                vec![
                                    ("tool", tool.as_deref().map_or(Value::Null, s)),
                                    ("request", id_for_log(Some(&client_id))),
                                ],
                            ));
                        }
                        if let Some(o) = msg.as_object_mut() {
                            o.insert("id", client_id);
                        }
                        out.insert(0, Out::Client(json::write_compact(&msg)));
                        out
                    }
                };
            }
        }
        self.stray_response(id.as_ref())
    }

    /// A server notification naming one of the mediator's requests by its
    /// minted id gets the client's id instead: a cancellation (in 2026-07-28
    /// the end of a `subscriptions/listen` stream; the request is forgotten)
    /// and a frame of a listen stream (`_meta`
    /// `io.modelcontextprotocol/subscriptionId`, by which the client routes
    /// it). Returns whether the message changed. Other ids are left as they
    /// are: even one that guesses a client's id only routes a notification
    /// (a level trigger or a stream's end, never a result), so nothing the
    /// engine guards reaches the client through it.
    fn rename_for_client(&mut self, msg: &mut Value) -> bool {
        let mut changed = false;
        if method(msg) == Some("notifications/cancelled") {
            let target = params(msg).and_then(|p| p.get("requestId")).and_then(Value::as_str).map(str::to_string);
            if let Some(p) = target.and_then(|t| self.requests.remove(&t)) {
                if let (Some(c), Some(params)) = (p.client_id().cloned(), params_mut(msg)) {
                    params.insert("requestId", c);
                    changed = true;
                }
            }
        }
        if let Some(sub) = protocol::subscription_id(msg).and_then(Value::as_str).map(str::to_string) {
            if let Some(c) = self.requests.get(&sub).and_then(Pending::client_id).cloned() {
                changed |= protocol::set_subscription_id(msg, c);
            }
        }
        changed
    }

    /// The transport could not get the answer to the request it sent under
    /// `minted` (an HTTP error, a time-out, a stream that ended first, a body
    /// the transport refused): if that request still waits, it is forgotten
    /// and its client gets `message` as a -32002 error with `reason` (the
    /// mediator's own re-list, answering nobody, is only logged). Nothing
    /// when the answer already came: a transport calls this after every
    /// exchange, so no request is left waiting forever.
    pub fn fail_request(&mut self, minted: &str, message: &str, why: &str) -> Vec<Out> {
        match self.requests.remove(minted) {
            Some(p) => self.fail(p, message, why),
            None => Vec::new(),
        }
    }

    /// One request the transport lost: its client (if it has one: the
    /// mediator's own re-list answers nobody) gets -32002 with `why` as the
    /// reason, and a `request-failed` line is logged.
    fn fail(&mut self, p: Pending, message: &str, why: &str) -> Vec<Out> {
        let method = p.method().to_string();
        let client_id = p.client_id().cloned();
        let mut out = Vec::new();
        if let Some(id) = &client_id {
            let text = format!("mcp-guard: {method}: {message}");
            out.push(Out::Client(error_response(id, code::UNUSABLE_CATALOG, &text, Some(reason(why)))));
        }
        out.push(self.log(
            "request-failed",
            vec![
                ("reason", s(why)),
                ("request", id_for_log(client_id.as_ref())),
                ("method", s(&method)),
                ("message", s(message)),
            ],
        ));
        out
    }

    /// A server message without a method whose id is no pending minted id:
    /// never forwarded (a client might take it for one of its requests).
    fn stray_response(&mut self, id: Option<&Value>) -> Vec<Out> {
        if id.is_some_and(|id| self.requests.minted(id)) {
            let why = "a second answer for a request already answered, refused or cancelled";
            return vec![self.log(
                "response-dropped",
                vec![("reason", s("duplicate-response")), ("id", id_for_log(id)), ("message", s(why))],
            )];
        }
        // The server answered under a client's id, exactly or as a client
        // would match it: it guessed the id (it never saw it as a request
        // id). That request fails now, so the client never waits on an
        // answer the mediator would drop, nor takes this one for it.
        let guessed = id.map(|id| self.requests.guessed(id)).unwrap_or_default();
        let mut out = vec![self.log(
            "response-dropped",
            vec![
                ("reason", s(if guessed.is_empty() { "unknown-response-id" } else { "id-mismatch" })),
                ("id", id_for_log(id)),
            ],
        )];
        for k in guessed {
            let Some(p) = self.requests.remove(&k) else { continue };
            let Some(client_id) = p.client_id().cloned() else { continue };
            let method = p.method().to_string();
            let message = format!(
                "mcp-guard: the server answered {method} under an id it was not sent for this request; \
                 the answer was dropped"
            );
            out.push(Out::Client(error_response(
                &client_id,
                code::UNUSABLE_CATALOG,
                &message,
                Some(reason("id-mismatch")),
            )));
            let guarded = matches!(method.as_str(), "tools/list" | "tools/call");
            out.push(self.log(
                "request-failed",
                vec![
                    ("reason", s("id-mismatch")),
                    ("request", id_for_log(Some(&client_id))),
                    ("method", s(&method)),
                    ("guarded", Value::Bool(guarded)),
                ],
            ));
        }
        out
    }
}
