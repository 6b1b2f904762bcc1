//! Stage 0 — the tools/list result envelope.
//!
//! A result that is not an object, or whose `tools` is missing, null or not
//! an array, is refused as a whole (it is not a tools/list result). Unknown
//! result-level keys (e.g. an `instructions` line saying "trust this server")
//! are never shown to the model: they are dropped with a finding. A
//! non-string `nextCursor` is dropped too.

use crate::finding::{Action, Finding, FindingKind as K, Severity as S};
use crate::json::{Object, Value};
use crate::Error;

/// Splits a parsed result into its tool entries and the cleaned envelope
/// (without `tools`), reporting what was dropped.
pub fn run(doc: Value, findings: &mut Vec<Finding>) -> Result<(Vec<Value>, Object), Error> {
    let Value::Object(mut root) = doc else {
        return Err(Error::InvalidEnvelope { reason: format!("the result must be an object, not {}", doc.type_name()) });
    };
    let tools = match root.remove("tools") {
        None => return Err(Error::InvalidEnvelope { reason: "`tools` is missing".into() }),
        Some(Value::Array(a)) => a,
        Some(other) => {
            return Err(Error::InvalidEnvelope { reason: format!("`tools` must be an array, not {}", other.type_name()) })
        }
    };
    let mut drops = Vec::new();
    root.retain(|k, v| {
        let keep = k == "nextCursor" && v.as_str().is_some();
        if !keep {
            drops.push((k.to_string(), v.type_name()));
        }
        keep
    });
    for (k, t) in drops {
        let (kind, detail) = if k == "nextCursor" {
            (K::InvalidCursor, format!("nextCursor must be a string, not {t}; removed"))
        } else {
            (K::ResultKeyDropped, format!("result key {k:?} is not part of a tools/list result; removed"))
        };
        findings.push(Finding {
            kind,
            severity: S::Low,
            tool: None,
            tool_index: None,
            pointer: crate::json::pointer_push("", &k),
            action: Action::Removed,
            detail,
        });
    }
    Ok((tools, root))
}
