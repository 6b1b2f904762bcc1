//! What `check` knows about one run, shared by the three output formats.

use mcp_guard::{Outcome, Severity, ToolStatus};

pub const SEVERITIES: [Severity; 5] =
    [Severity::Critical, Severity::High, Severity::Medium, Severity::Low, Severity::Info];

/// One engine run and how to judge it.
pub struct Report<'a> {
    /// The catalog path as given (`<stdin>` for `-`). Untrusted for a
    /// terminal only in theory; it is escaped anyway.
    pub path: &'a str,
    /// The catalog text (SARIF regions are computed from it).
    pub input: &'a str,
    pub outcome: &'a Outcome,
    pub fail_on: Severity,
}

/// Tool and finding counts for the header line and `summary`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    pub tools: usize,
    pub clean: usize,
    pub rewritten: usize,
    pub truncated: usize,
    pub hidden: usize,
    /// Tools with at least one report-only finding.
    pub flagged: usize,
    pub findings: usize,
    /// Indexed like `SEVERITIES`.
    pub by_severity: [usize; 5],
    /// Findings at or above `fail_on`.
    pub failing: usize,
}

impl Report<'_> {
    pub fn counts(&self) -> Counts {
        let mut c =
            Counts { tools: self.outcome.tools.len(), findings: self.outcome.findings.len(), ..Counts::default() };
        for t in &self.outcome.tools {
            match t.status {
                ToolStatus::Clean => c.clean += 1,
                ToolStatus::Rewritten => c.rewritten += 1,
                ToolStatus::Truncated => c.truncated += 1,
                ToolStatus::Hidden => c.hidden += 1,
            }
            c.flagged += t.flagged as usize;
        }
        for f in &self.outcome.findings {
            if let Some(i) = SEVERITIES.iter().position(|s| *s == f.severity) {
                c.by_severity[i] += 1;
            }
            c.failing += (f.severity >= self.fail_on) as usize;
        }
        c
    }

    /// 1 when a finding reaches `--fail-on` or any tool is hidden (a hidden
    /// tool is a changed catalog surface whatever its finding's severity).
    pub fn exit_code(&self) -> u8 {
        let c = self.counts();
        if c.failing > 0 || c.hidden > 0 {
            1
        } else {
            0
        }
    }

    /// `PATH: N tools: X clean, Y rewritten, Z truncated, W hidden, F flagged`.
    pub fn header(&self) -> String {
        let c = self.counts();
        format!(
            "{}: {} tool{}: {} clean, {} rewritten, {} truncated, {} hidden, {} flagged",
            crate::term::escape(self.path),
            c.tools,
            if c.tools == 1 { "" } else { "s" },
            c.clean,
            c.rewritten,
            c.truncated,
            c.hidden,
            c.flagged
        )
    }

    /// `N findings (a critical, b high, …)`.
    pub fn findings_line(&self) -> String {
        let c = self.counts();
        let parts: Vec<String> = SEVERITIES.iter().zip(c.by_severity).map(|(s, n)| format!("{n} {}", s.id())).collect();
        format!("{} finding{} ({})", c.findings, if c.findings == 1 { "" } else { "s" }, parts.join(", "))
    }
}
