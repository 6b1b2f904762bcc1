//! Arguments on the way back: undo what the dialect (or a weak model) did to
//! the arguments, then check them against the server's *original* schema.
//!
//! 0. Property names the dialect renamed (`keys`: `_vectorSearch` for
//!    `$vectorSearch` under anthropic) get their original names back. The
//!    mapping is recomputed from `original` by the same function `normalize`
//!    used; a key is renamed back only where the original schema declares or
//!    requires the original name at that location (an open bag's key that
//!    happens to equal a replacement is the model's own), and never onto a
//!    key the arguments already have.
//! 1. Strings that should not be strings. Weak models send arrays, objects,
//!    numbers and booleans as JSON text (`"[1,2]"`, `"true"`); fixing one
//!    level is not enough, this does every depth. A string is replaced by its parse
//!    only where the original schema does not accept a string there and does
//!    accept the parsed type. Gemini's string enums (`"2"` for `2`) map back
//!    to the original enum value, lexeme included.
//! 2. openai-strict: strict mode made every optional property required and
//!    nullable, so the model sends `null` for "not given". Those nulls are
//!    dropped for properties that no applicable subschema of the original
//!    lists as `required`, so the server receives what it would have received
//!    without the normalization. (A deliberate `null` for an optional property
//!    cannot be told apart; it is dropped too — the server's default applies.)
//! 3. The result is validated against the original schema; every violation
//!    is returned instead of forwarding arguments the server will reject.
//!
//! Alternatives (`anyOf`/`oneOf`): the first alternative that takes the value
//! with null-dropping alone wins; only if none does, string coercion is tried
//! per alternative. So `"5"` stays a string where a string alternative exists.

use super::keys::KeyMap;
use super::refs::resolve_ref;
use super::validate::Validator;
use super::Violation;
use crate::json::Path;
use crate::json::{self, Object, ParseOptions, Value};
use crate::policy::Dialect;
use std::collections::HashSet;

const MAX_STEPS: u64 = 200_000;
const MAX_REF_HOPS: u32 = 32;

/// Maps `args` back to what `original` expects for `target`, or says why
/// they do not fit (every violation, with a pointer into the arguments).
pub fn coerce_arguments(original: &Value, target: Dialect, args: &Value) -> Result<Value, Vec<Violation>> {
    // A schema whose mapping fails never normalized (`normalize` returned the
    // same `Err`): there is nothing to rename back.
    let keys = KeyMap::of(original, target).unwrap_or_default();
    let mut c = Coercer { root: original, val: Validator::new(original), strict: target == Dialect::OpenAiStrict, steps: 0, keys };
    let out = c.location(original, args.clone(), 0, true);
    let mut violations = Vec::new();
    let mut val = Validator::new(original);
    val.check(original, &out, &mut Path::new(""), 0, Some(&mut violations));
    val.finish(&mut violations);
    if violations.is_empty() {
        Ok(out)
    } else {
        Err(violations)
    }
}

struct Coercer<'a> {
    root: &'a Value,
    val: Validator<'a>,
    strict: bool,
    steps: u64,
    keys: KeyMap,
}

// Type bits for what a schema accepts.
const NULL: u8 = 1;
const BOOL: u8 = 2;
const OBJECT: u8 = 4;
const ARRAY: u8 = 8;
const NUMBER: u8 = 16;
const STRING: u8 = 32;
const INTEGER: u8 = 64;
const ALL: u8 = 127;

fn type_bits(t: &str) -> u8 {
    match t {
        "null" => NULL,
        "boolean" => BOOL,
        "object" => OBJECT,
        "array" => ARRAY,
        "number" => NUMBER | INTEGER,
        "string" => STRING,
        "integer" => INTEGER,
        _ => 0,
    }
}

fn value_bits(v: &Value) -> u8 {
    match v {
        Value::Null => NULL,
        Value::Bool(_) => BOOL,
        Value::Object(_) => OBJECT,
        Value::Array(_) => ARRAY,
        Value::Number(n) if n.is_integer() => INTEGER,
        Value::Number(_) => NUMBER,
        Value::String(_) => STRING,
    }
}

