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
