//! What changed inside one drifted tool, as JSON pointers into the tool, so a
//! drift report says *where* (pinning treats every change as drift; the
//! operator still needs to see whether it is a new `<IMPORTANT>` paragraph or
//! a reordered list).
//!
//! A change is `reordered` only for an array whose order carries no meaning
//! (`required`, `type`, `enum`, `examples`, `anyOf`/`oneOf`/`allOf`, the
//! lists of `dependentRequired`) that came back as a permutation of the same
//! items. A drift made only of reorderings is marked benign in the report
//! (the pinning mode still decides what happens). Text is never "only
//! reordered": the same words in another order can say the opposite ("do
//! not delete, only list" → "only delete, do not list"), so a changed string
//! is always `modified` — and so is a reordered array where order matters
//! (`prefixItems`, tuple `items`, a `default` or `const` list).

use crate::json::{self, Value};
use crate::schema::{self, Kw};

/// How one location differs between the pinned and the current definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChangeKind {
    Added,
    Removed,
    Modified,
    Reordered,
}

impl ChangeKind {
    pub fn id(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Modified => "modified",
            ChangeKind::Reordered => "reordered",
        }
    }
}

/// One difference: `pointer` is RFC 6901 into the tool object (`/description`,
/// `/inputSchema/properties/q`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub pointer: String,
    pub kind: ChangeKind,
}

/// At most this many changes are listed per tool (a rewritten schema could
/// otherwise produce thousands); `truncated` says more were found.
pub const MAX_CHANGES: usize = 32;

pub(crate) struct Diff {
    pub changes: Vec<Change>,
    pub truncated: bool,
}

/// Diffs two pinned tool definitions (`old`, `new`: tool objects).
pub(crate) fn diff(old: &Value, new: &Value, base: &str) -> Diff {
    let mut d = Diff { changes: Vec::new(), truncated: false };
    walk(old, new, base, At::Tool, &mut d);
    d
}

/// What a location holds, as far as ordering goes: only `Set` arrays and
/// `Schemas { set: true }` arrays may be reported as reordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    /// The tool object.
    Tool,
    /// A schema (object or boolean).
    Schema,
    /// An object whose values are schemas (`properties`, `$defs`, …).
    SchemaMap,
    /// An array of schemas; `set`: its order carries no meaning.
    Schemas { set: bool },
    /// `dependentRequired`: an object of name lists.
    DependentRequired,
    /// An array whose order carries no meaning; its items are data.
    Set,
    /// Anything else: text, values, `default`, annotations.
    Data,
}

/// What the member `k` (whose current value is `v`) of an object at `at` holds.
fn member(at: At, k: &str, v: &Value) -> At {
    match at {
        At::Tool if k == "inputSchema" || k == "outputSchema" => At::Schema,
        At::Schema => match schema::keyword(k) {
            Some(Kw::SchemaMap | Kw::PatternMap) => At::SchemaMap,
            Some(Kw::SchemaList) => At::Schemas { set: k != "prefixItems" },
            Some(Kw::SchemaOne) => At::Schema,
            // One schema, or (draft-07) a tuple of them: positions matter.
            Some(Kw::Items) if matches!(v, Value::Array(_)) => At::Schemas { set: false },
            Some(Kw::Items) => At::Schema,
            Some(Kw::Required | Kw::Type) => At::Set,
            Some(Kw::Value) if k == "enum" || k == "examples" => At::Set,
            Some(Kw::DependentRequired) => At::DependentRequired,
            _ => At::Data,
        },
        At::SchemaMap => At::Schema,
        At::DependentRequired => At::Set,
        _ => At::Data,
    }
}

fn push(d: &mut Diff, pointer: String, kind: ChangeKind) {
    if d.changes.len() < MAX_CHANGES {
        d.changes.push(Change { pointer, kind });
    } else {
        d.truncated = true;
    }
}

fn walk(old: &Value, new: &Value, ptr: &str, at: At, d: &mut Diff) {
    if d.truncated {
        return;
    }
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a.iter() {
                let p = json::pointer_push(ptr, k);
                match b.get(k) {
                    Some(vb) => walk(va, vb, &p, member(at, k, vb), d),
                    None => push(d, p, ChangeKind::Removed),
                }
            }
            for (k, _) in b.iter().filter(|(k, _)| !a.contains_key(k)) {
                push(d, json::pointer_push(ptr, k), ChangeKind::Added);
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            if a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.schema_eq(y)) {
                return;
            }
            let set = matches!(at, At::Set | At::Schemas { set: true });
            if set && a.len() == b.len() && same_multiset(a, b) {
                return push(d, ptr.to_string(), ChangeKind::Reordered);
            }
            let item = if matches!(at, At::Schemas { .. }) { At::Schema } else { At::Data };
            for i in 0..a.len().max(b.len()) {
                let p = format!("{ptr}/{i}");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => walk(x, y, &p, item, d),
                    (Some(_), None) => push(d, p, ChangeKind::Removed),
                    (None, Some(_)) => push(d, p, ChangeKind::Added),
                    (None, None) => {}
                }
            }
        }
        (a, b) => {
            // Strings included: text is modified, never "reordered".
            if !a.schema_eq(b) {
                push(d, ptr.to_string(), ChangeKind::Modified);
            }
        }
    }
}

