//! Prints one SHA-256 per full outcome of `sanitize` (served catalog,
//! findings, hidden tools, reports, name map, or the error) for every catalog
//! of the repository under 13 policies and two option sets: 284 catalogs, 7,384
//! outcomes. A speed change that must not change any output byte is checked
//! by diffing this file before and after it:
//!
//! ```text
//! cargo run --release --example outcomes > /tmp/before.txt   # on the parent commit
//! cargo run --release --example outcomes > /tmp/after.txt
//! diff /tmp/before.txt /tmp/after.txt && echo unchanged
//! ```
//!
//! The policies reach every stage and every branch a speed change has
//! touched so far (each dialect target, truncating limits, block modes,
//! renamed and prefixed names, description modes, discovery, the poisoning
//! detector with and without the learned scorer); the second option set names
//! a server (per-server overrides, the prefix, the placeholder) and foreign
//! tool names (look-alike and shadowing checks). The hashes miss what no
//! catalog here holds: the x-mcp-header flag's array-order bug (417e188) was
//! found by a differential red team, not by this list.
use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

const DIRS: &[&str] = &[
    "testdata/catalogs",
    "testdata/catalogs-wide",
    "testdata/adversarial",
    "testdata/bench",
    "testdata/scorer",
    "tests/fixtures",
];

const POLICIES: &[(&str, &str)] = &[
    ("default", "{}"),
    ("strict", r#"{"preset":"strict"}"#),
    ("permissive", r#"{"preset":"permissive"}"#),
    ("poison-off", r#"{"core":{"tool_poisoning":{"mode":"off"}}}"#),
    ("poison-block", r#"{"core":{"tool_poisoning":{"mode":"block","block_threshold":"medium"}}}"#),
    ("rules-only", r#"{"core":{"tool_poisoning":{"learned":false}}}"#),
    ("gemini", r#"{"core":{"schema_dialect":{"target":"gemini"}}}"#),
    ("openai-strict", r#"{"core":{"schema_dialect":{"target":"openai-strict"}}}"#),
    ("anthropic", r#"{"core":{"schema_dialect":{"target":"anthropic"}}}"#),
    (
        "portable-truncate",
        r#"{"core":{"schema_dialect":{"target":"portable"},"schema_limits":{"max_depth":3,"max_enum_values":2,"max_properties":6,"max_required":3,"max_value_chars":24,"max_property_name_chars":12,"max_pattern_chars":16,"on_exceed":"truncate"}}}"#,
    ),
    (
        "limits-hide",
        r#"{"core":{"schema_limits":{"max_depth":4,"max_nodes":40,"max_branches":3,"max_enum_values":5},"tool_metadata_sanitization":{"mode":"block","max_description_chars":200,"max_schema_text_chars":60,"on_unsafe_value":"flag"}}}"#,
    ),
    (
        "names-descriptions",
        r#"{"core":{"tool_names":{"on_invalid_name":"sanitize","server_prefix":true,"max_chars":24},"tool_description_policy":{"mode":"truncate","max_chars":40},"tool_fields":{"allow":["name","title","description","inputSchema","outputSchema","annotations","icons","_meta"],"keep_unknown":true}},"servers":[{"id":"files","tool_description_policy":{"mode":"placeholder"}}]}"#,
    ),
    (
        "discovery",
        r#"{"core":{"discovery":{"mode":"on","core_tools":["read_*","search"]}},"servers":[{"id":"files","tool_description_policy":{"mode":"strip"}}]}"#,
    ),
];

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

fn main() {
    let mut paths = Vec::new();
    for d in DIRS {
        files(Path::new(d), &mut paths);
    }
    // The large adversarial files a test writes on demand
    // (testdata/make-large-adversarial.py, listed in testdata/.gitignore)
    // are left out, so the list is the same whether a test wrote them yet.
    let generated: Vec<PathBuf> = std::fs::read_to_string("testdata/.gitignore")
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.strip_prefix('/'))
        .map(|l| Path::new("testdata").join(l))
        .collect();
    paths.retain(|p| !generated.contains(p));
    paths.sort();
    let policies: Vec<(&str, mcp_guard::Policy)> =
        POLICIES.iter().map(|(n, j)| (*n, mcp_guard::Policy::from_json(j).unwrap())).collect();
    let option_sets = [
        ("plain", mcp_guard::SanitizeOptions::default()),
        (
            "server",
            mcp_guard::SanitizeOptions {
                server: Some("files".to_string()),
                foreign_names: ["read_file", "search", "list_files", "get_weather", "send_email"]
                    .map(String::from)
                    .to_vec(),
            },
        ),
    ];
    let mut n = 0;
    let mut line = String::new();
    for p in &paths {
        let text = std::fs::read_to_string(p).unwrap();
        for (pn, policy) in &policies {
            for (on, opts) in &option_sets {
                line.clear();
                write!(line, "{:?}", mcp_guard::sanitize(policy, &text, opts)).unwrap();
                let h = Sha256::digest(line.as_bytes());
                let hex: String = h.iter().map(|b| format!("{b:02x}")).collect();
                println!("{}\t{pn}\t{on}\t{hex}", p.display());
                n += 1;
            }
        }
    }
    eprintln!("{} catalogs, {n} outcomes", paths.len());
}
