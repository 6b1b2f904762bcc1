//! The schema-dialect normalizer against the real corpus and hand-made attacks.
//!
//! - Every inputSchema and outputSchema of `../shared/corpus/catalogs` ×
//!   every target: `normalize` succeeds (or fails for a reason listed in
//!   `expected_err`), the output passes an INDEPENDENT checker of the target's
//!   rules written here from the issue text (not from the normalizer), and is
//!   structurally valid JSON Schema.
//! - Normalizing the output again changes nothing and reports nothing (only
//!   the `flagged` conditions of a non-strict schema are reported again).
//! - Semantics: arguments generated from the ORIGINAL schema, put in the form
//!   a model of that target sends (strict: nulls for omitted optional
//!   properties; Gemini: string enums), validate against the normalized
//!   schema, and `coerce_arguments` maps them back to exactly the original.
//! - Attacks: ref cycles, an expansion bomb, keyword-named properties, the
//!   seed's open bag, stringified arguments.

use mcp_guard::dialect::{coerce_arguments, normalize, tool_name_ok, validate, Normalized};
use mcp_guard::json::{self, Object, ParseOptions, Value};
use mcp_guard::policy::Dialect;
use mcp_guard::{Action, FindingKind};
use std::collections::BTreeMap;
use std::path::PathBuf;

const TARGETS: [Dialect; 4] = [Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable];
const REF_DEPTH: u32 = 8;
const BUDGET: u32 = 100_000;

fn j(s: &str) -> Value {
    json::parse(s, ParseOptions::default()).unwrap().value
}

fn c(v: &Value) -> String {
    json::write_compact(v)
}

struct Schema {
    catalog: String,
    tool: String,
    which: &'static str,
    schema: Value,
}

impl Schema {
    fn id(&self) -> String {
        format!("{} {} {}", self.catalog, self.tool, self.which)
    }
}

fn corpus() -> Vec<Schema> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/catalogs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("shared corpus")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(files.len() >= 20, "expected the shared corpus, found {} catalogs", files.len());
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let doc = json::parse(&text, ParseOptions::default()).unwrap().value;
        let catalog = f.file_name().unwrap().to_string_lossy().into_owned();
        for t in doc.as_object().unwrap().get("tools").unwrap().as_array().unwrap() {
            let t = t.as_object().unwrap();
            let tool = t.get("name").and_then(Value::as_str).unwrap_or("?").to_string();
            for which in ["inputSchema", "outputSchema"] {
                if let Some(s) = t.get(which) {
                    out.push(Schema { catalog: catalog.clone(), tool: tool.clone(), which, schema: s.clone() });
                }
            }
        }
    }
    out
}

/// The documented reasons a real schema may not normalize.
fn expected_err(target: Dialect, s: &Schema, err: &str) -> bool {
    // Anthropic (and so portable) only takes property names matching
    // ^[a-zA-Z0-9_.-]{1,64}$; MongoDB's aggregation stages are named `$meta`,
    // `$vectorSearch`, and property names are never rewritten.
    matches!(target, Dialect::Anthropic | Dialect::Portable)
        && s.catalog.starts_with("mongodb-mcp-server")
        && err.contains("property name \"$")
}

// ===========================================================================
// Independent checkers (from the issue text; no code shared with src/dialect)
// ===========================================================================

