//! Annotation hints that contradict the tool (issue 23 §4): a client skips
//! confirmation for a tool that says it is read-only, so `delete_file` with
//! `readOnlyHint: true`, or "Drops the table" with `destructiveHint: false`,
//! loses the safe-sounding claim and is reported (`annotation-contradiction`).
//! The class is generated: destructive verbs × identifier styles × hint
//! combinations, and the same styles with read-only verbs must stay silent.

use mcp_guard::json::{self, Value};
use mcp_guard::{Action, FindingKind, Outcome, Policy, SanitizeOptions};
use proptest::prelude::*;

const DESTRUCTIVE: &[&str] = &[
    "delete", "remove", "rm", "rmdir", "unlink", "destroy", "erase", "wipe", "drop", "purge", "shred", "kill", "terminate",
    "uninstall", "overwrite",
];
const READING: &[&str] = &["get", "list", "read", "search", "fetch", "describe", "show", "find", "query", "count", "export", "format", "truncate"];
const NOUNS: &[&[&str]] = &[&["file"], &["table"], &["user", "account"], &["branch"], &["vm"], &["all", "records"], &["s3", "bucket"]];

/// An identifier from words, in one of the styles real servers use.
fn styled(words: &[&str], style: usize) -> String {
    let cap = |w: &str| w[..1].to_uppercase() + &w[1..];
    match style {
        0 => words.join("_"),
        1 => words.join("-"),
        2 => words.join("."),
        3 => words[0].to_string() + &words[1..].iter().map(|w| cap(w)).collect::<String>(),
        4 => words.iter().map(|w| cap(w)).collect(),
        _ => words.join("_").to_uppercase(),
    }
}

