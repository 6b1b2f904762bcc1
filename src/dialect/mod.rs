//! Schema dialect normalizer: rewrites a tool's JSON Schema into
//! what one model provider accepts, reports every change, and maps the
//! model's arguments back to what the server's *original* schema expects.
//!
//! Targets (`crate::policy::Dialect`): `none` (untouched), `gemini`
//! (OpenAPI-3 subset), `openai-strict` (structured-outputs strict mode),
//! `anthropic` (draft 2020-12, root object) and `portable` (what all three
//! accept; OpenAI then in non-strict mode, see `targets`).
//!
//! Passes, in this order:
//! 1. `refs` — inline local `$ref`s under the recursion depth and the node
//!    budget, drop `$schema`/`$id`/`$comment`/`$defs`. Everything after works
//!    on a finite tree without references.
//! 2. `shape` drives, node by node, `combinators` (target-independent forms:
//!    `oneOf` → `anyOf`, `allOf` merged, type arrays split, `const` → `enum`)
//!    then `targets` (each provider's rules).
//! 3. `keys` — property names the target rejects (anthropic, portable)
//!    renamed by a reversible per-schema mapping, computed from the input.
//!    Last, so every earlier pass (and its pointers) sees the original names.
//! 4. `targets::finish` — root shape and strict-mode totals.
//!
//! The module is pure: no I/O, no globals, no panics; every refusal is an
//! `Err(String)` saying why the schema cannot be expressed (the caller hides
//! the tool, or drops an `outputSchema`).
//!
//! Changes carry a pointer relative to the schema root: the location in the
//! *input* where the construct was found, following `$ref`s as if inlined
//! (a change inside an inlined definition points at the use site, which is
//! what the model sees). `dialect-unsupported` flags are computed on the
//! final output and point into it.
//!
//! Idempotent: normalizing the output again returns it unchanged and reports
//! nothing but the same `flagged` conditions (they describe the schema, they
//! change nothing). Every rewrite is a no-op on its own output, and keys keep
//! their positions.
//!
//! ## Decisions where the issue is silent
//!
//! - **Recursion depth**: a `$ref` target already being inlined on the path
//!   is re-entered at most `max_ref_depth` times (0: inlined once, its first
//!   recursion cut). Non-recursive chains are never cut, except past
//!   `MAX_DEPTH` levels of output (a stack bound, reported as `ref-cut`).
//! - **Node budget**: every subschema built (inlined, or copied when keywords
//!   are distributed into alternatives) is charged as it is built, and the
//!   output is counted at the end.
//! - **Nullable forms**: Gemini/portable use `nullable: true` (on each
//!   alternative of an anyOf); openai-strict and anthropic use an `anyOf` with
//!   `{"type":"null"}` — never type arrays, in any target. OpenAPI `nullable`
//!   beside an `enum` admits null (as `validate` reads it).
//! - **Type arrays** of several types become one alternative per type, each
//!   with the keywords of its type; all five non-null types = no `type`.
//! - **allOf**: merged exactly when possible (types and enums intersected,
//!   bounds tightened, properties united with per-name `allOf`, one branch's
//!   `additionalProperties: false` removing the other's extra names); when two
//!   values cannot be combined (two `pattern`s) the first is kept and the
//!   loss reported; an unsatisfiable `allOf` becomes the `anyOf` of its
//!   branches (a superset). Anthropic keeps an unmergeable `allOf` below the
//!   root (valid 2020-12, nothing lost).
//! - **Keywords beside anyOf** move into every alternative (exact) for all
//!   targets but anthropic; alternatives they contradict are removed.
//! - **Object alternatives** are flattened into one object (properties the
//!   union, a name's variants an `anyOf`; required the intersection): at the
//!   root for every target (no provider takes a top-level `anyOf`), and
//!   everywhere for Gemini/portable. Lossy; the original is enforced on the
//!   way back. openai-strict keeps nested object alternatives (strict mode
//!   takes `anyOf` of closed objects).
//! - **Type inference** (not anthropic): `properties`/`items`/`maxLength`/
//!   `minimum` without `type` imply it; a typeless `enum` takes its values'
//!   type (openai-strict splits a mixed one into typed alternatives). A node
//!   without any type (`{}`, "any value") stays typeless: Gemini takes an
//!   unspecified type; strict mode cannot, so it is flagged.
//! - **Gemini enums**: number/boolean enums become string enums (`coerce`
//!   maps `"2"` back to `2`); `null` becomes `nullable`; object/array values
//!   or two values with the same text drop the enum (lossy). Formats:
//!   `enum`/`date-time` on strings, `int32`/`int64` on integers,
//!   `float`/`double` on numbers. Integer exclusive bounds move by one
//!   (exact), number ones become inclusive (lossy).
//! - **openai-strict**: every closable object gets `additionalProperties:
//!   false` and `required` = all its properties, the originally optional ones
//!   wrapped as `anyOf [schema, {"type":"null"}]` unless they already admit
//!   null. Open bags (no `properties`, `additionalProperties` true or a
//!   schema, `patternProperties` — replaced by `additionalProperties: true`),
//!   untyped values, arrays without `items` and the size limits (object
//!   nesting > 10, > 5000 properties, > 1000 enum values) are flagged and
//!   `strict_ok` is false; nothing is closed to force strictness.
//! - **Portable** cannot be strict (Gemini forbids `additionalProperties` and
//!   null types, which strict mode requires), so it is Gemini's rules with
//!   the keyword list narrowed to what strict mode also supports, `date-time`
//!   as the only format, and Anthropic's property-name rule.
//!   `strict_ok` is always false: declare portable tools non-strict.
//! - **Property names** outside Anthropic's `^[a-zA-Z0-9_.-]{1,64}$`
//!   (anthropic, portable) are renamed, never refused: `$vectorSearch` →
//!   `_vectorSearch`, with a suffix against any name the schema uses; one
//!   mapping per schema, recomputed from the original by `coerce_arguments`
//!   to map the arguments back (`keys` says why and how).
//! - **Subschemas the target drops anyway** (`not`, `if`, Gemini's
//!   `additionalProperties`, …) are removed before their contents are
//!   normalized, so nothing is reported about what disappears.
//! - **Unknown keywords** and known ones with values of the wrong type are
//!   removed (the `limits` stage already did it in the pipeline; standalone callers get
//!   the same), so the output is always structurally valid.
//!
//! | kind                  | severity | action     | when |
//! |-----------------------|----------|------------|------|
//! | `dialect-rewritten`   | info     | rewritten / removed | same accepted arguments, new form (`oneOf`→`anyOf`, inlined `$ref`, merged `allOf`, strict closing, string enums) |
//! | `dialect-rewritten`   | low (info for `required` and friends) | mapped | a property name the target rejects renamed; `coerce_arguments` renames it back |
//! | `dialect-lossy`       | low (info for annotations and `additionalProperties: false`) | removed / rewritten | a constraint the target cannot say was dropped or widened; the original is enforced by `coerce_arguments` |
//! | `ref-cut`             | low      | truncated  | a recursive `$ref` cut into `{}` |
//! | `dialect-unsupported` | low      | flagged    | openai-strict only: this schema cannot be strict (open bag, untyped value, limits); `strict_ok` is false |
//! | `schema-keyword-dropped` | info  | removed    | unknown keyword (the `limits` stage already does this in the pipeline) |
//! | `schema-invalid`      | low      | removed    | a known keyword with a value of the wrong type |