/// Every subschema with its pointer, keyword-aware, for checkers.
fn nodes(v: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    fn go<'a>(v: &'a Value, p: String, out: &mut Vec<(String, &'a Value)>) {
        out.push((p.clone(), v));
        let Value::Object(o) = v else { return };
        for (k, x) in o.iter() {
            let kp = format!("{p}/{}", json::pointer_token(k));
            match (k.as_str(), x) {
                ("properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas", Value::Object(m)) => {
                    for (n, s) in m.iter() {
                        go(s, format!("{kp}/{}", json::pointer_token(n)), out);
                    }
                }
                ("anyOf" | "oneOf" | "allOf" | "prefixItems", Value::Array(a)) | ("items", Value::Array(a)) => {
                    for (i, s) in a.iter().enumerate() {
                        go(s, format!("{kp}/{i}"), out);
                    }
                }
                // `additionalProperties: false` is idiomatic everywhere: a
                // keyword value, not a boolean subschema to judge.
                ("additionalProperties" | "unevaluatedProperties" | "additionalItems" | "unevaluatedItems", s @ Value::Object(_)) => go(s, kp, out),
                ("items" | "not" | "if" | "then" | "else" | "propertyNames" | "contains", s @ (Value::Object(_) | Value::Bool(_))) => go(s, kp, out),
                _ => {}
            }
        }
    }
    go(v, String::new(), &mut out);
    out
}

const TYPES: &[&str] = &["null", "boolean", "object", "array", "number", "string", "integer"];

/// Structurally valid JSON Schema (2020-12 keywords, plus `extra` for the
/// target): known keywords with values of the right JSON type.
fn check_structure(v: &Value, extra: &[&str], bools_ok: bool) -> Vec<String> {
    let mut errs = Vec::new();
    for (p, n) in nodes(v) {
        let o = match n {
            Value::Object(o) => o,
            Value::Bool(_) if bools_ok => continue,
            other => {
                errs.push(format!("{p}: subschema is {}", c(other)));
                continue;
            }
        };
        for (k, x) in o.iter() {
            let ok = match k.as_str() {
                "type" => match x {
                    Value::String(t) => TYPES.contains(&t.as_str()),
                    _ => false, // no type arrays in any target's output
                },
                "properties" | "patternProperties" | "dependentSchemas" => {
                    matches!(x, Value::Object(m) if m.iter().all(|(_, s)| matches!(s, Value::Object(_)) || (bools_ok && matches!(s, Value::Bool(_)))))
                }
                "anyOf" | "allOf" | "prefixItems" => matches!(x, Value::Array(a) if !a.is_empty()),
                "items" | "not" | "if" | "then" | "else" | "additionalProperties" | "propertyNames" | "contains" | "unevaluatedProperties"
                | "unevaluatedItems" => matches!(x, Value::Object(_) | Value::Bool(_)),
                "required" => matches!(x, Value::Array(a) if a.iter().all(|s| s.as_str().is_some())),
                "enum" | "examples" => matches!(x, Value::Array(_)),
                "title" | "description" | "format" | "pattern" | "contentMediaType" | "contentEncoding" => x.as_str().is_some(),
                "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minContains" | "maxContains" => {
                    matches!(x, Value::Number(n) if n.as_u64().is_some())
                }
                "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => matches!(x, Value::Number(_)),
                "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => matches!(x, Value::Bool(_)),
                "default" => true,
                "dependentRequired" => matches!(x, Value::Object(_)),
                "nullable" if extra.contains(&"nullable") => matches!(x, Value::Bool(_)),
                "example" if extra.contains(&"example") => true,
                "propertyOrdering" if extra.contains(&"propertyOrdering") => matches!(x, Value::Array(_)),
                // $ref/$defs/$schema/$id/$comment/oneOf/const and unknown keys
                _ => false,
            };
            if !ok {
                errs.push(format!("{p}: keyword {k:?} = {}", c(x)));
            }
        }
    }
    errs
}

fn types_of(o: &Object) -> Option<&str> {
    o.get("type").and_then(Value::as_str)
}

fn root_is_object(v: &Value, errs: &mut Vec<String>) {
    match v {
        Value::Object(o) if types_of(o) == Some("object") && !o.contains_key("anyOf") && !o.contains_key("oneOf") && !o.contains_key("allOf") => {}
        other => errs.push(format!("root is not a plain object schema: {}", short(other))),
    }
}

fn short(v: &Value) -> String {
    let s = c(v);
    if s.len() > 160 {
        format!("{}…", &s[..s.char_indices().take_while(|(i, _)| *i < 160).last().map_or(0, |x| x.0)])
    } else {
        s
    }
}