fn fits(mask: u8, v: &Value) -> bool {
    match v {
        Value::Number(n) if n.is_integer() => mask & (INTEGER | NUMBER) != 0,
        other => mask & value_bits(other) != 0,
    }
}

impl<'a> Coercer<'a> {
    /// A new instance location: drop strict-mode nulls, then coerce.
    fn location(&mut self, s: &'a Value, mut v: Value, hops: u32, strings: bool) -> Value {
        // A stringified object is parsed first, so its nulls are seen.
        if strings {
            if let Value::String(text) = &v {
                if let Some(nv) = self.parse_string_arg(s, text) {
                    v = nv;
                }
            }
        }
        self.unmap(s, &mut v);
        if !self.strict || !matches!(v, Value::Object(_)) {
            return self.node(s, v, hops, strings);
        }
        // Nulls of declared properties no applicable subschema requires:
        // always dropped — before coercion (so alternatives are chosen on
        // what the server will get) and after it (a `"null"` string became
        // one). Undeclared keys of an open bag were never made nullable:
        // their nulls are the model's own.
        let mut req = HashSet::new();
        let mut declared = HashSet::new();
        if has_null_member(&v) {
            self.required_all(s, 0, &mut req, &mut declared);
            drop_optional_nulls(&mut v, &req, &declared);
        }
        let mut v = self.node(s, v, hops, strings);
        if !has_null_member(&v) {
            return v;
        }
        if declared.is_empty() {
            self.required_all(s, 0, &mut req, &mut declared);
        }
        drop_optional_nulls(&mut v, &req, &declared);
        // Names some alternative requires and the chosen one does not (an
        // object-level anyOf flattened for strict mode): a null is dropped
        // whenever the arguments stay valid without it; it is kept only where
        // the original needs it (a required, nullable property).
        let nulls: Vec<String> = match &v {
            Value::Object(map) => {
                map.iter().filter(|(k, x)| matches!(x, Value::Null) && declared.contains(k.as_str())).map(|(k, _)| k.to_string()).collect()
            }
            _ => Vec::new(),
        };
        if !nulls.is_empty() {
            let without = |v: &Value, ks: &[String]| -> Value {
                let mut w = v.clone();
                if let Value::Object(m) = &mut w {
                    for k in ks {
                        m.remove(k);
                    }
                }
                w
            };
            let all = without(&v, &nulls);
            if self.val.is_valid(s, &all) {
                v = all;
            } else {
                for k in nulls {
                    let w = without(&v, std::slice::from_ref(&k));
                    if self.val.is_valid(s, &w) {
                        v = w;
                    }
                }
            }
        }
        v
    }

