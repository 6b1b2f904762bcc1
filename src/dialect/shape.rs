//! The per-node driver of pass 2 and 3. Order at each node, and why:
//!
//! 1. `combinators::pre` — rewrites that only need the node itself (`const`,
//!    draft forms, `nullable`, `oneOf`, `allOf`, type arrays). They run first
//!    because they can create new subschemas (merged properties, type
//!    branches) that step 2 must normalize too.
//! 2. children — every subschema, keyword-aware (a property *named* `anyOf`
//!    is a name, never a keyword).
//! 3. `combinators::post` — `anyOf` clean-up; it needs normalized
//!    alternatives to see which are duplicates, null or objects.
//! 4. `targets::apply` — the target's own rules last, so they see the final
//!    shape (an object is only closed for strict mode once its properties and
//!    alternatives are final).

use super::{combinators, targets, Cx, MAX_DEPTH};
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{Object, Value};
use crate::policy::Dialect;
use crate::schema::Kw;

/// Where a node sits, for the few rules that depend on it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Pos {
    Root,
    /// An `anyOf` alternative (its parent's clean-up still sees it).
    Branch,
    Other,
}

pub(super) fn node(v: Value, path: &mut Path, depth: u32, cx: &mut Cx, pos: Pos) -> Result<Value, String> {
    let root = pos == Pos::Root;
    if depth > 2 * MAX_DEPTH {
        return Err(format!("the schema nests deeper than {} levels", 2 * MAX_DEPTH));
    }
    let mut o = match v {
        Value::Object(o) => o,
        other => return Ok(other), // booleans: the parent decides (`children`)
    };
    combinators::pre(&mut o, path, depth, cx, root)?;
    targets::drop_early(&mut o, path, cx);
    children(&mut o, path, depth, cx)?;
    let v = combinators::post(o, path, depth, cx, root)?;
    targets::apply(v, path, depth, cx, pos)
}

fn children(o: &mut Object, path: &mut Path, depth: u32, cx: &mut Cx) -> Result<(), String> {
    let keep_bools = cx.target == Dialect::Anthropic;
    for (k, v) in o.entries_mut().iter_mut() {
        let Some(kw) = k.kw() else { continue };
        if !matches!(kw, Kw::SchemaMap | Kw::PatternMap | Kw::SchemaList | Kw::SchemaOne | Kw::Items) {
            continue;
        }
        let m = path.push(k);
        match (kw, v) {
            (Kw::SchemaMap | Kw::PatternMap, Value::Object(map)) => {
                for (name, sub) in map.entries_mut().iter_mut() {
                    let m2 = path.push(name);
                    let s = std::mem::replace(sub, Value::Null);
                    *sub = node(s, path, depth + 1, cx, Pos::Other)?;
                    if !keep_bools && *sub == Value::Bool(true) {
                        *sub = Value::Object(Object::new());
                        cx.change(K::DialectRewritten, S::Info, path.as_str(), Action::Rewritten, "boolean schema true → {}".into());
                    }
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaList | Kw::Items, Value::Array(list)) => {
                let pos = if k == "anyOf" { Pos::Branch } else { Pos::Other };
                for (i, sub) in list.iter_mut().enumerate() {
                    let m2 = path.push_index(i);
                    let s = std::mem::replace(sub, Value::Null);
                    *sub = node(s, path, depth + 1, cx, pos)?;
                    if !keep_bools && *sub == Value::Bool(true) {
                        *sub = Value::Object(Object::new());
                        cx.change(K::DialectRewritten, S::Info, path.as_str(), Action::Rewritten, "boolean schema true → {}".into());
                    }
                    path.pop_to(m2);
                }
            }
            (Kw::SchemaOne | Kw::Items, sub @ Value::Object(_)) => {
                let s = std::mem::replace(sub, Value::Null);
                *sub = node(s, path, depth + 1, cx, Pos::Other)?;
            }
            _ => {}
        }
        path.pop_to(m);
    }
    if !keep_bools {
        booleans(o, path, cx);
    }
    Ok(())
}

/// `true`/`false` where the non-2020-12 targets cannot take a boolean schema.
fn booleans(o: &mut Object, path: &Path, cx: &mut Cx) {
    if o.get("items") == Some(&Value::Bool(true)) {
        o.insert("items", Value::Object(Object::new()));
        cx.change(K::DialectRewritten, S::Info, &path.child("items"), Action::Rewritten, "items: true → {}".into());
    }
    // (Beside `prefixItems`, `items: false` closes the tuple: the target
    // rules turn that into `maxItems`.)
    if o.get("items") == Some(&Value::Bool(false)) && !o.contains_key("prefixItems") {
        o.remove("items");
        o.insert("maxItems", Value::Number(crate::json::Number::from_u64(0)));
        cx.change(K::DialectRewritten, S::Info, &path.child("items"), Action::Rewritten, "items: false → maxItems: 0".into());
    }
    if o.get("not") == Some(&Value::Bool(false)) {
        o.remove("not");
        cx.change(K::DialectRewritten, S::Info, &path.child("not"), Action::Removed, "not: false (always true) removed".into());
    }
    let never: Vec<String> = match o.get("properties") {
        Some(Value::Object(p)) => p.iter().filter(|(_, s)| **s == Value::Bool(false)).map(|(k, _)| k.to_string()).collect(),
        _ => Vec::new(),
    };
    if never.is_empty() {
        return;
    }
    if let Some(Value::Object(p)) = o.get_mut("properties") {
        for n in &never {
            p.remove(n);
        }
    }
    let mut was_required = Vec::new();
    if let Some(Value::Array(r)) = o.get_mut("required") {
        r.retain(|x| {
            let hit = x.as_str().is_some_and(|s| never.iter().any(|n| n == s));
            if hit {
                was_required.push(x.as_str().unwrap_or_default().to_string());
            }
            !hit
        });
    }
    let pp = path.child("properties");
    for n in &never {
        let p = crate::json::pointer_push(&pp, n);
        if was_required.contains(n) {
            cx.change(
                K::DialectLossy,
                S::Low,
                &p,
                Action::Removed,
                format!("property {n:?} is required but its schema is false (no value fits); removed"),
            );
        } else {
            cx.change(
                K::DialectRewritten,
                S::Info,
                &p,
                Action::Removed,
                format!("property {n:?} with schema false (must be absent) removed"),
            );
        }
    }
}
