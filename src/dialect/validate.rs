//! A small JSON Schema validator for the keywords the engine accepts
//! (`crate::schema::keyword`: 2020-12, the draft-07 forms still in use, and
//! OpenAPI `nullable`). It checks tool arguments against the server's
//! *original* schema on the way back, and the tests use it to check that the
//! normalized schema still accepts what the original accepted.
//!
//! Decisions:
//! - `format` is an annotation (the 2020-12 default): not validated.
//! - `pattern` runs on regex-automata's Pike VM: linear in the input, no
//!   backtracking, and an NFA size cap, so a hostile pattern costs bounded
//!   time and memory. Rust regex syntax is close to the portable ECMA-262
//!   subset `limits` lets through; `\d`/`\w` are Unicode-aware here (slightly
//!   more permissive than ECMA-262). A pattern that does not compile is
//!   skipped, not held against the arguments.
//! - A `$ref` that does not resolve inside the schema is skipped (`limits` hides
//!   such tools before they get here); `$ref` chains that do not move into
//!   the instance are followed at most `MAX_REF_HOPS` times (`{"$ref":"#"}`).
//! - Total work is bounded by `MAX_STEPS`; past it validation stops with a
//!   violation (refusing is the safe answer for a call nobody can check).
//! - Violations point into the *instance* (RFC 6901) and name the keyword.

use super::refs::resolve_ref;
use super::{num, Violation};
use crate::json::Path;
use crate::json::{self, Object, Value};
use regex_automata::nfa::thompson::{self, pikevm};
use regex_automata::util::syntax;
use std::cmp::Ordering;

const MAX_STEPS: u64 = 1_000_000;
const MAX_REF_HOPS: u32 = 32;
/// Compiled-NFA budget for one `pattern`.
const NFA_SIZE_LIMIT: usize = 1 << 20;

/// Validates `instance` against `schema`; every violation, in document order.
/// An empty list means valid.
pub fn validate(schema: &Value, instance: &Value) -> Vec<Violation> {
    let mut v = Validator::new(schema);
    let mut out = Vec::new();
    v.check(schema, instance, &mut Path::new(""), 0, Some(&mut out));
    v.finish(&mut out);
    out
}

/// Reusable validator over one root schema (so `$ref`s resolve and compiled
/// patterns are cached across calls; `coerce` validates many branches).
pub(crate) struct Validator<'a> {
    root: &'a Value,
    steps: u64,
    exhausted: bool,
    patterns: Vec<(String, Option<(pikevm::PikeVM, pikevm::Cache)>)>,
}

