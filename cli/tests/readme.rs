//! The documents' examples run: a README that shows a command, a client
//! entry or a policy that no longer works would send every newcomer down a
//! dead end, so each runnable snippet is executed here against the built
//! binary.
//!
//! - `sh` blocks: every line that starts with `mcp-guard ` (or the README's
//!   `cargo run -q -p mcp-guard-cli -- `) and names no placeholder runs in a
//!   scratch folder holding `examples/` and `testdata/`, through `sh`, so
//!   redirections work; it must exit with the code its `# exit N` comment
//!   names, or the comment lines just above it (`exit code N`), else 0. Usage lines (`[--flag]`, `CATALOG.json`)
//!   are not examples and are skipped.
//! - `json` blocks: every one must be strict JSON (the engine's own parser,
//!   duplicate keys refused). An MCP client entry (`mcpServers`) must start a
//!   proxy that accepts its options (the server command is replaced by
//!   `true`, which exits at once); a policy (`core` or `preset` at the top)
//!   must be accepted by `check`.

use mcp_guard::json::{self, ParseOptions, Value};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-guard");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

#[path = "../../testdata/testdata.rs"]
mod testdata;

/// The documents whose snippets are checked.
const DOCS: &[&str] = &["README.md", "cli/README.md", "docs/engine.md"];

