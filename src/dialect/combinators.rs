//! Pass 2, the target-independent rewrites of one schema node: `const` →
//! single-value `enum`, draft-07/04 leftovers → 2020-12, OpenAPI `nullable`,
//! `oneOf` → `anyOf`, `allOf` merged, type arrays split, and the clean-up of
//! `anyOf` (nested ones spliced, duplicates and impossible alternatives
//! removed, keywords beside it distributed into the alternatives, object
//! alternatives flattened where the target needs one object).
//!
//! Every rewrite is a no-op on its own output, which is what makes
//! `normalize` idempotent: a second pass finds nothing to report.

use super::refs::is_annotation;
use super::{num, shape, Cx};
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{self, Object, Value};
use crate::policy::Dialect;
use std::collections::HashSet;

/// `schema_eq` classes as strings, so de-duplication is linear (a
/// pairwise `schema_eq` over 10,000 alternatives is a CPU bomb).
pub(super) fn key(v: &Value) -> String {
    let mut k = String::new();
    v.canonical_key(&mut k);
    k
}

/// Keeps the first of every `schema_eq` class, in order.
pub(super) fn dedupe(list: Vec<Value>) -> Vec<Value> {
    if list.len() <= 8 {
        // Few alternatives (the common case): pairwise is cheaper than keys.
        let mut out: Vec<Value> = Vec::with_capacity(list.len());
        for v in list {
            if !out.iter().any(|u| u.schema_eq(&v)) {
                out.push(v);
            }
        }
        return out;
    }
    let mut seen = HashSet::with_capacity(list.len());
    list.into_iter().filter(|v| seen.insert(key(v))).collect()
}

/// Alternatives produced by a cross product are capped: past this the
/// rewrite keeps the first operand and reports the loss.
const MAX_PRODUCT: usize = 64;

/// Keywords that only constrain one JSON type (they move into that type's
/// branch when a type array is split).
pub(super) fn type_of_keyword(k: &str, v: &Value) -> Option<&'static str> {
    Some(match k {
        "minLength" | "maxLength" | "pattern" | "contentMediaType" | "contentEncoding" => "string",
        "format" => match v.as_str() {
            Some("int32" | "int64" | "float" | "double") => "number",
            _ => "string",
        },
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => "number",
        "properties"
        | "required"
        | "additionalProperties"
        | "patternProperties"
        | "propertyNames"
        | "minProperties"
        | "maxProperties"
        | "dependentRequired"
        | "dependentSchemas"
        | "unevaluatedProperties" => "object",
        "items" | "prefixItems" | "additionalItems" | "minItems" | "maxItems" | "uniqueItems" | "contains" | "minContains"
        | "maxContains" | "unevaluatedItems" => "array",
        _ => return None,
    })
}

fn applies_to(kw_type: &str, t: &str) -> bool {
    kw_type == t || (kw_type == "number" && t == "integer")
}

/// Whether an enum/const value belongs to JSON Schema type `t`.
pub(super) fn value_has_type(v: &Value, t: &str) -> bool {
    super::validate::type_fits(t, v)
}

fn gemini_like(t: Dialect) -> bool {
    matches!(t, Dialect::Gemini | Dialect::Portable)
}

fn rewritten(cx: &mut Cx, ptr: &str, detail: String) {
    cx.change(K::DialectRewritten, S::Info, ptr, Action::Rewritten, detail);
}

fn lossy(cx: &mut Cx, ptr: &str, detail: String) {
    cx.change(K::DialectLossy, S::Low, ptr, Action::Rewritten, detail);
}

// ---------------------------------------------------------------------------
// Pre-children rewrites
// ---------------------------------------------------------------------------

/// Rewrites of `o` that do not need its children to be normalized first.
pub(super) fn pre(o: &mut Object, path: &mut Path, depth: u32, cx: &mut Cx, root: bool) -> Result<(), String> {
    if root {
        if let Some(Value::Array(ts)) = o.get("type") {
            if ts.iter().any(|t| t.as_str() == Some("object")) && ts.len() > 1 {
                o.insert("type", Value::str("object"));
                rewritten(cx, &path.child("type"), "type union at the root reduced to \"object\" (arguments are always an object)".into());
            }
        }
    }
    if let Some(c) = o.remove("const") {
        const_to_enum(o, c);
        rewritten(cx, &path.child("const"), "const → single-value enum".into());
    }
    draft_forms(o, path, cx);
    nullable(o, path, cx)?;
    if o.contains_key("oneOf") {
        one_of(o, true, path, cx);
    }
    // allOf: merge until none is left (a merged branch may bring its own
    // combinators), or keep it where the target can say it and the merge
    // would lose something (anthropic, below the root).
    let mut rounds = 0;
    while let Some(Value::Array(_)) = o.get("allOf") {
        rounds += 1;
        if rounds > 8 {
            break;
        }
        if !all_of(o, path, cx, root)? {
            break;
        }
        if o.contains_key("const") {
            let c = o.remove("const").unwrap_or(Value::Null);
            const_to_enum(o, c);
        }
        nullable(o, path, cx)?;
        if o.contains_key("oneOf") {
            one_of(o, false, path, cx);
        }
    }
    if let Some(Value::Array(_)) = o.get("type") {
        split_types(o, path, cx);
    }
    if matches!(o.get("anyOf"), Some(Value::Array(_))) && (cx.target != Dialect::Anthropic || root) {
        distribute(o, path, cx)?;
    }
    if root && matches!(o.get("anyOf"), Some(Value::Array(_))) {
        root_alternatives(o, path, depth, cx)?;
    }
    Ok(())
}

