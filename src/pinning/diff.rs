//! What changed inside one drifted tool, as JSON pointers into the tool, so a
//! drift report says *where* (pinning treats every change as drift; the
//! operator still needs to see whether it is a new `<IMPORTANT>` paragraph or
//! a reordered list).
//!
//! A change is `reordered` when the same items came back in another order: an
//! array that is a permutation of the old one, or a string whose comma/space
//! separated tokens are a permutation (a default joined from a Python set, as
//! `mcp-atlassian` does between runs). A drift made only of reorderings is
//! marked benign in the report; the pinning mode still decides what happens.

use crate::json::{self, Value};

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

pub(crate) fn diff(old: &Value, new: &Value, base: &str) -> Diff {
    let mut d = Diff { changes: Vec::new(), truncated: false };
    walk(old, new, base, &mut d);
    d
}

fn push(d: &mut Diff, pointer: String, kind: ChangeKind) {
    if d.changes.len() < MAX_CHANGES {
        d.changes.push(Change { pointer, kind });
    } else {
        d.truncated = true;
    }
}

fn walk(old: &Value, new: &Value, ptr: &str, d: &mut Diff) {
    if d.truncated {
        return;
    }
    match (old, new) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, va) in a.iter() {
                let p = json::pointer_push(ptr, k);
                match b.get(k) {
                    Some(vb) => walk(va, vb, &p, d),
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
            if a.len() == b.len() && same_multiset(a, b) {
                return push(d, ptr.to_string(), ChangeKind::Reordered);
            }
            for i in 0..a.len().max(b.len()) {
                let p = format!("{ptr}/{i}");
                match (a.get(i), b.get(i)) {
                    (Some(x), Some(y)) => walk(x, y, &p, d),
                    (Some(_), None) => push(d, p, ChangeKind::Removed),
                    (None, Some(_)) => push(d, p, ChangeKind::Added),
                    (None, None) => {}
                }
            }
        }
        (Value::String(a), Value::String(b)) => {
            if a != b {
                let kind = if same_tokens(a, b) { ChangeKind::Reordered } else { ChangeKind::Modified };
                push(d, ptr.to_string(), kind);
            }
        }
        (a, b) => {
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

/// The same two or more comma/semicolon/space separated tokens, in another order.
fn same_tokens(a: &str, b: &str) -> bool {
    fn toks(s: &str) -> Vec<&str> {
        let mut t: Vec<&str> = s.split(|c: char| c == ',' || c == ';' || c == '|' || c.is_whitespace()).filter(|t| !t.is_empty()).collect();
        t.sort_unstable();
        t
    }
    let (ta, tb) = (toks(a), toks(b));
    ta.len() > 1 && ta == tb
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
    fn permutations_are_reorderings() {
        let d = diff(&v(r#"{"d":"a,b,c","r":["x","y"]}"#), &v(r#"{"d":"c,a,b","r":["y","x"]}"#), "");
        assert!(d.changes.iter().all(|c| c.kind == ChangeKind::Reordered), "{:?}", d.changes);
        assert_eq!(d.changes.len(), 2);
        // Same tokens but one more is a modification, not a reordering.
        let d = diff(&v(r#""a,b""#), &v(r#""b,a,a""#), "");
        assert_eq!(d.changes[0].kind, ChangeKind::Modified);
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
