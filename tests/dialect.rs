//! The schema-dialect normalizer against the real corpus and hand-made attacks.
//!
//! - Every inputSchema and outputSchema of `testdata/catalogs` ×
//!   every target: `normalize` succeeds (no exception: property names a
//!   target rejects are mapped, not refused), the output passes an
//!   INDEPENDENT checker of the target's rules written here from the issue
//!   text (not from the normalizer), and is structurally valid JSON Schema.
//! - Normalizing the output again changes nothing and reports nothing (only
//!   the `flagged` conditions of a non-strict schema are reported again).
//! - Semantics: arguments generated from the ORIGINAL schema, put in the form
//!   a model of that target sends (strict: nulls for omitted optional
//!   properties; Gemini: string enums; anthropic/portable: mapped property
//!   names), validate against the normalized
//!   schema, and `coerce_arguments` maps them back to exactly the original.
//! - Attacks: ref cycles, an expansion bomb, keyword-named properties, the
//!   seed's open bag, stringified arguments.

use mcp_guard::dialect::{coerce_arguments, normalize, property_key_map, tool_name_ok, validate, Normalized};
use mcp_guard::json::{self, Object, ParseOptions, Value};
use mcp_guard::policy::Dialect;
use mcp_guard::{Action, FindingKind, Severity};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

#[path = "../testdata/testdata.rs"]
mod testdata;

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
    let files = testdata::json_files(&testdata::catalogs());
    assert!(files.len() >= 20, "expected the real catalogs, found {}", files.len());
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

/// Hand-written schemas for what the corpus lacks (`tests/fixtures/dialect/synthetic.json`).
fn synthetic() -> Vec<Schema> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/dialect/synthetic.json");
    let doc = j(&std::fs::read_to_string(p).unwrap());
    let list = doc.as_object().unwrap().get("schemas").unwrap().as_array().unwrap();
    list.iter()
        .map(|e| {
            let e = e.as_object().unwrap();
            Schema {
                catalog: "synthetic".into(),
                tool: e.get("name").unwrap().as_str().unwrap().to_string(),
                which: "inputSchema",
                schema: e.get("schema").unwrap().clone(),
            }
        })
        .collect()
}

