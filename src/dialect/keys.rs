//! Property names the target rejects, mapped reversibly. Anthropic (and so
//! portable) takes only property keys matching `^[a-zA-Z0-9_.-]{1,64}$`;
//! real servers use others (MongoDB's aggregation stages are properties
//! named `$vectorSearch`, `$meta`). Hiding those tools loses them, so the
//! name the model sees is changed and changed back.
//!
//! **One source of truth.** `KeyMap::of(original, target)` is the only
//! function that decides the mapping. `normalize` applies it to its output;
//! `coerce_arguments` recomputes it from the same original schema and
//! inverts it. Nothing about the mapping is stored between the two calls.
//!
//! **One map per schema, not per object.** Every invalid name declared
//! anywhere in the schema (`$defs` included) gets one replacement, chosen to
//! be no name the schema uses anywhere (`properties`, `required`,
//! `dependentRequired`, `dependentSchemas`) and no other replacement. A
//! per-object map would have to reproduce, on the way back, which original
//! objects `normalize` merged into one (inlined `$ref`s, merged `allOf`,
//! flattened object alternatives); a per-schema map is the same wherever a
//! name ends up, so the merges cannot make the two directions disagree.
//!
//! **The rule.** Each character outside `[A-Za-z0-9_.-]` becomes `_`, an
//! empty name becomes `_`, the result is cut to 64 bytes; if that is taken,
//! `_2`, `_3`, … is appended (the stem cut so the whole stays within 64).
//! Invalid names are assigned in sorted order, so the result does not depend
//! on key order. `$vectorSearch` → `_vectorSearch`; beside a real
//! `_vectorSearch`, `_vectorSearch_2`.
//!
//! **What else names properties.** In the output, `required`,
//! `dependentRequired` (keys and values) and `dependentSchemas` keys are
//! renamed with the properties. Where a property was renamed, a
//! `patternProperties` pattern that would newly match the new name, and a
//! `propertyNames` schema that rejects it, are removed (they would reject
//! or constrain arguments the original accepts); `enum`/`const`/`default`/
//! `examples` values that spell a mapped name as an object key are removed
//! too (they would contradict the renamed properties). All of these are
//! `dialect-lossy`: the original is enforced by `coerce_arguments`.
//!
//! **On the way back** a key is mapped back only at an argument location
//! where the original schema declares or requires the original name (see
//! `coerce`): a key of an open bag that happens to equal a replacement is
//! the model's own and stays.

use super::Cx;
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{self, Object, Value};
use crate::policy::Dialect;
use crate::schema::Kw;
use std::collections::{BTreeSet, HashMap, HashSet};

/// The longest property name the targets take.
const MAX_KEY: usize = 64;
/// Collision probes over all names of one schema: each probe tries a new
/// suffix, so this only matters for schemas built to collide (then `Err`).
const MAX_PROBES: u32 = 100_000;
/// Subschema nesting the name walks follow. Outputs of `normalize` are far
/// shallower (`shape` refuses past `2 * MAX_DEPTH`); a name past this depth
/// of the original is not seen, and the collision check in `apply` catches
/// the one way that could matter.
const MAX_WALK_DEPTH: u32 = 4 * super::MAX_DEPTH;

