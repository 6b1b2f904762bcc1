//! RFC 8785 JSON Canonicalization Scheme (JCS), the canonical form that tool
//! pin digests are computed over (pinning must tolerate benign
//! re-serialization — key order, whitespace, number spelling — and report
//! only real changes).
//!
//! - Objects: members sorted by their names compared as UTF-16 code units.
//! - Strings: only `"`, `\` and C0 controls escaped (`\b \f \n \r \t`, others
//!   `\u00xx` lower-case); everything else as raw UTF-8.
//! - Numbers: the ECMAScript `Number.prototype.toString` form of the IEEE-754
//!   double the lexeme denotes (`1.0` → `1`, `1E+2` → `100`, `1e21` → `1e+21`,
//!   `-0` → `0`). Lexemes beyond a double's precision round, as in every JCS
//!   implementation; non-finite values have no JCS form and are an error (the
//!   engine hides such tools before they could be pinned).
//! - No whitespace.

use crate::json::Value;

/// The canonical bytes of `v`, or `Err` naming a number with no JCS form.
pub fn canonicalize(v: &Value) -> Result<String, String> {
    let mut out = String::with_capacity(256);
    write(v, &mut out)?;
    Ok(out)
}

/// The canonical bytes of the object made of `o`'s members whose key `keep`
/// accepts, without building that object (a pin covers only some fields).
pub fn canonicalize_members(o: &crate::json::Object, keep: impl Fn(&str) -> bool) -> Result<String, String> {
    canonicalize_pairs(o.iter().filter(|(k, _)| keep(k)).map(|(k, v)| (k.as_str(), v)).collect())
}

/// The canonical bytes of the object made of `members` (keys must be
/// unique), without building that object.
pub fn canonicalize_pairs(members: Vec<(&str, &Value)>) -> Result<String, String> {
    let mut out = String::with_capacity(256);
    write_members(members, &mut out)?;
    Ok(out)
}

fn write_members(mut members: Vec<(&str, &Value)>, out: &mut String) -> Result<(), String> {
    // Byte order equals UTF-16 order unless a key has a supplementary-plane
    // character (UTF-8 sorts those after U+E000..U+FFFF; UTF-16 before).
    if members.iter().all(|(k, _)| k.chars().all(|c| (c as u32) < 0xE000)) {
        members.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    } else {
        members.sort_by(|a, b| a.0.encode_utf16().cmp(b.0.encode_utf16()));
    }
    out.push('{');
    for (i, (k, x)) in members.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(k, out);
        out.push(':');
        write(x, out)?;
    }
    out.push('}');
    Ok(())
}

fn write(v: &Value, out: &mut String) -> Result<(), String> {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => {
            let f = n.as_f64();
            if !f.is_finite() {
                return Err(format!("number {} has no JCS form (not a finite double)", n.as_str()));
            }
            out.push_str(&es_number(f));
        }
        Value::String(s) => write_str(s, out),
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(x, out)?;
            }
            out.push(']');
        }
        Value::Object(o) => write_members(o.iter().map(|(k, v)| (k.as_str(), v)).collect(), out)?,
    }
    Ok(())
}

fn write_str(s: &str, out: &mut String) {
    out.push('"');
    // Fast path: nothing to escape (the common case for real metadata).
    if !s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        out.push_str(s);
        out.push('"');
        return;
    }
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

/// ECMAScript `Number::toString(x)` (ECMA-262 §6.1.6.1.20) for a finite
/// double: the shortest round-trip digits, laid out by the exponent.
pub fn es_number(x: f64) -> String {
    if x == 0.0 {
        return "0".to_string(); // also -0
    }
    let neg = x < 0.0;
    // Rust's `{:e}` prints the shortest digits that round-trip: "d.ddde±x".
    let sci = format!("{:e}", x.abs());
    let (mant, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mant.chars().filter(|c| c.is_ascii_digit()).collect();
    let k = digits.len() as i32;
    let n = exp.parse::<i32>().unwrap_or(0) + 1; // decimal point position
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    if k <= n && n <= 21 {
        s.push_str(&digits);
        s.extend(std::iter::repeat_n('0', (n - k) as usize));
    } else if 0 < n && n <= 21 {
        s.push_str(&digits[..n as usize]);
        s.push('.');
        s.push_str(&digits[n as usize..]);
    } else if -6 < n && n <= 0 {
        s.push_str("0.");
        s.extend(std::iter::repeat_n('0', (-n) as usize));
        s.push_str(&digits);
    } else {
        s.push_str(&digits[..1]);
        if k > 1 {
            s.push('.');
            s.push_str(&digits[1..]);
        }
        s.push('e');
        s.push(if n >= 1 { '+' } else { '-' });
        s.push_str(&(n - 1).abs().to_string());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, ParseOptions};

    fn c(s: &str) -> String {
        canonicalize(&parse(s, ParseOptions::default()).unwrap().value).unwrap()
    }

    #[test]
    fn numbers_follow_ecmascript() {
        // RFC 8785 appendix B style cases and ECMAScript corner cases.
        for (lexeme, want) in [
            ("0", "0"),
            ("-0", "0"),
            ("1.0", "1"),
            ("1E+2", "100"),
            ("100.00", "100"),
            ("0.1e1", "1"),
            ("1e21", "1e+21"),
            ("1e20", "100000000000000000000"),
            ("123456789012345678901", "123456789012345680000"),
            ("0.000001", "0.000001"),
            ("1e-7", "1e-7"),
            ("-1.5e-9", "-1.5e-9"),
            ("4.35", "4.35"),
            ("0.1", "0.1"),
            ("9007199254740993", "9007199254740992"),
            ("1.7976931348623157e308", "1.7976931348623157e+308"),
            ("5e-324", "5e-324"),
            ("333333333.3333333", "333333333.3333333"),
            ("1234.5", "1234.5"),
        ] {
            assert_eq!(c(lexeme), want, "{lexeme}");
        }
    }

    #[test]
    fn non_finite_numbers_have_no_canonical_form() {
        assert!(canonicalize(&parse("1e400", ParseOptions::default()).unwrap().value).is_err());
    }

    #[test]
    fn objects_sort_by_utf16_code_units() {
        // U+10000 (surrogates D800 DC00) sorts *before* U+FB33 in UTF-16,
        // though after it in UTF-8/code points.
        assert_eq!(c(r#"{"b":1,"a":{"d":[1,2],"c":null}," ":true}"#), r#"{" ":true,"a":{"c":null,"d":[1,2]},"b":1}"#);
        assert_eq!(c("{\"\u{fb33}\":1,\"\u{10000}\":2}"), "{\"\u{10000}\":2,\"\u{fb33}\":1}");
    }

    #[test]
    fn strings_escape_only_what_json_requires() {
        assert_eq!(c(r#""a\u0001\n\"\\é😀\u2028/""#), "\"a\\u0001\\n\\\"\\\\é😀\u{2028}/\"");
    }

    #[test]
    fn benign_reserialization_gives_the_same_bytes() {
        let a = c(r#"{"name":"t","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":1E+2}}}}"#);
        let b = c(r#"{ "inputSchema" : { "properties":{"n":{"maximum":100.0,"type":"integer"}}, "type":"object" }, "name":"t" }"#);
        assert_eq!(a, b);
    }
}
