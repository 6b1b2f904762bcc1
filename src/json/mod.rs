//! A small, strict JSON document model.
//!
//! Why not `serde_json::Value`: a tools/list result is attacker-controlled, and
//! the engine needs four things serde_json's `Value` does not give:
//! - **duplicate keys are an error** (serde_json silently keeps the last one,
//!   other parsers keep the first: a parser differential an attacker can use);
//! - **numbers keep their exact lexeme** (`9007199254740993` must not become
//!   `…992`, and a 2,000-digit number must round-trip instead of failing);
//! - **object key order is preserved**, so a clean catalog comes out byte-for-byte
//!   in the order it went in (deterministic, and diffs stay readable);
//! - a hard **nesting bound** that fails cleanly instead of overflowing the stack.

mod key;
mod parse;
mod path;
mod write;

pub use key::Key;

pub use path::{for_each_text, Path};

pub use parse::{parse, ParseError, ParseErrorKind, ParseOptions, Parsed};
pub(crate) use parse::{parse_each_tool, ToolItem};
pub(crate) use write::{write_served_catalog, write_served_tool, WrittenTool, SERVED_CATALOG_START};
pub use write::{write_compact, write_pretty, write_served, write_served_tool_spans};
pub(crate) use write::write_served_sized;

/// The MCP 2026-07-28 schema annotation that mirrors a tool parameter into
/// an `Mcp-Param-{name}` HTTP header. The parser notes which tools have the
/// key ([`Parsed::tool_has_mcp_header`]).
pub const MCP_HEADER_KEY: &str = "x-mcp-header";

/// Bytes with a special meaning inside a JSON string: `"`, `\\` and the C0
/// controls. The parser stops a plain run at them; the writer escapes them.
pub(crate) const SPECIAL_IN_STRING: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < 0x20 {
        t[i] = true;
        i += 1;
    }
    t[b'"' as usize] = true;
    t[b'\\' as usize] = true;
    t
};

/// How many bytes at the start of `s` are plain in a JSON string (none of
/// `SPECIAL_IN_STRING`): the length of the run the parser copies and the
/// writer passes through as it is. Eight bytes at a time (`crate::swar`),
/// since nearly every byte of real metadata is plain.
pub(crate) fn plain_run(s: &[u8]) -> usize {
    run_until::<false>(s)
}

/// [`plain_run`] that also stops at every byte that is not ASCII: the run
/// the ASCII-only writer passes through as it is.
pub(crate) fn plain_ascii_run(s: &[u8]) -> usize {
    run_until::<true>(s)
}

fn run_until<const NON_ASCII: bool>(s: &[u8]) -> usize {
    use crate::swar::{special_in_string, word};
    let special = |b: [u8; 8]| special_in_string::<NON_ASCII>(word(b));
    let stop = |c: u8| SPECIAL_IN_STRING[c as usize] || (NON_ASCII && c >= 0x80);
    let first = |chunk: &[u8]| chunk.iter().position(|&c| stop(c)).unwrap_or(chunk.len());
    let mut i = 0;
    while let Some(Ok(w)) = s.get(i..i + 8).map(<[u8; 8]>::try_from) {
        if special(w) {
            return i + first(&w);
        }
        i += 8;
    }
    // The last bytes: as the last eight of `s` (overlapping bytes already
    // read) when there are eight, so a short tail needs no byte loop.
    match s.len().checked_sub(8).and_then(|from| s.get(from..)).map(<[u8; 8]>::try_from) {
        Some(Ok(w)) if !special(w) => s.len(),
        _ => i + first(&s[i..]),
    }
}

/// A JSON value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Object),
}

/// A JSON number kept as its validated source lexeme (RFC 8259 grammar).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Number(String);

impl Number {
    /// Wraps a lexeme the caller guarantees is a valid JSON number.
    pub(crate) fn from_lexeme_unchecked(s: String) -> Number {
        Number(s)
    }

