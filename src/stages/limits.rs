//! The `limits` stage — structural limits and schema shape, keyword-aware.
//!
//! - `inputSchema` must be an object schema with `"type":"object"`; harmless
//!   shapes (`{}`, `true`, missing `type` next to `properties`, `["object","null"]`)
//!   are normalized, the rest hide the tool. A malformed `outputSchema` is
//!   removed (the tool still works without it).
//! - Unknown keywords are dropped; keyword values of the wrong type hide the
//!   tool (never coerced).
//! - Caps on depth, properties per object, `required` entries, enum values,
//!   value string length, nodes per tool and combinator branches: by policy the
//!   tool is hidden (`on_exceed: hide`) or the schema cut (`truncate`).
//! - `$ref` must resolve inside the same schema. Refs are not expanded here,
//!   so cycles cannot blow up; the dialect stage expands under a node budget.

use crate::ctx::ToolCtx;
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{self, Object, Value};
use crate::pattern::{self, Verdict};
use crate::policy::{OnExceed, SchemaLimits};
use crate::schema::{self, Kw, TYPE_NAMES};

pub fn run(tool: &mut Object, cx: &mut ToolCtx) {
    match tool.get_mut("inputSchema") {
        None => cx.hide(K::SchemaInvalid, S::Medium, cx.pointer("/inputSchema"), "inputSchema is required".into()),
        Some(v) => {
            let ptr = cx.pointer("/inputSchema");
            if let Err(why) = top_level(v, &ptr, cx) {
                cx.hide(K::SchemaInvalid, S::Medium, ptr, why);
            } else if let Err((at, why)) = if cx.may_have_mcp_header { mcp_headers(v, &ptr) } else { Ok(()) } {
                cx.hide(K::SchemaInvalid, S::Medium, at, why);
            } else {
                let mut st = WalkState { input: true, ..WalkState::default() };
                walk(v, &ptr, cx, &mut st);
            }
        }
    }
    if cx.is_hidden() {
        return;
    }
    if let Some(v) = tool.get_mut("outputSchema") {
        let ptr = cx.pointer("/outputSchema");
        // A broken output schema does not make the tool unusable: remove it
        // instead of hiding the tool (the client then skips result validation).
        let mut scratch = ToolCtx::new(cx.index, cx.name.clone(), cx.policy, cx.server);
        let ok = top_level_output(v).and_then(|_| {
            let mut st = WalkState::default();
            walk(v, &ptr, &mut scratch, &mut st);
            match &scratch.hidden {
                Some((_, why)) => Err(why.clone()),
                None => Ok(()),
            }
        });
        match ok {
            Ok(()) => cx.findings.append(&mut scratch.findings),
            Err(why) => {
                tool.remove("outputSchema");
                cx.report(K::SchemaInvalid, S::Low, ptr, Action::Removed, format!("outputSchema removed: {why}"));
            }
        }
        cx.rewritten |= scratch.rewritten;
        cx.truncated |= scratch.truncated;
        cx.flagged |= scratch.flagged;
    }
}

fn normalized(cx: &mut ToolCtx, ptr: &str, detail: &str) {
    cx.report(K::SchemaNormalized, S::Info, ptr.to_string(), Action::Rewritten, detail.to_string());
}

fn top_level_output(v: &Value) -> Result<(), String> {
    match v {
        Value::Object(o) => match o.get("type") {
            Some(Value::String(t)) if t == "object" => Ok(()),
            None if o.contains_key("properties") => Ok(()),
            _ => Err("outputSchema must be an object schema with \"type\":\"object\"".into()),
        },
        _ => Err(format!("outputSchema must be an object, not {}", v.type_name())),
    }
}

/// Normalizes the root of `inputSchema` or explains why it is unusable.
fn top_level(v: &mut Value, ptr: &str, cx: &mut ToolCtx) -> Result<(), String> {
    match v {
        Value::Bool(true) => {
            let mut o = Object::new();
            o.insert("type", Value::str("object"));
            *v = Value::Object(o);
            normalized(cx, ptr, "boolean schema true → {\"type\":\"object\"}");
            return Ok(());
        }
        Value::Object(_) => {}
        other => return Err(format!("inputSchema must be an object schema, not {}", describe(other))),
    }
    let Value::Object(o) = v else { return Ok(()) };
    match o.get("type") {
        Some(Value::String(t)) if t == "object" => Ok(()),
        Some(Value::Array(ts)) if ts.iter().any(|t| t.as_str() == Some("object")) && ts.iter().all(|t| t.as_str().is_some()) => {
            // Tool arguments are always a JSON object; the other members of
            // the union (usually "null") can never apply.
            o.insert("type", Value::str("object"));
            normalized(cx, &format!("{ptr}/type"), "type union at the root reduced to \"object\" (arguments are always an object)");
            Ok(())
        }
        Some(t) => Err(format!("inputSchema type must be \"object\", not {}", json::write_compact(t))),
        None => {
            const NON_OBJECT: &[&str] = &[
                "enum", "const", "items", "prefixItems", "pattern", "minLength", "maxLength", "minimum", "maximum",
                "multipleOf", "minItems", "maxItems", "format",
            ];
            if let Some(k) = NON_OBJECT.iter().find(|k| o.contains_key(k)) {
                return Err(format!("inputSchema has no type and uses the non-object keyword {k:?}"));
            }
            for comb in ["anyOf", "oneOf", "allOf"] {
                if let Some(Value::Array(branches)) = o.get(comb) {
                    let objectish = branches.iter().all(|b| match b {
                        Value::Object(bo) => {
                            bo.get("type").and_then(Value::as_str) == Some("object") || bo.contains_key("properties")
                        }
                        _ => false,
                    });
                    if !objectish {
                        return Err(format!("inputSchema has no type and its {comb} branches are not all objects"));
                    }
                }
            }
            let empty = o.is_empty();
            o.insert("type", Value::str("object"));
            if empty {
                o.insert("properties", Value::Object(Object::new()));
                normalized(cx, ptr, "empty schema {} → {\"type\":\"object\",\"properties\":{}}");
            } else {
                normalized(cx, &format!("{ptr}/type"), "missing root type set to \"object\"");
            }
            Ok(())
        }
    }
}

