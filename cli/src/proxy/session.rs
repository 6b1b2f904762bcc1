//! The proxy's decisions, without any I/O: one line in, the lines to send
//! out (to the server, to the client, to the log). The threads in `mod.rs`
//! only move bytes; everything that touches the protocol is here, so it is
//! tested without processes.
//!
//! Decisions where the issue is silent (README, section "Proxy"):
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
//!   they hold something the proxy acts on; then each element is handled on
//!   its own and the answers go out as single messages.

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

/// JSON-RPC error codes the proxy answers with (documented in the README):
/// the engine's, shared with the Envoy filter.
pub use mcp_guard::jsonrpc::code;
pub use mcp_guard::jsonrpc::error_response;
use mcp_guard::jsonrpc::{call_data, is_request, method, reason, request_id};

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

/// One stdio session: one client, one server process, one baseline.
pub struct Session {
    policy: Policy,
    opts: SanitizeOptions,
    /// `None` until the first listing was served.
    baseline: Option<Baseline>,
    /// The client's `tools/list` requests in flight, by id key.
    lists: HashMap<String, Value>,
    /// The proxy's own requests in flight (next pages, re-lists), by id key.
    own: HashMap<String, Listing>,
    /// Prefix of the proxy's own request ids (process id + start time: no
    /// client picks such an id by accident).
    nonce: String,
    next_id: u64,
    /// Another `list_changed` came while the proxy's re-list was in flight:
    /// its answer may predate the change, so re-list once more after it.
    relist_again: bool,
}

/// The key of a JSON-RPC id: its compact JSON (`1` and `"1"` differ).
fn id_key(id: &Value) -> String {
    json::write_compact(id)
}

impl Session {
    pub fn new(policy: Policy, opts: SanitizeOptions, nonce: String) -> Session {
        Session {
            policy,
            opts,
            baseline: None,
            lists: HashMap::new(),
            own: HashMap::new(),
            nonce,
            next_id: 0,
            relist_again: false,
        }
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
            Value::Array(items) if items.iter().any(|m| is_request(m, "tools/list") || is_request(m, "tools/call")) => {
                items.into_iter().flat_map(|m| self.client_message(m, None)).collect()
            }
            Value::Object(_) => self.client_message(value, Some(text)),
            _ => vec![Out::Server(text)],
        }
    }

    /// One message from the client; `line` is its original text when it came
    /// alone (forwarded byte for byte when the proxy changes nothing).
    fn client_message(&mut self, msg: Value, line: Option<String>) -> Vec<Out> {
        let pass = |msg: &Value| Out::Server(line.clone().unwrap_or_else(|| json::write_compact(msg)));
        let (Some(method), Some(id)) = (method(&msg), request_id(&msg)) else { return vec![pass(&msg)] };
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
                self.lists.insert(id_key(id), id.clone());
                vec![pass(&msg)]
            }
            "tools/call" => self.gate(msg, line),
            _ => vec![pass(&msg)],
        }
    }

    /// The call gate: forward under the upstream name with the coerced
    /// arguments, or answer the client without reaching the server.
    fn gate(&mut self, mut msg: Value, line: Option<String>) -> Vec<Out> {
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
                    Out::Client(json::write_compact(&obj([("jsonrpc", s("2.0")), ("id", id.clone()), ("result", result)]))),
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
                let same_args = a.arguments.is_none() || a.arguments == original_args;
                if a.upstream == name && same_args {
                    out.push(Out::Server(line.unwrap_or_else(|| json::write_compact(&msg))));
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
                out.push(Out::Server(json::write_compact(&msg)));
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
            Value::Array(items) if items.iter().any(|m| self.server_acts_on(m)) => {
                items.into_iter().flat_map(|m| self.server_message(m, None)).collect()
            }
            Value::Object(_) => self.server_message(value, Some(text)),
            _ => vec![Out::Client(text)],
        }
    }

    fn server_acts_on(&self, m: &Value) -> bool {
        match (method(m), m.as_object().and_then(|o| o.get("id"))) {
            (Some(m), _) => m == "notifications/tools/list_changed",
            (None, Some(id)) => {
                let k = id_key(id);
                self.lists.contains_key(&k) || self.own.contains_key(&k)
            }
            _ => false,
        }
    }

    fn server_message(&mut self, msg: Value, line: Option<String>) -> Vec<Out> {
        let pass = |msg: &Value| Out::Client(line.clone().unwrap_or_else(|| json::write_compact(msg)));
        if let Some(m) = method(&msg) {
            // Requests from the server (sampling, elicitation, roots) and
            // notifications (progress, logging…) pass untouched.
            if m != "notifications/tools/list_changed" {
                return vec![pass(&msg)];
            }
            let mut out = vec![pass(&msg)];
            out.extend(self.relist());
            return out;
        }
        let Some(id) = msg.as_object().and_then(|o| o.get("id")) else { return vec![pass(&msg)] };
        let key = id_key(id);
        if let Some(listing) = self.own.remove(&key) {
            return self.page(listing, msg);
        }
        if let Some(client_id) = self.lists.remove(&key) {
            let listing = Listing {
                client_id: Some(client_id),
                head: Object::new(),
                tools: Vec::new(),
                bytes: 0,
                pages: 0,
                cursors: HashSet::new(),
            };
            return self.page(listing, msg);
        }
        vec![pass(&msg)]
    }

    /// After `list_changed`: the proxy's own re-list, so the gate follows
    /// the server even when the client does not re-list. Not before a first
    /// listing (nothing to compare with), not in a dead session.
    fn relist(&mut self) -> Vec<Out> {
        if self.baseline.is_none() || self.dead().is_some() {
            return Vec::new();
        }
        if self.own.values().any(|l| l.client_id.is_none()) {
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
        self.next_id += 1;
        let id = Value::String(format!("{}-{}", self.nonce, self.next_id));
        let params = match cursor {
            Some(c) => obj([("cursor", s(c))]),
            None => Value::Object(Object::new()),
        };
        let req = obj([("jsonrpc", s("2.0")), ("id", id.clone()), ("method", s("tools/list")), ("params", params)]);
        self.own.insert(id_key(&id), listing);
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
