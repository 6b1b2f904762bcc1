//! Deterministic JSON output: keys in document order, numbers as their
//! lexeme, non-ASCII as raw UTF-8, and only `"`, `\` and C0 controls escaped.
//! The same value always gives the same bytes on every host.

use super::Value;

/// Compact form (no whitespace), as sent to clients.
pub fn write_compact(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(&mut out, v, None, 0);
    out
}

/// [`write_compact`] of a tools/list result (an object), plus the byte span
/// of every element of its top-level `tools` array in the output, so a
/// caller can hash each tool's served bytes without writing them twice.
pub fn write_compact_tool_spans(v: &Value) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(4096);
    let mut spans = Vec::new();
    let Value::Object(o) = v else {
        write_value(&mut out, v, None, 0);
        return (out, spans);
    };
    if o.is_empty() {
        out.push_str("{}");
        return (out, spans);
    }
    out.push('{');
    for (i, (k, x)) in o.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(&mut out, k);
        out.push(':');
        match x {
            Value::Array(a) if k == "tools" && !a.is_empty() => {
                out.push('[');
                for (j, t) in a.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    let start = out.len();
                    write_value(&mut out, t, None, 1);
                    spans.push((start, out.len()));
                }
                out.push(']');
            }
            _ => write_value(&mut out, x, None, 1),
        }
    }
    out.push('}');
    (out, spans)
}

/// Two-space indented form, for people.
pub fn write_pretty(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(&mut out, v, Some(2), 0);
    out
}

fn newline(out: &mut String, indent: Option<usize>, level: usize) {
    if let Some(n) = indent {
        out.push('\n');
        for _ in 0..n * level {
            out.push(' ');
        }
    }
}

fn write_value(out: &mut String, v: &Value, indent: Option<usize>, level: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => write_str(out, s),
        Value::Array(a) => {
            if a.is_empty() {
                out.push_str("[]");
                return;
            }
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, level + 1);
                write_value(out, x, indent, level + 1);
            }
            newline(out, indent, level);
            out.push(']');
        }
        Value::Object(o) => {
            if o.is_empty() {
                out.push_str("{}");
                return;
            }
            out.push('{');
            for (i, (k, x)) in o.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, level + 1);
                write_str(out, k);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write_value(out, x, indent, level + 1);
            }
            newline(out, indent, level);
            out.push('}');
        }
    }
}

/// Writes a JSON string literal.
pub(crate) fn write_str(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    loop {
        i += super::plain_run(&bytes[i..]);
        let Some(&b) = bytes.get(i) else { break };
        let esc: Option<&str> = match b {
            b'"' => Some("\\\""),
            b'\\' => Some("\\\\"),
            b'\n' => Some("\\n"),
            b'\t' => Some("\\t"),
            b'\r' => Some("\\r"),
            0x08 => Some("\\b"),
            0x0c => Some("\\f"),
            // The other bytes `plain_run` stops at: C0 controls.
            _ => None,
        };
        out.push_str(&s[start..i]);
        match esc {
            Some(e) => out.push_str(e),
            None => {
                out.push_str("\\u00");
                out.push(char::from_digit((b >> 4) as u32, 16).unwrap_or('0'));
                out.push(char::from_digit((b & 0xf) as u32, 16).unwrap_or('0'));
            }
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

#[cfg(test)]
mod tests {
    #[test]
    fn tool_spans_cover_each_tool_of_the_compact_form() {
        let v = crate::json::parse(r#"{"tools":[{"name":"a"},{"name":"b","x":[1,{}]}],"nextCursor":"c","_meta":{}}"#, Default::default())
            .unwrap()
            .value;
        let (text, spans) = super::write_compact_tool_spans(&v);
        assert_eq!(text, super::write_compact(&v));
        let tools: Vec<&str> = spans.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(tools, [r#"{"name":"a"}"#, r#"{"name":"b","x":[1,{}]}"#]);
        let empty = crate::json::parse(r#"{"tools":[]}"#, Default::default()).unwrap().value;
        assert_eq!(super::write_compact_tool_spans(&empty).0, r#"{"tools":[]}"#);
    }

    use super::super::{parse, ParseOptions};
    use super::*;

    #[test]
    fn round_trip_is_byte_stable() {
        let src = r#"{"b":1,"a":[true,false,null,"x\"\\\n\u0001é😀"],"n":-0.5e10,"o":{}}"#;
        let v = parse(src, ParseOptions::default()).unwrap().value;
        let out = write_compact(&v);
        assert_eq!(out, r#"{"b":1,"a":[true,false,null,"x\"\\\n\u0001é😀"],"n":-0.5e10,"o":{}}"#);
        let v2 = parse(&out, ParseOptions::default()).unwrap().value;
        assert_eq!(v, v2);
    }

    #[test]
    fn pretty_output_parses_back() {
        let src = r#"{"a":[1,{"b":[]}],"c":"d"}"#;
        let v = parse(src, ParseOptions::default()).unwrap().value;
        let pretty = write_pretty(&v);
        assert!(pretty.contains("\n  \"a\": [\n"));
        assert_eq!(parse(&pretty, ParseOptions::default()).unwrap().value, v);
    }
}
