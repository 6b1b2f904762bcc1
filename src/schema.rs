//! Keyword-aware view of JSON Schema, shared by every stage that walks
//! schemas. A key is a *keyword* only where the schema grammar puts one: the
//! keys of `properties` are property **names** (a property called `anyOf` or
//! `properties` is data, never recursed into as a keyword).

use crate::json::Path;
use crate::json::Value;

pub use crate::keyword::Kw;

/// The keyword allow-list (JSON Schema 2020-12 + draft-07 names still in use,
/// plus two OpenAPI 3.0 keywords that are normalized away). Anything else —
/// `x-*` extensions, `$comment`, `discriminator`, typos — is dropped by the `limits` stage
/// because it is prose or data the model does not need and a hiding place.
pub fn keyword(k: &str) -> Option<Kw> {
    crate::keyword::known(k).and_then(|x| x.kw)
}

/// The seven JSON Schema type names.
pub const TYPE_NAMES: &[&str] = &["null", "boolean", "object", "array", "number", "string", "integer"];

/// Visits `node` and every subschema below it, depth-first, parent before
/// children. `f(node, path, depth)` returns whether to descend into the
/// node's children (after `f` ran, so `f` may rewrite or drop keywords).
/// Depth: the schema root is 1. Recursion is bounded by the parser's JSON
/// nesting bound.
pub fn walk_mut(node: &mut Value, path: &mut Path, depth: u32, f: &mut dyn FnMut(&mut Value, &mut Path, u32) -> bool) {
    if !f(node, path, depth) {
        return;
    }
    let Value::Object(obj) = node else { return };
    for (k, v) in obj.iter_mut() {
        // The path gets the keyword only below a subschema keyword: most
        // keys (`type`, `description`, …) hold none.
        match (k.kw(), v) {
            (Some(Kw::SchemaMap | Kw::PatternMap), Value::Object(map)) => {
                let m = path.push_plain(k);
                for (name, sub) in map.iter_mut() {
                    let m2 = path.push(name);
                    walk_mut(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
                path.pop_to(m);
            }
            (Some(Kw::SchemaList | Kw::Items), Value::Array(list)) => {
                let m = path.push_plain(k);
                for (i, sub) in list.iter_mut().enumerate() {
                    let m2 = path.push_index(i);
                    walk_mut(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
                path.pop_to(m);
            }
            (Some(Kw::SchemaOne | Kw::Items), sub @ (Value::Object(_) | Value::Bool(_))) => {
                let m = path.push_plain(k);
                walk_mut(sub, path, depth + 1, f);
                path.pop_to(m);
            }
            _ => {}
        }
    }
}

/// Read-only twin of `walk_mut`.
pub fn walk(node: &Value, path: &mut Path, depth: u32, f: &mut dyn FnMut(&Value, &Path, u32) -> bool) {
    if !f(node, path, depth) {
        return;
    }
    let Value::Object(obj) = node else { return };
    for (k, v) in obj.iter() {
        match (k.kw(), v) {
            (Some(Kw::SchemaMap | Kw::PatternMap), Value::Object(map)) => {
                let m = path.push_plain(k);
                for (name, sub) in map.iter() {
                    let m2 = path.push(name);
                    walk(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
                path.pop_to(m);
            }
            (Some(Kw::SchemaList | Kw::Items), Value::Array(list)) => {
                let m = path.push_plain(k);
                for (i, sub) in list.iter().enumerate() {
                    let m2 = path.push_index(i);
                    walk(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
                path.pop_to(m);
            }
            (Some(Kw::SchemaOne | Kw::Items), sub @ (Value::Object(_) | Value::Bool(_))) => {
                let m = path.push_plain(k);
                walk(sub, path, depth + 1, f);
                path.pop_to(m);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, ParseOptions};

    #[test]
    fn every_keyword_has_a_static_name() {
        // A walk holds keyword names as `'static` strings (`Key::keyword`)
        // instead of cloning keys.
        let named = |k: &str| crate::json::Key::new(k).keyword().map(|x| x.0);
        for k in ["properties", "$ref", "example", "nullable", "contentEncoding", "unevaluatedItems"] {
            assert_eq!(named(k), Some(k));
        }
        assert_eq!(named("x-foo"), None);
        assert_eq!(named("$comment"), None);
    }

    #[test]
    fn a_property_named_like_a_keyword_is_a_name_not_a_keyword() {
        let v = parse(
            r#"{"type":"object","properties":{"anyOf":{"type":"string"},"properties":{"type":"object","properties":{"$ref":{"type":"number"}}}}}"#,
            ParseOptions::default(),
        )
        .unwrap()
        .value;
        let mut seen = Vec::new();
        walk(&v, &mut Path::new(""), 1, &mut |_, p, d| {
            seen.push((p.as_str().to_string(), d));
            true
        });
        assert_eq!(
            seen,
            [
                ("".to_string(), 1),
                ("/properties/anyOf".to_string(), 2),
                ("/properties/properties".to_string(), 2),
                ("/properties/properties/properties/$ref".to_string(), 3),
            ]
        );
    }
}
