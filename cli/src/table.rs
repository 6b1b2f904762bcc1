//! `--format table`: the human report.
//!
//! ```text
//! cat.json: 3 tools: 1 clean, 1 rewritten, 0 truncated, 1 hidden, 0 flagged
//!
//! #1 search_docs  rewritten
//!   high    invisible-removed  removed  /tools/1/description  3 invisible …
//!
//! 2 findings (0 critical, 2 high, 0 medium, 0 low, 0 info)
//! FAIL: 2 findings at or above medium, 1 tool hidden (exit 1)
//! ```
//!
//! Everything from the catalog goes through `term::escape` before it is
//! printed, colored or not.

use crate::report::Report;
use crate::term::{escape, severity_sgr, status_sgr, Style};
use mcp_guard::{Finding, ToolStatus};
use std::fmt::Write as _;

/// Pointers longer than this do not widen the column for everyone else.
const MAX_POINTER_COLUMN: usize = 44;

pub fn render(r: &Report, style: Style) -> String {
    let o = r.outcome;
    let mut out = String::new();
    let _ = writeln!(out, "{}", style.paint(&r.header(), "1"));

    let rows: Vec<Row> = o.findings.iter().map(Row::new).collect();
    let w = Widths::of(&rows);

    let result_level: Vec<&Row> = rows.iter().filter(|x| x.finding.tool_index.is_none()).collect();
    if !result_level.is_empty() {
        let _ = writeln!(out, "\n{}", style.paint("result (envelope)", "1"));
        for row in result_level {
            row.write(&mut out, &w, style);
        }
    }

    for t in &o.tools {
        let mine: Vec<&Row> = rows.iter().filter(|x| x.finding.tool_index == Some(t.index)).collect();
        if mine.is_empty() {
            continue;
        }
        let name = match &t.name {
            Some(n) => escape(n),
            None => "(no string name)".to_string(),
        };
        let _ = write!(out, "\n{} {}", style.paint(&format!("#{}", t.index), "2"), style.paint(&name, "1"));
        if let Some(v) = t.visible_name.as_ref().filter(|v| Some(*v) != t.name.as_ref()) {
            let _ = write!(out, " → {}", style.paint(&escape(v), "1"));
        }
        let mut status = t.status.id().to_string();
        if t.status == ToolStatus::Hidden {
            if let Some(h) = o.hidden.iter().find(|h| h.index == t.index) {
                let _ = write!(status, " ({})", h.reason.id());
            }
        }
        if t.flagged {
            status.push_str(", flagged");
        }
        let _ = writeln!(out, "  {}", style.paint(&status, status_sgr(t.status)));
        for row in mine {
            row.write(&mut out, &w, style);
        }
    }

    // Findings whose tool index matches no report (not produced by today's
    // engine, but never drop a finding from the report).
    let orphans: Vec<&Row> =
        rows.iter().filter(|x| x.finding.tool_index.is_some_and(|i| !o.tools.iter().any(|t| t.index == i))).collect();
    if !orphans.is_empty() {
        let _ = writeln!(out, "\n{}", style.paint("other", "1"));
        for row in orphans {
            row.write(&mut out, &w, style);
        }
    }

    let c = r.counts();
    let _ = writeln!(out, "\n{}", r.findings_line());
    let fail_on = r.fail_on.id();
    let verdict = if r.exit_code() == 0 {
        style.paint(&format!("OK: no finding at or above {fail_on}, no tool hidden"), "32")
    } else {
        let s = |n: usize| if n == 1 { "" } else { "s" };
        style.paint(
            &format!(
                "FAIL: {} finding{} at or above {fail_on}, {} tool{} hidden (exit 1)",
                c.failing,
                s(c.failing),
                c.hidden,
                s(c.hidden)
            ),
            "1;31",
        )
    };
    let _ = writeln!(out, "{verdict}");
    out
}

/// One finding, escaped once.
struct Row<'a> {
    finding: &'a Finding,
    kind: &'static str,
    action: &'static str,
    pointer: String,
    detail: String,
}

impl<'a> Row<'a> {
    fn new(f: &'a Finding) -> Row<'a> {
        Row {
            finding: f,
            kind: f.kind.id(),
            action: f.action.id(),
            pointer: escape(if f.pointer.is_empty() { "(root)" } else { &f.pointer }),
            detail: escape(&f.detail),
        }
    }

    fn write(&self, out: &mut String, w: &Widths, style: Style) {
        let sev = self.finding.severity;
        let _ = writeln!(
            out,
            "  {}  {}  {}  {}  {}",
            style.paint(&pad(sev.id(), 8), severity_sgr(sev)),
            pad(self.kind, w.kind),
            pad(self.action, w.action),
            style.paint(&pad(&self.pointer, w.pointer), "2"),
            highlight(&self.detail, style)
        );
    }
}

/// The poisoning detector marks the text a rule matched as `«…»`; on a
/// terminal that span is shown in bold red (the marks stay in plain output,
/// so a pipe or a log still shows where the match is).
fn highlight(detail: &str, style: Style) -> String {
    let (Some(a), Some(b)) = (detail.find('«'), detail.rfind('»')) else { return detail.to_string() };
    if !style.color || b < a {
        return detail.to_string();
    }
    let inner = &detail[a + '«'.len_utf8()..b];
    format!("{}{}{}", &detail[..a], style.paint(inner, "1;31"), &detail[b + '»'.len_utf8()..])
}

struct Widths {
    kind: usize,
    action: usize,
    pointer: usize,
}

impl Widths {
    fn of(rows: &[Row]) -> Widths {
        let max = |f: &dyn Fn(&Row) -> usize| rows.iter().map(f).max().unwrap_or(0);
        Widths {
            kind: max(&|r| r.kind.len()),
            action: max(&|r| r.action.len()),
            pointer: max(&|r| r.pointer.chars().count()).min(MAX_POINTER_COLUMN),
        }
    }
}

fn pad(s: &str, width: usize) -> String {
    let n = s.chars().count();
    if n >= width {
        s.to_string()
    } else {
        format!("{s}{}", " ".repeat(width - n))
    }
}
