//! Pass 3: each target's own rules, applied to a node whose combinators and
//! children are already final (see `shape`).
//!
//! | rule                         | gemini | openai-strict | anthropic | portable |
//! |------------------------------|--------|---------------|-----------|----------|
//! | keyword allow-list           | GEMINI_KEYS | OPENAI_KEYS | all 2020-12 | PORTABLE_KEYS |
//! | `format`                     | string: enum, date-time; integer: int32, int64; number: float, double | OPENAI_FORMATS | any | date-time |
//! | type inferred where implied  | yes    | yes           | no        | yes      |
//! | `enum` only on strings       | yes    | no            | no        | yes      |
//! | every array has `items`      | yes    | flagged if not | no       | yes      |
//! | objects closed, all required | no     | yes (open bags flagged) | no | no     |
//! | property names `^[a-zA-Z0-9_.-]{1,64}$` | no | no     | mapped (`keys`) | mapped |
//!
//! Portable is the union of the restrictions that can hold together: Gemini
//! forbids `additionalProperties` and `null` types, which strict mode
//! requires, so portable output is accepted by all three *with OpenAI in
//! non-strict mode* (`strict_ok` is always false for it). Its keyword list is
//! the intersection of Gemini's and strict mode's, plus Gemini's `nullable`.

use super::combinators::{type_of_keyword, value_has_type};
use super::refs::is_annotation;
use super::shape::Pos;
use super::{num, Cx};
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{self, Object, Value};
use crate::policy::Dialect;
use crate::schema::Kw;

pub(super) const GEMINI_KEYS: &[&str] = &[
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

/// Strict mode's supported keywords. `default`, `examples`, `minLength`,
/// `maxLength`, `minProperties`, `maxProperties`, `uniqueItems`,
/// `propertyNames`, `patternProperties`, `allOf`, `not`, `if`/`then`/`else`
/// are not among them.
pub(super) const OPENAI_KEYS: &[&str] = &[
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

pub(super) const PORTABLE_KEYS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "items",
    "minItems",
    "maxItems",
    "enum",
    "properties",
    "required",
    "minimum",
    "maximum",
    "pattern",
    "anyOf",
];

pub(super) const OPENAI_FORMATS: &[&str] = &["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"];

/// Strict-mode size limits (OpenAI structured outputs).
pub(super) const OPENAI_MAX_NESTING: u32 = 10;
pub(super) const OPENAI_MAX_PROPERTIES: u64 = 5000;
pub(super) const OPENAI_MAX_ENUM_VALUES: u64 = 1000;

fn rewritten(cx: &mut Cx, ptr: &str, detail: String) {
    cx.change(K::DialectRewritten, S::Info, ptr, Action::Rewritten, detail);
}

fn lossy(cx: &mut Cx, ptr: &str, sev: S, action: Action, detail: String) {
    cx.change(K::DialectLossy, sev, ptr, action, detail);
}

fn unsupported(cx: &mut Cx, ptr: &str, detail: String) {
    cx.strict_ok = false;
    cx.change(K::DialectUnsupported, S::Low, ptr, Action::Flagged, detail);
}

pub(super) fn apply(v: Value, path: &mut Path, _depth: u32, cx: &mut Cx, pos: Pos) -> Result<Value, String> {
    let Value::Object(mut o) = v else { return Ok(v) };
    let root = pos == Pos::Root;
    if root {
        root_object(&mut o, cx)?;
    }
    let pass = |o: &mut Object, cx: &mut Cx| -> Result<(), String> {
        match cx.target {
            Dialect::Gemini | Dialect::Portable => gemini(o, path, cx, pos)?,
            Dialect::OpenAiStrict => openai(o, path, cx),
            Dialect::Anthropic => anthropic(o, path, cx),
            Dialect::None => {}
        }
        Ok(())
    };
    pass(&mut o, cx)?;
    // Dropping keywords (the allow-list, `required` outside `properties`, a
    // malformed `anyOf`) can leave the rest implying a type the node did not
    // get. Normalizing must be idempotent, so the node gets now the pass that
    // normalizing the output again would give it (found by the `schema`
    // fuzz target).
    if matches!(cx.target, Dialect::Gemini | Dialect::Portable | Dialect::OpenAiStrict) && implied_type(&o).is_some() {
        pass(&mut o, cx)?;
    }
    Ok(Value::Object(o))
}

// ---------------------------------------------------------------------------
// shared rules
// ---------------------------------------------------------------------------

const OBJECT_KW: &[&str] = &[
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
];
const ARRAY_KW: &[&str] =
    &["items", "prefixItems", "minItems", "maxItems", "uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems"];
const STRING_KW: &[&str] = &["minLength", "maxLength", "pattern"];
const NUMBER_KW: &[&str] = &["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"];

/// Sets `type` where the keywords only make sense for one type (a
/// `properties` without `type` also admits strings in JSON Schema, but no
/// author means that, and Gemini and strict mode need the type). Enum-only
/// nodes get the type of their values.
fn infer_type(o: &mut Object, path: &Path, cx: &mut Cx) {
    if let Some(t) = implied_type(o) {
        o.insert("type", Value::str(t));
        rewritten(cx, &path.child("type"), format!("type {t:?} added (implied by the keywords)"));
    }
}

/// The type `infer_type` would set: none when the node has a type or an
/// `anyOf` standing in for it.
fn implied_type(o: &Object) -> Option<&'static str> {
    // Only a real `anyOf` (an array) stands in for the type: a malformed one
    // is dropped later in the pass.
    if o.contains_key("type") || matches!(o.get("anyOf"), Some(Value::Array(_))) {
        return None;
    }
    let has = |list: &[&str]| list.iter().any(|k| o.contains_key(k));
    let groups = [(OBJECT_KW, "object"), (ARRAY_KW, "array"), (STRING_KW, "string"), (NUMBER_KW, "number")];
    let hits: Vec<&str> = groups.iter().filter(|(l, _)| has(l)).map(|(_, t)| *t).collect();
    if let Some(Value::Array(e)) = o.get("enum") {
        enum_type(e)
    } else if hits.len() == 1 {
        Some(hits[0])
    } else {
        None
    }
}

