//! The call gate: a client's `tools/call` is checked by
//! [`pinning::check_call`] against the tools the client was shown, then
//! forwarded under the upstream name with the arguments mapped back from the
//! dialect, answered from the baseline (a discovery meta-tool), or refused
//! without reaching the server.

use super::requests::Pending;
use super::{params, params_mut, s, Mediator, Out, MAX_DEPTH};
use crate::json::{self, ParseOptions, Value};
use crate::jsonrpc::{call_data, code, error_response, reason, request_id};
use crate::pinning::{self, CallDecision};

impl Mediator {
    /// The call gate: forward under the upstream name with the coerced
    /// arguments, or answer the client without reaching the server.
    pub(crate) fn gate(&mut self, mut msg: Value) -> Vec<Out> {
        let id = request_id(&msg).cloned().unwrap_or(Value::Null);
        let p = params(&msg);
        let Some(name) = p.and_then(|p| p.get("name")).and_then(Value::as_str).map(str::to_string) else {
            let message = "mcp-guard: tools/call needs params.name (a string)";
            return vec![
                Out::Client(error_response(&id, code::INVALID_PARAMS, message, Some(reason("invalid-params")))),
                self.log(
                    "call-refused",
                    vec![("tool", Value::Null), ("reason", s("invalid-params")), ("message", s(message))],
                ),
            ];
        };
        let original_args = p.and_then(|p| p.get("arguments")).map(json::write_compact);
        let decision = match &self.baseline {
            Some(b) => pinning::check_call(b, &name, original_args.as_deref()),
            None => {
                let message = format!(
                    "mcp-guard: no tool was listed to this session yet; call tools/list before calling {name:?}"
                );
                return vec![
                    Out::Client(error_response(
                        &id,
                        code::INVALID_PARAMS,
                        &message,
                        Some(call_data("unknown-tool", &name, &[])),
                    )),
                    self.log(
                        "call-refused",
                        vec![("tool", s(&name)), ("reason", s("unknown-tool")), ("message", s(&message))],
                    ),
                ];
            }
        };
        match decision {
            // A discovery meta-tool: the engine answered from the baseline;
            // nothing goes upstream.
            CallDecision::Respond(result) => {
                let result = match json::parse(&result, ParseOptions { max_depth: MAX_DEPTH }) {
                    Ok(p) => p.value,
                    Err(e) => {
                        let message = format!("mcp-guard: internal error re-reading a meta-tool result: {e}");
                        return vec![Out::Client(error_response(&id, code::INVALID_PARAMS, &message, None))];
                    }
                };
                vec![
                    Out::Client(json::write_compact(&super::obj([
                        ("jsonrpc", s("2.0")),
                        ("id", id.clone()),
                        ("result", result),
                    ]))),
                    self.log("meta-tool", vec![("tool", s(&name))]),
                ]
            }
            CallDecision::Refuse(r) => {
                let message = format!("mcp-guard: {}", r.message);
                vec![
                    Out::Client(error_response(
                        &id,
                        code::INVALID_PARAMS,
                        &message,
                        Some(call_data(r.reason.id(), &name, &r.violations)),
                    )),
                    self.log(
                        "call-refused",
                        vec![("tool", s(&name)), ("reason", s(r.reason.id())), ("message", s(&r.message))],
                    ),
                ]
            }
            CallDecision::Allow(a) => {
                let mut out = Vec::new();
                if let Some(w) = &a.warning {
                    out.push(self.log("call-warning", vec![("tool", s(&name)), ("warning", s(w))]));
                }
                let pending = Pending::Request {
                    client_id: id.clone(),
                    method: "tools/call".to_string(),
                    tool: Some(a.upstream.clone()),
                };
                let same_args = a.arguments.is_none() || a.arguments == original_args;
                if a.upstream == name && same_args {
                    out.push(self.forward(msg, pending));
                    return out;
                }
                // The engine wrote these arguments itself; should they not
                // parse, the call is refused rather than sent unchecked.
                let args = match a.arguments.as_deref().map(|t| json::parse(t, ParseOptions { max_depth: MAX_DEPTH })) {
                    None => None,
                    Some(Ok(p)) => Some(p.value),
                    Some(Err(e)) => {
                        let message = format!("mcp-guard: internal error re-reading the checked arguments: {e}");
                        out.push(Out::Client(error_response(
                            &id,
                            code::INVALID_PARAMS,
                            &message,
                            Some(call_data("invalid-arguments", &name, &[])),
                        )));
                        return out;
                    }
                };
                if let Some(p) = params_mut(&mut msg) {
                    p.insert("name", s(&a.upstream));
                    if let Some(args) = args {
                        p.insert("arguments", args);
                    }
                }
                out.push(self.forward(msg, pending));
                out
            }
        }
    }
}