fn same_multiset(a: &[Value], b: &[Value]) -> bool {
    let keys = |v: &[Value]| {
        let mut k: Vec<String> = v
            .iter()
            .map(|x| {
                let mut s = String::new();
                x.canonical_key(&mut s);
                s
            })
            .collect();
        k.sort_unstable();
        k
    };
    keys(a) == keys(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Value {
        json::parse(s, json::ParseOptions::default()).unwrap().value
    }

    #[test]
    fn pointers_name_each_difference() {
        let d = diff(
            &v(r#"{"description":"a","inputSchema":{"properties":{"x":{"type":"string"}},"required":["x"]}}"#),
            &v(r#"{"description":"b","inputSchema":{"properties":{"x":{"type":"string"},"notes":{}},"required":["x","notes"]}}"#),
            "",
        );
        let got: Vec<(&str, &str)> = d.changes.iter().map(|c| (c.pointer.as_str(), c.kind.id())).collect();
        assert_eq!(
            got,
            [("/description", "modified"), ("/inputSchema/properties/notes", "added"), ("/inputSchema/required/1", "added")]
        );
    }

    #[test]
    fn set_like_arrays_are_reorderings() {
        let d = diff(
            &v(r#"{"inputSchema":{"type":["string","null"],"required":["x","y"],"properties":{"m":{"enum":["a","b"],"anyOf":[{"type":"string"},{"type":"integer"}]}},"dependentRequired":{"x":["y","z"]}}}"#),
            &v(r#"{"inputSchema":{"type":["null","string"],"required":["y","x"],"properties":{"m":{"enum":["b","a"],"anyOf":[{"type":"integer"},{"type":"string"}]}},"dependentRequired":{"x":["z","y"]}}}"#),
            "",
        );
        let got: Vec<(&str, &str)> = d.changes.iter().map(|c| (c.pointer.as_str(), c.kind.id())).collect();
        assert_eq!(
            got,
            [
                ("/inputSchema/type", "reordered"),
                ("/inputSchema/required", "reordered"),
                ("/inputSchema/properties/m/enum", "reordered"),
                ("/inputSchema/properties/m/anyOf", "reordered"),
                ("/inputSchema/dependentRequired/x", "reordered"),
            ]
        );
    }

    /// The same words in another order say something else: a description,
    /// a title or a default string that was reworded is modified, never
    /// "only reordered" (which would mark the drift benign).
    #[test]
    fn reworded_text_is_never_only_reordered() {
        let cases = [
            ("/description", "Lists files. Do not delete files, only list them.", "Lists files. Do delete files, not only list them."),
            ("/title", "read only, never write", "write only, never read"),
            ("/inputSchema/properties/f/default", "summary,status,assignee", "assignee,summary,status"),
            ("/inputSchema/properties/f/description", "a b c", "c b a"),
        ];
        for (ptr, a, b) in cases {
            let tool = |text: &str| {
                let mut t = v(r#"{"title":"t","description":"d","inputSchema":{"type":"object","properties":{"f":{"type":"string","description":"x","default":"y"}}}}"#);
                let slot = ptr.strip_prefix('/').unwrap().split('/').fold(&mut t, |node, k| match node {
                    Value::Object(o) => o.get_mut(k).unwrap(),
                    _ => unreachable!(),
                });
                *slot = Value::str(text);
                t
            };
            let d = diff(&tool(a), &tool(b), "");
            let got: Vec<(&str, ChangeKind)> = d.changes.iter().map(|c| (c.pointer.as_str(), c.kind)).collect();
            assert_eq!(got, [(ptr, ChangeKind::Modified)], "{a:?} → {b:?}");
        }
    }

    /// Order carries meaning in tuples and values: a swapped `prefixItems`,
    /// tuple `items`, `default` list or `const` list is modified.
    #[test]
    fn ordered_arrays_are_modified_not_reordered() {
        let d = diff(
            &v(r#"{"inputSchema":{"prefixItems":[{"type":"string"},{"type":"integer"}],"items":[{"type":"string"},{"type":"integer"}],"default":["ls","rm"],"const":[1,2]}}"#),
            &v(r#"{"inputSchema":{"prefixItems":[{"type":"integer"},{"type":"string"}],"items":[{"type":"integer"},{"type":"string"}],"default":["rm","ls"],"const":[2,1]}}"#),
            "",
        );
        assert!(!d.changes.is_empty());
        assert!(d.changes.iter().all(|c| c.kind == ChangeKind::Modified), "{:?}", d.changes);
        // Outside a schema (annotations, _meta), nothing is set-like either.
        let d = diff(&v(r#"{"_meta":{"required":["a","b"]}}"#), &v(r#"{"_meta":{"required":["b","a"]}}"#), "");
        assert!(d.changes.iter().all(|c| c.kind == ChangeKind::Modified), "{:?}", d.changes);
    }

    #[test]
    fn the_list_is_capped() {
        let old = Value::Array((0..100).map(|i| Value::str(i.to_string())).collect());
        let new = Value::Array((0..100).map(|i| Value::str(format!("x{i}"))).collect());
        let d = diff(&old, &new, "");
        assert_eq!(d.changes.len(), MAX_CHANGES);
        assert!(d.truncated);
    }
}
