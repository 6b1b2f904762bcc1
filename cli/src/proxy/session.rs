//! The proxy's decisions, without any I/O: one line in, the lines to send
//! out (to the server, to the client, to the log). The threads in `mod.rs`
//! only move bytes; everything that touches the protocol is here, so it is
//! tested without processes.
//!
//! Decisions where the issue is silent (cli/README.md, section "Proxy"):
//! - **Pagination**: the proxy fetches every page itself (its own
//!   `tools/list` requests with the server's `nextCursor`) and answers the
//!   client's request once, with the whole sanitized catalog and no
//!   `nextCursor`. The engine pins and compares one whole catalog, and no
//!   tool reaches the model before the decision over the whole listing (a
//!   per-page decision would show page 1 of a drifted catalog before page 2
//!   refuses it). A client that sends a `cursor` anyway is answered with
//!   -32602: the proxy never handed one out.
//! - **Call before any listing**: refused (`unknown-tool`): the baseline is
//!   what the client saw, and it has seen nothing. No hidden fetch.
//! - **`notifications/tools/list_changed`**: forwarded, and the proxy also
//!   re-lists at once and compares, so drift revokes tools from the call
//!   gate even for a client that never re-lists. That re-list answers
//!   nobody; the client's own re-list is compared again.
//! - **Lines that are not strict JSON** (not UTF-8, syntax, duplicate keys,
//!   nesting past `MAX_DEPTH`): from the server they are dropped with a log
//!   line (no parser disagreement can smuggle a catalog past the engine);
//!   from the client they are answered with -32700 and not forwarded (a
//!   `tools/call` the gate cannot read must not reach the server).
//! - **Batches** (JSON arrays, MCP 2025-03-26): passed as they are unless
//!   they hold something the proxy acts on (a request, a cancellation, a
//!   response, `list_changed`); then each element is handled on its own and
//!   the messages go out as single messages.
//! - **Request ids**: the proxy never forwards a client's request id. Every
//!   request it sends upstream carries an id it minted (`"<nonce>-<n>"`, a
//!   string no client picks and that reads as no number), and it keeps
//!   minted id → (client's id, method) until the answer; the answer goes
//!   to the client under the client's exact id. A server message without a
//!   `method` is taken only when its id is *exactly* a pending minted id
//!   (`jsonrpc::id_match` = `Exact`); every other one is dropped with a log
//!   line and never reaches the client, so no client can route a raw
//!   catalog to its `tools/list` by loose id equality (`"1"`, `1.0`, `1e0`
//!   for `1`). When the dropped id is the *client's* id of a pending request
//!   (exactly or loosely: the server guessed it, e.g. from a progress
//!   token), that request fails: the client gets -32002
//!   `id-mismatch` under its own id, and the server's later answer
//!   is dropped like any second answer for an id already answered.
//!   `notifications/cancelled` is sent upstream with the minted id (and the
//!   request is forgotten); a cancellation of nothing pending is dropped.
//!   Server → client requests (sampling, elicitation, roots) and the
//!   client's answers to them keep their ids: those ids are the server's.
//!   At most `MAX_PENDING` requests (and `MAX_PENDING_BYTES` of their ids
//!   and methods) wait for answers; past that a new request is answered
//!   -32600 `too-many-pending` and not forwarded.

use crate::json_out::{finding, n, obj, s};
use mcp_guard::json::{self, Object, ParseOptions, Value};
use mcp_guard::pinning::{self, Baseline, CallDecision, Decision};
use mcp_guard::{Error, Policy, SanitizeOptions};
use std::collections::{HashMap, HashSet};

/// Nesting accepted in one message. Above the engine's catalog cap (128) so
/// deep tool results pass; bounded so a hostile line cannot exhaust the
/// reader thread's stack (the parser checks depth before recursing).
pub const MAX_DEPTH: usize = 512;

/// Pages one listing may take before it is refused (a server that hands out
/// cursors forever must not keep the client waiting forever).
pub const MAX_PAGES: usize = 1000;