    /// A number from an unsigned integer.
    pub fn from_u64(n: u64) -> Number {
        Number(n.to_string())
    }

    /// A number from a signed integer.
    pub fn from_i64(n: i64) -> Number {
        Number(n.to_string())
    }

    /// The exact text of the number.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The nearest `f64` (may be infinite for out-of-range lexemes such as `1e400`).
    pub fn as_f64(&self) -> f64 {
        self.0.parse::<f64>().unwrap_or(f64::NAN)
    }

    /// The value as a non-negative integer if it is one exactly (`2`, `2.0`, `2e0`).
    pub fn as_u64(&self) -> Option<u64> {
        let (neg, digits, exp) = self.decimal();
        if digits.is_empty() {
            return Some(0);
        }
        if neg || exp < 0 {
            return None;
        }
        if digits.len() as i64 + exp > 20 {
            return None;
        }
        let mut s = digits;
        for _ in 0..exp {
            s.push('0');
        }
        s.parse::<u64>().ok()
    }

    /// True if the value is mathematically an integer.
    pub fn is_integer(&self) -> bool {
        let (_, digits, exp) = self.decimal();
        digits.is_empty() || exp >= 0
    }

    /// Canonical exact decimal form `(negative, significant digits, exponent)` such
    /// that value = ±digits × 10^exp, with no leading or trailing zeros in
    /// `digits`; zero is `(false, "", 0)`. Two lexemes denote the same number iff
    /// their canonical forms are equal (`100`, `1e2`, `100.0`, `1E+2` all agree;
    /// `9007199254740993` and `9007199254740992` do not).
    pub fn decimal(&self) -> (bool, String, i64) {
        let s = self.0.as_bytes();
        let mut i = 0;
        let neg = s.first() == Some(&b'-');
        if neg {
            i += 1;
        }
        let mut digits = String::new();
        let mut exp: i64 = 0;
        while i < s.len() && s[i].is_ascii_digit() {
            digits.push(s[i] as char);
            i += 1;
        }
        if i < s.len() && s[i] == b'.' {
            i += 1;
            while i < s.len() && s[i].is_ascii_digit() {
                digits.push(s[i] as char);
                exp -= 1;
                i += 1;
            }
        }
        if i < s.len() && (s[i] == b'e' || s[i] == b'E') {
            i += 1;
            let eneg = s.get(i) == Some(&b'-');
            if matches!(s.get(i), Some(b'-') | Some(b'+')) {
                i += 1;
            }
            // Saturate: exponents beyond ±10^15 are out of any useful range and
            // only need to stay distinct from small ones.
            let mut e: i64 = 0;
            while i < s.len() && s[i].is_ascii_digit() {
                e = (e.saturating_mul(10)).saturating_add((s[i] - b'0') as i64).min(1_000_000_000_000_000);
                i += 1;
            }
            exp = exp.saturating_add(if eneg { -e } else { e });
        }
        let trimmed = digits.trim_start_matches('0');
        let lead_trimmed = trimmed.len();
        let t2 = trimmed.trim_end_matches('0');
        exp = exp.saturating_add((lead_trimmed - t2.len()) as i64);
        if t2.is_empty() {
            return (false, String::new(), 0);
        }
        (neg, t2.to_string(), exp)
    }
}

/// A JSON object with keys in document order. Keys are unique (the parser
/// refuses duplicates, and `insert` replaces).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Object {
    entries: Vec<(Key, Value)>,
}