/// The one JSON Schema type of all values, if they share one.
fn enum_type(e: &[Value]) -> Option<&'static str> {
    let vals: Vec<&Value> = e.iter().collect();
    if vals.is_empty() {
        return None;
    }
    ["string", "boolean", "integer", "number", "object", "array", "null"].into_iter().find(|t| vals.iter().all(|v| value_has_type(v, t)))
}

/// Enum values the node's type excludes can never be valid: removed (exact).
fn enum_by_type(o: &mut Object, path: &Path, cx: &mut Cx) {
    let (Some(Value::String(t)), Some(Value::Array(e))) = (o.get("type"), o.get("enum")) else { return };
    if e.iter().all(|v| value_has_type(v, t)) {
        return;
    }
    let t = t.clone();
    let Some(Value::Array(e)) = o.get_mut("enum") else { return };
    let before = e.len();
    e.retain(|v| value_has_type(v, &t));
    if e.len() != before {
        let n = before - e.len();
        rewritten(cx, &path.child("enum"), format!("{n} enum value(s) that are not of type {t:?} removed (they could never be valid)"));
    }
}

/// `prefixItems` (tuples) → `items` admitting any of the tuple's schemas.
fn tuple_to_items(o: &mut Object, path: &Path, cx: &mut Cx) {
    let Some(Value::Array(tuple)) = o.remove("prefixItems") else { return };
    let rest = o.remove("items");
    let mut alts: Vec<Value> = Vec::new();
    let closed = matches!(rest, Some(Value::Bool(false)));
    for s in tuple.iter().cloned().chain(rest.into_iter().filter(|r| !matches!(r, Value::Bool(false)))) {
        alts.push(if s == Value::Bool(true) { Value::Object(Object::new()) } else { s });
    }
    let mut alts = super::combinators::dedupe(alts);
    // No member schema left (an empty tuple, or members that were no
    // schemas and were dropped): the tuple constrains no item. An empty
    // `anyOf` here would admit none, and the next pass would read it as
    // `maxItems: 0` (fuzz: not idempotent).
    let items = if alts.is_empty() || alts.iter().any(|a| matches!(a, Value::Object(x) if x.keys().all(|k| is_annotation(k)))) {
        Value::Object(Object::new())
    } else if alts.len() == 1 {
        alts.pop().unwrap_or(Value::Object(Object::new()))
    } else {
        let mut a = Object::new();
        a.insert("anyOf", Value::Array(alts));
        Value::Object(a)
    };
    o.insert("items", items);
    if closed && !o.contains_key("maxItems") {
        o.insert("maxItems", Value::Number(json::Number::from_u64(tuple.len() as u64)));
    }
    lossy(
        cx,
        &path.child("prefixItems"),
        S::Low,
        Action::Rewritten,
        "tuple (prefixItems) → items admitting any of its member schemas".into(),
    );
}