/// Client requests waiting for the server's answer. A client that never
/// waits for answers cannot grow the proxy's memory past this; requests past
/// it are answered -32600 `too-many-pending` without reaching the server.
pub const MAX_PENDING: usize = 1024;

/// Bytes of the client ids and method names kept for pending requests (the
/// count alone would let 1024 huge ids through).
pub const MAX_PENDING_BYTES: usize = 16 << 20;

/// Longest id (in bytes of its text) compared with the pending clients' ids
/// when a server answers under an id the proxy did not mint. Only for the
/// early `id-mismatch` error: such an answer is dropped in any
/// case, and the bound keeps one stray answer's cost at
/// `MAX_PENDING × MAX_COMPARED_ID` instead of growing with hostile ids.
const MAX_COMPARED_ID: usize = 256;

/// JSON-RPC error codes the proxy answers with (documented in cli/README.md):
/// the engine's, shared with the Envoy filter.
pub use mcp_guard::jsonrpc::code;
pub use mcp_guard::jsonrpc::error_response;
use mcp_guard::jsonrpc::{call_data, id_match, method, reason, request_id, IdMatch};

/// Where a line goes.
#[derive(Debug, PartialEq)]
pub enum Out {
    /// To the server's stdin.
    Server(String),
    /// To the client (our stdout).
    Client(String),
    /// One JSON log line (stderr or `--log FILE`).
    Log(Value),
}

/// A listing being assembled from pages.
// Cloned by the property tests (one pinned session per case).
#[cfg_attr(test, derive(Clone))]
struct Listing {
    /// The client's request id; `None` for the proxy's own re-list.
    client_id: Option<Value>,
    /// The first page's result without `tools` and `nextCursor`.
    head: Object,
    tools: Vec<Value>,
    /// Bytes of the pages so far (capped by `catalog_limits.max_catalog_bytes`).
    bytes: u64,
    pages: usize,
    cursors: HashSet<String>,
}

/// What the answer to a minted id is for.
// Cloned by the property tests (one pinned session per case).
#[cfg_attr(test, derive(Clone))]
enum Pending {
    /// A client's request other than `tools/list`, forwarded under a
    /// minted id; the answer goes back under `client_id`.
    Request { client_id: Value, method: String },
    /// A page of a listing (the client's `tools/list` or the proxy's own
    /// re-list): the answer goes to the engine, never straight to the client.
    Page(Listing),
}

impl Pending {
    fn client_id(&self) -> Option<&Value> {
        match self {
            Pending::Request { client_id, .. } => Some(client_id),
            Pending::Page(l) => l.client_id.as_ref(),
        }
    }

    fn method(&self) -> &str {
        match self {
            Pending::Request { method, .. } => method,
            Pending::Page(_) => "tools/list",
        }
    }

    /// Bytes counted against `MAX_PENDING_BYTES`.
    fn weight(&self) -> usize {
        self.client_id().map_or(0, |id| json::write_compact(id).len()) + self.method().len()
    }
}

/// One stdio session: one client, one server process, one baseline.
// Cloned by the property tests (one pinned session per case).
#[cfg_attr(test, derive(Clone))]
pub struct Session {
    policy: Policy,
    opts: SanitizeOptions,
    /// `None` until the first listing was served.
    baseline: Option<Baseline>,
    /// Every request in flight upstream, by the id the proxy minted for it.
    pending: HashMap<String, Pending>,
    /// Sum of `Pending::weight` over `pending`.
    pending_bytes: usize,
    /// Prefix of the ids the proxy mints (process id + start time: no
    /// client picks such an id by accident; not a number in any reading).
    nonce: String,
    /// Ids minted so far: `"<nonce>-1"` to `"<nonce>-<next_id>"`.
    next_id: u64,
    /// Another `list_changed` came while the proxy's re-list was in flight:
    /// its answer may predate the change, so re-list once more after it.
    relist_again: bool,
}

