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
//!   "hold_request_headers": true
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
}

impl Default for FilterConfig {
    fn default() -> Self {
        FilterConfig {
            policy: Policy::default(),
            opts: SanitizeOptions::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            tombstone_ttl: Duration::from_secs(DEFAULT_TOMBSTONE_TTL_SECONDS),
            hold_request_headers: true,
        }
    }
}

impl FilterConfig {
    /// Parses the plugin configuration; an empty one is the default.
    pub fn from_bytes(bytes: &[u8]) -> Result<FilterConfig, String> {
        let text = std::str::from_utf8(bytes).map_err(|e| format!("configuration is not UTF-8: {e}"))?;
        if text.trim().is_empty() {
            return Ok(FilterConfig::default());
        }
        let doc = json::parse(text, ParseOptions { max_depth: 64 })
            .map_err(|e| format!("configuration is not strict JSON: {e}"))?
            .value;
        let Value::Object(o) = doc else { return Err("configuration must be a JSON object".into()) };
        let mut c = FilterConfig::default();
        for (k, v) in o.iter() {
            match k.as_str() {
                "policy" => {
                    // The engine's own policy reader decides; it is handed the
                    // compact text of the member, so there is one policy parser.
                    c.policy = Policy::from_json(&json::write_compact(v)).map_err(|e| format!("policy: {e}"))?;
                }
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
                other => {
                    return Err(format!(
                        "unknown key {other:?} (policy, server, max_body_bytes, tombstone_ttl_seconds, hold_request_headers)"
                    ))
                }
            }
        }
        Ok(c)
    }
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
    fn empty_configuration_is_the_default_policy() {
        let c = FilterConfig::from_bytes(b"").unwrap();
        assert_eq!(c.max_body_bytes, DEFAULT_MAX_BODY_BYTES);
        assert_eq!(c.policy, Policy::default());
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
        let c = FilterConfig::from_bytes(br#"{"hold_request_headers":false}"#).unwrap();
        assert!(!c.hold_request_headers);
        assert!(FilterConfig::from_bytes(br#"{"hold_request_headers":"yes"}"#).is_err());
    }

    #[test]
    fn typo_in_a_setting_fails_configuration() {
        let e = FilterConfig::from_bytes(br#"{"max_body_byte":1}"#).unwrap_err();
        assert!(e.contains("unknown key"), "{e}");
    }

    #[test]
    fn bad_policy_fails_configuration_with_the_engine_reason() {
        let e = FilterConfig::from_bytes(br#"{"policy":{"preset":"lax"}}"#).unwrap_err();
        assert!(e.starts_with("policy: ") && e.contains("lax"), "{e}");
    }

    #[test]
    fn duplicate_keys_fail_configuration() {
        assert!(FilterConfig::from_bytes(br#"{"max_body_bytes":1,"max_body_bytes":2}"#).is_err());
    }

    #[test]
    fn zero_cap_is_refused() {
        assert!(FilterConfig::from_bytes(br#"{"max_body_bytes":0}"#).is_err());
    }
}
