//! Pass 1: inline local `$ref`s and clean the keyword set.
//!
//! - `$ref` to any local JSON pointer (`#/$defs/A`, `#/definitions/A/x`,
//!   `#/properties/p`, `#`) or `$anchor` (`#name`) is replaced by a copy of its
//!   target, itself inlined; sibling keywords are merged over it (an
//!   annotation beside `$ref` — the use-site `description` — wins over the
//!   target's; a conflicting assertion makes an `allOf` that pass 2 merges).
//! - Recursion: a target already being inlined on the current path is
//!   re-entered at most `max_ref_depth` times; the next occurrence is cut into
//!   the open schema `{}` (keeping the use-site description) with a `ref-cut`
//!   change. A ref that would nest the output deeper than `MAX_DEPTH` levels is
//!   cut the same way, so every later recursive pass has a bounded stack.
//! - Every emitted subschema is charged to the node budget *as it is built*,
//!   so an expansion bomb (refs that double per level) stops after `budget`
//!   nodes, not after 2^30.
//! - `$defs`/`definitions` go (their users were inlined), and so do `$schema`,
//!   `$id`, `$comment`, `$anchor` (resolution is always against this one
//!   document: no `$id` base changes), unknown keywords (`limits` already
//!   dropped them in the pipeline; standalone callers get the same), and known
//!   keywords whose value has the wrong JSON type.
//! - A ref that is not local, or does not resolve to a schema, is an `Err`:
//!   the schema means something we cannot see.

use super::{Cx, MAX_DEPTH};
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{self, Object, Value};
use crate::schema::{self, Kw, TYPE_NAMES};

/// Resolves a local `$ref` against `root`: `#`, `#/json/pointer` (percent-
/// and `~`-escaped) or `#anchor`.
pub(crate) fn resolve_ref<'a>(root: &'a Value, r: &str) -> Option<&'a Value> {
    let frag = r.strip_prefix('#')?;
    if frag.is_empty() {
        return Some(root);
    }
    if frag.starts_with('/') {
        return json::pointer_get(root, &crate::json::percent_decode(frag));
    }
    let mut found: Option<String> = None;
    schema::walk(root, &mut Path::new(""), 1, &mut |n, p, _| {
        if found.is_none() {
            if let Some(Value::String(a)) = n.as_object().and_then(|o| o.get("$anchor")) {
                if a == frag {
                    found = Some(p.as_str().to_string());
                }
            }
        }
        found.is_none()
    });
    found.and_then(|p| json::pointer_get(root, &p))
}


/// Annotation keywords: beside a `$ref` the use site's value wins.
pub(super) fn is_annotation(k: &str) -> bool {
    matches!(
        k,
        "title"
            | "description"
            | "default"
            | "examples"
            | "example"
            | "deprecated"
            | "readOnly"
            | "writeOnly"
            | "contentMediaType"
            | "contentEncoding"
    )
}

pub(super) struct Inliner<'a> {
    root: &'a Value,
    /// Targets being inlined on the current path (by address: two spellings
    /// of one pointer are one target).
    stack: Vec<usize>,
}

