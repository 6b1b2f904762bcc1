//! The filter's `configuration` (a JSON string in `envoy.yaml`), read once
//! per root context in `on_configure`. Unknown keys are an error: a typo in
//! a security setting must not silently fall back to a default.
//!
//! ```json
//! {
//!   "policy": { "core": { "tool_poisoning": { "mode": "block" } } },
//!   "server": "docs",
//!   "max_body_bytes": 4194304,
//!   "tombstone_ttl_seconds": 3600,
//!   "hold_request_headers": true,
//!   "pin_scope": "persistent",
//!   "principal_header": "x-authenticated-user",
//!   "admin": { "path": "/mcp-guard/pins", "token_sha256": "<64 hex>" }
//! }
//! ```

use mcp_guard::json::{self, ParseOptions, Value};
use mcp_guard::{Policy, SanitizeOptions};
use std::time::Duration;

/// # Default 4 MiB: a large real catalog fits. Envoy's own default buffer
/// limit is 1 MiB; raise `per_connection_buffer_limit_bytes` above this cap
/// (envoy.yaml does), else Envoy's limit decides first — with an error of
/// its own, so still closed.
pub const DEFAULT_MAX_BODY_BYTES: u64 = 4 << 20;
/// # Default one hour: the Streamable HTTP session of a typical SDK server
/// is long gone by then.
pub const DEFAULT_TOMBSTONE_TTL_SECONDS: u64 = 3600;

/// Where the filter keeps a server's pins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinScope {
    /// One pin record per server identity (and principal), kept in shared
    /// data for as long as the Envoy process lives: the first listing of
    /// every new session and of every stateless (2026-07-28) client is
    /// compared with the approved pins; changed and new tools are held back
    /// until an operator approves them (the admin path). # Default: a rug
    /// pull between two sessions is the attack pinning exists for, and
    /// 2026-07-28 has no sessions to pin per.
    Persistent,
    /// One baseline per `Mcp-Session-Id` (the behaviour before pin
    /// records): each 2025-11-25 session pins its own first listing;
    /// clients without a session share one baseline per `server`, with no
    /// approval (it moves only by listings).
    Session,
}

/// The admin path (persistent scope): list, show, approve and forget the
/// pin records of this filter's `server`, answered by the filter itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Admin {
    /// The path prefix (`/mcp-guard/pins`); requests under it never go
    /// upstream.
    pub path: String,
    /// SHA-256 of the bearer token, 32 bytes. Only the hash is configured:
    /// Envoy shows a filter's configuration on its own admin interface
    /// (`/config_dump`), and that must not hand out the token.
    pub token_sha256: [u8; 32],
}

/// Longest principal header value used as part of a record key (an authn
/// filter's user or client id fits many times over).
pub const MAX_PRINCIPAL_BYTES: usize = 256;

/// Everything the filter needs, parsed and validated.
#[derive(Clone, Debug)]
pub struct FilterConfig {
    /// The engine policy (`policy`; # Default `Policy::default()`).
    pub policy: Policy,
    /// `server`: selects `servers[]` overrides and namespaces the shared-data
    /// keys (# Default none).
    pub opts: SanitizeOptions,
    /// `max_body_bytes`: the largest body the filter buffers (a `tools/list`
    /// response, a JSON request). Above it the request is refused or the
    /// listing fails closed.
    pub max_body_bytes: u64,
    /// `tombstone_ttl_seconds`: how long a session closed by drift is
    /// answered with HTTP 409.
    pub tombstone_ttl: Duration,
    /// `hold_request_headers`: a JSON POST's headers wait for its body, so
    /// a refused request never reaches upstream and `Mcp-Name` leaves
    /// rewritten with a mapped name. Needs `allow_on_headers_stop_iteration:
    /// true` in the Wasm plugin config (Envoy 1.35 and later): without it
    /// Envoy holds the body too and the request hangs. `false` sends the
    /// headers at once (the body still waits; a server that checks
    /// `Mcp-Name` then refuses a call under a mapped name). # Default true.
    pub hold_request_headers: bool,
    /// `pin_scope`: `persistent` (# Default) or `session`.
    pub pin_scope: PinScope,
    /// `principal_header` (persistent scope): the request header naming
    /// the authenticated principal; each principal gets its own record of
    /// the server. It must be set by a trusted filter in front (an authn
    /// filter that overwrites whatever the client sent), never taken from
    /// the client as it is. # Default none: one record per server.
    pub principal_header: Option<String>,
    /// `admin` (persistent scope): the approval path. # Default none: no
    /// approval over HTTP (held-back tools then stay held back).
    pub admin: Option<Admin>,
}