/// The root must be one object schema for every target (Anthropic and OpenAI
/// reject a top-level anyOf, Gemini takes one OBJECT): object alternatives
/// are flattened before they are normalized (so they are normalized once, as
/// part of the union), the others removed — arguments are always an object.
fn root_alternatives(o: &mut Object, path: &mut Path, depth: u32, cx: &mut Cx) -> Result<(), String> {
    let ptr = path.child("anyOf");
    let Some(Value::Array(branches)) = o.remove("anyOf") else { return Ok(()) };
    let mut objs: Vec<Value> = Vec::new();
    let mut dropped = 0;
    let mut widened = Vec::new();
    let mut queue: Vec<Value> = branches;
    let mut guard = 0;
    while let Some(b) = (!queue.is_empty()).then(|| queue.remove(0)) {
        guard += 1;
        if guard > 4096 {
            return Err("the root schema has too many alternatives".into());
        }
        match merge_all(vec![b]) {
            Merge::Ok(mut m, notes) => {
                widened.extend(notes);
                if m.len() == 1 && matches!(m.get("anyOf"), Some(Value::Array(_))) {
                    if let Some(Value::Array(inner)) = m.remove("anyOf") {
                        queue.extend(inner);
                    }
                    continue;
                }
                let objectish = match m.get("type") {
                    None => true,
                    Some(Value::String(t)) => t == "object",
                    Some(Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some("object")),
                    _ => false,
                };
                if objectish {
                    m.insert("type", Value::str("object"));
                    objs.push(Value::Object(m));
                } else {
                    dropped += 1;
                }
            }
            Merge::Unsat(_) => dropped += 1,
        }
    }
    if objs.is_empty() {
        return Err("the root schema has no object alternative (tool arguments are an object)".into());
    }
    if dropped > 0 {
        lossy(cx, &ptr, format!("{dropped} non-object or impossible alternative(s) removed at the root (arguments are always an object)"));
    }
    if !widened.is_empty() {
        lossy(cx, &ptr, format!("alternatives widened while merging: {}", widened.join("; ")));
    }
    let merged = if objs.len() == 1 {
        let Some(Value::Object(b)) = objs.pop() else { return Ok(()) };
        rewritten(cx, &ptr, "anyOf with a single object alternative at the root merged into the root".into());
        b
    } else {
        lossy(
            cx,
            &ptr,
            "object alternatives at the root flattened into one object: properties are the union, required the intersection (arguments are checked against the original on the way back)".into(),
        );
        flatten_objects(objs, path, depth, cx, false)?
    };
    for (k, v) in merged.into_entries() {
        if !(is_annotation(&k) && o.contains_key(&k)) {
            o.insert(k, v);
        }
    }
    Ok(())
}

/// Keywords beside `anyOf` go into each alternative (exact: `{P, anyOf:[A,B]}`
/// = `anyOf:[P∧A, P∧B]`), before the alternatives are normalized, so each is
/// normalized once, as what it finally is. Not for anthropic below the root:
/// 2020-12 says it as it is.
fn distribute(o: &mut Object, path: &Path, cx: &mut Cx) -> Result<(), String> {
    let siblings: Vec<String> =
        o.keys().filter(|k| !is_annotation(k) && k.as_str() != "nullable" && k.as_str() != "anyOf").map(|k| k.to_string()).collect();
    if siblings.is_empty() {
        return Ok(());
    }
    let ptr = path.child("anyOf");
    let Some(Value::Array(branches)) = o.remove("anyOf") else { return Ok(()) };
    let mut common = Object::new();
    for k in &siblings {
        if let Some(v) = o.remove(k) {
            common.insert(k.clone(), v);
        }
    }
    let mut out = Vec::with_capacity(branches.len());
    let mut dropped = 0;
    let mut widened = Vec::new();
    for b in branches {
        match merge_all(vec![Value::Object(common.clone()), b]) {
            Merge::Ok(m, notes) => {
                widened.extend(notes);
                let m = Value::Object(m);
                cx.charge(count_nodes(&m))?;
                out.push(m);
            }
            Merge::Unsat(_) => dropped += 1,
        }
    }
    if out.is_empty() {
        // Every alternative contradicts the keywords beside them: keep
        // those keywords alone (a superset) and say so.
        for (k, v) in common.into_entries() {
            o.insert(k, v);
        }
        lossy(cx, &ptr, "no anyOf alternative is compatible with the keywords beside it; anyOf removed".into());
        return Ok(());
    }
    rewritten(cx, &ptr, format!("keywords beside anyOf ({}) moved into each alternative", siblings.join(", ")));
    if dropped > 0 {
        rewritten(cx, &ptr, format!("{dropped} alternative(s) that contradict the keywords beside anyOf removed"));
    }
    if !widened.is_empty() {
        lossy(cx, &ptr, format!("alternatives widened while merging: {}", widened.join("; ")));
    }
    o.insert("anyOf", Value::Array(out));
    Ok(())
}

fn const_to_enum(o: &mut Object, c: Value) {
    let list = match o.remove("enum") {
        Some(Value::Array(e)) => {
            if e.iter().any(|x| x.schema_eq(&c)) {
                vec![c]
            } else {
                Vec::new()
            }
        }
        _ => vec![c],
    };
    o.insert("enum", Value::Array(list));
}

/// Draft-04 boolean `exclusiveMinimum`/`exclusiveMaximum` in 2020-12 form
/// (`true` moves the bound into the exclusive keyword, `false` is dropped).
/// Returns the keywords it rewrote.
fn exclusive_bounds_2020(o: &mut Object) -> Vec<&'static str> {
    let mut done = Vec::new();
    for (ex, bound) in [("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")] {
        if let Some(Value::Bool(b)) = o.get(ex) {
            let b = *b;
            o.remove(ex);
            if b {
                if let Some(m) = o.remove(bound) {
                    o.insert(ex, m);
                }
            }
            done.push(ex);
        }
    }
    done
}

/// Draft-07 tuples and draft-04 boolean exclusive bounds, in 2020-12 form.
fn draft_forms(o: &mut Object, path: &Path, cx: &mut Cx) {
    if let Some(Value::Array(_)) = o.get("items") {
        let Some(Value::Array(tuple)) = o.remove("items") else { return };
        if o.contains_key("prefixItems") {
            lossy(cx, &path.child("items"), "draft-07 tuple items beside prefixItems removed".into());
        } else {
            o.insert("prefixItems", Value::Array(tuple));
            if let Some(rest) = o.remove("additionalItems") {
                o.insert("items", rest);
            }
            rewritten(cx, &path.child("items"), "draft-07 tuple items → prefixItems".into());
        }
    }
    for ex in exclusive_bounds_2020(o) {
        rewritten(cx, &path.child(ex), format!("draft-04 boolean {ex} → 2020-12 form"));
    }
}

