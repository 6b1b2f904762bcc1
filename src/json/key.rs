//! Object keys. A key spelled like one the engine looks for
//! ([`crate::keyword`]: the JSON Schema keywords, the MCP tool fields) is a
//! reference to its static entry, not an allocated copy: most keys of a
//! catalog are such keywords (`type`, `description`, `properties`), and
//! each allocated key cost a `malloc` in the parser and a `free` when the
//! tree was dropped. The entry also says which keyword the key is, so a
//! schema walk reads it ([`Key::kw`]) instead of matching the string again.
//!
//! Invariant: every constructor interns, so a key equal to a known key is
//! always `Known` (and `kw` of an owned key is `None` without a lookup).
//! A key behaves as its text everywhere else: equality, order and hash are
//! those of the `str`.

use crate::keyword::{self, Known, Kw};
use std::borrow::Borrow;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

/// An object key: its text, static when it is a known key.
#[derive(Clone)]
pub struct Key(Repr);

#[derive(Clone)]
enum Repr {
    Known(&'static Known),
    Owned(String),
}

// A key is no bigger than the `String` it replaces (the `Known` variant
// lives in the niche of the string's capacity).
const _: () = assert!(std::mem::size_of::<Key>() == std::mem::size_of::<String>());

impl Key {
    /// The key `s`, static if it is a known key (no allocation then).
    #[inline]
    pub fn new(s: &str) -> Key {
        match keyword::known(s) {
            Some(k) => Key(Repr::Known(k)),
            None => Key(Repr::Owned(s.to_string())),
        }
    }

    /// The key's text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Known(k) => k.name,
            Repr::Owned(s) => s,
        }
    }

    /// The JSON Schema keyword this key spells, if any (whether it is one
    /// where it stands is the walk's business: `crate::schema`).
    pub fn kw(&self) -> Option<Kw> {
        match &self.0 {
            Repr::Known(k) => k.kw,
            Repr::Owned(_) => None,
        }
    }

    /// The keyword this key spells and its static name, if any.
    pub fn keyword(&self) -> Option<(&'static str, Kw)> {
        match &self.0 {
            Repr::Known(k) => k.kw.map(|kw| (k.name, kw)),
            Repr::Owned(_) => None,
        }
    }

    /// A known key's text: plain ASCII that JSON writes as it is (no
    /// quote, backslash, control or non-ASCII byte: tested over the whole
    /// table), so the writer copies it without scanning it.
    pub fn known_plain(&self) -> Option<&'static str> {
        match &self.0 {
            Repr::Known(k) => Some(k.name),
            Repr::Owned(_) => None,
        }
    }

    /// One of 64 bits for the key, the same for equal keys (a known key's
    /// entry is one address; an owned key's bit is read from its length
    /// and its first and last bytes): a set of keys as a `u64`, for the
    /// parser's duplicate check.
    #[inline]
    pub(crate) fn bit(&self) -> u64 {
        let h = match &self.0 {
            Repr::Known(k) => std::ptr::from_ref::<Known>(k) as usize as u64,
            Repr::Owned(s) => {
                let b = s.as_bytes();
                let (first, last) = (b.first().copied().unwrap_or(0), b.last().copied().unwrap_or(0));
                (b.len() as u64) << 16 | u64::from(first) << 8 | u64::from(last)
            }
        };
        1 << (h.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The key's text as an owned string.
    pub fn into_string(self) -> String {
        match self.0 {
            Repr::Known(k) => k.name.to_string(),
            Repr::Owned(s) => s,
        }
    }
}

impl From<String> for Key {
    fn from(s: String) -> Key {
        match keyword::known(&s) {
            Some(k) => Key(Repr::Known(k)),
            None => Key(Repr::Owned(s)),
        }
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Key {
        Key::new(s)
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Key {
        Key::new(s)
    }
}

impl From<&Key> for Key {
    fn from(k: &Key) -> Key {
        k.clone()
    }
}

impl From<Key> for String {
    fn from(k: Key) -> String {
        k.into_string()
    }
}

impl Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Key {
    /// Two known keys are equal when they are the same entry (each spelling
    /// has one), and a known key never equals an owned one (every
    /// constructor interns): only two owned keys compare text. The parser's
    /// duplicate check compares every key of an object with the ones
    /// before it.
    fn eq(&self, other: &Key) -> bool {
        match (&self.0, &other.0) {
            (Repr::Known(a), Repr::Known(b)) => std::ptr::eq(*a, *b),
            (Repr::Owned(a), Repr::Owned(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Key {}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        self == other.as_str()
    }
}

impl PartialOrd for Key {
    fn partial_cmp(&self, other: &Key) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Key {
    fn cmp(&self, other: &Key) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Key {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_str().hash(h)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self.as_str(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_known_key_is_static_and_an_unknown_one_owned_whatever_the_constructor() {
        for k in [Key::new("properties"), Key::from("properties".to_string()), Key::from(&"properties".to_string())] {
            assert!(matches!(k.0, Repr::Known(_)));
            assert_eq!(k.kw(), Some(Kw::SchemaMap));
            assert_eq!(k, "properties");
        }
        for k in [Key::new("path"), Key::from("path".to_string())] {
            assert!(matches!(k.0, Repr::Owned(_)));
            assert_eq!(k.kw(), None);
            assert_eq!(k.as_str(), "path");
        }
        assert_eq!(Key::new("name").kw(), None);
        // Equality of keys is equality of their text, whatever their form.
        assert_eq!(Key::new("type"), Key::from("type".to_string()));
        assert_ne!(Key::new("type"), Key::new("title"));
        assert_ne!(Key::new("type"), Key::new("typ"));
        assert_eq!(Key::new("path"), Key::from("path".to_string()));
        assert_eq!(format!("{:?}", Key::new("type")), "\"type\"");
    }

    #[test]
    fn every_known_key_is_written_as_it_is() {
        // The writer copies `known_plain` without escaping: a table entry
        // needing an escape (or any non-ASCII byte, escaped in the served
        // form) would be written wrong.
        for k in keyword::ALL {
            let name = Key::new(k).known_plain().unwrap();
            assert!(name.bytes().all(|b| (0x20..0x7f).contains(&b) && b != b'"' && b != b'\\'), "{name:?}");
            let mut escaped = String::new();
            crate::json::write::write_str(&mut escaped, name, true);
            assert_eq!(escaped, format!("\"{name}\""));
        }
        assert_eq!(Key::new("path").known_plain(), None);
    }

    #[test]
    fn every_known_keyword_has_the_kind_the_string_lookup_gives() {
        for k in keyword::ALL {
            assert_eq!(Key::new(k).kw(), crate::schema::keyword(k), "{k}");
        }
    }
}