impl Default for FilterConfig {
    fn default() -> Self {
        FilterConfig {
            policy: Policy::default(),
            opts: SanitizeOptions::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            tombstone_ttl: Duration::from_secs(DEFAULT_TOMBSTONE_TTL_SECONDS),
            hold_request_headers: true,
            pin_scope: PinScope::Persistent,
            principal_header: None,
            admin: None,
        }
    }
}

impl FilterConfig {
    /// Parses the plugin configuration. Persistent pins (the default scope)
    /// need a `server` to key them by, so an empty configuration is refused:
    /// `{"pin_scope":"session"}` is the smallest one.
    pub fn from_bytes(bytes: &[u8]) -> Result<FilterConfig, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("configuration is not UTF-8: {e}"))?;
        let text = if text.trim().is_empty() { "{}" } else { text };
        let doc = json::parse(text, ParseOptions { max_depth: 64 })
            .map_err(|e| format!("configuration is not strict JSON: {e}"))?
            .value;
        let Value::Object(o) = doc else { return Err("configuration must be a JSON object".into()) };
        let mut c = FilterConfig::default();
        let mut policy = None;
        for (k, v) in o.iter() {
            match k.as_str() {
                // Read after the loop: its default depends on `pin_scope`.
                "policy" => policy = Some(v.clone()),
                "server" => match v {
                    Value::String(s) if !s.is_empty() => c.opts.server = Some(s.clone()),
                    Value::Null => c.opts.server = None,
                    _ => return Err("`server` must be a non-empty string".into()),
                },
                "max_body_bytes" => c.max_body_bytes = positive(v, k)?,
                "tombstone_ttl_seconds" => c.tombstone_ttl = Duration::from_secs(positive(v, k)?),
                "hold_request_headers" => match v {
                    Value::Bool(b) => c.hold_request_headers = *b,
                    _ => return Err("`hold_request_headers` must be true or false".into()),
                },
                "pin_scope" => {
                    c.pin_scope = match v.as_str() {
                        Some("persistent") => PinScope::Persistent,
                        Some("session") => PinScope::Session,
                        _ => return Err("`pin_scope` must be \"persistent\" or \"session\"".into()),
                    }
                }
                "principal_header" => match v.as_str() {
                    Some(h) if is_header_name(h) => c.principal_header = Some(h.to_ascii_lowercase()),
                    _ => return Err("`principal_header` must be an HTTP header name".into()),
                },
                "admin" => c.admin = Some(admin(v)?),
                other => {
                    return Err(format!(
                        "unknown key {other:?} (policy, server, max_body_bytes, tombstone_ttl_seconds, hold_request_headers, pin_scope, principal_header, admin)"
                    ))
                }
            }
        }
        if c.pin_scope == PinScope::Session && (c.principal_header.is_some() || c.admin.is_some()) {
            // Contradictory: a session's baseline has no principal and
            // nothing to approve.
            return Err("`principal_header` and `admin` need `pin_scope: persistent`".into());
        }
        if c.pin_scope == PinScope::Persistent && c.opts.server.is_none() {
            // The record key is the operator's name for the server, never
            // anything the server says; without one, two upstreams behind
            // two filter configurations would share one record.
            return Err("persistent pins need `server` (the server identity the records are kept under), or set `pin_scope: \"session\"`".into());
        }
        let policy = policy.unwrap_or_else(|| Value::Object(json::Object::new()));
        // The engine's own policy reader decides; it is handed the compact
        // text of the member, so there is one policy parser. With persistent
        // pins the mode defaults to quarantine (the engine's one rule).
        let mut text = json::write_compact(&policy);
        if c.pin_scope == PinScope::Persistent {
            text = mcp_guard::pinning::record_policy(&text);
        }
        c.policy = Policy::from_json(&text).map_err(|e| format!("policy: {e}"))?;
        Ok(c)
    }
}

