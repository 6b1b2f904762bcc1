//! What an HTTP transport puts on the wire for a message the mediator sends
//! upstream (MCP Streamable HTTP). Pure: a message in, header names and
//! values out; the host (the CLI's `proxy --url`, the Envoy filter) does the
//! I/O. Kept next to [`super::protocol`] because the headers follow the
//! message's protocol version:
//! - every POST: `Content-Type: application/json` and
//!   `Accept: application/json, text/event-stream` ([`ACCEPT`]);
//! - `MCP-Protocol-Version`: the request's `_meta` version (2026-07-28),
//!   else the version the `initialize` handshake settled (2025-11-25; the
//!   host passes it in, none before the handshake);
//! - 2026-07-28 only: `Mcp-Method` = the message's `method`, and `Mcp-Name`
//!   = the name a `tools/call` or `prompts/get` calls (the `uri` of a
//!   `resources/read`): the routing headers a server checks against the
//!   body (a mismatch is refused, so they are always copied from it);
//!   values that would not survive an HTTP field round-trip are sent
//!   base64-wrapped as `=?base64?…?=` ([`header_value`]).
//!
//! - 2026-07-28 `tools/call` of a tool whose input schema marks properties
//!   with `x-mcp-header: TOKEN`: `Mcp-Param-TOKEN` = that argument
//!   ([`x_mcp_headers`] reads the annotations from the server's own listing,
//!   [`param_headers`] renders the arguments the gate let through). A server
//!   refuses such a call without them.
//!
//! Not here: `Mcp-Session-Id` (transport state: the host keeps the one the
//! `initialize` answer carried).

use super::{headers, protocol};
use headers::encode_value as header_value;
use crate::json::Value;

/// The `Accept` header of every POST: a server answers with one JSON body or
/// an SSE stream, its choice.
pub const ACCEPT: &str = "application/json, text/event-stream";

/// The protocol version a message is sent under: its `_meta` version, else
/// `negotiated` (the handshake's).
pub fn version<'a>(msg: &'a Value, negotiated: Option<&'a str>) -> Option<&'a str> {
    protocol::meta_version(msg).or(negotiated)
}

/// The MCP headers (name, value) of the POST that carries `msg`, beside
/// the content-type, accept and session headers. `negotiated`: the version
/// of the `initialize` handshake, if there was one.
pub fn request_headers(msg: &Value, negotiated: Option<&str>) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let v = version(msg, negotiated);
    if let Some(v) = v {
        out.push(("MCP-Protocol-Version", header_value(v)));
    }
    // The routing headers came with the per-request version; a 2025-11-25
    // server never reads them, so they are not sent to one.
    // Method and name as `headers::for_body` reads them: the Envoy filter
    // sets the same pair on a body it forwards.
    if let (true, (Some(m), name)) = (v.is_some_and(protocol::is_per_request), headers::for_body(msg)) {
        out.push(("Mcp-Method", header_value(&m)));
        out.extend(name.map(|n| ("Mcp-Name", n)));
    }
    out
}

/// (property path, token) of each `x-mcp-header` annotation of a schema.
pub type Annotations = Vec<(Vec<String>, String)>;

/// The `x-mcp-header` annotations of a tool's input schema: (property path,
/// token) for each, in schema order. `None` when any annotation is invalid
/// (off a pure `properties` chain from the root, not an RFC 9110 token, on a
/// property whose `type` is not string, integer or boolean, or a token used
/// twice, case-insensitively): a conforming client then sends no
/// `Mcp-Param-*` header for the tool, and the server validates none.
pub fn x_mcp_headers(input_schema: &Value) -> Option<Annotations> {
    // The limits stage's reader: a tool it would have hidden sends none.
    let mut out = crate::stages::limits::x_mcp_header_annotations(input_schema).ok()?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    Some(out)
}