fn describe(v: &Value) -> String {
    match v {
        Value::String(_) => "a string (a schema serialized as text?)".into(),
        Value::Bool(false) => "false (no input would ever be valid)".into(),
        other => other.type_name().into(),
    }
}

#[derive(Default)]
struct WalkState {
    /// Walking an input schema (whose `x-mcp-header` annotations are kept).
    input: bool,
    nodes: u32,
    /// A node's keywords: (position in the object, name, kind).
    keybuf: Vec<(usize, &'static str, Kw)>,
    refs: Vec<(String, String)>,
    anchors: std::collections::HashSet<String>,
}

fn walk(root: &mut Value, ptr: &str, cx: &mut ToolCtx, st: &mut WalkState) {
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let lim = &pol.limits;
    let mut path = cx.take_path(ptr);
    schema::walk_mut(root, &mut path, 1, &mut |node, p, depth| {
        if cx.is_hidden() {
            return false;
        }
        check_node(node, p, depth, lim, cx, st)
    });
    cx.give_path(path);
    if cx.is_hidden() {
        return;
    }
    for (r, at) in std::mem::take(&mut st.refs) {
        let target = if let Some(frag) = r.strip_prefix('#') {
            if frag.is_empty() || frag.starts_with('/') {
                json::pointer_get(root, &crate::json::percent_decode(frag)).is_some_and(|t| matches!(t, Value::Object(_) | Value::Bool(_)))
            } else {
                st.anchors.contains(frag)
            }
        } else {
            cx.hide(K::SchemaRef, S::High, at, format!("$ref {r:?} points outside this schema"));
            return;
        };
        if !target {
            cx.hide(K::SchemaRef, S::Medium, at, format!("$ref {r:?} does not resolve inside this schema"));
            return;
        }
    }
}


/// Either hides the tool or, under `on_exceed: truncate`, lets the caller cut.
fn exceed(lim: &SchemaLimits, cx: &mut ToolCtx, ptr: String, detail: String) -> bool {
    match lim.on_exceed {
        OnExceed::Hide => {
            cx.hide(K::SchemaLimit, S::Medium, ptr, detail);
            false
        }
        OnExceed::Truncate => {
            cx.report(K::SchemaLimit, S::Low, ptr, Action::Truncated, format!("{detail}; cut"));
            true
        }
    }
}

fn invalid(cx: &mut ToolCtx, ptr: String, detail: String) -> bool {
    cx.hide(K::SchemaInvalid, S::Medium, ptr, detail);
    false
}

fn check_node(node: &mut Value, p: &mut Path, depth: u32, lim: &SchemaLimits, cx: &mut ToolCtx, st: &mut WalkState) -> bool {
    match node {
        Value::Object(_) | Value::Bool(_) => {}
        other => {
            return invalid(cx, p.as_str().to_string(), format!("a subschema must be an object or boolean, not {}", describe(other)));
        }
    }
    // `true` and `{}` accept anything and carry no structure: they cost
    // nothing to keep at any depth and are what truncation leaves behind, so
    // they are exempt from the depth and node caps (which keeps truncation
    // idempotent).
    let trivial = matches!(node, Value::Bool(true)) || matches!(node, Value::Object(o) if o.is_empty());
    if trivial {
        return false;
    }
    if depth > lim.max_depth {
        if exceed(lim, cx, p.as_str().to_string(), format!("schema depth {depth} is over the limit of {}", lim.max_depth)) {
            *node = Value::Object(Object::new());
        }
        return false;
    }
    st.nodes += 1;
    if st.nodes > lim.max_nodes {
        if exceed(lim, cx, p.as_str().to_string(), format!("more than {} schema nodes", lim.max_nodes)) {
            *node = Value::Object(Object::new());
        }
        return false;
    }
    let Value::Object(o) = node else { return true };
    // Unknown keywords first (rare: only they need their key cloned).
    // `x-mcp-header` stays: `mcp_headers` checked every one of an input
    // schema before this walk (the tool is hidden otherwise); in an output
    // schema it means nothing and goes like any `x-` keyword.
    let keep = |k: &json::Key| k.kw().is_some() || (*k == MCP_HEADER && st.input);
    if o.keys().any(|k| !keep(k)) {
        let unknown: Vec<json::Key> = o.keys().filter(|k| !keep(k)).cloned().collect();
        for k in unknown {
            if let Some(v) = o.remove(&k) {
                cx.keep_dropped_text(&v, &p.child(&k));
            }
            let sev = if k.starts_with("x-") || k == "$comment" { S::Info } else { S::Low };
            cx.report(K::SchemaKeywordDropped, sev, p.child(&k), Action::Removed, format!("unknown keyword {k:?} removed"));
        }
    }
    // Known keywords map to static names, so iterating needs no allocation;
    // pointers are only built when something is reported.
    let mut keys = std::mem::take(&mut st.keybuf);
    keys.clear();
    keys.extend(o.keys().enumerate().filter_map(|(i, k)| k.keyword().map(|(k, kw)| (i, k, kw))));
    let mut ok = true;
    for &(at, k, kw) in &keys {
        let ptr = LazyPtr { base: p, key: k };
        if !check_keyword(o, at, k, kw, &ptr, lim, cx, st) || cx.is_hidden() {
            ok = false;
            break;
        }
    }
    st.keybuf = keys;
    ok
}

/// A pointer to `base/key`, rendered only when a finding needs it.
struct LazyPtr<'a> {
    base: &'a Path,
    key: &'a str,
}