/// An RFC 9110 token (what an HTTP header name is).
fn is_header_name(h: &str) -> bool {
    !h.is_empty() && !h.starts_with(':') && h.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

fn admin(v: &Value) -> Result<Admin, String> {
    let Value::Object(o) = v else { return Err("`admin` must be an object with path and token_sha256".into()) };
    let mut path = None;
    let mut token = None;
    for (k, v) in o.iter() {
        match (k.as_str(), v.as_str()) {
            ("path", Some(p)) if p.starts_with('/') && p.len() > 1 && !p.ends_with('/') && !p.contains(['?', '#']) => {
                path = Some(p.to_string())
            }
            ("path", _) => return Err("`admin.path` must be an absolute path without a trailing `/`, `?` or `#`".into()),
            ("token_sha256", Some(t)) => token = Some(unhex32(t).ok_or("`admin.token_sha256` must be 64 hex digits (SHA-256 of the bearer token)")?),
            ("token_sha256", _) => return Err("`admin.token_sha256` must be a string".into()),
            (other, _) => return Err(format!("unknown key admin.{other} (path, token_sha256)")),
        }
    }
    match (path, token) {
        (Some(path), Some(token_sha256)) => Ok(Admin { path, token_sha256 }),
        _ => Err("`admin` needs both path and token_sha256".into()),
    }
}

fn unhex32(t: &str) -> Option<[u8; 32]> {
    let b = t.as_bytes();
    if b.len() != 64 {
        return None;
    }
    let mut out = [0u8; 32];
    for (i, pair) in b.chunks(2).enumerate() {
        let d = |c: u8| (c as char).to_digit(16);
        out[i] = (d(pair[0])? * 16 + d(pair[1])?) as u8;
    }
    Some(out)
}

fn positive(v: &Value, key: &str) -> Result<u64, String> {
    match v {
        Value::Number(n) => n.as_u64().filter(|&n| n > 0).ok_or_else(|| format!("`{key}` must be a positive integer")),
        _ => Err(format!("`{key}` must be a positive integer")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_scope_alone_is_the_default_policy() {
        let c = FilterConfig::from_bytes(br#"{"pin_scope":"session"}"#).unwrap();
        assert_eq!(c.max_body_bytes, DEFAULT_MAX_BODY_BYTES);
        assert_eq!(c.policy, Policy::default());
        assert_eq!(c.pin_scope, PinScope::Session);
    }

    #[test]
    fn persistent_pins_without_a_server_identity_fail_configuration() {
        // Two upstreams behind two unnamed filters would share one record.
        for empty in [&b""[..], b"{}", br#"{"pin_scope":"persistent"}"#] {
            let e = FilterConfig::from_bytes(empty).unwrap_err();
            assert!(e.contains("need `server`"), "{e}");
        }
    }

    #[test]
    fn persistent_scope_quarantines_unless_the_policy_sets_a_mode() {
        let c = FilterConfig::from_bytes(br#"{"server":"docs"}"#).unwrap();
        assert_eq!(c.pin_scope, PinScope::Persistent);
        assert_eq!(c.policy.core.pinning.mode, mcp_guard::policy::PinningMode::Quarantine);
        let c = FilterConfig::from_bytes(br#"{"server":"docs","policy":{"core":{"tool_definition_pinning":{"mode":"warn"}}}}"#).unwrap();
        assert_eq!(c.policy.core.pinning.mode, mcp_guard::policy::PinningMode::Warn);
        let c = FilterConfig::from_bytes(br#"{"pin_scope":"session"}"#).unwrap();
        assert_eq!(c.policy.core.pinning.mode, Policy::default().core.pinning.mode);
    }

    #[test]
    fn principal_header_and_admin_are_read_and_need_persistent_scope() {
        let tok = "ab".repeat(32);
        let c = FilterConfig::from_bytes(
            format!(r#"{{"server":"docs","principal_header":"X-User","admin":{{"path":"/mcp-guard/pins","token_sha256":"{tok}"}}}}"#).as_bytes(),
        )
        .unwrap();
        assert_eq!(c.principal_header.as_deref(), Some("x-user"));
        let a = c.admin.unwrap();
        assert_eq!((a.path.as_str(), a.token_sha256), ("/mcp-guard/pins", [0xab; 32]));
        for bad in [
            format!(r#"{{"pin_scope":"session","principal_header":"x-user"}}"#),
            format!(r#"{{"pin_scope":"session","server":"d","admin":{{"path":"/p","token_sha256":"{tok}"}}}}"#),
            r#"{"server":"d","principal_header":"x user"}"#.to_string(),
            r#"{"server":"d","principal_header":":authority"}"#.to_string(),
            r#"{"server":"d","admin":{"path":"/p","token_sha256":"abc"}}"#.to_string(),
            format!(r#"{{"server":"d","admin":{{"path":"/p/","token_sha256":"{tok}"}}}}"#),
            format!(r#"{{"server":"d","admin":{{"token_sha256":"{tok}"}}}}"#),
            format!(r#"{{"server":"d","admin":{{"path":"/p","token":"x","token_sha256":"{tok}"}}}}"#),
            r#"{"server":"d","pin_scope":"run"}"#.to_string(),
        ] {
            assert!(FilterConfig::from_bytes(bad.as_bytes()).is_err(), "{bad}");
        }
    }

    #[test]
    fn full_configuration() {
        let c = FilterConfig::from_bytes(
            br#"{"policy":{"core":{"tool_poisoning":{"mode":"block"}}},"server":"docs","max_body_bytes":512,"tombstone_ttl_seconds":2}"#,
        )
        .unwrap();
        assert_eq!(c.opts.server.as_deref(), Some("docs"));
        assert_eq!(c.max_body_bytes, 512);
        assert_eq!(c.tombstone_ttl, Duration::from_secs(2));
        assert!(c.hold_request_headers, "held by default");
        let c = FilterConfig::from_bytes(br#"{"hold_request_headers":false,"pin_scope":"session"}"#).unwrap();
        assert!(!c.hold_request_headers);
        assert!(FilterConfig::from_bytes(br#"{"hold_request_headers":"yes","pin_scope":"session"}"#).is_err());
    }

    #[test]
    fn typo_in_a_setting_fails_configuration() {
        let e = FilterConfig::from_bytes(br#"{"max_body_byte":1}"#).unwrap_err();
        assert!(e.contains("unknown key"), "{e}");
    }

    #[test]
    fn bad_policy_fails_configuration_with_the_engine_reason() {
        let e = FilterConfig::from_bytes(br#"{"policy":{"preset":"lax"},"server":"docs"}"#).unwrap_err();
        assert!(e.starts_with("policy: ") && e.contains("lax"), "{e}");
    }

    #[test]
    fn duplicate_keys_fail_configuration() {
        assert!(FilterConfig::from_bytes(br#"{"max_body_bytes":1,"max_body_bytes":2}"#).is_err());
    }

    #[test]
    fn zero_cap_is_refused() {
        let e = FilterConfig::from_bytes(br#"{"max_body_bytes":0,"server":"docs"}"#).unwrap_err();
        assert!(e.contains("positive"), "{e}");
    }
}
