//! Strict RFC 8259 parser: one value, no BOM, no comments, no trailing commas,
//! no trailing data, no duplicate keys, no lone surrogates, bounded nesting.
//!
//! Recursion depth is bounded by `ParseOptions::max_depth` *before* recursing,
//! so hostile nesting (3,000 `[`) ends in `TooDeep`, never a stack overflow.

use super::{Key, Number, Object, Value};
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

/// Parser limits.
#[derive(Clone, Copy, Debug)]
pub struct ParseOptions {
    /// Maximum nesting of arrays/objects (the document root is level 1).
    pub max_depth: usize,
}

impl Default for ParseOptions {
    fn default() -> Self {
        ParseOptions { max_depth: 128 }
    }
}

/// What went wrong, and where (byte offset into the input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub offset: usize,
    pub kind: ParseErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The text starts with U+FEFF (RFC 8259 §8.1: must not be added).
    ByteOrderMark,
    /// `//` or `/*`: JSON has no comments.
    Comment,
    UnexpectedEnd,
    UnexpectedChar(char),
    /// Non-whitespace after the single top-level value.
    TrailingData,
    /// The same key twice in one object (JSON pointer of the object, key).
    DuplicateKey { pointer: String, key: String },
    /// Nesting deeper than `max_depth`.
    TooDeep { max_depth: usize },
    InvalidNumber,
    InvalidEscape,
    /// `\uD800` style escape with no partner: not representable as UTF-8.
    LoneSurrogate,
    /// A raw control character (< U+0020) inside a string.
    ControlCharInString,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseErrorKind::ByteOrderMark => write!(f, "byte order mark at the start of the document"),
            ParseErrorKind::Comment => write!(f, "comment at byte {} (JSON has no comments)", self.offset),
            ParseErrorKind::UnexpectedEnd => write!(f, "unexpected end of input"),
            ParseErrorKind::UnexpectedChar(c) => write!(f, "unexpected character {:?} at byte {}", c, self.offset),
            ParseErrorKind::TrailingData => write!(f, "trailing data after the JSON value at byte {}", self.offset),
            ParseErrorKind::DuplicateKey { pointer, key } => {
                write!(f, "duplicate key {:?} in the object at {:?} (byte {})", key, pointer, self.offset)
            }
            ParseErrorKind::TooDeep { max_depth } => {
                write!(f, "nesting deeper than {} levels at byte {}", max_depth, self.offset)
            }
            ParseErrorKind::InvalidNumber => write!(f, "invalid number at byte {}", self.offset),
            ParseErrorKind::InvalidEscape => write!(f, "invalid escape at byte {}", self.offset),
            ParseErrorKind::LoneSurrogate => write!(f, "lone UTF-16 surrogate escape at byte {}", self.offset),
            ParseErrorKind::ControlCharInString => {
                write!(f, "unescaped control character in a string at byte {}", self.offset)
            }
        }
    }
}

/// A parsed document plus the byte spans of the elements of the top-level
/// `tools` array (so the raw tool as received stays available for audit
/// without copying it).
#[derive(Debug)]
pub struct Parsed {
    pub value: Value,
    pub tool_spans: Vec<(usize, usize)>,
    /// Per element of the top-level `tools` array: whether a key
    /// `x-mcp-header` ([`super::MCP_HEADER_KEY`]) appears anywhere in it,
    /// as decoded. A tool without one needs no walk looking for it.
    pub tool_has_mcp_header: Vec<bool>,
}

/// Parses exactly one JSON value.
pub fn parse(text: &str, opts: ParseOptions) -> Result<Parsed, ParseError> {
    let mut p = Parser::at(text, opts, 0);
    let value = p.document()?;
    Ok(Parsed { value, tool_spans: p.spans, tool_has_mcp_header: p.header_keys })
}

/// One element of the top-level `tools` array, as [`parse_each_tool`]
/// hands it over.
pub(crate) struct ToolItem {
    /// Its index in the array.
    pub index: usize,
    pub value: Value,
    /// Its byte span in the input ([`Parsed::tool_spans`]).
    pub span: (usize, usize),
    /// [`Parsed::tool_has_mcp_header`] of this element.
    pub has_mcp_header: bool,
}

