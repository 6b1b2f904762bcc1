//! The `sanitize` stage — metadata sanitization (`core.tool_metadata_sanitization`).
//!
//! Covers every model-visible string: the tool `title` and `description`,
//! `annotations.title`, and in input and output schemas every `title` and
//! `description`. Text only the model reads may be rewritten (`sanitize`) or
//! cause the tool to be hidden (`block`). Text the server receives back —
//! property names and the string values of `enum`/`const`/`default`/
//! `examples` — is never rewritten: unsafe characters there are an
//! `unsafe-value` finding and, by policy, hide the tool. (Tool names are the
//! name stage's business.)

use crate::ctx::ToolCtx;
use crate::json::Path;
use crate::finding::{Action, FindingKind as K, Severity as S};
use crate::json::{Object, Value};
use crate::policy::{OnUnsafeValue, SanitizeMode};
use crate::schema::{self, Kw};
use crate::markup;
use crate::text::{self, escape_for_detail, Changes, TextLimits};

pub fn run(tool: &mut Object, cx: &mut ToolCtx) {
    let pol: &crate::policy::ServerPolicy = cx.policy;
    let sp = &pol.sanitization;
    if sp.mode == SanitizeMode::Off {
        return;
    }
    let marker: &str = &sp.truncation_marker;
    let lim = |max: u32| TextLimits {
        max_chars: max,
        max_space_run: sp.max_space_run,
        max_blank_lines: sp.max_blank_lines,
        marker: "",
    };
    let title_lim = lim(sp.max_title_chars);
    let desc_lim = lim(sp.max_description_chars);
    let schema_lim = lim(sp.max_schema_text_chars);
    let base = cx.base();
    let mut path = cx.take_path(&base);

    for (key, l) in [("title", title_lim), ("description", desc_lim)] {
        if let Some(Value::String(s)) = tool.get_mut(key) {
            clean_field(s, TextLimits { marker, ..l }, &path, key, cx);
        }
    }
    if let Some(Value::Object(ann)) = tool.get_mut("annotations") {
        if let Some(Value::String(s)) = ann.get_mut("title") {
            let m = path.push("annotations");
            clean_field(s, TextLimits { marker, ..title_lim }, &path, "title", cx);
            path.pop_to(m);
        }
    }
    for key in ["inputSchema", "outputSchema"] {
        if let Some(sch) = tool.get_mut(key) {
            let m = path.push(key);
            let lim = TextLimits { marker, ..schema_lim };
            schema::walk_mut(sch, &mut path, 1, &mut |node, p, _| {
                if let Value::Object(o) = node {
                    schema_node(o, lim, p, cx);
                }
                true
            });
            path.pop_to(m);
        }
    }
    cx.give_path(path);
}

fn schema_node(o: &mut Object, lim: TextLimits, path: &mut Path, cx: &mut ToolCtx) {
    grammar_strings(o, path, cx);
    for (k, v) in o.iter_mut() {
        match (k.kw(), v) {
            (Some(Kw::Text), Value::String(s)) => clean_field(s, lim, path, k, cx),
            (Some(Kw::Value | Kw::Example), v) => {
                let m = path.push(k);
                check_values(v, path, cx);
                path.pop_to(m);
            }
            (Some(Kw::SchemaMap), Value::Object(props)) if k == "properties" => {
                for name in props.keys() {
                    check_value_str(name, || crate::json::pointer_push(&path.child(k), name), "property name", cx);
                }
            }
            _ => {}
        }
    }
}

