//! The `schema` interface: the component's answers equal the native
//! `mcp_guard::dialect` functions called with the same arguments.

mod common;

use common::{instance, json_files, testdata};
use mcp_guard::dialect;
use mcp_guard::json::{parse, write_compact, ParseOptions, Value};
use mcp_guard::policy::Dialect as NativeDialect;
use mcp_guard_host::{
    dialect_from_native, schema_error_kind, to_native_changes, to_native_normalized, to_native_violations, Dialect,
    GuardInstance, SchemaError, DIALECTS,
};

/// The four real targets (`none` is the identity, tested on its own).
const TARGETS: [NativeDialect; 4] =
    [NativeDialect::Gemini, NativeDialect::OpenAiStrict, NativeDialect::Anthropic, NativeDialect::Portable];

/// The pipeline's defaults (`core.schema_dialect.max_ref_depth`,
/// `core.schema_limits.max_nodes`).
const MAX_REF_DEPTH: u32 = 8;
const NODE_BUDGET: u32 = 2000;

fn j(text: &str) -> Value {
    parse(text, ParseOptions::default()).unwrap_or_else(|e| panic!("{e}: {text}")).value
}

/// Normalizes `text` in the component and natively; `Err` describes the
/// first difference. `Ok(true)` when the schema was normalized, `Ok(false)`
/// when both refused it with the same reason.
fn normalize_parity(
    g: &mut GuardInstance,
    text: &str,
    target: NativeDialect,
    max_ref_depth: u32,
    node_budget: u32,
) -> Result<bool, String> {
    let wit = g.normalize_schema(text, dialect_from_native(target), max_ref_depth, node_budget).expect("no trap");
    let native = parse(text, ParseOptions::default())
        .map_err(|e| (e.offset as u64, e.to_string()))
        .map(|p| dialect::normalize(&p.value, target, max_ref_depth, node_budget));
    match (native, wit) {
        (Ok(Ok(n)), Ok(w)) => {
            let native_bytes = write_compact(&n.schema);
            if w.schema != native_bytes {
                return Err(format!("schema bytes differ:\n  component {}\n  native    {native_bytes}", w.schema));
            }
            if w.strict_ok != n.strict_ok {
                return Err(format!("strict-ok: component {}, native {}", w.strict_ok, n.strict_ok));
            }
            let changes = to_native_changes(w.changes)?;
            if changes != n.changes {
                return Err(format!("changes differ:\n  component {changes:#?}\n  native    {:#?}", n.changes));
            }
            Ok(true)
        }
        (Ok(Err(why)), Err(SchemaError::Unsupported(w))) if w == why => Ok(false),
        (Err((offset, reason)), Err(SchemaError::InvalidJson(w))) if w.offset == offset && w.reason == reason => {
            Ok(false)
        }
        (native, Ok(w)) => Err(format!("component normalized ({}), native answered {native:?}", w.schema)),
        (native, Err(w)) => Err(format!("component refused ({}: {w:?}), native answered {native:?}", schema_error_kind(&w))),
    }
}

/// Every `inputSchema`/`outputSchema` of the real catalogs (`testdata/catalogs`), with a label.
fn corpus_schemas() -> Vec<(String, Value)> {
    let dir = testdata::catalogs();
    let mut out = Vec::new();
    for file in json_files(&dir) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let doc = parse(&text, ParseOptions::default()).unwrap_or_else(|e| panic!("{}: {e}", file.display())).value;
        let name = file.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let Some(tools) = doc.as_object().and_then(|o| o.get("tools")).and_then(Value::as_array) else {
            continue;
        };
        for (i, tool) in tools.iter().enumerate() {
            let Some(tool) = tool.as_object() else { continue };
            for key in ["inputSchema", "outputSchema"] {
                if let Some(schema) = tool.get(key) {
                    out.push((format!("{name} tools/{i}/{key}"), schema.clone()));
                }
            }
        }
    }
    out
}

#[test]
fn normalize_schema_matches_native_on_the_corpus() {
    let schemas = corpus_schemas();
    assert!(schemas.len() >= 500, "only {} schemas under {}", schemas.len(), testdata::catalogs().display());
    let mut g = instance();
    let mut failures = Vec::new();
    let (mut normalized, mut refused, mut changes, mut strict) = (0, 0, 0, 0);
    for (label, schema) in &schemas {
        let text = write_compact(schema);
        for target in TARGETS {
            match normalize_parity(&mut g, &text, target, MAX_REF_DEPTH, NODE_BUDGET) {
                Ok(true) => {
                    normalized += 1;
                    // Counted natively: the parity check above already
                    // proved the component reports the same.
                    if let Ok(n) = dialect::normalize(schema, target, MAX_REF_DEPTH, NODE_BUDGET) {
                        changes += n.changes.len();
                        strict += n.strict_ok as usize;
                    }
                }
                Ok(false) => refused += 1,
                Err(why) => failures.push(format!("{label} ({}): {why}", target.id())),
            }
        }
    }
    eprintln!(
        "{} schemas x {} targets: {normalized} normalized ({changes} changes, {strict} strict-ok), {refused} refused",
        schemas.len(),
        TARGETS.len()
    );
    assert!(failures.is_empty(), "{} differences, first ones:\n{}", failures.len(), failures[..failures.len().min(5)].join("\n"));
    // The corpus exercises the interesting paths, not just the identity.
    assert!(normalized > 0 && changes > 0 && strict > 0, "corpus too tame: {normalized} {changes} {strict}");
}

