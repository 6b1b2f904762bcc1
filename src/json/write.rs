//! Deterministic JSON output: keys in document order, numbers as their
//! lexeme, and only `"`, `\` and C0 controls escaped; the same value always
//! gives the same bytes on every host. Two spellings of other characters:
//!
//! - **Served** (`write_served*`: the catalog text a client is sent): ASCII
//!   only, every other character as a `\uXXXX` escape (a surrogate pair
//!   above U+FFFF). Those texts cross every host's string boundary, and
//!   ASCII is what each runtime holds most cheaply: V8 keeps a string with
//!   any character above U+00FF at two bytes per character (CPython at two
//!   or four), so a 1.7 MB catalog with a few hundred such characters (an em
//!   dash, an emoji) became a 3.4 MB string in Node, built on V8's slow
//!   path: ~2 ms of a call (BENCHMARKS, "npm package"). ASCII also crosses a
//!   pipe or log with a wrong encoding unchanged. The value is the same;
//!   only non-Latin text grows on the wire (3 → 6 bytes for a CJK character).
//! - **Raw** UTF-8 (`write_compact`, `write_pretty`): texts meant to be read
//!   (finding details, reports, the JSON inside a tool result the model
//!   reads), and digests' inputs.

use super::{Key, Value};

/// Compact form (no whitespace), non-ASCII as raw UTF-8.
pub fn write_compact(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(&mut out, v, None, 0, false);
    out
}

/// Compact form, ASCII only (see the module docs): a catalog as served.
pub fn write_served(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(&mut out, v, None, 0, true);
    out
}

/// [`write_served`] into a buffer of `capacity` bytes first: a caller that
/// knows about how long the text will be (the input it was parsed from)
/// saves the dozen reallocations, and their copies, of growing from 256
/// bytes to a catalog's megabytes.
///
/// It takes the value: each node is dropped as soon as it is written, while
/// it is still in cache. Writing a catalog's tree and then dropping it
/// walked its megabytes of nodes twice, the second time from memory again
/// (`drop_in_place<Value>` had three times the share of the time that it had
/// of the instructions).
pub(crate) fn write_served_sized(v: Value, capacity: usize) -> String {
    let mut out = String::with_capacity(capacity);
    write_served_owned(&mut out, v);
    out
}

/// `write_value(out, &v, None, 0, true)`, dropping `v` node by node.
fn write_served_owned(out: &mut String, v: Value) {
    match v {
        Value::Array(a) if !a.is_empty() => {
            out.push('[');
            for (i, x) in a.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_served_owned(out, x);
            }
            out.push(']');
        }
        Value::Object(o) => write_served_object(out, o, |_, _| {}),
        Value::String(s) => write_str(out, &s, true),
        Value::Number(n) => out.push_str(n.as_str()),
        v => write_value(out, &v, None, 0, true),
    }
}

/// A tool's served text written ahead of its catalog (by
/// [`write_served_tool`]): `at` in the buffer, and where in it the value of
/// its `name` member is.
pub(crate) struct WrittenTool {
    pub at: (usize, usize),
    pub name: Option<(usize, usize)>,
}

/// What a served catalog starts with ([`write_served_catalog`]).
pub(crate) const SERVED_CATALOG_START: &str = "{\"tools\":[";

/// Appends the served text of `tool` to `out` (as [`write_served_sized`]
/// would write it inside its catalog, dropping it node by node) and notes
/// where its `name` value is, so the catalog can be put together without
/// the tree (a rename replaces that value).
pub(crate) fn write_served_tool(out: &mut String, tool: super::Object) -> WrittenTool {
    let start = out.len();
    let mut name = None;
    write_served_object(out, tool, |k, at| {
        if k.as_str() == "name" {
            name = Some(at);
        }
    });
    WrittenTool { at: (start, out.len()), name }
}