/// The schema's other strings are not prose, yet a model reads them:
/// `format`, `$id`, `$anchor`, `$schema`, `contentMediaType`,
/// `contentEncoding`, `pattern`, `$ref`, `required` entries, the names of
/// `dependentRequired`, `$defs`, `definitions`, `dependentSchemas` and
/// `patternProperties`. None may hold invisible or control characters (an
/// ASCII-smuggled instruction in `format` reached the model whole): an
/// annotation (`format`, `pattern`, …) holding one is removed, a name or a
/// reference — which the schema's meaning depends on — is an unsafe value
/// (the tool hidden by policy). Decoded tag text and the rest go to the
/// detector. Their grammar and caps are the limits stage's.
fn grammar_strings(o: &mut Object, path: &mut Path, cx: &mut ToolCtx) {
    let mut drop = Vec::new();
    for (k, v) in o.iter() {
        match (k.kw(), v) {
            (Some(Kw::Str | Kw::Pattern), Value::String(s)) if text::has_unsafe_chars(s) => drop.push(k.clone()),
            (Some(Kw::Ref), Value::String(s)) => check_value_str(s, || path.child(k), "$ref", cx),
            (Some(Kw::Required), Value::Array(list)) => {
                for (i, r) in list.iter().enumerate() {
                    if let Some(r) = r.as_str() {
                        check_value_str(r, || format!("{}/{i}", path.child(k)), "required entry", cx);
                    }
                }
            }
            (Some(Kw::DependentRequired), Value::Object(m)) => {
                for (name, list) in m.iter() {
                    check_value_str(name, || crate::json::pointer_push(&path.child(k), name), "dependentRequired name", cx);
                    for (i, r) in list.as_array().into_iter().flatten().enumerate() {
                        if let Some(r) = r.as_str() {
                            let at = || format!("{}/{i}", crate::json::pointer_push(&path.child(k), name));
                            check_value_str(r, at, "dependentRequired entry", cx);
                        }
                    }
                }
            }
            (Some(Kw::SchemaMap | Kw::PatternMap), Value::Object(m)) if k != "properties" => {
                for name in m.keys() {
                    check_value_str(name, || crate::json::pointer_push(&path.child(k), name), "schema name", cx);
                }
            }
            _ => {}
        }
        if cx.is_hidden() {
            return;
        }
    }
    let block = cx.policy.sanitization.mode == SanitizeMode::Block;
    for k in drop {
        let Some(Value::String(v)) = o.remove(&k) else { continue };
        let ptr = path.child(&k);
        let (clean, ch) = text::clean(&v, TextLimits { max_chars: u32::MAX, max_space_run: u32::MAX, max_blank_lines: u32::MAX, marker: "" });
        let mut d = format!("{k} {} holds invisible or control characters", escape_for_detail(&v));
        if !ch.tag_text.is_empty() {
            d.push_str(&format!("; hidden tag text decoded: {}", escape_for_detail(&ch.tag_text)));
            cx.concealed_text.push((ptr.clone(), ch.tag_text.clone()));
        }
        cx.extra_text.push((ptr.clone(), clean.into_owned()));
        let sev = if ch.tag_text.is_empty() { S::Medium } else { S::High };
        if block {
            cx.hide(K::InvisibleRemoved, sev, ptr, d);
            return;
        }
        d.push_str("; removed");
        cx.report(K::InvisibleRemoved, sev, ptr, Action::Removed, d);
    }
}

/// Checks every string and key of an instance value (enum list, default
/// object, …).
fn check_values(v: &Value, path: &mut Path, cx: &mut ToolCtx) {
    crate::json::for_each_text(v, path, &mut |s, p, is_key| {
        check_value_str(s, || p.as_str().to_string(), if is_key { "key" } else { "value" }, cx)
    });
}

/// `pointer` is only spelled out for a finding (nearly no value has one).
fn check_value_str(s: &str, pointer: impl FnOnce() -> String, what: &str, cx: &mut ToolCtx) {
    if text::has_unsafe_chars(s) {
        let detail = format!(
            "{what} {} contains invisible or control characters; it is sent back to the server, so it is not rewritten",
            escape_for_detail(s)
        );
        match cx.policy.sanitization.on_unsafe_value {
            OnUnsafeValue::Hide => cx.hide(K::UnsafeValue, S::High, pointer(), detail),
            OnUnsafeValue::Flag => cx.report(K::UnsafeValue, S::High, pointer(), Action::Flagged, detail),
        }
    } else if text::nfkc_changes(s) {
        cx.report(
            K::UnicodeNormalized,
            S::Low,
            pointer(),
            Action::Flagged,
            format!("{what} {} is not in NFKC form; kept as is because the server receives it back", escape_for_detail(s)),
        );
    }
}