#[test]
fn normalize_schema_refusals_and_edge_cases_match_native() {
    let mut g = instance();
    let deep = format!("{}{}", "[".repeat(300), "]".repeat(300));
    let cases: &[&str] = &[
        // Not valid JSON: typed `invalid-json`, never a trap.
        "",
        "[1,2",
        "{\"type\":\"object\"} x",
        "\u{feff}{}",
        "{\"a\":1,\"a\":2}",
        "{\"type\":\"object\" /* c */}",
        &deep,
        // Valid JSON the targets cannot express: `unsupported`.
        "5",
        "false",
        "\"object\"",
        "{\"$ref\":\"https://example.com/s.json\"}",
        "{\"$ref\":\"#/$defs/missing\"}",
        "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}",
        "{\"type\":\"object\",\"properties\":{\"bad name!\":{\"type\":\"string\"}}}",
        // Normalized.
        "true",
        "{}",
        "{\"type\":\"object\",\"properties\":{\"a\":{\"oneOf\":[{\"type\":\"string\"},{\"type\":\"integer\"}]},\"b\":{\"const\":3}},\"required\":[\"a\"]}",
        "{\"type\":\"object\",\"properties\":{\"n\":{\"$ref\":\"#/$defs/node\"}},\"$defs\":{\"node\":{\"type\":\"object\",\"properties\":{\"next\":{\"$ref\":\"#/$defs/node\"}}}}}",
        "{\"type\":\"object\",\"properties\":{\"x\":{\"type\":[\"string\",\"null\"],\"x-vendor\":1}},\"additionalProperties\":{\"type\":\"string\"}}",
    ];
    let mut kinds = std::collections::BTreeMap::new();
    for text in cases {
        for target in TARGETS {
            for (depth, budget) in [(MAX_REF_DEPTH, NODE_BUDGET), (0, 2000), (2, 3), (8, 0)] {
                let ok = normalize_parity(&mut g, text, target, depth, budget)
                    .unwrap_or_else(|why| panic!("{text:.80} ({}, {depth}, {budget}): {why}", target.id()));
                *kinds.entry(ok).or_insert(0) += 1;
            }
        }
    }
    assert_eq!(kinds.len(), 2, "both normalized and refused cases: {kinds:?}");

    // The error cases themselves, spelled out.
    let openai = Dialect::OpenaiStrict;
    match g.normalize_schema("[1,2", openai, 8, 2000).unwrap() {
        Err(SchemaError::InvalidJson(e)) => assert_eq!(e.offset, 4, "{e:?}"),
        other => panic!("{other:?}"),
    }
    for bad in ["{\"a\":1,\"a\":2}", deep.as_str()] {
        assert!(matches!(g.normalize_schema(bad, openai, 8, 2000).unwrap(), Err(SchemaError::InvalidJson(_))), "{bad:.20}");
    }
    match g.normalize_schema("5", openai, 8, 2000).unwrap() {
        Err(SchemaError::Unsupported(why)) => assert_eq!(why, "a schema must be an object, not number"),
        other => panic!("{other:?}"),
    }
    // The instance is still usable after every refusal.
    assert!(g.normalize_schema("{}", openai, 8, 2000).unwrap().is_ok());
}

