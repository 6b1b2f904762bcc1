//! The JSON-RPC answers a host gives on the engine's behalf (the stdio proxy
//! and the Envoy filter answer refused listings and calls themselves): one
//! set of error codes and one shape of `error.data`, so a client sees the
//! same error from every host. Pure: values in, compact JSON text out.

use crate::dialect::Violation;
use crate::json::{self, Number, Object, Value};

/// The error codes (documented in cli/README.md, section "Proxy").
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

/// How a response's id relates to a request's id.
///
/// The one rule every host applies (cli/README.md "Request ids", envoy/README.md "Response ids"): an answer is
/// taken for a request only when its id is the request's id *exactly* (same
/// JSON type, same text). An id that is not exactly the request's but that a
/// mainstream client could still take for it — numbers by value (`1`, `1.0`,
/// `1e0`), a number and a string that reads as that number (`1`, `"1"`,
/// `" 0x1 "`), the loosest equality of JavaScript's `==` — is `Loose`: the
/// host refuses it (the client gets an error for its request, never the
/// answer), since some client would route it to the guarded request the
/// engine never judged. Python's `int()` of a string id (what the `mcp` SDK
/// does to match answers) is one more such reading: Unicode white space, a
/// sign, `_` between digits, any Unicode decimal digit (`"1_0"` is 10,
/// `"١"` is 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdMatch {
    /// The same id: the answer belongs to the request.
    Exact,
    /// A different id some client would still match to the request: refuse.
    Loose,
    /// Unrelated ids.
    Distinct,
}

/// Compares a response's id with a request's id (see [`IdMatch`]).
pub fn id_match(request: &Value, response: &Value) -> IdMatch {
    let exact = match (request, response) {
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => a.as_str() == b.as_str(),
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        _ => false,
    };
    if exact {
        return IdMatch::Exact;
    }
    let (a, b) = (readings(request), readings(response));
    if a.iter().flatten().any(|x| b.iter().flatten().any(|y| x == y)) {
        IdMatch::Loose
    } else {
        IdMatch::Distinct
    }
}

/// The numbers mainstream clients could read an id as: JavaScript's
/// `ToNumber` and Python's `int()`.
fn readings(v: &Value) -> [Option<f64>; 2] {
    let py = match v {
        Value::String(s) => python_int(s),
        _ => None,
    };
    [loose_number(v), py]
}

/// Python's `int(s)` of a string, as a float (ids past 2^53 compare as
/// JavaScript would, loosely): surrounding white space, one sign, decimal
/// digits of any script with single `_` between them. `None` when `int()`
/// would raise. One pass; digit values need at most 40 steps back each.
fn python_int(s: &str) -> Option<f64> {
    let t = s.trim_matches(char::is_whitespace);
    let (sign, body) = match t.chars().next()? {
        '-' => (-1.0, &t[1..]),
        '+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    // The digits, as ASCII, then one correctly rounded conversion: summing
    // in floating point rounded ids past 2^53 away from the request's.
    let mut digits = String::with_capacity(body.len());
    let mut last_digit = false;
    for c in body.chars() {
        if c == '_' {
            if !last_digit {
                return None;
            }
            last_digit = false;
            continue;
        }
        digits.push(char::from(b'0' + decimal_value(c)? as u8));
        last_digit = true;
    }
    if digits.is_empty() || !last_digit {
        return None;
    }
    digits.parse::<f64>().ok().map(|n| sign * n)
}

/// The value of a Unicode decimal digit (category Nd). Nd characters come
/// in runs of whole 0-9 sequences, so the value is the distance from the
/// run's start, modulo 10.
fn decimal_value(c: char) -> Option<u32> {
    use unicode_general_category::{get_general_category, GeneralCategory::DecimalNumber};
    if c.is_ascii_digit() {
        return c.to_digit(10);
    }
    if get_general_category(c) != DecimalNumber {
        return None;
    }
    let cp = c as u32;
    let mut start = cp;
    // Runs are at most five sequences long (the mathematical digits).
    while start > 0 && cp - start < 50 {
        match char::from_u32(start - 1) {
            Some(p) if get_general_category(p) == DecimalNumber => start -= 1,
            _ => break,
        }
    }
    Some((cp - start) % 10)
}

/// The number JavaScript's `==` would compare an id as (`ToNumber`), or
/// `None` where no mainstream client reads one (objects, arrays, null, text
/// that is no number). NaN is `None`: it equals nothing.
fn loose_number(v: &Value) -> Option<f64> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::Bool(b) => f64::from(u8::from(*b)),
        Value::String(s) => js_to_number(s)?,
        // `ToPrimitive` of an array is its elements joined with commas:
        // `[]` is `""` (0), `[x]` reads as `x`; two or more never a number.
        Value::Array(a) if a.is_empty() => 0.0,
        Value::Array(a) if a.len() == 1 => return loose_number_in_array(&a[0], 8),
        _ => return None,
    };
    (!n.is_nan()).then_some(n)
}

