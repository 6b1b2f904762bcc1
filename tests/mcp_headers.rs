//! `x-mcp-header` (MCP 2026-07-28) mirrors a tool parameter into an
//! `Mcp-Param-{name}` HTTP header. A valid annotation is served (a client
//! that does not see it sends no header, and the server refuses the call);
//! a tool with an invalid one is hidden, as the protocol tells clients to
//! drop it. Generated over the ways an annotation can be invalid and the
//! places it can stand.

use mcp_guard::{FindingKind, Policy, SanitizeOptions, ToolStatus};
use serde_json::{json, Value};

fn run(schema: Value) -> (mcp_guard::Outcome, Value) {
    let catalog = json!({"tools": [{"name": "execute_sql", "description": "d", "inputSchema": schema}]});
    let out = mcp_guard::sanitize(&Policy::default(), &catalog.to_string(), &SanitizeOptions::default()).unwrap();
    let served: Value = serde_json::from_str(&out.catalog).unwrap();
    (out, served)
}

fn prop(ty: &str, header: Value) -> Value {
    json!({"type": ty, "x-mcp-header": header})
}

#[test]
fn valid_annotations_are_served_as_they_are() {
    for schema in [
        json!({"type": "object", "properties": {"region": prop("string", json!("Region")), "query": {"type": "string"}}}),
        json!({"type": "object", "properties": {"n": prop("integer", json!("Limit")), "ok": prop("boolean", json!("Confirm"))}}),
        json!({"type": "object", "properties": {"opts": {"type": "object", "properties": {"tenant": prop("string", json!("X-Tenant_1.a~"))}}}}),
    ] {
        let (out, served) = run(schema.clone());
        assert_eq!(out.tools[0].status, ToolStatus::Clean, "{schema}: {:?}", out.findings);
        assert_eq!(served["tools"][0]["inputSchema"], schema);
    }
}

#[test]
fn a_tool_with_an_invalid_annotation_is_hidden() {
    let mut cases: Vec<(String, Value)> = Vec::new();
    // Values that are no header-name token.
    for h in [json!(""), json!("Re gion"), json!("Region:"), json!("Régión"), json!("a\r\nX-Evil: 1"), json!("a\u{200B}"), json!(1), json!(null), json!("x".repeat(65))] {
        cases.push((format!("value {h}"), json!({"type": "object", "properties": {"a": prop("string", h)}})));
    }
    // Types a header cannot carry.
    for ty in ["number", "object", "array", "null"] {
        cases.push((format!("type {ty}"), json!({"type": "object", "properties": {"a": prop(ty, json!("A"))}})));
    }
    cases.push(("no type".into(), json!({"type": "object", "properties": {"a": {"x-mcp-header": "A"}}})));
    // Twice, in any case.
    cases.push((
        "duplicate".into(),
        json!({"type": "object", "properties": {"a": prop("string", json!("Region")), "b": prop("string", json!("REGION"))}}),
    ));
    // Not reachable through properties alone.
    let leaf = prop("string", json!("A"));
    for (what, schema) in [
        ("items", json!({"type": "object", "properties": {"a": {"type": "array", "items": leaf}}})),
        ("anyOf", json!({"type": "object", "properties": {"a": {"anyOf": [leaf]}}})),
        ("$defs", json!({"type": "object", "$defs": {"d": leaf}, "properties": {"a": {"$ref": "#/$defs/d"}}})),
        ("additionalProperties", json!({"type": "object", "additionalProperties": leaf})),
        ("root", json!({"type": "object", "x-mcp-header": "A"})),
        ("if", json!({"type": "object", "if": {"properties": {"a": leaf}}})),
    ] {
        cases.push((format!("under {what}"), schema));
    }
    for (what, schema) in cases {
        let (out, served) = run(schema);
        assert_eq!(out.tools[0].status, ToolStatus::Hidden, "{what}");
        assert_eq!(served["tools"], json!([]), "{what}");
        let f = out.findings.iter().find(|f| f.kind == FindingKind::SchemaInvalid).expect(&what);
        assert!(f.pointer.ends_with("/x-mcp-header") && f.detail.contains("a client must drop the tool"), "{what}: {f:?}");
    }
}

