//! Per-tool bookkeeping shared by the stages: where we are (a JSON pointer
//! built incrementally), what we found, and whether the tool is hidden.

use crate::finding::{Action, Finding, FindingKind, Severity};
use crate::policy::ServerPolicy;

/// An RFC 6901 pointer grown and shrunk in place while walking, so no string
/// is built per node; one is cloned only when a finding is reported.
#[derive(Clone, Debug, Default)]
pub struct Path(String);

impl Path {
    pub fn new(base: &str) -> Path {
        Path(base.to_string())
    }
    /// Appends a token; returns the length to restore with `pop_to`.
    pub fn push(&mut self, token: &str) -> usize {
        let mark = self.0.len();
        self.0.push('/');
        if crate::json::needs_escape(token) {
            self.0.push_str(&crate::json::pointer_token(token));
        } else {
            self.0.push_str(token);
        }
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
        crate::json::pointer_push(&self.0, token)
    }
}

/// Visits every string value and every object key under `v`, depth-first in
/// document order. A key is reported (`is_key = true`) at the pointer of the
/// value it names. The one walker for stages that judge text wherever it
/// stands (server-facing values, the poisoning detector, text kept aside).
pub fn for_each_text(v: &crate::json::Value, path: &mut Path, f: &mut dyn FnMut(&str, &Path, bool)) {
    use crate::json::Value;
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

/// State of one tool going through the pipeline.
pub struct ToolCtx<'a> {
    pub index: u32,
    /// Upstream name as received, if it is a string.
    pub name: Option<String>,
    pub policy: &'a ServerPolicy,
    pub server: Option<&'a str>,
    pub findings: Vec<Finding>,
    /// Set by the first finding that hides the tool.
    pub hidden: Option<(FindingKind, String)>,
    pub rewritten: bool,
    pub truncated: bool,
    pub flagged: bool,
    /// Text removed by earlier stages that the poisoning detector must still
    /// read (decoded tag characters, stripped HTML comments, dropped `_meta`):
    /// (pointer, text).
    pub extra_text: Vec<(String, String)>,
    /// Pointers of fields whose whitespace padding was collapsed.
    pub padding: Vec<String>,
    /// The input schema as it was before the dialect stage rewrote it: the
    /// call gate validates arguments against this (the server's contract),
    /// not against the dialect's approximation.
    pub call_schema: Option<crate::json::Value>,
}

impl<'a> ToolCtx<'a> {
    pub fn new(index: u32, name: Option<String>, policy: &'a ServerPolicy, server: Option<&'a str>) -> Self {
        ToolCtx {
            index,
            name,
            policy,
            server,
            findings: Vec::new(),
            hidden: None,
            rewritten: false,
            truncated: false,
            flagged: false,
            extra_text: Vec::new(),
            padding: Vec::new(),
            call_schema: None,
        }
    }

    pub fn base(&self) -> String {
        format!("/tools/{}", self.index)
    }

    pub fn report(&mut self, kind: FindingKind, severity: Severity, pointer: String, action: Action, detail: String) {
        match action {
            Action::Hidden => {
                if self.hidden.is_none() {
                    self.hidden = Some((kind, detail.clone()));
                }
            }
            Action::Truncated => self.truncated = true,
            Action::Flagged => self.flagged = true,
            Action::Removed | Action::Rewritten | Action::Mapped => self.rewritten = true,
        }
        self.findings.push(Finding {
            kind,
            severity,
            tool: self.name.clone(),
            tool_index: Some(self.index),
            pointer,
            action,
            detail,
        });
    }

    pub fn hide(&mut self, kind: FindingKind, severity: Severity, pointer: String, detail: String) {
        self.report(kind, severity, pointer, Action::Hidden, detail);
    }

    pub fn is_hidden(&self) -> bool {
        self.hidden.is_some()
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