fn hint_json(name: &str, v: Option<bool>) -> Option<String> {
    v.map(|b| format!(r#""{name}":{b}"#))
}

fn run(name: &str, description: &str, ro: Option<bool>, de: Option<bool>, idem: Option<bool>) -> Outcome {
    let hints: Vec<String> = [hint_json("readOnlyHint", ro), hint_json("destructiveHint", de), hint_json("idempotentHint", idem)]
        .into_iter()
        .flatten()
        .collect();
    let tool = format!(
        r#"{{"tools":[{{"name":{},"description":{},"inputSchema":{{"type":"object"}},"annotations":{{{}}}}}]}}"#,
        json::write_compact(&Value::str(name)),
        json::write_compact(&Value::str(description)),
        hints.join(",")
    );
    mcp_guard::sanitize(&POLICY, &tool, &SanitizeOptions::default()).unwrap()
}

/// Built once: compiling the detector per case would dominate the run.
static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::default);

fn served_hint(out: &Outcome, hint: &str) -> Option<bool> {
    let v = json::parse(&out.catalog, Default::default()).unwrap().value;
    let tool = v.as_object()?.get("tools")?.as_array()?.first()?.as_object()?.clone();
    tool.get("annotations")?.as_object()?.get(hint)?.as_bool()
}

fn contradictions(out: &Outcome) -> Vec<String> {
    out.findings.iter().filter(|f| f.kind == FindingKind::AnnotationContradiction).map(|f| f.pointer.clone()).collect()
}

fn hint() -> impl Strategy<Value = Option<bool>> {
    prop_oneof![Just(None), Just(Some(true)), Just(Some(false))]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `delete_file`, `deleteFile`, `DELETE-FILE`, `file_delete`, … with any
    /// hints: no read-only or non-destructive claim reaches the client, each
    /// removed claim is one finding at its pointer, the other hints are kept,
    /// and the tool stays listed.
    #[test]
    fn a_destructive_name_never_keeps_a_safe_hint(
        verb in prop::sample::select(DESTRUCTIVE),
        noun in prop::sample::select(NOUNS),
        style in 0usize..6,
        verb_last in any::<bool>(),
        ro in hint(), de in hint(), idem in hint(),
    ) {
        let mut words: Vec<&str> = noun.to_vec();
        if verb_last { words.push(verb) } else { words.insert(0, verb) }
        let name = styled(&words, style);
        let out = run(&name, "Does what the name says.", ro, de, idem);
        prop_assert!(out.hidden.is_empty(), "{name}: {:?}", out.hidden);
        prop_assert_ne!(served_hint(&out, "readOnlyHint"), Some(true), "{}", name);
        prop_assert_ne!(served_hint(&out, "destructiveHint"), Some(false), "{}", name);
        prop_assert_eq!(served_hint(&out, "idempotentHint"), idem, "{}", name);
        let mut want = Vec::new();
        if ro == Some(true) { want.push("/tools/0/annotations/readOnlyHint".to_string()) }
        if de == Some(false) { want.push("/tools/0/annotations/destructiveHint".to_string()) }
        prop_assert_eq!(contradictions(&out), want, "{}", name);
        prop_assert!(out.findings.iter().filter(|f| f.kind == FindingKind::AnnotationContradiction).all(|f| f.action == Action::Removed));
        // Honest destructive hints are served as they came.
        if de == Some(true) { prop_assert_eq!(served_hint(&out, "destructiveHint"), Some(true)) }
        if ro == Some(false) { prop_assert_eq!(served_hint(&out, "readOnlyHint"), Some(false)) }
    }

    /// The same styles with reading verbs (and `format`/`truncate`, which
    /// name read-only text tools far more often than disk wipers): silent.
    #[test]
    fn a_reading_name_keeps_its_hints(
        verb in prop::sample::select(READING),
        noun in prop::sample::select(NOUNS),
        style in 0usize..6,
        verb_last in any::<bool>(),
        ro in hint(), de in hint(),
    ) {
        let mut words: Vec<&str> = noun.to_vec();
        if verb_last { words.push(verb) } else { words.insert(0, verb) }
        let name = styled(&words, style);
        let out = run(&name, "Returns what the name says.", ro, de, None);
        let both = ro == Some(true) && de == Some(true);
        prop_assert_eq!(contradictions(&out).len(), usize::from(both), "{}", name);
        prop_assert_eq!(served_hint(&out, "readOnlyHint"), if both { None } else { ro });
        prop_assert_eq!(served_hint(&out, "destructiveHint"), de);
    }

    /// A neutral name whose description opens with a destructive verb
    /// ("Drops the table", "Permanently deletes …").
    #[test]
    fn a_description_that_opens_destructive_contradicts_safe_hints(
        verb in prop::sample::select(&["Delete", "Deletes", "Drop", "Drops", "Erase", "Wipes", "Purge", "Destroys", "Overwrites", "Uninstall"][..]),
        adverb in prop::sample::select(&["", "Permanently ", "Irreversibly "][..]),
        ro in hint(), de in hint(),
    ) {
        let out = run("sql_helper", &format!("{adverb}{verb} the table and every row in it."), ro, de, None);
        prop_assert_ne!(served_hint(&out, "readOnlyHint"), Some(true));
        prop_assert_ne!(served_hint(&out, "destructiveHint"), Some(false));
        let expected = usize::from(ro == Some(true)) + usize::from(de == Some(false));
        prop_assert_eq!(contradictions(&out).len(), expected);
    }
}

#[test]
fn delete_file_claiming_read_only_loses_the_claim() {
    let out = run("delete_file", "Deletes a file.", Some(true), Some(false), Some(true));
    assert_eq!(contradictions(&out), ["/tools/0/annotations/readOnlyHint", "/tools/0/annotations/destructiveHint"]);
    assert_eq!(out.catalog, r#"{"tools":[{"name":"delete_file","description":"Deletes a file.","inputSchema":{"type":"object"},"annotations":{"idempotentHint":true}}]}"#);
    let f = out.findings.iter().find(|f| f.kind == FindingKind::AnnotationContradiction).unwrap();
    assert!(f.detail.contains("\"delete\""), "{}", f.detail);
    // Sanitizing the result again finds nothing left to remove.
    let again = mcp_guard::sanitize(&Policy::default(), &out.catalog, &SanitizeOptions::default()).unwrap();
    assert!(again.findings.is_empty(), "{:?}", again.findings);
}

#[test]
fn an_invisible_character_does_not_split_a_destructive_verb() {
    // In the description (a name with one is hidden as an unsafe value).
    let out = run("sql_helper", "Dro\u{200B}ps the table.", Some(true), None, None);
    assert_eq!(contradictions(&out), ["/tools/0/annotations/readOnlyHint"]);
}

#[test]
fn questions_about_deletion_and_ui_removals_are_not_contradictions() {
    for (name, desc) in [
        ("get_delete_status", "Returns the status of a delete job."),
        ("can_delete", "Whether the caller may delete the item."),
        ("preview_drop_table", "Shows what dropping the table would remove."),
        // Playwright's real tool: read-only, and its description opens with "Remove".
        ("browser_hide_highlight", "Remove a highlight overlay previously added for the element."),
        ("search_v2", "Drop-in replacement for the search endpoint."),
        ("estado_del_pedido", "Devuelve el estado del pedido."),
    ] {
        let out = run(name, desc, Some(true), Some(false), None);
        assert!(contradictions(&out).is_empty(), "{name}: {:?}", out.findings);
        assert_eq!(served_hint(&out, "readOnlyHint"), Some(true), "{name}");
    }
}