impl LazyPtr<'_> {
    fn s(&self) -> String {
        self.base.child(self.key)
    }
}

/// `pattern::check`, from the catalog's verdicts when one of its tools had
/// the same pattern checked (`ToolCtx::patterns`; a check depends on the
/// pattern alone). At most `PATTERNS_KEPT` patterns of at most
/// `PATTERN_KEPT_BYTES` are kept: a catalog of many distinct patterns pays
/// a short scan per check, not memory.
fn check_pattern(cx: &mut ToolCtx, p: &str) -> pattern::Verdict {
    if let Some((_, v)) = cx.patterns.iter().find(|(q, _)| q == p) {
        return v.clone();
    }
    let v = pattern::check(p);
    if cx.patterns.len() < PATTERNS_KEPT && p.len() <= PATTERN_KEPT_BYTES {
        cx.patterns.push((p.to_string(), v.clone()));
    }
    v
}

const PATTERNS_KEPT: usize = 256;
const PATTERN_KEPT_BYTES: usize = 4096;

/// Checks one keyword of a schema object; may rewrite `o`. Returns false if
/// the tool was hidden.
/// `at`: where `k` was in `o` when the node's keywords were listed (an
/// earlier keyword's check may have removed one before it since).
#[allow(clippy::too_many_arguments)]
fn check_keyword(o: &mut Object, at: usize, k: &str, kw: Kw, ptr: &LazyPtr, lim: &SchemaLimits, cx: &mut ToolCtx, st: &mut WalkState) -> bool {
    let Some(v) = o.get_mut_near(at, k) else { return true };
    match kw {
        Kw::Type => match v {
            Value::String(t) if TYPE_NAMES.contains(&t.as_str()) => true,
            Value::Array(ts) if !ts.is_empty() => {
                let mut seen: Vec<&str> = Vec::new();
                for t in ts.iter() {
                    match t.as_str() {
                        Some(n) if TYPE_NAMES.contains(&n) && !seen.contains(&n) => seen.push(n),
                        _ => return invalid(cx, ptr.s(), format!("type {} is not a list of unique JSON Schema type names", json::write_compact(v))),
                    }
                }
                true
            }
            _ => invalid(cx, ptr.s(), format!("type {} is not a JSON Schema type name", short(v))),
        },
        Kw::Required => {
            let Value::Array(list) = v else {
                return invalid(cx, ptr.s(), format!("required must be an array of strings, not {}", v.type_name()));
            };
            if list.iter().any(|x| x.as_str().is_none()) {
                return invalid(cx, ptr.s(), "required must contain only strings".into());
            }
            let before = list.len();
            if duplicate_strings(list) == Some(true) {
                let mut seen = std::collections::HashSet::new();
                list.retain(|x| seen.insert(x.as_str().unwrap_or_default().to_string()));
            }
            if list.len() != before {
                normalized(cx, &ptr.s(), &format!("{} duplicate required entr(ies) removed", before - list.len()));
            }
            if list.len() > lim.max_required as usize {
                if !exceed(lim, cx, ptr.s(), format!("{} required entries, over {}", list.len(), lim.max_required)) {
                    return false;
                }
                list.truncate(lim.max_required as usize);
            }
            let cap = lim.max_property_name_chars as usize;
            if let Some(n) = list.iter().filter_map(Value::as_str).filter(|n| n.len() > cap).map(|n| n.chars().count()).find(|&n| n > cap) {
                cx.hide(K::SchemaLimit, S::Medium, ptr.s(), format!("required entry of {n} characters, over {cap} (names are never rewritten)"));
                return false;
            }
            unnamed_required(o, ptr, cx);
            true
        }
        Kw::SchemaMap | Kw::PatternMap => {
            let Value::Object(map) = v else {
                return invalid(cx, ptr.s(), format!("{k} must be an object, not {}", v.type_name()));
            };
            if k != "properties" && kw == Kw::SchemaMap {
                // `$defs`/`definitions`/`dependentSchemas` keys are names a
                // model reads too (and `$ref`s spell them).
                let cap = lim.max_property_name_chars as usize;
                if let Some(name) = map.keys().find(|n| longer_than(n, cap)) {
                    let d = format!("{k} name of {} characters, over {cap}", name.chars().count());
                    cx.hide(K::SchemaLimit, S::Medium, json::pointer_push(&ptr.s(), name), d);
                    return false;
                }
            }
            if k == "properties" {
                for name in map.keys() {
                    if longer_than(name, lim.max_property_name_chars as usize) {
                        cx.hide(
                            K::SchemaLimit,
                            S::Medium,
                            json::pointer_push(&ptr.s(), name),
                            format!("property name of {} characters, over {} (names are never rewritten)", name.chars().count(), lim.max_property_name_chars),
                        );
                        return false;
                    }
                }
                if map.len() > lim.max_properties as usize {
                    if !exceed(lim, cx, ptr.s(), format!("{} properties, over {}", map.len(), lim.max_properties)) {
                        return false;
                    }
                    let keep = lim.max_properties as usize;
                    let removed: Vec<json::Key> = map.keys().skip(keep).cloned().collect();
                    map.entries_mut().truncate(keep);
                    if let Some(Value::Array(req)) = o.get_mut("required") {
                        req.retain(|r| !removed.iter().any(|x| Some(x.as_str()) == r.as_str()));
                    }
                    return true;
                }
            }
            if kw == Kw::PatternMap {
                let keys: Vec<json::Key> = map.keys().cloned().collect();
                for pat in keys {
                    let pptr = json::pointer_push(&ptr.s(), &pat);
                    match check_pattern(cx, &pat) {
                        Verdict::Ok => {}
                        Verdict::Drop(why) => {
                            map.remove(&pat);
                            cx.report(K::PatternDropped, S::Low, pptr, Action::Removed, why);
                        }
                        Verdict::Invalid(why) => return invalid(cx, pptr, why),
                    }
                }
            }
            true
        }
        Kw::SchemaList => {
            let Value::Array(list) = v else {
                return invalid(cx, ptr.s(), format!("{k} must be an array of schemas, not {}", v.type_name()));
            };
            if list.is_empty() && k != "prefixItems" {
                return invalid(cx, ptr.s(), format!("{k} must not be empty"));
            }
            if list.len() > lim.max_branches as usize {
                if !exceed(lim, cx, ptr.s(), format!("{} branches, over {}", list.len(), lim.max_branches)) {
                    return false;
                }
                list.truncate(lim.max_branches as usize);
            }
            true
        }
        Kw::SchemaOne => match v {
            Value::Object(_) | Value::Bool(_) => true,
            _ => invalid(cx, ptr.s(), format!("{k} must be a schema, not {}", v.type_name())),
        },
        Kw::Items => match v {
            Value::Object(_) | Value::Bool(_) | Value::Array(_) => true,
            _ => invalid(cx, ptr.s(), format!("items must be a schema, not {}", v.type_name())),
        },
        Kw::Text => {
            if v.as_str().is_none() {
                let t = v.type_name();
                o.remove(k);
                cx.report(K::SchemaInvalid, S::Low, ptr.s(), Action::Removed, format!("{k} must be a string, not {t}; removed"));
            }
            true
        }
        Kw::Value => {
            if let Some(why) = bad_number(v) {
                cx.hide(K::NumberInvalid, S::Medium, ptr.s(), format!("a number no JSON consumer can represent ({why})"));
                return false;
            }
            // In bytes first: a character is at least one, and counting
            // the characters of every value cost more than the rest.
            let over_in_bytes = longest_bytes(v).is_some_and(|b| b > lim.max_value_chars as usize);
            if let Some(long) = if over_in_bytes { longest_string(v) } else { None } {
                if long > lim.max_value_chars as usize {
                    cx.hide(K::SchemaLimit, S::Medium, ptr.s(), format!("a {k} string of {long} characters, over {}", lim.max_value_chars));
                    return false;
                }
            }
            match k {
                "enum" => {
                    let Value::Array(list) = v else {
                        return invalid(cx, ptr.s(), format!("enum must be an array, not {}", v.type_name()));
                    };
                    if list.len() > lim.max_enum_values as usize {
                        if !exceed(lim, cx, ptr.s(), format!("{} enum values, over {}", list.len(), lim.max_enum_values)) {
                            return false;
                        }
                        list.truncate(lim.max_enum_values as usize);
                    }
                    let before = list.len();
                    // Linear: a hash set of canonical encodings (pairwise
                    // comparison was quadratic — a CPU bomb inside the caps).
                    // Only when there may be a duplicate: strings (nearly
                    // every real enum) that all differ need no encoding.
                    if duplicate_strings(list) != Some(false) {
                        let mut seen = std::collections::HashSet::with_capacity(before);
                        let mut key = String::new();
                        list.retain(|x| {
                            key.clear();
                            x.canonical_key(&mut key);
                            seen.insert(key.clone())
                        });
                    }
                    if list.len() != before {
                        normalized(cx, &ptr.s(), &format!("{} duplicate enum value(s) removed (equal as JSON values)", before - list.len()));
                    }
                    true
                }
                "examples" if !matches!(v, Value::Array(_)) => {
                    o.remove(k);
                    cx.report(K::SchemaInvalid, S::Low, ptr.s(), Action::Removed, "examples must be an array; removed".into());
                    true
                }
                _ => true,
            }
        }
        Kw::Count => match v {
            Value::Number(n) if n.is_integer() && !n.as_str().starts_with('-') && n.as_f64().is_finite() => true,
            Value::Number(n) if n.as_str() == "-0" => true,
            _ => invalid(cx, ptr.s(), format!("{k} must be a non-negative integer, not {}", short(v))),
        },
        Kw::Number => match v {
            // Before the `multipleOf > 0` check: `multipleOf: 1e-400` is a
            // positive number that every consumer reads as 0.
            Value::Number(n) if number_problem(n).is_some() => {
                let why = number_problem(n).unwrap_or_default();
                cx.hide(K::NumberInvalid, S::Medium, ptr.s(), format!("{k} {} {why}", n.as_str()));
                false
            }
            Value::Number(n) if k == "multipleOf" && n.as_f64() <= 0.0 => {
                invalid(cx, ptr.s(), "multipleOf must be greater than 0".into())
            }
            Value::Number(_) => true,
            Value::Bool(_) if k.starts_with("exclusive") => true, // draft-04 form
            _ => invalid(cx, ptr.s(), format!("{k} must be a number, not {}", short(v))),
        },
        Kw::Bool => match v {
            Value::Bool(_) => true,
            _ => invalid(cx, ptr.s(), format!("{k} must be a boolean, not {}", short(v))),
        },
        Kw::Str => match v {
            Value::String(s) => {
                if let Some(why) = str_keyword_problem(k, s) {
                    // These keywords only annotate (a client validates
                    // without them); the value is dropped, and kept aside for
                    // the detector: it was model-visible text.
                    let dropped = o.remove(k).unwrap_or(Value::Null);
                    cx.keep_dropped_text(&dropped, &ptr.s());
                    cx.report(K::SchemaInvalid, S::Low, ptr.s(), Action::Removed, format!("{k} {why}; removed"));
                    return true;
                }
                if k == "$anchor" {
                    st.anchors.insert(s.clone());
                }
                true
            }
            _ => invalid(cx, ptr.s(), format!("{k} must be a string, not {}", v.type_name())),
        },
        Kw::Pattern => {
            let Value::String(pat) = v else {
                return invalid(cx, ptr.s(), format!("pattern must be a string, not {}", v.type_name()));
            };
            if pat.chars().count() > lim.max_pattern_chars as usize {
                o.remove(k);
                cx.report(K::PatternDropped, S::Low, ptr.s(), Action::Removed, format!("pattern longer than {} characters removed", lim.max_pattern_chars));
                return true;
            }
            match check_pattern(cx, pat) {
                Verdict::Ok => true,
                Verdict::Drop(why) => {
                    o.remove(k);
                    cx.report(K::PatternDropped, S::Low, ptr.s(), Action::Removed, why);
                    true
                }
                Verdict::Invalid(why) => invalid(cx, ptr.s(), why),
            }
        }
        Kw::Ref => match v {
            Value::String(r) if r.len() > lim.max_value_chars as usize || !uri_reference_ok(r) => {
                let d = format!("$ref of {} bytes is not a URI reference of at most {} characters", r.len(), lim.max_value_chars);
                cx.hide(K::SchemaRef, S::Medium, ptr.s(), d);
                false
            }
            Value::String(r) => {
                st.refs.push((r.clone(), ptr.s()));
                true
            }
            _ => invalid(cx, ptr.s(), format!("$ref must be a string, not {}", v.type_name())),
        },
        Kw::DependentRequired => {
            let ok = matches!(v, Value::Object(m) if m.iter().all(|(_, l)| matches!(l, Value::Array(a) if a.iter().all(|s| s.as_str().is_some()))));
            if !ok {
                return invalid(cx, ptr.s(), "dependentRequired must map names to arrays of strings".into());
            }
            // Its keys and entries are property names: the property-name cap.
            let cap = lim.max_property_name_chars as usize;
            let long = v.as_object().into_iter().flat_map(|m| m.iter()).find_map(|(key, l)| {
                std::iter::once(key.as_str())
                    .chain(l.as_array().into_iter().flatten().filter_map(Value::as_str))
                    .find(|n| longer_than(n, cap))
                    .map(|n| n.chars().count())
            });
            match long {
                Some(n) => {
                    cx.hide(K::SchemaLimit, S::Medium, ptr.s(), format!("dependentRequired name of {n} characters, over {cap}"));
                    false
                }
                None => {
                    unnamed_dependent(o, ptr, cx);
                    true
                }
            }
        }
        Kw::Nullable => {
            let Value::Bool(b) = *v else {
                return invalid(cx, ptr.s(), "nullable must be a boolean".into());
            };
            o.remove(k);
            if b {
                match o.get_mut("type") {
                    Some(Value::String(t)) if t != "null" => {
                        let t = std::mem::take(t);
                        o.insert("type", Value::Array(vec![Value::String(t), Value::str("null")]));
                    }
                    Some(Value::Array(ts)) if !ts.iter().any(|t| t.as_str() == Some("null")) => ts.push(Value::str("null")),
                    _ => {}
                }
                normalized(cx, &ptr.s(), "OpenAPI nullable: true → \"null\" added to type");
            } else {
                normalized(cx, &ptr.s(), "OpenAPI nullable: false removed (the default)");
            }
            true
        }
        Kw::Example => {
            let v = o.remove(k).unwrap_or(Value::Null);
            if let Some(why) = bad_number(&v) {
                cx.hide(K::NumberInvalid, S::Medium, ptr.s(), format!("a number no JSON consumer can represent ({why})"));
                return false;
            }
            if !o.contains_key("examples") {
                o.insert("examples", Value::Array(vec![v]));
                normalized(cx, &ptr.s(), "OpenAPI example → examples");
            } else {
                normalized(cx, &ptr.s(), "OpenAPI example removed (examples already present)");
            }
            true
        }
    }
}