/// An object of [`write_served_owned`], member by member; `member(key, at)`
/// gets the span in `out` of each member's value once it is written.
#[inline]
fn write_served_object(out: &mut String, o: super::Object, mut member: impl FnMut(&Key, (usize, usize))) {
    if o.is_empty() {
        out.push_str("{}");
        return;
    }
    out.push('{');
    for (i, (k, x)) in o.into_entries().into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_key(out, &k, true);
        out.push(':');
        let at = out.len();
        write_served_owned(out, x);
        member(&k, (at, out.len()));
    }
    out.push('}');
}

/// The served text of the catalog `{"tools": [...], rest...}` (the bytes
/// [`write_served_sized`] writes for it) from its tools written ahead into
/// `buf`, in order, each with its new name if it is renamed. `buf` starts
/// with [`SERVED_CATALOG_START`] and, when its tools are exactly the pieces
/// in order, one comma apart, and none is renamed (the common case), it
/// becomes the catalog; otherwise the pieces are copied into a new buffer.
pub(crate) fn write_served_catalog(mut buf: String, pieces: &[(WrittenTool, Option<String>)], rest: super::Object) -> String {
    let mut next = SERVED_CATALOG_START.len();
    let in_place = buf.starts_with(SERVED_CATALOG_START)
        && pieces.iter().enumerate().all(|(k, (w, rename))| {
            let at = if k > 0 { next + 1 } else { next };
            let ok = rename.is_none() && w.at.0 == at && (k == 0 || buf.as_bytes().get(next) == Some(&b','));
            next = w.at.1;
            ok
        })
        && next == buf.len();
    let mut out = if in_place {
        buf
    } else {
        let mut out = String::with_capacity(buf.len() + 64);
        out.push_str(SERVED_CATALOG_START);
        for (k, (w, rename)) in pieces.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let text = buf.get(w.at.0..w.at.1).unwrap_or_default();
            match (rename, w.name) {
                (None, _) => out.push_str(text),
                (Some(v), Some((a, z))) => {
                    out.push_str(buf.get(w.at.0..a).unwrap_or_default());
                    write_str(&mut out, v, true);
                    out.push_str(buf.get(z..w.at.1).unwrap_or_default());
                }
                // No `name` member: `Object::insert` appends it.
                (Some(v), None) => {
                    let open = text.strip_suffix('}').unwrap_or(text);
                    out.push_str(open);
                    if open.len() > 1 {
                        out.push(',');
                    }
                    out.push_str("\"name\":");
                    write_str(&mut out, v, true);
                    out.push('}');
                }
            }
        }
        buf.clear();
        out
    };
    out.push(']');
    for (k, x) in rest.into_entries() {
        out.push(',');
        write_key(&mut out, &k, true);
        out.push(':');
        write_served_owned(&mut out, x);
    }
    out.push('}');
    out
}

/// An object's key, quoted (then the caller's `:`).
#[inline]
fn write_key(out: &mut String, k: &Key, ascii: bool) {
    match k.known_plain() {
        // Most keys of a catalog (`type`, `description`...): nothing to
        // escape, no scan.
        Some(name) => {
            out.push('"');
            out.push_str(name);
            out.push('"');
        }
        None => write_str(out, k, ascii),
    }
}

/// [`write_served`] of a tools/list result (an object), plus the byte span
/// of every element of its top-level `tools` array in the output, so a
/// caller can hash each tool's served bytes without writing them twice.
pub fn write_served_tool_spans(v: &Value) -> (String, Vec<(usize, usize)>) {
    let mut out = String::with_capacity(4096);
    let mut spans = Vec::new();
    let Value::Object(o) = v else {
        write_value(&mut out, v, None, 0, true);
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
        write_str(&mut out, k, true);
        out.push(':');
        match x {
            Value::Array(a) if k == "tools" && !a.is_empty() => {
                out.push('[');
                for (j, t) in a.iter().enumerate() {
                    if j > 0 {
                        out.push(',');
                    }
                    let start = out.len();
                    write_value(&mut out, t, None, 1, true);
                    spans.push((start, out.len()));
                }
                out.push(']');
            }
            _ => write_value(&mut out, x, None, 1, true),
        }
    }
    out.push('}');
    (out, spans)
}