/// Whether `target` takes `name` as a property key.
pub(crate) fn key_ok(name: &str, target: Dialect) -> bool {
    match target {
        Dialect::Anthropic | Dialect::Portable => {
            super::name_ok(name, 1, MAX_KEY, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'))
        }
        Dialect::None | Dialect::Gemini | Dialect::OpenAiStrict => true,
    }
}

/// Original property name ↔ the name the target sees, for one schema.
#[derive(Debug, Default)]
pub(crate) struct KeyMap {
    to_target: HashMap<String, String>,
    to_original: HashMap<String, String>,
}

impl KeyMap {
    /// The mapping for `schema` (the *original*, as given to `normalize`).
    /// Empty for targets without a property-name rule, and for schemas
    /// whose names all pass it. `Err` only when the collision probes run
    /// out (a schema built for it).
    pub(crate) fn of(schema: &Value, target: Dialect) -> Result<KeyMap, String> {
        let mut map = KeyMap::default();
        if !matches!(target, Dialect::Anthropic | Dialect::Portable) {
            return Ok(map);
        }
        // First pass: the invalid names only (no allocation for the usual
        // schema, where there are none).
        let mut invalid: BTreeSet<&str> = BTreeSet::new();
        names(schema, &mut |n, declared| {
            if declared && !key_ok(n, target) {
                invalid.insert(n);
            }
        });
        if invalid.is_empty() {
            return Ok(map);
        }
        let mut used: HashSet<&str> = HashSet::new();
        names(schema, &mut |n, _| {
            used.insert(n);
        });
        let mut taken: HashSet<String> = used.iter().map(|s| s.to_string()).collect();
        // Next suffix to try per base name: many names with one base (`$a`,
        // `%a`, `&a` → `_a`) probe linearly, not quadratically.
        let mut next: HashMap<String, u32> = HashMap::new();
        let mut probes = 0u32;
        for name in invalid {
            let base = base_name(name);
            let mut cand = base.clone();
            if taken.contains(&cand) {
                let mut n = next.get(&base).copied().unwrap_or(2);
                loop {
                    probes += 1;
                    if probes > MAX_PROBES {
                        return Err(format!(
                            "more than {MAX_PROBES} collisions while mapping property names the target rejects (a schema built to collide)"
                        ));
                    }
                    let suffix = format!("_{n}");
                    n += 1;
                    cand = base.clone();
                    cand.truncate(MAX_KEY - suffix.len());
                    cand.push_str(&suffix);
                    if !taken.contains(&cand) {
                        break;
                    }
                }
                next.insert(base, n);
            }
            taken.insert(cand.clone());
            map.to_target.insert(name.to_string(), cand.clone());
            map.to_original.insert(cand, name.to_string());
        }
        Ok(map)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.to_target.is_empty()
    }

    /// The name the target sees for the original `name`, if it is mapped.
    pub(crate) fn target_name(&self, name: &str) -> Option<&str> {
        self.to_target.get(name).map(String::as_str)
    }

    /// The original name behind the target's `name`, if it is a replacement.
    pub(crate) fn original_name(&self, name: &str) -> Option<&str> {
        self.to_original.get(name).map(String::as_str)
    }

    /// Every (original, target) pair, sorted by the original name.
    pub(crate) fn pairs(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = self.to_target.iter().map(|(a, b)| (a.clone(), b.clone())).collect();
        v.sort();
        v
    }
}

/// The property-name mapping `normalize` applies for `target` and
/// `coerce_arguments` reverses: `(original, name the target sees)` pairs,
/// sorted by the original name; empty when every name is valid for the
/// target. For hosts that show or log the mapping; the two directions
/// compute it themselves from the same schema.
pub fn property_key_map(schema: &Value, target: Dialect) -> Result<Vec<(String, String)>, String> {
    Ok(KeyMap::of(schema, target)?.pairs())
}

/// `name` with the characters the targets reject replaced, within 64 bytes.
fn base_name(name: &str) -> String {
    let mut out: String = name.chars().map(|c| if c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-') { c } else { '_' }).collect();
    if out.is_empty() {
        out.push('_');
    }
    out.truncate(MAX_KEY); // ASCII by now: any byte index is a boundary
    out
}

/// Calls `f(name, declared)` for every property name `schema` uses,
/// keyword-aware: `properties` keys (`declared`), `required` entries,
/// `dependentRequired` keys and values, `dependentSchemas` keys.
fn names<'a>(schema: &'a Value, f: &mut dyn FnMut(&'a str, bool)) {
    // `schema::walk` hands out borrows shorter than `'a`; this walk keeps
    // them, so names are collected without copying.
    fn go<'a>(v: &'a Value, depth: u32, f: &mut dyn FnMut(&'a str, bool)) {
        let Value::Object(o) = v else { return };
        if depth > MAX_WALK_DEPTH {
            return;
        }
        for (k, x) in o.iter() {
            match (k.as_str(), x) {
                ("properties", Value::Object(p)) => p.keys().for_each(|n| f(n, true)),
                ("required", Value::Array(r)) => r.iter().filter_map(Value::as_str).for_each(|n| f(n, false)),
                ("dependentRequired", Value::Object(d)) => {
                    for (n, list) in d.iter() {
                        f(n, false);
                        list.as_array().into_iter().flatten().filter_map(Value::as_str).for_each(|n| f(n, false));
                    }
                }
                ("dependentSchemas", Value::Object(d)) => d.keys().for_each(|n| f(n, false)),
                _ => {}
            }
            match (k.kw(), x) {
                (Some(Kw::SchemaMap | Kw::PatternMap), Value::Object(m)) => m.iter().for_each(|(_, s)| go(s, depth + 1, f)),
                (Some(Kw::SchemaList | Kw::Items), Value::Array(l)) => l.iter().for_each(|s| go(s, depth + 1, f)),
                (Some(Kw::SchemaOne | Kw::Items), s) => go(s, depth + 1, f),
                _ => {}
            }
        }
    }
    go(schema, 1, f)
}

/// Renames the mapped property names throughout `out` (a normalized schema:
/// no `$ref`s left) and reports each rename. Post-order, so pointers below a
/// renamed property still spell its original name, like every other change.
pub(super) fn apply(out: &mut Value, map: &KeyMap, cx: &mut Cx) -> Result<(), String> {
    if map.is_empty() {
        return Ok(());
    }
    node(out, &mut Path::new(""), 1, map, cx)
}

fn node(v: &mut Value, path: &mut Path, depth: u32, map: &KeyMap, cx: &mut Cx) -> Result<(), String> {
    let Value::Object(o) = v else { return Ok(()) };
    if depth > MAX_WALK_DEPTH {
        return Err(format!("the schema nests deeper than {MAX_WALK_DEPTH} levels"));
    }
    for (k, x) in o.entries_mut().iter_mut() {
        let Some(kw) = k.kw() else { continue };
        let m = path.push(k);
        match (kw, x) {
            (Kw::SchemaMap | Kw::PatternMap, Value::Object(children)) => {
                for (name, s) in children.entries_mut().iter_mut() {
                    let m2 = path.push(name);
                    node(s, path, depth + 1, map, cx)?;
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaList | Kw::Items, Value::Array(list)) => {
                for (i, s) in list.iter_mut().enumerate() {
                    let m2 = path.push_index(i);
                    node(s, path, depth + 1, map, cx)?;
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaOne | Kw::Items, s) => node(s, path, depth + 1, map, cx)?,
            _ => {}
        }
        path.pop_to(m);
    }
    here(o, path, map, cx)
}

fn lossy(cx: &mut Cx, ptr: &str, sev: S, detail: String) {
    cx.change(K::DialectLossy, sev, ptr, Action::Removed, detail);
}

/// The renames and their consequences at one schema object.
fn here(o: &mut Object, path: &Path, map: &KeyMap, cx: &mut Cx) -> Result<(), String> {
    let target = cx.target.id();
    let mut renamed: Vec<(String, String)> = Vec::new();
    if let Some(Value::Object(props)) = o.get_mut("properties") {
        rename_keys(props, map, &mut renamed);
        // A replacement is no name the original uses, so it cannot meet a
        // sibling; checked anyway, since a merge would silently lose one.
        if !renamed.is_empty() {
            let mut seen = HashSet::new();
            if let Some(dup) = props.keys().find(|k| !seen.insert(k.as_str())) {
                return Err(format!("mapping property names for {target} makes two properties named {dup:?}"));
            }
        }
    }
    for (old, new) in &renamed {
        cx.change(
            K::DialectRewritten,
            S::Low,
            &json::pointer_push(&path.child("properties"), old),
            Action::Mapped,
            format!("property name {old:?} is outside ^[a-zA-Z0-9_.-]{{1,64}}$ ({target} rejects it); mapped to {new:?}, and back by coerce_arguments"),
        );
    }
    if let Some(Value::Array(r)) = o.get_mut("required") {
        let mut done = Vec::new();
        for x in r.iter_mut() {
            if let Some(new) = x.as_str().and_then(|n| map.target_name(n)) {
                let new = new.to_string();
                let old = std::mem::replace(x, Value::str(&new));
                done.push(format!("{} → {new:?}", json::write_compact(&old)));
            }
        }
        if !done.is_empty() {
            cx.change(
                K::DialectRewritten,
                S::Info,
                &path.child("required"),
                Action::Mapped,
                format!("required names mapped: {}", done.join(", ")),
            );
        }
    }
    if let Some(Value::Object(d)) = o.get_mut("dependentRequired") {
        let mut n = 0;
        let mut keys = Vec::new();
        rename_keys(d, map, &mut keys);
        for (_, list) in d.entries_mut().iter_mut() {
            let Value::Array(list) = list else { continue };
            for x in list.iter_mut() {
                if let Some(new) = x.as_str().and_then(|s| map.target_name(s)) {
                    *x = Value::str(new);
                    n += 1;
                }
            }
        }
        if n + keys.len() > 0 {
            cx.change(
                K::DialectRewritten,
                S::Info,
                &path.child("dependentRequired"),
                Action::Mapped,
                format!("{} mapped property name(s) renamed here too", n + keys.len()),
            );
        }
    }
    if let Some(Value::Object(d)) = o.get_mut("dependentSchemas") {
        let mut keys = Vec::new();
        rename_keys(d, map, &mut keys);
        if !keys.is_empty() {
            cx.change(
                K::DialectRewritten,
                S::Info,
                &path.child("dependentSchemas"),
                Action::Mapped,
                format!("{} mapped property name(s) renamed here too", keys.len()),
            );
        }
    }
    if !renamed.is_empty() {
        patterns_beside(o, &renamed, path, cx);
        if let Some(pn) = o.get("propertyNames") {
            if let Some((_, new)) = renamed.iter().find(|(_, new)| !super::validate(pn, &Value::str(new)).is_empty()) {
                let new = new.clone();
                o.remove("propertyNames");
                lossy(cx, &path.child("propertyNames"), S::Low, format!("propertyNames rejects the mapped name {new:?}; removed"));
            }
        }
    }
    for (k, sev) in [("enum", S::Low), ("const", S::Low), ("default", S::Info), ("examples", S::Info)] {
        if o.get(k).is_some_and(|v| spells_mapped_key(v, map, 0)) {
            o.remove(k);
            lossy(cx, &path.child(k), sev, format!("{k} spells a mapped property name as an object key; removed"));
        }
    }
    Ok(())
}

fn rename_keys(o: &mut Object, map: &KeyMap, renamed: &mut Vec<(String, String)>) {
    for (k, _) in o.entries_mut().iter_mut() {
        if let Some(new) = map.target_name(k) {
            let old = std::mem::replace(k, new.into());
            renamed.push((old.into_string(), new.to_string()));
        }
    }
}

/// A pattern that matches a new name but not the old one would now apply
/// its schema to that property: removed (a pattern that matched the old
/// name only just stops applying, which only widens).
fn patterns_beside(o: &mut Object, renamed: &[(String, String)], path: &Path, cx: &mut Cx) {
    let Some(Value::Object(pp)) = o.get_mut("patternProperties") else { return };
    let mut gone = Vec::new();
    pp.retain(|pat, _| {
        let newly = renamed.iter().any(|(old, new)| super::coerce::pattern_matches(pat, new) && !super::coerce::pattern_matches(pat, old));
        if newly {
            gone.push(pat.to_string());
        }
        !newly
    });
    if pp.is_empty() {
        o.remove("patternProperties");
    }
    let pp = path.child("patternProperties");
    for pat in gone {
        lossy(cx, &json::pointer_push(&pp, &pat), S::Low, format!("pattern {pat:?} would also match a mapped property name; removed"));
    }
}

/// Whether an object key anywhere in `v` is an original name that is mapped.
fn spells_mapped_key(v: &Value, map: &KeyMap, depth: u32) -> bool {
    if depth > MAX_WALK_DEPTH {
        return false;
    }
    match v {
        Value::Object(o) => o.iter().any(|(k, x)| map.target_name(k).is_some() || spells_mapped_key(x, map, depth + 1)),
        Value::Array(a) => a.iter().any(|x| spells_mapped_key(x, map, depth + 1)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    fn pairs(s: &str) -> Vec<(String, String)> {
        property_key_map(&j(s), Dialect::Anthropic).unwrap()
    }

    fn p(a: &str, b: &str) -> (String, String) {
        (a.to_string(), b.to_string())
    }

    #[test]
    fn only_anthropic_and_portable_map_and_only_invalid_names() {
        let s = j(r#"{"type":"object","properties":{"$meta":{},"ok.name-1_":{}}}"#);
        for t in [Dialect::None, Dialect::Gemini, Dialect::OpenAiStrict] {
            assert!(property_key_map(&s, t).unwrap().is_empty());
        }
        for t in [Dialect::Anthropic, Dialect::Portable] {
            assert_eq!(property_key_map(&s, t).unwrap(), [p("$meta", "_meta")]);
        }
    }

    #[test]
    fn a_replacement_never_equals_a_name_used_anywhere_nor_another_replacement() {
        // `_a` is a property elsewhere, `_b` only a required name, `$a` and
        // `%a` share a base.
        let s = r#"{"type":"object","properties":{"$a":{},"%a":{},"x":{"properties":{"_a":{},"_a_2":{}}},"$b":{}},"required":["_b"]}"#;
        assert_eq!(pairs(s), [p("$a", "_a_3"), p("$b", "_b_2"), p("%a", "_a_4")]);
    }

    #[test]
    fn key_order_does_not_change_the_mapping() {
        let a = pairs(r##"{"properties":{"$x":{},"#x":{},"x y":{}}}"##);
        let b = pairs(r##"{"properties":{"x y":{},"#x":{},"$x":{}}}"##);
        assert_eq!(a, b);
        assert_eq!(a, [p("#x", "_x"), p("$x", "_x_2"), p("x y", "x_y")]);
    }

    #[test]
    fn empty_long_and_non_ascii_names_map_into_the_pattern() {
        let long = "a".repeat(70);
        let s = format!(r#"{{"properties":{{"":{{}},"{long}":{{}},"tööl":{{}},"{}":{{}}}}}}"#, "a".repeat(64));
        let got = pairs(&s);
        assert_eq!(got[0], p("", "_"));
        // 70 → cut to 64, which is taken by the valid 64-char sibling.
        assert_eq!(got[1], p(&long, &format!("{}_2", "a".repeat(62))));
        assert_eq!(got[2], p("tööl", "t__l"));
        assert!(got.iter().all(|(_, n)| key_ok(n, Dialect::Anthropic)));
    }

    #[test]
    fn names_in_defs_and_keyword_named_properties_count_and_values_do_not() {
        // `$ref` as a property name is a name; `$ref` as a keyword is not;
        // `{"$z":1}` inside a `default` is a value.
        let s = r##"{"properties":{"$ref":{"$ref":"#/$defs/d"}},"default":{"$z":1},"$defs":{"d":{"properties":{"$q":{}}}}}"##;
        assert_eq!(pairs(s), [p("$q", "_q"), p("$ref", "_ref")]);
    }

    #[test]
    fn a_schema_built_to_collide_is_bounded() {
        // 2000 names with one base probe linearly, thanks to the per-base counter.
        let props: Vec<String> = (0..2000).map(|i| format!(r#""{}a":{{}}"#, "$".repeat(1 + i % 40) + &"%".repeat(i / 40))).collect();
        let s = j(&format!(r#"{{"properties":{{{}}}}}"#, props.join(",")));
        let t = std::time::Instant::now();
        let m = KeyMap::of(&s, Dialect::Anthropic).unwrap();
        assert!(t.elapsed().as_millis() < 2000);
        let mut seen = HashSet::new();
        assert!(m.pairs().iter().all(|(_, n)| seen.insert(n.clone()) && key_ok(n, Dialect::Anthropic)));
    }
}
