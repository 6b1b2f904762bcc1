//! The JSON-RPC answers a host gives on the engine's behalf (the stdio proxy
//! and the Envoy filter answer refused listings and calls themselves): one
//! set of error codes and one shape of `error.data`, so a client sees the
//! same error from every host. Pure: values in, compact JSON text out.

use crate::dialect::Violation;
use crate::json::{self, Number, Object, Value};

/// The error codes (documented in the README, section "Proxy").
pub mod code {
    /// The request is not strict JSON.
    pub const PARSE_ERROR: i64 = -32700;
    /// A batch holding `tools/list` or `tools/call`; a request over a cap.
    pub const INVALID_REQUEST: i64 = -32600;
    /// A `tools/call` refused by the call gate; a `tools/list` cursor the
    /// host never handed out.
    pub const INVALID_PARAMS: i64 = -32602;
    /// A `tools/list` refused by pinning (drift), or any request of a
    /// session closed by drift.
    pub const REFUSED: i64 = -32001;
    /// The server's `tools/list` result is unusable (the engine refused it).
    pub const UNUSABLE_CATALOG: i64 = -32002;
}

/// Reads one message (a line, a body, an SSE event's data) with the engine's
/// strict parser. `Err` holds the engine's error id for the failure
/// (`too-deep`, `duplicate-key`, else `invalid-json`) and a reason: a
/// message the engine cannot read is never passed on, since another parser
/// might read something the engine never saw.
pub fn parse_message(bytes: &[u8], max_depth: usize) -> Result<Value, (&'static str, String)> {
    let text = std::str::from_utf8(bytes).map_err(|e| ("invalid-json", format!("not UTF-8 at byte {}", e.valid_up_to())))?;
    json::parse(text, json::ParseOptions { max_depth }).map(|p| p.value).map_err(|e| {
        let kind = match e.kind {
            json::ParseErrorKind::TooDeep { .. } => "too-deep",
            json::ParseErrorKind::DuplicateKey { .. } => "duplicate-key",
            _ => "invalid-json",
        };
        (kind, e.to_string())
    })
}

/// The `method` of a message (`None` for a response).
pub fn method(m: &Value) -> Option<&str> {
    m.as_object().and_then(|o| o.get("method")).and_then(Value::as_str)
}

/// The id of a request (`None` for a notification). JSON-RPC allows a null
/// id; MCP does not, and hosts treat it as a request anyway so that a
/// `tools/call` with `"id": null` is still gated.
pub fn request_id(m: &Value) -> Option<&Value> {
    m.as_object().and_then(|o| o.get("id"))
}

/// A request (not a notification) for `name`.
pub fn is_request(m: &Value, name: &str) -> bool {
    method(m) == Some(name) && request_id(m).is_some()
}

/// A string value.
pub fn s(v: &str) -> Value {
    Value::str(v)
}

/// An object from `(key, value)` pairs, in that order.
pub fn obj<const N: usize>(entries: [(&str, Value); N]) -> Value {
    let mut o = Object::with_capacity(N);
    for (k, v) in entries {
        o.insert(k, v);
    }
    Value::Object(o)
}

/// `error.data` naming the reason id: `{"reason": id}`.
pub fn reason(id: &str) -> Value {
    obj([("reason", s(id))])
}

/// `error.data` of a refused call: the reason id, the tool, and for
/// `invalid-arguments` every violation (pointer into the arguments, reason).
pub fn call_data(reason: &str, tool: &str, violations: &[Violation]) -> Value {
    let v = violations.iter().map(|v| obj([("pointer", s(&v.pointer)), ("reason", s(&v.reason))])).collect();
    obj([("reason", s(reason)), ("tool", s(tool)), ("violations", Value::Array(v))])
}

/// A JSON-RPC error response, compact.
pub fn error_response(id: &Value, code: i64, message: &str, data: Option<Value>) -> String {
    let mut err = Object::with_capacity(3);
    err.insert("code", Value::Number(Number::from_i64(code)));
    err.insert("message", s(message));
    if let Some(d) = data {
        err.insert("data", d);
    }
    json::write_compact(&obj([("jsonrpc", s("2.0")), ("id", id.clone()), ("error", Value::Object(err))]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_responses_have_one_shape() {
        let r = error_response(&Value::Number(Number::from_u64(7)), code::REFUSED, "no", Some(reason("drift")));
        assert_eq!(r, r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32001,"message":"no","data":{"reason":"drift"}}}"#);
        let v = [Violation { pointer: "/a".into(), reason: "type".into() }];
        assert_eq!(
            json::write_compact(&call_data("invalid-arguments", "t", &v)),
            r#"{"reason":"invalid-arguments","tool":"t","violations":[{"pointer":"/a","reason":"type"}]}"#
        );
    }
}