fn required_in_properties(o: &mut Object, path: &Path, cx: &mut Cx) {
    if !o.contains_key("required") {
        return;
    }
    let props = o.get("properties").and_then(Value::as_object);
    let all_declared = match (o.get("required"), props) {
        (Some(Value::Array(r)), Some(p)) => r.iter().all(|x| x.as_str().is_some_and(|s| p.contains_key(s))),
        _ => false,
    };
    if all_declared {
        return; // the common case, without building a set
    }
    let props: std::collections::HashSet<String> = props.map(|p| p.keys().map(|k| k.to_string()).collect()).unwrap_or_default();
    let Some(Value::Array(r)) = o.get_mut("required") else { return };
    let before = r.len();
    let mut dropped = Vec::new();
    r.retain(|x| {
        let keep = x.as_str().is_some_and(|s| props.contains(s));
        if !keep {
            dropped.push(json::write_compact(x));
        }
        keep
    });
    if r.len() != before {
        let empty = r.is_empty();
        if empty {
            o.remove("required");
        }
        lossy(
            cx,
            &path.child("required"),
            S::Low,
            Action::Removed,
            format!("required names without a property schema removed: {}", dropped.join(", ")),
        );
    }
}

/// The target's keyword list.
fn allowed_keys(t: Dialect) -> Option<&'static [&'static str]> {
    match t {
        Dialect::Gemini => Some(GEMINI_KEYS),
        Dialect::OpenAiStrict => Some(OPENAI_KEYS),
        Dialect::Portable => Some(PORTABLE_KEYS),
        Dialect::Anthropic | Dialect::None => None,
    }
}

/// Before the children are normalized: subschema keywords the target drops
/// anyway (`not`, `if`, Gemini's `additionalProperties`, …) go first, so
/// nothing inside them is normalized and reported for nothing.
pub(super) fn drop_early(o: &mut Object, path: &Path, cx: &mut Cx) {
    let Some(allowed) = allowed_keys(cx.target) else { return };
    let doomed = |k: &str| {
        !allowed.contains(&k)
            && k != "prefixItems" // converted into `items` by the target rules
            && matches!(crate::schema::keyword(k), Some(Kw::SchemaMap | Kw::PatternMap | Kw::SchemaList | Kw::SchemaOne | Kw::Items))
    };
    if o.keys().any(|k| doomed(k)) {
        let mut early = Object::new();
        let keys: Vec<String> = o.keys().filter(|k| doomed(k)).map(|k| k.to_string()).collect();
        for k in keys {
            if let Some(v) = o.remove(&k) {
                early.insert(k, v);
            }
        }
        // Strict mode: keys the patterns admitted must stay admissible, or
        // closing the object later would make them unreachable.
        if cx.target == Dialect::OpenAiStrict
            && early.contains_key("patternProperties")
            && matches!(o.get("additionalProperties"), None | Some(Value::Bool(false)))
        {
            o.insert("additionalProperties", Value::Bool(true));
            rewritten(
                cx,
                &path.child("additionalProperties"),
                "additionalProperties: true in place of patternProperties (the object stays open)".into(),
            );
        }
        allow_list(&mut early, &[], path, cx);
    }
}

/// Keywords that only constrain another type than the node's one type say
/// nothing (`minimum` on a string): removed, exactly.
fn foreign_keywords(o: &mut Object, path: &Path, cx: &mut Cx) {
    let Some(t) = o.get("type").and_then(Value::as_str).map(str::to_string) else { return };
    let applies = |k: &str, v: &Value| type_of_keyword(k, v).is_none_or(|kt| kt == t || (kt == "number" && t == "integer"));
    if o.iter().all(|(k, v)| applies(k, v)) {
        return;
    }
    let foreign: Vec<String> = o
        .iter()
        .filter(|(k, v)| type_of_keyword(k, v).is_some_and(|kt| !(kt == t || (kt == "number" && t == "integer"))))
        .map(|(k, _)| k.to_string())
        .collect();
    for k in foreign {
        o.remove(&k);
        rewritten(cx, &path.child(&k), format!("{k} removed: it does not apply to type {t:?}"));
    }
}

fn allow_list(o: &mut Object, allowed: &[&str], path: &Path, cx: &mut Cx) {
    if o.keys().all(|k| allowed.contains(&k.as_str())) {
        return;
    }
    let target = cx.target.id();
    let drop: Vec<String> = o.keys().filter(|k| !allowed.contains(&k.as_str())).map(|k| k.to_string()).collect();
    for k in drop {
        let v = o.remove(&k).unwrap_or(Value::Null);
        let open = matches!(&v, Value::Bool(true)) || matches!(&v, Value::Object(x) if x.is_empty());
        let says_nothing = matches!(
            k.as_str(),
            "additionalProperties"
                | "unevaluatedProperties"
                | "additionalItems"
                | "unevaluatedItems"
                | "propertyNames"
                | "patternProperties"
                | "dependentSchemas"
        );
        if open && says_nothing {
            // `additionalProperties: true` and friends say nothing: no loss.
            rewritten(cx, &path.child(&k), format!("{k}: {} (the default) removed", json::write_compact(&v)));
            continue;
        }
        let harmless = is_annotation(&k) || (k == "additionalProperties" && v == Value::Bool(false));
        let sev = if harmless { S::Info } else { S::Low };
        lossy(
            cx,
            &path.child(&k),
            sev,
            Action::Removed,
            format!("{k} is not supported by {target}; removed (arguments are still checked against the original schema)"),
        );
    }
}