impl<'a> Validator<'a> {
    pub(crate) fn new(root: &'a Value) -> Validator<'a> {
        Validator { root, steps: 0, exhausted: false, patterns: Vec::new() }
    }

    pub(crate) fn finish(&self, out: &mut Vec<Violation>) {
        if self.exhausted {
            out.push(Violation {
                pointer: String::new(),
                reason: format!("validation stopped after {MAX_STEPS} steps: the arguments are too large to check"),
            });
        }
    }

    /// True if `instance` is valid against `schema` (a subschema of the root).
    pub(crate) fn is_valid(&mut self, schema: &'a Value, instance: &Value) -> bool {
        self.check(schema, instance, &mut Path::new(""), 0, None) && !self.exhausted
    }

    /// Checks one subschema. With `out == None` it stops at the first failure
    /// (branch probing); with `Some`, it records every violation.
    pub(crate) fn check(
        &mut self,
        schema: &'a Value,
        inst: &Value,
        at: &mut Path,
        hops: u32,
        mut out: Option<&mut Vec<Violation>>,
    ) -> bool {
        let o = match schema {
            Value::Bool(true) => return true,
            Value::Bool(false) => {
                fail(&mut out, at, "the schema `false` allows no value here".into());
                return false;
            }
            Value::Object(o) => o,
            _ => return true, // not a schema: nothing to check
        };
        self.steps += 1;
        if self.steps > MAX_STEPS {
            self.exhausted = true;
            return false;
        }
        let mut ok = true;
        macro_rules! bad {
            ($reason:expr) => {{
                ok = false;
                if out.is_none() {
                    return false;
                }
                fail(&mut out, at, $reason);
            }};
        }

        if let Some(Value::String(r)) = o.get("$ref") {
            if hops < MAX_REF_HOPS {
                if let Some(target) = resolve_ref(self.root, r) {
                    if !self.check(target, inst, at, hops + 1, out.as_deref_mut()) {
                        ok = false;
                        if out.is_none() {
                            return false;
                        }
                    }
                }
            }
        }

        // -- type, nullable, enum, const ---------------------------------
        let nullable = o.get("nullable") == Some(&Value::Bool(true));
        if let Some(t) = o.get("type") {
            let fits = match t {
                Value::String(t) => type_fits(t, inst),
                Value::Array(ts) => ts.iter().any(|t| t.as_str().is_some_and(|t| type_fits(t, inst))),
                _ => true,
            };
            if !(fits || nullable && matches!(inst, Value::Null)) {
                bad!(format!("type: expected {}, got {}", json::write_compact(t), kind_name(inst)));
            }
        }
        if let Some(Value::Array(list)) = o.get("enum") {
            if !(list.iter().any(|e| e.schema_eq(inst)) || nullable && matches!(inst, Value::Null)) {
                bad!(format!("enum: {} is not one of the {} allowed values", short(inst), list.len()));
            }
        }
        if let Some(c) = o.get("const") {
            if !c.schema_eq(inst) {
                bad!(format!("const: expected {}", short(c)));
            }
        }

        // -- per instance type ----------------------------------------------
        match inst {
            Value::Number(n) => {
                let excl_min_bool = o.get("exclusiveMinimum") == Some(&Value::Bool(true));
                let excl_max_bool = o.get("exclusiveMaximum") == Some(&Value::Bool(true));
                if let Some(Value::Number(m)) = o.get("minimum") {
                    let c = num::cmp(n, m);
                    if c == Ordering::Less || (excl_min_bool && c == Ordering::Equal) {
                        bad!(format!("minimum: {} is below {}", n.as_str(), m.as_str()));
                    }
                }
                if let Some(Value::Number(m)) = o.get("maximum") {
                    let c = num::cmp(n, m);
                    if c == Ordering::Greater || (excl_max_bool && c == Ordering::Equal) {
                        bad!(format!("maximum: {} is above {}", n.as_str(), m.as_str()));
                    }
                }
                if let Some(Value::Number(m)) = o.get("exclusiveMinimum") {
                    if num::cmp(n, m) != Ordering::Greater {
                        bad!(format!("exclusiveMinimum: {} is not above {}", n.as_str(), m.as_str()));
                    }
                }
                if let Some(Value::Number(m)) = o.get("exclusiveMaximum") {
                    if num::cmp(n, m) != Ordering::Less {
                        bad!(format!("exclusiveMaximum: {} is not below {}", n.as_str(), m.as_str()));
                    }
                }
                if let Some(Value::Number(m)) = o.get("multipleOf") {
                    if m.as_f64() > 0.0 && !num::is_multiple_of(n, m) {
                        bad!(format!("multipleOf: {} is not a multiple of {}", n.as_str(), m.as_str()));
                    }
                }
            }
            Value::String(s) => {
                let len = || s.chars().count() as u64;
                if let Some(min) = count(o, "minLength") {
                    if len() < min {
                        bad!(format!("minLength: {} characters, fewer than {min}", len()));
                    }
                }
                if let Some(max) = count(o, "maxLength") {
                    if len() > max {
                        bad!(format!("maxLength: {} characters, more than {max}", len()));
                    }
                }
                if let Some(Value::String(p)) = o.get("pattern") {
                    if self.pattern_fails(p, s) {
                        bad!(format!("pattern: does not match {}", short(&Value::String(p.clone()))));
                    }
                }
            }
            Value::Array(items) => {
                if let Some(min) = count(o, "minItems") {
                    if (items.len() as u64) < min {
                        bad!(format!("minItems: {} items, fewer than {min}", items.len()));
                    }
                }
                if let Some(max) = count(o, "maxItems") {
                    if items.len() as u64 > max {
                        bad!(format!("maxItems: {} items, more than {max}", items.len()));
                    }
                }
                if o.get("uniqueItems") == Some(&Value::Bool(true)) {
                    // Linear: canonical keys in a hash map, not pairwise.
                    let mut seen = std::collections::HashMap::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        let mut k = String::new();
                        item.canonical_key(&mut k);
                        self.steps += 1 + k.len() as u64 / 64;
                        if let Some(j) = seen.insert(k, i) {
                            bad!(format!("uniqueItems: items {j} and {i} are equal"));
                            break;
                        }
                    }
                }
                // Tuple part: 2020-12 `prefixItems`, or draft-07 `items: [..]`.
                let (tuple, rest): (Option<&'a Vec<Value>>, Option<&'a Value>) = match (o.get("prefixItems"), o.get("items")) {
                    (Some(Value::Array(p)), rest) => (Some(p), rest),
                    (_, Some(Value::Array(p))) => (Some(p), o.get("additionalItems")),
                    (_, rest) => (None, rest),
                };
                let skip = tuple.map_or(0, |t| t.len());
                for (i, item) in items.iter().enumerate() {
                    let sub = match tuple.and_then(|t| t.get(i)) {
                        Some(s) => Some(s),
                        None if i >= skip => rest,
                        None => None,
                    };
                    if let Some(sub) = sub {
                        let m = at.push_index(i);
                        let r = self.check(sub, item, at, 0, out.as_deref_mut());
                        at.pop_to(m);
                        if !r {
                            ok = false;
                            if out.is_none() {
                                return false;
                            }
                        }
                    }
                }
                if let Some(c) = o.get("contains") {
                    let mut n = 0u64;
                    for item in items {
                        if self.is_valid(c, item) {
                            n += 1;
                        }
                    }
                    let min = count(o, "minContains").unwrap_or(1);
                    if n < min {
                        bad!(format!("contains: {n} matching items, fewer than {min}"));
                    }
                    if let Some(max) = count(o, "maxContains") {
                        if n > max {
                            bad!(format!("maxContains: {n} matching items, more than {max}"));
                        }
                    }
                }
                if let Some(u) = o.get("unevaluatedItems") {
                    let done = self.evaluated_items(schema, inst, 0);
                    for (i, item) in items.iter().enumerate().skip(done) {
                        let m = at.push_index(i);
                        let r = self.check(u, item, at, 0, out.as_deref_mut());
                        at.pop_to(m);
                        if !r {
                            ok = false;
                            if out.is_none() {
                                return false;
                            }
                        }
                    }
                }
            }
            Value::Object(map) => {
                if let Some(Value::Array(req)) = o.get("required") {
                    for r in req {
                        if let Value::String(r) = r {
                            if !map.contains_key(r) {
                                bad!(format!("required: property {r:?} is missing"));
                            }
                        }
                    }
                }
                if let Some(min) = count(o, "minProperties") {
                    if (map.len() as u64) < min {
                        bad!(format!("minProperties: {} properties, fewer than {min}", map.len()));
                    }
                }
                if let Some(max) = count(o, "maxProperties") {
                    if map.len() as u64 > max {
                        bad!(format!("maxProperties: {} properties, more than {max}", map.len()));
                    }
                }
                if let Some(Value::Object(dr)) = o.get("dependentRequired") {
                    for (k, needs) in dr.iter() {
                        if map.contains_key(k) {
                            for n in needs.as_array().into_iter().flatten().filter_map(Value::as_str) {
                                if !map.contains_key(n) {
                                    bad!(format!("dependentRequired: {k:?} needs {n:?}"));
                                }
                            }
                        }
                    }
                }
                let props = o.get("properties").and_then(Value::as_object);
                let pats = o.get("patternProperties").and_then(Value::as_object);
                let addl = o.get("additionalProperties");
                let names = o.get("propertyNames");
                for (k, v) in map.iter() {
                    let m = at.push(k);
                    if let Some(pn) = names {
                        if !self.check(pn, &Value::String(k.to_string()), &mut Path::new(""), 0, None) {
                            at.pop_to(m);
                            bad!(format!("propertyNames: {k:?} is not an allowed property name"));
                            at.push(k);
                        }
                    }
                    let mut covered = false;
                    let mut r = true;
                    if let Some(s) = props.and_then(|p| p.get(k)) {
                        covered = true;
                        r &= self.check(s, v, at, 0, out.as_deref_mut());
                    }
                    if let Some(pats) = pats {
                        for (p, s) in pats.iter() {
                            if (r || out.is_some()) && !self.pattern_fails(p, k) {
                                covered = true;
                                r &= self.check(s, v, at, 0, out.as_deref_mut());
                            }
                        }
                    }
                    if !covered {
                        if let Some(a) = addl {
                            if matches!(a, Value::Bool(false)) {
                                at.pop_to(m);
                                bad!(format!("additionalProperties: property {k:?} is not allowed"));
                                at.push(k);
                            } else {
                                r &= self.check(a, v, at, 0, out.as_deref_mut());
                            }
                        }
                    }
                    at.pop_to(m);
                    if !r {
                        ok = false;
                        if out.is_none() {
                            return false;
                        }
                    }
                }
                if let Some(Value::Object(ds)) = o.get("dependentSchemas") {
                    for (k, s) in ds.iter() {
                        if map.contains_key(k) && !self.check(s, inst, at, hops, out.as_deref_mut()) {
                            ok = false;
                            if out.is_none() {
                                return false;
                            }
                        }
                    }
                }
                if let Some(u) = o.get("unevaluatedProperties") {
                    let mut seen = Vec::new();
                    self.evaluated_props(schema, inst, 0, &mut seen);
                    for (k, v) in map.iter() {
                        if seen.iter().any(|s| s == k) {
                            continue;
                        }
                        let m = at.push(k);
                        let r = if matches!(u, Value::Bool(false)) {
                            at.pop_to(m);
                            fail(&mut out, at, format!("unevaluatedProperties: property {k:?} is not allowed"));
                            at.push(k);
                            false
                        } else {
                            self.check(u, v, at, 0, out.as_deref_mut())
                        };
                        at.pop_to(m);
                        if !r {
                            ok = false;
                            if out.is_none() {
                                return false;
                            }
                        }
                    }
                }
            }
            _ => {}
        }

        // -- combinators -----------------------------------------------------
        if let Some(Value::Array(all)) = o.get("allOf") {
            for s in all {
                if !self.check(s, inst, at, hops, out.as_deref_mut()) {
                    ok = false;
                    if out.is_none() {
                        return false;
                    }
                }
            }
        }
        if let Some(Value::Array(any)) = o.get("anyOf") {
            if !any.iter().any(|s| self.is_valid_at(s, inst, hops)) {
                bad!(format!("anyOf: matches none of the {} alternatives", any.len()));
            }
        }
        if let Some(Value::Array(one)) = o.get("oneOf") {
            let n = one.iter().filter(|s| self.is_valid_at(s, inst, hops)).count();
            if n != 1 {
                bad!(format!("oneOf: matches {n} of the {} alternatives, not exactly one", one.len()));
            }
        }
        if let Some(s) = o.get("not") {
            if self.is_valid_at(s, inst, hops) {
                bad!("not: matches the excluded schema".to_string());
            }
        }
        if let Some(i) = o.get("if") {
            let branch = if self.is_valid_at(i, inst, hops) { o.get("then") } else { o.get("else") };
            if let Some(b) = branch {
                if !self.check(b, inst, at, hops, out) {
                    ok = false;
                }
            }
        }
        ok
    }