/// Fenced code blocks of a Markdown file as (info string, body, line of the fence).
fn blocks(path: &str) -> Vec<(String, String, usize)> {
    let text = std::fs::read_to_string(Path::new(ROOT).join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut out = Vec::new();
    let mut open: Option<(String, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => open = Some((info.trim().to_string(), String::new(), i + 1)),
            (Some(_), Some(_)) => out.push(open.take().unwrap()),
            (Some((_, body, _)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "{path}: unclosed code block");
    out
}

/// A scratch folder with the repository's `examples/` and `testdata/` (the
/// paths the snippets use), so a snippet's output files land outside the
/// repository.
fn scratch(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("mcp-guard-readme-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    for name in ["examples", "testdata"] {
        let link = d.join(name);
        if !link.exists() {
            std::os::unix::fs::symlink(Path::new(ROOT).join(name), &link).unwrap();
        }
    }
    // The large adversarial files, in case a snippet names one.
    testdata::adversarial();
    d
}

/// The exit code a comment names (`exit 1`, `exit code 1`), if any.
fn exit_code(comment: &str) -> Option<i32> {
    let words: Vec<&str> = comment.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "exit")?;
    let n = words[at + 1..].iter().find(|w| **w != "code")?;
    n.trim_end_matches(|c: char| !c.is_ascii_digit()).parse().ok()
}

/// The `mcp-guard …` command of a shell line and its expected exit code, or
/// None when the line is not a runnable example. `above`: the exit code the
/// comment lines just above named.
fn example(line: &str, above: Option<i32>) -> Option<(String, i32)> {
    let (cmd, comment) = match line.split_once(" #") {
        Some((c, k)) => (c.trim(), k.trim()),
        None => (line.trim(), ""),
    };
    let cmd = match cmd.strip_prefix("cargo run -q -p mcp-guard-cli -- ") {
        Some(args) => format!("mcp-guard {args}"),
        None if cmd.starts_with("mcp-guard ") => cmd.to_string(),
        None => return None,
    };
    let placeholder =
        cmd.contains('[') || cmd.contains("...") || cmd.contains('…') || cmd.chars().any(|c| c.is_ascii_uppercase());
    if placeholder {
        return None;
    }
    Some((cmd, exit_code(comment).or(above).unwrap_or(0)))
}

#[test]
fn every_cli_example_in_the_documents_runs_with_the_exit_code_it_names() {
    let bin_dir = Path::new(BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default());
    let mut ran = 0;
    for doc in DOCS {
        let dir = scratch(&doc.replace('/', "-"));
        for (info, body, at) in blocks(doc) {
            if info != "sh" {
                continue;
            }
            let mut above = None;
            for line in body.lines() {
                if let Some(comment) = line.trim_start().strip_prefix('#') {
                    above = exit_code(comment).or(above);
                    continue;
                }
                let Some((cmd, want)) = example(line, above.take()) else { continue };
                let o = Command::new("sh").arg("-c").arg(&cmd).current_dir(&dir).env("PATH", &path).output().unwrap();
                assert_eq!(
                    o.status.code(),
                    Some(want),
                    "{doc}:{at}: `{cmd}`\nstdout: {}\nstderr: {}",
                    String::from_utf8_lossy(&o.stdout),
                    String::from_utf8_lossy(&o.stderr)
                );
                ran += 1;
            }
        }
    }
    // README's first command, the CLI section's pin/diff pair and check.
    assert!(ran >= 4, "only {ran} examples found: did the documents' shape change?");
}

#[test]
fn the_readme_first_command_is_the_one_that_exits_1_on_the_poisoned_example() {
    let readme = std::fs::read_to_string(Path::new(ROOT).join("README.md")).unwrap();
    let first =
        "cargo run -q -p mcp-guard-cli -- check examples/poisoned-catalog.json --policy examples/strict-policy.json";
    assert!(readme.contains(first), "README.md no longer shows the first command");
    let o = Command::new(BIN)
        .current_dir(ROOT)
        .args(["check", "examples/poisoned-catalog.json", "--policy", "examples/strict-policy.json"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn every_json_snippet_is_strict_json_and_every_client_entry_and_policy_is_accepted() {
    let (mut entries, mut policies) = (0, 0);
    for doc in DOCS {
        let dir = scratch(&format!("json-{}", doc.replace('/', "-")));
        for (info, body, at) in blocks(doc) {
            if info != "json" {
                continue;
            }
            let v = json::parse(&body, ParseOptions::default()).unwrap_or_else(|e| panic!("{doc}:{at}: {e:?}")).value;
            let top = v.as_object().unwrap_or_else(|| panic!("{doc}:{at}: not an object"));
            if let Some(servers) = top.get("mcpServers").and_then(Value::as_object) {
                for (name, server) in servers.iter() {
                    let args: Vec<&str> = server
                        .as_object()
                        .and_then(|s| s.get("args"))
                        .and_then(Value::as_array)
                        .unwrap_or_else(|| panic!("{doc}:{at}: {name}: no args"))
                        .iter()
                        .map(|a| a.as_str().expect("string arg"))
                        .collect();
                    // A remote entry (`--url`): the URL is replaced by a
                    // loopback one and stdin is closed at once (the proxy
                    // then exits 0); `${VAR}`s in headers get a value.
                    let remote = args.contains(&"--url");
                    let sep = if remote {
                        args.len()
                    } else {
                        args.iter().position(|a| *a == "--").expect("`--` before the server command")
                    };
                    // A policy file the snippet names is the user's; the
                    // example policy stands in for it.
                    let mut url_next = false;
                    let mine: Vec<&str> = args[..sep]
                        .iter()
                        .map(|a| {
                            let url = std::mem::replace(&mut url_next, *a == "--url");
                            if url {
                                "http://127.0.0.1:9/mcp"
                            } else if a.ends_with(".json") {
                                "examples/strict-policy.json"
                            } else {
                                a
                            }
                        })
                        .collect();
                    let mut c = Command::new(BIN);
                    // Pin records (the proxy's default) land in the scratch
                    // folder, never in the user's state directory.
                    c.current_dir(&dir).args(&mine).stdin(Stdio::null()).env("XDG_STATE_HOME", dir.join("state"));
                    if !remote {
                        c.args(["--", "true"]);
                    }
                    for a in &mine {
                        for var in a.split("${").skip(1).filter_map(|r| r.split_once('}')).map(|(v, _)| v) {
                            c.env(var, "readme-test-value");
                        }
                    }
                    let o = c.output().unwrap();
                    assert_eq!(o.status.code(), Some(0), "{doc}:{at}: {name}: {}", String::from_utf8_lossy(&o.stderr));
                    entries += 1;
                }
            } else if top.get("core").is_some() || top.get("preset").is_some() {
                let policy = dir.join(format!("policy-{at}.json"));
                std::fs::write(&policy, &body).unwrap();
                let o = Command::new(BIN)
                    .current_dir(&dir)
                    .args(["check", "examples/poisoned-catalog.json", "--policy", policy.to_str().unwrap()])
                    .stdin(Stdio::null())
                    .output()
                    .unwrap();
                assert_ne!(
                    o.status.code(),
                    Some(2),
                    "{doc}:{at}: policy refused: {}",
                    String::from_utf8_lossy(&o.stderr)
                );
                policies += 1;
            }
        }
    }
    assert!(
        entries >= 2 && policies >= 1,
        "{entries} client entries, {policies} policies: did the documents' shape change?"
    );
}