impl<'a> Inliner<'a> {
    pub(super) fn new(root: &'a Value) -> Inliner<'a> {
        Inliner { root, stack: Vec::new() }
    }

    /// Inlines `node` (found at `path`, `depth` subschema levels below the root).
    pub(super) fn node(&mut self, node: &Value, path: &mut Path, depth: u32, cx: &mut Cx) -> Result<Value, String> {
        cx.charge(1)?;
        let o = match node {
            Value::Bool(b) => return Ok(Value::Bool(*b)),
            Value::Object(o) => o,
            other => return Err(format!("{} is not a schema ({})", at(path), other.type_name())),
        };
        if let Some(r) = o.get("$ref") {
            if let Value::String(r) = r {
                return self.reference(o, r, path, depth, cx);
            }
            cx.change(K::SchemaInvalid, S::Low, &path.child("$ref"), Action::Removed, "$ref must be a string; removed".into());
        }
        self.keywords(o, path, depth, cx)
    }

    fn reference(&mut self, o: &Object, r: &str, path: &mut Path, depth: u32, cx: &mut Cx) -> Result<Value, String> {
        let target = match resolve_ref(self.root, r) {
            Some(t @ (Value::Object(_) | Value::Bool(_))) => t,
            Some(_) => return Err(format!("$ref {r:?} at {} points at something that is not a schema", at(path))),
            None if r.starts_with('#') => return Err(format!("$ref {r:?} at {} does not resolve inside this schema", at(path))),
            None => return Err(format!("$ref {r:?} at {} points outside this schema", at(path))),
        };
        let id = target as *const Value as usize;
        let seen = self.stack.iter().filter(|x| **x == id).count() as u32;
        let siblings: Object = o.iter().filter(|(k, _)| k.as_str() != "$ref").map(|(k, v)| (k.clone(), v.clone())).collect();
        if seen > cx.max_ref_depth || depth > MAX_DEPTH {
            let why = if seen > cx.max_ref_depth {
                format!("recursive $ref {r:?} cut into an open schema after {} nested inlinings", cx.max_ref_depth + 1)
            } else {
                format!("$ref {r:?} cut into an open schema: inlining would nest deeper than {MAX_DEPTH} levels")
            };
            cx.change(K::RefCut, S::Low, path.as_str(), Action::Truncated, why);
            let mut cut = Object::new();
            for k in ["title", "description"] {
                if let Some(Value::String(s)) = siblings.get(k) {
                    cut.insert(k, Value::String(s.clone()));
                }
            }
            return Ok(Value::Object(cut));
        }
        cx.change(K::DialectRewritten, S::Info, &path.child("$ref"), Action::Rewritten, format!("$ref {r:?} inlined"));
        self.stack.push(id);
        let inlined = self.node(target, path, depth, cx);
        self.stack.pop();
        let inlined = inlined?;
        // Siblings are inlined at the use site (their own refs resolve too).
        let sib = match self.keywords(&siblings, path, depth, cx)? {
            Value::Object(s) => s,
            _ => Object::new(),
        };
        if sib.is_empty() {
            return Ok(inlined);
        }
        Ok(overlay(inlined, sib))
    }

    /// Copies one schema object keyword by keyword, recursing into subschemas.
    fn keywords(&mut self, o: &Object, path: &mut Path, depth: u32, cx: &mut Cx) -> Result<Value, String> {
        let mut out = Object::with_capacity(o.len());
        for (k, v) in o.iter() {
            let Some(kw) = k.kw() else {
                cx.change(K::SchemaKeywordDropped, S::Info, &path.child(k), Action::Removed, format!("unknown keyword {k:?} removed"));
                continue;
            };
            match k.as_str() {
                "$schema" | "$id" | "$anchor" => {
                    cx.change(
                        K::DialectRewritten,
                        S::Info,
                        &path.child(k),
                        Action::Removed,
                        format!("{k} removed (refs resolve inside this document)"),
                    );
                    continue;
                }
                "$defs" | "definitions" => {
                    cx.change(
                        K::DialectRewritten,
                        S::Info,
                        &path.child(k),
                        Action::Removed,
                        format!("{k} removed (every $ref was inlined)"),
                    );
                    continue;
                }
                "$ref" => continue, // handled by `node`; a non-string one was reported
                _ => {}
            }
            if let Some(why) = bad_value(kw, k, v) {
                cx.change(K::SchemaInvalid, S::Low, &path.child(k), Action::Removed, format!("{k} removed: {why}"));
                continue;
            }
            if !matches!(kw, Kw::SchemaMap | Kw::PatternMap | Kw::SchemaList | Kw::SchemaOne | Kw::Items) {
                // Keys of `o` are unique: no lookup needed.
                out.push_unchecked(k.clone(), v.clone());
                continue;
            }
            let m = path.push(k);
            let nv = match (kw, v) {
                (Kw::SchemaMap | Kw::PatternMap, Value::Object(map)) => {
                    let mut nm = Object::with_capacity(map.len());
                    for (name, sub) in map.iter() {
                        let m2 = path.push(name);
                        if matches!(sub, Value::Object(_) | Value::Bool(_)) {
                            nm.push_unchecked(name.clone(), self.node(sub, path, depth + 1, cx)?);
                        } else {
                            not_a_schema(cx, path, sub);
                        }
                        path.pop_to(m2);
                    }
                    Value::Object(nm)
                }
                (Kw::SchemaList | Kw::Items, Value::Array(list)) => {
                    let mut nl = Vec::with_capacity(list.len());
                    for (i, sub) in list.iter().enumerate() {
                        let m2 = path.push_index(i);
                        if matches!(sub, Value::Object(_) | Value::Bool(_)) {
                            nl.push(self.node(sub, path, depth + 1, cx)?);
                        } else {
                            not_a_schema(cx, path, sub);
                        }
                        path.pop_to(m2);
                    }
                    Value::Array(nl)
                }
                (Kw::SchemaOne | Kw::Items, sub) => self.node(sub, path, depth + 1, cx)?,
                (_, v) => v.clone(),
            };
            path.pop_to(m);
            out.push_unchecked(k.clone(), nv);
        }
        Ok(Value::Object(out))
    }
}

/// Merges the (inlined) siblings of a `$ref` over its (inlined) target.
fn overlay(target: Value, sib: Object) -> Value {
    match target {
        Value::Bool(true) => Value::Object(sib),
        Value::Bool(false) => Value::Bool(false),
        Value::Object(mut t) => {
            let conflict = sib.iter().any(|(k, v)| !is_annotation(k) && t.get(k).is_some_and(|tv| !tv.schema_eq(v)));
            if conflict {
                let mut all = Object::new();
                all.insert("allOf", Value::Array(vec![Value::Object(t), Value::Object(sib)]));
                return Value::Object(all);
            }
            for (k, v) in sib.into_entries() {
                t.insert(k, v);
            }
            Value::Object(t)
        }
        other => other,
    }
}

/// Why a known keyword's value has the wrong shape (`None` if it is fine).
fn bad_value(kw: Kw, k: &str, v: &Value) -> Option<String> {
    let ok = match kw {
        Kw::SchemaMap | Kw::PatternMap => matches!(v, Value::Object(_)),
        Kw::SchemaList => matches!(v, Value::Array(_)),
        Kw::SchemaOne => matches!(v, Value::Object(_) | Value::Bool(_)),
        Kw::Items => matches!(v, Value::Object(_) | Value::Bool(_) | Value::Array(_)),
        Kw::Text | Kw::Str | Kw::Pattern | Kw::Ref => matches!(v, Value::String(_)),
        Kw::Value => k != "enum" && k != "examples" || matches!(v, Value::Array(_)),
        Kw::Type => match v {
            Value::String(t) => TYPE_NAMES.contains(&t.as_str()),
            Value::Array(ts) => !ts.is_empty() && ts.iter().all(|t| t.as_str().is_some_and(|t| TYPE_NAMES.contains(&t))),
            _ => false,
        },
        Kw::Required => matches!(v, Value::Array(a) if a.iter().all(|x| x.as_str().is_some())),
        Kw::Count => matches!(v, Value::Number(n) if n.is_integer() && !n.as_str().starts_with('-') && n.as_f64().is_finite()),
        Kw::Number => match v {
            Value::Number(n) => n.as_f64().is_finite() && (k != "multipleOf" || n.as_f64() > 0.0),
            Value::Bool(_) => k.starts_with("exclusive"),
            _ => false,
        },
        Kw::Bool | Kw::Nullable => matches!(v, Value::Bool(_)),
        Kw::DependentRequired => {
            matches!(v, Value::Object(m) if m.iter().all(|(_, l)| matches!(l, Value::Array(a) if a.iter().all(|s| s.as_str().is_some()))))
        }
        Kw::Example => true,
    };
    if ok {
        None
    } else {
        Some(format!("a {} is not a valid value", v.type_name()))
    }
}

fn at(path: &Path) -> String {
    if path.as_str().is_empty() {
        "the root".to_string()
    } else {
        path.as_str().to_string()
    }
}

/// A child of a schema-valued keyword that is not a schema is dropped (the
/// structural stage has already hidden such tools in the pipeline; this
/// covers direct callers of `normalize`).
fn not_a_schema(cx: &mut Cx, path: &Path, sub: &Value) {
    cx.change(K::SchemaInvalid, S::Low, path.as_str(), Action::Removed, format!("not a schema ({}); removed", sub.type_name()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, write_compact, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    #[test]
    fn refs_resolve_by_pointer_escapes_and_anchor() {
        let root = j(
            r#"{"$defs":{"a/b":{"type":"string"},"c~d":{"type":"integer"},"p q":{"type":"boolean"},"x":{"$anchor":"here","type":"null"}}}"#,
        );
        assert_eq!(resolve_ref(&root, "#/$defs/a~1b").map(write_compact).as_deref(), Some(r#"{"type":"string"}"#));
        assert_eq!(resolve_ref(&root, "#/$defs/c~0d").map(write_compact).as_deref(), Some(r#"{"type":"integer"}"#));
        assert_eq!(resolve_ref(&root, "#/%24defs/p%20q").map(write_compact).as_deref(), Some(r#"{"type":"boolean"}"#));
        assert_eq!(resolve_ref(&root, "#here").map(write_compact).as_deref(), Some(r#"{"$anchor":"here","type":"null"}"#));
        assert!(resolve_ref(&root, "#").is_some());
        assert!(resolve_ref(&root, "other.json#/x").is_none());
        assert!(resolve_ref(&root, "#/$defs/missing").is_none());
    }

    #[test]
    fn a_use_site_annotation_wins_and_a_conflicting_assertion_makes_all_of() {
        let t = |s: &str| j(s);
        let sib = |s: &str| j(s).as_object().unwrap().clone();
        assert_eq!(
            write_compact(&overlay(t(r#"{"type":"string","description":"def"}"#), sib(r#"{"description":"use"}"#))),
            r#"{"type":"string","description":"use"}"#
        );
        assert_eq!(
            write_compact(&overlay(t(r#"{"type":"string","maxLength":9}"#), sib(r#"{"maxLength":3}"#))),
            r#"{"allOf":[{"type":"string","maxLength":9},{"maxLength":3}]}"#
        );
        assert_eq!(write_compact(&overlay(t("true"), sib(r#"{"minimum":1}"#))), r#"{"minimum":1}"#);
    }
}