    fn is_valid_at(&mut self, schema: &'a Value, inst: &Value, hops: u32) -> bool {
        self.check(schema, inst, &mut Path::new(""), hops, None)
    }

    /// True if `s` has a pattern that compiles and does not match `s`.
    fn pattern_fails(&mut self, pattern: &str, s: &str) -> bool {
        let idx = match self.patterns.iter().position(|(p, _)| p == pattern) {
            Some(i) => i,
            None => {
                let built = pikevm::PikeVM::builder()
                    .syntax(syntax::Config::new().nest_limit(64))
                    .thompson(thompson::Config::new().nfa_size_limit(Some(NFA_SIZE_LIMIT)))
                    .build(pattern)
                    .ok()
                    .map(|re| {
                        let cache = re.create_cache();
                        (re, cache)
                    });
                self.patterns.push((pattern.to_string(), built));
                self.patterns.len() - 1
            }
        };
        self.steps += s.len() as u64 / 64 + 1;
        match &mut self.patterns[idx].1 {
            Some((re, cache)) => !re.is_match(cache, s),
            None => false,
        }
    }

    /// Property names evaluated by `schema` and the subschemas that apply in
    /// place (for `unevaluatedProperties`).
    fn evaluated_props(&mut self, schema: &'a Value, inst: &Value, hops: u32, seen: &mut Vec<String>) {
        let (Value::Object(o), Value::Object(map)) = (schema, inst) else { return };
        if hops > MAX_REF_HOPS {
            return;
        }
        let props = o.get("properties").and_then(Value::as_object);
        let pats = o.get("patternProperties").and_then(Value::as_object);
        let addl = o.get("additionalProperties").is_some();
        for k in map.keys() {
            let hit =
                props.is_some_and(|p| p.contains_key(k)) || pats.is_some_and(|p| p.keys().any(|pat| !self.pattern_fails(pat, k))) || addl;
            if hit && !seen.iter().any(|s| s == k.as_str()) {
                seen.push(k.to_string());
            }
        }
        for sub in self.in_place(o, inst, hops) {
            self.evaluated_props(sub.0, inst, sub.1, seen);
        }
    }