/// The MCP 2026-07-28 annotation that mirrors a tool parameter into an
/// `Mcp-Param-{name}` HTTP header.
const MCP_HEADER: &str = crate::json::MCP_HEADER_KEY;

/// Checks every `x-mcp-header` of an input schema as MCP 2026-07-28 says a
/// client must: a non-empty HTTP token (RFC 9110 `tchar`s, at most 64 here),
/// case-insensitively unique in the schema, on a property of type `string`,
/// `integer` or `boolean`, reachable from the root through `properties` keys
/// alone. A client must drop a tool with an invalid one, so the tool is
/// hidden (`Err` names the annotation and why). A valid one is kept: without
/// it a 2026-07-28 client sends no header and a server that expects one
/// refuses the call.
fn mcp_headers(schema: &Value, base: &str) -> Result<(), (String, String)> {
    x_mcp_header_annotations(schema)
        .map(|_| ())
        .map_err(|(at, why)| (format!("{base}{at}"), format!("{why}; a client must drop the tool")))
}

/// The `x-mcp-header` annotations of an input schema, (property path,
/// header token) in walk order, when every one is valid (see
/// [`mcp_headers`]); else the pointer of the first invalid one (relative to
/// the schema) and why. One reader for the check that hides a tool and for
/// the transport that sends the `Mcp-Param-*` headers of a call
/// (`mediate::http::x_mcp_headers`), so the two never disagree.
pub(crate) fn x_mcp_header_annotations(schema: &Value) -> Result<Vec<(Vec<String>, String)>, (String, String)> {
    let mut found: Vec<(Vec<String>, String)> = Vec::new();
    let mut bad: Option<(String, String)> = None;
    schema::walk(schema, &mut Path::new(""), 1, &mut |node, p, _| {
        if bad.is_some() {
            return false;
        }
        let Some(v) = node.as_object().and_then(|o| o.get(MCP_HEADER)) else { return true };
        let at = format!("{}/{MCP_HEADER}", p.as_str());
        let why = match v.as_str() {
            None => Some(format!("x-mcp-header must be a string, not {}", v.type_name())),
            Some(h) if h.is_empty() || h.len() > 64 || !h.bytes().all(is_tchar) => {
                Some(format!("x-mcp-header {} is not an HTTP header name token", crate::text::escape_for_detail(h)))
            }
            Some(h) if found.iter().any(|(_, x)| x.eq_ignore_ascii_case(h)) => {
                Some(format!("x-mcp-header {h:?} is used twice in this schema"))
            }
            Some(h) => {
                let ty = node.as_object().and_then(|o| o.get("type")).and_then(Value::as_str);
                if !matches!(ty, Some("string" | "integer" | "boolean")) {
                    Some(format!("x-mcp-header {h:?} is on a property that is not a string, integer or boolean"))
                } else if let Some(path) = properties_path(p.as_str()) {
                    found.push((path, h.to_string()));
                    None
                } else {
                    Some(format!("x-mcp-header {h:?} is not on a property reachable through properties alone"))
                }
            }
        };
        if let Some(why) = why {
            bad = Some((at, why));
            return false;
        }
        true
    });
    bad.map_or(Ok(found), Err)
}

