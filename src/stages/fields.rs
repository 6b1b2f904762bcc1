//! The `fields` stage — field allow-list and tool-shape validation.
//!
//! Keeps only the MCP `Tool` fields the policy allows; each dropped field is a
//! finding. Optional fields of the wrong JSON type are dropped (never coerced:
//! `"yes"` is not `true`). Annotations keep their known keys with the right
//! types; contradictory hints are resolved toward *destructive*. When the
//! policy keeps `icons`, `_meta` or `execution`, their unsafe parts are
//! removed here too.

use crate::ctx::ToolCtx;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{Object, Value};
use crate::policy::KNOWN_TOOL_FIELDS;

/// The boolean annotation hints of MCP (also pinned: see
/// `crate::pinning::PINNED_HINTS`).
pub const HINTS: &[&str] = &["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

pub fn run(tool: &mut Object, cx: &mut ToolCtx) {
    let base = cx.base();
    // Borrowed from the policy (which outlives `cx`), not copied per tool.
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let allow = &pol.fields.allow;
    let keep_unknown = pol.fields.keep_unknown;
    let mut drops: Vec<(String, K, String)> = Vec::new();
    let mut dropped_values: Vec<(String, Value)> = Vec::new();
    tool.retain(|k, v| {
        let known = KNOWN_TOOL_FIELDS.contains(&k);
        if (known && !allow.iter().any(|a| a == k)) || (!known && !keep_unknown) {
            drops.push((k.to_string(), K::FieldDropped, format!("field {k:?} is not in the allow-list")));
            dropped_values.push((k.to_string(), std::mem::replace(v, Value::Null)));
            return false;
        }
        let want = match k {
            "title" | "description" => Some("string"),
            "inputSchema" | "name" => None, // validated by their own stages
            "outputSchema" => None,
            "annotations" | "_meta" | "execution" => Some("object"),
            "icons" => Some("array"),
            _ => None,
        };
        if let Some(want) = want {
            if v.type_name() != want {
                drops.push((
                    k.to_string(),
                    K::FieldInvalidType,
                    format!("field {k:?} must be a {want}, not {}", v.type_name()),
                ));
                return false;
            }
        }
        true
    });
    for (k, v) in dropped_values {
        cx.keep_dropped_text(&v, &crate::json::pointer_push(&base, &k));
    }
    for (k, kind, detail) in drops {
        let sev = if kind == K::FieldInvalidType { S::Low } else { S::Info };
        cx.report(kind, sev, crate::json::pointer_push(&base, &k), Action::Removed, detail);
    }
    if let Some(Value::Object(ann)) = tool.get_mut("annotations") {
        let ptr = cx.pointer("/annotations");
        annotations(ann, cx, &ptr);
    }
    hints_against_name(tool, cx, &base);
    if let Some(Value::Array(icons)) = tool.get_mut("icons") {
        let ptr = cx.pointer("/icons");
        icons_filter(icons, cx, &ptr);
    }
    if let Some(Value::Object(meta)) = tool.get_mut("_meta") {
        let ptr = cx.pointer("/_meta");
        meta_filter(meta, cx, &ptr);
    }
    if let Some(Value::Object(exec)) = tool.get("execution") {
        let ok = exec.iter().all(|(k, v)| {
            k == "taskSupport" && matches!(v.as_str(), Some("forbidden" | "optional" | "required"))
        });
        if !ok {
            tool.remove("execution");
            cx.report(
                K::FieldInvalidType,
                S::Low,
                format!("{base}/execution"),
                Action::Removed,
                "execution must be {\"taskSupport\": forbidden|optional|required}".into(),
            );
        }
    }
    title_mismatch(tool, cx, &base);
}

fn annotations(ann: &mut Object, cx: &mut ToolCtx, base: &str) {
    let mut drops = Vec::new();
    ann.retain(|k, v| {
        let ok = match k {
            "title" => v.as_str().is_some(),
            _ if HINTS.contains(&k) => v.as_bool().is_some(),
            _ => false,
        };
        if !ok {
            let why = if k == "title" || HINTS.contains(&k) {
                format!("annotation {k:?} has the wrong type ({}); hints are never coerced", v.type_name())
            } else {
                format!("unknown annotation {k:?}")
            };
            drops.push((k.to_string(), why));
        }
        ok
    });
    for (k, why) in drops {
        cx.report(K::AnnotationDropped, S::Low, crate::json::pointer_push(base, &k), Action::Removed, why);
    }
    // Hints are untrusted claims. A tool that says it is both read-only and
    // destructive is treated as destructive: clients skip confirmation for
    // read-only tools, so the safe reading drops the read-only claim.
    if ann.get("readOnlyHint") == Some(&Value::Bool(true)) && ann.get("destructiveHint") == Some(&Value::Bool(true)) {
        ann.remove("readOnlyHint");
        cx.report(
            K::AnnotationContradiction,
            S::Medium,
            format!("{base}/readOnlyHint"),
            Action::Removed,
            "readOnlyHint and destructiveHint are both true; treated as destructive".into(),
        );
    }
}

/// Verbs that make a tool destructive when its name has them as a word
/// (`delete_file`, `deleteFile`, `delete-file`, `DropTable`). Not `format`
/// or `truncate` (`format_date`, `truncate_text` are read-only), not `reset`
/// (`reset_zoom`), not `del` (Spanish `estado_del_pedido`).
const DESTRUCTIVE_NAME_VERBS: &[&str] = &[
    "delete", "deletes", "remove", "removes", "rm", "rmdir", "unlink", "destroy", "destroys", "erase", "erases", "wipe", "wipes",
    "drop", "drops", "purge", "purges", "shred", "shreds", "kill", "kills", "terminate", "terminates", "uninstall", "uninstalls",
    "overwrite", "overwrites",
];

/// Verbs that make a tool destructive when its description opens with one
/// (one leading word allowed: "Permanently deletes …"). Narrower than for
/// names: "Remove a highlight overlay" (Playwright, read-only) and "Kill
/// the suspense" read as UI or prose, "Drop-in replacement" is one word.
const DESTRUCTIVE_LEAD_VERBS: &[&str] = &[
    "delete", "deletes", "destroy", "destroys", "erase", "erases", "wipe", "wipes", "drop", "drops", "purge", "purges", "shred",
    "shreds", "overwrite", "overwrites", "uninstall", "uninstalls",
];

/// Name words that make a destructive verb the *subject* of a read-only
/// question (`get_delete_status`, `can_delete`, `preview_drop`,
/// `delete_dry_run`), not the action.
const ABOUT_WORDS: &[&str] = &["status", "can", "preview", "plan", "dry", "simulate"];

/// Calls `f` with each word of an identifier in any style (snake, kebab,
/// dot, camel, Pascal, SCREAMING), lower-cased, until it returns true (then
/// returns true). Invisible characters are skipped, not word breaks
/// (`dele\u{200B}te` is `delete`). One buffer for all words: this runs for
/// most tools that carry hints.
fn any_identifier_word(s: &str, mut f: impl FnMut(&str) -> bool) -> bool {
    if s.is_ascii() {
        return any_ascii_identifier_word(s.as_bytes(), f);
    }
    let mut cur = String::new();
    let mut chars = s.chars().filter(|&c| !crate::text::is_invisible(c)).peekable();
    let mut prev: Option<char> = None;
    while let Some(c) = chars.next() {
        if !c.is_alphanumeric() {
            if !cur.is_empty() && f(&cur) {
                return true;
            }
            cur.clear();
            prev = None;
            continue;
        }
        if let Some(p) = prev {
            let next_lower = chars.peek().is_some_and(|n| n.is_lowercase());
            // `fileName` | `HTTPDelete` (an upper-case run ends before the
            // capital that starts a word) | `file2` / `v2Api`.
            let boundary = (p.is_lowercase() && c.is_uppercase())
                || (p.is_uppercase() && c.is_uppercase() && next_lower)
                || (p.is_alphabetic() != c.is_alphabetic());
            if boundary && !cur.is_empty() {
                if f(&cur) {
                    return true;
                }
                cur.clear();
            }
        }
        cur.extend(c.to_lowercase());
        prev = Some(c);
    }
    !cur.is_empty() && f(&cur)
}

/// `any_identifier_word` for ASCII (every valid tool name): the same
/// boundaries, words borrowed or lower-cased into one small buffer.
fn any_ascii_identifier_word(s: &[u8], mut f: impl FnMut(&str) -> bool) -> bool {
    let mut buf = String::new();
    let mut word = |w: &[u8], f: &mut dyn FnMut(&str) -> bool| {
        buf.clear();
        buf.extend(w.iter().map(|b| b.to_ascii_lowercase() as char));
        f(&buf)
    };
    let mut start: Option<usize> = None;
    for i in 0..s.len() {
        let c = s[i];
        if !c.is_ascii_alphanumeric() {
            if let Some(st) = start.take() {
                if word(&s[st..i], &mut f) {
                    return true;
                }
            }
            continue;
        }
        if let Some(st) = start.filter(|&st| st < i) {
            let p = s[i - 1];
            let next_lower = s.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            let boundary = (p.is_ascii_lowercase() && c.is_ascii_uppercase())
                || (p.is_ascii_uppercase() && c.is_ascii_uppercase() && next_lower)
                || (p.is_ascii_alphabetic() != c.is_ascii_alphabetic());
            if boundary {
                if word(&s[st..i], &mut f) {
                    return true;
                }
                start = Some(i);
            }
        }
        start.get_or_insert(i);
    }
    start.is_some_and(|st| word(&s[st..], &mut f))
}

/// Hints are the server's claims, and a client skips confirmation on the
/// word of `readOnlyHint: true` (and warns less without `destructiveHint`).
/// A tool whose name or description says it destroys things (`delete_file`,
/// "Drops the table") while its hints say read-only or non-destructive is
/// contradicting itself: the safe claim is removed (the MCP defaults then
/// apply: not read-only, destructive) and reported. A heuristic against
/// inconsistent metadata — a server may still name a wiper `cleanup`.
fn hints_against_name(tool: &mut Object, cx: &mut ToolCtx, base: &str) {
    let Some(Value::Object(ann)) = tool.get("annotations") else { return };
    let read_only = ann.get("readOnlyHint") == Some(&Value::Bool(true));
    let not_destructive = ann.get("destructiveHint") == Some(&Value::Bool(false));
    if !read_only && !not_destructive {
        return;
    }
    let name = cx.name.as_deref().unwrap_or("");
    let mut in_name = None;
    any_identifier_word(name, |w| {
        in_name = in_name.or_else(|| DESTRUCTIVE_NAME_VERBS.iter().find(|v| **v == w));
        false
    });
    let about = in_name.is_some() && any_identifier_word(name, |w| ABOUT_WORDS.contains(&w));
    let why = match in_name {
        Some(v) if !about => format!("its name {} says {v:?}", crate::text::escape_for_detail(name)),
        _ => {
            let desc = tool.get("description").and_then(Value::as_str).unwrap_or("");
            let lead = desc.split_whitespace().take(2).find_map(|t| {
                let verb = |t: &str| {
                    let t = t.trim_end_matches([',', ';', ':', '.', '!']);
                    DESTRUCTIVE_LEAD_VERBS.iter().find(|v| v.eq_ignore_ascii_case(t)).copied()
                };
                if t.is_ascii() {
                    verb(t)
                } else {
                    verb(&t.chars().filter(|&c| !crate::text::is_invisible(c)).collect::<String>())
                }
            });
            match lead {
                Some(v) => format!("its description opens with {v:?}"),
                None => return,
            }
        }
    };
    let Some(Value::Object(ann)) = tool.get_mut("annotations") else { return };
    if read_only {
        ann.remove("readOnlyHint");
        cx.report(
            K::AnnotationContradiction,
            S::Medium,
            format!("{base}/annotations/readOnlyHint"),
            Action::Removed,
            format!("readOnlyHint is true but {why}; treated as not read-only"),
        );
    }
    if not_destructive {
        ann.remove("destructiveHint");
        cx.report(
            K::AnnotationContradiction,
            S::Medium,
            format!("{base}/annotations/destructiveHint"),
            Action::Removed,
            format!("destructiveHint is false but {why}; treated as destructive"),
        );
    }
}

/// Icons reach a client's renderer: only `https:` URLs, or small base64
/// `data:image/(png|jpeg|webp)` URIs whose declared type matches, survive.
fn icons_filter(icons: &mut Vec<Value>, cx: &mut ToolCtx, base: &str) {
    const MAX_DATA_URI: usize = 64 * 1024;
    let mut i = 0;
    let mut idx = 0;
    while i < icons.len() {
        let verdict = icon_problem(&icons[i], MAX_DATA_URI);
        if let Some(why) = verdict {
            icons.remove(i);
            cx.report(K::IconDropped, S::Medium, format!("{base}/{idx}"), Action::Removed, why);
        } else {
            i += 1;
        }
        idx += 1;
    }
}

fn icon_problem(icon: &Value, max_data: usize) -> Option<String> {
    let Some(o) = icon.as_object() else { return Some("icon is not an object".into()) };
    let Some(src) = o.get("src").and_then(Value::as_str) else { return Some("icon has no string src".into()) };
    for (k, v) in o.iter() {
        match (k.as_str(), v) {
            ("src", _) => {}
            ("mimeType", Value::String(_)) => {}
            ("sizes", Value::Array(a)) if a.iter().all(|s| s.as_str().is_some_and(valid_size)) => {}
            ("theme", Value::String(t)) if t == "light" || t == "dark" => {}
            _ => return Some(format!("icon field {k:?} is invalid")),
        }
    }
    let mime = o.get("mimeType").and_then(Value::as_str);
    let lower = src.get(..16).unwrap_or(src).to_ascii_lowercase();
    if lower.starts_with("https://") {
        if mime.is_some_and(|m| !m.starts_with("image/") || m.contains("svg")) {
            return Some("icon mimeType is not a raster image type".into());
        }
        return None;
    }
    if lower.starts_with("data:") {
        if src.len() > max_data {
            return Some(format!("data: icon is {} bytes, over {max_data}", src.len()));
        }
        let header = src[5..].split(',').next().unwrap_or("");
        let ty = header.split(';').next().unwrap_or("").to_ascii_lowercase();
        if !["image/png", "image/jpeg", "image/webp"].contains(&ty.as_str()) {
            return Some(format!("data: icon of type {ty:?} (only png, jpeg, webp)"));
        }
        if mime.is_some_and(|m| !m.eq_ignore_ascii_case(&ty)) {
            return Some("icon mimeType disagrees with its data: URI".into());
        }
        return None;
    }
    let scheme = src.split(':').next().unwrap_or("");
    Some(format!("icon URI scheme {scheme:?} is not allowed (https: or data:image only)"))
}

fn valid_size(s: &str) -> bool {
    if s == "any" {
        return true;
    }
    let Some((w, h)) = s.split_once('x') else { return false };
    let dim = |d: &str| !d.is_empty() && d.len() <= 5 && d.bytes().all(|b| b.is_ascii_digit());
    dim(w) && dim(h)
}

/// `_meta` keys whose prefix names `modelcontextprotocol` or `mcp` as a label
/// are reserved to the protocol (MCP 2025-11-25); a server claiming them is
/// impersonating the client side. UI resource URIs must stay inside `ui://`.
fn meta_filter(meta: &mut Object, cx: &mut ToolCtx, base: &str) {
    let mut drops = Vec::new();
    meta.retain(|k, v| {
        if let Some((prefix, _)) = k.split_once('/') {
            let labels: Vec<&str> = prefix.split('.').collect();
            if labels.len() >= 2 && labels.iter().any(|l| *l == "modelcontextprotocol" || *l == "mcp") {
                drops.push((k.to_string(), format!("_meta key {k:?} uses a reserved prefix")));
                return false;
            }
        }
        let uri = match (k, &*v) {
            ("ui", Value::Object(o)) => o.get("resourceUri").and_then(Value::as_str),
            (key, Value::String(s)) if key.ends_with("outputTemplate") => Some(s.as_str()),
            _ => None,
        };
        if let Some(u) = uri {
            if !u.starts_with("ui://") || u.contains("..") {
                drops.push((k.to_string(), format!("UI resource {u:?} is outside ui:// or traverses paths")));
                return false;
            }
        }
        true
    });
    for (k, why) in drops {
        cx.report(K::MetaDropped, S::Medium, crate::json::pointer_push(base, &k), Action::Removed, why);
    }
}

/// Clients show `title` instead of the name. A title that claims the tool
/// is safe or read-only while the name, description or hints say it destroys
/// things — and that does not itself mention the destructive action — is
/// deception aimed at the user: flag it (the CLI shows the name next to the
/// title).
fn title_mismatch(tool: &Object, cx: &mut ToolCtx, base: &str) {
    const SAFE: &[&str] = &["safe", "readonly", "read", "harmless", "viewer", "view", "viewing", "inspect"];
    const DESTRUCTIVE: &[&str] = &[
        "delete", "deletes", "remove", "removes", "destroy", "destroys", "erase", "erases", "wipe", "wipes", "drop",
        "drops", "truncate", "kill", "rm", "overwrite", "overwrites", "purge", "purges", "format", "shred",
    ];
    fn words(s: &str) -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(|w| w.to_lowercase()).collect()
    }
    let ann = tool.get("annotations").and_then(|a| a.as_object());
    let title = tool.get("title").and_then(Value::as_str);
    let ann_title = ann.and_then(|a| a.get("title")).and_then(Value::as_str);
    // Cheap exit first: most tools have no title claiming safety. (Compared
    // without lower-casing a copy of each word: the safe words are ASCII,
    // and no letter outside ASCII lower-cases into one of theirs.)
    let claims = |t: Option<&str>| {
        t.is_some_and(|t| t.split(|c: char| !c.is_alphanumeric()).any(|w| SAFE.iter().any(|s| w.eq_ignore_ascii_case(s))))
    };
    if !claims(title) && !claims(ann_title) {
        return;
    }
    let name_words = words(cx.name.as_deref().unwrap_or(""));
    let desc = tool.get("description").and_then(Value::as_str).unwrap_or("");
    // Only the first sentence of the description says what the tool does.
    let desc_words = words(desc.split(['.', '\n']).next().unwrap_or(""));
    let destructive_hint = ann.and_then(|a| a.get("destructiveHint")).and_then(Value::as_bool) == Some(true);
    let verbs: Vec<&String> =
        name_words.iter().chain(desc_words.iter()).filter(|w| DESTRUCTIVE.contains(&w.as_str())).collect();
    if verbs.is_empty() && !destructive_hint {
        return;
    }
    let titles = [
        (tool.get("title").and_then(Value::as_str), format!("{base}/title")),
        (ann.and_then(|a| a.get("title")).and_then(Value::as_str), format!("{base}/annotations/title")),
    ];
    for (t, ptr) in titles {
        let Some(t) = t else { continue };
        let tw = words(t);
        let claims_safe = tw.iter().any(|w| SAFE.contains(&w.as_str()));
        let admits = tw.iter().any(|w| DESTRUCTIVE.contains(&w.as_str()));
        if claims_safe && !admits {
            cx.report(
                K::TitleMismatch,
                S::Medium,
                ptr,
                Action::Flagged,
                format!("title {t:?} claims a safe tool, but {:?} looks destructive", cx.name.as_deref().unwrap_or("")),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    fn identifier_words(s: &str) -> Vec<String> {
        let mut words = Vec::new();
        super::any_identifier_word(s, |w| {
            words.push(w.to_string());
            false
        });
        words
    }

    #[test]
    fn identifier_words_split_every_naming_style() {
        for (name, want) in [
            ("delete_file", &["delete", "file"][..]),
            ("deleteFile", &["delete", "file"]),
            ("DeleteFile", &["delete", "file"]),
            ("DELETE-FILE", &["delete", "file"]),
            ("HTTPDelete", &["http", "delete"]),
            ("deleteS3Bucket", &["delete", "s", "3", "bucket"]),
            ("fs.rm", &["fs", "rm"]),
            ("dele\u{200B}te_file", &["delete", "file"]),
            ("Ünïcode_DELETEFile2x", &["ünïcode", "delete", "file", "2", "x"]),
        ] {
            assert_eq!(identifier_words(name), want, "{name}");
        }
        // The ASCII path splits as the general one does.
        for name in ["deleteS3Bucket", "HTTPDeleteV2api", "a__b--c..D", "X", "", "__", "rmRF", "ABCdef9GHi"] {
            let mut general = Vec::new();
            let with_invisible = format!("{name}\u{200B}");
            super::any_identifier_word(&with_invisible, |w| {
                general.push(w.to_string());
                false
            });
            assert_eq!(identifier_words(name), general, "{name}");
        }
    }
}