/// OpenAPI `nullable`. Gemini keeps it (it is Gemini's own keyword) unless a
/// type array is split below; the JSON Schema targets turn it into a `null`
/// type or alternative.
fn nullable(o: &mut Object, path: &Path, cx: &mut Cx) -> Result<(), String> {
    let Some(Value::Bool(b)) = o.get("nullable") else { return Ok(()) };
    let b = *b;
    let gem = gemini_like(cx.target);
    if !b {
        if !gem {
            o.remove("nullable");
            rewritten(cx, &path.child("nullable"), "OpenAPI nullable: false removed (the default)".into());
        }
        return Ok(());
    }
    // Null is allowed even beside an enum without it (as `validate` reads
    // OpenAPI): the enum gets it too, or the type split below would drop it.
    if !gem {
        if let Some(Value::Array(e)) = o.get_mut("enum") {
            if !e.iter().any(|v| matches!(v, Value::Null)) {
                e.push(Value::Null);
            }
        }
    }
    match o.get_mut("type") {
        Some(Value::String(t)) if gem || t == "null" => {
            if t == "null" {
                o.remove("nullable");
            }
        }
        Some(Value::String(t)) => {
            let t = std::mem::take(t);
            o.insert("type", Value::Array(vec![Value::String(t), Value::str("null")]));
            o.remove("nullable");
            rewritten(cx, &path.child("nullable"), "OpenAPI nullable → a null alternative".into());
        }
        Some(Value::Array(ts)) => {
            if !ts.iter().any(|t| t.as_str() == Some("null")) {
                ts.push(Value::str("null"));
            }
            o.remove("nullable");
        }
        _ if gem => {}
        _ => {
            o.remove("nullable");
            let mut outer = Object::new();
            let inner = std::mem::take(o);
            let mut rest = Object::new();
            for (k, v) in inner.into_entries() {
                if is_annotation(&k) {
                    outer.insert(k, v);
                } else {
                    rest.insert(k, v);
                }
            }
            let mut null = Object::new();
            null.insert("type", Value::str("null"));
            outer.insert("anyOf", Value::Array(vec![Value::Object(rest), Value::Object(null)]));
            *o = outer;
            rewritten(cx, &path.child("nullable"), "OpenAPI nullable → a null alternative".into());
        }
    }
    Ok(())
}

/// `oneOf` → `anyOf` (beside an existing `anyOf`: the cross product, as
/// `allOf` pairs merged later).
fn one_of(o: &mut Object, report: bool, path: &Path, cx: &mut Cx) {
    let Some(one) = o.remove("oneOf") else { return };
    let Value::Array(one) = one else { return };
    match o.remove("anyOf") {
        Some(Value::Array(any)) => {
            if any.len() * one.len() <= MAX_PRODUCT {
                let mut pairs = Vec::with_capacity(any.len() * one.len());
                for a in &any {
                    for b in &one {
                        let mut p = Object::new();
                        p.insert("allOf", Value::Array(vec![a.clone(), b.clone()]));
                        pairs.push(Value::Object(p));
                    }
                }
                o.insert("anyOf", Value::Array(pairs));
                if report {
                    rewritten(cx, &path.child("oneOf"), "oneOf beside anyOf → one anyOf of their combinations".into());
                }
            } else {
                o.insert("anyOf", Value::Array(any));
                lossy(cx, &path.child("oneOf"), format!("oneOf beside anyOf with more than {MAX_PRODUCT} combinations removed"));
            }
        }
        _ => {
            o.insert("anyOf", Value::Array(one));
            if report {
                rewritten(
                    cx,
                    &path.child("oneOf"),
                    "oneOf → anyOf (the model is told the alternatives; exclusivity is checked on the way back)".into(),
                );
            }
        }
    }
}

/// Merges `allOf` into `o`. Returns false if it was kept (so the caller stops).
fn all_of(o: &mut Object, path: &Path, cx: &mut Cx, root: bool) -> Result<bool, String> {
    let Some(Value::Array(branches)) = o.remove("allOf") else { return Ok(false) };
    let ptr = path.child("allOf");
    let own = o.clone();
    let mut parts = Vec::with_capacity(branches.len() + 1);
    parts.push(Value::Object(own.clone()));
    parts.extend(branches.iter().cloned());
    let keep = cx.target == Dialect::Anthropic && !root;
    match merge_all(parts) {
        Merge::Ok(m, notes) if notes.is_empty() => {
            *o = m;
            rewritten(cx, &ptr, format!("allOf of {} schemas merged into one", branches.len()));
            Ok(true)
        }
        Merge::Ok(_, _) | Merge::Unsat(_) if keep => {
            // Valid 2020-12 as it is: keep it rather than lose something.
            o.insert("allOf", Value::Array(branches));
            Ok(false)
        }
        Merge::Ok(m, notes) => {
            *o = m;
            lossy(cx, &ptr, format!("allOf merged into one schema, widened: {}", notes.join("; ")));
            Ok(true)
        }
        Merge::Unsat(why) => {
            // No value satisfies every branch (a defect in the schema). The
            // anyOf-safe fallback accepts what any branch accepts, which is a
            // superset; the original is still enforced on the way back.
            *o = own;
            if o.contains_key("anyOf") {
                lossy(cx, &ptr, format!("allOf cannot be satisfied ({why}); removed"));
            } else {
                o.insert("anyOf", Value::Array(branches));
                lossy(cx, &ptr, format!("allOf cannot be satisfied ({why}); replaced by anyOf of its branches"));
            }
            Ok(true)
        }
    }
}

pub(super) enum Merge {
    /// The conjunction, and what had to be widened (empty: exact).
    Ok(Object, Vec<String>),
    /// No value can satisfy all parts.
    Unsat(String),
}