    fn evaluated_items(&mut self, schema: &'a Value, inst: &Value, hops: u32) -> usize {
        let (Value::Object(o), Value::Array(items)) = (schema, inst) else { return 0 };
        if hops > MAX_REF_HOPS {
            return 0;
        }
        let mut n = match (o.get("prefixItems"), o.get("items")) {
            (_, Some(Value::Object(_) | Value::Bool(_))) => items.len(),
            (Some(Value::Array(p)), _) | (_, Some(Value::Array(p))) => p.len().min(items.len()),
            _ => 0,
        };
        if o.contains_key("unevaluatedItems") && hops > 0 {
            n = items.len();
        }
        for sub in self.in_place(o, inst, hops) {
            n = n.max(self.evaluated_items(sub.0, inst, sub.1));
        }
        n
    }

    /// Subschemas applying to the same instance location that *succeed*
    /// (annotations only come from passing subschemas).
    fn in_place(&mut self, o: &'a Object, inst: &Value, hops: u32) -> Vec<(&'a Value, u32)> {
        let mut subs = Vec::new();
        if let Some(Value::String(r)) = o.get("$ref") {
            if let Some(t) = resolve_ref(self.root, r) {
                subs.push((t, hops + 1));
            }
        }
        for k in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(list)) = o.get(k) {
                for s in list {
                    if self.is_valid_at(s, inst, hops) {
                        subs.push((s, hops));
                    }
                }
            }
        }
        if let Some(i) = o.get("if") {
            if self.is_valid_at(i, inst, hops) {
                subs.push((i, hops));
                if let Some(t) = o.get("then") {
                    subs.push((t, hops));
                }
            } else if let Some(e) = o.get("else") {
                subs.push((e, hops));
            }
        }
        if let (Some(Value::Object(ds)), Value::Object(map)) = (o.get("dependentSchemas"), inst) {
            for (k, s) in ds.iter() {
                if map.contains_key(k) {
                    subs.push((s, hops));
                }
            }
        }
        subs
    }
}