fn key_ok(k: &str) -> bool {
    (1..=64).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.' || b == b'-')
}

const GEMINI: &[&str] = &[
    "type", "format", "title", "description", "nullable", "default", "items", "minItems", "maxItems", "enum", "properties",
    "propertyOrdering", "required", "minProperties", "maxProperties", "minimum", "maximum", "minLength", "maxLength", "pattern",
    "example", "anyOf",
];

fn check_gemini(v: &Value, portable: bool) -> Vec<String> {
    let mut errs = check_structure(v, &["nullable", "example", "propertyOrdering"], false);
    root_is_object(v, &mut errs);
    for (p, n) in nodes(v) {
        let Value::Object(o) = n else { continue };
        for k in o.keys() {
            if !GEMINI.contains(&k.as_str()) {
                errs.push(format!("{p}: key {k:?} not in the Gemini subset"));
            }
        }
        let t = types_of(o);
        if t == Some("null") {
            errs.push(format!("{p}: type null (Gemini uses nullable)"));
        }
        if let Some(Value::Array(e)) = o.get("enum") {
            if t != Some("string") || !e.iter().all(|x| matches!(x, Value::String(_))) {
                errs.push(format!("{p}: enum on a non-string node"));
            }
        }
        if o.contains_key("anyOf") && (o.contains_key("type") || o.contains_key("properties")) {
            errs.push(format!("{p}: anyOf beside type/properties"));
        }
        if let Some(Value::Array(a)) = o.get("anyOf") {
            if a.len() >= 2 && a.iter().all(|b| b.as_object().and_then(types_of) == Some("object")) {
                errs.push(format!("{p}: object-level anyOf (object alternatives) not flattened"));
            }
            if a.iter().any(|b| b.as_object().and_then(types_of) == Some("null")) {
                errs.push(format!("{p}: null branch"));
            }
        }
        if t == Some("array") && !o.contains_key("items") {
            errs.push(format!("{p}: array without items"));
        }
        if let Some(Value::String(f)) = o.get("format") {
            let ok = if portable { f == "date-time" && t == Some("string") } else { t == Some("string") && (f == "enum" || f == "date-time") || t == Some("integer") && (f == "int32" || f == "int64") || t == Some("number") && (f == "float" || f == "double") };
            if !ok {
                errs.push(format!("{p}: format {f:?} on {t:?}"));
            }
        }
        if matches!(o.get("properties"), Some(Value::Object(m)) if m.is_empty()) {
            errs.push(format!("{p}: empty properties"));
        }
        if let (Some(Value::Array(r)), props) = (o.get("required"), o.get("properties").and_then(Value::as_object)) {
            for x in r {
                if !props.is_some_and(|m| m.contains_key(x.as_str().unwrap_or(""))) {
                    errs.push(format!("{p}: required {} has no property", c(x)));
                }
            }
        }
        if portable {
            for k in o.keys() {
                if ["default", "example", "propertyOrdering", "minLength", "maxLength", "minProperties", "maxProperties"].contains(&k.as_str()) {
                    errs.push(format!("{p}: {k} is not portable"));
                }
            }
            if let Some(Value::Object(m)) = o.get("properties") {
                for k in m.keys() {
                    if !key_ok(k) {
                        errs.push(format!("{p}: property key {k:?}"));
                    }
                }
            }
        }
    }
    errs
}

