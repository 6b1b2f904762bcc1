//! Keyword-aware view of JSON Schema, shared by every stage that walks
//! schemas. A key is a *keyword* only where the schema grammar puts one: the
//! keys of `properties` are property **names** (a property called `anyOf` or
//! `properties` is data, never recursed into as a keyword).

use crate::ctx::Path;
use crate::json::Value;

/// How a keyword's value relates to subschemas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    /// Object whose values are schemas, keyed by names (`properties`, `$defs`).
    SchemaMap,
    /// Object whose keys are patterns, values schemas (`patternProperties`).
    PatternMap,
    /// Array of schemas (`anyOf`, `oneOf`, `allOf`, `prefixItems`).
    SchemaList,
    /// One schema (`not`, `additionalProperties`, `if`, …).
    SchemaOne,
    /// One schema or (draft-07 tuples) an array of schemas.
    Items,
    /// Model-visible prose (`title`, `description`).
    Text,
    /// Instance values the server may receive back (`enum`, `const`, `default`, `examples`).
    Value,
    /// `type`.
    Type,
    /// `required`.
    Required,
    /// Non-negative integer (`minLength`, `maxItems`, …).
    Count,
    /// Number (`minimum`, `multipleOf`, …).
    Number,
    /// Boolean (`uniqueItems`, `deprecated`, …).
    Bool,
    /// String with no special meaning to the walk (`format`, `$schema`, `$id`).
    Str,
    /// `pattern`.
    Pattern,
    /// `$ref`.
    Ref,
    /// `dependentRequired`: object of string arrays.
    DependentRequired,
    /// OpenAPI 3.0 `nullable` (normalized into `type`).
    Nullable,
    /// OpenAPI 3.0 `example` (normalized into `examples`).
    Example,
}

/// The keyword allow-list (JSON Schema 2020-12 + draft-07 names still in use,
/// plus two OpenAPI 3.0 keywords that are normalized away). Anything else —
/// `x-*` extensions, `$comment`, `discriminator`, typos — is dropped by stage 4
/// because it is prose or data the model does not need and a hiding place.
pub fn keyword(k: &str) -> Option<Kw> {
    Some(match k {
        "properties" | "$defs" | "definitions" | "dependentSchemas" => Kw::SchemaMap,
        "patternProperties" => Kw::PatternMap,
        "anyOf" | "oneOf" | "allOf" | "prefixItems" => Kw::SchemaList,
        "not" | "if" | "then" | "else" | "additionalProperties" | "propertyNames" | "contains"
        | "additionalItems" | "unevaluatedProperties" | "unevaluatedItems" => Kw::SchemaOne,
        "items" => Kw::Items,
        "title" | "description" => Kw::Text,
        "enum" | "const" | "default" | "examples" => Kw::Value,
        "type" => Kw::Type,
        "required" => Kw::Required,
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties"
        | "minContains" | "maxContains" => Kw::Count,
        "minimum" | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" | "multipleOf" => Kw::Number,
        "uniqueItems" | "deprecated" | "readOnly" | "writeOnly" => Kw::Bool,
        "format" | "$schema" | "$id" | "$anchor" | "contentMediaType" | "contentEncoding" => Kw::Str,
        "pattern" => Kw::Pattern,
        "$ref" => Kw::Ref,
        "dependentRequired" => Kw::DependentRequired,
        "nullable" => Kw::Nullable,
        "example" => Kw::Example,
        _ => return None,
    })
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
        let Some(kw) = keyword(k) else { continue };
        let m = path.push(k);
        match (kw, v) {
            (Kw::SchemaMap | Kw::PatternMap, Value::Object(map)) => {
                for (name, sub) in map.iter_mut() {
                    let m2 = path.push(name);
                    walk_mut(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaList | Kw::Items, Value::Array(list)) => {
                for (i, sub) in list.iter_mut().enumerate() {
                    let m2 = path.push_index(i);
                    walk_mut(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaOne | Kw::Items, sub @ (Value::Object(_) | Value::Bool(_))) => {
                walk_mut(sub, path, depth + 1, f);
            }
            _ => {}
        }
        path.pop_to(m);
    }
}

/// Read-only twin of `walk_mut`.
pub fn walk(node: &Value, path: &mut Path, depth: u32, f: &mut dyn FnMut(&Value, &Path, u32) -> bool) {
    if !f(node, path, depth) {
        return;
    }
    let Value::Object(obj) = node else { return };
    for (k, v) in obj.iter() {
        let Some(kw) = keyword(k) else { continue };
        let m = path.push(k);
        match (kw, v) {
            (Kw::SchemaMap | Kw::PatternMap, Value::Object(map)) => {
                for (name, sub) in map.iter() {
                    let m2 = path.push(name);
                    walk(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaList | Kw::Items, Value::Array(list)) => {
                for (i, sub) in list.iter().enumerate() {
                    let m2 = path.push_index(i);
                    walk(sub, path, depth + 1, f);
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaOne | Kw::Items, sub @ (Value::Object(_) | Value::Bool(_))) => walk(sub, path, depth + 1, f),
            _ => {}
        }
        path.pop_to(m);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, ParseOptions};

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