/// The conjunction of schemas as one schema object.
pub(super) fn merge_all(parts: Vec<Value>) -> Merge {
    let mut flat = Vec::new();
    if let Err(why) = flatten_all_of(parts, &mut flat, 0) {
        return Merge::Unsat(why);
    }
    let mut notes = Vec::new();
    let mut acc = Object::new();
    for mut p in flat {
        prenorm(&mut p);
        acc = match merge2(acc, p, &mut notes) {
            Ok(m) => m,
            Err(why) => return Merge::Unsat(why),
        };
    }
    Merge::Ok(acc, notes)
}

fn flatten_all_of(parts: Vec<Value>, out: &mut Vec<Object>, depth: u32) -> Result<(), String> {
    for p in parts {
        match p {
            Value::Bool(true) => {}
            Value::Bool(false) => return Err("one branch is the schema false".into()),
            Value::Object(mut o) => {
                let inner = o.remove("allOf");
                out.push(o);
                if let Some(Value::Array(inner)) = inner {
                    if depth > 32 {
                        return Err("allOf nested too deep".into());
                    }
                    flatten_all_of(inner, out, depth + 1)?;
                }
            }
            _ => {}
        }
    }
    Ok(())
}

/// Silent local normal form of a merge operand (the merge is reported as one).
fn prenorm(o: &mut Object) {
    if let Some(c) = o.remove("const") {
        const_to_enum(o, c);
    }
    match o.get("nullable") {
        Some(Value::Bool(true)) => {
            o.remove("nullable");
            match o.get_mut("type") {
                Some(Value::String(t)) => {
                    let t = std::mem::take(t);
                    o.insert("type", Value::Array(vec![Value::String(t), Value::str("null")]));
                }
                Some(Value::Array(ts)) => ts.push(Value::str("null")),
                _ => {}
            }
        }
        Some(_) => {
            o.remove("nullable");
        }
        None => {}
    }
    exclusive_bounds_2020(o);
    if let Some(Value::Array(_)) = o.get("items") {
        if let Some(t) = o.remove("items") {
            o.insert("prefixItems", t);
            if let Some(rest) = o.remove("additionalItems") {
                o.insert("items", rest);
            }
        }
    }
    if o.contains_key("oneOf") {
        let Some(Value::Array(one)) = o.remove("oneOf") else { return };
        match o.remove("anyOf") {
            Some(Value::Array(any)) => {
                let mut all = match o.remove("allOf") {
                    Some(Value::Array(a)) => a,
                    _ => Vec::new(),
                };
                let mut a = Object::new();
                a.insert("anyOf", Value::Array(any));
                let mut b = Object::new();
                b.insert("anyOf", Value::Array(one));
                all.push(Value::Object(a));
                all.push(Value::Object(b));
                o.insert("allOf", Value::Array(all));
            }
            _ => o.insert("anyOf", Value::Array(one)),
        }
    }
}

fn names(o: &Object, k: &str) -> Vec<String> {
    o.get(k).and_then(Value::as_object).map(|m| m.keys().map(|k| k.to_string()).collect()).unwrap_or_default()
}

fn schema_and(a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Bool(false), _) | (_, Value::Bool(false)) => Value::Bool(false),
        (Value::Bool(true), x) | (x, Value::Bool(true)) => x,
        (Value::Object(a), x) if a.is_empty() => x,
        (x, Value::Object(b)) if b.is_empty() => x,
        (a, b) if a.schema_eq(&b) => a,
        (a, b) => {
            let mut o = Object::new();
            o.insert("allOf", Value::Array(vec![a, b]));
            Value::Object(o)
        }
    }
}

/// Conjunction of two schema objects; `Err` = unsatisfiable.
fn merge2(mut a: Object, b: Object, notes: &mut Vec<String>) -> Result<Object, String> {
    let a_props = names(&a, "properties");
    let b_props = names(&b, "properties");
    let a_pat = a.contains_key("patternProperties");
    let b_pat = b.contains_key("patternProperties");
    let a_addl = a.get("additionalProperties").cloned();
    let b_addl = b.get("additionalProperties").cloned();
    for (k, bv) in b.into_entries() {
        let Some(av) = a.get_mut(&k) else {
            a.insert(k, bv);
            continue;
        };
        if av.schema_eq(&bv) {
            continue;
        }
        combine(&k, av, bv, notes)?;
    }
    // `additionalProperties` of one side applies to the other side's names.
    for (side_props, side_pat, side_addl) in [(&a_props, a_pat, &a_addl), (&b_props, b_pat, &b_addl)] {
        let Some(addl) = side_addl else { continue };
        if matches!(addl, Value::Bool(true)) || matches!(addl, Value::Object(o) if o.is_empty()) {
            continue;
        }
        let merged_names = names(&a, "properties");
        let side: HashSet<&String> = side_props.iter().collect();
        let foreign: Vec<String> = merged_names.into_iter().filter(|n| !side.contains(n)).collect();
        if foreign.is_empty() {
            continue;
        }
        if side_pat {
            notes.push("additionalProperties beside patternProperties not merged exactly".into());
            continue;
        }
        let required: HashSet<String> = a
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default();
        let Some(Value::Object(props)) = a.get_mut("properties") else { continue };
        for n in foreign {
            match addl {
                Value::Bool(false) => {
                    if required.contains(&n) {
                        return Err(format!("property {n:?} is required by one branch and forbidden by another"));
                    }
                    props.remove(&n);
                }
                s => {
                    if let Some(p) = props.get_mut(&n) {
                        let old = std::mem::replace(p, Value::Null);
                        *p = schema_and(old, s.clone());
                    }
                }
            }
        }
    }
    Ok(a)
}