impl Object {
    pub fn new() -> Object {
        Object { entries: Vec::new() }
    }
    pub fn with_capacity(n: usize) -> Object {
        Object { entries: Vec::with_capacity(n) }
    }
    /// Members already known to have distinct keys (the parser checks).
    pub(crate) fn from_entries(entries: Vec<(Key, Value)>) -> Object {
        Object { entries }
    }
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.entries.iter().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.entries.iter_mut().find(|(k, _)| k.as_str() == key).map(|(_, v)| v)
    }
    /// `get_mut`, looking at position `at` first: a caller that listed the
    /// keys finds each with one compare instead of a search (keys are
    /// unique, so the entry there is the one if its key matches).
    pub(crate) fn get_mut_near(&mut self, at: usize, key: &str) -> Option<&mut Value> {
        match self.entries.get(at) {
            Some((k, _)) if k.as_str() == key => self.entries.get_mut(at).map(|(_, v)| v),
            _ => self.get_mut(key),
        }
    }
    pub fn contains_key(&self, key: &str) -> bool {
        self.entries.iter().any(|(k, _)| k.as_str() == key)
    }
    /// Sets `key`, keeping its position if present, appending otherwise.
    pub fn insert(&mut self, key: impl Into<Key>, value: Value) {
        let key = key.into();
        if let Some(slot) = self.get_mut(&key) {
            *slot = value;
        } else {
            self.entries.push((key, value));
        }
    }
    /// Appends without checking for an existing key (the caller guarantees
    /// uniqueness, e.g. the parser after its duplicate check).
    pub(crate) fn push_unchecked(&mut self, key: impl Into<Key>, value: Value) {
        self.entries.push((key.into(), value));
    }
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let pos = self.entries.iter().position(|(k, _)| k.as_str() == key)?;
        Some(self.entries.remove(pos).1)
    }
    pub fn iter(&self) -> impl Iterator<Item = (&Key, &Value)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (&Key, &mut Value)> {
        self.entries.iter_mut().map(|(k, v)| (&*k, v))
    }
    pub fn keys(&self) -> impl Iterator<Item = &Key> {
        self.entries.iter().map(|(k, _)| k)
    }
    pub fn retain(&mut self, mut f: impl FnMut(&str, &mut Value) -> bool) {
        self.entries.retain_mut(|(k, v)| f(k, v));
    }
    pub fn into_entries(self) -> Vec<(Key, Value)> {
        self.entries
    }
    pub fn entries_mut(&mut self) -> &mut Vec<(Key, Value)> {
        &mut self.entries
    }
}

impl<K: Into<Key>> FromIterator<(K, Value)> for Object {
    fn from_iter<I: IntoIterator<Item = (K, Value)>>(iter: I) -> Self {
        let mut o = Object::new();
        for (k, v) in iter {
            o.insert(k, v);
        }
        o
    }
}

impl Value {
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_object_mut(&mut self) -> Option<&mut Object> {
        match self {
            Value::Object(o) => Some(o),
            _ => None,
        }
    }
    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }
    /// The JSON type name, for findings and errors.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        }
    }
    pub fn str(s: impl Into<String>) -> Value {
        Value::String(s.into())
    }
    /// Appends a canonical encoding such that two values are `schema_eq` iff
    /// their encodings are equal (numbers by exact decimal value, object keys
    /// sorted). Lets callers deduplicate in linear time with a hash set.
    pub fn canonical_key(&self, out: &mut String) {
        match self {
            Value::Null => out.push('n'),
            Value::Bool(b) => out.push(if *b { 't' } else { 'f' }),
            Value::Number(n) => {
                let (neg, digits, exp) = n.decimal();
                out.push_str(if neg { "#-" } else { "#" });
                out.push_str(&digits);
                out.push('e');
                out.push_str(&exp.to_string());
                out.push(';');
            }
            Value::String(s) => {
                out.push('"');
                out.push_str(&s.len().to_string());
                out.push(':');
                out.push_str(s);
            }
            Value::Array(a) => {
                out.push('[');
                for x in a {
                    x.canonical_key(out);
                }
                out.push(']');
            }
            Value::Object(o) => {
                let mut entries: Vec<(&Key, &Value)> = o.iter().collect();
                entries.sort_by(|a, b| a.0.cmp(b.0));
                out.push('{');
                for (k, v) in entries {
                    out.push_str(&k.len().to_string());
                    out.push(':');
                    out.push_str(k);
                    v.canonical_key(out);
                }
                out.push('}');
            }
        }
    }

    /// JSON Schema equality (numbers compare by exact value: `1.0 == 1`).
    pub fn schema_eq(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Number(a), Value::Number(b)) => a.decimal() == b.decimal(),
            (Value::Array(a), Value::Array(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.schema_eq(y))
            }
            (Value::Object(a), Value::Object(b)) => {
                a.len() == b.len()
                    && a.iter().all(|(k, v)| b.get(k).is_some_and(|w| v.schema_eq(w)))
            }
            _ => self == other,
        }
    }
}

