//! The object keys the engine looks for, known once: the JSON Schema keywords
//! (with how each one's value relates to subschemas, [`Kw`]) and the MCP tool
//! fields. The parser turns a key spelled like one of them into a static
//! [`crate::json::Key`] instead of allocating a copy (most keys of a catalog
//! are keywords: `type`, `description`, `properties`), and every schema walk
//! reads the key's kind from it instead of matching the string again.

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

/// One known key: its spelling and, for a JSON Schema keyword, its kind.
#[derive(Debug, PartialEq, Eq)]
pub struct Known {
    pub name: &'static str,
    pub kw: Option<Kw>,
}

macro_rules! known_keys {
    ($($name:literal => $kw:expr,)*) => {
        /// The known key spelled `k`, if there is one.
        pub fn known(k: &str) -> Option<&'static Known> {
            match k {
                $($name => {
                    static K: Known = Known { name: $name, kw: $kw };
                    Some(&K)
                })*
                _ => None,
            }
        }

        /// Every known key, in table order (for tests).
        #[cfg(test)]
        pub const ALL: &[&str] = &[$($name),*];
    };
}

// The keyword allow-list (JSON Schema 2020-12 + draft-07 names still in use,
// plus two OpenAPI 3.0 keywords that are normalized away; `crate::schema`
// says why the rest is dropped), then MCP keys that are no keyword.
known_keys! {
    "properties" => Some(Kw::SchemaMap),
    "$defs" => Some(Kw::SchemaMap),
    "definitions" => Some(Kw::SchemaMap),
    "dependentSchemas" => Some(Kw::SchemaMap),
    "patternProperties" => Some(Kw::PatternMap),
    "anyOf" => Some(Kw::SchemaList),
    "oneOf" => Some(Kw::SchemaList),
    "allOf" => Some(Kw::SchemaList),
    "prefixItems" => Some(Kw::SchemaList),
    "not" => Some(Kw::SchemaOne),
    "if" => Some(Kw::SchemaOne),
    "then" => Some(Kw::SchemaOne),
    "else" => Some(Kw::SchemaOne),
    "additionalProperties" => Some(Kw::SchemaOne),
    "propertyNames" => Some(Kw::SchemaOne),
    "contains" => Some(Kw::SchemaOne),
    "additionalItems" => Some(Kw::SchemaOne),
    "unevaluatedProperties" => Some(Kw::SchemaOne),
    "unevaluatedItems" => Some(Kw::SchemaOne),
    "items" => Some(Kw::Items),
    "title" => Some(Kw::Text),
    "description" => Some(Kw::Text),
    "enum" => Some(Kw::Value),
    "const" => Some(Kw::Value),
    "default" => Some(Kw::Value),
    "examples" => Some(Kw::Value),
    "type" => Some(Kw::Type),
    "required" => Some(Kw::Required),
    "minLength" => Some(Kw::Count),
    "maxLength" => Some(Kw::Count),
    "minItems" => Some(Kw::Count),
    "maxItems" => Some(Kw::Count),
    "minProperties" => Some(Kw::Count),
    "maxProperties" => Some(Kw::Count),
    "minContains" => Some(Kw::Count),
    "maxContains" => Some(Kw::Count),
    "minimum" => Some(Kw::Number),
    "maximum" => Some(Kw::Number),
    "exclusiveMinimum" => Some(Kw::Number),
    "exclusiveMaximum" => Some(Kw::Number),
    "multipleOf" => Some(Kw::Number),
    "uniqueItems" => Some(Kw::Bool),
    "deprecated" => Some(Kw::Bool),
    "readOnly" => Some(Kw::Bool),
    "writeOnly" => Some(Kw::Bool),
    "format" => Some(Kw::Str),
    "$schema" => Some(Kw::Str),
    "$id" => Some(Kw::Str),
    "$anchor" => Some(Kw::Str),
    "contentMediaType" => Some(Kw::Str),
    "contentEncoding" => Some(Kw::Str),
    "pattern" => Some(Kw::Pattern),
    "$ref" => Some(Kw::Ref),
    "dependentRequired" => Some(Kw::DependentRequired),
    "nullable" => Some(Kw::Nullable),
    "example" => Some(Kw::Example),
    "name" => None,
    "inputSchema" => None,
    "outputSchema" => None,
    "annotations" => None,
    "readOnlyHint" => None,
    "destructiveHint" => None,
    "idempotentHint" => None,
    "openWorldHint" => None,
    "_meta" => None,
    "icons" => None,
    "execution" => None,
    "taskSupport" => None,
    "tools" => None,
    "nextCursor" => None,
    "src" => None,
    "mimeType" => None,
    "sizes" => None,
    "theme" => None,
    "x-mcp-header" => None,
    "$comment" => None,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_key_is_found_under_its_own_spelling_only() {
        for k in ALL {
            assert_eq!(known(k).map(|x| x.name), Some(*k));
            assert_eq!(known(&k.to_uppercase()).map(|x| x.name), None, "{k}");
        }
        assert_eq!(known("x-foo"), None);
        // A walk pushes keywords onto pointers without escaping them.
        assert!(ALL.iter().all(|k| !k.contains(['~', '/'])));
        assert_eq!(known(""), None);
    }
}