/// `/properties/a/properties/b` → `["a", "b"]`: a chain of `properties` keys
/// from the root (pointer tokens escape `/`, so a name never splits), else
/// `None`.
fn properties_path(pointer: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = pointer.split('/').skip(1).collect();
    if parts.is_empty() || !parts.len().is_multiple_of(2) || !parts.chunks(2).all(|c| c[0] == "properties") {
        return None;
    }
    Some(parts.chunks(2).map(|c| c[1].replace("~1", "/").replace("~0", "~")).collect())
}

/// RFC 9110 `tchar`.
fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

/// Why the string of an annotation keyword is not served: each must be what
/// its keyword allows, or it is prose in a place no reviewer reads (an
/// instruction in `format` reached the model verbatim). Bounded by each
/// grammar's length.
fn str_keyword_problem(k: &str, s: &str) -> Option<&'static str> {
    let ok = match k {
        "format" => s.len() <= 64 && FORMATS.iter().any(|f| f.eq_ignore_ascii_case(s)),
        "$schema" => s.len() <= 256 && uri_reference_ok(s) && s.contains(':'),
        "$id" => s.len() <= 1024 && uri_reference_ok(s),
        "$anchor" => s.len() <= 128 && anchor_ok(s),
        "contentMediaType" => s.len() <= 127 && media_type_ok(s),
        "contentEncoding" => ENCODINGS.iter().any(|e| e.eq_ignore_ascii_case(s)),
        _ => true,
    };
    if ok {
        return None;
    }
    Some(match k {
        "format" => "is not a known format name",
        "$anchor" => "is not an anchor name (a letter or _, then letters, digits, -, _ and .)",
        "contentMediaType" => "is not a media type (type/subtype)",
        "contentEncoding" => "is not a known content encoding",
        _ => "is not a URI reference",
    })
}