mod coerce;
mod combinators;
mod keys;
mod num;
mod refs;
mod shape;
mod targets;
mod validate;

pub use coerce::coerce_arguments;
pub use keys::property_key_map;
pub use validate::validate;

use crate::json::Path;
use crate::finding::{Action, FindingKind, Severity};
use crate::json::Value;
use crate::policy::Dialect;

/// How deep `$ref` inlining may nest the output (subschema levels); a ref
/// that would go deeper is cut like a recursive one. Keeps every recursive
/// pass within a small stack, also in a wasm component.
pub(crate) const MAX_DEPTH: u32 = 128;

/// One change `normalize` made (or, for `Flagged`, a condition it reports).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub kind: FindingKind,
    pub severity: Severity,
    /// RFC 6901, relative to the schema root (`""` = the root).
    pub pointer: String,
    pub action: Action,
    /// One human-readable sentence. Not API.
    pub detail: String,
}

/// The result of `normalize`.
#[derive(Clone, Debug, PartialEq)]
pub struct Normalized {
    pub schema: Value,
    pub changes: Vec<Change>,
    /// True only for `openai-strict` when every strict-mode requirement holds,
    /// so the tool may be declared `strict: true`. False if something could
    /// not be made strict (an open bag, an untyped value, a limit; each has a
    /// `dialect-unsupported` change): the caller keeps the tool non-strict.
    /// Always false for the other targets (their output is not strict-shaped;
    /// `portable` cannot be, since Gemini forbids `additionalProperties`).
    pub strict_ok: bool,
}