// ---------------------------------------------------------------------------
// gemini (and portable)
// ---------------------------------------------------------------------------

fn gemini(o: &mut Object, path: &Path, cx: &mut Cx, pos: Pos) -> Result<(), String> {
    let portable = cx.target == Dialect::Portable;
    infer_type(o, path, cx);
    // A lone `null` type has no Gemini form (a null *alternative* becomes
    // `nullable` in the parent's anyOf clean-up).
    if o.get("type").and_then(Value::as_str) == Some("null") && pos != Pos::Branch {
        o.remove("type");
        o.remove("enum");
        // Keywords of other types say nothing about a null value; left
        // without the type, they would imply one on the next pass (found by
        // the `schema` fuzz target: normalizing must be idempotent).
        let vacuous: Vec<String> = o.iter().filter(|(k, v)| type_of_keyword(k, v).is_some()).map(|(k, _)| k.to_string()).collect();
        for k in vacuous {
            o.remove(&k);
            rewritten(cx, &path.child(&k), format!("{k} removed (it cannot apply to type \"null\")"));
        }
        o.insert("nullable", Value::Bool(true));
        lossy(cx, &path.child("type"), S::Low, Action::Rewritten, "type \"null\" has no Gemini form; left open with nullable: true".into());
    }
    enum_by_type(o, path, cx);
    foreign_keywords(o, path, cx);
    gemini_enum(o, path, cx);
    exclusive_bounds(o, path, cx);
    if o.contains_key("prefixItems") {
        tuple_to_items(o, path, cx);
    }
    if let Some(ex) = o.remove("examples") {
        if portable {
            lossy(cx, &path.child("examples"), S::Info, Action::Removed, "examples are not supported by portable; removed".into());
        } else {
            let n = ex.as_array().map_or(0, Vec::len);
            if let Some(first) = ex.as_array().and_then(|a| a.first()).cloned() {
                if !o.contains_key("example") {
                    o.insert("example", first);
                }
            }
            if n > 1 {
                lossy(cx, &path.child("examples"), S::Info, Action::Rewritten, format!("examples → example (the first of {n})"));
            } else {
                rewritten(cx, &path.child("examples"), "examples → example".into());
            }
        }
    }
    formats(o, path, cx);
    if o.get("type").and_then(Value::as_str) == Some("array") && !o.contains_key("items") {
        o.insert("items", Value::Object(Object::new()));
        rewritten(cx, &path.child("items"), "items: {} added (Gemini needs items on every array)".into());
    }
    if matches!(o.get("properties"), Some(Value::Object(p)) if p.is_empty()) {
        o.remove("properties");
        rewritten(cx, &path.child("properties"), "empty properties removed (Gemini rejects it)".into());
    }
    required_in_properties(o, path, cx);
    allow_list(o, if portable { PORTABLE_KEYS } else { GEMINI_KEYS }, path, cx);
    Ok(())
}

/// Gemini: `enum` only on strings. Other scalar enums become string enums
/// (`coerce_arguments` maps `"2"` back to `2` from the original schema);
/// `null` becomes `nullable`; anything else is dropped.
fn gemini_enum(o: &mut Object, path: &Path, cx: &mut Cx) {
    let Some(Value::Array(vals)) = o.get("enum") else { return };
    let ptr = path.child("enum");
    let mut vals = vals.clone();
    if vals.iter().any(|v| matches!(v, Value::Null)) {
        vals.retain(|v| !matches!(v, Value::Null));
        o.insert("nullable", Value::Bool(true));
        rewritten(cx, &ptr, "null enum value → nullable: true".into());
        if vals.is_empty() {
            o.remove("enum");
            if !o.contains_key("type") {
                lossy(cx, &ptr, S::Low, Action::Removed, "an enum that only admits null has no Gemini form; left open".into());
            }
            return;
        }
        o.insert("enum", Value::Array(vals.clone()));
    }
    if vals.iter().all(|v| matches!(v, Value::String(_))) {
        if !o.contains_key("type") {
            o.insert("type", Value::str("string"));
            rewritten(cx, &path.child("type"), "type \"string\" added beside a string enum".into());
        }
        return;
    }
    let scalar = vals.iter().all(|v| matches!(v, Value::String(_) | Value::Number(_) | Value::Bool(_)));
    let texts: Vec<String> = vals.iter().map(|v| if let Value::String(s) = v { s.clone() } else { json::write_compact(v) }).collect();
    let unique = texts.iter().collect::<std::collections::HashSet<_>>().len() == texts.len();
    if !scalar || !unique {
        o.remove("enum");
        let why = if scalar { "two values have the same text" } else { "objects or arrays have no string form" };
        lossy(cx, &ptr, S::Low, Action::Removed, format!("enum removed: Gemini only takes string enums and {why}"));
        return;
    }
    let from = o.get("type").and_then(Value::as_str).unwrap_or("mixed").to_string();
    o.insert("type", Value::str("string"));
    o.insert("enum", Value::Array(texts.iter().cloned().map(Value::String).collect()));
    for k in NUMBER_KW {
        o.remove(k);
    }
    if let Some(d) = o.get("default").cloned() {
        match &d {
            Value::Number(_) | Value::Bool(_) => {
                o.insert("default", Value::String(json::write_compact(&d)));
            }
            Value::String(_) | Value::Null => {}
            _ => {
                o.remove("default");
            }
        }
    }
    rewritten(cx, &ptr, format!("enum of {from} values → string enum (arguments are mapped back to the original values)"));
}