fn combine(k: &str, av: &mut Value, bv: Value, notes: &mut Vec<String>) -> Result<(), String> {
    match k {
        "type" => {
            let ta = type_set(av);
            let tb = type_set(&bv);
            let mut out: Vec<&str> = Vec::new();
            for t in &ta {
                let hit = if tb.contains(t) {
                    Some(*t)
                } else if (*t == "integer" && tb.contains(&"number")) || (*t == "number" && tb.contains(&"integer")) {
                    Some("integer")
                } else {
                    None
                };
                if let Some(h) = hit {
                    if !out.contains(&h) {
                        out.push(h);
                    }
                }
            }
            *av = match out.len() {
                0 => return Err(format!("types {} and {} do not overlap", json::write_compact(av), json::write_compact(&bv))),
                1 => Value::str(out[0]),
                _ => Value::Array(out.into_iter().map(Value::str).collect()),
            };
        }
        "enum" => {
            let (Value::Array(x), Value::Array(y)) = (&*av, &bv) else { return Ok(()) };
            let ys: HashSet<String> = y.iter().map(key).collect();
            let both: Vec<Value> = dedupe(x.iter().filter(|v| ys.contains(&key(v))).cloned().collect());
            if both.is_empty() {
                return Err("the enums have no value in common".into());
            }
            *av = Value::Array(both);
        }
        "required" => {
            if let (Value::Array(x), Value::Array(y)) = (&mut *av, bv) {
                let mut seen: HashSet<String> = x.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
                for v in y {
                    if v.as_str().is_some_and(|n| seen.insert(n.to_string())) {
                        x.push(v);
                    }
                }
            }
        }
        "properties" | "patternProperties" | "dependentSchemas" => {
            if let (Value::Object(x), Value::Object(y)) = (&mut *av, bv) {
                for (n, s) in y.into_entries() {
                    match x.get_mut(&n) {
                        Some(old) => {
                            let o = std::mem::replace(old, Value::Null);
                            *old = schema_and(o, s);
                        }
                        None => x.insert(n, s),
                    }
                }
            }
        }
        "dependentRequired" => {
            if let (Value::Object(x), Value::Object(y)) = (&mut *av, bv) {
                for (n, l) in y.into_entries() {
                    match (x.get_mut(&n), l) {
                        (Some(Value::Array(old)), Value::Array(l)) => {
                            for v in l {
                                if !old.contains(&v) {
                                    old.push(v);
                                }
                            }
                        }
                        (None, l) => x.insert(n, l),
                        _ => {}
                    }
                }
            }
        }
        "items" | "propertyNames" | "additionalProperties" | "unevaluatedProperties" | "additionalItems" | "unevaluatedItems" => {
            let a = std::mem::replace(av, Value::Null);
            *av = schema_and(a, bv);
        }
        "not" => {
            let a = std::mem::replace(av, Value::Null);
            let mut o = Object::new();
            o.insert("anyOf", Value::Array(vec![a, bv]));
            *av = Value::Object(o);
        }
        "anyOf" => {
            let (Value::Array(x), Value::Array(y)) = (&*av, &bv) else { return Ok(()) };
            if x.len() * y.len() <= MAX_PRODUCT {
                let mut pairs = Vec::with_capacity(x.len() * y.len());
                for p in x {
                    for q in y {
                        let mut o = Object::new();
                        o.insert("allOf", Value::Array(vec![p.clone(), q.clone()]));
                        pairs.push(Value::Object(o));
                    }
                }
                *av = Value::Array(pairs);
            } else {
                notes.push(format!("a second anyOf with more than {MAX_PRODUCT} combinations dropped"));
            }
        }
        "minimum" | "exclusiveMinimum" | "minLength" | "minItems" | "minProperties" | "minContains" => {
            if let (Value::Number(x), Value::Number(y)) = (&*av, &bv) {
                if num::cmp(y, x) == std::cmp::Ordering::Greater {
                    *av = bv;
                }
            }
        }
        "maximum" | "exclusiveMaximum" | "maxLength" | "maxItems" | "maxProperties" | "maxContains" => {
            if let (Value::Number(x), Value::Number(y)) = (&*av, &bv) {
                if num::cmp(y, x) == std::cmp::Ordering::Less {
                    *av = bv;
                }
            }
        }
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => {
            if bv == Value::Bool(true) {
                *av = bv;
            }
        }
        "format" | "title" | "description" | "default" | "examples" | "example" | "contentMediaType" | "contentEncoding" => {}
        other => notes.push(format!("two different {other} values; the first kept")),
    }
    Ok(())
}