/// [`parse`], handing each element of the top-level `tools` array to `each`
/// as soon as it is read: the caller works on a tool while its nodes are
/// still in cache (parsing the whole catalog first, then walking each tool,
/// fetched every tool's tree from memory again), and may free it before the
/// next one is read. The returned value's `tools` is empty. A document that
/// fails to parse may have handed some elements over before the error.
pub(crate) fn parse_each_tool<'a>(text: &'a str, opts: ParseOptions, each: &'a mut (dyn FnMut(ToolItem) + 'a)) -> Result<Value, ParseError> {
    let mut p = Parser::at(text, opts, 0);
    p.each = Some(each);
    p.document()
}

struct Parser<'a> {
    text: &'a str,
    s: &'a [u8],
    i: usize,
    opts: ParseOptions,
    spans: Vec<(usize, usize)>,
    /// `Parsed::tool_has_mcp_header`, and whether the element being read
    /// has had such a key so far.
    header_keys: Vec<bool>,
    saw_header_key: bool,
    /// Keys/indices from the root, only used to name the object in a
    /// duplicate-key error and to spot the top-level `tools` array.
    path: Vec<Seg>,
    /// The members of the objects and the elements of the arrays being
    /// read, innermost last: each object or array takes its own off the top
    /// when it ends, into one allocation of the exact size (growing a `Vec`
    /// per object by doubling cost three or four reallocations each, most of
    /// a catalog's allocations).
    entries: Vec<(Key, Value)>,
    items: Vec<Value>,
    /// [`parse_each_tool`]'s receiver of the `tools` elements.
    each: Option<&'a mut (dyn FnMut(ToolItem) + 'a)>,
}

impl<'a> Parser<'a> {
    /// A parser of `text` reading from byte `i`, with nothing read yet.
    fn at(text: &'a str, opts: ParseOptions, i: usize) -> Parser<'a> {
        Parser {
            text,
            s: text.as_bytes(),
            i,
            opts,
            spans: Vec::new(),
            header_keys: Vec::new(),
            saw_header_key: false,
            path: Vec::new(),
            entries: Vec::new(),
            items: Vec::new(),
            each: None,
        }
    }

    /// Exactly one JSON value: the whole text (no byte order mark, nothing
    /// after the value but whitespace).
    fn document(&mut self) -> Result<Value, ParseError> {
        if self.text.starts_with('\u{FEFF}') {
            return Err(self.err(ParseErrorKind::ByteOrderMark));
        }
        self.ws()?;
        let value = self.value(1)?;
        self.ws()?;
        if self.i < self.s.len() {
            return Err(self.err(ParseErrorKind::TrailingData));
        }
        Ok(value)
    }
}

enum Seg {
    /// Where the key's opening quote is in the input.
    Key(usize),
    Index(usize),
}

impl<'a> Parser<'a> {
    fn err(&self, kind: ParseErrorKind) -> ParseError {
        ParseError { offset: self.i, kind }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn ws(&mut self) -> Result<(), ParseError> {
        while let Some(c) = self.peek() {
            match c {
                b' ' | b'\t' | b'\n' | b'\r' => self.i += 1,
                b'/' if matches!(self.s.get(self.i + 1), Some(b'/') | Some(b'*')) => {
                    return Err(self.err(ParseErrorKind::Comment))
                }
                _ => break,
            }
        }
        Ok(())
    }

    fn unexpected(&self) -> ParseError {
        match self.peek() {
            None => self.err(ParseErrorKind::UnexpectedEnd),
            Some(_) => {
                // Report the whole (possibly multi-byte) character.
                let rest = std::str::from_utf8(&self.s[self.i..]).ok();
                let c = rest.and_then(|r| r.chars().next()).unwrap_or('\u{FFFD}');
                self.err(ParseErrorKind::UnexpectedChar(c))
            }
        }
    }

    fn value(&mut self, depth: usize) -> Result<Value, ParseError> {
        match self.peek() {
            Some(b'{') => self.object(depth),
            Some(b'[') => self.array(depth),
            Some(b'"') => Ok(Value::String(self.string()?)),
            Some(b't') => self.literal(b"true", Value::Bool(true)),
            Some(b'f') => self.literal(b"false", Value::Bool(false)),
            Some(b'n') => self.literal(b"null", Value::Null),
            Some(b'-') | Some(b'0'..=b'9') => self.number(),
            _ => Err(self.unexpected()),
        }
    }

    fn literal(&mut self, word: &[u8], v: Value) -> Result<Value, ParseError> {
        if self.s[self.i..].starts_with(word) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.unexpected())
        }
    }

