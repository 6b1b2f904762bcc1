//! The meta-tools answered from the session's baseline: `search_tools` and
//! `get_tool_schema` read the catalog behind the surface as it was served
//! (sanitized, judged, dialect-normalized; drifted tools already withheld or
//! annotated by pinning), and `call_tool` goes through the same call gate as
//! a direct call. A meta-tool cannot be called through `call_tool`.

use super::surface::{is_meta_tool, CALL_TOOL, GET_TOOL_SCHEMA, SEARCH_TOOLS};
use super::{summary, SearchIndex};
use crate::json::{self, Object, ParseOptions, Value};
use crate::pinning::{check_call, Baseline, CallDecision, CallRefusal, RefusalReason};

/// Longest one-line summary in search results.
const SUMMARY_CHARS: usize = 160;

/// `Some` when `name` is a meta-tool of a discovery session.
pub(crate) fn answer(b: &Baseline, name: &str, arguments: Option<&str>) -> Option<CallDecision> {
    let conf = b.discovery.as_ref()?;
    if !is_meta_tool(name) {
        return None;
    }
    let args = match parse_args(arguments) {
        Ok(a) => a,
        Err(why) => return Some(refuse(RefusalReason::InvalidArguments, format!("{name}: {why}"))),
    };
    Some(match name {
        SEARCH_TOOLS => {
            let Some(query) = args.get("query").and_then(Value::as_str) else {
                return Some(refuse(RefusalReason::InvalidArguments, "search_tools needs a string `query`".into()));
            };
            let limit = match args.get("limit") {
                None | Some(Value::Null) => conf.max_results,
                Some(Value::Number(n)) => match n.as_u64() {
                    Some(l) if l >= 1 => l.min(conf.max_results as u64) as u32,
                    _ => return Some(refuse(RefusalReason::InvalidArguments, "search_tools: `limit` must be a positive integer".into())),
                },
                Some(_) => return Some(refuse(RefusalReason::InvalidArguments, "search_tools: `limit` must be an integer".into())),
            };
            search(b, query, limit as usize)
        }
        GET_TOOL_SCHEMA => {
            let Some(tool) = args.get("name").and_then(Value::as_str) else {
                return Some(refuse(RefusalReason::InvalidArguments, "get_tool_schema needs a string `name`".into()));
            };
            match find(b, tool) {
                Some(def) => respond(json::write_compact(&Value::Object(def.clone())), Value::Object(def.clone())),
                None => refused_name(b, tool),
            }
        }
        CALL_TOOL => {
            let Some(tool) = args.get("name").and_then(Value::as_str) else {
                return Some(refuse(RefusalReason::InvalidArguments, "call_tool needs a string `name`".into()));
            };
            if is_meta_tool(tool) {
                return Some(refuse(RefusalReason::UnknownTool, format!("{tool:?} is a meta-tool: call it directly, not through call_tool")));
            }
            // The inner arguments: an object, or its JSON text where the
            // dialect cannot carry an open object.
            let inner = match args.get("arguments") {
                None | Some(Value::Null) => None,
                Some(Value::String(text)) => Some(text.clone()),
                Some(v @ Value::Object(_)) => Some(json::write_compact(v)),
                Some(other) => {
                    return Some(refuse(
                        RefusalReason::InvalidArguments,
                        format!("call_tool: `arguments` must be an object or its JSON text, not {}", other.type_name()),
                    ))
                }
            };
            check_call(b, tool, inner.as_deref())
        }
        _ => return None,
    })
}

fn parse_args(arguments: Option<&str>) -> Result<Object, String> {
    match arguments {
        None => Ok(Object::new()),
        Some(text) => match json::parse(text, ParseOptions::default()) {
            Ok(p) => match p.value {
                Value::Object(o) => Ok(o),
                Value::Null => Ok(Object::new()),
                other => Err(format!("arguments must be a JSON object, not {}", other.type_name())),
            },
            Err(e) => Err(format!("arguments are not valid JSON: {e}")),
        },
    }
}