/// Cleans the string at `key` below `path` in place and reports each kind
/// of change. The field's pointer is only spelled out when there is
/// something to report (nearly no text has): not pushed onto `path` for
/// each of the thousands of texts of a catalog.
fn clean_field(s: &mut String, lim: TextLimits, path: &Path, key: &str, cx: &mut ToolCtx) {
    let block = cx.policy.sanitization.mode == SanitizeMode::Block;
    let (out, ch) = text::clean(s, lim);
    // Markup is looked for in the cleaned text: a zero-width space or soft
    // hyphen inside `<img`, or a fullwidth `！[`, is markup once cleaning has
    // dropped or folded it. Most text has none: it is not copied.
    let markup = markup::may_have_markup(&out);
    if !ch.any() && !markup {
        return;
    }
    let ptr = path.child(key);
    if ch.any() {
        if ch.whitespace && (s.contains(PAD_NEWLINES) || s.contains(PAD_SPACES)) {
            cx.padding.push(ptr.clone());
        }
        if !ch.tag_text.is_empty() {
            cx.concealed_text.push((ptr.clone(), ch.tag_text.clone()));
        }
        report_changes(&ch, &ptr, block, cx);
    }
    if markup {
        let mut text = out.into_owned();
        let stripped = strip_hidden_markup(&mut text, &ptr, block, cx);
        if !block && (ch.any() || stripped) {
            *s = text;
        }
    } else if !block && ch.any() {
        *s = out.into_owned();
    }
}

/// Padding long enough to push text below the fold of any tool-approval UI.
const PAD_NEWLINES: &str = "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n";
const PAD_SPACES: &str = "                                                                                                                                                                                                        ";