/// Escapes one reference token for an RFC 6901 JSON pointer.
pub fn pointer_token(s: &str) -> String {
    if !needs_escape(s) {
        return s.to_string();
    }
    s.replace('~', "~0").replace('/', "~1")
}

/// Whether a reference token needs escaping (`~` or `/` in it): asked for
/// every key a walk passes, so eight bytes at a time (`swar`), the last
/// eight overlapping; a token under eight bytes byte by byte.
pub fn needs_escape(token: &str) -> bool {
    use crate::swar::{any_eq, word};
    let b = token.as_bytes();
    let hit = |w: [u8; 8]| {
        let w = word(w);
        any_eq(w, b'~') | any_eq(w, b'/')
    };
    let Some(last) = b.len().checked_sub(8) else {
        return b.iter().any(|&c| c == b'~' || c == b'/');
    };
    let mut i = 0;
    while i < last {
        if hit(b[i..i + 8].try_into().unwrap_or([0; 8])) {
            return true;
        }
        i += 8;
    }
    hit(b[last..].try_into().unwrap_or([0; 8]))
}

/// Appends one escaped reference token to a pointer.
pub fn pointer_push(base: &str, token: &str) -> String {
    let mut p = String::with_capacity(base.len() + token.len() + 1);
    p.push_str(base);
    p.push('/');
    p.push_str(&pointer_token(token));
    p
}