/// The corpus and the synthetic schemas.
fn all_schemas() -> Vec<Schema> {
    let mut v = corpus();
    v.extend(synthetic());
    v
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
                ("additionalProperties" | "unevaluatedProperties" | "additionalItems" | "unevaluatedItems", s @ Value::Object(_)) => {
                    go(s, kp, out)
                }
                ("items" | "not" | "if" | "then" | "else" | "propertyNames" | "contains", s @ (Value::Object(_) | Value::Bool(_))) => {
                    go(s, kp, out)
                }
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
                "items"
                | "not"
                | "if"
                | "then"
                | "else"
                | "additionalProperties"
                | "propertyNames"
                | "contains"
                | "unevaluatedProperties"
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
        Value::Object(o)
            if types_of(o) == Some("object") && !o.contains_key("anyOf") && !o.contains_key("oneOf") && !o.contains_key("allOf") => {}
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
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "default",
    "items",
    "minItems",
    "maxItems",
    "enum",
    "properties",
    "propertyOrdering",
    "required",
    "minProperties",
    "maxProperties",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
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
            let ok = if portable {
                f == "date-time" && t == Some("string")
            } else {
                t == Some("string") && (f == "enum" || f == "date-time")
                    || t == Some("integer") && (f == "int32" || f == "int64")
                    || t == Some("number") && (f == "float" || f == "double")
            };
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
                if ["default", "example", "propertyOrdering", "minLength", "maxLength", "minProperties", "maxProperties"]
                    .contains(&k.as_str())
                {
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
    "type",
    "title",
    "description",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "anyOf",
    "enum",
    "pattern",
    "format",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
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
            let req: Vec<&str> =
                o.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
            if let Some(m) = props {
                let mut a: Vec<&str> = m.keys().map(|k| k.as_str()).collect();
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
    let all = all_schemas();
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
                        failures.push(format!(
                            "{} [{}]: {}\n   out: {}",
                            s.id(),
                            target.id(),
                            errs[..errs.len().min(4)].join(" | "),
                            short(&n.schema)
                        ));
                    }
                }
                Err(e) => {
                    err += 1;
                    failures.push(format!("{} [{}]: Err: {e}", s.id(), target.id()));
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
            *by.entry(key.split('/').next_back().unwrap_or("").to_string()).or_default() += 1;
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
    for s in all_schemas() {
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
                failures.push(format!(
                    "{} [{}]: schema changed:\n  1: {}\n  2: {}",
                    s.id(),
                    target.id(),
                    short(&once.schema),
                    short(&twice.schema)
                ));
            }
            // Only conditions (flagged, nothing changed) may be reported again.
            let new: Vec<_> = twice.changes.iter().filter(|c| c.action != Action::Flagged).collect();
            if !new.is_empty() {
                failures.push(format!(
                    "{} [{}]: second pass reported {:?}",
                    s.id(),
                    target.id(),
                    new.iter().map(|c| format!("{} {} {}", c.kind, c.pointer, c.detail)).collect::<Vec<_>>()
                ));
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

// ===========================================================================
// Semantics: generated arguments survive the round trip
// ===========================================================================

/// xorshift64*: the generator's only source of choices (seeded by proptest).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0.max(1);
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next() % n
        }
    }
    fn coin(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

/// Why no value was generated for a schema (read through `Debug` in the
/// skip report).
#[derive(Debug)]
#[allow(dead_code)]
enum Skip {
    Pattern,
    Unsupported(&'static str),
    Impossible,
}

/// Strings a weak model's output could be confused with: a numeric-looking
/// or JSON-looking *string* must stay a string on the way back.
const WORDS: &[&str] = &["hello", "42", "true", "[1,2]", "{\"a\":1}", "null", "ünïcode", "a b", "x"];

/// A small generator over the ORIGINAL schema: a value satisfying
/// type/enum/const/required/min/max, or a reason it cannot.
struct Gen<'a> {
    root: &'a Value,
    rng: Rng,
}

impl Gen<'_> {
    fn gen(&mut self, s: &Value, depth: u32) -> Result<Value, Skip> {
        if depth > 24 {
            return Err(Skip::Unsupported("deep"));
        }
        let o = match s {
            Value::Bool(true) => return Ok(Value::str("x")),
            Value::Bool(false) => return Err(Skip::Impossible),
            Value::Object(o) => o,
            _ => return Err(Skip::Unsupported("not a schema")),
        };
        if let Some(Value::String(r)) = o.get("$ref") {
            let t = r.strip_prefix('#').and_then(|p| json::pointer_get(self.root, p)).ok_or(Skip::Unsupported("ref"))?;
            return self.gen(t, depth + 1);
        }
        if o.contains_key("allOf") {
            return Err(Skip::Unsupported("allOf"));
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                let start = self.rng.below(bs.len() as u64) as usize;
                for i in 0..bs.len() {
                    let b = &bs[(start + i) % bs.len()];
                    let mut merged = o.clone();
                    merged.remove(k);
                    if let Value::Object(bo) = b {
                        for (bk, bv) in bo.iter() {
                            merged.insert(bk.clone(), bv.clone());
                        }
                    }
                    if let Ok(v) = self.gen(&Value::Object(merged), depth + 1) {
                        return Ok(v);
                    }
                }
                return Err(Skip::Impossible);
            }
        }
        if let Some(c) = o.get("const") {
            return Ok(c.clone());
        }
        if let Some(Value::Array(e)) = o.get("enum") {
            if e.is_empty() {
                return Err(Skip::Impossible);
            }
            return Ok(e[self.rng.below(e.len() as u64) as usize].clone());
        }
        let t = match o.get("type") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(ts)) => {
                let ts: Vec<&str> = ts.iter().filter_map(Value::as_str).collect();
                if depth == 0 && ts.contains(&"object") {
                    "object".to_string() // arguments are always an object
                } else {
                    ts[self.rng.below(ts.len() as u64) as usize].to_string()
                }
            }
            _ if o.contains_key("properties") => "object".into(),
            _ if o.contains_key("items") => "array".into(),
            _ => return Ok(Value::str(WORDS[self.rng.below(WORDS.len() as u64) as usize])),
        };
        let n = |x: &str| Value::Number(json::parse(x, ParseOptions::default()).unwrap().value.into_number());
        match t.as_str() {
            "null" => Ok(Value::Null),
            "boolean" => Ok(Value::Bool(self.rng.coin())),
            "integer" | "number" => {
                if o.contains_key("multipleOf") {
                    return Err(Skip::Unsupported("multipleOf"));
                }
                let f = |k: &str| o.get(k).and_then(|v| if let Value::Number(x) = v { Some(x.as_f64()) } else { None });
                let mut lo = f("minimum").unwrap_or(-5.0).max(f("exclusiveMinimum").map_or(f64::MIN, |x| x.floor() + 1.0));
                let mut hi = f("maximum").unwrap_or(lo.max(0.0) + 100.0).min(f("exclusiveMaximum").map_or(f64::MAX, |x| x.ceil() - 1.0));
                lo = lo.ceil();
                hi = hi.floor();
                if lo > hi {
                    return Err(Skip::Unsupported("narrow number range"));
                }
                let span = (hi - lo).min(1000.0) as u64;
                let i = lo as i64 + self.rng.below(span + 1) as i64;
                if t == "number" && self.rng.coin() && (i as f64) + 0.5 <= hi {
                    return Ok(n(&format!("{i}.5")));
                }
                Ok(n(&i.to_string()))
            }
            "string" => {
                if o.contains_key("pattern") {
                    return Err(Skip::Pattern);
                }
                let mut s = match o.get("format").and_then(Value::as_str) {
                    Some("date-time") => "2024-05-06T07:08:09Z".to_string(),
                    Some("date") => "2024-05-06".to_string(),
                    Some("time") => "07:08:09".to_string(),
                    Some("uuid") => "123e4567-e89b-12d3-a456-426614174000".to_string(),
                    Some("email") => "a@example.com".to_string(),
                    Some("uri" | "url") => "https://example.com/a".to_string(),
                    _ => WORDS[self.rng.below(WORDS.len() as u64) as usize].to_string(),
                };
                let count = |k: &str| o.get(k).and_then(|v| if let Value::Number(x) = v { x.as_u64() } else { None });
                let min = count("minLength").unwrap_or(0) as usize;
                let max = count("maxLength").map_or(usize::MAX, |m| m as usize);
                while s.chars().count() < min {
                    s.push('a');
                }
                if s.chars().count() > max {
                    s = s.chars().take(max).collect();
                }
                Ok(Value::String(s))
            }
            "array" => {
                let count = |k: &str| o.get(k).and_then(|v| if let Value::Number(x) = v { x.as_u64() } else { None });
                let min = count("minItems").unwrap_or(0);
                let max = count("maxItems").unwrap_or(min + 3).min(min + 3);
                let len = min + self.rng.below(max.saturating_sub(min) + 1);
                let tuple = match (o.get("prefixItems"), o.get("items")) {
                    (Some(Value::Array(t)), _) | (_, Some(Value::Array(t))) => Some(t.clone()),
                    _ => None,
                };
                let mut out = Vec::new();
                for i in 0..len as usize {
                    let sub = match &tuple {
                        Some(t) => t.get(i).cloned().unwrap_or(Value::Bool(true)),
                        None => o.get("items").cloned().unwrap_or(Value::Bool(true)),
                    };
                    out.push(self.gen(&sub, depth + 1)?);
                }
                Ok(Value::Array(out))
            }
            "object" => {
                let mut out = Object::new();
                let req: Vec<&str> =
                    o.get("required").and_then(Value::as_array).map(|r| r.iter().filter_map(Value::as_str).collect()).unwrap_or_default();
                if let Some(Value::Object(props)) = o.get("properties") {
                    for (k, ps) in props.iter() {
                        if req.contains(&k.as_str()) {
                            out.insert(k.clone(), self.gen(ps, depth + 1)?);
                        } else if self.rng.coin() {
                            // An optional property is sent with a value or
                            // not at all: an explicit null for an optional
                            // property is indistinguishable from "omitted"
                            // under strict mode (documented in coerce.rs).
                            if let Ok(v) = self.gen(ps, depth + 1) {
                                if v != Value::Null {
                                    out.insert(k.clone(), v);
                                }
                            }
                        }
                    }
                }
                for r in &req {
                    if !out.contains_key(r) {
                        return Err(Skip::Unsupported("required without a property schema"));
                    }
                }
                if !o.contains_key("properties") {
                    if let Some(a @ Value::Object(_)) = o.get("additionalProperties") {
                        for i in 0..self.rng.below(3) {
                            if let Ok(v) = self.gen(a, depth + 1) {
                                out.insert(format!("k{i}"), v);
                            }
                        }
                    }
                }
                Ok(Value::Object(out))
            }
            _ => Err(Skip::Unsupported("type")),
        }
    }
}