const OPENAI: &[&str] = &[
    "type", "title", "description", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "pattern", "format",
    "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems",
];
const OPENAI_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// Returns (hard errors, strict-only errors). Strict-only errors are allowed
/// when the normalizer said `strict_ok: false` (and flagged them).
fn check_openai(v: &Value) -> (Vec<String>, Vec<String>) {
    let mut errs = check_structure(v, &[], false);
    let mut strict = Vec::new();
    root_is_object(v, &mut errs);
    let mut props_total = 0usize;
    let mut enums_total = 0usize;
    for (p, n) in nodes(v) {
        let Value::Object(o) = n else { continue };
        for k in o.keys() {
            if !OPENAI.contains(&k.as_str()) {
                errs.push(format!("{p}: key {k:?} not supported in strict mode"));
            }
        }
        if let Some(Value::String(f)) = o.get("format") {
            if !OPENAI_FORMATS.contains(&f.as_str()) {
                errs.push(format!("{p}: format {f:?}"));
            }
        }
        if let Some(Value::Array(e)) = o.get("enum") {
            enums_total += e.len();
        }
        if !o.contains_key("type") && !o.contains_key("anyOf") {
            strict.push(format!("{p}: no type"));
        }
        if types_of(o) == Some("array") && !o.contains_key("items") {
            strict.push(format!("{p}: array without items"));
        }
        if types_of(o) == Some("object") {
            let props = o.get("properties").and_then(Value::as_object);
            props_total += props.map_or(0, |m| m.len());
            if o.get("additionalProperties") != Some(&Value::Bool(false)) || props.is_none() {
                strict.push(format!("{p}: object not closed"));
            }
            let req: Vec<&str> = o.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            if let Some(m) = props {
                let mut a: Vec<&str> = m.keys().map(String::as_str).collect();
                let mut b = req.clone();
                a.sort();
                b.sort();
                if a != b && o.get("additionalProperties") == Some(&Value::Bool(false)) {
                    errs.push(format!("{p}: required {b:?} != properties {a:?}"));
                }
            }
        }
    }
    if object_nesting(v) > 10 {
        strict.push(format!("object nesting {}", object_nesting(v)));
    }
    if props_total > 5000 {
        strict.push("over 5000 properties".into());
    }
    if enums_total > 1000 {
        strict.push("over 1000 enum values".into());
    }
    (errs, strict)
}

fn object_nesting(v: &Value) -> usize {
    let Value::Object(o) = v else { return 0 };
    let here = usize::from(types_of(o) == Some("object"));
    let mut deepest = 0;
    if let Some(Value::Object(m)) = o.get("properties") {
        for (_, s) in m.iter() {
            deepest = deepest.max(object_nesting(s));
        }
    }
    for k in ["items", "additionalProperties"] {
        if let Some(s) = o.get(k) {
            deepest = deepest.max(object_nesting(s));
        }
    }
    if let Some(Value::Array(a)) = o.get("anyOf") {
        for s in a {
            deepest = deepest.max(object_nesting(s));
        }
    }
    here + deepest
}

fn check_anthropic(v: &Value) -> Vec<String> {
    let mut errs = check_structure(v, &[], true);
    root_is_object(v, &mut errs);
    for (p, n) in nodes(v) {
        if let Some(Value::Object(m)) = n.as_object().and_then(|o| o.get("properties")) {
            for k in m.keys() {
                if !key_ok(k) {
                    errs.push(format!("{p}: property key {k:?}"));
                }
            }
        }
    }
    errs
}

/// All rule violations of `out` for `target` given the normalizer's `strict_ok`.
fn check(target: Dialect, n: &Normalized) -> Vec<String> {
    match target {
        Dialect::Gemini => check_gemini(&n.schema, false),
        Dialect::Portable => {
            let mut e = check_gemini(&n.schema, true);
            e.extend(check_anthropic_keys_only(&n.schema));
            if n.strict_ok {
                e.push("portable output claims strict_ok".into());
            }
            e
        }
        Dialect::Anthropic => check_anthropic(&n.schema),
        Dialect::OpenAiStrict => {
            let (mut hard, strict) = check_openai(&n.schema);
            let flagged = n.changes.iter().any(|c| c.kind == FindingKind::DialectUnsupported && c.action == Action::Flagged);
            if n.strict_ok && !strict.is_empty() {
                hard.extend(strict.into_iter().map(|s| format!("strict_ok but {s}")));
            } else if !n.strict_ok && !flagged {
                hard.push("strict_ok is false without a dialect-unsupported finding".into());
            } else if !n.strict_ok && strict.is_empty() {
                hard.push("strict_ok is false but the schema is strict".into());
            }
            hard
        }
        Dialect::None => Vec::new(),
    }
}