/// Decodes `%XX` escapes of a URI fragment (RFC 3986), so `#/$defs/a%20b`
/// names the pointer `/$defs/a b`. Invalid escapes are kept literally.
pub fn percent_decode(s: &str) -> String {
    if !s.contains('%') {
        return s.to_string();
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 3 <= b.len() {
            if let Some(v) = std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// An RFC 6901 pointer token unescaped (`~1` is `/`, `~0` is `~`): borrowed
/// when it has no `~`, which is nearly every token (the two `replace` calls
/// allocated two strings per token).
pub(crate) fn unescape_token(raw: &str) -> std::borrow::Cow<'_, str> {
    if raw.contains('~') {
        std::borrow::Cow::Owned(raw.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(raw)
    }
}

/// Resolves an RFC 6901 pointer (without the leading `#`) inside `root`.
pub fn pointer_get<'a>(root: &'a Value, pointer: &str) -> Option<&'a Value> {
    if pointer.is_empty() {
        return Some(root);
    }
    let rest = pointer.strip_prefix('/')?;
    let mut cur = root;
    for raw in rest.split('/') {
        let tok = unescape_token(raw);
        cur = match cur {
            Value::Object(o) => o.get(&tok)?,
            Value::Array(a) => {
                if tok.len() > 1 && tok.starts_with('0') {
                    return None;
                }
                a.get(tok.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(cur)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_run_stops_where_the_byte_table_does() {
        // Every special byte at every offset of runs up to 40 bytes long,
        // after plain bytes of every kind (ASCII, UTF-8 continuation and
        // lead bytes, 0x7f, 0x20 and just above the specials).
        let plain = [b'a', b' ', 0x7f, 0x80, 0xbf, 0xe2, 0xff, b'#', b'!', b']', b'~'];
        let special: Vec<u8> = (0u8..0x20).chain([b'"', b'\\']).collect();
        let slow = |s: &[u8]| s.iter().position(|&c| SPECIAL_IN_STRING[c as usize]).unwrap_or(s.len());
        // The ASCII-only run also stops at every byte from 0x80 up.
        let slow_ascii = |s: &[u8]| s.iter().position(|&c| SPECIAL_IN_STRING[c as usize] || c >= 0x80).unwrap_or(s.len());
        for len in 0..40 {
            for k in 0..plain.len() {
                let mut s: Vec<u8> = (0..len).map(|i| plain[(i + k) % plain.len()]).collect();
                assert_eq!(plain_run(&s), slow(&s), "{s:?}");
                assert_eq!(plain_ascii_run(&s), slow_ascii(&s), "{s:?}");
                for at in 0..len {
                    for &c in special.iter().chain(&[0x80, 0xc3, 0xf0, 0xff]) {
                        let keep = s[at];
                        s[at] = c;
                        if c < 0x80 {
                            assert_eq!(plain_run(&s), at, "{s:?}");
                        }
                        assert_eq!(plain_ascii_run(&s), slow_ascii(&s), "{s:?}");
                        assert!(plain_ascii_run(&s) <= at, "{s:?}");
                        s[at] = keep;
                    }
                }
            }
        }
    }

    fn n(s: &str) -> Number {
        Number(s.to_string())
    }

    #[test]
    fn four_spellings_of_one_hundred_are_equal() {
        let d = n("100").decimal();
        for s in ["1E+2", "1e2", "100.0", "100", "10e1", "1000e-1"] {
            assert_eq!(n(s).decimal(), d, "{s}");
        }
        assert_ne!(n("0.1e1").decimal(), d);
    }

    #[test]
    fn integers_beyond_2_pow_53_stay_distinct() {
        assert_ne!(n("9007199254740993").decimal(), n("9007199254740992").decimal());
    }

    #[test]
    fn zero_and_negative_zero_are_equal() {
        assert_eq!(n("-0").decimal(), n("0.0").decimal());
    }

    #[test]
    fn as_u64_accepts_integral_spellings_only() {
        assert_eq!(n("2.0").as_u64(), Some(2));
        assert_eq!(n("1e20").as_u64(), None); // > u64::MAX
        assert_eq!(n("1e3").as_u64(), Some(1000));
        assert_eq!(n("1.5").as_u64(), None);
        assert_eq!(n("-1").as_u64(), None);
        assert!(n("1e20").is_integer());
    }

    #[test]
    fn canonical_keys_agree_with_schema_eq() {
        let vals: Vec<Value> = ["1", "1.0", "\"1\"", "[1,2]", "[1.0,2]", "{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1.0}", "null", "true", "\"a:1\"", "{\"a:1\":1}"]
            .iter()
            .map(|s| super::parse(s, Default::default()).unwrap().value)
            .collect();
        for a in &vals {
            for b in &vals {
                let (mut ka, mut kb) = (String::new(), String::new());
                a.canonical_key(&mut ka);
                b.canonical_key(&mut kb);
                assert_eq!(ka == kb, a.schema_eq(b), "{a:?} vs {b:?}");
            }
        }
    }

    #[test]
    fn needs_escape_finds_a_tilde_or_slash_at_every_position() {
        for n in 0..40 {
            assert!(!needs_escape(&"ab\u{e9}".repeat(n)), "{n}");
            for at in 0..n {
                for c in ['~', '/'] {
                    let mut t: Vec<char> = "x".repeat(n).chars().collect();
                    t[at] = c;
                    assert!(needs_escape(&t.iter().collect::<String>()), "{n} {at} {c}");
                }
            }
        }
        // Bytes of other characters never read as `~` (0x7e) or `/` (0x2f).
        assert!(!needs_escape("\u{7e7e}\u{2f2f}\u{fe}\u{af}\u{17e}"));
    }

    #[test]
    fn pointer_escapes_slash_and_tilde() {
        assert_eq!(pointer_push("/a", "x/y~z"), "/a/x~1y~0z");
    }
}