/// The `Mcp-Param-*` headers of a `tools/call` with `arguments`, for the
/// annotations [`x_mcp_headers`] found: each argument present (not null) and
/// a string, number or boolean, rendered as text (`true`/`false`, a number
/// as written) and passed through [`header_value`].
pub fn param_headers(annotations: &[(Vec<String>, String)], arguments: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (path, token) in annotations {
        let mut v = Some(arguments);
        for k in path {
            v = v.and_then(Value::as_object).and_then(|o| o.get(k.as_str()));
        }
        let text = match v {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Number(n)) => n.as_str().to_string(),
            Some(Value::Bool(b)) => b.to_string(),
            _ => continue,
        };
        out.push((format!("Mcp-Param-{token}"), header_value(&text)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn msg(text: &str) -> Value {
        json::parse(text, Default::default()).unwrap().value
    }

    #[test]
    fn a_2026_call_carries_method_and_tool_name_headers_copied_from_the_body() {
        let m = msg(
            r#"{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"add",
            "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#,
        );
        assert_eq!(
            request_headers(&m, None),
            [
                ("MCP-Protocol-Version", "2026-07-28".to_string()),
                ("Mcp-Method", "tools/call".to_string()),
                ("Mcp-Name", "add".to_string())
            ]
        );
    }

    #[test]
    fn a_2025_session_gets_the_negotiated_version_and_no_routing_headers() {
        let m = msg(r#"{"jsonrpc":"2.0","id":"x-1","method":"tools/call","params":{"name":"add"}}"#);
        assert_eq!(request_headers(&m, Some("2025-11-25")), [("MCP-Protocol-Version", "2025-11-25".to_string())]);
        // Before the handshake (the initialize request itself): none.
        assert!(request_headers(&m, None).is_empty());
    }

    #[test]
    fn a_tool_name_with_a_line_break_cannot_inject_a_header_line() {
        assert_eq!(header_value("a\r\nX-Evil: 1"), format!("=?base64?{}?=", "YQ0KWC1FdmlsOiAx"));
        assert_eq!(header_value("café"), "=?base64?Y2Fmw6k=?=");
        assert_eq!(header_value(" edge"), "=?base64?IGVkZ2U=?=");
        assert_eq!(header_value("=?base64?eA==?="), "=?base64?PT9iYXNlNjQ/ZUE9PT89?=");
        assert_eq!(header_value("plain-name_1"), "plain-name_1");
    }

    #[test]
    fn x_mcp_header_annotations_become_param_headers_of_the_call() {
        let schema = msg(r#"{"type":"object","properties":{
            "region":{"type":"string","x-mcp-header":"Region"},
            "opts":{"type":"object","properties":{"dry":{"type":"boolean","x-mcp-header":"Dry-Run"}}},
            "n":{"type":"integer","x-mcp-header":"N"}}}"#);
        let ann = x_mcp_headers(&schema).expect("valid annotations");
        let args = msg(r#"{"region":"eu west","opts":{"dry":true},"n":null}"#);
        assert_eq!(
            param_headers(&ann, &args),
            [("Mcp-Param-Dry-Run".to_string(), "true".to_string()), ("Mcp-Param-Region".to_string(), "eu west".to_string())]
        );
    }

    #[test]
    fn an_invalid_x_mcp_header_annotation_disables_all_of_them() {
        for bad in [
            r#"{"properties":{"a":{"type":"number","x-mcp-header":"A"}}}"#,
            r#"{"properties":{"a":{"type":"string","x-mcp-header":"A B"}}}"#,
            r#"{"properties":{"a":{"type":"string","x-mcp-header":"A"},"b":{"type":"string","x-mcp-header":"a"}}}"#,
            r#"{"anyOf":[{"properties":{"a":{"type":"string","x-mcp-header":"A"}}}]}"#,
            r#"{"type":"string","x-mcp-header":"Root"}"#,
        ] {
            assert_eq!(x_mcp_headers(&msg(bad)), None, "{bad}");
        }
        assert_eq!(x_mcp_headers(&msg(r#"{"properties":{"a":{"type":"string"}}}"#)), Some(vec![]));
    }
}