/// The cost of comparing an id loosely, in bytes (`None`: never compared —
/// objects and arrays are no id any client matches loosely).
fn id_cost(id: &Value) -> Option<usize> {
    match id {
        Value::String(s) => Some(s.len()),
        Value::Number(n) => Some(n.as_str().len()),
        Value::Bool(_) | Value::Null => Some(0),
        _ => None,
    }
}

/// An id for a log line: as it is when short, else its type and length (a
/// hostile id must not turn one log line into megabytes).
fn id_for_log(id: Option<&Value>) -> Value {
    match id {
        None => Value::Null,
        Some(v) => match id_cost(v) {
            Some(c) if c <= MAX_COMPARED_ID => v.clone(),
            _ => s(&format!("({}, {} bytes)", v.type_name(), json::write_compact(v).len())),
        },
    }
}

/// A client message the proxy changes: a request (its id is replaced by a
/// minted one) or a cancellation (it names a request id).
fn client_acts_on(m: &Value) -> bool {
    match (method(m), request_id(m)) {
        (Some(_), Some(_)) => true,
        (Some(m), None) => m == "notifications/cancelled",
        (None, _) => false,
    }
}

/// A server message the proxy acts on: `list_changed`, and anything without
/// a method (a response, taken only under a pending minted id).
fn server_acts_on(m: &Value) -> bool {
    method(m).is_none_or(|m| m == "notifications/tools/list_changed")
}

impl Session {
    pub fn new(policy: Policy, opts: SanitizeOptions, nonce: String) -> Session {
        Session {
            policy,
            opts,
            baseline: None,
            pending: HashMap::new(),
            pending_bytes: 0,
            nonce,
            next_id: 0,
            relist_again: false,
        }
    }

    /// A fresh id for a request the proxy sends upstream.
    fn mint(&mut self) -> String {
        self.next_id += 1;
        format!("{}-{}", self.nonce, self.next_id)
    }

    /// `id` is one the proxy minted (pending or not any more).
    fn minted(&self, id: &Value) -> bool {
        let Value::String(text) = id else { return false };
        let Some(n) = text.strip_prefix(self.nonce.as_str()).and_then(|r| r.strip_prefix('-')) else { return false };
        // The canonical decimal only: "<nonce>-01" was never minted.
        n.parse::<u64>().is_ok_and(|k| k >= 1 && k <= self.next_id && k.to_string() == n)
    }

    fn insert_pending(&mut self, minted: String, p: Pending) {
        self.pending_bytes += p.weight();
        self.pending.insert(minted, p);
    }

    fn remove_pending(&mut self, minted: &str) -> Option<Pending> {
        let p = self.pending.remove(minted)?;
        self.pending_bytes = self.pending_bytes.saturating_sub(p.weight());
        Some(p)
    }

    /// The session was closed by drift (`error` + `invalidate`).
    pub fn dead(&self) -> Option<&str> {
        self.baseline.as_ref().and_then(|b| b.invalidated.as_deref())
    }

    fn log(&self, event: &str, fields: Vec<(&str, Value)>) -> Out {
        let mut o = Object::with_capacity(fields.len() + 2);
        o.insert("event", s(event));
        o.insert("server", self.opts.server.as_deref().map_or(Value::Null, s));
        for (k, v) in fields {
            o.insert(k, v);
        }
        Out::Log(Value::Object(o))
    }

    // ---- client → server -------------------------------------------------

