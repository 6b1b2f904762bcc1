//! Per-tool bookkeeping shared by the stages: what we found, whether the
//! tool is hidden, and the text kept aside for the detector.

use crate::finding::{Action, Finding, FindingKind, Severity};
use crate::json::{for_each_text, Path, Value};
use crate::policy::ServerPolicy;

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
    /// Text a reader never sees that the sanitizer took out (decoded Unicode
    /// tag characters, markup a renderer hides): read by the detector like
    /// `extra_text`, and a rule hit in it is concealed on purpose — a signal
    /// of its own (`stages::poisoning`). (pointer, text).
    pub concealed_text: Vec<(String, String)>,
    /// Pointers of fields whose whitespace padding was collapsed.
    pub padding: Vec<String>,
    /// `/tools/<index>`, written once: every stage starts its pointers with
    /// it (formatting it per call cost ~10 format calls per tool). Shared:
    /// each stage takes its own handle (a copy per stage and tool cost an
    /// allocation and a free each).
    base: std::rc::Rc<str>,
    /// The input schema as it was before the dialect stage rewrote it: the
    /// call gate validates arguments against this (the server's contract),
    /// not against the dialect's approximation.
    pub call_schema: Option<crate::json::Value>,
    /// False when the tool's text as received cannot hold the key
    /// `x-mcp-header` (set by the pipeline from the raw bytes): the limits
    /// stage then skips the walk that checks every such annotation.
    pub may_have_mcp_header: bool,
    /// A pointer buffer the stages' walks borrow (`take_path`), handed from
    /// tool to tool by the pipeline: a `Path` per stage and tool was an
    /// allocation and a free each.
    pub path_buf: String,
    /// The verdicts of the `pattern`s (and `patternProperties` keys) this
    /// catalog's tools had checked (`stages::limits`), handed from tool to
    /// tool like `path_buf`: a catalog repeats its patterns (merged servers,
    /// shared parameter types), and a check parses and translates the
    /// expression (~100,000 instructions and more each).
    pub patterns: Vec<(String, crate::pattern::Verdict)>,
}

/// `/tools/<index>` as an `Rc<str>`, spelled on the stack: `format!` and
/// then `into()` made two allocations and the formatting machinery's
/// work for every tool of every catalog.
fn tool_base(index: u32) -> std::rc::Rc<str> {
    let mut buf = *b"/tools/0000000000";
    let mut at = buf.len();
    let mut n = index;
    loop {
        at -= 1;
        buf[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    buf.copy_within(at.., 7);
    let len = 7 + (buf.len() - at);
    std::rc::Rc::from(std::str::from_utf8(&buf[..len]).unwrap_or("/tools"))
}

impl<'a> ToolCtx<'a> {
    /// Collects the strings of a value an earlier stage dropped so the
    /// poisoning detector can still read them (bounded: 64 KiB per tool).
    pub fn keep_dropped_text(&mut self, v: &Value, pointer: &str) {
        if self.policy.poisoning.mode == crate::policy::PoisoningMode::Off {
            return;
        }
        let mut budget = (64 * 1024usize).saturating_sub(self.extra_text.iter().map(|(_, t)| t.len()).sum());
        let mut path = Path::new(pointer);
        let out = &mut self.extra_text;
        for_each_text(v, &mut path, &mut |s, p, is_key| {
            let long_enough = if is_key { s.len() >= 12 } else { s.len() >= 8 };
            if long_enough && s.len() <= budget {
                budget -= s.len();
                out.push((p.as_str().to_string(), s.to_string()));
            }
        });
    }

    pub fn new(index: u32, name: Option<String>, policy: &'a ServerPolicy, server: Option<&'a str>) -> Self {
        ToolCtx {
            index,
            base: tool_base(index),
            name,
            policy,
            server,
            findings: Vec::new(),
            hidden: None,
            rewritten: false,
            truncated: false,
            flagged: false,
            extra_text: Vec::new(),
            concealed_text: Vec::new(),
            padding: Vec::new(),
            call_schema: None,
            may_have_mcp_header: true,
            path_buf: String::new(),
            patterns: Vec::new(),
        }
    }

    /// A `Path` at `base` in the shared buffer; `give_path` returns it.
    pub fn take_path(&mut self, base: &str) -> crate::json::Path {
        crate::json::Path::reusing(std::mem::take(&mut self.path_buf), base)
    }
    pub fn give_path(&mut self, p: crate::json::Path) {
        self.path_buf = p.into_buf();
    }

    /// The tool's pointer, `/tools/<index>`.
    pub fn base(&self) -> std::rc::Rc<str> {
        self.base.clone()
    }

    /// `base` + `tail` (a pointer's rest, already escaped), in one
    /// allocation of its size: `format!("{base}/inputSchema")` went through
    /// the formatting machinery for every tool (~600 instructions).
    pub fn pointer(&self, tail: &str) -> String {
        let mut p = String::with_capacity(self.base.len() + tail.len());
        p.push_str(&self.base);
        p.push_str(tail);
        p
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
    #[test]
    fn tool_base_spells_every_index_as_format_does() {
        for i in [0u32, 7, 9, 10, 99, 100, 867, 12_345, 999_999_999, 1_000_000_000, u32::MAX] {
            assert_eq!(&*super::tool_base(i), format!("/tools/{i}"));
        }
    }
}
