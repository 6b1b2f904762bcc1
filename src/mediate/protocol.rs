//! The MCP protocol version of each message: 2025-11-25 (and older) settle
//! it once, in the `initialize` handshake; 2026-07-28 has no handshake and
//! each request carries its version and the client's capabilities in
//! `params._meta` (`io.modelcontextprotocol/protocolVersion`,
//! `…/clientCapabilities`, `…/clientInfo`), `server/discover` replacing the
//! handshake's answer. A connection may carry either, so the version is
//! read per message, never assumed.
//!
//! What depends on it:
//! - The mediator's own requests (the next page of a listing, the re-list
//!   after a list change) carry the `io.modelcontextprotocol/*` `_meta`
//!   entries of the client request they serve (a re-list: of the latest
//!   client request that had them): a 2026-07-28 server refuses a request
//!   without them, a 2025-11-25 one never sees them.
//! - In 2026-07-28 a list change arrives on a `subscriptions/listen` stream,
//!   each frame stamped with `_meta` `io.modelcontextprotocol/subscriptionId`
//!   = the listen request's id: the mediator minted that id, so the frame is
//!   renamed to the client's id (the client routes frames by it).
//! - Results keep `resultType`, `ttlMs`, `cacheScope` and `_meta` (the
//!   engine's envelope stage type-checks them on a served listing); a
//!   `tools/call` answered `resultType: "input_required"` passes (the client
//!   answers the server's input requests by sending the call again, and that
//!   retry goes through the call gate like any call).
//! - The `listing` log line names the version of the request it answers.

use super::{params, params_mut};
use crate::json::{self, Object, Value};
use crate::jsonrpc::method;

/// The version that replaced the handshake with per-request `_meta`.
pub const PER_REQUEST_VERSION: &str = "2026-07-28";

/// Whether a version string names a per-request protocol (2026-07-28 or a
/// later date): one test for the header rules of both HTTP transports
/// (`http`, `headers`). Dates compare as text; a version that is no date
/// sorts after the digits and counts as later (a newer server's own string
/// must not make the mediator treat it as a 2025 session).
pub fn is_per_request(version: &str) -> bool {
    version >= PER_REQUEST_VERSION
}

/// `_meta` key of a 2026-07-28 request's protocol version.
pub const VERSION_KEY: &str = "io.modelcontextprotocol/protocolVersion";

/// `_meta` key of a `subscriptions/listen` stream's frames: the listen
/// request's id.
pub const SUBSCRIPTION_ID_KEY: &str = "io.modelcontextprotocol/subscriptionId";

/// Prefix of the `_meta` keys the protocol reserves for itself.
const RESERVED_PREFIX: &str = "io.modelcontextprotocol/";

/// Largest envelope (compact bytes) the mediator copies into its own
/// requests; a bigger one is not kept (the re-list then goes without it, as
/// in 2025-11-25).
const MAX_ENVELOPE: usize = 64 << 10;

/// What the mediator knows of the conversation's protocol.
#[derive(Clone, Debug, Default)]
pub(crate) struct Protocol {
    /// The version the server chose in its `initialize` answer.
    negotiated: Option<String>,
    /// The `io.modelcontextprotocol/*` `_meta` entries of the latest client
    /// request that had a protocol version there.
    envelope: Option<Object>,
    /// The version of that request.
    per_request: Option<String>,
}

impl Protocol {
    /// Reads a client request; returns its protocol version when it can be
    /// told (its `_meta`, its `initialize` proposal, else the handshake's).
    pub(crate) fn on_client_request(&mut self, msg: &Value) -> Option<String> {
        if let Some(v) = meta_version(msg) {
            if let Some(env) = envelope(msg) {
                self.envelope = Some(env);
            }
            self.per_request = Some(v.to_string());
            return Some(v.to_string());
        }
        if method(msg) == Some("initialize") {
            return params(msg).and_then(|p| p.get("protocolVersion")).and_then(Value::as_str).map(str::to_string);
        }
        self.negotiated.clone()
    }

    /// The server's answer to `initialize`: the version of the session.
    pub(crate) fn on_initialize_result(&mut self, msg: &Value) {
        let v = json::pointer_get(msg, "/result/protocolVersion").and_then(Value::as_str);
        if let Some(v) = v {
            self.negotiated = Some(v.to_string());
        }
    }

    /// Version and envelope for a request the mediator sends on its own
    /// (a re-list): the latest per-request envelope, else the handshake's
    /// version with none.
    pub(crate) fn own_request(&self) -> (Option<String>, Option<Object>) {
        match (&self.per_request, &self.envelope) {
            (Some(v), env) => (Some(v.clone()), env.clone()),
            (None, _) => (self.negotiated.clone(), None),
        }
    }
}

/// The `_meta` protocol version of a request (2026-07-28 and later).
pub fn meta_version(msg: &Value) -> Option<&str> {
    params(msg)?.get("_meta")?.as_object()?.get(VERSION_KEY)?.as_str()
}

/// The reserved (`io.modelcontextprotocol/*`) `_meta` entries of a request
/// that carries a protocol version there, to copy into the mediator's own
/// requests; `None` for a 2025-11-25 request or an oversized envelope.
/// Other `_meta` entries (a progress token) belong to that one request.
pub fn envelope(msg: &Value) -> Option<Object> {
    meta_version(msg)?;
    let meta = params(msg)?.get("_meta")?.as_object()?;
    let mut env = Object::new();
    for (k, v) in meta.iter() {
        if k.starts_with(RESERVED_PREFIX) && k != SUBSCRIPTION_ID_KEY {
            env.insert(k.clone(), v.clone());
        }
    }
    let size = json::write_compact(&Value::Object(env.clone())).len();
    (size <= MAX_ENVELOPE).then_some(env)
}

/// The `subscriptionId` a server notification is stamped with.
pub fn subscription_id(msg: &Value) -> Option<&Value> {
    params(msg)?.get("_meta")?.as_object()?.get(SUBSCRIPTION_ID_KEY)
}

/// Restamps a notification with `id`; whether it changed.
pub(crate) fn set_subscription_id(msg: &mut Value, id: Value) -> bool {
    let Some(meta) = params_mut(msg).and_then(|p| p.get_mut("_meta")).and_then(Value::as_object_mut) else {
        return false;
    };
    meta.insert(SUBSCRIPTION_ID_KEY, id);
    true
}

/// A result that asks the client for more input before it completes
/// (2026-07-28 multi round-trip requests).
pub fn input_required(msg: &Value) -> bool {
    json::pointer_get(msg, "/result/resultType").and_then(Value::as_str) == Some("input_required")
}