fn fail(out: &mut Option<&mut Vec<Violation>>, at: &Path, reason: String) {
    if let Some(out) = out.as_deref_mut() {
        out.push(Violation { pointer: at.as_str().to_string(), reason });
    }
}

/// JSON Schema's view of an instance's type (`integer` for integral numbers).
pub(crate) fn type_fits(t: &str, v: &Value) -> bool {
    match (t, v) {
        ("null", Value::Null) | ("boolean", Value::Bool(_)) | ("string", Value::String(_)) => true,
        ("object", Value::Object(_)) | ("array", Value::Array(_)) | ("number", Value::Number(_)) => true,
        ("integer", Value::Number(n)) => n.is_integer(),
        _ => false,
    }
}

fn kind_name(v: &Value) -> &'static str {
    match v {
        Value::Number(n) if n.is_integer() => "integer",
        other => other.type_name(),
    }
}

fn count(o: &Object, k: &str) -> Option<u64> {
    match o.get(k) {
        Some(Value::Number(n)) => n.as_u64().or_else(|| if n.as_f64() < 0.0 { Some(0) } else { Some(u64::MAX) }),
        _ => None,
    }
}

fn short(v: &Value) -> String {
    let s = json::write_compact(v);
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    fn errs(schema: &str, inst: &str) -> Vec<String> {
        validate(&j(schema), &j(inst)).into_iter().map(|v| format!("{} {}", v.pointer, v.reason)).collect()
    }

    #[test]
    fn reports_every_violation_with_its_pointer() {
        let e = errs(
            r#"{"type":"object","properties":{"n":{"type":"integer","minimum":1},"tags":{"type":"array","items":{"type":"string"}}},"required":["id"],"additionalProperties":false}"#,
            r#"{"n":0.5,"tags":["a",3],"x":1}"#,
        );
        assert_eq!(e.len(), 5, "{e:?}");
        assert!(e.iter().any(|s| s.starts_with(" required")));
        assert!(e.iter().any(|s| s.starts_with("/n type")));
        assert!(e.iter().any(|s| s.starts_with("/n minimum")));
        assert!(e.iter().any(|s| s.starts_with("/tags/1 type")));
        assert!(e.iter().any(|s| s.contains("\"x\" is not allowed")));
    }

    #[test]
    fn refs_resolve_and_self_reference_terminates() {
        let s = r##"{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}}},"$ref":"#/$defs/n"}"##;
        assert!(errs(s, r#"{"next":{"next":{}}}"#).is_empty());
        assert_eq!(errs(s, r#"{"next":{"next":3}}"#).len(), 1);
        assert!(errs(r##"{"$ref":"#"}"##, "1").is_empty());
    }

    #[test]
    fn combinators_and_numbers_are_exact() {
        assert!(errs(r#"{"oneOf":[{"type":"integer"},{"type":"number"}]}"#, "1.5").is_empty());
        assert_eq!(errs(r#"{"oneOf":[{"type":"integer"},{"type":"number"}]}"#, "2").len(), 1);
        assert_eq!(errs(r#"{"maximum":9007199254740992}"#, "9007199254740993").len(), 1);
        assert!(errs(r#"{"multipleOf":0.1}"#, "0.3").is_empty());
        assert!(errs(r#"{"type":"string","nullable":true}"#, "null").is_empty());
        assert!(errs(r#"{"exclusiveMinimum":true,"minimum":0}"#, "0").len() == 1);
    }

    #[test]
    fn pattern_runs_in_linear_time_on_a_classic_redos() {
        let s = r#"{"pattern":"^(a+)+$"}"#;
        let long = format!("\"{}b\"", "a".repeat(5000));
        let t = std::time::Instant::now();
        assert_eq!(errs(s, &long).len(), 1);
        assert!(t.elapsed().as_secs() < 2);
        assert!(errs(r#"{"pattern":"(?<=a)b"}"#, "\"b\"").is_empty(), "uncompilable pattern is skipped");
    }

    #[test]
    fn unevaluated_properties_see_through_all_of() {
        let s = r#"{"allOf":[{"properties":{"a":{}}}],"properties":{"b":{}},"unevaluatedProperties":false}"#;
        assert!(errs(s, r#"{"a":1,"b":2}"#).is_empty());
        assert_eq!(errs(s, r#"{"a":1,"c":2}"#).len(), 1);
    }
}