/// Formats of JSON Schema 2020-12 and earlier drafts, OpenAPI's, and the
/// ones common in real MCP servers (`color`, `phone`, …): a client ignores an
/// unknown format, so an unlisted one costs only an annotation.
const FORMATS: &[&str] = &[
    "date-time", "date", "time", "duration", "email", "idn-email", "hostname", "idn-hostname", "ipv4", "ipv6", "uri",
    "uri-reference", "iri", "iri-reference", "uuid", "uri-template", "json-pointer", "relative-json-pointer", "regex",
    "int32", "int64", "uint32", "uint64", "int8", "int16", "uint8", "uint16", "float", "double", "byte", "binary",
    "password", "decimal", "number", "integer", "string", "boolean", "url", "color", "phone", "tel", "utc-millisec",
    "timestamp", "unix-time", "epoch", "host-name", "ip-address", "ip", "cidr", "mac", "path", "file", "file-path",
    "directory", "textarea", "markdown", "html", "base64", "data-url", "semver", "currency", "country", "language",
    "locale", "timezone", "month", "week", "year", "date-range", "time-range", "zip", "postal-code", "slug", "cron",
    "json", "yaml", "xml", "sql", "glob", "mime-type", "media-type", "hex", "uuid4",
];

/// Content encodings of JSON Schema (RFC 2045 and RFC 4648 names).
const ENCODINGS: &[&str] =
    &["7bit", "8bit", "binary", "quoted-printable", "base16", "base32", "base32hex", "base64", "base64url", "ietf-token", "x-token"];