/// Comments, images in every markdown and HTML form, and HTML text a
/// renderer hides are removed from model-visible text in `sanitize` mode
/// whatever the poisoning mode (`crate::markup` says why each is removed).
/// Removing one piece joins the text on its two sides, which may make new
/// markup (`<im<!-- -->g src=…>`), so the scan runs again on its own output
/// until nothing is left; text that still holds markup after `MAX_PASSES`
/// (nesting no real description has) hides the tool. The removed text goes
/// to the poisoning detector. Returns whether `text` changed.
fn strip_hidden_markup(text: &mut String, ptr: &str, block: bool, cx: &mut ToolCtx) -> bool {
    const MAX_PASSES: usize = 16;
    let mut removed: Vec<(markup::Kind, String)> = Vec::new();
    let mut passes = 0;
    loop {
        let found = markup::find(text);
        if found.is_empty() {
            break;
        }
        if passes == MAX_PASSES {
            let d = format!("markup still rebuilt itself after {MAX_PASSES} removals: {}", escape_for_detail(&text[found[0].start..found[0].end]));
            cx.hide(K::PoisonHidden, S::High, ptr.to_string(), d);
            break;
        }
        passes += 1;
        for f in &found {
            if removed.len() < 10_000 {
                removed.push((f.kind, text[f.start..f.end].to_string()));
            }
        }
        *text = markup::remove(text, &found);
    }
    if removed.is_empty() {
        return false;
    }
    let act = if block { Action::Hidden } else { Action::Removed };
    // One finding per kind of markup in this field, naming the first and
    // counting the rest (a field of 100,000 `<img>` tags is one finding, not
    // 100,000). The removed text goes to the detector, joined, within the
    // per-tool budget of dropped text.
    let mut kinds: Vec<(markup::Kind, usize, usize)> = Vec::new();
    for (i, (k, _)) in removed.iter().enumerate() {
        match kinds.iter_mut().find(|(x, _, _)| x == k) {
            Some(e) => e.2 += 1,
            None => kinds.push((*k, i, 1)),
        }
    }
    for (k, first, n) in kinds {
        let (kind, sev, what) = match k {
            markup::Kind::Comment => (K::PoisonHidden, S::Medium, "HTML comment removed"),
            markup::Kind::HiddenText => (K::PoisonHidden, S::Medium, "HTML text a renderer hides removed"),
            markup::Kind::UnclosedHidingTag => {
                (K::PoisonHidden, S::Low, "open tag that never closes removed (a renderer would hide the text after it)")
            }
            markup::Kind::RemoteImage => (K::PoisonExfiltration, S::High, "remote image removed"),
            markup::Kind::Image => (K::PoisonHidden, S::Low, "image removed"),
            markup::Kind::ImageDefinition => (K::PoisonExfiltration, S::Low, "definition of a removed image removed"),
        };
        let more = if n > 1 { format!(" (and {} more of this kind)", n - 1) } else { String::new() };
        let d = format!("{what}: {}{more}", escape_for_detail(&removed[first].1));
        cx.report(kind, sev, ptr.to_string(), act, d);
    }
    // Comments and hidden elements are text a reader never sees: a rule hit
    // there is concealed on purpose (`ToolCtx::concealed_text`). An image is
    // shown (or fetched) and often documented on purpose by markdown tools:
    // its text is read, not counted as concealment.
    let (mut concealed, mut shown) = (String::new(), String::new());
    for (k, r) in &removed {
        if concealed.len() + shown.len() + r.len() > 64 * 1024 {
            break;
        }
        let hidden = matches!(k, markup::Kind::Comment | markup::Kind::HiddenText | markup::Kind::UnclosedHidingTag);
        let kept = if hidden { &mut concealed } else { &mut shown };
        kept.push_str(r);
        kept.push('\n');
    }
    for (list, kept) in [(&mut cx.concealed_text, concealed), (&mut cx.extra_text, shown)] {
        if !kept.is_empty() {
            list.push((ptr.to_string(), kept));
        }
    }
    true
}

fn report_changes(ch: &Changes, pointer: &str, block: bool, cx: &mut ToolCtx) {
    let act = |a: Action| if block { Action::Hidden } else { a };
    if ch.escapes > 0 || ch.controls > 0 {
        cx.report(
            K::ControlRemoved,
            S::Medium,
            pointer.to_string(),
            act(Action::Removed),
            format!("{} terminal escape sequence(s) and {} control character(s) removed", ch.escapes, ch.controls),
        );
    }
    if ch.invisible > 0 {
        let mut d = format!("{} invisible or formatting character(s) removed", ch.invisible);
        if !ch.tag_text.is_empty() {
            // Bounded and escaped: a finding must not carry the payload whole.
            d.push_str(&format!("; hidden tag text decoded: {}", escape_for_detail(&ch.tag_text)));
        }
        let sev = if ch.tag_text.is_empty() { S::Medium } else { S::High };
        cx.report(K::InvisibleRemoved, sev, pointer.to_string(), act(Action::Removed), d);
    }
    if ch.nfkc {
        cx.report(K::UnicodeNormalized, S::Info, pointer.to_string(), act(Action::Rewritten), "text folded to Unicode NFKC".into());
    }
    if ch.whitespace {
        cx.report(
            K::WhitespaceNormalized,
            S::Info,
            pointer.to_string(),
            act(Action::Rewritten),
            "line separators unified or long blank runs collapsed".into(),
        );
    }
    if ch.truncated > 0 {
        cx.report(
            K::TextTruncated,
            S::Low,
            pointer.to_string(),
            act(Action::Truncated),
            format!("text over the cap: {} character(s) cut, marker appended", ch.truncated),
        );
    }
}