#[test]
fn an_output_schema_annotation_means_nothing_and_is_dropped_like_any_x_keyword() {
    let catalog = json!({"tools": [{"name": "t", "inputSchema": {"type": "object"},
        "outputSchema": {"type": "object", "properties": {"a": {"type": "string", "x-mcp-header": "A"}}}}]});
    let out = mcp_guard::sanitize(&Policy::default(), &catalog.to_string(), &SanitizeOptions::default()).unwrap();
    assert_ne!(out.tools[0].status, ToolStatus::Hidden);
    assert!(!out.catalog.contains("x-mcp-header"));
}

/// The check's walk runs only for tools the parser saw the key in: a key
/// spelled with `\u` escapes is the same key, and a tool with an invalid
/// annotation among tools without one is still hidden.
#[test]
fn an_invalid_annotation_spelled_with_escapes_or_next_to_plain_tools_is_still_found() {
    let plain = r#"{"name":"plain","inputSchema":{"type":"object","properties":{"q":{"type":"string"}}}}"#;
    for key in [r"x-mcp-header", r"x-mcp-\u0068eader", r"\u0078\u002d\u006d\u0063\u0070\u002d\u0068\u0065\u0061\u0064\u0065\u0072"] {
        let bad = format!(r#"{{"name":"bad","inputSchema":{{"type":"object","properties":{{"a":{{"type":"number","{key}":"A"}}}}}}}}"#);
        // Two plain tools around it (distinct names: duplicates are hidden).
        let catalog = format!(r#"{{"tools":[{},{bad},{plain}]}}"#, plain.replace("\"plain\"", "\"first\""));
        let out = mcp_guard::sanitize(&Policy::default(), &catalog, &SanitizeOptions::default()).unwrap();
        let status: Vec<ToolStatus> = out.tools.iter().map(|t| t.status).collect();
        assert_eq!(status, [ToolStatus::Clean, ToolStatus::Hidden, ToolStatus::Clean], "{key}: {:?}", out.findings);
        let f = out.findings.iter().find(|f| f.kind == FindingKind::SchemaInvalid).expect(key);
        assert_eq!(f.pointer, "/tools/1/inputSchema/properties/a/x-mcp-header", "{key}");
    }
}

#[test]
fn an_invalid_annotation_followed_by_an_array_in_the_same_tool_is_still_found() {
    // Raw text, to fix the key order: a parser that notes "this tool has the
    // key" must not forget it at a later array of the same tool (`required`,
    // `enum`, `anyOf`, a tool field), or the check is skipped and the tool
    // is served with an annotation a client must drop (a CRLF in a header
    // name among them).
    let after_property = [r#""enum":["x"]"#, r#""examples":[[]]"#, r#""anyOf":[{"type":"string"}]"#];
    let after_schema = [r#","required":["a"]"#, r#","required":[]"#, r#","anyOf":[{}]"#];
    let after_tool = [r#","icons":[{"src":"https://example.com/i.png"}]"#, r#","annotations":{"title":"t"},"x":[1]"#];
    let annotations = [(r#""number""#, r#""A""#), (r#""string""#, r#""A\r\nX-Injected: 1""#), (r#""string""#, r#""Re gion""#)];
    for key in [r#""x-mcp-header""#, r#""\u0078-mcp-header""#] {
        for (ty, header) in annotations {
            let prop = |extra: &str| format!(r#"{{"type":{ty},{key}:{header}{extra}}}"#);
            let mut tools: Vec<String> = Vec::new();
            for a in after_property {
                tools.push(format!(r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{"a":{}}}}}}}"#, prop(&format!(",{a}"))));
            }
            for a in after_schema {
                tools.push(format!(r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{"a":{}}}{a}}}}}"#, prop("")));
            }
            for a in after_tool {
                tools.push(format!(r#"{{"name":"t","inputSchema":{{"type":"object","properties":{{"a":{}}}}}{a}}}"#, prop("")));
            }
            for tool in tools {
                // Alone, and between plain tools that have arrays of their own.
                for catalog in [format!(r#"{{"tools":[{tool}]}}"#), format!(r#"{{"tools":[{{"name":"u","inputSchema":{{"type":"object","required":[]}}}},{tool},{{"name":"v"}}]}}"#)] {
                    let out = mcp_guard::sanitize(&Policy::default(), &catalog, &SanitizeOptions::default()).unwrap();
                    let t = out.tools.iter().find(|t| t.name.as_deref() == Some("t")).expect(&catalog);
                    assert_eq!(t.status, ToolStatus::Hidden, "{catalog}: {:?}", out.findings);
                    assert!(!out.catalog.contains("mcp-header"), "{catalog}: {}", out.catalog);
                }
            }
        }
    }
}