trait AsNumber {
    fn into_number(self) -> json::Number;
}

impl AsNumber for Value {
    fn into_number(self) -> json::Number {
        match self {
            Value::Number(n) => n,
            _ => unreachable!(),
        }
    }
}

/// The arguments as a model of `target` sends them for the normalized
/// schema: strict mode sends `null` for every omitted optional (now required
/// and nullable) property; Gemini sends string enums as strings; a property
/// the normalized schema names differently (`keys`: original → mapped, from
/// `property_key_map`) is sent under its new name.
fn model_form(norm: &Value, v: &Value, target: Dialect, keys: &Keys) -> Value {
    let Value::Object(o) = norm else { return v.clone() };
    if let Some(Value::Array(bs)) = o.get("anyOf") {
        for b in bs {
            let m = model_form(b, v, target, keys);
            if validate(b, &m).is_empty() {
                return m;
            }
        }
        return v.clone();
    }
    match v {
        Value::Number(_) | Value::Bool(_) => {
            let string_enum = matches!(o.get("enum"), Some(Value::Array(e)) if e.iter().all(|x| matches!(x, Value::String(_))));
            if string_enum && o.get("type").and_then(Value::as_str) == Some("string") {
                return Value::String(c(v));
            }
            v.clone()
        }
        Value::Object(map) => {
            let props = o.get("properties").and_then(Value::as_object);
            let mut out = Object::new();
            let addl = o.get("additionalProperties").filter(|a| a.as_object().is_some());
            for (k, x) in map.iter() {
                let declared = |n: &str| props.and_then(|p| p.get(n)).map(|ps| (n.to_string(), ps));
                let (name, m) = match declared(k).or_else(|| keys.get(k.as_str()).and_then(|n| declared(n))) {
                    Some((n, ps)) => (n, model_form(ps, x, target, keys)),
                    None => (k.to_string(), addl.map_or_else(|| x.clone(), |a| model_form(a, x, target, keys))),
                };
                out.insert(name, m);
            }
            if target == Dialect::OpenAiStrict {
                for r in o.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str) {
                    if !out.contains_key(r) {
                        out.insert(r, Value::Null);
                    }
                }
            }
            Value::Object(out)
        }
        Value::Array(items) => match o.get("items") {
            Some(is) => Value::Array(items.iter().map(|x| model_form(is, x, target, keys)).collect()),
            None => v.clone(),
        },
        _ => v.clone(),
    }
}

/// Original property name → the name the target sees.
type Keys = HashMap<String, String>;

fn keys_of(schema: &Value, target: Dialect) -> Keys {
    property_key_map(schema, target).unwrap_or_default().into_iter().collect()
}

/// Whether an object key anywhere in `v` is a name the target sees mapped.
fn uses_mapped_key(v: &Value, keys: &Keys) -> bool {
    match v {
        Value::Object(o) => o.iter().any(|(k, x)| keys.contains_key(k.as_str()) || uses_mapped_key(x, keys)),
        Value::Array(a) => a.iter().any(|x| uses_mapped_key(x, keys)),
        _ => false,
    }
}