    /// A line from the client.
    pub fn on_client_line(&mut self, line: &[u8]) -> Vec<Out> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Vec::new();
        }
        let parsed = mcp_guard::jsonrpc::parse_message(line, MAX_DEPTH).map_err(|(_, why)| why);
        let value = match parsed {
            Ok(v) => v,
            Err(why) => {
                // Not forwarded: a tools/call the gate cannot read must not
                // reach the server through a parser disagreement.
                let msg = format!("mcp-guard: the message is not strict JSON ({why})");
                return vec![
                    Out::Client(error_response(&Value::Null, code::PARSE_ERROR, &msg, None)),
                    self.log("client-line-refused", vec![("reason", s(&why))]),
                ];
            }
        };
        let text = String::from_utf8_lossy(line).trim_end().to_string();
        match value {
            Value::Array(items) if items.iter().any(client_acts_on) => {
                items.into_iter().flat_map(|m| self.client_message(m)).collect()
            }
            Value::Object(_) if client_acts_on(&value) => self.client_message(value),
            // Notifications, answers to the server's own requests (their ids
            // are the server's), anything else the proxy has no part in.
            _ => vec![Out::Server(text)],
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
        if self.pending.len() >= MAX_PENDING || self.pending_bytes >= MAX_PENDING_BYTES {
            let message = format!(
                "mcp-guard: too many requests wait for the server's answer (at most {MAX_PENDING}, \
                 {MAX_PENDING_BYTES} bytes of ids and methods)"
            );
            return vec![
                Out::Client(error_response(id, code::INVALID_REQUEST, &message, Some(reason("too-many-pending")))),
                self.log("request-refused", vec![("reason", s("too-many-pending")), ("method", s(method))]),
            ];
        }
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
                let cursor = msg
                    .as_object()
                    .and_then(|o| o.get("params"))
                    .and_then(Value::as_object)
                    .and_then(|p| p.get("cursor"));
                if cursor.is_some_and(|c| *c != Value::Null) {
                    let message = "mcp-guard: unknown cursor (the proxy serves the whole catalog in one page)";
                    return vec![Out::Client(error_response(
                        id,
                        code::INVALID_PARAMS,
                        message,
                        Some(reason("invalid-cursor")),
                    ))];
                }
                let listing = Listing {
                    client_id: Some(id.clone()),
                    head: Object::new(),
                    tools: Vec::new(),
                    bytes: 0,
                    pages: 0,
                    cursors: HashSet::new(),
                };
                vec![self.forward(msg, Pending::Page(listing))]
            }
            "tools/call" => self.gate(msg),
            _ => {
                let p = Pending::Request { client_id: id.clone(), method: method.to_string() };
                vec![self.forward(msg, p)]
            }
        }
    }

    /// Sends a client's request upstream under a minted id, remembering whose
    /// it is.
    fn forward(&mut self, mut msg: Value, p: Pending) -> Out {
        let minted = self.mint();
        if let Some(o) = msg.as_object_mut() {
            o.insert("id", Value::String(minted.clone()));
        }
        self.insert_pending(minted, p);
        Out::Server(json::write_compact(&msg))
    }

    /// `notifications/cancelled` from the client names the client's id: sent
    /// on under the minted id, and the request is forgotten (its answer, if
    /// it still comes, is dropped). A cancellation of nothing pending is
    /// dropped: forwarding it would hand the server a client id.
    fn cancel(&mut self, mut msg: Value) -> Vec<Out> {
        let target = msg
            .as_object()
            .and_then(|o| o.get("params"))
            .and_then(Value::as_object)
            .and_then(|p| p.get("requestId"))
            .cloned();
        let Some(target) = target else {
            return vec![self.log("cancel-dropped", vec![("reason", s("no params.requestId"))])];
        };
        let mut minted: Vec<String> = self
            .pending
            .iter()
            .filter(|(_, p)| p.client_id().is_some_and(|c| id_match(c, &target) == IdMatch::Exact))
            .map(|(k, _)| k.clone())
            .collect();
        if minted.is_empty() {
            return vec![self.log(
                "cancel-dropped",
                vec![("reason", s("no pending request has this id")), ("request", id_for_log(Some(&target)))],
            )];
        }
        minted.sort();
        let mut out = Vec::new();
        for m in minted {
            self.remove_pending(&m);
            if let Some(p) = msg.as_object_mut().and_then(|o| o.get_mut("params")).and_then(Value::as_object_mut) {
                p.insert("requestId", Value::String(m));
            }
            out.push(Out::Server(json::write_compact(&msg)));
        }
        out
    }

    /// The call gate: forward under the upstream name with the coerced
    /// arguments, or answer the client without reaching the server.
    fn gate(&mut self, mut msg: Value) -> Vec<Out> {
        let id = request_id(&msg).cloned().unwrap_or(Value::Null);
        let params = msg.as_object().and_then(|o| o.get("params")).and_then(Value::as_object);
        let Some(name) = params.and_then(|p| p.get("name")).and_then(Value::as_str).map(str::to_string) else {
            let message = "mcp-guard: tools/call needs params.name (a string)";
            return vec![
                Out::Client(error_response(&id, code::INVALID_PARAMS, message, Some(reason("invalid-params")))),
                self.log(
                    "call-refused",
                    vec![("tool", Value::Null), ("reason", s("invalid-params")), ("message", s(message))],
                ),
            ];
        };
        let original_args = params.and_then(|p| p.get("arguments")).map(json::write_compact);
        let decision = match &self.baseline {
            Some(b) => pinning::check_call(b, &name, original_args.as_deref()),
            None => {
                let message = format!(
                    "mcp-guard: no tool was listed to this session yet; call tools/list before calling {name:?}"
                );
                return vec![
                    Out::Client(error_response(
                        &id,
                        code::INVALID_PARAMS,
                        &message,
                        Some(call_data("unknown-tool", &name, &[])),
                    )),
                    self.log(
                        "call-refused",
                        vec![("tool", s(&name)), ("reason", s("unknown-tool")), ("message", s(&message))],
                    ),
                ];
            }
        };
        match decision {
            // A discovery meta-tool: the engine answered from the session's
            // baseline; nothing goes upstream.
            CallDecision::Respond(result) => {
                let result = match json::parse(&result, ParseOptions { max_depth: MAX_DEPTH }) {
                    Ok(p) => p.value,
                    Err(e) => {
                        let message = format!("mcp-guard: internal error re-reading a meta-tool result: {e}");
                        return vec![Out::Client(error_response(&id, code::INVALID_PARAMS, &message, None))];
                    }
                };
                vec![
                    Out::Client(json::write_compact(&obj([
                        ("jsonrpc", s("2.0")),
                        ("id", id.clone()),
                        ("result", result),
                    ]))),
                    self.log("meta-tool", vec![("tool", s(&name))]),
                ]
            }
            CallDecision::Refuse(r) => {
                let message = format!("mcp-guard: {}", r.message);
                vec![
                    Out::Client(error_response(
                        &id,
                        code::INVALID_PARAMS,
                        &message,
                        Some(call_data(r.reason.id(), &name, &r.violations)),
                    )),
                    self.log(
                        "call-refused",
                        vec![("tool", s(&name)), ("reason", s(r.reason.id())), ("message", s(&r.message))],
                    ),
                ]
            }
            CallDecision::Allow(a) => {
                let mut out = Vec::new();
                if let Some(w) = &a.warning {
                    out.push(self.log("call-warning", vec![("tool", s(&name)), ("warning", s(w))]));
                }
                let pending = Pending::Request { client_id: id.clone(), method: "tools/call".to_string() };
                let same_args = a.arguments.is_none() || a.arguments == original_args;
                if a.upstream == name && same_args {
                    out.push(self.forward(msg, pending));
                    return out;
                }
                // The engine wrote these arguments itself; should they not
                // parse, the call is refused rather than sent unchecked.
                let args = match a.arguments.as_deref().map(|t| json::parse(t, ParseOptions { max_depth: MAX_DEPTH })) {
                    None => None,
                    Some(Ok(p)) => Some(p.value),
                    Some(Err(e)) => {
                        let message = format!("mcp-guard: internal error re-reading the checked arguments: {e}");
                        out.push(Out::Client(error_response(
                            &id,
                            code::INVALID_PARAMS,
                            &message,
                            Some(call_data("invalid-arguments", &name, &[])),
                        )));
                        return out;
                    }
                };
                if let Some(p) = msg.as_object_mut().and_then(|o| o.get_mut("params")).and_then(Value::as_object_mut) {
                    p.insert("name", s(&a.upstream));
                    if let Some(args) = args {
                        p.insert("arguments", args);
                    }
                }
                out.push(self.forward(msg, pending));
                out
            }
        }
    }

    // ---- server → client -------------------------------------------------

    /// A line from the server.
    pub fn on_server_line(&mut self, line: &[u8]) -> Vec<Out> {
        if line.iter().all(u8::is_ascii_whitespace) {
            return Vec::new();
        }
        let parsed = mcp_guard::jsonrpc::parse_message(line, MAX_DEPTH).map_err(|(_, why)| why);
        let value = match parsed {
            Ok(v) => v,
            // Cannot be a valid MCP message; passing it on would let the
            // client's parser read something the engine never saw.
            Err(why) => {
                return vec![self.log("server-line-dropped", vec![("reason", s(&why)), ("bytes", n(line.len() as u64))])]
            }
        };
        let text = String::from_utf8_lossy(line).trim_end().to_string();
        match value {
            Value::Array(items) if items.iter().any(server_acts_on) => {
                items.into_iter().flat_map(|m| self.server_message(m, None)).collect()
            }
            Value::Array(_) => vec![Out::Client(text)],
            Value::Object(_) => self.server_message(value, Some(text)),
            // A bare number, string, … is no JSON-RPC message.
            _ => vec![self.log(
                "server-line-dropped",
                vec![("reason", s("not a JSON-RPC message")), ("bytes", n(line.len() as u64))],
            )],
        }
    }

    fn server_message(&mut self, msg: Value, line: Option<String>) -> Vec<Out> {
        let pass = |msg: &Value| Out::Client(line.clone().unwrap_or_else(|| json::write_compact(msg)));
        if let Some(m) = method(&msg) {
            // Requests from the server (sampling, elicitation, roots) and
            // notifications (progress, logging…) pass untouched: their ids
            // are the server's, and the client answers under them.
            if m != "notifications/tools/list_changed" {
                return vec![pass(&msg)];
            }
            let mut out = vec![pass(&msg)];
            out.extend(self.relist());
            return out;
        }
        // A response (or no message at all): taken only under a pending
        // minted id, exactly.
        let id = msg.as_object().and_then(|o| o.get("id")).cloned();
        if let Some(Value::String(k)) = &id {
            if let Some(p) = self.remove_pending(k) {
                return match p {
                    Pending::Page(listing) => self.page(listing, msg),
                    Pending::Request { client_id, .. } => {
                        let mut msg = msg;
                        if let Some(o) = msg.as_object_mut() {
                            o.insert("id", client_id);
                        }
                        vec![Out::Client(json::write_compact(&msg))]
                    }
                };
            }
        }
        self.stray_response(id.as_ref())
    }

    /// A server message without a method whose id is no pending minted id:
    /// never forwarded (a client might take it for one of its requests).
    fn stray_response(&mut self, id: Option<&Value>) -> Vec<Out> {
        if id.is_some_and(|id| self.minted(id)) {
            let why = "a second answer for a request already answered, refused or cancelled";
            return vec![self.log(
                "response-dropped",
                vec![("reason", s("duplicate-response")), ("id", id_for_log(id)), ("message", s(why))],
            )];
        }
        // The server answered under a client's id, exactly or as a client
        // would match it: it guessed the id (it never saw it as a request
        // id). That request fails now, so the client never waits on an
        // answer the proxy would drop, nor takes this one for it.
        let guessed: Vec<String> = match id.and_then(|id| id_cost(id).map(|c| (id, c))) {
            Some((id, cost)) if cost <= MAX_COMPARED_ID => {
                let mut k: Vec<String> = self
                    .pending
                    .iter()
                    .filter(|(_, p)| {
                        p.client_id().is_some_and(|c| {
                            id_cost(c).is_some_and(|cc| cc <= MAX_COMPARED_ID) && id_match(c, id) != IdMatch::Distinct
                        })
                    })
                    .map(|(k, _)| k.clone())
                    .collect();
                k.sort();
                k
            }
            _ => Vec::new(),
        };
        let mut out = vec![self.log(
            "response-dropped",
            vec![
                ("reason", s(if guessed.is_empty() { "unknown-response-id" } else { "id-mismatch" })),
                ("id", id_for_log(id)),
            ],
        )];
        for k in guessed {
            let Some(p) = self.remove_pending(&k) else { continue };
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

    /// After `list_changed`: the proxy's own re-list, so the gate follows
    /// the server even when the client does not re-list. Not before a first
    /// listing (nothing to compare with), not in a dead session.
    fn relist(&mut self) -> Vec<Out> {
        if self.baseline.is_none() || self.dead().is_some() {
            return Vec::new();
        }
        if self.pending.values().any(|p| matches!(p, Pending::Page(l) if l.client_id.is_none())) {
            self.relist_again = true;
            return Vec::new();
        }
        let listing = Listing {
            client_id: None,
            head: Object::new(),
            tools: Vec::new(),
            bytes: 0,
            pages: 0,
            cursors: HashSet::new(),
        };
        vec![self.request_page(listing, None)]
    }

    /// Sends the proxy's own `tools/list` (with `cursor` for a next page).
    fn request_page(&mut self, listing: Listing, cursor: Option<&str>) -> Out {
        let id = self.mint();
        let params = match cursor {
            Some(c) => obj([("cursor", s(c))]),
            None => Value::Object(Object::new()),
        };
        let req = obj([("jsonrpc", s("2.0")), ("id", s(&id)), ("method", s("tools/list")), ("params", params)]);
        self.insert_pending(id, Pending::Page(listing));
        Out::Server(json::write_compact(&req))
    }

    /// One page of a listing arrived.
    fn page(&mut self, mut l: Listing, msg: Value) -> Vec<Out> {
        let mut msg = match msg {
            Value::Object(o) => o,
            _ => Object::new(),
        };
        if let Some(err) = msg.remove("error") {
            // The server refused the listing: the client gets the server's
            // error under its own id.
            let mut out = vec![self.log("listing-error", vec![("error", err.clone())])];
            if let Some(id) = &l.client_id {
                out.push(Out::Client(json::write_compact(&obj([
                    ("jsonrpc", s("2.0")),
                    ("id", id.clone()),
                    ("error", err),
                ]))));
            }
            return out;
        }
        let result = msg.remove("result").unwrap_or(Value::Null);
        let mut result = match result {
            Value::Object(r) => r,
            // Not an object: the engine refuses it with a typed error.
            other => return self.finish(l, json::write_compact(&other)),
        };
        let cursor = match result.remove("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c),
            Some(other) => {
                let why = format!("nextCursor must be a string, not {}", other.type_name());
                return self.unusable(l, "invalid-cursor", &why);
            }
        };
        if l.pages == 0 && cursor.is_none() {
            // The common case: one page, handed to the engine as it is.
            return self.finish(l, json::write_compact(&Value::Object(result)));
        }
        let tools = match result.remove("tools") {
            Some(Value::Array(t)) => t,
            _ => return self.unusable(l, "not-a-tools-list", "a page of the tools/list result has no tools array"),
        };
        let page_bytes = json::write_compact(&Value::Array(tools.clone())).len() as u64;
        l.bytes += page_bytes;
        l.pages += 1;
        if l.pages == 1 {
            l.head = result;
        }
        l.tools.extend(tools);
        let max = self.policy.catalog.max_catalog_bytes;
        if l.bytes > max {
            let why = format!("the pages of the tools/list result exceed catalog_limits.max_catalog_bytes ({max})");
            return self.unusable(l, "too-large", &why);
        }
        match cursor {
            None => {
                let mut catalog = Object::with_capacity(l.head.len() + 1);
                catalog.insert("tools", Value::Array(std::mem::take(&mut l.tools)));
                for (k, v) in std::mem::take(&mut l.head).into_entries() {
                    catalog.insert(k, v);
                }
                self.finish(l, json::write_compact(&Value::Object(catalog)))
            }
            Some(_) if l.pages >= MAX_PAGES => {
                self.unusable(l, "too-many-pages", &format!("the tools/list result has more than {MAX_PAGES} pages"))
            }
            Some(c) if !l.cursors.insert(c.clone()) => {
                self.unusable(l, "cursor-loop", "the server handed out the same nextCursor twice")
            }
            Some(c) => vec![self.request_page(l, Some(&c))],
        }
    }

    /// Fails a listing closed: the client gets an error, never the raw pages.
    fn unusable(&mut self, l: Listing, kind: &str, why: &str) -> Vec<Out> {
        let message = format!("mcp-guard: the server's tools/list result is unusable: {why}");
        let mut out = vec![self.log("listing-unusable", vec![("kind", s(kind)), ("message", s(why))])];
        if let Some(id) = &l.client_id {
            out.push(Out::Client(error_response(id, code::UNUSABLE_CATALOG, &message, Some(reason(kind)))));
        }
        out
    }

    /// The whole catalog of a listing: pin (first) or compare (later), then
    /// serve or refuse.
    fn finish(&mut self, l: Listing, catalog: String) -> Vec<Out> {
        let request = l.client_id.clone().unwrap_or(Value::Null);
        let first = self.baseline.is_none();
        let result = match &self.baseline {
            None => pinning::pin(&self.policy, &catalog, &self.opts).map(|p| {
                let serve = Decision::Serve(p.outcome.catalog.clone());
                (p.outcome, Vec::new(), p.baseline, serve)
            }),
            Some(b) => pinning::compare(&self.policy, b, &catalog, &self.opts)
                .map(|c| (c.outcome, c.drift, c.baseline, c.decision)),
        };
        let (outcome, drift, baseline, decision) = match result {
            Ok(r) => r,
            Err(e) => return self.engine_error(l, &e),
        };
        let was_dead = self.dead().is_some();
        let mut out: Vec<Out> =
            outcome.findings.iter().map(|f| self.log("finding", vec![("finding", finding(f))])).collect();
        let served = match decision {
            Decision::Serve(c) => Ok(c),
            Decision::Refuse { invalidate, message } => Err((invalidate, message)),
        };
        let drift_names =
            |k: pinning::DriftKind| Value::Array(drift.iter().filter(|d| d.kind == k).map(|d| s(&d.name)).collect());
        out.push(self.log(
            "listing",
            vec![
                ("request", request),
                ("baseline", s(if first { "pinned" } else { "compared" })),
                ("tools", n(outcome.tools.len() as u64)),
                (
                    "hidden",
                    Value::Array(outcome.hidden.iter().map(|h| h.name.as_deref().map_or(Value::Null, s)).collect()),
                ),
                ("changed", drift_names(pinning::DriftKind::Changed)),
                ("new", drift_names(pinning::DriftKind::New)),
                ("removed", drift_names(pinning::DriftKind::Removed)),
                ("decision", s(if served.is_ok() { "served" } else { "refused" })),
            ],
        ));
        self.baseline = Some(baseline);
        if !was_dead {
            if let Some(why) = self.dead() {
                let why = why.to_string();
                out.push(self.log("session-invalidated", vec![("message", s(&why))]));
            }
        }
        let Some(id) = l.client_id else {
            if std::mem::take(&mut self.relist_again) {
                out.extend(self.relist());
            }
            return out;
        };
        match served {
            Ok(catalog) => {
                // The engine's compact catalog is spliced in as it is.
                out.push(Out::Client(format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{catalog}}}",
                    json::write_compact(&id)
                )))
            }
            Err((invalidate, message)) => {
                let data = obj([("reason", s(if invalidate { "session-invalidated" } else { "drift" }))]);
                out.push(Out::Client(error_response(&id, code::REFUSED, &format!("mcp-guard: {message}"), Some(data))));
            }
        }
        out
    }

    fn engine_error(&mut self, l: Listing, e: &Error) -> Vec<Out> {
        let message = format!("mcp-guard refused the server's tools/list result: {e}");
        let mut out = vec![self.log("engine-error", vec![("kind", s(e.kind())), ("message", s(&e.to_string()))])];
        if let Some(id) = &l.client_id {
            out.push(Out::Client(error_response(id, code::UNUSABLE_CATALOG, &message, Some(reason(e.kind())))));
        }
        out
    }
}

#[cfg(test)]
mod tests;
