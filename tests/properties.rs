//! Property tests on generated catalogs: the engine never panics, its output
//! is always a valid catalog, and sanitizing is idempotent.

use mcp_guard::json::{self, Object, Value};
use mcp_guard::{Action, Policy, SanitizeOptions};
use proptest::prelude::*;

/// Strings mixing plain text with the characters attacks use.
fn text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a", "Read", " ", "  ", "\n", "\n\n\n\n", "\t", "\u{200b}", "\u{202e}", "\u{e0041}", "\u{fe0f}", "\u{1b}[31m",
        "\u{0}", "\u{85}", "\u{2028}", "ｆｕｌｌ", "é", "e\u{301}", "µ", "…", "😀", "<IMPORTANT>", "~/.ssh/id_rsa",
        "\u{3164}", "\u{ad}", "\r\n",
    ]);
    prop::collection::vec(pieces, 0..12).prop_map(|v| v.concat())
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => "[a-z_]{1,12}",
        1 => text(),
        1 => Just("dup".to_string()),
        1 => Just("DUP".to_string()),
    ]
}

fn schema(depth: u32) -> BoxedStrategy<Value> {
    let leaf = prop_oneof![
        Just(Value::Bool(true)),
        text().prop_map(|d| obj(vec![("type", Value::str("string")), ("description", Value::String(d))])),
        prop::collection::vec(text(), 0..4)
            .prop_map(|e| obj(vec![("type", Value::str("string")), ("enum", Value::Array(e.into_iter().map(Value::String).collect()))])),
        Just(obj(vec![("type", Value::str("integer")), ("minimum", num("0")), ("nullable", Value::Bool(true))])),
        Just(obj(vec![("x-extra", Value::str("hidden")), ("type", Value::str("number"))])),
        Just(obj(vec![("type", Value::str("string")), ("pattern", Value::str("^(a+)+$"))])),
    ];
    if depth == 0 {
        return leaf.boxed();
    }
    prop_oneof![
        2 => leaf,
        1 => prop::collection::vec((name(), schema(depth - 1)), 0..4).prop_map(|props| {
            let mut p = Object::new();
            for (k, v) in props {
                p.insert(k, v);
            }
            obj(vec![("type", Value::str("object")), ("properties", Value::Object(p))])
        }),
        1 => prop::collection::vec(schema(depth - 1), 1..3).prop_map(|b| obj(vec![("anyOf", Value::Array(b))])),
    ]
    .boxed()
}

fn num(s: &str) -> Value {
    json::parse(s, Default::default()).unwrap().value
}

fn obj(kv: Vec<(&str, Value)>) -> Value {
    let mut o = Object::new();
    for (k, v) in kv {
        o.insert(k, v);
    }
    Value::Object(o)
}

fn tool() -> impl Strategy<Value = Value> {
    (name(), prop::option::of(text()), prop::option::of(text()), schema(3), any::<bool>()).prop_map(|(n, t, d, s, meta)| {
        let mut o = Object::new();
        o.insert("name", Value::String(n));
        if let Some(t) = t {
            o.insert("title", Value::String(t));
        }
        if let Some(d) = d {
            o.insert("description", Value::String(d));
        }
        let root = match s {
            Value::Object(mut so) => {
                if !so.contains_key("type") && !so.contains_key("anyOf") {
                    so.insert("type", Value::str("object"));
                }
                Value::Object(so)
            }
            other => other,
        };
        o.insert("inputSchema", root);
        if meta {
            o.insert("_meta", obj(vec![("k", Value::str("v"))]));
        }
        Value::Object(o)
    })
}

fn catalog() -> impl Strategy<Value = String> {
    prop::collection::vec(tool(), 0..6).prop_map(|tools| json::write_compact(&obj(vec![("tools", Value::Array(tools))])))
}

/// Compiled once: a policy carries the compiled poisoning detector, which is
/// too costly to rebuild for every generated case in a debug build.
static POLICIES: std::sync::LazyLock<Vec<Policy>> = std::sync::LazyLock::new(|| {
    [
        "{}",
        r#"{"preset":"strict"}"#,
        r#"{"core":{"tool_names":{"on_invalid_name":"sanitize"},"tool_description_policy":{"mode":"truncate","max_chars":20}}}"#,
        r#"{"core":{"schema_limits":{"max_depth":2,"on_exceed":"truncate"},"tool_metadata_sanitization":{"max_description_chars":30}}}"#,
    ]
    .iter()
    .map(|p| Policy::from_json(p).unwrap())
    .collect()
});

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn sanitize_is_idempotent_and_total(cat in catalog()) {
        for policy in POLICIES.iter() {
            let once = mcp_guard::sanitize(policy, &cat, &SanitizeOptions::default()).expect("a well-formed catalog is never refused");
            // The output is a valid catalog with only visible tools.
            let doc = json::parse(&once.catalog, Default::default()).unwrap().value;
            let n = doc.as_object().unwrap().get("tools").unwrap().as_array().unwrap().len();
            prop_assert_eq!(n + once.hidden.len(), once.tools.len());
            let twice = mcp_guard::sanitize(policy, &once.catalog, &SanitizeOptions::default()).unwrap();
            prop_assert_eq!(&once.catalog, &twice.catalog);
            prop_assert!(twice.hidden.is_empty(), "second pass hid {:?}", twice.hidden);
            let changes: Vec<_> = twice.findings.iter().filter(|f| f.action != Action::Flagged).collect();
            prop_assert!(changes.is_empty(), "second pass changed {:?}", changes);
        }
    }

    /// Every served name fits `max_chars` and MCP's name characters, whatever
    /// the server's name (long, or not a name at all) and the separator.
    #[test]
    fn served_names_fit_max_chars_under_any_server_prefix(
        server in prop_oneof!["[a-z-]{0,90}", text()],
        sep in "[a-z_.-]{1,3}",
        max in 8u32..80,
        names in prop::collection::vec(prop_oneof!["[a-z_]{1,100}", name()], 1..4),
    ) {
        prop_assume!((sep.len() as u32) < max / 2);
        let policy = Policy::from_json(&format!(
            r#"{{"core":{{"tool_names":{{"server_prefix":true,"separator":"{sep}","max_chars":{max},"on_invalid_name":"sanitize"}},"tool_poisoning":{{"mode":"off"}}}}}}"#
        )).unwrap();
        let tools: Vec<Value> = names.iter().map(|n| obj(vec![("name", Value::String(n.clone())), ("inputSchema", obj(vec![("type", Value::str("object"))]))])).collect();
        let cat = json::write_compact(&obj(vec![("tools", Value::Array(tools))]));
        let opts = SanitizeOptions { server: Some(server.clone()), ..SanitizeOptions::default() };
        let out = mcp_guard::sanitize(&policy, &cat, &opts).unwrap();
        let doc = json::parse(&out.catalog, Default::default()).unwrap().value;
        for t in doc.as_object().unwrap().get("tools").unwrap().as_array().unwrap() {
            let n = t.as_object().unwrap().get("name").unwrap().as_str().unwrap();
            prop_assert!(n.len() <= max as usize, "{:?} over {}", n, max);
            prop_assert!(!n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)), "{:?}", n);
        }
    }

    #[test]
    fn arbitrary_text_never_panics(s in ".{0,200}") {
        let _ = mcp_guard::sanitize(&POLICIES[0], &s, &SanitizeOptions::default());
        let _ = Policy::from_json(&s);
    }
}
