//! The `dialect` stage — schema dialect (`core.schema_dialect`), after the
//! metadata controls (the normalized schema is built from cleaned, bounded,
//! judged text) and before names (a dialect's tool-name rule feeds the name
//! mapping). The normalizer itself is `crate::dialect`; this stage applies it
//! to a tool's schemas and turns its changes into findings.

use crate::ctx::ToolCtx;
use crate::dialect;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::Object;
use crate::policy::Dialect;

pub fn run(tool: &mut Object, cx: &mut ToolCtx) {
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let target = pol.dialect.target;
    if target == Dialect::None {
        return;
    }
    let base = cx.base();
    for key in ["inputSchema", "outputSchema"] {
        let Some(schema) = tool.get(key) else { continue };
        let ptr = format!("{base}/{key}");
        match dialect::normalize(schema, target, pol.dialect.max_ref_depth, pol.limits.max_nodes) {
            Ok(n) => {
                for c in n.changes {
                    cx.report(c.kind, c.severity, format!("{ptr}{}", c.pointer), c.action, c.detail);
                }
                if key == "inputSchema" && !n.schema.schema_eq(schema) {
                    cx.call_schema = Some(schema.clone());
                }
                tool.insert(key, n.schema);
            }
            Err(why) if key == "inputSchema" => {
                cx.hide(K::DialectUnsupported, S::Medium, ptr, format!("cannot be expressed for {}: {why}", target.id()));
                return;
            }
            Err(why) => {
                tool.remove(key);
                cx.report(
                    K::DialectUnsupported,
                    S::Low,
                    ptr,
                    Action::Removed,
                    format!("outputSchema removed: cannot be expressed for {}: {why}", target.id()),
                );
            }
        }
    }
}

/// Maps a name the target rejects to one it accepts: disallowed characters
/// become `_`, a leading character Gemini rejects gets a `_` prefix, and the
/// result is cut to 64. (Collisions are resolved by the name stage.)
pub fn fix_name(name: &str, target: Dialect) -> String {
    let keep = |c: char| match target {
        Dialect::Gemini => c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'),
        _ => c.is_ascii_alphanumeric() || matches!(c, '_' | '-'),
    };
    let mut out: String = name.chars().map(|c| if keep(c) { c } else { '_' }).collect();
    if matches!(target, Dialect::Gemini | Dialect::Portable) && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if out.is_empty() {
        out.push_str("tool");
    }
    out.truncate(64);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_names_pass_the_dialect_rule() {
        for t in [Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable] {
            for n in ["tool.sub", "9lives", "a:b", &"x".repeat(100), "ok_name-1"] {
                let f = fix_name(n, t);
                assert!(dialect::tool_name_ok(&f, t), "{n} -> {f} for {}", t.id());
            }
        }
    }
}
