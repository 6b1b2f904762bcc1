//! Runs the built `mcp-guard` binary. Tests are named after what they stop.

use mcp_guard::json::{self, ParseOptions, Value};
use mcp_guard::{Policy, SanitizeOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-guard");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn example(name: &str) -> String {
    format!("{ROOT}/examples/{name}")
}

/// A fresh directory under the system temp dir, unique per test.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "mcp-guard-cli-{}-{}-{tag}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, body: impl AsRef<[u8]>) -> String {
    let p = dir.join(name);
    std::fs::write(&p, body).unwrap();
    p.to_str().unwrap().to_string()
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).current_dir(ROOT).args(args).stdin(Stdio::null()).output().unwrap()
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn parse(text: &str) -> Value {
    json::parse(text, ParseOptions::default()).unwrap().value
}

fn get<'a>(v: &'a Value, pointer: &str) -> &'a Value {
    json::pointer_get(v, pointer).unwrap_or_else(|| panic!("no {pointer} in {}", json::write_pretty(v)))
}

fn str_at<'a>(v: &'a Value, pointer: &str) -> &'a str {
    get(v, pointer).as_str().unwrap_or_else(|| panic!("{pointer} is not a string"))
}

fn strict_policy() -> Policy {
    Policy::from_json(&std::fs::read_to_string(example("strict-policy.json")).unwrap()).unwrap()
}

const CLEAN: &str = r#"{"tools":[{"name":"get_weather","description":"Get the weather.","inputSchema":{"type":"object","properties":{"city":{"type":"string"}}}}]}"#;

// ---------------------------------------------------------------- exit codes