/// Gemini has no exclusive bounds: an integer bound moves by one (exact), a
/// number bound becomes inclusive (wider).
fn exclusive_bounds(o: &mut Object, path: &Path, cx: &mut Cx) {
    let integer = o.get("type").and_then(Value::as_str) == Some("integer");
    for (ex, incl, step) in [("exclusiveMinimum", "minimum", 1i128), ("exclusiveMaximum", "maximum", -1)] {
        let Some(Value::Number(b)) = o.get(ex).cloned() else { continue };
        o.remove(ex);
        let exact = if integer { num::to_i128(&b).and_then(|i| i.checked_add(step)).map(num::from_i128) } else { None };
        let new = exact.clone().unwrap_or(b.clone());
        // Keep the tighter of the two inclusive bounds.
        let tighter = match o.get(incl) {
            Some(Value::Number(old)) => {
                let c = num::cmp(&new, old);
                if step > 0 {
                    c == std::cmp::Ordering::Greater
                } else {
                    c == std::cmp::Ordering::Less
                }
            }
            _ => true,
        };
        if tighter {
            o.insert(incl, Value::Number(new));
        }
        if exact.is_some() {
            rewritten(cx, &path.child(ex), format!("{ex} {} → {incl} (integers)", b.as_str()));
        } else {
            lossy(
                cx,
                &path.child(ex),
                S::Low,
                Action::Rewritten,
                format!("{ex} {} → inclusive {incl} (Gemini has no exclusive bounds)", b.as_str()),
            );
        }
    }
}

fn formats(o: &mut Object, path: &Path, cx: &mut Cx) {
    let Some(Value::String(f)) = o.get("format") else { return };
    let t = o.get("type").and_then(Value::as_str).unwrap_or("");
    let ok = match cx.target {
        Dialect::Gemini => match t {
            "string" => matches!(f.as_str(), "enum" | "date-time"),
            "integer" => matches!(f.as_str(), "int32" | "int64"),
            "number" => matches!(f.as_str(), "float" | "double"),
            _ => false,
        },
        Dialect::Portable => t == "string" && f == "date-time",
        Dialect::OpenAiStrict => t == "string" && OPENAI_FORMATS.contains(&f.as_str()),
        _ => true,
    };
    if !ok {
        let f = f.clone();
        o.remove("format");
        lossy(
            cx,
            &path.child("format"),
            S::Info,
            Action::Removed,
            format!("format {f:?} is not supported by {} here; removed", cx.target.id()),
        );
    }
}

// ---------------------------------------------------------------------------
// openai-strict
// ---------------------------------------------------------------------------

fn openai(o: &mut Object, path: &Path, cx: &mut Cx) {
    infer_type(o, path, cx);
    if !o.contains_key("type") && !o.contains_key("anyOf") {
        if let Some(Value::Array(e)) = o.get("enum").cloned() {
            split_enum(o, e, path, cx);
        }
    }
    enum_by_type(o, path, cx);
    foreign_keywords(o, path, cx);
    if o.contains_key("prefixItems") {
        tuple_to_items(o, path, cx);
    }
    formats(o, path, cx);
    // Open bags: closing them would make every key unreachable (a discovery
    // `call_tool.arguments` closed this way reaches no tool), so they stay open; `finish` flags them and the
    // tool stays non-strict.
    let is_object = o.get("type").and_then(Value::as_str) == Some("object");
    let open = is_object && open_bag(o);
    allow_list(o, OPENAI_KEYS, path, cx);
    if is_object {
        required_in_properties(o, path, cx);
        if !open {
            close(o, path, cx);
        }
    }
}