/// An array element as `ToPrimitive` shows it (`[[1]]` is `"1"`, `[null]`
/// is `""`), nested at most `depth` deep.
fn loose_number_in_array(v: &Value, depth: u32) -> Option<f64> {
    match v {
        Value::Null => Some(0.0),
        Value::Array(a) if depth > 0 && a.len() <= 1 => a.first().map_or(Some(0.0), |x| loose_number_in_array(x, depth - 1)),
        Value::Number(_) | Value::String(_) | Value::Bool(_) => loose_number(v),
        _ => None,
    }
}

/// JavaScript's `ToNumber` of a string (ECMA-262 StringToNumber): trimmed of
/// white space and line terminators; empty is 0; `0x`/`0o`/`0b` literals;
/// `Infinity` with a sign; else a decimal literal (`.5`, `5.`, `1e3`).
/// Bounded: one pass over the string.
fn js_to_number(s: &str) -> Option<f64> {
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\u{feff}');
    if t.is_empty() {
        return Some(0.0);
    }
    let radix = |digits: &str, r: u32| -> Option<f64> {
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(r)) {
            return None;
        }
        Some(digits.chars().fold(0.0, |acc, c| acc * f64::from(r) + f64::from(c.to_digit(r).unwrap_or(0))))
    };
    let lower = t.get(..2).map(str::to_ascii_lowercase);
    match lower.as_deref() {
        Some("0x") => return radix(&t[2..], 16),
        Some("0o") => return radix(&t[2..], 8),
        Some("0b") => return radix(&t[2..], 2),
        _ => {}
    }
    let (sign, body) = match t.as_bytes()[0] {
        b'-' => (-1.0, &t[1..]),
        b'+' => (1.0, &t[1..]),
        _ => (1.0, t),
    };
    if body == "Infinity" {
        return Some(sign * f64::INFINITY);
    }
    let b = body.as_bytes();
    let mut i = 0;
    let digits = |i: &mut usize| {
        let start = *i;
        while *i < b.len() && b[*i].is_ascii_digit() {
            *i += 1;
        }
        *i - start
    };
    let int = digits(&mut i);
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        frac = digits(&mut i);
    }
    if int + frac == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            i += 1;
        }
        if digits(&mut i) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    body.parse::<f64>().ok().map(|n| sign * n)
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

    fn id(text: &str) -> Value {
        json::parse(text, json::ParseOptions::default()).unwrap().value
    }

    #[test]
    fn response_ids_match_exactly_or_loosely_or_not_at_all() {
        use IdMatch::*;
        for (req, resp, want) in [
            ("1", "1", Exact),
            (r#""1""#, r#""1""#, Exact),
            (r#""abc""#, r#""abc""#, Exact),
            ("1", r#""1""#, Loose),
            ("1", "1.0", Loose),
            ("1", "1e0", Loose),
            ("1", "10e-1", Loose),
            ("1", r#"" 1 ""#, Loose),
            ("1", r#""0x1""#, Loose),
            ("1", r#""+1""#, Loose),
            ("1", r#""1.""#, Loose),
            ("1", "true", Loose),
            ("0", r#""""#, Loose),
            ("0", "false", Loose),
            ("0", "-0", Loose),
            (r#""1""#, "1", Loose),
            (r#""1.0""#, r#""1""#, Loose),
            ("9007199254740993", "9007199254740992", Loose),
            ("1", "2", Distinct),
            ("1", r#""one""#, Distinct),
            ("1", "null", Distinct),
            (r#""a""#, r#""A""#, Distinct),
            (r#""NaN""#, r#""NaN""#, Exact),
            (r#""x""#, r#""NaN""#, Distinct),
            ("1", r#""1x""#, Distinct),
            ("1", r#""1e""#, Distinct),
            // Python's int(): underscores, other scripts' digits, signs.
            ("10", r#""1_0""#, Loose),
            ("1", r#""\u0661""#, Loose),
            ("3", r#""\uff13""#, Loose),
            ("3", r#""\ud835\udfd1""#, Loose),
            ("7", r#""\ud835\udfd5""#, Loose),
            ("1", r#""\u00a01\u2003""#, Loose),
            ("10", r#""1__0""#, Distinct),
            ("10", r#""_10""#, Distinct),
            ("10", r#""10_""#, Distinct),
            (r#""1_0""#, "10", Loose),
            // JavaScript's ToPrimitive of arrays; Python's int() past 2^53.
            ("1", "[1]", Loose),
            ("1", r#"["0x1"]"#, Loose),
            ("0", "[]", Loose),
            ("1", "[[1]]", Loose),
            ("1", "[1,2]", Distinct),
            ("12345678901234567891", r#""1234_5678_9012_3456_7891""#, Loose),
        ] {
            assert_eq!(id_match(&id(req), &id(resp)), want, "{req} vs {resp}");
        }
    }

    proptest::proptest! {
        /// Every spelling a mainstream client reads as the same number is
        /// refused, never taken as unrelated: generated over ids and over
        /// the ways to spell them.
        #[test]
        fn every_spelling_of_a_numeric_id_is_exact_or_loose(n in 0u64..1_000_000_000, form in 0usize..12, pad in 0usize..3) {
            let digits = n.to_string();
            let ws = ["", " ", r"\u00a0\t"][pad];
            let arabic: String = digits.chars().map(|c| char::from_u32(0x0660 + c.to_digit(10).unwrap()).unwrap()).collect();
            let fullwidth: String = digits.chars().map(|c| char::from_u32(0xFF10 + c.to_digit(10).unwrap()).unwrap()).collect();
            let underscored: String = digits.chars().enumerate().flat_map(|(i, c)| if i > 0 { vec!['_', c] } else { vec![c] }).collect();
            let text = match form {
                0 => digits.clone(),
                1 => format!("{digits}.0"),
                2 => format!("{digits}e0"),
                3 => format!("{digits}0e-1"),
                4 => format!("\"{ws}{digits}{ws}\""),
                5 => format!("\"0x{n:x}\""),
                6 => format!("\"+{digits}\""),
                7 => format!("\"{arabic}\""),
                8 => format!("\"{fullwidth}\""),
                9 => format!("\"{underscored}\""),
                10 => format!("\"{digits}.\""),
                _ => format!("\"{digits}e0\""),
            };
            let req = Value::Number(Number::from_u64(n));
            let resp = id(&text);
            proptest::prop_assert_ne!(id_match(&req, &resp), IdMatch::Distinct, "{} vs {}", n, text);
            proptest::prop_assert_ne!(id_match(&resp, &req), IdMatch::Distinct, "{} vs {}", text, n);
        }
    }

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