#[test]
fn clean_catalog_exits_0() {
    let d = temp_dir("clean");
    let p = write(&d, "clean.json", CLEAN);
    let o = run(&["check", &p]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    assert!(stdout(&o).contains("1 tool: 1 clean, 0 rewritten, 0 truncated, 0 hidden, 0 flagged"));
}

#[test]
fn readme_first_command_exits_1_and_names_every_attack() {
    let o = run(&["check", &example("poisoned-catalog.json"), "--policy", &example("strict-policy.json")]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let out = stdout(&o);
    for needle in [
        "invisible-removed",
        "hidden tag text decoded",
        "description-truncated",
        "name-mapped",
        "read_file<U+000A>Ignore",
        "schema-keyword-dropped",
        "/tools/4/inputSchema/$comment",
        "schema-limit",
        "name-duplicate",
        "result-key-dropped",
        "FAIL:",
    ] {
        assert!(out.contains(needle), "missing {needle:?} in\n{out}");
    }
    // The header counts what the library reports.
    let input = std::fs::read_to_string(example("poisoned-catalog.json")).unwrap();
    let lib = mcp_guard::sanitize(&strict_policy(), &input, &SanitizeOptions::default()).unwrap();
    let count = |s: &str| lib.tools.iter().filter(|t| t.status.id() == s).count();
    let header = format!(
        "{} tools: {} clean, {} rewritten, {} truncated, {} hidden, {} flagged",
        lib.tools.len(),
        count("clean"),
        count("rewritten"),
        count("truncated"),
        count("hidden"),
        lib.tools.iter().filter(|t| t.flagged).count()
    );
    assert!(out.lines().next().unwrap().ends_with(&header), "{out}");
}

#[test]
fn info_findings_pass_the_default_threshold_but_not_fail_on_info() {
    // An x- keyword is dropped with an info finding and nothing is hidden.
    let d = temp_dir("info");
    let p = write(&d, "c.json", r#"{"tools":[{"name":"t","inputSchema":{"type":"object","x-extra":1}}]}"#);
    assert_eq!(code(&run(&["check", &p])), 0);
    assert_eq!(code(&run(&["check", &p, "--fail-on", "low"])), 0);
    assert_eq!(code(&run(&["check", &p, "--fail-on=info"])), 1);
}

#[test]
fn a_hidden_tool_fails_even_above_its_severity() {
    let d = temp_dir("hidden");
    let p = write(
        &d,
        "c.json",
        r#"{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}"#,
    );
    let o = run(&["check", &p, "--fail-on", "critical"]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("2 hidden"));
}

fn assert_unusable(o: &Output, kind: &str) {
    assert_eq!(code(o), 2, "stdout: {}\nstderr: {}", stdout(o), stderr(o));
    let err = stderr(o);
    assert!(err.starts_with("mcp-guard: error: "), "{err}");
    assert!(err.trim_end().ends_with(&format!("(kind: {kind})")), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "one line: {err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn invalid_json_exits_2_with_the_error_kind() {
    let d = temp_dir("badjson");
    let p = write(&d, "bad.json", r#"{"tools": [,]}"#);
    assert_unusable(&run(&["check", &p]), "invalid-json");
    assert_unusable(&run(&["sanitize", &p]), "invalid-json");
}

#[test]
fn duplicate_keys_exit_2_instead_of_picking_one() {
    let d = temp_dir("dupkey");
    let p = write(&d, "dup.json", r#"{"tools":[],"tools":[{"name":"x","inputSchema":{}}]}"#);
    assert_unusable(&run(&["check", &p]), "duplicate-key");
}

#[test]
fn not_a_tools_list_result_exits_2() {
    let d = temp_dir("envelope");
    let p = write(&d, "e.json", r#"{"result":{"tools":[]}}"#);
    assert_unusable(&run(&["check", &p]), "invalid-envelope");
}

#[test]
fn invalid_utf8_exits_2_as_invalid_json() {
    let d = temp_dir("utf8");
    let p = write(&d, "u.json", b"{\"tools\":[{\"name\":\"\xff\"}]}");
    assert_unusable(&run(&["check", &p]), "invalid-json");
}

include!("../../parity/fixture_bytes.rs");

/// parity/surrogates.json, the cases every host runs (README, "Strings that
/// cannot cross"): escaped lone surrogates are refused under the input's own
/// error kind, an escaped pair is the one character it encodes, and bytes
/// that are not UTF-8 (a stray 0xFF, a surrogate encoded as UTF-8) are
/// `invalid-json` whether they are the catalog or the policy.
#[test]
fn lone_surrogates_and_bytes_that_are_not_utf8_are_refused_as_in_every_host() {
    let fixture = std::fs::read_to_string(format!("{ROOT}/parity/surrogates.json")).unwrap();
    let fixture = parse(&fixture);
    let d = temp_dir("surrogates");
    let clean = write(&d, "clean.json", CLEAN);
    let text = |v: &Value, p: &str| get(v, p).as_str().unwrap().to_string();
    let mut ran = 0;
    for (section, field) in [("/json_text", "/text"), ("/not_utf8", "/bytes")] {
        for (i, c) in get(&fixture, section).as_array().unwrap().iter().enumerate() {
            let case = text(c, "/case");
            let body = if field == "/bytes" { fixture_bytes(&text(c, field)) } else { text(c, field).into_bytes() };
            let f = write(&d, &format!("{}-{i}.json", &section[1..]), body);
            let o = match text(c, "/argument").as_str() {
                "catalog" => run(&["sanitize", &f]),
                "policy" => run(&["check", &clean, "--policy", &f]),
                "baseline" => run(&["diff", &f, &clean]),
                // A schema or call arguments alone: no command takes them
                // (the proxy refuses a line that is not strict JSON whole).
                _ => continue,
            };
            match json::pointer_get(c, "/expect/error") {
                Some(kind) => assert_unusable(&o, kind.as_str().unwrap()),
                None => {
                    assert_eq!(code(&o), 0, "{case}: {}", stderr(&o));
                    let served = parse(&stdout(&o));
                    assert_eq!(get(&served, "/tools/0/description"), get(c, "/expect/served_description"), "{case}");
                }
            }
            ran += 1;
        }
    }
    assert!(ran >= 12, "{ran} cases");
}

#[test]
fn missing_file_exits_2() {
    assert_unusable(&run(&["check", "/nonexistent/mcp-guard/catalog.json"]), "io");
}

#[test]
fn invalid_policy_exits_2_naming_the_field() {
    let d = temp_dir("policy");
    let p = write(&d, "c.json", CLEAN);
    let pol = write(&d, "p.json", r#"{"core":{"tool_names":{"prefix":true}}}"#);
    let o = run(&["check", &p, "--policy", &pol]);
    assert_unusable(&o, "invalid-policy");
    assert!(stderr(&o).contains("core.tool_names.prefix"));
}

#[test]
fn oversized_stdin_exits_2_too_large() {
    // strict: 4 MiB. Send a little more; it is counted, not buffered.
    let big = format!("{{\"tools\":[],\"pad\":\"{}\"}}", "a".repeat(4 << 20));
    let o = run_stdin(&["check", "-", "--preset", "strict"], big.as_bytes());
    assert_unusable(&o, "too-large");
    assert!(stderr(&o).contains(&format!("input is {} bytes", big.len())), "{}", stderr(&o));
}

// ---------------------------------------------------------- command line

#[test]
fn unknown_flag_prints_usage_and_exits_2() {
    let o = run(&["check", "x.json", "--frobnicate"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("unknown option --frobnicate"), "{err}");
    assert!(err.contains("Usage: mcp-guard check"), "{err}");
    assert!(o.stdout.is_empty());
}

#[test]
fn bad_flag_values_and_unknown_commands_exit_2() {
    for args in [
        &["check", "x.json", "--fail-on", "severe"][..],
        &["check", "x.json", "--format", "xml"],
        &["check", "x.json", "--color"],
        &["check"],
        &["check", "a.json", "b.json"],
        &["check", "a.json", "--preset", "strict", "--policy", "p.json"],
        &["sanitize", "a.json", "--pretty=yes"],
        &["frobnicate"],
        &["--frobnicate"],
        &[],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("Usage:"), "{args:?}");
    }
}

#[test]
fn help_and_version_exit_0() {
    for args in [&["--help"][..], &["-h"], &["help"], &["help", "check"], &["check", "--help"], &["sanitize", "-h"]] {
        let o = run(args);
        assert_eq!(code(&o), 0, "{args:?}");
        assert!(stdout(&o).contains("Usage:"), "{args:?}");
    }
    let o = run(&["--version"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("mcp-guard "));
    assert!(stdout(&o).contains(mcp_guard::ENGINE_VERSION));
}

#[test]
fn dash_reads_the_catalog_from_stdin() {
    let o = run_stdin(&["check", "-", "--format", "json"], CLEAN.as_bytes());
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(str_at(&parse(&stdout(&o)), "/catalog_path"), "<stdin>");
}

// ---------------------------------------------------------- terminal safety

#[test]
fn piped_table_output_has_no_escape_bytes() {
    let o = run(&["check", &example("poisoned-catalog.json"), "--policy", &example("strict-policy.json")]);
    assert!(!o.stdout.contains(&0x1b), "{}", stdout(&o));
}

/// A name, a property name and a description carrying CSI, OSC (window
/// title), C1 CSI, a bidi override and a line break.
const HOSTILE: &str = r#"{"tools":[{"name":"evil\u001b[2J\u001b]0;pwned\u0007\u009b31m\u202egnp.exe\nline2",
  "description":"ok\u001b[31m red",
  "inputSchema":{"type":"object","properties":{"p\u001b[1mq":{"type":"string"}}}}]}"#;

#[test]
fn hostile_ansi_tool_name_never_reaches_the_terminal() {
    let d = temp_dir("ansi");
    let p = write(&d, "hostile.json", HOSTILE);
    let o = run(&["check", &p, "--preset", "permissive"]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    assert!(!o.stdout.contains(&0x1b), "{out}");
    for raw in ['\u{9b}', '\u{202e}', '\u{7}'] {
        assert!(!out.contains(raw), "raw {raw:?} in {out}");
    }
    assert!(out.contains("evil<U+001B>[2J<U+001B>]0;pwned<U+0007><U+009B>31m<U+202E>gnp.exe<U+000A>line2"), "{out}");
    // Every report line stays one line: the name's newline did not split it.
    assert!(!out.lines().any(|l| l.starts_with("line2")), "{out}");
}

#[test]
fn forced_color_emits_only_our_own_sgr_sequences() {
    let d = temp_dir("ansi-color");
    let p = write(&d, "hostile.json", HOSTILE);
    let o = run(&["check", &p, "--color", "always"]);
    let out = &o.stdout;
    assert!(out.contains(&0x1b), "colors were requested");
    // Each ESC starts `[` digits/semicolons `m`, and nothing else.
    for (i, _) in out.iter().enumerate().filter(|(_, b)| **b == 0x1b) {
        let rest = &out[i + 1..];
        assert_eq!(rest[0], b'[');
        let end = rest.iter().position(|b| *b == b'm').expect("SGR ends with m");
        assert!(rest[1..end].iter().all(|b| b.is_ascii_digit() || *b == b';'), "{:?}", &rest[..end]);
    }
}

#[test]
fn no_color_does_not_override_color_always() {
    let o = Command::new(BIN)
        .args(["check", &example("poisoned-catalog.json"), "--color", "always"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(o.stdout.contains(&0x1b));
}

// ---------------------------------------------------------- JSON report

#[test]
fn json_report_findings_equal_the_library_findings() {
    let path = example("poisoned-catalog.json");
    let o = run(&["check", &path, "--policy", &example("strict-policy.json"), "--format", "json"]);
    assert_eq!(code(&o), 1);
    let doc = parse(&stdout(&o));
    let input = std::fs::read_to_string(&path).unwrap();
    let lib = mcp_guard::sanitize(&strict_policy(), &input, &SanitizeOptions::default()).unwrap();

    let findings = get(&doc, "/findings").as_array().unwrap();
    assert_eq!(findings.len(), lib.findings.len());
    assert!(!lib.findings.is_empty());
    for (j, f) in findings.iter().zip(&lib.findings) {
        assert_eq!(str_at(j, "/kind"), f.kind.id());
        assert_eq!(str_at(j, "/severity"), f.severity.id());
        assert_eq!(get(j, "/tool").as_str(), f.tool.as_deref());
        match f.tool_index {
            Some(i) => assert_eq!(json::write_compact(get(j, "/tool_index")), i.to_string()),
            None => assert_eq!(get(j, "/tool_index"), &Value::Null),
        }
        assert_eq!(str_at(j, "/pointer"), f.pointer);
        assert_eq!(str_at(j, "/action"), f.action.id());
        assert_eq!(str_at(j, "/detail"), f.detail);
        // The pointer resolves in the input document (RFC 6901).
        assert!(json::pointer_get(&parse(&input), &f.pointer).is_some(), "{}", f.pointer);
    }

    let tools = get(&doc, "/tools").as_array().unwrap();
    assert_eq!(tools.len(), lib.tools.len());
    for (j, t) in tools.iter().zip(&lib.tools) {
        assert_eq!(str_at(j, "/status"), t.status.id());
        assert_eq!(get(j, "/name").as_str(), t.name.as_deref());
        assert_eq!(get(j, "/visible_name").as_str(), t.visible_name.as_deref());
    }
    assert_eq!(get(&doc, "/hidden").as_array().unwrap().len(), lib.hidden.len());
    assert_eq!(get(&doc, "/name_map").as_array().unwrap().len(), lib.name_map.len());
    assert_eq!(str_at(&doc, "/catalog_path"), path);
    let hidden = lib.tools.iter().filter(|t| t.status.id() == "hidden").count();
    assert_eq!(json::write_compact(get(&doc, "/summary/hidden")), hidden.to_string());
    assert_eq!(json::write_compact(get(&doc, "/summary/exit_code")), "1");
}

// ---------------------------------------------------------- SARIF

#[test]
fn sarif_log_has_the_required_2_1_0_structure() {
    // Relative to the working directory, as code scanning expects.
    let path = "examples/poisoned-catalog.json";
    let o = run(&["check", path, "--policy", &example("strict-policy.json"), "--format", "sarif"]);
    assert_eq!(code(&o), 1);
    let log = parse(&stdout(&o));
    assert_eq!(str_at(&log, "/version"), "2.1.0");
    assert!(str_at(&log, "/$schema").starts_with("https://") && str_at(&log, "/$schema").contains("sarif"));
    let runs = get(&log, "/runs").as_array().unwrap();
    assert_eq!(runs.len(), 1);
    let r = &runs[0];
    assert_eq!(str_at(r, "/tool/driver/name"), "mcp-guard");
    assert_eq!(str_at(r, "/tool/driver/version"), mcp_guard::ENGINE_VERSION);

    let input = std::fs::read_to_string(example("poisoned-catalog.json")).unwrap();
    let lib = mcp_guard::sanitize(&strict_policy(), &input, &SanitizeOptions::default()).unwrap();
    let mut kinds: Vec<&str> = lib.findings.iter().map(|f| f.kind.id()).collect();
    kinds.sort();
    kinds.dedup();
    let rules = get(r, "/tool/driver/rules").as_array().unwrap();
    let mut rule_ids: Vec<&str> = rules.iter().map(|x| str_at(x, "/id")).collect();
    rule_ids.sort();
    assert_eq!(rule_ids, kinds, "one rule per kind that occurs");
    for rule in rules {
        assert!(!str_at(rule, "/shortDescription/text").is_empty());
    }

    let results = get(r, "/results").as_array().unwrap();
    assert_eq!(results.len(), lib.findings.len());
    for (res, f) in results.iter().zip(&lib.findings) {
        assert_eq!(str_at(res, "/ruleId"), f.kind.id());
        let idx: usize = json::write_compact(get(res, "/ruleIndex")).parse().unwrap();
        assert_eq!(str_at(&rules[idx], "/id"), f.kind.id());
        let want = match f.severity.id() {
            "critical" | "high" => "error",
            "medium" | "low" => "warning",
            _ => "note",
        };
        assert_eq!(str_at(res, "/level"), want);
        assert_eq!(str_at(res, "/message/text"), f.detail);
        assert_eq!(str_at(res, "/locations/0/physicalLocation/artifactLocation/uri"), path);
        assert_eq!(str_at(res, "/locations/0/logicalLocations/0/fullyQualifiedName"), f.pointer);
        assert_eq!(str_at(res, "/properties/pointer"), f.pointer);
        if let Some(i) = f.tool_index {
            // The region starts where the tool's raw text starts.
            let start = lib.tools[i as usize].raw_span.0 as usize;
            let line = input[..start].matches('\n').count() + 1;
            assert_eq!(
                json::write_compact(get(res, "/locations/0/physicalLocation/region/startLine")),
                line.to_string()
            );
        }
    }
}

#[test]
fn sarif_for_a_clean_catalog_has_empty_rules_and_results() {
    let d = temp_dir("sarif-clean");
    let p = write(&d, "clean.json", CLEAN);
    let o = run(&["check", &p, "--format", "sarif"]);
    assert_eq!(code(&o), 0);
    let log = parse(&stdout(&o));
    assert_eq!(get(&log, "/runs/0/results").as_array().unwrap().len(), 0);
    assert_eq!(get(&log, "/runs/0/tool/driver/rules").as_array().unwrap().len(), 0);
}

// ---------------------------------------------------------- sanitize

#[test]
fn sanitize_prints_exactly_the_engine_catalog() {
    let path = example("poisoned-catalog.json");
    let input = std::fs::read_to_string(&path).unwrap();
    let lib = mcp_guard::sanitize(&strict_policy(), &input, &SanitizeOptions::default()).unwrap();
    let o = run(&["sanitize", &path, "--policy", &example("strict-policy.json")]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), format!("{}\n", lib.catalog));
    assert!(stderr(&o).contains("8 tools:"), "{}", stderr(&o));

    // Same bytes through stdin.
    let o = run_stdin(&["sanitize", "-", "--policy", &example("strict-policy.json")], input.as_bytes());
    assert_eq!(stdout(&o), format!("{}\n", lib.catalog));
}

#[test]
fn sanitize_pretty_is_the_same_document() {
    let path = example("poisoned-catalog.json");
    let compact = stdout(&run(&["sanitize", &path]));
    let pretty = stdout(&run(&["sanitize", &path, "--pretty"]));
    assert_ne!(compact, pretty);
    assert_eq!(parse(&compact), parse(&pretty));
}

#[test]
fn sanitize_honours_server_and_foreign_names() {
    let d = temp_dir("server");
    let p = write(&d, "c.json", CLEAN);
    let pol = write(&d, "p.json", r#"{"core":{"tool_names":{"server_prefix":true}}}"#);
    let o = run(&["sanitize", &p, "--policy", &pol, "--server", "wx"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains(r#""name":"wx__get_weather""#), "{}", stdout(&o));
    // A look-alike from another server (Cyrillic а) is reported like the library does.
    let o = run(&["check", &p, "--foreign-names", "list_files, get_we\u{430}ther", "--format", "json"]);
    let foreign = vec!["list_files".to_string(), "get_we\u{430}ther".to_string()];
    let lib = mcp_guard::sanitize(&Policy::default(), CLEAN, &SanitizeOptions { server: None, foreign_names: foreign })
        .unwrap();
    assert!(lib.findings.iter().any(|f| f.kind.id() == "name-confusable"), "{:?}", lib.findings);
    let kinds: Vec<String> = get(&parse(&stdout(&o)), "/findings")
        .as_array()
        .unwrap()
        .iter()
        .map(|f| str_at(f, "/kind").to_string())
        .collect();
    assert_eq!(kinds, lib.findings.iter().map(|f| f.kind.id().to_string()).collect::<Vec<_>>());
}

// ---------------------------------------------------------------- --engine

#[test]
fn engine_native_is_the_default_and_a_global_option() {
    let p = example("poisoned-catalog.json");
    let plain = run(&["check", &p, "--format", "json"]);
    let native = run(&["--engine", "native", "check", &p, "--format", "json"]);
    let inline = run(&["--engine=native", "check", &p, "--format", "json"]);
    assert_eq!(code(&plain), 1, "{}", stderr(&plain));
    for o in [&native, &inline] {
        assert_eq!(code(o), code(&plain));
        assert_eq!(o.stdout, plain.stdout);
    }
}

#[test]
fn engine_after_the_command_or_misused_exits_2_with_usage() {
    let p = example("poisoned-catalog.json");
    let o = run(&["check", &p, "--engine", "native"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--engine is a global option: give it before the command"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    for args in [
        &["--engine", "v8", "check", &p][..],
        &["--engine"],
        &["--wasm", "x.wasm", "check", &p],
        &["--engine", "native", "--wasm", "x.wasm", "check", &p],
        &["sanitize", &p, "--wasm", "x.wasm"],
    ] {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("Usage:"), "{args:?}: {}", stderr(&o));
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
#[cfg(not(feature = "wasm"))]
fn engine_wasm_without_the_feature_exits_2_saying_how_to_rebuild() {
    let p = example("poisoned-catalog.json");
    for args in [&["--engine", "wasm", "check", &p][..], &["--engine=wasm", "sanitize", &p], &["--engine", "wasm"]] {
        let o = run(args);
        assert_eq!(code(&o), 2, "{args:?}");
        assert_eq!(
            stderr(&o),
            "mcp-guard: error: this mcp-guard was built without the wasm engine; \
             rebuild with `cargo build -p mcp-guard-cli --features wasm`\n",
            "{args:?}"
        );
        assert!(o.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn dialect_flag_normalizes_for_the_target() {
    let dir = std::env::temp_dir().join(format!("mcp-guard-dialect-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let cat = dir.join("c.json");
    std::fs::write(&cat, r#"{"tools":[{"name":"a.b","inputSchema":{"type":"object","properties":{"q":{"oneOf":[{"const":"x"},{"const":"y"}]}}}}]}"#).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-guard"))
        .args(["sanitize", cat.to_str().unwrap(), "--dialect", "openai-strict"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // Dots are not allowed in OpenAI tool names; every object is closed.
    assert!(text.contains(r#""name":"a_b""#), "{text}");
    assert!(text.contains(r#""additionalProperties":false"#), "{text}");
    assert!(!text.contains("oneOf"), "{text}");
    let bad = std::process::Command::new(env!("CARGO_BIN_EXE_mcp-guard"))
        .args(["sanitize", cat.to_str().unwrap(), "--dialect", "klingon"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
}

// -- pin / diff ---------------------------------------------------------------

#[path = "../../testdata/testdata.rs"]
mod testdata;

fn adversarial(name: &str) -> String {
    testdata::adversarial().join(name).to_str().unwrap().to_string()
}

#[test]
fn pin_then_diff_reports_the_rug_pull_and_exits_1() {
    let dir = temp_dir("pin");
    let pinned = run(&["pin", &adversarial("16-rug-pull-v1.json")]);
    assert_eq!(code(&pinned), 0, "{}", stderr(&pinned));
    let baseline = write(&dir, "baseline.json", stdout(&pinned));
    let b = parse(&stdout(&pinned));
    assert_eq!(str_at(&b, "/format"), "mcp-guard-baseline/2");
    assert_eq!(str_at(&b, "/pins/0/name"), "get_stock_price");
    assert!(stderr(&pinned).contains("pinned 1 tool(s)"));

    let same = run(&["diff", &baseline, &adversarial("16-rug-pull-v1.json")]);
    assert_eq!(code(&same), 0, "{}", stdout(&same));
    assert!(stdout(&same).contains("no drift"));

    let drift = run(&["diff", &baseline, &adversarial("16-rug-pull-v2.json")]);
    assert_eq!(code(&drift), 1);
    let out = stdout(&drift);
    assert!(out.contains("changed  get_stock_price  description, inputSchema"), "{out}");
    assert!(out.contains("added     /inputSchema/properties/memo"), "{out}");

    let j = run(&["diff", &baseline, &adversarial("16-rug-pull-v2.json"), "--format", "json"]);
    let v = parse(&stdout(&j));
    assert_eq!(str_at(&v, "/drift/0/kind"), "changed");
    assert_eq!(str_at(&v, "/drift/0/changes/0/pointer"), "/description");
}

#[test]
fn diff_refuses_unusable_baselines_with_exit_2() {
    let dir = temp_dir("diff-bad");
    let not_baseline = write(&dir, "b.json", r#"{"tools":[]}"#);
    let o = run(&["diff", &not_baseline, &adversarial("16-rug-pull-v1.json")]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("invalid-baseline"), "{}", stderr(&o));
    // Pinned for no server id, compared for another server.
    let pinned = run(&["pin", &adversarial("16-rug-pull-v1.json")]);
    let baseline = write(&dir, "baseline.json", stdout(&pinned));
    let o = run(&["diff", &baseline, &adversarial("16-rug-pull-v1.json"), "--server", "other"]);
    assert_eq!(code(&o), 2);
    assert!(run(&["diff", &baseline]).status.code() == Some(2));
}

#[test]
fn check_footprint_compares_the_full_catalog_with_the_discovery_surface() {
    let catalog = testdata::catalogs().join("playwright__mcp@0.0.83.json").to_str().unwrap().to_string();
    let o = run(&["check", &catalog, "--footprint", "--fail-on", "critical"]);
    let out = stdout(&o);
    let line = out.lines().find(|l| l.starts_with("footprint")).unwrap_or_else(|| panic!("{out}"));
    assert!(line.contains("discovery surface 3 tools"), "{line}");
    assert!(line.contains("% smaller"), "{line}");
    // Without the flag, no footprint.
    assert!(!stdout(&run(&["check", &catalog, "--fail-on", "critical"])).contains("footprint"));
}