/// RFC 3986 URI reference characters: unreserved, reserved and `%XX`.
/// (A grammar of characters, not of parts: what matters here is that no
/// prose, space or invisible character rides in it.)
fn uri_reference_ok(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'%' {
            if !(i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit()) {
                return false;
            }
            i += 3;
            continue;
        }
        if !(c.is_ascii_alphanumeric() || b"-._~:/?#[]@!$&'()*+,;=".contains(&c)) {
            return false;
        }
        i += 1;
    }
    true
}

/// `$anchor`: `[A-Za-z_][-A-Za-z0-9._]*` (JSON Schema 2020-12).
fn anchor_ok(s: &str) -> bool {
    let b = s.as_bytes();
    b.first().is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
        && b.iter().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// RFC 6838 `type/subtype` (restricted names), with optional `; k=v`
/// parameters of token characters.
fn media_type_ok(s: &str) -> bool {
    let mut parts = s.split(';');
    let head = parts.next().unwrap_or("");
    let name = |n: &str| {
        let b = n.as_bytes();
        !b.is_empty() && b.len() <= 64 && b[0].is_ascii_alphanumeric() && b.iter().all(|c| c.is_ascii_alphanumeric() || b"!#$&-^_.+".contains(c))
    };
    let ok_head = head.split_once('/').is_some_and(|(t, st)| name(t) && name(st));
    ok_head
        && parts.all(|p| {
            p.trim().split_once('=').is_some_and(|(k, v)| {
                name(k.trim()) && !v.is_empty() && v.bytes().all(|c| c.is_ascii_graphic() && c != b';')
            })
        })
}

/// `required` names no property of its schema object: when the object lists
/// `properties` and nothing else describes other names (no
/// `patternProperties`, no composition, no `additionalProperties` schema),
/// the entry is dropped with a finding: it is text in a place the model
/// reads, naming no property a model could fill.
fn unnamed_required(o: &mut Object, ptr: &LazyPtr, cx: &mut ToolCtx) {
    let Some(Value::Object(props)) = o.get("properties") else { return };
    if other_names_possible(o) {
        return;
    }
    let required = o.get("required").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    // A search of the properties per entry while that is little work (a
    // real schema lists a handful of each: a hashed set per schema object
    // cost more than the rest of the check); a set past that, so a schema
    // with thousands of both stays linear.
    let stray: Vec<String> = if props.len().saturating_mul(required.len()) <= 1024 {
        required.iter().filter_map(Value::as_str).filter(|r| !props.contains_key(r)).map(str::to_string).collect()
    } else {
        let names: std::collections::HashSet<&str> = props.keys().map(|k| k.as_str()).collect();
        required.iter().filter_map(Value::as_str).filter(|r| !names.contains(r)).map(str::to_string).collect()
    };
    if stray.is_empty() {
        return;
    }
    if let Some(Value::Array(list)) = o.get_mut("required") {
        list.retain(|r| r.as_str().is_none_or(|r| !stray.iter().any(|s| s == r)));
    }
    for r in &stray {
        cx.keep_dropped_text(&Value::str(r.as_str()), &ptr.s());
    }
    let shown: Vec<String> = stray.iter().map(|r| crate::text::escape_for_detail(r)).collect();
    cx.report(
        K::SchemaInvalid,
        S::Low,
        ptr.s(),
        Action::Removed,
        format!("required entr(ies) {} name no property of this schema; removed", shown.join(", ")),
    );
}

/// Whether a keyword beside `properties` could define or admit names it does
/// not list (`patternProperties`, composition, a `$ref`, an
/// `additionalProperties` schema): then a `required` or `dependentRequired`
/// name outside `properties` may be meant, and is kept.
fn other_names_possible(o: &Object) -> bool {
    // One pass over the keys, not a search of them per composing keyword.
    o.iter().any(|(k, v)| match k.as_str() {
        "patternProperties" | "allOf" | "anyOf" | "oneOf" | "if" | "then" | "else" | "dependentSchemas" | "$ref" | "not" => true,
        "additionalProperties" => matches!(v, Value::Object(_)),
        _ => false,
    })
}

/// `dependentRequired` under the rule of `unnamed_required`: a trigger or
/// an entry that names no property of an object whose other names nothing
/// defines is dropped (an entry) or drops its whole list (a trigger), with
/// one finding.
fn unnamed_dependent(o: &mut Object, ptr: &LazyPtr, cx: &mut ToolCtx) {
    let Some(Value::Object(props)) = o.get("properties") else { return };
    if other_names_possible(o) {
        return;
    }
    let names: std::collections::HashSet<json::Key> = props.keys().cloned().collect();
    let mut stray: Vec<String> = Vec::new();
    if let Some(Value::Object(map)) = o.get_mut("dependentRequired") {
        map.retain(|k, _| {
            let keep = names.contains(k);
            if !keep {
                stray.push(k.to_string());
            }
            keep
        });
        for (_, list) in map.iter_mut() {
            if let Value::Array(l) = list {
                l.retain(|r| {
                    let keep = r.as_str().is_none_or(|r| names.contains(r));
                    if !keep {
                        stray.push(r.as_str().unwrap_or_default().to_string());
                    }
                    keep
                });
            }
        }
    }
    if stray.is_empty() {
        return;
    }
    for r in &stray {
        cx.keep_dropped_text(&Value::str(r.as_str()), &ptr.s());
    }
    let shown: Vec<String> = stray.iter().take(5).map(|r| crate::text::escape_for_detail(r)).collect();
    cx.report(
        K::SchemaInvalid,
        S::Low,
        ptr.s(),
        Action::Removed,
        format!("dependentRequired name(s) {} name no property of this schema; removed", shown.join(", ")),
    );
}

fn short(v: &Value) -> String {
    let s = json::write_compact(v);
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

/// Why a number cannot be served as written: its double overflows (`1e400`
/// is infinite) or underflows to zero (`1e-400`: a nonzero lexeme whose
/// double is 0, so `minimum: 1e-400` reads as `minimum: 0` to every
/// consumer, and `multipleOf: 1e-400` as the invalid `multipleOf: 0`).
fn number_problem(n: &json::Number) -> Option<&'static str> {
    let f = n.as_f64();
    if !f.is_finite() {
        return Some("overflows a double");
    }
    let mantissa = n.as_str().split(['e', 'E']).next().unwrap_or("");
    (f == 0.0 && mantissa.bytes().any(|b| matches!(b, b'1'..=b'9'))).then_some("underflows a double to 0")
}

/// The first `number_problem` anywhere in a value.
fn bad_number(v: &Value) -> Option<&'static str> {
    match v {
        Value::Number(n) => number_problem(n),
        Value::Array(a) => a.iter().find_map(bad_number),
        Value::Object(o) => o.iter().find_map(|(_, x)| bad_number(x)),
        _ => None,
    }
}

