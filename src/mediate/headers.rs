//! The Streamable HTTP request metadata headers of protocol 2026-07-28
//! (`docs/specification/2026-07-28/basic/transports/streamable-http.mdx`,
//! "Request Metadata"): `MCP-Protocol-Version`, `Mcp-Method` and `Mcp-Name`
//! mirror body fields so intermediaries can route without reading the body.
//! Pure: an HTTP transport (the Envoy filter, the CLI's HTTP proxy) hands in
//! every value it received for each header and the parsed body; this module
//! says whether they agree ([`check`]) and what the headers must be for the
//! body that goes upstream ([`for_body`]) after the call gate mapped a name.
//!
//! Why a guard checks them: a component that routes or rate-limits on the
//! header while the server executes the body is the split the spec's
//! "Server Validation" closes. A gateway that gates `tools/call` by the body
//! must never forward a request whose `Mcp-Name` says something else (a
//! load balancer or audit log would see an allowed tool while the server
//! runs another), nor one carrying a header twice (which copy a later hop
//! reads is up to that hop).
//!
//! The rules, in order (the first failure wins; each is one [`Mismatch`]):
//! 1. Each of the three headers appears at most once ([`Mismatch::Repeated`]).
//! 2. A value holds only visible ASCII, space and tab
//!    ([`Mismatch::Malformed`]); an `Mcp-Name` in the Base64 sentinel form
//!    (`=?base64?…?=`) must decode, canonically, to UTF-8.
//! 3. `MCP-Protocol-Version` equals the body's `_meta`
//!    `io.modelcontextprotocol/protocolVersion` when the body has one (a
//!    2025-11-25 request carries its session's version only in the header).
//! 4. `Mcp-Method` equals the body's `method`; `Mcp-Name` equals
//!    `params.name` (`tools/call`, `prompts/get`) or `params.uri`
//!    (`resources/read`), after decoding. `Mcp-Name` on any other message,
//!    or either header on a message without a method, is a mismatch: there is
//!    no body value it could mirror.
//! 5. A 2026-07-28 request (its `_meta` names a version that is no
//!    2025 one) must carry `Mcp-Method`, and `Mcp-Name` for the three named
//!    methods ([`Mismatch::Missing`]), as the spec requires of every
//!    compliant request; notifications and 2025-11-25 requests need none
//!    (the spec defines no headers for them, and 2025 clients send none).
//!
//! Header names are case-insensitive (the transport lowercases them);
//! values compare exactly. A refusal is HTTP 400 with JSON-RPC error
//! [`HEADER_MISMATCH`] (-32020), as the spec's "Server Validation" says.

use super::protocol::meta_version;
use super::params;
use crate::json::Value;
use crate::jsonrpc::{method, request_id};
use std::fmt;

/// `MCP-Protocol-Version`, lowercase.
pub const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// `Mcp-Method`, lowercase.
pub const METHOD: &str = "mcp-method";
/// `Mcp-Name`, lowercase.
pub const NAME: &str = "mcp-name";

/// JSON-RPC error code of a header/body disagreement (`HeaderMismatch`).
pub const HEADER_MISMATCH: i64 = -32020;

/// The body field `Mcp-Name` mirrors for a method, if any.
pub fn name_field(method: &str) -> Option<&'static str> {
    match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" => Some("uri"),
        _ => None,
    }
}

/// Every value the transport received for each header, in order (a header
/// sent twice appears twice; an absent one is empty).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Headers<'a> {
    pub protocol_version: Vec<&'a str>,
    pub method: Vec<&'a str>,
    pub name: Vec<&'a str>,
}

impl<'a> Headers<'a> {
    /// Collects the three headers out of `(name, value)` pairs (names
    /// compared case-insensitively; other headers ignored).
    pub fn from_pairs<I: IntoIterator<Item = (&'a str, &'a str)>>(pairs: I) -> Headers<'a> {
        let mut h = Headers::default();
        for (k, v) in pairs {
            if k.eq_ignore_ascii_case(PROTOCOL_VERSION) {
                h.protocol_version.push(v);
            } else if k.eq_ignore_ascii_case(METHOD) {
                h.method.push(v);
            } else if k.eq_ignore_ascii_case(NAME) {
                h.name.push(v);
            }
        }
        h
    }

    /// None of the three was sent.
    pub fn is_empty(&self) -> bool {
        self.protocol_version.is_empty() && self.method.is_empty() && self.name.is_empty()
    }
}

