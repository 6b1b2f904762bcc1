//! `--format json`: one object with the whole outcome, written by the
//! engine's own deterministic JSON writer (keys in the order built here).
//!
//! Strings are exact (the writer escapes `"`, `\` and C0 controls); a
//! consumer that prints them to a terminal must escape them itself.

use crate::report::{Report, SEVERITIES};
use mcp_guard::json::{Number, Object, Value};
use mcp_guard::{Finding, HiddenTool, NameMapping, ToolReport};

/// Object and string builders: the engine's, shared with every host.
pub use mcp_guard::jsonrpc::{obj, s};

pub fn n(x: u64) -> Value {
    Value::Number(Number::from_u64(x))
}

pub fn opt_s(x: Option<&str>) -> Value {
    x.map_or(Value::Null, s)
}

/// A finding as JSON: the engine's form, shared with the proxy's log lines.
pub fn finding(f: &Finding) -> Value {
    mcp_guard::mediate::finding_value(f)
}

fn tool(t: &ToolReport) -> Value {
    obj([
        ("index", n(t.index.into())),
        ("name", opt_s(t.name.as_deref())),
        ("visible_name", opt_s(t.visible_name.as_deref())),
        ("status", s(t.status.id())),
        ("flagged", Value::Bool(t.flagged)),
        ("raw_span", obj([("start", n(t.raw_span.0)), ("end", n(t.raw_span.1))])),
    ])
}

fn hidden(h: &HiddenTool) -> Value {
    obj([
        ("index", n(h.index.into())),
        ("name", opt_s(h.name.as_deref())),
        ("reason", s(h.reason.id())),
        ("detail", s(&h.detail)),
    ])
}

fn mapping(m: &NameMapping) -> Value {
    obj([("visible", s(&m.visible)), ("upstream", s(&m.upstream))])
}

pub fn render(r: &Report) -> String {
    let o = r.outcome;
    let c = r.counts();
    let mut by_severity = Object::new();
    for (sev, count) in SEVERITIES.iter().zip(c.by_severity) {
        by_severity.insert(sev.id(), n(count as u64));
    }
    let doc = obj([
        ("catalog_path", s(r.path)),
        ("engine_version", s(mcp_guard::ENGINE_VERSION)),
        (
            "summary",
            obj([
                ("tools", n(c.tools as u64)),
                ("clean", n(c.clean as u64)),
                ("rewritten", n(c.rewritten as u64)),
                ("truncated", n(c.truncated as u64)),
                ("hidden", n(c.hidden as u64)),
                ("flagged", n(c.flagged as u64)),
                ("findings", n(c.findings as u64)),
                ("by_severity", Value::Object(by_severity)),
                ("fail_on", s(r.fail_on.id())),
                ("failing", n(c.failing as u64)),
                ("exit_code", n(r.exit_code().into())),
            ]),
        ),
        ("tools", Value::Array(o.tools.iter().map(tool).collect())),
        ("findings", Value::Array(o.findings.iter().map(finding).collect())),
        ("hidden", Value::Array(o.hidden.iter().map(hidden).collect())),
        ("name_map", Value::Array(o.name_map.iter().map(mapping).collect())),
    ]);
    let mut text = mcp_guard::json::write_pretty(&doc);
    text.push('\n');
    text
}