    fn node(&mut self, s: &'a Value, mut v: Value, hops: u32, strings: bool) -> Value {
        self.steps += 1;
        if self.steps > MAX_STEPS || hops > MAX_REF_HOPS {
            return v;
        }
        let Value::Object(o) = s else { return v };
        if strings {
            if let Value::String(text) = &v {
                if let Some(nv) = self.parse_string_arg(s, text) {
                    v = nv;
                    // Parsed here, not in `location`: its keys are new too.
                    self.unmap(s, &mut v);
                }
            }
        }
        if let Some(Value::String(r)) = o.get("$ref") {
            if let Some(t) = resolve_ref(self.root, r) {
                v = self.node(t, v, hops + 1, strings);
            }
        }
        if let Some(Value::Array(all)) = o.get("allOf") {
            for b in all {
                v = self.node(b, v, hops, strings);
            }
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                v = self.choose(bs, v, hops);
            }
        }
        if let Some(i) = o.get("if") {
            let b = if self.val.is_valid(i, &v) { o.get("then") } else { o.get("else") };
            if let Some(b) = b {
                v = self.node(b, v, hops, strings);
            }
        }
        match &mut v {
            Value::Object(map) => self.object(o, map, strings),
            Value::Array(items) => self.array(o, items, strings),
            _ => {}
        }
        v
    }

    fn object(&mut self, o: &'a Object, map: &mut Object, strings: bool) {
        let props = o.get("properties").and_then(Value::as_object);
        let pats = o.get("patternProperties").and_then(Value::as_object);
        let addl = o.get("additionalProperties");
        for (k, child) in map.entries_mut().iter_mut() {
            let mut subs: Vec<&'a Value> = Vec::new();
            if let Some(s) = props.and_then(|p| p.get(k.as_str())) {
                subs.push(s);
            }
            if let Some(p) = pats {
                for (pat, s) in p.iter() {
                    if pattern_matches(pat, k) {
                        subs.push(s);
                    }
                }
            }
            if subs.is_empty() {
                if let Some(a @ Value::Object(_)) = addl {
                    subs.push(a);
                }
            }
            for s in subs {
                let c = std::mem::replace(child, Value::Null);
                *child = self.location(s, c, 0, strings);
            }
        }
    }

    fn array(&mut self, o: &'a Object, items: &mut [Value], strings: bool) {
        let (tuple, rest): (Option<&'a Vec<Value>>, Option<&'a Value>) = match (o.get("prefixItems"), o.get("items")) {
            (Some(Value::Array(p)), rest) => (Some(p), rest),
            (_, Some(Value::Array(p))) => (Some(p), o.get("additionalItems")),
            (_, rest) => (None, rest),
        };
        for (i, item) in items.iter_mut().enumerate() {
            let sub = match tuple.and_then(|t| t.get(i)) {
                Some(s) => Some(s),
                None => rest,
            };
            if let Some(s @ Value::Object(_)) = sub {
                let c = std::mem::replace(item, Value::Null);
                *item = self.location(s, c, 0, strings);
            }
        }
    }

    /// Renames the keys of `v` that replace an original property name back,
    /// where `s` (the schema at this location) declares or requires it.
    fn unmap(&mut self, s: &'a Value, v: &mut Value) {
        let Value::Object(map) = v else { return };
        if self.keys.is_empty() || !map.keys().any(|k| self.keys.original_name(k).is_some()) {
            return;
        }
        let mut here = HashSet::new();
        self.names_at(s, 0, &mut here);
        let present: HashSet<String> = map.keys().map(|k| k.to_string()).collect();
        for (k, _) in map.entries_mut().iter_mut() {
            if let Some(orig) = self.keys.original_name(k) {
                if here.contains(orig) && !present.contains(orig) {
                    *k = orig.into();
                }
            }
        }
    }

    /// Every property name the subschemas applying at this location declare
    /// or require, conditions included (`normalize` renamed them all).
    fn names_at(&mut self, s: &'a Value, hops: u32, out: &mut HashSet<&'a str>) {
        let Value::Object(o) = s else { return };
        self.steps += 1;
        if hops > MAX_REF_HOPS || self.steps > MAX_STEPS {
            return;
        }
        if let Some(Value::Object(p)) = o.get("properties") {
            out.extend(p.keys().map(|k| k.as_str()));
        }
        if let Some(Value::Array(r)) = o.get("required") {
            out.extend(r.iter().filter_map(Value::as_str));
        }
        if let Some(Value::Object(d)) = o.get("dependentRequired") {
            for (n, list) in d.iter() {
                out.insert(n.as_str());
                if let Value::Array(l) = list {
                    out.extend(l.iter().filter_map(Value::as_str));
                }
            }
        }
        if let Some(Value::Object(d)) = o.get("dependentSchemas") {
            for (n, b) in d.iter() {
                out.insert(n.as_str());
                self.names_at(b, hops, out);
            }
        }
        if let Some(Value::String(r)) = o.get("$ref") {
            if let Some(t) = resolve_ref(self.root, r) {
                self.names_at(t, hops + 1, out);
            }
        }
        for k in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                for b in bs {
                    self.names_at(b, hops, out);
                }
            }
        }
        for k in ["if", "then", "else", "not"] {
            if let Some(b) = o.get(k) {
                self.names_at(b, hops, out);
            }
        }
    }

    /// The first alternative that takes the value as it is (after
    /// null-dropping), else the first that takes it after coercion.
    fn choose(&mut self, branches: &'a [Value], v: Value, hops: u32) -> Value {
        for strings in [false, true] {
            for b in branches {
                // No per-branch null-dropping: `location` already dropped
                // with the required names of *every* branch.
                let c = self.node(b, v.clone(), hops, strings);
                if self.val.is_valid(b, &c) {
                    return c;
                }
            }
        }
        v
    }

    /// The value a JSON-text string stands for, if the schema wants that
    /// instead of a string.
    fn parse_string_arg(&mut self, s: &'a Value, text: &str) -> Option<Value> {
        let Value::Object(o) = s else { return None };
        // Gemini string enums: the original enum value with the same text.
        let enum_vals: Option<Vec<&Value>> = match (o.get("enum"), o.get("const")) {
            (Some(Value::Array(e)), _) => Some(e.iter().collect()),
            (_, Some(c)) => Some(vec![c]),
            _ => None,
        };
        if let Some(e) = &enum_vals {
            if !e.iter().any(|x| x.as_str() == Some(text)) {
                if let Some(m) = e.iter().find(|x| !matches!(x, Value::String(_)) && json::write_compact(x) == text) {
                    return Some((*m).clone());
                }
            }
        }
        let mask = self.accepted(s, 0);
        if mask & STRING != 0 {
            return None;
        }
        let parsed = json::parse(text, ParseOptions { max_depth: 64 }).ok()?.value;
        if matches!(parsed, Value::String(_)) || !fits(mask, &parsed) {
            return None;
        }
        Some(parsed)
    }

    /// The JSON types `s` can accept (a superset is fine: it only gates
    /// which strings are worth parsing).
    fn accepted(&mut self, s: &'a Value, hops: u32) -> u8 {
        self.steps += 1;
        let Value::Object(o) = s else {
            return if *s == Value::Bool(false) { 0 } else { ALL };
        };
        if hops > MAX_REF_HOPS || self.steps > MAX_STEPS {
            return ALL;
        }
        let mut m = ALL;
        match o.get("type") {
            Some(Value::String(t)) => m &= type_bits(t),
            Some(Value::Array(ts)) => m &= ts.iter().filter_map(Value::as_str).fold(0, |a, t| a | type_bits(t)),
            _ => {}
        }
        if o.get("nullable") == Some(&Value::Bool(true)) && o.contains_key("type") {
            m |= NULL;
        }
        if let Some(Value::Array(e)) = o.get("enum") {
            m &= e.iter().fold(0, |a, v| a | value_bits(v) | if value_bits(v) == INTEGER { NUMBER } else { 0 });
        }
        if let Some(c) = o.get("const") {
            m &= value_bits(c) | if value_bits(c) == INTEGER { NUMBER } else { 0 };
        }
        if let Some(Value::String(r)) = o.get("$ref") {
            if let Some(t) = resolve_ref(self.root, r) {
                m &= self.accepted(t, hops + 1);
            }
        }
        if let Some(Value::Array(all)) = o.get("allOf") {
            for b in all {
                m &= self.accepted(b, hops);
            }
        }
        for k in ["anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                m &= bs.iter().fold(0, |a, b| a | self.accepted(b, hops));
            }
        }
        m
    }

    /// Every name some subschema applying at this location lists as
    /// `required` (`out`), and every name one declares in `properties`.
    fn required_all(&mut self, s: &'a Value, hops: u32, out: &mut HashSet<String>, declared: &mut HashSet<String>) {
        let Value::Object(o) = s else { return };
        self.steps += 1;
        if hops > MAX_REF_HOPS || self.steps > MAX_STEPS {
            return;
        }
        if let Some(Value::Array(r)) = o.get("required") {
            for n in r.iter().filter_map(Value::as_str) {
                if !out.contains(n) {
                    out.insert(n.to_string());
                }
            }
        }
        if let Some(Value::Object(p)) = o.get("properties") {
            for n in p.keys() {
                if !declared.contains(n.as_str()) {
                    declared.insert(n.to_string());
                }
            }
        }
        if let Some(Value::String(r)) = o.get("$ref") {
            if let Some(t) = resolve_ref(self.root, r) {
                self.required_all(t, hops + 1, out, declared);
            }
        }
        for k in ["allOf", "anyOf", "oneOf"] {
            if let Some(Value::Array(bs)) = o.get(k) {
                for b in bs {
                    self.required_all(b, hops, out, declared);
                }
            }
        }
        for k in ["then", "else"] {
            if let Some(b) = o.get(k) {
                self.required_all(b, hops, out, declared);
            }
        }
        if let Some(Value::Object(ds)) = o.get("dependentSchemas") {
            for (_, b) in ds.iter() {
                self.required_all(b, hops, out, declared);
            }
        }
    }
}

