//! The discovery surface (`core.discovery`): instead of
//! every tool, the client lists the core tools plus three meta-tools —
//! `search_tools`, `get_tool_schema`, `call_tool` — that find, describe and
//! call the rest. Built from the catalog *after* every metadata control, so
//! the meta-tools only ever show sanitized, judged, dialect-normalized
//! metadata (discovery must not be a bypass), and pinning covers
//! the whole catalog behind the surface, not the three meta-tools.

use crate::json::{self, Object, ParseOptions, Value};
use crate::policy::{Dialect, DiscoveryPolicy};

pub const SEARCH_TOOLS: &str = "search_tools";
pub const GET_TOOL_SCHEMA: &str = "get_tool_schema";
pub const CALL_TOOL: &str = "call_tool";
/// Names the meta-tools take; a real tool with one of them is hidden.
pub const META_TOOLS: [&str; 3] = [SEARCH_TOOLS, GET_TOOL_SCHEMA, CALL_TOOL];

pub fn is_meta_tool(name: &str) -> bool {
    META_TOOLS.contains(&name)
}

/// `*` (any run) and `?` (one character) glob match, linear-time two-pointer
/// with one backtrack point (patterns are bounded by the policy).
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let n: Vec<char> = name.chars().collect();
    let (mut i, mut j) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    while i < p.len() && p[i] == '*' {
        i += 1;
    }
    i == p.len()
}

pub fn is_core(dp: &DiscoveryPolicy, name: &str) -> bool {
    dp.core_tools.iter().any(|g| glob_match(g, name))
}

/// Whether the dialect cannot carry an open object bag: strict mode needs
/// `additionalProperties: false` everywhere (that would make every inner
/// tool unreachable) and Gemini drops undeclared properties. There
/// `call_tool.arguments` is the inner arguments as JSON text instead.
fn arguments_as_text(target: Dialect) -> bool {
    matches!(target, Dialect::OpenAiStrict | Dialect::Gemini | Dialect::Portable)
}

/// The three meta-tools, their schemas normalized for `target` by the same
/// normalizer as every other schema. `reachable`: how many tools sit behind
/// the surface (said in the descriptions, so the model knows to search).
pub fn meta_tools(target: Dialect, reachable: usize, max_results: u32) -> Vec<Value> {
    let args = if arguments_as_text(target) {
        r#"{"type":"string","description":"The tool's arguments as the text of one JSON object, e.g. {\"path\":\"/tmp\"}; \"{}\" for none."}"#
    } else {
        r#"{"type":"object","description":"The tool's arguments, as described by get_tool_schema."}"#
    };
    let defs = [
        (
            SEARCH_TOOLS,
            format!("Search the {reachable} available tools by what you want to do. Returns up to {max_results} tool names, best first, each with a one-line summary. Then call get_tool_schema for one of them."),
            format!(r#"{{"type":"object","properties":{{"query":{{"type":"string","description":"What you want to do, in a few words."}},"limit":{{"type":"integer","minimum":1,"maximum":{max_results},"description":"How many results (default {max_results})."}}}},"required":["query"]}}"#),
        ),
        (
            GET_TOOL_SCHEMA,
            "Get one tool's full description and input schema, by the exact name search_tools returned.".to_string(),
            r#"{"type":"object","properties":{"name":{"type":"string","description":"The tool name."}},"required":["name"]}"#.to_string(),
        ),
        (
            CALL_TOOL,
            "Call one tool by its exact name with arguments that match its input schema (see get_tool_schema).".to_string(),
            format!(r#"{{"type":"object","properties":{{"name":{{"type":"string","description":"The tool name."}},"arguments":{args}}},"required":["name","arguments"]}}"#),
        ),
    ];
    defs.into_iter()
        .map(|(name, description, schema)| {
            let schema = json::parse(&schema, ParseOptions::default()).map(|p| p.value).unwrap_or(Value::Object(Object::new()));
            // The meta-tools' own schemas obey the dialect like any other.
            let schema = crate::dialect::normalize(&schema, target, 8, 2000).map(|n| n.schema).unwrap_or(schema);
            let mut t = Object::with_capacity(3);
            t.insert("name", Value::str(name));
            t.insert("description", Value::String(description));
            t.insert("inputSchema", schema);
            Value::Object(t)
        })
        .collect()
}

/// The listing under discovery: the core tools of `tools` (in catalog order)
/// followed by the meta-tools.
pub fn surface_tools(dp: &DiscoveryPolicy, target: Dialect, tools: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = tools
        .iter()
        .filter(|t| t.as_object().and_then(|o| o.get("name")).and_then(Value::as_str).is_some_and(|n| is_core(dp, n)))
        .cloned()
        .collect();
    out.extend(meta_tools(target, tools.len(), dp.max_results));
    out
}

/// A catalog value (`{"tools": [...], …}`) with its tools replaced by the
/// discovery surface.
pub fn surface_catalog(dp: &DiscoveryPolicy, target: Dialect, catalog: &Value) -> Value {
    let tools = catalog.as_object().and_then(|o| o.get("tools")).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let surface = surface_tools(dp, target, tools);
    let mut out = Object::new();
    out.insert("tools", Value::Array(surface));
    if let Some(o) = catalog.as_object() {
        for (k, v) in o.iter().filter(|(k, _)| *k != "tools") {
            out.insert(k.clone(), v.clone());
        }
    }
    Value::Object(out)
}

/// Estimated model tokens of a listing: bytes / 4, rounded up (a documented
/// estimate: no tokenizer of every provider is available offline, and the
/// ratio is what matters).
pub fn estimate_tokens(catalog_text: &str) -> u64 {
    (catalog_text.len() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob_match("browser_*", "browser_click"));
        assert!(glob_match("*", "anything"));
        assert!(glob_match("get_?", "get_x"));
        assert!(!glob_match("get_?", "get_xy"));
        assert!(glob_match("a*b*c", "aXXbYYc"));
        assert!(!glob_match("a*b*c", "aXXbYY"));
        assert!(glob_match("exact", "exact"));
        assert!(!glob_match("exact", "exactly"));
    }

    #[test]
    fn meta_tool_schemas_obey_each_dialect_and_keep_call_tool_open() {
        for t in [Dialect::None, Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable] {
            let tools = meta_tools(t, 42, 10);
            assert_eq!(tools.len(), 3);
            let call = tools[2].as_object().unwrap().get("inputSchema").unwrap();
            let args = json::pointer_get(call, "/properties/arguments").unwrap();
            // Never an object closed to every property (no inner tool would be reachable).
            let closed = args.as_object().unwrap().get("additionalProperties") == Some(&Value::Bool(false))
                && args.as_object().unwrap().get("properties").is_none();
            assert!(!closed, "{}: {}", t.id(), json::write_compact(args));
            for tool in &tools {
                let name = tool.as_object().unwrap().get("name").unwrap().as_str().unwrap();
                assert!(crate::dialect::tool_name_ok(name, t));
            }
        }
    }
}