#[test]
fn generated_arguments_validate_against_the_normalized_schema_and_coerce_back_exactly() {
    use proptest::test_runner::{Config, TestCaseError, TestRunner};
    use std::cell::RefCell;
    let all = all_schemas();
    let normalized: Vec<Vec<Option<Normalized>>> =
        all.iter().map(|s| TARGETS.iter().map(|t| normalize(&s.schema, *t, REF_DEPTH, BUDGET).ok()).collect()).collect();
    let key_maps: Vec<Vec<Keys>> = all.iter().map(|s| TARGETS.iter().map(|t| keys_of(&s.schema, *t)).collect()).collect();
    let mapped_round_trips = RefCell::new(0usize);
    let skips: RefCell<BTreeMap<String, usize>> = RefCell::new(BTreeMap::new());
    let checked = RefCell::new(0usize);
    let mut runner = TestRunner::new(Config { cases: 24, failure_persistence: None, ..Config::default() });
    let result = runner.run(&proptest::prelude::any::<u64>(), |seed| {
        for (i, s) in all.iter().enumerate() {
            let mut g = Gen { root: &s.schema, rng: Rng(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) };
            let v = match g.gen(&s.schema, 0) {
                Ok(v) => v,
                Err(why) => {
                    *skips.borrow_mut().entry(format!("{why:?}")).or_default() += 1;
                    continue;
                }
            };
            if !validate(&s.schema, &v).is_empty() {
                *skips.borrow_mut().entry("generated value invalid (generator too simple)".into()).or_default() += 1;
                continue;
            }
            for (ti, target) in TARGETS.iter().enumerate() {
                let Some(n) = &normalized[i][ti] else { continue };
                let keys = &key_maps[i][ti];
                let mapped = model_form(&n.schema, &v, *target, keys);
                let errs = validate(&n.schema, &mapped);
                if !errs.is_empty() {
                    return Err(TestCaseError::fail(format!(
                        "{} [{}]: {} rejected by the normalized schema: {:?}\n  normalized: {}",
                        s.id(),
                        target.id(),
                        c(&mapped),
                        errs,
                        short(&n.schema)
                    )));
                }
                match coerce_arguments(&s.schema, *target, &mapped) {
                    Ok(back) if back == v => {}
                    other => {
                        return Err(TestCaseError::fail(format!(
                            "{} [{}]: sent {} → {:?}, expected {}",
                            s.id(),
                            target.id(),
                            c(&mapped),
                            other.map(|x| c(&x)),
                            c(&v)
                        )))
                    }
                }
                *checked.borrow_mut() += 1;
                if uses_mapped_key(&v, keys) {
                    *mapped_round_trips.borrow_mut() += 1;
                }
            }
        }
        Ok(())
    });
    eprintln!(
        "round trips checked: {} ({} through mapped property names); skipped (schema × case): {:?}",
        checked.borrow(),
        mapped_round_trips.borrow(),
        skips.borrow()
    );
    if let Err(e) = result {
        panic!("{e}");
    }
    // The synthetic `invalid-property-keys` alone gives 24 cases × 2 targets.
    assert!(*mapped_round_trips.borrow() >= 40, "too few round trips through mapped names: {}", mapped_round_trips.borrow());
    assert!(*checked.borrow() > 50_000, "too few round trips: {}", checked.borrow());
}

// ===========================================================================
// Attacks and edge cases, by name
// ===========================================================================

fn props_of(v: &Value) -> Vec<String> {
    v.as_object().and_then(|o| o.get("properties")).and_then(Value::as_object).map(|p| p.keys().map(|k| k.to_string()).collect()).unwrap_or_default()
}

#[test]
fn a_property_named_anyof_ref_or_properties_survives_untouched() {
    let s = j(r#"{"type":"object","properties":{
        "anyOf":{"type":"string"},
        "$ref":{"type":"integer"},
        "properties":{"type":"object","properties":{"oneOf":{"type":"boolean"},"$defs":{"type":"string"}},"required":["oneOf"]},
        "allOf":{"type":"array","items":{"type":"string"}}},
        "required":["$ref","properties"]}"#);
    let args = j(r#"{"anyOf":"x","$ref":3,"properties":{"oneOf":true,"$defs":"d"},"allOf":["a"]}"#);
    for target in TARGETS {
        let n = normalize(&s, target, REF_DEPTH, BUDGET).unwrap();
        // Names, never keywords. Anthropic (and portable) take no `$` in a
        // property name: `$ref`/`$defs` are renamed there, and only those.
        let dollar = matches!(target, Dialect::Anthropic | Dialect::Portable);
        let (r, d) = if dollar { ("_ref", "_defs") } else { ("$ref", "$defs") };
        assert_eq!(props_of(&n.schema), ["anyOf", r, "properties", "allOf"], "{}", target.id());
        let p = n.schema.as_object().unwrap().get("properties").unwrap();
        assert_eq!(props_of(p.as_object().unwrap().get("properties").unwrap()), ["oneOf", d]);
        assert!(n.changes.iter().all(|c| !c.detail.contains("inlined") && !c.detail.contains("oneOf →")), "{:?}", n.changes);
        let mapped: Vec<&str> = n.changes.iter().filter(|c| c.action == Action::Mapped).map(|c| c.pointer.as_str()).collect();
        if dollar {
            assert_eq!(mapped, ["/properties/properties/properties/$defs", "/properties/$ref", "/required"], "{}", target.id());
        } else {
            assert!(mapped.is_empty());
        }
        assert!(check(target, &n).is_empty(), "{:?}", check(target, &n));
        let sent = model_form(&n.schema, &args, target, &keys_of(&s, target));
        assert!(validate(&n.schema, &sent).is_empty(), "{}: {}", target.id(), c(&sent));
        assert_eq!(coerce_arguments(&s, target, &sent), Ok(args.clone()));
    }
    let no_dollar = j(
        r#"{"type":"object","properties":{"anyOf":{"type":"string"},"properties":{"type":"object","properties":{"oneOf":{"type":"boolean"}}},"required":{"type":"boolean"}},"required":["required"]}"#,
    );
    for target in [Dialect::Anthropic, Dialect::Portable] {
        let n = normalize(&no_dollar, target, REF_DEPTH, BUDGET).unwrap();
        assert_eq!(props_of(&n.schema), ["anyOf", "properties", "required"]);
        assert!(check(target, &n).is_empty());
    }
}