#[test]
fn target_none_is_the_identity() {
    let mut g = instance();
    let text = "{ \"oneOf\" : [ {\"$ref\":\"#/x\"} ], \"x-vendor\": 1.50 }";
    let n = g.normalize_schema(text, Dialect::None, 0, 0).unwrap().unwrap();
    assert_eq!(n.schema, r##"{"oneOf":[{"$ref":"#/x"}],"x-vendor":1.50}"##);
    assert!(n.changes.is_empty() && !n.strict_ok);
    let native = to_native_normalized(n).unwrap();
    assert_eq!(native, dialect::normalize(&j(text), NativeDialect::None, 0, 0).unwrap());
    // Not valid JSON is refused even for `none`.
    assert!(matches!(g.normalize_schema("{", Dialect::None, 0, 0).unwrap(), Err(SchemaError::InvalidJson(_))));
}

/// Component vs native `coerce_arguments` on valid JSON; returns the answer.
fn coerce_parity(g: &mut GuardInstance, schema: &str, target: NativeDialect, args: &str) -> Result<String, Vec<dialect::Violation>> {
    let wit = g.coerce_arguments(schema, dialect_from_native(target), args).expect("no trap");
    let wit = wit.map_err(to_native_violations);
    let native = dialect::coerce_arguments(&j(schema), target, &j(args)).map(|v| write_compact(&v));
    assert_eq!(wit, native, "coerce {args} against {schema} for {}", target.id());
    wit
}

const LIST_SCHEMA: &str = r#"{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"n":{"type":"integer"},"s":{"type":"string"}},"required":["tags"]}"#;

#[test]
fn coerce_arguments_matches_native() {
    let mut g = instance();
    let all = [NativeDialect::None, NativeDialect::Gemini, NativeDialect::OpenAiStrict, NativeDialect::Anthropic, NativeDialect::Portable];

    // Stringified array and number (not the string property: a string stays one).
    for target in all {
        assert_eq!(
            coerce_parity(&mut g, LIST_SCHEMA, target, r#"{"tags":"[\"a\",\"b\"]","n":"5","s":"7"}"#).as_deref(),
            Ok(r#"{"tags":["a","b"],"n":5,"s":"7"}"#)
        );
    }
    // At depth: a stringified object holding a stringified array.
    let nested = r#"{"type":"object","properties":{"filter":{"type":"object","properties":{"ids":{"type":"array","items":{"type":"number"}}}}}}"#;
    assert_eq!(
        coerce_parity(&mut g, nested, NativeDialect::Gemini, r#"{"filter":"{\"ids\":\"[1,2.5]\"}"}"#).as_deref(),
        Ok(r#"{"filter":{"ids":[1,2.5]}}"#)
    );
    // Gemini's string enum maps back to the original number.
    let level = r#"{"type":"object","properties":{"level":{"enum":[1,2,3]}}}"#;
    assert_eq!(coerce_parity(&mut g, level, NativeDialect::Gemini, r#"{"level":"2"}"#).as_deref(), Ok(r#"{"level":2}"#));

    // openai-strict nulls: dropped where the original does not require the
    // property, kept where it does (and admits null).
    let search = r#"{"type":"object","properties":{"q":{"type":"string"},"limit":{"type":"integer"},"note":{"type":["string","null"]}},"required":["q","note"]}"#;
    let args = r#"{"q":"x","limit":null,"note":null}"#;
    assert_eq!(coerce_parity(&mut g, search, NativeDialect::OpenAiStrict, args).as_deref(), Ok(r#"{"q":"x","note":null}"#));
    // Other targets made nothing nullable: the null is a violation there.
    for target in [NativeDialect::Gemini, NativeDialect::Anthropic] {
        let v = coerce_parity(&mut g, search, target, args).unwrap_err();
        assert!(v.iter().any(|v| v.pointer == "/limit"), "{v:?}");
    }

    // Violations of the original schema: every one, pointing into the arguments.
    let v = coerce_parity(&mut g, LIST_SCHEMA, NativeDialect::OpenAiStrict, r#"{"n":"abc","s":1}"#).unwrap_err();
    assert!(v.len() >= 2, "{v:?}");
    assert!(v.iter().any(|v| v.pointer == "/n") && v.iter().any(|v| v.pointer == "/s"), "{v:?}");
    coerce_parity(&mut g, LIST_SCHEMA, NativeDialect::Portable, "[]").unwrap_err();
}

#[test]
fn coerce_arguments_reports_invalid_json_as_a_violation() {
    let mut g = instance();
    let strict = Dialect::OpenaiStrict;
    let reason = |text: &str| parse(text, ParseOptions::default()).unwrap_err().to_string();

    let bad_args = r#"{"tags":"#;
    let v = g.coerce_arguments(LIST_SCHEMA, strict, bad_args).unwrap().unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].pointer, "");
    assert_eq!(v[0].reason, format!("the arguments are not valid JSON: {}", reason(bad_args)));

    let dup = r#"{"tags":[],"tags":[]}"#;
    let v = g.coerce_arguments(LIST_SCHEMA, strict, dup).unwrap().unwrap_err();
    assert_eq!((v.len(), v[0].pointer.as_str()), (1, ""), "{v:?}");
    assert!(v[0].reason.contains("duplicate key"), "{v:?}");

    let bad_schema = r#"{"type":"object""#;
    let v = g.coerce_arguments(bad_schema, strict, "{}").unwrap().unwrap_err();
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].pointer, "");
    assert_eq!(v[0].reason, format!("the original schema is not valid JSON: {}", reason(bad_schema)));

    // Both unreadable: one violation each, the schema first.
    let v = g.coerce_arguments(bad_schema, strict, bad_args).unwrap().unwrap_err();
    let reasons: Vec<&str> = v.iter().map(|v| v.reason.as_str()).collect();
    assert_eq!(v.iter().filter(|v| v.pointer.is_empty()).count(), 2, "{v:?}");
    assert!(reasons[0].starts_with("the original schema ") && reasons[1].starts_with("the arguments "), "{reasons:?}");

    // Hostile nesting is refused by the parser bound, not a trap.
    let deep = "[".repeat(100_000);
    let v = g.coerce_arguments(LIST_SCHEMA, strict, &deep).unwrap().unwrap_err();
    assert!(v.len() == 1 && v[0].reason.contains("nesting deeper than 128"), "{v:?}");
    // The instance is still usable.
    assert!(g.coerce_arguments(LIST_SCHEMA, strict, r#"{"tags":[]}"#).unwrap().is_ok());
}

#[test]
fn validate_matches_native() {
    let mut g = instance();
    let schema = r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string","pattern":"^[a-z]+$","maxLength":3}},"required":["n"],"additionalProperties":false}"#;
    let instances = [r#"{"n":2}"#, r#"{"n":0}"#, "{}", r#"{"n":1,"s":"abcd"}"#, r#"{"n":1,"s":"A1"}"#, r#"{"n":1,"x":true}"#, "[1]", "null"];
    let mut invalid = 0;
    for inst in instances {
        let wit = to_native_violations(g.validate(schema, inst).unwrap());
        assert_eq!(wit, dialect::validate(&j(schema), &j(inst)), "{inst}");
        invalid += !wit.is_empty() as usize;
    }
    assert_eq!(invalid, instances.len() - 1, "only the first instance is valid");

    // Invalid JSON is never "valid": one violation at "" per unreadable text.
    let v = g.validate(schema, "{\"n\":").unwrap();
    assert!(v.len() == 1 && v[0].pointer.is_empty() && v[0].reason.starts_with("the instance is not valid JSON: "), "{v:?}");
    let v = g.validate("{", "{}").unwrap();
    assert!(v.len() == 1 && v[0].pointer.is_empty() && v[0].reason.starts_with("the schema is not valid JSON: "), "{v:?}");
    let v = g.validate("{", "{").unwrap();
    assert_eq!(v.len(), 2, "{v:?}");
}

/// Every corpus schema validates `{}` and coerces `{}` the same way in the
/// component as natively (a cheap sweep over real schemas and patterns).
#[test]
fn validate_and_coerce_match_native_on_the_corpus() {
    let mut g = instance();
    let empty = j("{}");
    let mut rejected = 0;
    for (label, schema) in corpus_schemas() {
        let text = write_compact(&schema);
        let wit = to_native_violations(g.validate(&text, "{}").unwrap());
        assert_eq!(wit, dialect::validate(&schema, &empty), "{label}");
        rejected += !wit.is_empty() as usize;
        for target in TARGETS {
            let wit = g.coerce_arguments(&text, dialect_from_native(target), "{}").unwrap();
            let native = dialect::coerce_arguments(&schema, target, &empty).map(|v| write_compact(&v));
            assert_eq!(wit.map_err(to_native_violations), native, "{label} ({})", target.id());
        }
    }
    assert!(rejected > 0, "some corpus tool requires an argument");
}

#[test]
fn tool_name_ok_matches_native() {
    let mut g = instance();
    let long = "a".repeat(64);
    let too_long = "a".repeat(65);
    let names = [
        "get_weather", "get-weather", "ns.tool", "ns:tool", "a.b:c", "9lives", "_private", "-dash", "", "x",
        long.as_str(), too_long.as_str(), "with space", "naïve", "a/b", "tool\u{200b}", "ТOOL", "emoji🙂",
    ];
    for name in names {
        for d in DIALECTS {
            let native = dialect::tool_name_ok(name, mcp_guard_host::dialect_to_native(d).unwrap());
            assert_eq!(g.tool_name_ok(name, d).unwrap(), native, "{name:?} for {d:?}");
        }
    }
    assert!(g.tool_name_ok("a.b:c", Dialect::Gemini).unwrap());
    assert!(!g.tool_name_ok("a.b:c", Dialect::OpenaiStrict).unwrap());
    assert!(!g.tool_name_ok("9lives", Dialect::Portable).unwrap());
    assert!(g.tool_name_ok("9lives", Dialect::Anthropic).unwrap());
    assert!(g.tool_name_ok("", Dialect::None).unwrap());
}