/// More than `max` characters (the byte length bounds the count: most
/// names need no count).
fn longer_than(s: &str, max: usize) -> bool {
    s.len() > max && s.chars().count() > max
}

/// `longest_string` in bytes (an upper bound of it).
fn longest_bytes(v: &Value) -> Option<usize> {
    match v {
        Value::String(s) => Some(s.len()),
        Value::Array(a) => a.iter().filter_map(longest_bytes).max(),
        Value::Object(o) => o.iter().filter_map(|(k, x)| longest_bytes(x).max(Some(k.len()))).max(),
        _ => None,
    }
}

fn longest_string(v: &Value) -> Option<usize> {
    match v {
        Value::String(s) => Some(s.chars().count()),
        Value::Array(a) => a.iter().filter_map(longest_string).max(),
        Value::Object(o) => o.iter().filter_map(|(k, x)| longest_string(x).max(Some(k.chars().count()))).max(),
        _ => None,
    }
}

/// Whether two strings of `list` are equal; `None` when a value is not a
/// string. Pairwise for the short lists real schemas have (no allocation),
/// a set of the borrowed strings past 16 values (never quadratic).
fn duplicate_strings(list: &[Value]) -> Option<bool> {
    if list.len() <= 16 {
        for (i, x) in list.iter().enumerate() {
            let s = x.as_str()?;
            if list[..i].iter().any(|y| y.as_str() == Some(s)) {
                return Some(true);
            }
        }
        return Some(false);
    }
    let mut seen = std::collections::HashSet::with_capacity(list.len());
    for x in list {
        if !seen.insert(x.as_str()?) {
            return Some(true);
        }
    }
    Some(false)
}

#[cfg(test)]
mod tests {
    use super::{bad_number, duplicate_strings};
    use crate::json::{self, Value};

    #[test]
    fn underflow_to_zero_is_a_bad_number_like_overflow() {
        let num = |s: &str| json::parse(s, Default::default()).unwrap().value;
        for s in ["1e-400", "-1e-400", "0.1e-330", "1E-324", "[0, 2.5e-999]", "{\"a\":{\"b\":-7e-1000}}", "0.000000001e-320"] {
            assert_eq!(bad_number(&num(s)), Some("underflows a double to 0"), "{s}");
        }
        for s in ["1e400", "-1e400", "[1e999]"] {
            assert_eq!(bad_number(&num(s)), Some("overflows a double"), "{s}");
        }
        // Zero written any way is zero; the smallest subnormal is not 0.
        for s in ["0", "-0", "0.0", "0e-400", "0.000e5", "5e-324", "4.9e-324", "1e-300", "[1, 0.5, \"1e-400\"]"] {
            assert_eq!(bad_number(&num(s)), None, "{s}");
        }
    }

    #[test]
    fn duplicate_strings_short_and_long_lists() {
        let strs = |v: &[&str]| v.iter().map(|s| Value::String(s.to_string())).collect::<Vec<_>>();
        assert_eq!(duplicate_strings(&strs(&[])), Some(false));
        assert_eq!(duplicate_strings(&strs(&["a", "b", "c"])), Some(false));
        assert_eq!(duplicate_strings(&strs(&["a", "b", "a"])), Some(true));
        let long: Vec<String> = (0..40).map(|i| format!("v{i}")).collect();
        let mut l = strs(&long.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(duplicate_strings(&l), Some(false));
        l.push(Value::String("v3".into()));
        assert_eq!(duplicate_strings(&l), Some(true));
        l.insert(0, Value::Bool(true));
        assert_eq!(duplicate_strings(&l), None);
        assert_eq!(duplicate_strings(&[Value::String("x".into()), Value::Null]), None);
    }
}