/// An object that admits undeclared keys: no `properties`, or
/// `additionalProperties`/`patternProperties` that let other keys in.
fn open_bag(o: &Object) -> bool {
    !o.contains_key("properties")
        || o.contains_key("patternProperties")
        || matches!(o.get("additionalProperties"), Some(a) if *a != Value::Bool(false))
}

/// Strict-mode conditions of the final schema, as `dialect-unsupported`
/// flags (computed on the output, so a node that was merged or flattened
/// away on the way cannot leave a stale flag behind).
fn strict_flags(v: &Value, cx: &mut Cx) {
    let mut flags: Vec<(String, &'static str)> = Vec::new();
    crate::schema::walk(v, &mut Path::new(""), 1, &mut |n, p, _| {
        // (A boolean here is `additionalProperties`: its object is flagged.)
        let Value::Object(o) = n else { return true };
        match o.get("type").and_then(Value::as_str) {
            Some("object") if open_bag(o) => flags.push((
                p.as_str().to_string(),
                "an object that admits undeclared keys (no properties, or additionalProperties) cannot be strict; left open, the tool stays non-strict",
            )),
            Some("array") if !o.contains_key("items") => {
                flags.push((p.as_str().to_string(), "an array without items cannot be strict; the tool stays non-strict"))
            }
            None if !o.contains_key("anyOf") => {
                flags.push((p.as_str().to_string(), "a schema without a type accepts any value and cannot be strict; the tool stays non-strict"))
            }
            _ => {}
        }
        true
    });
    for (p, why) in flags {
        unsupported(cx, &p, why.to_string());
    }
}

/// Typeless mixed enum → one alternative per type (exact).
fn split_enum(o: &mut Object, e: Vec<Value>, path: &Path, cx: &mut Cx) {
    let mut groups: Vec<(&'static str, Vec<Value>)> = Vec::new();
    for v in e {
        let t = match &v {
            Value::Null => "null",
            Value::Bool(_) => "boolean",
            Value::Number(n) if n.is_integer() => "integer",
            Value::Number(_) => "number",
            Value::String(_) => "string",
            Value::Array(_) => "array",
            Value::Object(_) => "object",
        };
        match groups.iter_mut().find(|(g, _)| *g == t) {
            Some((_, l)) => l.push(v),
            None => groups.push((t, vec![v])),
        }
    }
    o.remove("enum");
    let branches: Vec<Value> = groups
        .into_iter()
        .map(|(t, vals)| {
            let mut b = Object::new();
            b.insert("type", Value::str(t));
            if t != "null" {
                b.insert("enum", Value::Array(vals));
            }
            Value::Object(b)
        })
        .collect();
    o.insert("anyOf", Value::Array(branches));
    rewritten(cx, &path.child("enum"), "enum of mixed types → one typed alternative per type".into());
}

/// Strict mode: `additionalProperties: false`, every property required, the
/// originally optional ones nullable (`coerce_arguments` drops their nulls).
fn close(o: &mut Object, path: &Path, cx: &mut Cx) {
    let mut did = Vec::new();
    if o.get("additionalProperties") != Some(&Value::Bool(false)) {
        o.insert("additionalProperties", Value::Bool(false));
        did.push("additionalProperties: false".to_string());
    }
    let names: Vec<String> = o.get("properties").and_then(Value::as_object).map(|p| p.keys().map(|k| k.to_string()).collect()).unwrap_or_default();
    let required: Vec<String> = o
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
        .unwrap_or_default();
    let req_set: std::collections::HashSet<&String> = required.iter().collect();
    let optional: Vec<String> = names.iter().filter(|n| !req_set.contains(n)).cloned().collect();
    if !optional.is_empty() || !o.contains_key("required") {
        let mut list: Vec<Value> = required.iter().cloned().map(Value::String).collect();
        list.extend(optional.iter().cloned().map(Value::String));
        o.insert("required", Value::Array(list));
        let mut made_nullable = Vec::new();
        if let Some(Value::Object(props)) = o.get_mut("properties") {
            for n in &optional {
                if let Some(p) = props.get_mut(n) {
                    if !accepts_null(p) {
                        let old = std::mem::replace(p, Value::Null);
                        *p = with_null(old);
                        made_nullable.push(n.clone());
                    }
                }
            }
        }
        if !optional.is_empty() {
            did.push(format!("optional properties required ({})", optional.join(", ")));
        } else {
            did.push("required: [] added".into());
        }
        if !made_nullable.is_empty() {
            did.push(format!("made nullable ({}) — their nulls are dropped on the way back", made_nullable.join(", ")));
        }
    }
    if !did.is_empty() {
        rewritten(cx, path.as_str(), format!("closed for strict mode: {}", did.join("; ")));
    }
}

/// Whether `s` (a normalized schema) admits `null`.
pub(super) fn accepts_null(s: &Value) -> bool {
    match s {
        Value::Bool(b) => *b,
        Value::Object(o) => {
            if let Some(Value::Array(a)) = o.get("anyOf") {
                return a.iter().any(accepts_null);
            }
            if let Some(Value::Array(e)) = o.get("enum") {
                return e.iter().any(|v| matches!(v, Value::Null));
            }
            match o.get("type") {
                Some(Value::String(t)) => t == "null",
                Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some("null")),
                None => o.get("nullable") != Some(&Value::Bool(false)),
                _ => false,
            }
        }
        _ => false,
    }
}

/// `s` or null: the annotations stay outside, the rest becomes one alternative.
fn with_null(s: Value) -> Value {
    let mut null = Object::new();
    null.insert("type", Value::str("null"));
    let Value::Object(o) = s else { return s };
    if let Some(Value::Array(_)) = o.get("anyOf") {
        if o.keys().all(|k| k == "anyOf" || is_annotation(k)) {
            let mut o = o;
            if let Some(Value::Array(a)) = o.get_mut("anyOf") {
                a.push(Value::Object(null));
            }
            return Value::Object(o);
        }
    }
    let mut outer = Object::new();
    let mut inner = Object::new();
    for (k, v) in o.into_entries() {
        if is_annotation(&k) {
            outer.insert(k, v);
        } else {
            inner.insert(k, v);
        }
    }
    outer.insert("anyOf", Value::Array(vec![Value::Object(inner), Value::Object(null)]));
    Value::Object(outer)
}

// ---------------------------------------------------------------------------
// anthropic
// ---------------------------------------------------------------------------

fn anthropic(o: &mut Object, path: &Path, cx: &mut Cx) {
    if let Some(ex) = o.remove("example") {
        if !o.contains_key("examples") {
            o.insert("examples", Value::Array(vec![ex]));
        }
        rewritten(cx, &path.child("example"), "OpenAPI example → examples".into());
    }
}

// ---------------------------------------------------------------------------
// whole-schema rules
// ---------------------------------------------------------------------------

/// Tool arguments are always a JSON object: a root without `type` that
/// only has object keywords gets `"type":"object"`; anything else is an error.
fn root_object(o: &mut Object, cx: &mut Cx) -> Result<(), String> {
    match o.get("type") {
        Some(Value::String(t)) if t == "object" => Ok(()),
        Some(t) => Err(format!("the root schema has type {} (tool arguments are an object)", json::write_compact(t))),
        None => {
            let other = o.contains_key("anyOf")
                || o.contains_key("enum")
                || o.keys().any(|k| STRING_KW.contains(&k.as_str()) || NUMBER_KW.contains(&k.as_str()) || ARRAY_KW.contains(&k.as_str()));
            if other {
                return Err("the root schema is not an object schema".into());
            }
            o.insert("type", Value::str("object"));
            cx.change(K::DialectRewritten, S::Info, "/type", Action::Rewritten, "root type \"object\" added".into());
            Ok(())
        }
    }
}

/// Strict-mode totals, after the per-node rules.
pub(super) fn finish(out: &Value, cx: &mut Cx) -> Result<(), String> {
    let Value::Object(o) = out else {
        return Err("the root schema is not an object schema".into());
    };
    if o.get("type").and_then(Value::as_str) != Some("object") {
        return Err("the root schema is not an object schema".into());
    }
    if cx.target == Dialect::OpenAiStrict {
        strict_flags(out, cx);
        let mut st = Totals::default();
        totals(out, 0, &mut st);
        let mut over = Vec::new();
        if st.max_nesting > OPENAI_MAX_NESTING {
            over.push(format!("{} levels of object nesting (max {OPENAI_MAX_NESTING})", st.max_nesting));
        }
        if st.properties > OPENAI_MAX_PROPERTIES {
            over.push(format!("{} properties (max {OPENAI_MAX_PROPERTIES})", st.properties));
        }
        if st.enum_values > OPENAI_MAX_ENUM_VALUES {
            over.push(format!("{} enum values (max {OPENAI_MAX_ENUM_VALUES})", st.enum_values));
        }
        if !over.is_empty() {
            unsupported(cx, "", format!("over strict-mode limits: {}; the tool stays non-strict", over.join(", ")));
        }
    }
    Ok(())
}

#[derive(Default)]
struct Totals {
    max_nesting: u32,
    properties: u64,
    enum_values: u64,
}

fn totals(v: &Value, nesting: u32, st: &mut Totals) {
    let Value::Object(o) = v else { return };
    let here = if o.get("type").and_then(Value::as_str) == Some("object") { nesting + 1 } else { nesting };
    st.max_nesting = st.max_nesting.max(here);
    if let Some(Value::Array(e)) = o.get("enum") {
        st.enum_values += e.len() as u64;
    }
    if let Some(Value::Object(p)) = o.get("properties") {
        st.properties += p.len() as u64;
        for (_, s) in p.iter() {
            totals(s, here, st);
        }
    }
    if let Some(i) = o.get("items") {
        totals(i, here, st);
    }
    if let Some(Value::Array(a)) = o.get("anyOf") {
        for s in a {
            totals(s, here, st);
        }
    }
    if let Some(a @ Value::Object(_)) = o.get("additionalProperties") {
        totals(a, here, st);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, write_compact, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    #[test]
    fn null_acceptance_is_read_from_the_normalized_forms() {
        for yes in [r#"{}"#, r#"{"type":"null"}"#, r#"{"anyOf":[{"type":"string"},{"type":"null"}]}"#, r#"{"enum":["a",null]}"#, "true"] {
            assert!(accepts_null(&j(yes)), "{yes}");
        }
        for no in [r#"{"type":"string"}"#, r#"{"enum":["a"]}"#, r#"{"anyOf":[{"type":"string"}]}"#, "false"] {
            assert!(!accepts_null(&j(no)), "{no}");
        }
    }

    #[test]
    fn with_null_keeps_annotations_outside_and_extends_a_pure_any_of() {
        assert_eq!(
            write_compact(&with_null(j(r#"{"type":"string","description":"d","maxLength":3}"#))),
            r#"{"description":"d","anyOf":[{"type":"string","maxLength":3},{"type":"null"}]}"#
        );
        assert_eq!(
            write_compact(&with_null(j(r#"{"title":"t","anyOf":[{"type":"string"},{"type":"integer"}]}"#))),
            r#"{"title":"t","anyOf":[{"type":"string"},{"type":"integer"},{"type":"null"}]}"#
        );
    }

    #[test]
    fn a_null_only_node_keeps_no_keyword_that_implies_another_type() {
        // Found by the `schema` fuzz target: `allOf` with a null branch
        // merges to type "null" plus `items`; Gemini has no null type, and
        // the `items` left beside `nullable` made the next pass add
        // `type: "array"` — normalizing was not idempotent.
        let s = j(r#"{"type":"object","properties":{"a":{"allOf":[{"items":{"type":"string"},"maxItems":5},{"type":"null"}]}}}"#);
        for target in [Dialect::Gemini, Dialect::Portable] {
            let once = crate::dialect::normalize(&s, target, 4, 2000).unwrap();
            assert_eq!(write_compact(&once.schema), r#"{"type":"object","properties":{"a":{"nullable":true}}}"#, "{}", target.id());
            let twice = crate::dialect::normalize(&once.schema, target, 4, 2000).unwrap();
            assert!(twice.schema.schema_eq(&once.schema), "{}", target.id());
        }
    }

    #[test]
    fn keywords_dropped_in_a_pass_do_not_leave_a_type_for_the_next_pass_to_infer() {
        // Found by the `schema` fuzz target: a malformed `anyOf` (an object)
        // kept the type from being inferred, then was dropped; so was a
        // `required` beside `minItems` (object and array keywords: no one
        // type). What remained implied an array the next pass typed.
        let cases = [
            r#"{"type":"object","properties":{"a":{"anyOf":{"type":"string"},"minItems":1}}}"#,
            r#"{"type":"object","properties":{"a":{"required":["x"],"minItems":1}}}"#,
            r#"{"type":"object","properties":{"a":{"typees":{},"required":["x"],"anyOf":{"minLength":1},"minItems":1}}}"#,
        ];
        for case in cases {
            for target in [Dialect::Gemini, Dialect::Portable, Dialect::OpenAiStrict] {
                let Ok(once) = crate::dialect::normalize(&j(case), target, 4, 2000) else { continue };
                let twice = crate::dialect::normalize(&once.schema, target, 4, 2000).unwrap();
                assert!(twice.schema.schema_eq(&once.schema), "{} on {case}: {} then {}", target.id(), write_compact(&once.schema), write_compact(&twice.schema));
            }
        }
    }

    #[test]
    fn an_enum_type_is_only_inferred_when_every_value_shares_it() {
        assert_eq!(enum_type(&[j("1"), j("2")]), Some("integer"));
        assert_eq!(enum_type(&[j("1"), j("2.5")]), Some("number"));
        assert_eq!(enum_type(&[j("1"), j(r#""a""#)]), None);
        assert_eq!(enum_type(&[]), None);
    }
}