fn refuse(reason: RefusalReason, message: String) -> CallDecision {
    CallDecision::Refuse(CallRefusal { reason, message, violations: Vec::new() })
}

/// A tool behind the surface that is callable now.
fn find<'a>(b: &'a Baseline, name: &str) -> Option<&'a Object> {
    if !b.surface.iter().any(|c| c.name == name) {
        return None;
    }
    b.catalog.iter().filter_map(Value::as_object).find(|t| t.get("name").and_then(Value::as_str) == Some(name))
}

/// The reason the gate would give for calling `name` (hidden, drifted,
/// look-alike, unknown).
fn refused_name(b: &Baseline, name: &str) -> CallDecision {
    match check_call(b, name, Some("{}")) {
        CallDecision::Refuse(r) => CallDecision::Refuse(r),
        // Callable but not behind the surface cannot happen (both are set
        // together); say unknown rather than describe something unserved.
        _ => refuse(RefusalReason::UnknownTool, format!("no tool named {name:?} is behind this session's surface")),
    }
}

/// One `search_tools` result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchHit {
    pub name: String,
    pub title: Option<String>,
    /// One line from the (sanitized) description, or the title.
    pub summary: String,
}

/// `search_tools` over the tools callable in session `b` (empty when the
/// session is not a discovery session), best first, at most `limit`.
pub fn search_tools(b: &Baseline, query: &str, limit: usize) -> Vec<SearchHit> {
    let Some(conf) = &b.discovery else { return Vec::new() };
    let callable: std::collections::HashSet<&str> = b.surface.iter().map(|c| c.name.as_str()).collect();
    let tools: Vec<&Object> = b
        .catalog
        .iter()
        .filter_map(Value::as_object)
        .filter(|t| t.get("name").and_then(Value::as_str).is_some_and(|n| callable.contains(n)))
        .collect();
    let index = SearchIndex::build(&tools, &conf.synonyms);
    index
        .search(query, limit)
        .into_iter()
        .filter_map(|hit| {
            let t = tools.get(hit.index)?;
            let text = t.get("description").or_else(|| t.get("title")).and_then(Value::as_str).unwrap_or_default();
            Some(SearchHit {
                name: t.get("name").and_then(Value::as_str).unwrap_or_default().to_string(),
                title: t.get("title").and_then(Value::as_str).map(str::to_string),
                summary: summary(text, SUMMARY_CHARS),
            })
        })
        .collect()
}

/// `get_tool_schema`: the served definition of a tool callable in session
/// `b` (name, title, description, input and output schema), or `None`.
pub fn tool_schema<'a>(b: &'a Baseline, name: &str) -> Option<&'a Object> {
    find(b, name)
}

fn search(b: &Baseline, query: &str, limit: usize) -> CallDecision {
    let mut lines = Vec::new();
    let mut found = Vec::new();
    for hit in search_tools(b, query, limit) {
        lines.push(format!("{}: {}", hit.name, hit.summary));
        let mut e = Object::with_capacity(3);
        e.insert("name", Value::String(hit.name));
        if let Some(title) = hit.title {
            e.insert("title", Value::String(title));
        }
        e.insert("summary", Value::String(hit.summary));
        found.push(Value::Object(e));
    }
    let text = if lines.is_empty() { format!("No tool matches {query:?}.") } else { lines.join("\n") };
    let mut s = Object::with_capacity(1);
    s.insert("tools", Value::Array(found));
    respond(text, Value::Object(s))
}

/// A `CallToolResult`: the text for the model, the same as structured content.
fn respond(text: String, structured: Value) -> CallDecision {
    let mut content = Object::with_capacity(2);
    content.insert("type", Value::str("text"));
    content.insert("text", Value::String(text));
    let mut r = Object::with_capacity(3);
    r.insert("content", Value::Array(vec![Value::Object(content)]));
    r.insert("structuredContent", structured);
    r.insert("isError", Value::Bool(false));
    CallDecision::Respond(json::write_compact(&Value::Object(r)))
}