#[test]
fn mongodb_dollar_property_names_are_mapped_for_anthropic_and_mapped_back() {
    // mongodb-mcp-server's `find.sort` and `aggregate.pipeline`, cut down,
    // plus a real `_vectorSearch` sibling so the mapped name must avoid it.
    let s = j(r#"{"type":"object","properties":{
        "sort":{"type":"object","propertyNames":{"type":"string"},"additionalProperties":{"anyOf":[
            {"type":"number","enum":[1,-1]},
            {"type":"object","properties":{"$meta":{"type":"string"}},"required":["$meta"]}]}},
        "pipeline":{"type":"array","items":{"anyOf":[
            {"type":"object","properties":{"$vectorSearch":{"type":"object","properties":{"index":{"type":"string"}},"required":["index"]}},"required":["$vectorSearch"]},
            {"type":"object","additionalProperties":true}]}},
        "_vectorSearch":{"type":"boolean"}}}"#);
    for target in [Dialect::Anthropic, Dialect::Portable] {
        let n = normalize(&s, target, REF_DEPTH, BUDGET).unwrap();
        assert!(check(target, &n).is_empty(), "{} {:?}", target.id(), check(target, &n));
        let out = c(&n.schema);
        assert!(!out.contains('$'), "{}: {out}", target.id());
        // (Portable drops `additionalProperties`, `$meta`'s home, altogether.)
        let anthropic = target == Dialect::Anthropic;
        assert!(out.contains(r#""_vectorSearch_2""#) && out.contains(r#""_meta""#) == anthropic, "{out}");
        // Each rename is reported where the model sees it, under the original name.
        let mapped: Vec<&str> =
            n.changes.iter().filter(|c| c.action == Action::Mapped && c.severity == Severity::Low).map(|c| c.pointer.as_str()).collect();
        assert_eq!(mapped.iter().any(|p| p.ends_with("/properties/$meta")), anthropic, "{mapped:?}");
        assert!(mapped.iter().any(|p| p.ends_with("/properties/$vectorSearch")), "{mapped:?}");
        assert!(n.changes.iter().filter(|c| c.action == Action::Mapped).all(|c| c.kind == FindingKind::DialectRewritten));
        // Idempotent: nothing left to map.
        let again = normalize(&n.schema, target, REF_DEPTH, BUDGET).unwrap();
        assert_eq!(again.schema, n.schema);
        assert!(again.changes.iter().all(|c| c.action != Action::Mapped));
        assert!(property_key_map(&n.schema, target).unwrap().is_empty());

        // The way back: mapped names get their originals back where the
        // original declares them; an open bag's own `_meta` key (a stage
        // `{"$group":…}` in the open branch) is left alone.
        let sent = j(
            r#"{"sort":{"score":{"_meta":"textScore"},"n":1},"pipeline":[{"_vectorSearch_2":{"index":"v"}},{"_meta":{"a":1}}],"_vectorSearch":true}"#,
        );
        assert!(validate(&n.schema, &sent).is_empty(), "{}: {:?}", target.id(), validate(&n.schema, &sent));
        let want = j(
            r#"{"sort":{"score":{"$meta":"textScore"},"n":1},"pipeline":[{"$vectorSearch":{"index":"v"}},{"_meta":{"a":1}}],"_vectorSearch":true}"#,
        );
        assert_eq!(coerce_arguments(&s, target, &sent), Ok(want.clone()), "{}", target.id());
        // Originals sent as they are stay; a key the arguments already have
        // is never overwritten by a mapped-back one.
        assert_eq!(coerce_arguments(&s, target, &want), Ok(want.clone()));
        let both = j(r#"{"sort":{"k":{"$meta":"a","_meta":"b"}}}"#);
        assert_eq!(coerce_arguments(&s, target, &both), Ok(both.clone()));
        // Other targets never map, so they never map back.
        assert!(coerce_arguments(&s, Dialect::Gemini, &sent).is_err(), "the original requires `$meta`");
    }
}

#[test]
fn a_mapped_name_drops_what_would_contradict_it_under_anthropic() {
    // `propertyNames` that rejects the new name, a pattern that would newly
    // match it, and an enum spelling the old name would each make the
    // normalized schema reject arguments the original takes: removed as
    // lossy, the original enforced on the way back.
    let s = j(r#"{"type":"object","properties":{"o":{"type":"object",
        "properties":{"$a":{"type":"integer"},"b":{"type":"string"}},
        "propertyNames":{"pattern":"^[$b]"},
        "patternProperties":{"^_":{"type":"string"},"^b":{"type":"string"}},
        "enum":[{"$a":1},{"b":"x"}],
        "default":{"$a":1}}}}"#);
    let n = normalize(&s, Dialect::Anthropic, REF_DEPTH, BUDGET).unwrap();
    let o = n.schema.as_object().unwrap().get("properties").unwrap().as_object().unwrap().get("o").unwrap();
    assert_eq!(
        c(o),
        r#"{"type":"object","properties":{"_a":{"type":"integer"},"b":{"type":"string"}},"patternProperties":{"^b":{"type":"string"}}}"#
    );
    let lossy: Vec<&str> = n.changes.iter().filter(|c| c.kind == FindingKind::DialectLossy).map(|c| c.pointer.as_str()).collect();
    assert_eq!(lossy, ["/properties/o/patternProperties/^_", "/properties/o/propertyNames", "/properties/o/enum", "/properties/o/default"]);
    assert_eq!(coerce_arguments(&s, Dialect::Anthropic, &j(r#"{"o":{"_a":1}}"#)), Ok(j(r#"{"o":{"$a":1}}"#)));
    let errs = coerce_arguments(&s, Dialect::Anthropic, &j(r#"{"o":{"_a":2}}"#)).unwrap_err();
    assert_eq!(errs[0].pointer, "/o", "{errs:?}"); // not in the original enum
}

#[test]
fn a_ref_cycle_is_cut_into_an_open_schema_with_a_ref_cut_finding() {
    // The brief's cycle, reached from the root.
    let cyc = j(r##"{"$defs":{"a":{"properties":{"x":{"$ref":"#/$defs/a"}}}},"$ref":"#/$defs/a"}"##);
    for target in TARGETS {
        for depth in [0u32, 2, 8] {
            let n = normalize(&cyc, target, depth, BUDGET).unwrap();
            let cuts: Vec<_> = n.changes.iter().filter(|c| c.kind == FindingKind::RefCut).collect();
            assert_eq!(cuts.len(), 1, "{} depth {depth}: {:?}", target.id(), n.changes);
            assert_eq!(cuts[0].action, Action::Truncated);
            // depth 0: inlined once, its recursion cut; depth d: d more levels.
            let mut nest = 0;
            let mut cur = &n.schema;
            while let Some(x) = cur.as_object().and_then(|o| o.get("properties")).and_then(|p| p.as_object()).and_then(|p| p.get("x")) {
                nest += 1;
                cur = x;
                if let Some(Value::Array(a)) = cur.as_object().and_then(|o| o.get("anyOf")) {
                    cur = &a[0]; // openai-strict: x is optional, so nullable
                }
            }
            assert_eq!(nest, depth + 1, "{} depth {depth}: {}", target.id(), c(&n.schema));
            assert!(check(target, &n).is_empty(), "{:?}", check(target, &n));
            let again = normalize(&n.schema, target, depth, BUDGET).unwrap();
            assert_eq!(again.schema, n.schema);
        }
    }
    // As written in the issue (nothing refers to `a`): nothing to cut.
    let unused = j(r##"{"$defs":{"a":{"properties":{"x":{"$ref":"#/$defs/a"}}}}}"##);
    let n = normalize(&unused, Dialect::Gemini, REF_DEPTH, BUDGET).unwrap();
    assert_eq!(c(&n.schema), r#"{"type":"object"}"#);
    assert!(n.changes.iter().all(|c| c.kind != FindingKind::RefCut));
    // Mutual recursion and a self-reference to the root terminate too.
    let mutual = j(
        r##"{"type":"object","properties":{"p":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"object","properties":{"b":{"$ref":"#/$defs/b"}}},"b":{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}}}}}"##,
    );
    let root_self = j(r##"{"type":"object","properties":{"child":{"$ref":"#"},"name":{"type":"string"}}}"##);
    for s in [&mutual, &root_self] {
        for target in TARGETS {
            let n = normalize(s, target, REF_DEPTH, BUDGET).unwrap();
            assert!(n.changes.iter().any(|c| c.kind == FindingKind::RefCut), "{}", target.id());
            assert!(check(target, &n).is_empty(), "{} {:?}", target.id(), check(target, &n));
        }
    }
}

#[test]
fn an_expansion_bomb_of_doubling_refs_ends_in_err_via_the_node_budget_quickly() {
    // d0 → 2×d1 → 4×d2 … 30 levels: 2^30 nodes if expanded.
    let mut defs = Object::new();
    for i in 0..30 {
        let next = format!("#/$defs/d{}", i + 1);
        defs.insert(
            format!("d{i}"),
            j(&format!(r#"{{"type":"object","properties":{{"l":{{"$ref":"{next}"}},"r":{{"$ref":"{next}"}}}}}}"#)),
        );
    }
    defs.insert("d30", j(r#"{"type":"string"}"#));
    let mut root = Object::new();
    root.insert("type", Value::str("object"));
    root.insert("properties", j(r##"{"x":{"$ref":"#/$defs/d0"}}"##));
    root.insert("$defs", Value::Object(defs));
    let bomb = Value::Object(root);
    for target in TARGETS {
        let t = std::time::Instant::now();
        let e = normalize(&bomb, target, REF_DEPTH, 10_000).unwrap_err();
        assert!(e.contains("node budget"), "{e}");
        assert!(t.elapsed().as_millis() < 1000, "{} took {:?}", target.id(), t.elapsed());
    }
    // Validating arguments against it only follows what the arguments use.
    let t = std::time::Instant::now();
    assert!(validate(&bomb, &j(r#"{"x":{"l":{"r":{}}}}"#)).is_empty());
    assert_eq!(coerce_arguments(&bomb, Dialect::OpenAiStrict, &j(r#"{"x":{"l":"{\"r\":{}}"}}"#)), Ok(j(r#"{"x":{"l":{"r":{}}}}"#)));
    assert!(t.elapsed().as_millis() < 1000);
    // The budget counts output nodes, not only refs.
    let wide = j(&format!(
        r#"{{"type":"object","properties":{{{}}}}}"#,
        (0..50).map(|i| format!(r#""p{i}":{{"type":"string"}}"#)).collect::<Vec<_>>().join(",")
    ));
    assert!(normalize(&wide, Dialect::Gemini, REF_DEPTH, 20).unwrap_err().contains("node budget"));
    assert!(normalize(&wide, Dialect::Gemini, REF_DEPTH, 51).is_ok());
}

#[test]
fn call_tool_open_arguments_bag_is_flagged_and_left_open_never_closed() {
    let s = j(
        r#"{"type":"object","properties":{"name":{"type":"string"},"arguments":{"type":"object","description":"The tool's input arguments object, matching its loaded input schema."}},"required":["name"]}"#,
    );
    let n = normalize(&s, Dialect::OpenAiStrict, REF_DEPTH, BUDGET).unwrap();
    assert!(!n.strict_ok);
    let flags: Vec<_> = n.changes.iter().filter(|c| c.kind == FindingKind::DialectUnsupported).collect();
    assert_eq!(flags.len(), 1, "{:?}", n.changes);
    assert_eq!(flags[0].action, Action::Flagged);
    assert!(flags[0].pointer.starts_with("/properties/arguments"), "{}", flags[0].pointer);
    let args_schema = n.schema.as_object().unwrap().get("properties").unwrap().as_object().unwrap().get("arguments").unwrap();
    assert!(!c(args_schema).contains("additionalProperties"), "the bag was closed: {}", c(args_schema));
    // Inner tool arguments still get through, untouched.
    let call = j(r#"{"name":"getInbox","arguments":{"mailbox":7,"tags":["a"],"deep":{"x":null}}}"#);
    assert_eq!(coerce_arguments(&s, Dialect::OpenAiStrict, &call), Ok(call.clone()));
    // Gemini/anthropic keep it as an open object too.
    for target in [Dialect::Gemini, Dialect::Anthropic, Dialect::Portable] {
        let n = normalize(&s, target, REF_DEPTH, BUDGET).unwrap();
        let a = n.schema.as_object().unwrap().get("properties").unwrap().as_object().unwrap().get("arguments").unwrap();
        assert_eq!(c(a), r#"{"type":"object","description":"The tool's input arguments object, matching its loaded input schema."}"#);
    }
}

#[test]
fn weak_model_strings_are_coerced_at_every_depth_and_real_strings_stay_strings() {
    let s = j(r#"{"type":"object","properties":{
        "ids":{"type":"array","items":{"type":"integer"}},
        "opts":{"type":"object","properties":{"deep":{"type":"boolean"},"n":{"type":"number"},"inner":{"type":"object","properties":{"k":{"type":"integer"}}}},"required":["deep"]},
        "label":{"type":"string"},
        "either":{"anyOf":[{"type":"integer"},{"type":"string"}]},
        "count":{"type":"integer"}},"required":["ids"]}"#);
    let sent = j(
        r#"{"ids":"[1,2]","opts":"{\"deep\":\"true\",\"n\":\"2.5\",\"inner\":\"{\\\"k\\\":\\\"7\\\"}\"}","label":"42","either":"5","count":"9007199254740993"}"#,
    );
    let want = j(r#"{"ids":[1,2],"opts":{"deep":true,"n":2.5,"inner":{"k":7}},"label":"42","either":"5","count":9007199254740993}"#);
    for target in [Dialect::None, Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic] {
        assert_eq!(coerce_arguments(&s, target, &sent), Ok(want.clone()), "{}", target.id());
    }
    // What does not parse to a wanted type is reported, with pointers.
    let bad = j(r#"{"ids":"[1,\"x\"]","opts":{"n":"many"},"count":"1.5"}"#);
    let errs = coerce_arguments(&s, Dialect::Gemini, &bad).unwrap_err();
    let ptrs: Vec<&str> = errs.iter().map(|v| v.pointer.as_str()).collect();
    assert!(ptrs.contains(&"/ids/1"), "{errs:?}");
    assert!(ptrs.contains(&"/opts"), "{errs:?}"); // required "deep" missing
    assert!(ptrs.contains(&"/opts/n"), "{errs:?}");
    assert!(ptrs.contains(&"/count"), "{errs:?}");
}

#[test]
fn strict_mode_nulls_of_optional_properties_are_dropped_and_required_nulls_kept() {
    let s = j(r#"{"type":"object","properties":{
        "q":{"type":"string"},
        "limit":{"type":"integer","default":10},
        "cursor":{"anyOf":[{"type":"string"},{"type":"null"}]},
        "filter":{"type":"object","properties":{"tag":{"type":"string"},"since":{"type":"string"}},"required":["tag"]}},
        "required":["q","cursor"]}"#);
    let n = normalize(&s, Dialect::OpenAiStrict, REF_DEPTH, BUDGET).unwrap();
    assert!(n.strict_ok);
    let sent = j(r#"{"q":"x","limit":null,"cursor":null,"filter":{"tag":"t","since":null}}"#);
    assert!(validate(&n.schema, &sent).is_empty());
    assert_eq!(coerce_arguments(&s, Dialect::OpenAiStrict, &sent), Ok(j(r#"{"q":"x","cursor":null,"filter":{"tag":"t"}}"#)));
    // Other targets never made anything nullable: a null stays and is judged.
    let errs = coerce_arguments(&s, Dialect::Gemini, &sent).unwrap_err();
    assert!(errs.iter().any(|v| v.pointer == "/limit"), "{errs:?}");
}

#[test]
fn gemini_string_enums_map_back_to_the_original_values() {
    let s = j(
        r#"{"type":"object","properties":{"level":{"type":"integer","enum":[1,2,3]},"flag":{"enum":[true,false]},"ratio":{"const":1.50}},"required":["level"]}"#,
    );
    let n = normalize(&s, Dialect::Gemini, REF_DEPTH, BUDGET).unwrap();
    assert_eq!(
        c(&n.schema),
        r#"{"type":"object","properties":{"level":{"type":"string","enum":["1","2","3"]},"flag":{"enum":["true","false"],"type":"string"},"ratio":{"enum":["1.50"],"type":"string"}},"required":["level"]}"#
    );
    let sent = j(r#"{"level":"2","flag":"false","ratio":"1.50"}"#);
    assert!(validate(&n.schema, &sent).is_empty());
    assert_eq!(coerce_arguments(&s, Dialect::Gemini, &sent), Ok(j(r#"{"level":2,"flag":false,"ratio":1.50}"#)));
    assert!(coerce_arguments(&s, Dialect::Gemini, &j(r#"{"level":"4"}"#)).is_err());
}

#[test]
fn schemas_that_cannot_be_expressed_are_errors_with_a_reason() {
    let cases = [
        (r#"{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}"#, "outside"),
        (r##"{"type":"object","properties":{"a":{"$ref":"#/$defs/missing"}}}"##, "does not resolve"),
        (r#"{"type":"string"}"#, "root"),
        (r#"{"type":"array","items":{"type":"string"}}"#, "root"),
        (r#"{"anyOf":[{"type":"string"},{"type":"integer"}]}"#, "object alternative"),
        ("false", "admits no arguments"),
        ("[]", "must be an object"),
    ];
    for (s, why) in cases {
        for target in TARGETS {
            let e = normalize(&j(s), target, REF_DEPTH, BUDGET).unwrap_err();
            assert!(e.contains(why), "{s} [{}]: {e}", target.id());
        }
    }
    // `true` and `{}` are the open object: fine.
    assert_eq!(c(&normalize(&j("true"), Dialect::Gemini, REF_DEPTH, BUDGET).unwrap().schema), r#"{"type":"object"}"#);
}

#[test]
fn tool_names_follow_each_target() {
    let cases: &[(&str, [bool; 5])] = &[
        // name                 none  gemini openai anthropic portable
        ("get_weather", [true, true, true, true, true]),
        ("server__tool-1", [true, true, true, true, true]),
        ("ns.tool", [true, true, false, false, false]),
        ("ns:tool", [true, true, false, false, false]),
        ("1tool", [true, false, true, true, false]),
        ("-tool", [true, false, true, true, false]),
        ("_tool", [true, true, true, true, true]),
        ("", [true, false, false, false, false]),
        ("tool name", [true, false, false, false, false]),
        ("tööl", [true, false, false, false, false]),
    ];
    let long64 = "a".repeat(64);
    let long65 = "a".repeat(65);
    for (name, want) in cases.iter().copied().chain([(long64.as_str(), [true; 5]), (long65.as_str(), [true, false, false, false, false])]) {
        let got =
            [Dialect::None, Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable].map(|t| tool_name_ok(name, t));
        assert_eq!(got, want, "{name:?}");
    }
}

#[test]
fn adversarial_catalogs_never_panic_and_stay_bounded() {
    let dir = testdata::adversarial();
    let mut n = 0;
    for e in std::fs::read_dir(&dir).expect("adversarial corpus").filter_map(|e| e.ok()) {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "json") {
            continue;
        }
        let Ok(doc) = json::parse(&std::fs::read_to_string(&p).unwrap(), ParseOptions::default()) else { continue };
        let Some(tools) = doc.value.as_object().and_then(|o| o.get("tools")).and_then(Value::as_array).cloned() else { continue };
        for t in tools {
            for k in ["inputSchema", "outputSchema"] {
                let Some(s) = t.as_object().and_then(|o| o.get(k)) else { continue };
                for target in TARGETS {
                    let start = std::time::Instant::now();
                    if let Ok(out) = normalize(s, target, REF_DEPTH, 2000) {
                        n += 1;
                        let again = normalize(&out.schema, target, REF_DEPTH, 2000).expect("the output normalizes again");
                        assert_eq!(again.schema, out.schema, "{}: not idempotent", p.display());
                        let _ = coerce_arguments(s, target, &j(r#"{"a":"[1]","b":null}"#));
                    }
                    if std::env::var("DIALECT_DEBUG").is_ok() && start.elapsed().as_millis() > 100 {
                        eprintln!(
                            "{} {} [{}] {:?}",
                            p.display(),
                            t.as_object().and_then(|o| o.get("name")).map(c).unwrap_or_default(),
                            target.id(),
                            start.elapsed()
                        );
                    }
                    assert!(start.elapsed().as_secs() < 2, "{} took {:?}", p.display(), start.elapsed());
                }
            }
        }
    }
    assert!(n > 50, "only {n} adversarial schemas normalized");
}

#[test]
fn deep_recursion_at_the_largest_policy_depth_stays_within_the_stack() {
    // max_ref_depth 64 is the policy maximum; a chain of 300 distinct
    // definitions is cut at the output depth bound instead of recursing on.
    let self_ref = j(r##"{"type":"object","properties":{"x":{"$ref":"#"},"n":{"type":"integer"}}}"##);
    let mut defs = Object::new();
    for i in 0..300 {
        defs.insert(format!("d{i}"), j(&format!(r##"{{"type":"object","properties":{{"next":{{"$ref":"#/$defs/d{}"}}}}}}"##, i + 1)));
    }
    defs.insert("d300", j(r#"{"type":"string"}"#));
    let mut chain = Object::new();
    chain.insert("type", Value::str("object"));
    chain.insert("properties", j(r##"{"head":{"$ref":"#/$defs/d0"}}"##));
    chain.insert("$defs", Value::Object(defs));
    let chain = Value::Object(chain);
    for s in [&self_ref, &chain] {
        for target in TARGETS {
            let n = normalize(s, target, 64, 1_000_000).unwrap();
            assert!(n.changes.iter().any(|c| c.kind == FindingKind::RefCut), "{}", target.id());
            assert!(check(target, &n).is_empty(), "{} {:?}", target.id(), &check(target, &n)[..1]);
            let args = j(r#"{"x":{"x":{"n":"3"}},"head":{"next":"{\"next\":{}}"}}"#);
            let _ = coerce_arguments(s, target, &args);
        }
    }
}

/// A draft-07 tuple whose members are no schemas (`items: ["name"]`) admits
/// any item (a member that is no schema checks nothing), and normalizing it
/// says so: `items` admits anything, and a second pass changes nothing. It
/// was an empty `anyOf`, which admits no item and which the next pass read
/// as `maxItems: 0` (found by the schema fuzz target).
#[test]
fn a_tuple_of_no_schemas_admits_any_item_and_normalizes_once() {
    let schema = j(r#"{"type":"object","properties":{"tags":{"type":"array","items":["name"]}}}"#);
    let args = j(r#"{"tags":["a","b"]}"#);
    assert!(validate(&schema, &args).is_empty());
    for target in [Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable] {
        let once = normalize(&schema, target, 4, 2000).unwrap();
        let twice = normalize(&once.schema, target, 4, 2000).unwrap();
        assert!(twice.schema.schema_eq(&once.schema), "{}: {} then {}", target.id(), c(&once.schema), c(&twice.schema));
        let out = coerce_arguments(&schema, target, &args).unwrap();
        assert!(validate(&schema, &out).is_empty(), "{}", target.id());
        assert!(!c(&once.schema).contains("\"anyOf\":[]"), "{}: {}", target.id(), c(&once.schema));
    }
}