/// Why the headers and the body disagree. `header` is the lowercase name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mismatch {
    /// The header was sent more than once.
    Repeated { header: &'static str },
    /// Its value has characters no header value may hold, or a Base64
    /// sentinel that does not decode canonically to UTF-8.
    Malformed { header: &'static str },
    /// A 2026-07-28 request lacks a header the spec requires.
    Missing { header: &'static str },
    /// The header says one thing, the body another (`body` is `None` when
    /// the body has no field the header could mirror).
    Differs { header: &'static str, header_value: String, body: Option<String> },
}

impl Mismatch {
    /// The `data.reason` id of the refusal.
    pub fn reason(&self) -> &'static str {
        match self {
            Mismatch::Repeated { .. } => "header-repeated",
            Mismatch::Malformed { .. } => "header-malformed",
            Mismatch::Missing { .. } => "header-missing",
            Mismatch::Differs { .. } => "header-mismatch",
        }
    }

    /// The header concerned (lowercase).
    pub fn header(&self) -> &'static str {
        match self {
            Mismatch::Repeated { header }
            | Mismatch::Malformed { header }
            | Mismatch::Missing { header }
            | Mismatch::Differs { header, .. } => header,
        }
    }
}

/// Texts for people, not API. Values are shown shortened: a hostile header
/// must not turn one log line into megabytes.
impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short = |v: &str| -> String {
            let mut s: String = v.chars().take(80).collect();
            if s.len() < v.len() {
                s.push('…');
            }
            s
        };
        match self {
            Mismatch::Repeated { header } => write!(f, "the {header} header is sent more than once"),
            Mismatch::Malformed { header } => write!(f, "the {header} header value is malformed"),
            Mismatch::Missing { header } => write!(f, "the {header} header is required and missing"),
            Mismatch::Differs { header, header_value, body: Some(b) } => write!(
                f,
                "the {header} header value {:?} does not match the body value {:?}",
                short(header_value),
                short(b)
            ),
            Mismatch::Differs { header, header_value, body: None } => write!(
                f,
                "the {header} header value {:?} mirrors nothing in the body",
                short(header_value)
            ),
        }
    }
}