    fn enter(&self, depth: usize) -> Result<(), ParseError> {
        if depth > self.opts.max_depth {
            Err(self.err(ParseErrorKind::TooDeep { max_depth: self.opts.max_depth }))
        } else {
            Ok(())
        }
    }

    fn pointer(&self) -> String {
        let mut p = String::new();
        for t in &self.path {
            p.push('/');
            match t {
                Seg::Key(at) => {
                    // The key again from its place in the input (this is
                    // the error path): the walk down keeps only offsets.
                    let mut again = Parser::at(self.text, self.opts, *at);
                    p.push_str(&super::pointer_token(&again.string().unwrap_or_default()));
                }
                Seg::Index(i) => p.push_str(&i.to_string()),
            }
        }
        p
    }

    fn object(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.enter(depth)?;
        self.i += 1;
        let base = self.entries.len();
        // Small objects: linear duplicate scan; large ones switch to a set so a
        // 100,000-key object stays linear.
        let mut seen: Option<HashSet<Key>> = None;
        // The keys so far, one bit each (`Key::bit`): a key whose bit is
        // not set yet is not a duplicate, and is not compared with the
        // others (the scan of every key before it was ~40 instructions a
        // key).
        let mut bits = 0u64;
        self.ws()?;
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Value::Object(Object::new()));
        }
        loop {
            if self.peek() != Some(b'"') {
                return Err(self.unexpected());
            }
            let key_at = self.i;
            let key = self.key()?;
            self.saw_header_key |= key == super::MCP_HEADER_KEY;
            let dup = match &mut seen {
                Some(set) => !set.insert(key.clone()),
                None => {
                    let members = &self.entries[base..];
                    let bit = key.bit();
                    let d = bits & bit != 0 && members.iter().any(|(k, _)| *k == key);
                    bits |= bit;
                    if members.len() >= 16 {
                        seen = Some(members.iter().map(|(k, _)| k.clone()).chain(std::iter::once(key.clone())).collect());
                    }
                    d
                }
            };
            if dup {
                return Err(ParseError {
                    offset: key_at,
                    kind: ParseErrorKind::DuplicateKey { pointer: self.pointer(), key: key.into_string() },
                });
            }
            self.ws()?;
            if self.peek() != Some(b':') {
                return Err(self.unexpected());
            }
            self.i += 1;
            self.ws()?;
            let is_tools = depth == 1 && key == "tools";
            let v = if self.peek() == Some(b'"') {
                // A string (most members' values), read here: no call of
                // `value`, and no path entry (only a duplicate key in an
                // object below names it).
                Value::String(self.string()?)
            } else {
                self.path.push(Seg::Key(key_at));
                let v = if is_tools && self.peek() == Some(b'[') { self.tools_array(depth + 1)? } else { self.value(depth + 1)? };
                self.path.pop();
                v
            };
            self.entries.push((key, v));
            self.ws()?;
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.ws()?;
                }
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Value::Object(Object::from_entries(self.entries.split_off(base))));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    /// The top-level `tools` array: like `array`, but records element spans.
    fn tools_array(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.spans.clear();
        self.header_keys.clear();
        self.array_inner(depth, true)
    }

    fn array(&mut self, depth: usize) -> Result<Value, ParseError> {
        self.array_inner(depth, false)
    }

    fn array_inner(&mut self, depth: usize, record: bool) -> Result<Value, ParseError> {
        self.enter(depth)?;
        self.i += 1;
        let base = self.items.len();
        self.ws()?;
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Value::Array(Vec::new()));
        }
        let mut n = 0;
        loop {
            let start = self.i;
            // Only a `tools` element starts a new tool; a nested array
            // (`required`, `enum`...) inside it must not forget a key seen
            // earlier in the same tool.
            if record {
                self.saw_header_key = false;
            }
            // A string read here, as in `object`.
            let v = if self.peek() == Some(b'"') {
                Value::String(self.string()?)
            } else {
                self.path.push(Seg::Index(n));
                let v = self.value(depth + 1)?;
                self.path.pop();
                v
            };
            match self.each.as_deref_mut() {
                Some(each) if record => {
                    each(ToolItem { index: n, value: v, span: (start, self.i), has_mcp_header: self.saw_header_key });
                }
                _ => {
                    self.items.push(v);
                    if record {
                        self.spans.push((start, self.i));
                        self.header_keys.push(self.saw_header_key);
                    }
                }
            }
            n += 1;
            self.ws()?;
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.ws()?;
                }
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::Array(self.items.split_off(base)));
                }
                _ => return Err(self.unexpected()),
            }
        }
    }

    fn number(&mut self) -> Result<Value, ParseError> {
        let start = self.i;
        let s = self.s;
        let mut i = self.i;
        if s.get(i) == Some(&b'-') {
            i += 1;
        }
        match s.get(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => {
                while matches!(s.get(i), Some(b'0'..=b'9')) {
                    i += 1;
                }
            }
            _ => {
                self.i = i;
                return Err(self.err(ParseErrorKind::InvalidNumber));
            }
        }
        if s.get(i) == Some(&b'.') {
            i += 1;
            if !matches!(s.get(i), Some(b'0'..=b'9')) {
                self.i = i;
                return Err(self.err(ParseErrorKind::InvalidNumber));
            }
            while matches!(s.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        if matches!(s.get(i), Some(b'e') | Some(b'E')) {
            i += 1;
            if matches!(s.get(i), Some(b'+') | Some(b'-')) {
                i += 1;
            }
            if !matches!(s.get(i), Some(b'0'..=b'9')) {
                self.i = i;
                return Err(self.err(ParseErrorKind::InvalidNumber));
            }
            while matches!(s.get(i), Some(b'0'..=b'9')) {
                i += 1;
            }
        }
        self.i = i;
        // The slice is ASCII digits/sign/dot/e by construction.
        let lexeme = String::from_utf8_lossy(&s[start..i]).into_owned();
        Ok(Value::Number(Number::from_lexeme_unchecked(lexeme)))
    }

    fn hex4(&mut self) -> Result<u32, ParseError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let c = self.peek().ok_or_else(|| self.err(ParseErrorKind::UnexpectedEnd))?;
            let d = (c as char).to_digit(16).ok_or_else(|| self.err(ParseErrorKind::InvalidEscape))?;
            v = v * 16 + d;
            self.i += 1;
        }
        Ok(v)
    }

    fn string(&mut self) -> Result<String, ParseError> {
        self.text_of_string().map(Cow::into_owned)
    }

    /// An object key: a known key ([`Key`]) is looked up in the input's
    /// text as it is, and only an unknown one is copied.
    fn key(&mut self) -> Result<Key, ParseError> {
        Ok(match self.text_of_string()? {
            Cow::Borrowed(s) => Key::new(s),
            Cow::Owned(s) => Key::from(s),
        })
    }

    /// A string's decoded text: borrowed from the input when it has no
    /// escape.
    fn text_of_string(&mut self) -> Result<Cow<'a, str>, ParseError> {
        self.i += 1; // opening quote
        let s = self.s;
        // Bytes of the decoded string once it has an escape: pushed as bytes
        // (every piece is valid UTF-8: runs of the input between ASCII bytes,
        // and whole encoded characters), checked once at the end.
        let mut out: Option<Vec<u8>> = None;
        let mut run_start = self.i;
        loop {
            // Fast scan over plain bytes (the input is valid UTF-8: it came
            // from &str). The first eight bytes one at a time: between
            // escapes (`\\u\\u…`, `\\n\\n…`) runs are a byte or none, and
            // the eight-byte reader's set-up costs several times a byte's test.
            let mut j = self.i;
            // The first eight bytes in one read when there are eight (a
            // string always has its closing quote after it): the test costs
            // about what two bytes one at a time did, and most values are
            // longer (`string`, `object`, descriptions).
            match s.get(j..j + 8).map(<[u8; 8]>::try_from) {
                Some(Ok(w)) => match crate::swar::first_special_in_string(crate::swar::word(w)) {
                    Some(k) => j += k,
                    None => j += 8 + super::plain_run(&s[j + 8..]),
                },
                _ => {
                    while j < s.len() && !super::SPECIAL_IN_STRING[s[j] as usize] {
                        j += 1;
                    }
                }
            }
            self.i = j;
            let c = match s.get(self.i) {
                None => return Err(self.err(ParseErrorKind::UnexpectedEnd)),
                Some(&c) => c,
            };
            if c < 0x20 {
                return Err(self.err(ParseErrorKind::ControlCharInString));
            }
            let run = &s[run_start..self.i];
            if c == b'"' {
                self.i += 1;
                return Ok(match out {
                    // Runs start and end next to ASCII bytes, so both ends
                    // are char boundaries and slicing the &str needs no
                    // UTF-8 re-validation.
                    None => Cow::Borrowed(self.text.get(run_start..self.i - 1).unwrap_or_default()),
                    Some(mut o) => {
                        o.extend_from_slice(run);
                        // Valid by construction; the check is one fast pass.
                        Cow::Owned(String::from_utf8(o).map_err(|_| ParseError { offset: run_start, kind: ParseErrorKind::InvalidEscape })?)
                    }
                });
            }
            // Backslash escape. The decoded string is no longer than its
            // input (every escape is longer than what it stands for): sized
            // to the input up to the next quote byte, the string's end
            // unless that quote is escaped, so that a long text with many
            // escapes is not grown and copied a dozen times from empty.
            let o = out.get_or_insert_with(|| {
                let to_quote = memchr::memchr(b'"', &s[self.i..]).unwrap_or(s.len() - self.i);
                Vec::with_capacity(self.i - run_start + to_quote)
            });
            // A run of a few bytes is pushed byte by byte: a copy call per
            // one-byte run cost more than the escape itself.
            if run.len() <= 8 {
                run.iter().for_each(|&b| o.push(b));
            } else {
                o.extend_from_slice(run);
            }
            let esc_at = self.i;
            let e = *s.get(self.i + 1).ok_or(ParseError { offset: s.len(), kind: ParseErrorKind::UnexpectedEnd })?;
            self.i += 2;
            let simple = match e {
                b'"' => b'"',
                b'\\' => b'\\',
                b'/' => b'/',
                b'b' => 0x08,
                b'f' => 0x0c,
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'u' => 0,
                _ => return Err(ParseError { offset: esc_at, kind: ParseErrorKind::InvalidEscape }),
            };
            if e != b'u' {
                o.push(simple);
            } else {
                let hi = self.hex4()?;
                let cp = if (0xD800..0xDC00).contains(&hi) {
                    if s.get(self.i) == Some(&b'\\') && s.get(self.i + 1) == Some(&b'u') {
                        self.i += 2;
                        let lo = self.hex4()?;
                        if !(0xDC00..0xE000).contains(&lo) {
                            return Err(ParseError { offset: esc_at, kind: ParseErrorKind::LoneSurrogate });
                        }
                        0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00)
                    } else {
                        return Err(ParseError { offset: esc_at, kind: ParseErrorKind::LoneSurrogate });
                    }
                } else if (0xDC00..0xE000).contains(&hi) {
                    return Err(ParseError { offset: esc_at, kind: ParseErrorKind::LoneSurrogate });
                } else {
                    hi
                };
                match char::from_u32(cp) {
                    Some(ch) => o.extend_from_slice(ch.encode_utf8(&mut [0u8; 4]).as_bytes()),
                    None => return Err(ParseError { offset: esc_at, kind: ParseErrorKind::InvalidEscape }),
                }
            }
            run_start = self.i;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> Result<Value, ParseErrorKind> {
        parse(s, ParseOptions::default()).map(|x| x.value).map_err(|e| e.kind)
    }

    #[test]
    fn duplicate_keys_are_refused_not_last_wins() {
        let e = p(r#"{"a":{"b":1,"b":2}}"#).unwrap_err();
        assert_eq!(e, ParseErrorKind::DuplicateKey { pointer: "/a".into(), key: "b".into() });
    }

    #[test]
    fn a_duplicate_key_error_names_the_object_by_its_decoded_keys() {
        // The walk keeps only where each key starts; the error decodes them.
        let e = p(r#"{"t":[0,{"a\u0062":{"c/d":{"x":1,"x":2}}}]}"#).unwrap_err();
        assert_eq!(e, ParseErrorKind::DuplicateKey { pointer: "/t/1/ab/c~1d".into(), key: "x".into() });
    }

    #[test]
    fn a_known_key_spelled_with_escapes_is_the_same_key() {
        // Known keys are static and compare by their entry: the decoded
        // spelling must land on the same one, or `typ\u0065` would slip
        // past the duplicate check beside `type` and past every schema walk.
        let e = p(r#"{"type":"object","typ\u0065":"string"}"#).unwrap_err();
        assert_eq!(e, ParseErrorKind::DuplicateKey { pointer: "".into(), key: "type".into() });
        let v = p(r#"{"propert\u0069es":{"a":{}}}"#).unwrap();
        let (k, _) = v.as_object().unwrap().iter().next().unwrap();
        assert_eq!(k.kw(), Some(crate::schema::Kw::SchemaMap));
        // In a large object (the hashed duplicate check) too.
        let mut s = String::from("{");
        for i in 0..40 {
            s.push_str(&format!("\"k{i}\":{i},"));
        }
        s.push_str(r#""description":"a","d\u0065scription":"b"}"#);
        assert!(matches!(p(&s), Err(ParseErrorKind::DuplicateKey { .. })));
    }

    #[test]
    fn duplicate_keys_in_a_large_object_are_refused() {
        let mut s = String::from("{");
        for i in 0..100 {
            s.push_str(&format!("\"k{i}\":{i},"));
        }
        s.push_str("\"k42\":0}");
        assert!(matches!(p(&s), Err(ParseErrorKind::DuplicateKey { .. })));
    }

    #[test]
    fn hostile_nesting_fails_cleanly() {
        let s = "[".repeat(3000) + &"]".repeat(3000);
        assert_eq!(p(&s).unwrap_err(), ParseErrorKind::TooDeep { max_depth: 128 });
        let ok = "[".repeat(128) + &"]".repeat(128);
        assert!(p(&ok).is_ok());
    }

    #[test]
    fn bom_comments_trailing_data_are_refused() {
        assert_eq!(p("\u{FEFF}{}").unwrap_err(), ParseErrorKind::ByteOrderMark);
        assert_eq!(p("{} // x").unwrap_err(), ParseErrorKind::Comment);
        assert_eq!(p("{\"a\":1 /* x */}").unwrap_err(), ParseErrorKind::Comment);
        assert_eq!(p("{} {}").unwrap_err(), ParseErrorKind::TrailingData);
        assert!(p("[1,]").is_err());
        assert!(p("{\"a\":1,}").is_err());
    }

    #[test]
    fn lone_surrogates_are_refused() {
        assert_eq!(p(r#""\ud800""#).unwrap_err(), ParseErrorKind::LoneSurrogate);
        assert_eq!(p(r#""\udc00x""#).unwrap_err(), ParseErrorKind::LoneSurrogate);
        assert_eq!(p(r#""\ud800\u0041""#).unwrap_err(), ParseErrorKind::LoneSurrogate);
        assert_eq!(p(r#""\ud83d\ude00""#).unwrap(), Value::String("😀".into()));
    }

    #[test]
    fn numbers_keep_their_lexeme() {
        let v = p("[9007199254740993, -0, 1E+2, 2e-400, 1e400]").unwrap();
        let lex: Vec<_> = v.as_array().unwrap().iter().map(|x| match x {
            Value::Number(n) => n.as_str().to_string(),
            _ => unreachable!(),
        }).collect();
        assert_eq!(lex, ["9007199254740993", "-0", "1E+2", "2e-400", "1e400"]);
        for bad in ["01", "1.", ".5", "-", "1e", "+1", "NaN", "Infinity"] {
            assert!(p(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn tool_spans_cover_each_raw_tool() {
        let text = r#"{"tools":[ {"name":"a"} , {"name":"b"}]}"#;
        let parsed = parse(text, ParseOptions::default()).unwrap();
        let raw: Vec<_> = parsed.tool_spans.iter().map(|&(a, b)| &text[a..b]).collect();
        assert_eq!(raw, [r#"{"name":"a"}"#, r#"{"name":"b"}"#]);
    }

    #[test]
    fn raw_control_characters_in_strings_are_refused() {
        assert_eq!(p("\"a\nb\"").unwrap_err(), ParseErrorKind::ControlCharInString);
    }
}
