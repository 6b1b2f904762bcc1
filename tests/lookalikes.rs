//! Look-alike names (issue 23 §4): a tool name with a capital `I` for an
//! `l` (`read_fiIe`) is tied to the real one, property names of one schema
//! object that render alike (`path`, Cyrillic `pаth`) are flagged, and the
//! call gate refuses a look-alike of a listed tool. The class is generated:
//! words × one homoglyph substitution at any position.

use mcp_guard::json::{self, Value};
use mcp_guard::pinning::{self, CallDecision, RefusalReason};
use mcp_guard::{FindingKind, Outcome, Policy, SanitizeOptions};
use proptest::prelude::*;

static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::default);

const WORDS: &[&str] = &["read", "file", "list", "tools", "delete", "all", "send", "email", "path", "help", "commit", "company", "policy", "sample"];

/// Substitutes for a letter that render like it (UTS #39 confusables).
/// `ascii`: stays inside the tool-name charset.
fn substitutes(c: char, ascii: bool) -> &'static [&'static str] {
    match (c, ascii) {
        ('l', _) => &["I", "1"],
        ('m', _) => &["rn"],
        ('a', false) => &["\u{430}"],
        ('e', false) => &["\u{435}"],
        ('o', false) => &["\u{43E}"],
        ('p', false) => &["\u{440}"],
        ('c', false) => &["\u{441}"],
        ('y', false) => &["\u{443}"],
        ('i', false) => &["\u{456}"],
        _ => &[],
    }
}

/// `name` with the `pick`-th substitutable letter replaced (`None` if it
/// has none).
fn disguise(name: &str, pick: usize, which: usize, ascii: bool) -> Option<String> {
    let spots: Vec<(usize, char)> = name.char_indices().filter(|&(_, c)| !substitutes(c, ascii).is_empty()).collect();
    let &(at, c) = spots.get(pick % spots.len().max(1))?;
    let subs = substitutes(c, ascii);
    Some(format!("{}{}{}", &name[..at], subs[which % subs.len()], &name[at + c.len_utf8()..]))
}

fn sanitize(catalog: &str) -> Outcome {
    mcp_guard::sanitize(&POLICY, catalog, &SanitizeOptions::default()).unwrap()
}