fn type_set(v: &Value) -> Vec<&str> {
    match v {
        Value::String(s) => vec![s.as_str()],
        Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// Splits a type array: `[T, "null"]` becomes the target's nullable form,
/// several types become `anyOf` branches carrying their own keywords.
fn split_types(o: &mut Object, path: &Path, cx: &mut Cx) {
    let Some(Value::Array(ts)) = o.remove("type") else { return };
    let orig = json::write_compact(&Value::Array(ts.clone()));
    let mut types: Vec<String> = Vec::new();
    for t in ts.iter().filter_map(Value::as_str) {
        if !types.iter().any(|x| x == t) {
            types.push(t.to_string());
        }
    }
    if types.iter().any(|t| t == "number") {
        types.retain(|t| t != "integer");
    }
    let mut null = false;
    types.retain(|t| {
        if t == "null" {
            null = true;
            false
        } else {
            true
        }
    });
    // With an enum, only the types of its values matter.
    if let Some(Value::Array(e)) = o.get("enum") {
        null &= e.iter().any(|v| matches!(v, Value::Null));
        types.retain(|t| e.iter().any(|v| value_has_type(v, t)));
    }
    let gem = gemini_like(cx.target);
    let ptr = path.child("type");
    let all5 = ["string", "number", "boolean", "object", "array"].iter().all(|t| types.iter().any(|x| x == t));
    if all5 {
        // Every type: no constraint at all (a null is covered too).
        rewritten(cx, &ptr, format!("type {orig} allows every type; removed"));
        return;
    }
    match types.len() {
        0 => {
            o.insert("type", Value::str("null"));
            rewritten(cx, &ptr, format!("type {orig} → \"null\""));
        }
        1 if !null => {
            o.insert("type", Value::String(types.remove(0)));
            rewritten(cx, &ptr, format!("single-member type {orig} → a string"));
        }
        1 if gem => {
            o.insert("type", Value::String(types.remove(0)));
            o.insert("nullable", Value::Bool(true));
            rewritten(cx, &ptr, format!("type {orig} → one type with nullable: true"));
        }
        _ => {
            let mut branches = Vec::new();
            for t in &types {
                let mut b = Object::new();
                b.insert("type", Value::str(t.as_str()));
                for (k, v) in o.iter() {
                    if let Some(kt) = type_of_keyword(k, v) {
                        if applies_to(kt, t) {
                            b.insert(k.clone(), v.clone());
                        }
                    }
                }
                if let Some(Value::Array(e)) = o.get("enum") {
                    let vals: Vec<Value> = e.iter().filter(|v| value_has_type(v, t)).cloned().collect();
                    b.insert("enum", Value::Array(vals));
                }
                if gem && null {
                    b.insert("nullable", Value::Bool(true));
                }
                branches.push(Value::Object(b));
            }
            if null && !gem {
                let mut n = Object::new();
                n.insert("type", Value::str("null"));
                branches.push(Value::Object(n));
            }
            let keys: Vec<String> =
                o.iter().filter(|(k, v)| type_of_keyword(k, v).is_some() || k.as_str() == "enum").map(|(k, _)| k.to_string()).collect();
            for k in keys {
                o.remove(&k);
            }
            o.remove("nullable");
            match o.remove("anyOf") {
                Some(Value::Array(existing)) => {
                    // Push the type alternatives into each existing branch.
                    let mut alt = Object::new();
                    alt.insert("anyOf", Value::Array(branches));
                    let alt = Value::Object(alt);
                    let pushed = existing
                        .into_iter()
                        .map(|b| {
                            let mut p = Object::new();
                            p.insert("allOf", Value::Array(vec![b, alt.clone()]));
                            Value::Object(p)
                        })
                        .collect();
                    o.insert("anyOf", Value::Array(pushed));
                }
                _ => o.insert("anyOf", Value::Array(branches)),
            }
            let what = if null && !gem { "anyOf with a null alternative" } else { "anyOf" };
            rewritten(cx, &ptr, format!("type {orig} → {what}"));
        }
    }
}

// ---------------------------------------------------------------------------
// Post-children rewrites of anyOf
// ---------------------------------------------------------------------------

/// True for an alternative that only admits `null`.
pub(super) fn is_null_branch(b: &Value) -> bool {
    let Value::Object(o) = b else { return false };
    let only_null_type = o.get("type").and_then(Value::as_str) == Some("null");
    let only_null_enum = matches!(o.get("enum"), Some(Value::Array(e)) if e.len() == 1 && e[0] == Value::Null);
    (only_null_type || only_null_enum) && o.keys().all(|k| is_annotation(k) || k == "type" || k == "enum")
}

fn is_object_branch(b: &Value) -> bool {
    matches!(b, Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("object"))
}

fn is_open(b: &Value) -> bool {
    match b {
        Value::Bool(true) => true,
        Value::Object(o) => o.keys().all(|k| is_annotation(k)),
        _ => false,
    }
}

/// Clean-up of `anyOf` once the alternatives are normalized.
pub(super) fn post(mut o: Object, path: &mut Path, depth: u32, cx: &mut Cx, root: bool) -> Result<Value, String> {
    if !matches!(o.get("anyOf"), Some(Value::Array(_))) {
        return Ok(Value::Object(o));
    }
    let ptr = path.child("anyOf");
    // Taken in place: the key keeps its position (a second pass must not
    // reorder keys, or normalizing would not be idempotent).
    let branches = match o.get_mut("anyOf") {
        Some(Value::Array(b)) => std::mem::take(b),
        _ => return Ok(Value::Object(o)),
    };
    let anthropic = cx.target == Dialect::Anthropic;
    let gem = gemini_like(cx.target);

    // 1. splice nested pure anyOf, drop `false`, notice "anything".
    let mut flat: Vec<Value> = Vec::with_capacity(branches.len());
    let mut spliced = false;
    let mut anything = false;
    for b in branches {
        match b {
            Value::Bool(false) => spliced = true,
            Value::Object(mut bo) if bo.len() == 1 && matches!(bo.get("anyOf"), Some(Value::Array(_))) => {
                if let Some(Value::Array(inner)) = bo.remove("anyOf") {
                    flat.extend(inner);
                }
                spliced = true;
            }
            b => {
                if is_open(&b) {
                    anything = true;
                }
                flat.push(b);
            }
        }
    }
    if spliced {
        rewritten(cx, &ptr, "nested anyOf spliced into one (impossible alternatives removed)".into());
    }
    if anything && !anthropic {
        rewritten(cx, &ptr, "anyOf with an alternative that accepts anything removed".into());
        o.remove("anyOf");
        return Ok(Value::Object(o));
    }
    // 2. duplicates.
    let before = flat.len();
    let mut uniq = dedupe(flat);
    if uniq.len() != before {
        rewritten(cx, &ptr, format!("{} duplicate anyOf alternative(s) removed", before - uniq.len()));
    }
    // 2b. enum alternatives of one type → one enum (exact).
    let (merged, n) = merge_enum_branches(uniq);
    uniq = merged;
    if n > 0 {
        rewritten(cx, &ptr, "enum alternatives of one type merged into one enum".into());
    }
    // 3. gemini: null alternatives become nullable.
    let mut nullable = false;
    if gem && uniq.iter().any(is_null_branch) {
        uniq.retain(|b| !is_null_branch(b));
        nullable = true;
        rewritten(cx, &ptr, "null alternative → nullable: true".into());
    }
    if uniq.is_empty() {
        if nullable {
            o.remove("anyOf");
            o.insert("nullable", Value::Bool(true));
            lossy(cx, &ptr, "an anyOf that only admits null has no Gemini form; left open (nullable)".into());
            return Ok(Value::Object(o));
        }
        // Nothing can match: keep an impossible schema rather than invent one.
        return Ok(Value::Bool(false));
    }
    // 4. root: arguments are always an object.
    if root {
        let before = uniq.len();
        uniq.retain(|b| is_object_branch(b) || matches!(b, Value::Object(x) if !x.contains_key("type")));
        for b in uniq.iter_mut() {
            if let Value::Object(x) = b {
                if !x.contains_key("type") {
                    x.insert("type", Value::str("object"));
                }
            }
        }
        if uniq.len() != before {
            lossy(cx, &ptr, "non-object alternatives removed at the root (arguments are always an object)".into());
        }
        if uniq.is_empty() {
            return Err("the root schema has no object alternative".into());
        }
    }
    // 6. one alternative left: it is the schema.
    if uniq.len() == 1 && o.keys().all(|k| is_annotation(k) || k == "nullable" || k == "anyOf") {
        let Some(Value::Object(mut b)) = uniq.pop() else {
            return Ok(Value::Object(o));
        };
        for (k, v) in o.into_entries() {
            if k != "anyOf" {
                b.insert(k, v);
            }
        }
        if nullable {
            b.insert("nullable", Value::Bool(true));
        }
        rewritten(cx, &ptr, "anyOf with a single alternative merged into its parent".into());
        return Ok(Value::Object(b));
    }
    // 7. object alternatives → one object (gemini everywhere, every target at the root).
    let objects = uniq.len() >= 2 && uniq.iter().all(is_object_branch);
    if objects && (gem || root) && o.keys().all(|k| is_annotation(k) || k == "nullable" || k == "anyOf") {
        let mut flat = flatten_objects(uniq, path, depth, cx, true)?;
        for (k, v) in o.into_entries() {
            if k != "anyOf" {
                flat.insert(k, v);
            }
        }
        if nullable {
            flat.insert("nullable", Value::Bool(true));
        }
        lossy(
            cx,
            &ptr,
            "object alternatives (anyOf) flattened into one object: properties are the union, required the intersection (arguments are checked against the original on the way back)".into(),
        );
        return Ok(Value::Object(flat));
    }
    if nullable {
        for b in uniq.iter_mut() {
            if let Value::Object(bo) = b {
                bo.insert("nullable", Value::Bool(true));
            }
        }
    }
    o.insert("anyOf", Value::Array(uniq));
    Ok(Value::Object(o))
}

/// Alternatives that are nothing but `{type: T, enum: [...]}` (same T) become
/// one alternative with the union of the values. Returns how many merged.
fn merge_enum_branches(branches: Vec<Value>) -> (Vec<Value>, usize) {
    let group = |b: &Value| -> Option<String> {
        let o = b.as_object()?;
        if !o.keys().all(|k| matches!(k.as_str(), "type" | "enum" | "nullable")) || !matches!(o.get("enum"), Some(Value::Array(_))) {
            return None;
        }
        Some(format!(
            "{}|{}",
            json::write_compact(o.get("type").unwrap_or(&Value::Null)),
            json::write_compact(o.get("nullable").unwrap_or(&Value::Null))
        ))
    };
    let mut out: Vec<Value> = Vec::with_capacity(branches.len());
    // group → (index in `out`, canonical keys of its values)
    let mut groups: Vec<(String, usize, HashSet<String>)> = Vec::new();
    let mut merged = 0;
    for b in branches {
        let Some(g) = group(&b) else {
            out.push(b);
            continue;
        };
        let vals: Vec<Value> = b.as_object().and_then(|o| o.get("enum")).and_then(Value::as_array).cloned().unwrap_or_default();
        match groups.iter_mut().find(|(k, _, _)| *k == g) {
            Some((_, i, seen)) => {
                if let Some(Value::Array(into)) = out[*i].as_object_mut().and_then(|o| o.get_mut("enum")) {
                    for v in vals {
                        if seen.insert(key(&v)) {
                            into.push(v);
                        }
                    }
                }
                merged += 1;
            }
            None => {
                let seen = vals.iter().map(key).collect();
                groups.push((g, out.len(), seen));
                out.push(b);
            }
        }
    }
    (out, merged)
}

/// One object accepting what any of the object alternatives accepts (and more).
/// `normalize_variants`: the alternatives are already normalized, so a new
/// `anyOf` of a property's variants is normalized here (else the caller's
/// children pass does it).
fn flatten_objects(branches: Vec<Value>, path: &mut Path, depth: u32, cx: &mut Cx, normalize_variants: bool) -> Result<Object, String> {
    let objs: Vec<Object> = branches.into_iter().filter_map(|b| if let Value::Object(o) = b { Some(o) } else { None }).collect();
    let mut out = Object::new();
    out.insert("type", Value::str("object"));
    // properties: union, variants per name.
    let mut variants: Vec<(String, Vec<Value>)> = Vec::new();
    let mut index: std::collections::HashMap<String, (usize, HashSet<String>)> = std::collections::HashMap::new();
    for b in &objs {
        if let Some(Value::Object(p)) = b.get("properties") {
            for (n, s) in p.iter() {
                match index.get_mut(n.as_str()) {
                    Some((i, seen)) => {
                        if seen.insert(key(s)) {
                            variants[*i].1.push(s.clone());
                        }
                    }
                    None => {
                        index.insert(n.to_string(), (variants.len(), HashSet::from([key(s)])));
                        variants.push((n.to_string(), vec![s.clone()]));
                    }
                }
            }
        }
    }
    // required: intersection, in the first branch's order.
    let req_of = |b: &Object| -> Vec<String> {
        b.get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(|x| x.as_str().map(str::to_string)).collect())
            .unwrap_or_default()
    };
    let first = objs.first().map(req_of).unwrap_or_default();
    let sets: Vec<HashSet<String>> = objs.iter().map(|b| req_of(b).into_iter().collect()).collect();
    let required: Vec<String> = first.into_iter().filter(|n| sets.iter().all(|r| r.contains(n))).collect();
    // Other keywords survive only when every branch agrees.
    let mut keep: Vec<(String, Value)> = Vec::new();
    if let Some(b0) = objs.first() {
        for (k, v) in b0.iter() {
            if matches!(k.as_str(), "type" | "properties" | "required") || is_annotation(k) {
                continue;
            }
            if objs.iter().all(|b| b.get(k).is_some_and(|w| w.schema_eq(v))) {
                keep.push((k.to_string(), v.clone()));
            }
        }
    }
    let mut props = Object::new();
    let pm = path.push("properties");
    for (n, mut vs) in variants {
        let v = if vs.len() == 1 {
            vs.pop().unwrap_or(Value::Bool(true))
        } else if !normalize_variants {
            let mut a = Object::new();
            a.insert("anyOf", Value::Array(vs));
            Value::Object(a)
        } else {
            let mut a = Object::new();
            a.insert("anyOf", Value::Array(vs));
            let m = path.push(&n);
            let r = shape::node(Value::Object(a), path, depth + 2, cx, shape::Pos::Other);
            path.pop_to(m);
            r?
        };
        props.insert(n, v);
    }
    path.pop_to(pm);
    out.insert("properties", Value::Object(props));
    if !required.is_empty() {
        out.insert("required", Value::Array(required.into_iter().map(Value::String).collect()));
    }
    for (k, v) in keep {
        out.insert(k, v);
    }
    Ok(out)
}

/// Subschema nodes in `v` (for the node budget), keyword-aware, without
/// building pointers.
pub(super) fn count_nodes(v: &Value) -> u64 {
    use crate::schema::Kw;
    let Value::Object(o) = v else { return 1 };
    let mut n = 1u64;
    for (k, x) in o.iter() {
        match (k.kw(), x) {
            (Some(Kw::SchemaMap | Kw::PatternMap), Value::Object(m)) => n += m.iter().map(|(_, s)| count_nodes(s)).sum::<u64>(),
            (Some(Kw::SchemaList | Kw::Items), Value::Array(a)) => n += a.iter().map(count_nodes).sum::<u64>(),
            (Some(Kw::SchemaOne | Kw::Items), s @ (Value::Object(_) | Value::Bool(_))) => n += count_nodes(s),
            _ => {}
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    fn merged(parts: &[&str]) -> Result<(String, Vec<String>), String> {
        match merge_all(parts.iter().map(|p| j(p)).collect()) {
            Merge::Ok(o, notes) => Ok((json::write_compact(&Value::Object(o)), notes)),
            Merge::Unsat(why) => Err(why),
        }
    }

    #[test]
    fn merge_intersects_types_and_enums_and_unions_required() {
        let (m, notes) = merged(&[
            r#"{"type":["number","string"],"enum":[1,"a",2],"required":["x"]}"#,
            r#"{"type":"integer","enum":[2,1.0],"required":["y","x"]}"#,
        ])
        .unwrap();
        assert_eq!(m, r#"{"type":"integer","enum":[1,2],"required":["x","y"]}"#);
        assert!(notes.is_empty());
        assert!(merged(&[r#"{"type":"string"}"#, r#"{"type":"boolean"}"#]).is_err());
        assert!(merged(&[r#"{"enum":["a"]}"#, r#"{"const":"b"}"#]).is_err());
    }

    #[test]
    fn merge_keeps_the_tighter_bound_exactly() {
        let (m, _) = merged(&[r#"{"minimum":1,"maximum":9007199254740993}"#, r#"{"minimum":1.5,"maximum":9007199254740992}"#]).unwrap();
        assert_eq!(m, r#"{"minimum":1.5,"maximum":9007199254740992}"#);
    }

    #[test]
    fn a_closed_branch_removes_the_other_branch_s_extra_properties() {
        let (m, _) = merged(&[
            r#"{"properties":{"a":{"type":"string"}},"additionalProperties":false}"#,
            r#"{"properties":{"a":{"maxLength":3},"b":{"type":"integer"}}}"#,
        ])
        .unwrap();
        assert_eq!(m, r#"{"properties":{"a":{"allOf":[{"type":"string"},{"maxLength":3}]}},"additionalProperties":false}"#);
        // …and is unsatisfiable when the other branch requires one.
        assert!(
            merged(&[r#"{"properties":{"a":{}},"additionalProperties":false}"#, r#"{"properties":{"b":{}},"required":["b"]}"#]).is_err()
        );
    }

    #[test]
    fn conflicts_widen_with_a_note() {
        let (m, notes) = merged(&[r#"{"pattern":"^a"}"#, r#"{"pattern":"b$"}"#]).unwrap();
        assert_eq!(m, r#"{"pattern":"^a"}"#);
        assert_eq!(notes.len(), 1);
    }

    #[test]
    fn nested_all_of_and_one_of_in_branches_are_normalized_first() {
        let (m, _) =
            merged(&[r#"{"allOf":[{"type":"object"},{"allOf":[{"required":["a"]}]}]}"#, r#"{"oneOf":[{"required":["b"]}]}"#]).unwrap();
        assert_eq!(m, r#"{"type":"object","required":["a"],"anyOf":[{"required":["b"]}]}"#);
    }

    #[test]
    fn enum_alternatives_of_one_type_merge_and_others_stay() {
        let (out, n) = merge_enum_branches(vec![
            j(r#"{"type":"string","enum":["a"]}"#),
            j(r#"{"type":"integer","enum":[1]}"#),
            j(r#"{"type":"string","enum":["b","a"]}"#),
            j(r#"{"type":"string","enum":["c"],"description":"kept apart"}"#),
        ]);
        assert_eq!(n, 1);
        assert_eq!(
            json::write_compact(&Value::Array(out)),
            r#"[{"type":"string","enum":["a","b"]},{"type":"integer","enum":[1]},{"type":"string","enum":["c"],"description":"kept apart"}]"#
        );
    }

    #[test]
    fn dedupe_is_by_schema_equality() {
        let out = dedupe(vec![j(r#"{"const":1}"#), j(r#"{"const":1.0}"#), j(r#"{"const":"1"}"#)]);
        assert_eq!(out.len(), 2);
    }
}
