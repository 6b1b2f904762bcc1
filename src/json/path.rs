//! JSON pointers built while walking a document, and the one walker over
//! every string and key of a value. Below every stage and the detector:
//! they only need JSON.

use super::Value;

/// An RFC 6901 pointer grown and shrunk in place while walking, so no string
/// is built per node; one is cloned only when a finding is reported.
#[derive(Clone, Debug, Default)]
pub struct Path(String);

impl Path {
    pub fn new(base: &str) -> Path {
        // Room for a few levels below `base` up front: a walk pushes onto
        // it at once, and growing from an exact-size copy reallocated it
        // for nearly every walk (24,000 times a run on the real corpus).
        Path::reusing(String::with_capacity(base.len() + 64), base)
    }
    /// `new`, in a buffer kept from an earlier walk (`into_buf`): the
    /// pipeline hands one from tool to tool instead of allocating one per
    /// stage and tool.
    pub fn reusing(mut buf: String, base: &str) -> Path {
        buf.clear();
        buf.push_str(base);
        Path(buf)
    }
    /// The buffer, for `reusing`.
    pub fn into_buf(self) -> String {
        self.0
    }
    /// Appends a token; returns the length to restore with `pop_to`.
    pub fn push(&mut self, token: &str) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        if super::needs_escape(token) {
            self.0.push_str(&super::pointer_token(token));
        } else {
            self.0.push_str(token);
        }
        mark
    }
    /// `push` of a token known to need no escaping (a schema keyword, as a
    /// walk pushes one above every subschema): no scan for `~` and `/`.
    pub fn push_plain(&mut self, token: &str) -> usize {
        debug_assert!(!super::needs_escape(token));
        let mark = self.0.len();
        self.0.push('/');
        self.0.push_str(token);
        mark
    }
    pub fn push_index(&mut self, i: usize) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        // Digits by hand: the formatting machinery costs more than the rest
        // of a walk's step, and every array item takes one.
        let mut digits = [0u8; 20];
        let mut at = digits.len();
        let mut n = i;
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        self.0.push_str(std::str::from_utf8(&digits[at..]).unwrap_or_default());
        mark
    }
    pub fn pop_to(&mut self, mark: usize) {
        self.0.truncate(mark);
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
    /// Pointer to `token` below the current location, without moving.
    pub fn child(&self, token: &str) -> String {
        super::pointer_push(&self.0, token)
    }
}

/// Visits every string value and every object key under `v`, depth-first in
/// document order. A key is reported (`is_key = true`) at the pointer of the
/// value it names. The one walker for stages that judge text wherever it
/// stands (server-facing values, the poisoning detector, text kept aside).
pub fn for_each_text(v: &Value, path: &mut Path, f: &mut dyn FnMut(&str, &Path, bool)) {
    match v {
        Value::String(s) => f(s, path, false),
        Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                let m = path.push_index(i);
                for_each_text(x, path, f);
                path.pop_to(m);
            }
        }
        Value::Object(o) => {
            for (k, x) in o.iter() {
                let m = path.push(k);
                f(k, path, true);
                for_each_text(x, path, f);
                path.pop_to(m);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::Path;

    #[test]
    fn path_tokens_are_escaped_and_indices_written_in_decimal() {
        let mut p = Path::new("/tools/0");
        let m = p.push("a/b~c");
        assert_eq!(p.as_str(), "/tools/0/a~1b~0c");
        p.pop_to(m);
        for (i, want) in [(0, "/0"), (7, "/7"), (10, "/10"), (123_456, "/123456"), (u32::MAX as usize, "/4294967295")] {
            let m = p.push_index(i);
            assert_eq!(&p.as_str()["/tools/0".len()..], want);
            p.pop_to(m);
        }
        assert_eq!(p.as_str(), "/tools/0");
    }
}