/// One reason the arguments do not fit the original schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// RFC 6901 pointer into the *arguments* (`""` = the arguments object).
    pub pointer: String,
    pub reason: String,
}

/// Per-call state shared by the passes.
pub(crate) struct Cx {
    pub target: Dialect,
    pub max_ref_depth: u32,
    budget: u64,
    used: u64,
    pub changes: Vec<Change>,
    pub strict_ok: bool,
}

impl Cx {
    pub(crate) fn change(&mut self, kind: FindingKind, severity: Severity, pointer: &str, action: Action, detail: String) {
        self.changes.push(Change { kind, severity, pointer: pointer.to_string(), action, detail });
    }

    /// Charges `n` output nodes to the budget.
    pub(crate) fn charge(&mut self, n: u64) -> Result<(), String> {
        self.used = self.used.saturating_add(n);
        if self.used > self.budget {
            return Err(format!("expanding the schema needs more than {} nodes (node budget)", self.budget));
        }
        Ok(())
    }
}

/// Rewrites `schema` into `target`'s dialect.
///
/// `max_ref_depth`: how many times a recursive `$ref` is re-entered before it
/// is cut into `{}` (0: inlined once, its first recursion cut).
/// `node_budget`: the most subschema nodes expansion may create (and the
/// output may hold); beyond it → `Err`.
///
/// `Err` means the schema cannot be expressed for the target (not a local
/// `$ref`, unresolvable `$ref`, over budget, root not an object schema).
/// Property names the target rejects are renamed (`property_key_map`);
/// give `coerce_arguments` this same `schema` to rename them back.
pub fn normalize(schema: &Value, target: Dialect, max_ref_depth: u32, node_budget: u32) -> Result<Normalized, String> {
    if target == Dialect::None {
        return Ok(Normalized { schema: schema.clone(), changes: Vec::new(), strict_ok: false });
    }
    match schema {
        Value::Object(_) | Value::Bool(true) => {}
        Value::Bool(false) => return Err("the schema `false` admits no arguments".into()),
        other => return Err(format!("a schema must be an object, not {}", other.type_name())),
    }
    // From the input, the one place `coerce_arguments` can recompute it from.
    let key_map = keys::KeyMap::of(schema, target)?;
    let mut cx = Cx { target, max_ref_depth, budget: node_budget as u64, used: 0, changes: Vec::new(), strict_ok: true };
    let mut path = Path::new("");
    let inlined = refs::Inliner::new(schema).node(schema, &mut path, 1, &mut cx)?;
    let inlined = match inlined {
        Value::Bool(true) => Value::Object(crate::json::Object::new()),
        v => v,
    };
    let mut out = shape::node(inlined, &mut path, 1, &mut cx, shape::Pos::Root)?;
    keys::apply(&mut out, &key_map, &mut cx)?;
    targets::finish(&out, &mut cx)?;
    let n = combinators::count_nodes(&out);
    if n > node_budget as u64 {
        return Err(format!("the normalized schema has {n} nodes, over the node budget of {node_budget}"));
    }
    let strict_ok = target == Dialect::OpenAiStrict && cx.strict_ok;
    Ok(Normalized { schema: out, changes: cx.changes, strict_ok })
}