/// A header value per RFC 9110: visible ASCII, space, tab.
fn valid_value(v: &str) -> bool {
    v.bytes().all(|b| b == b'\t' || (0x20..=0x7e).contains(&b))
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn b64_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16) | (u32::from(*c.get(1).unwrap_or(&0)) << 8) | u32::from(*c.get(2).unwrap_or(&0));
        for (i, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if i <= c.len() {
                out.push(B64[((n >> shift) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Strict Base64 (standard alphabet, padded): `None` unless `text` is the
/// canonical encoding of what it decodes to (as the Python SDK checks), so
/// two spellings of one name cannot exist.
fn b64_decode(text: &str) -> Option<Vec<u8>> {
    let t = text.as_bytes();
    if t.len() % 4 != 0 {
        return None;
    }
    let val = |b: u8| B64.iter().position(|&x| x == b).map(|p| p as u32);
    let mut out = Vec::with_capacity(t.len() / 4 * 3);
    for (i, q) in t.chunks(4).enumerate() {
        let last = i + 1 == t.len() / 4;
        let pad = q.iter().rev().take_while(|&&b| b == b'=').count();
        if pad > 2 || (pad > 0 && !last) {
            return None;
        }
        let mut n = 0u32;
        for &b in &q[..4 - pad] {
            n = (n << 6) | val(b)?;
        }
        n <<= 6 * pad as u32;
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..3 - pad]);
    }
    (b64_encode(&out) == text).then_some(out)
}

const SENTINEL_START: &str = "=?base64?";
const SENTINEL_END: &str = "?=";

/// The value a header carries for `value` (`Mcp-Name`, `Mcp-Param-*`):
/// as it is when it is plain visible ASCII without edge whitespace, else
/// (and when it looks like the sentinel itself) the Base64 sentinel of its
/// UTF-8 bytes.
pub fn encode_value(value: &str) -> String {
    let plain = value.bytes().all(|b| (0x20..=0x7e).contains(&b))
        && value.trim() == value
        && !(value.starts_with(SENTINEL_START) && value.ends_with(SENTINEL_END) && value.len() >= 11);
    if plain {
        value.to_string()
    } else {
        format!("{SENTINEL_START}{}{SENTINEL_END}", b64_encode(value.as_bytes()))
    }
}

/// The value a header value stands for: the sentinel decoded, anything else
/// as it is; `None` for a sentinel that does not decode (never equal to a
/// body value by accident).
pub fn decode_value(value: &str) -> Option<String> {
    match value.strip_prefix(SENTINEL_START).and_then(|r| r.strip_suffix(SENTINEL_END)) {
        Some(payload) if value.len() >= SENTINEL_START.len() + SENTINEL_END.len() => {
            String::from_utf8(b64_decode(payload)?).ok()
        }
        _ => Some(value.to_string()),
    }
}

/// The protocol of a body: a 2026-07-28 (or later) request carries its
/// version in `_meta`; 2025 versions never do there.
fn per_request_era(msg: &Value) -> bool {
    meta_version(msg).is_some_and(super::protocol::is_per_request)
}

/// The body value `Mcp-Name` mirrors (`None`: the message has none).
fn body_name(msg: &Value) -> Option<&Value> {
    let field = name_field(method(msg)?)?;
    params(msg)?.get(field)
}

fn one<'a>(values: &[&'a str], header: &'static str) -> Result<Option<&'a str>, Mismatch> {
    match values {
        [] => Ok(None),
        [v] if valid_value(v) => Ok(Some(v)),
        [_] => Err(Mismatch::Malformed { header }),
        _ => Err(Mismatch::Repeated { header }),
    }
}

/// Do these headers agree with this body (one JSON-RPC message; a batch
/// agrees only with no headers at all, as it has no one method)? See the
/// module docs for the rules.
pub fn check(h: &Headers<'_>, msg: &Value) -> Result<(), Mismatch> {
    let version = one(&h.protocol_version, PROTOCOL_VERSION)?;
    let method_h = one(&h.method, METHOD)?;
    let name_h = one(&h.name, NAME)?;
    let decoded_name = match name_h {
        Some(v) => Some(decode_value(v).ok_or(Mismatch::Malformed { header: NAME })?),
        None => None,
    };
    if let (Some(v), Some(body)) = (version, meta_version(msg)) {
        if v != body {
            let body = Some(body.to_string());
            return Err(Mismatch::Differs { header: PROTOCOL_VERSION, header_value: v.to_string(), body });
        }
    }
    let body_method = method(msg);
    if let Some(m) = method_h {
        if body_method != Some(m) {
            let body = body_method.map(str::to_string);
            return Err(Mismatch::Differs { header: METHOD, header_value: m.to_string(), body });
        }
    }
    let body_name = body_name(msg);
    if let (Some(raw), Some(n)) = (name_h, decoded_name) {
        // A non-string name or uri is refused by the call gate or the
        // server; here it mirrors nothing a header could say.
        let body = body_name.and_then(Value::as_str);
        if body != Some(n.as_str()) {
            return Err(Mismatch::Differs { header: NAME, header_value: raw.to_string(), body: body.map(str::to_string) });
        }
    }
    let request = body_method.is_some() && request_id(msg).is_some();
    if request && per_request_era(msg) {
        if method_h.is_none() {
            return Err(Mismatch::Missing { header: METHOD });
        }
        if body_name.is_some_and(|v| *v != Value::Null) && name_h.is_none() {
            return Err(Mismatch::Missing { header: NAME });
        }
    }
    Ok(())
}

/// The `Mcp-Method` and `Mcp-Name` values a body must travel with (`Mcp-Name`
/// encoded; `None` where the body has no such field or the name is no
/// string). A transport that forwards a request the mediator rewrote (the
/// call gate's upstream name) sets the headers the client sent to these, so
/// the server's own header check sees the name it will run.
pub fn for_body(msg: &Value) -> (Option<String>, Option<String>) {
    let m = method(msg).map(str::to_string);
    let n = body_name(msg).and_then(Value::as_str).map(encode_value);
    (m, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;

    fn v(t: &str) -> Value {
        json::parse(t, json::ParseOptions::default()).unwrap().value
    }

    fn h<'a>(pairs: &[(&'a str, &'a str)]) -> Headers<'a> {
        Headers::from_pairs(pairs.iter().copied())
    }

    const CALL: &str = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;

    #[test]
    fn agreeing_headers_pass() {
        let hs = h(&[("MCP-Protocol-Version", "2026-07-28"), ("Mcp-Method", "tools/call"), ("mcp-name", "echo")]);
        assert_eq!(check(&hs, &v(CALL)), Ok(()));
    }

    #[test]
    fn forged_name_header_is_refused() {
        let hs = h(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call"), ("mcp-name", "delete_all")]);
        let e = check(&hs, &v(CALL)).unwrap_err();
        assert_eq!(e.reason(), "header-mismatch");
        assert_eq!(e.header(), NAME);
    }

    #[test]
    fn forged_method_header_is_refused() {
        let hs = h(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/list"), ("mcp-name", "echo")]);
        assert_eq!(check(&hs, &v(CALL)).unwrap_err().header(), METHOD);
    }

    #[test]
    fn repeated_header_is_refused_even_when_both_copies_agree() {
        let hs = h(&[("mcp-method", "tools/call"), ("mcp-method", "tools/call"), ("mcp-name", "echo")]);
        assert_eq!(check(&hs, &v(CALL)).unwrap_err(), Mismatch::Repeated { header: METHOD });
        let hs = h(&[("mcp-method", "tools/call"), ("mcp-name", "echo"), ("Mcp-Name", "other")]);
        assert_eq!(check(&hs, &v(CALL)).unwrap_err(), Mismatch::Repeated { header: NAME });
    }

    #[test]
    fn version_header_must_match_the_body_envelope() {
        let hs = h(&[("mcp-protocol-version", "2025-11-25"), ("mcp-method", "tools/call"), ("mcp-name", "echo")]);
        assert_eq!(check(&hs, &v(CALL)).unwrap_err().header(), PROTOCOL_VERSION);
    }

    #[test]
    fn per_request_era_requires_method_and_name() {
        let hs = h(&[("mcp-protocol-version", "2026-07-28")]);
        assert_eq!(check(&hs, &v(CALL)).unwrap_err(), Mismatch::Missing { header: METHOD });
        let hs = h(&[("mcp-protocol-version", "2026-07-28"), ("mcp-method", "tools/call")]);
        assert_eq!(check(&hs, &v(CALL)).unwrap_err(), Mismatch::Missing { header: NAME });
    }

    #[test]
    fn session_era_request_without_headers_passes() {
        // The TypeScript SDK 1.32.2 (2025-11-25) sends none of them.
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo"}}"#;
        assert_eq!(check(&h(&[("mcp-protocol-version", "2025-11-25")]), &v(call)), Ok(()));
        // …but what it does send must still agree.
        let e = check(&h(&[("mcp-name", "other")]), &v(call)).unwrap_err();
        assert_eq!(e.header(), NAME);
    }

    #[test]
    fn name_header_on_a_method_without_a_name_is_refused() {
        let list = r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#;
        let e = check(&h(&[("mcp-method", "tools/list"), ("mcp-name", "echo")]), &v(list)).unwrap_err();
        assert_eq!(e, Mismatch::Differs { header: NAME, header_value: "echo".into(), body: None });
        let response = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
        assert_eq!(check(&h(&[("mcp-method", "tools/call")]), &v(response)).unwrap_err().header(), METHOD);
    }

    #[test]
    fn base64_sentinel_name_is_decoded_before_comparing() {
        let call = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"héllo"}}"#;
        let enc = encode_value("héllo");
        assert_eq!(enc, "=?base64?aMOpbGxv?=");
        assert_eq!(check(&h(&[("mcp-name", &enc)]), &v(call)), Ok(()));
        // Non-canonical (trailing bits set) and invalid Base64 never match.
        for bad in ["=?base64?YR==?=", "=?base64?/x+?=", "=?base64?a*Opb?=", "=?base64?aMOpbGx?="] {
            assert_eq!(check(&h(&[("mcp-name", bad)]), &v(call)).unwrap_err(), Mismatch::Malformed { header: NAME }, "{bad}");
        }
    }

    #[test]
    fn control_characters_in_a_header_value_are_malformed() {
        assert_eq!(check(&h(&[("mcp-method", "tools/call\r\nx: y")]), &v(CALL)).unwrap_err(), Mismatch::Malformed { header: METHOD });
    }

    #[test]
    fn encoding_round_trips_and_guards_the_sentinel_form() {
        for s in ["echo", "docs__echo", " padded ", "line1\nline2", "=?base64?literal?=", "世界", "", "a"] {
            assert_eq!(decode_value(&encode_value(s)).as_deref(), Some(s), "{s:?}");
        }
        assert_eq!(encode_value("=?base64?literal?="), "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
        assert_eq!(encode_value(" padded "), "=?base64?IHBhZGRlZCA=?=");
    }

    #[test]
    fn headers_for_a_mapped_body_name_the_upstream_tool() {
        let mapped = r#"{"jsonrpc":"2.0","id":"g-1","method":"tools/call","params":{"name":"echo"}}"#;
        assert_eq!(for_body(&v(mapped)), (Some("tools/call".into()), Some("echo".into())));
        let read = r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"file:///a b"}}"#;
        assert_eq!(for_body(&v(read)).1.as_deref(), Some("file:///a b"));
        assert_eq!(for_body(&v(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)), (Some("ping".into()), None));
    }
}