fn drop_optional_nulls(v: &mut Value, req: &HashSet<String>, declared: &HashSet<String>) {
    if let Value::Object(map) = v {
        map.retain(|k, x| !matches!(x, Value::Null) || req.contains(k) || !declared.contains(k));
    }
}

fn has_null_member(v: &Value) -> bool {
    matches!(v, Value::Object(m) if m.iter().any(|(_, x)| matches!(x, Value::Null)))
}

/// Pattern test for `patternProperties` keys (linear-time engine; a pattern
/// that does not compile matches nothing).
pub(super) fn pattern_matches(pattern: &str, s: &str) -> bool {
    use regex_automata::nfa::thompson::{self, pikevm};
    use regex_automata::util::syntax;
    let Ok(re) = pikevm::PikeVM::builder()
        .syntax(syntax::Config::new().nest_limit(64))
        .thompson(thompson::Config::new().nfa_size_limit(Some(1 << 20)))
        .build(pattern)
    else {
        return false;
    };
    let mut cache = re.create_cache();
    re.is_match(&mut cache, s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, write_compact, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    fn co(schema: &str, args: &str) -> String {
        match coerce_arguments(&j(schema), Dialect::OpenAiStrict, &j(args)) {
            Ok(v) => write_compact(&v),
            Err(e) => format!("ERR {}", e.iter().map(|v| format!("{} {}", v.pointer, v.reason)).collect::<Vec<_>>().join("; ")),
        }
    }

    #[test]
    fn a_string_is_parsed_only_where_a_string_is_not_wanted() {
        let s = r#"{"type":"object","properties":{"a":{"type":"array"},"s":{"type":"string"},"n":{"type":["integer","null"]}}}"#;
        assert_eq!(co(s, r#"{"a":"[1]","s":"[1]","n":"7"}"#), r#"{"a":[1],"s":"[1]","n":7}"#);
        // A JSON string literal inside a string stays the string it was.
        assert_eq!(co(s, r#"{"a":"\"x\""}"#), r#"ERR /a type: expected "array", got string"#);
        // `"null"` becomes null only where null is wanted and a string is not.
        assert_eq!(co(s, r#"{"n":"null"}"#), r#"{}"#);
    }

    #[test]
    fn null_of_an_undeclared_key_is_the_model_s_own() {
        let s = r#"{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":{"type":["string","null"]}}"#;
        assert_eq!(co(s, r#"{"a":null,"extra":null}"#), r#"{"extra":null}"#);
    }

    #[test]
    fn a_required_nullable_null_is_kept() {
        let s = r#"{"type":"object","properties":{"a":{"type":["integer","null"]}},"required":["a"]}"#;
        assert_eq!(co(s, r#"{"a":null}"#), r#"{"a":null}"#);
    }
}