/// Whether `name` is a valid tool name for `target` (`none`: any name).
///
/// - gemini: `^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$`
/// - openai-strict: `^[A-Za-z0-9_-]{1,64}$`
/// - anthropic: `^[a-zA-Z0-9_-]{1,64}$`
/// - portable: both, i.e. `^[A-Za-z_][A-Za-z0-9_-]{0,63}$`
pub fn tool_name_ok(name: &str, target: Dialect) -> bool {
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-';
    let gemini = |n: &str| {
        n.as_bytes().first().is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_')
            && name_ok(n, 1, 64, |b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
    };
    match target {
        Dialect::None => true,
        Dialect::Gemini => gemini(name),
        Dialect::OpenAiStrict | Dialect::Anthropic => name_ok(name, 1, 64, word),
        Dialect::Portable => gemini(name) && name_ok(name, 1, 64, word),
    }
}

/// `name` is `min..=max` bytes, all accepted by `ok` (the sets are ASCII).
pub(crate) fn name_ok(name: &str, min: usize, max: usize, ok: impl Fn(u8) -> bool) -> bool {
    (min..=max).contains(&name.len()) && name.bytes().all(ok)
}

/// Maps a name the target rejects to one it accepts: disallowed characters
/// become `_`, a leading character Gemini rejects gets a `_` prefix, and the
/// result is cut to 64. (Collisions are resolved by the name stage.)
pub fn fix_name(name: &str, target: Dialect) -> String {
    let keep = |c: char| match target {
        Dialect::Gemini => c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'),
        _ => c.is_ascii_alphanumeric() || matches!(c, '_' | '-'),
    };
    let mut out: String = name.chars().map(|c| if keep(c) { c } else { '_' }).collect();
    if matches!(target, Dialect::Gemini | Dialect::Portable) && !out.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        out.insert(0, '_');
    }
    if out.is_empty() {
        out.push_str("tool");
    }
    out.truncate(64);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, write_compact, ParseOptions};

    fn j(s: &str) -> Value {
        parse(s, ParseOptions::default()).unwrap().value
    }

    #[test]
    fn target_none_is_the_identity() {
        let s = j(r##"{"oneOf":[{"$ref":"#/x"}],"x-vendor":1}"##);
        let n = normalize(&s, Dialect::None, 0, 0).unwrap();
        assert_eq!(n.schema, s);
        assert!(n.changes.is_empty() && !n.strict_ok);
    }

    #[test]
    fn unknown_keywords_and_schema_metadata_are_reported_removals() {
        let n = normalize(&j(r#"{"$schema":"x","$id":"y","$comment":"z","type":"object","x-a":1}"#), Dialect::Anthropic, 8, 100).unwrap();
        assert_eq!(write_compact(&n.schema), r#"{"type":"object"}"#);
        assert_eq!(n.changes.len(), 4, "{:?}", n.changes);
        assert!(n.changes.iter().all(|c| matches!(c.action, Action::Removed) && c.severity == Severity::Info));
    }

    #[test]
    fn strict_ok_only_for_openai_strict() {
        let s = j(r#"{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}"#);
        assert!(normalize(&s, Dialect::OpenAiStrict, 8, 100).unwrap().strict_ok);
        for t in [Dialect::Gemini, Dialect::Anthropic, Dialect::Portable] {
            assert!(!normalize(&s, t, 8, 100).unwrap().strict_ok);
        }
    }

    #[test]
    fn tool_name_edges() {
        assert!(tool_name_ok(&"a".repeat(64), Dialect::Gemini));
        assert!(!tool_name_ok(&"a".repeat(65), Dialect::Gemini));
        assert!(tool_name_ok("a.b:c-d", Dialect::Gemini));
        assert!(!tool_name_ok("a.b", Dialect::Portable));
        assert!(!tool_name_ok("9a", Dialect::Portable));
        assert!(tool_name_ok("9a", Dialect::Anthropic));
    }

    #[test]
    fn fixed_names_pass_the_dialect_rule() {
        for t in [Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable] {
            for n in ["tool.sub", "9lives", "a:b", &"x".repeat(100), "ok_name-1"] {
                let f = fix_name(n, t);
                assert!(tool_name_ok(&f, t), "{n} -> {f} for {}", t.id());
            }
        }
    }
}