/// Two-space indented form, for people.
pub fn write_pretty(v: &Value) -> String {
    let mut out = String::with_capacity(256);
    write_value(&mut out, v, Some(2), 0, false);
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

/// `ascii`: every character outside ASCII escaped (the served form).
fn write_value(out: &mut String, v: &Value, indent: Option<usize>, level: usize, ascii: bool) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::String(s) => write_str(out, s, ascii),
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
                write_value(out, x, indent, level + 1, ascii);
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
                write_key(out, k, ascii);
                out.push(':');
                if indent.is_some() {
                    out.push(' ');
                }
                write_value(out, x, indent, level + 1, ascii);
            }
            newline(out, indent, level);
            out.push('}');
        }
    }
}

/// Writes a JSON string literal.
pub(crate) fn write_str(out: &mut String, s: &str, ascii: bool) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    loop {
        i += if ascii { super::plain_ascii_run(&bytes[i..]) } else { super::plain_run(&bytes[i..]) };
        let Some(&b) = bytes.get(i) else { break };
        if b >= 0x80 {
            // Only in the ASCII form: the character starting here (the run
            // stops at its first byte, so `i` is a character boundary), as
            // one escape per UTF-16 unit.
            out.push_str(&s[start..i]);
            let c = s.get(i..).and_then(|t| t.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER);
            let mut units = [0u16; 2];
            for &u in c.encode_utf16(&mut units).iter() {
                unit_escape(out, u);
            }
            i += c.len_utf8();
            start = i;
            continue;
        }
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
            None => unit_escape(out, u16::from(b)),
        }
        i += 1;
        start = i;
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// `\uXXXX`, lower-case hex.
fn unit_escape(out: &mut String, u: u16) {
    out.push_str("\\u");
    for shift in [12, 8, 4, 0] {
        out.push(char::from_digit(u32::from(u >> shift) & 0xf, 16).unwrap_or('0'));
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn tool_spans_cover_each_tool_of_the_compact_form() {
        let v = crate::json::parse(r#"{"tools":[{"name":"a"},{"name":"b","x":[1,{}]}],"nextCursor":"c","_meta":{}}"#, Default::default())
            .unwrap()
            .value;
        let (text, spans) = super::write_served_tool_spans(&v);
        assert_eq!(text, super::write_served(&v));
        let tools: Vec<&str> = spans.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(tools, [r#"{"name":"a"}"#, r#"{"name":"b","x":[1,{}]}"#]);
        let empty = crate::json::parse(r#"{"tools":[]}"#, Default::default()).unwrap().value;
        assert_eq!(super::write_served_tool_spans(&empty).0, r#"{"tools":[]}"#);
    }

    use super::super::{parse, ParseOptions};
    use super::*;

    #[test]
    fn served_form_is_ascii_with_every_other_character_escaped_and_parses_to_the_same_value() {
        // Characters of every UTF-8 length, one above U+FFFF (a surrogate
        // pair), the JSON specials and a C0 control, in keys and values.
        let src = "{\"caf\u{e9}\":[\"\u{2014} \u{4e2d}\u{6587} \u{1f600}\",\"x\\\"\\\\\\n\\u0001\u{7f}\"],\"\u{2028}\":\"a\u{10ffff}\"}";
        let v = parse(src, ParseOptions::default()).unwrap().value;
        let served = write_served(&v);
        assert_eq!(served, r#"{"caf\u00e9":["\u2014 \u4e2d\u6587 \ud83d\ude00","x\"\\\n\u0001"#.to_string() + "\u{7f}" + r#""],"\u2028":"a\udbff\udfff"}"#);
        assert!(served.is_ascii());
        assert_eq!(parse(&served, ParseOptions::default()).unwrap().value, v);
        // Raw UTF-8 in the other forms; ASCII text is written alike in both.
        assert_eq!(write_compact(&v), src);
        let plain = parse(r#"{"a":["b\n",1,{"c":null}]}"#, ParseOptions::default()).unwrap().value;
        assert_eq!(write_served(&plain), write_compact(&plain));
    }

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
