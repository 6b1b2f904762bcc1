//! The call gate: a `tools/call` is decided against the session state alone.
//!
//! A call reaches the server only for a tool on the session's callable
//! surface, under its upstream name, with arguments mapped back from the
//! dialect and valid for the server's own schema. Everything else is refused
//! with a typed reason — including a name that only *looks* like a callable
//! one (case, homoglyphs, fullwidth forms: the same UTS #39 skeleton the name
//! stage uses), so a hidden `send_email` cannot be reached as `Send_Email`.

use super::state::{Baseline, CallableState};
use crate::dialect::{self, Violation};
use crate::json::{self, ParseOptions, Value};
use crate::stages::names::{confusable_keys, looks_alike};

/// Why a call was refused. Ids are stable API.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalReason {
    /// The session was closed by drift (`error` + `invalidate`).
    SessionInvalidated,
    /// The engine hid this tool from the client (sanitization, poisoning,
    /// limits, names…).
    HiddenTool,
    /// The tool drifted (changed or removed) and is revoked for the session.
    DriftedTool,
    /// Not the visible name of any callable tool, but looks like one.
    ConfusableName,
    /// Never listed to this session.
    UnknownTool,
    /// The arguments are not a JSON object, or do not fit the tool's schema.
    InvalidArguments,
    /// Changed since approved, or new, under `quarantine`: held back until
    /// a person approves it.
    Quarantined,
}

impl RefusalReason {
    pub fn id(self) -> &'static str {
        match self {
            RefusalReason::SessionInvalidated => "session-invalidated",
            RefusalReason::HiddenTool => "hidden-tool",
            RefusalReason::DriftedTool => "drifted-tool",
            RefusalReason::ConfusableName => "confusable-name",
            RefusalReason::UnknownTool => "unknown-tool",
            RefusalReason::InvalidArguments => "invalid-arguments",
            RefusalReason::Quarantined => "quarantined",
        }
    }
}

/// A call allowed through.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AllowedCall {
    /// Send the call under this name.
    pub upstream: String,
    /// The arguments to forward (compact JSON), mapped back from the dialect;
    /// `None` when the call had none.
    pub arguments: Option<String>,
    /// Set when the tool is served despite drift (`warn`).
    pub warning: Option<String>,
}

/// A refused call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallRefusal {
    pub reason: RefusalReason,
    /// One line for the client and the log.
    pub message: String,
    /// For `invalid-arguments`: every violation, pointers into the arguments.
    pub violations: Vec<Violation>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CallDecision {
    Allow(AllowedCall),
    Refuse(CallRefusal),
    /// A discovery meta-tool the engine answers itself: reply to the client
    /// with this `CallToolResult` (JSON text); nothing goes upstream.
    Respond(String),
}

fn refuse(reason: RefusalReason, message: String) -> CallDecision {
    CallDecision::Refuse(CallRefusal { reason, message, violations: Vec::new() })
}

/// Decides a `tools/call` of `name` with `arguments` (the JSON text of the
/// call's `arguments`, `None` when absent) in the session `baseline`.
pub fn check_call(baseline: &Baseline, name: &str, arguments: Option<&str>) -> CallDecision {
    if let Some(why) = &baseline.invalidated {
        return refuse(RefusalReason::SessionInvalidated, format!("this session was closed: {why}"));
    }
    if let Some(d) = crate::discovery::answer(baseline, name, arguments) {
        return d;
    }
    let Some(tool) = baseline.surface.iter().find(|c| c.name == name) else {
        return not_callable(baseline, name);
    };
    let schema = match &tool.schema {
        Some(s) => s,
        None => match baseline.pin(name).and_then(|p| p.def.as_object()).and_then(|d| d.get("inputSchema")) {
            Some(s) => s,
            None => return refuse(RefusalReason::UnknownTool, format!("no schema is on record for tool {name:?}")),
        },
    };
    let args = match arguments {
        None => None,
        Some(text) => match json::parse(text, ParseOptions::default()) {
            Ok(p) if matches!(p.value, Value::Object(_)) => Some(p.value),
            Ok(p) if p.value == Value::Null => None,
            Ok(p) => {
                return refuse(RefusalReason::InvalidArguments, format!("arguments must be a JSON object, not {}", p.value.type_name()))
            }
            Err(e) => return refuse(RefusalReason::InvalidArguments, format!("arguments are not valid JSON: {e}")),
        },
    };
    let given = args.is_some();
    let value = args.unwrap_or_else(|| Value::Object(json::Object::new()));
    let coerced = match dialect::coerce_arguments(schema, baseline.dialect, &value) {
        Ok(v) => v,
        Err(violations) => {
            let first = violations.first().map(|v| format!(": {} at {:?}", v.reason, v.pointer)).unwrap_or_default();
            return CallDecision::Refuse(CallRefusal {
                reason: RefusalReason::InvalidArguments,
                message: format!("arguments for {name:?} do not fit its input schema ({} violation(s)){first}", violations.len()),
                violations,
            });
        }
    };
    let warning = match tool.state {
        CallableState::Changed => Some(format!("tool {name:?} changed since the session's baseline")),
        CallableState::New => Some(format!("tool {name:?} was not in the session's baseline")),
        CallableState::Pinned | CallableState::Unpinned => None,
    };
    CallDecision::Allow(AllowedCall {
        upstream: tool.upstream.clone(),
        arguments: (given || coerced != value).then(|| json::write_compact(&coerced)),
        warning,
    })
}

/// The most specific reason a name is not callable.
fn not_callable(b: &Baseline, name: &str) -> CallDecision {
    // Before the drift check: a quarantined tool that changed still has a pin.
    if b.quarantined.iter().any(|q| q == name) {
        return refuse(
            RefusalReason::Quarantined,
            format!("tool {name:?} changed or is new since its definition was approved and is quarantined until approved (mcp-guard pins approve)"),
        );
    }
    if b.revoked.iter().any(|r| r == name) || b.pin(name).is_some() {
        return refuse(RefusalReason::DriftedTool, format!("tool {name:?} changed or disappeared since the session's baseline and is blocked"));
    }
    if b.hidden.iter().any(|h| h == name) {
        return refuse(RefusalReason::HiddenTool, format!("tool {name:?} was withheld from this session by policy"));
    }
    let key = confusable_keys(name);
    if let Some(c) = b.surface.iter().find(|c| looks_alike(&confusable_keys(&c.name), &key)) {
        return refuse(RefusalReason::ConfusableName, format!("no tool is named {name:?} (it resembles {:?}; names must match exactly)", c.name));
    }
    if b.hidden.iter().chain(&b.revoked).chain(&b.quarantined).any(|h| looks_alike(&confusable_keys(h), &key)) {
        return refuse(RefusalReason::HiddenTool, format!("tool {name:?} resembles a tool withheld from this session"));
    }
    refuse(RefusalReason::UnknownTool, format!("no tool named {name:?} was listed to this session"))
}