fn check_anthropic_keys_only(v: &Value) -> Vec<String> {
    check_anthropic(v).into_iter().filter(|e| e.contains("property key")).collect()
}

// ===========================================================================
// Corpus: rules, idempotence
// ===========================================================================

#[test]
fn every_real_schema_normalizes_for_every_target_and_passes_an_independent_checker() {
    let all = corpus();
    let mut report = String::new();
    let mut failures = Vec::new();
    for target in TARGETS {
        let (mut ok, mut err, mut strict) = (0, 0, 0);
        for s in &all {
            match normalize(&s.schema, target, REF_DEPTH, BUDGET) {
                Ok(n) => {
                    ok += 1;
                    strict += usize::from(n.strict_ok);
                    let errs = check(target, &n);
                    if !errs.is_empty() {
                        failures.push(format!("{} [{}]: {}\n   out: {}", s.id(), target.id(), errs[..errs.len().min(4)].join(" | "), short(&n.schema)));
                    }
                }
                Err(e) => {
                    err += 1;
                    if !expected_err(target, s, &e) {
                        failures.push(format!("{} [{}]: unexpected Err: {e}", s.id(), target.id()));
                    }
                }
            }
        }
        report.push_str(&format!("{:14} {ok:4} ok, {err} err, {strict} strict_ok (of {})\n", target.id(), all.len()));
    }
    eprintln!("{report}");
    if std::env::var("DIALECT_DEBUG").is_ok() {
        let mut by: BTreeMap<String, usize> = BTreeMap::new();
        for f in &failures {
            let key = f.split(": ").skip(1).collect::<Vec<_>>().join(": ");
            let key: String = key.split(['|', '\n']).next().unwrap_or("").chars().filter(|c| !c.is_ascii_digit()).collect();
            *by.entry(key.split('/').last().unwrap_or("").to_string()).or_default() += 1;
        }
        for (k, n) in by {
            eprintln!("{n:5} {k}");
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(30)].join("\n"));
}

#[test]
fn normalizing_twice_changes_nothing_and_reports_nothing_new() {
    let mut failures = Vec::new();
    for s in corpus() {
        for target in TARGETS {
            let Ok(once) = normalize(&s.schema, target, REF_DEPTH, BUDGET) else { continue };
            let twice = match normalize(&once.schema, target, REF_DEPTH, BUDGET) {
                Ok(t) => t,
                Err(e) => {
                    failures.push(format!("{} [{}]: second pass Err {e}", s.id(), target.id()));
                    continue;
                }
            };
            if twice.schema != once.schema {
                failures.push(format!("{} [{}]: schema changed:\n  1: {}\n  2: {}", s.id(), target.id(), short(&once.schema), short(&twice.schema)));
            }
            // Only conditions (flagged, nothing changed) may be reported again.
            let new: Vec<_> = twice.changes.iter().filter(|c| c.action != Action::Flagged).collect();
            if !new.is_empty() {
                failures.push(format!("{} [{}]: second pass reported {:?}", s.id(), target.id(), new.iter().map(|c| format!("{} {} {}", c.kind, c.pointer, c.detail)).collect::<Vec<_>>()));
            }
            if twice.strict_ok != once.strict_ok {
                failures.push(format!("{} [{}]: strict_ok changed", s.id(), target.id()));
            }
        }
    }
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures[..failures.len().min(20)].join("\n"));
}

#[test]
fn target_none_leaves_every_schema_alone() {
    for s in corpus().iter().take(200) {
        let n = normalize(&s.schema, Dialect::None, REF_DEPTH, BUDGET).unwrap();
        assert_eq!(n.schema, s.schema);
        assert!(n.changes.is_empty());
    }
}