fn tool(name: &str, props: &[&str]) -> String {
    let props: Vec<String> = props.iter().map(|p| format!(r#"{}:{{"type":"string"}}"#, json::write_compact(&Value::str(*p)))).collect();
    format!(r#"{{"name":{},"inputSchema":{{"type":"object","properties":{{{}}}}}}}"#, json::write_compact(&Value::str(name)), props.join(","))
}

fn confusable_pointers(out: &Outcome) -> Vec<String> {
    out.findings.iter().filter(|f| f.kind == FindingKind::NameConfusable).map(|f| f.pointer.clone()).collect()
}

fn words() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(WORDS), 1..4).prop_map(|w| w.join("_"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// A tool named like a listed one with one letter swapped for a
    /// look-alike in the name charset (`I` or `1` for `l`, `rn` for `m`):
    /// both are flagged, whatever the case of the rest.
    #[test]
    fn a_disguised_tool_name_is_tied_to_the_real_one(name in words(), pick in 0usize..8, which in 0usize..2, upper in any::<bool>()) {
        let name = if upper { name.to_uppercase().replace('L', "l").replace('M', "m") } else { name };
        let Some(fake) = disguise(&name, pick, which, true) else { return Ok(()) };
        let out = sanitize(&format!(r#"{{"tools":[{},{}]}}"#, tool(&name, &[]), tool(&fake, &[])));
        prop_assert!(out.hidden.is_empty(), "{:?}", out.hidden);
        prop_assert_eq!(confusable_pointers(&out), ["/tools/0/name", "/tools/1/name"], "{} ~ {}", name, fake);
        // The call gate refuses the look-alike of a listed tool.
        let b = pinning::pin(&POLICY, &format!(r#"{{"tools":[{}]}}"#, tool(&name, &[])), &SanitizeOptions::default()).unwrap().baseline;
        match pinning::check_call(&b, &fake, Some("{}")) {
            CallDecision::Refuse(r) => prop_assert_eq!(r.reason, RefusalReason::ConfusableName),
            other => prop_assert!(false, "{} allowed as {}: {:?}", name, fake, other),
        }
    }

    /// Two properties of one object that render alike (a Cyrillic letter, a
    /// capital I for l, rn for m): each is flagged at its own pointer, at
    /// any depth.
    #[test]
    fn look_alike_properties_in_one_object_are_flagged(name in words(), pick in 0usize..8, which in 0usize..2, nested in any::<bool>()) {
        let Some(fake) = disguise(&name, pick, which, false) else { return Ok(()) };
        let props = [name.as_str(), "other", fake.as_str()];
        let t = tool("run", &props);
        let (t, at) = if nested {
            (t.replacen(r#""properties":{"#, r#""properties":{"opts":{"type":"object","properties":{"#, 1).replacen("}}}", "}}}}}", 1), "/tools/0/inputSchema/properties/opts/properties")
        } else {
            (t, "/tools/0/inputSchema/properties")
        };
        let out = sanitize(&format!(r#"{{"tools":[{t}]}}"#));
        let want = [json::pointer_push(at, &name), json::pointer_push(at, &fake)];
        prop_assert_eq!(confusable_pointers(&out), want, "{}", t);
    }
}

#[test]
fn read_file_with_a_capital_i_is_tied_to_read_file() {
    let out = sanitize(&format!(r#"{{"tools":[{},{}]}}"#, tool("read_file", &[]), tool("read_fiIe", &[])));
    assert_eq!(confusable_pointers(&out), ["/tools/0/name", "/tools/1/name"]);
    let f = out.findings.iter().find(|f| f.kind == FindingKind::NameConfusable).unwrap();
    assert!(f.detail.contains("read_fiIe"), "{}", f.detail);
    // Against another server's names too.
    let opts = SanitizeOptions { foreign_names: vec!["read_file".into()], ..SanitizeOptions::default() };
    let out = mcp_guard::sanitize(&POLICY, &format!(r#"{{"tools":[{}]}}"#, tool("read_fiIe", &[])), &opts).unwrap();
    assert_eq!(confusable_pointers(&out), ["/tools/0/name"]);
}

#[test]
fn path_and_cyrillic_path_in_one_schema_are_flagged() {
    let out = sanitize(&format!(r#"{{"tools":[{}]}}"#, tool("write", &["path", "p\u{430}th", "content"])));
    assert_eq!(confusable_pointers(&out), ["/tools/0/inputSchema/properties/path", "/tools/0/inputSchema/properties/p\u{430}th"]);
    assert!(out.hidden.is_empty());
}

#[test]
fn distinct_or_case_only_property_names_are_not_look_alikes() {
    // Different objects may reuse a name; case differences render apart.
    let t = r#"{"name":"t","inputSchema":{"type":"object","properties":{"path":{"type":"object","properties":{"path":{"type":"string"}}},"userId":{"type":"string"},"userid":{"type":"string"},"file":{"type":"string"},"files":{"type":"string"}}}}"#;
    let out = sanitize(&format!(r#"{{"tools":[{t}]}}"#));
    assert!(confusable_pointers(&out).is_empty(), "{:?}", out.findings);
}

/// 4,096 case variants of one name (and as many foreign ones) are each a
/// look-alike of all the others: every tool gets its finding, each finding
/// names a bounded number of them (the listing was cubic in the group).
#[test]
fn a_catalog_of_thousands_of_look_alikes_gets_bounded_findings() {
    let base = "abcdefghijkl";
    let variants: Vec<String> = (0..4096u32)
        .map(|m| base.chars().enumerate().map(|(i, c)| if m >> i & 1 == 1 { c.to_ascii_uppercase() } else { c }).collect())
        .collect();
    let tools: Vec<serde_json::Value> =
        variants.iter().map(|n| serde_json::json!({"name": n, "inputSchema": {"type": "object"}})).collect();
    let catalog = serde_json::json!({ "tools": tools }).to_string();
    let opts = mcp_guard::SanitizeOptions { server: None, foreign_names: variants.iter().map(|v| format!("{v}_x")).chain(variants.iter().cloned()).collect() };
    let out = mcp_guard::sanitize(&mcp_guard::Policy::default(), &catalog, &opts).unwrap();
    let confusable: Vec<&mcp_guard::Finding> =
        out.findings.iter().filter(|f| f.kind == mcp_guard::FindingKind::NameConfusable).collect();
    assert!(confusable.len() >= 4096, "{}", confusable.len());
    assert!(confusable.iter().all(|f| f.detail.len() < 400), "{:?}", confusable.iter().map(|f| f.detail.len()).max());
    let per_tool = confusable.iter().filter(|f| f.tool_index == Some(0)).count();
    assert!(per_tool <= 6, "{per_tool} findings for one tool");
}
