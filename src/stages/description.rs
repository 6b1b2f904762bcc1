//! The `description` stage — description policy (`core.tool_description_policy`:
//! preserve | truncate | strip | placeholder). Applies to the tool description
//! **and every nested schema `description`**: otherwise an upstream could move
//! the same prose into a property description and bypass the policy.

use crate::ctx::ToolCtx;
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{Object, Value};
use crate::policy::DescriptionMode;
use crate::schema;

pub fn run(tool: &mut Object, cx: &mut ToolCtx) {
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let dp = &pol.description;
    if dp.mode == DescriptionMode::Preserve {
        return;
    }
    let base = cx.base();
    let marker = pol.sanitization.truncation_marker.as_str();
    let max = dp.max_chars.max(marker.chars().count() as u32 + 1);
    let ptr = format!("{base}/description");
    match dp.mode {
        DescriptionMode::Preserve => {}
        DescriptionMode::Truncate => {
            if let Some(Value::String(s)) = tool.get_mut("description") {
                if let Some((t, cut)) = crate::text::truncate(s, max, marker) {
                    *s = t;
                    cx.report(K::DescriptionTruncated, S::Info, ptr, Action::Truncated, format!("{cut} character(s) cut by policy"));
                }
            }
        }
        DescriptionMode::Strip => {
            if tool.remove("description").is_some() {
                cx.report(K::DescriptionStripped, S::Info, ptr, Action::Removed, "description removed by policy".into());
            }
        }
        DescriptionMode::Placeholder => {
            let name = cx.name.clone().unwrap_or_default();
            let text = match cx.server {
                Some(server) => format!("MCP tool '{name}' from server '{server}'."),
                None => format!("MCP tool '{name}'."),
            };
            tool.insert("description", Value::String(text));
            cx.report(
                K::DescriptionReplaced,
                S::Info,
                ptr,
                Action::Rewritten,
                "description replaced by the neutral placeholder".into(),
            );
        }
    }
    let mut path = Path::new(&base);
    for key in ["inputSchema", "outputSchema"] {
        let Some(sch) = tool.get_mut(key) else { continue };
        let m = path.push(key);
        schema::walk_mut(sch, &mut path, 1, &mut |node, p, _| {
            let Value::Object(o) = node else { return true };
            let ptr = p.child("description");
            match dp.mode {
                DescriptionMode::Truncate => {
                    if let Some(Value::String(s)) = o.get_mut("description") {
                        if let Some((t, cut)) = crate::text::truncate(s, max, marker) {
                            *s = t;
                            cx.report(K::DescriptionTruncated, S::Info, ptr, Action::Truncated, format!("{cut} character(s) cut by policy"));
                        }
                    }
                }
                DescriptionMode::Strip | DescriptionMode::Placeholder => {
                    if o.remove("description").is_some() {
                        cx.report(K::DescriptionStripped, S::Info, ptr, Action::Removed, "schema description removed by policy".into());
                    }
                }
                DescriptionMode::Preserve => {}
            }
            true
        });
        path.pop_to(m);
    }
}
