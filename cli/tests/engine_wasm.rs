//! `--engine wasm` (feature `wasm`): the component in wasmtime gives the
//! same bytes on stdout and the same exit code as the native engine, for
//! the example catalog and every catalog of `testdata/`, real and
//! adversarial, under the default and the strict preset.
//!
//!   scripts/build-component.sh   # dist/mcp-guard.wasm
//!   cargo test -p mcp-guard-cli --features wasm --release
//!
//! The binary finds the component as a user's would (`dist/mcp-guard.wasm`
//! from the repo root, or `$MCP_GUARD_WASM`, which the children inherit).
#![cfg(feature = "wasm")]

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_mcp-guard");
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn example(name: &str) -> String {
    format!("{ROOT}/examples/{name}")
}

fn command(args: &[&str]) -> Command {
    let mut c = Command::new(BIN);
    c.current_dir(ROOT).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn run(args: &[&str]) -> Output {
    command(args).output().unwrap()
}

/// The same command under both engines, run side by side.
fn both(args: &[&str]) -> (Output, Output) {
    let with = |engine: &str| {
        let mut a = vec!["--engine", engine];
        a.extend_from_slice(args);
        command(&a).spawn().unwrap()
    };
    let (n, w) = (with("native"), with("wasm"));
    (n.wait_with_output().unwrap(), w.wait_with_output().unwrap())
}

fn code(o: &Output) -> i32 {
    o.status.code().expect("exited normally")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn component_present() {
    let p = std::env::var_os(mcp_guard_host::WASM_ENV)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(ROOT).join("dist/mcp-guard.wasm"));
    assert!(p.is_file(), "{} is missing: run scripts/build-component.sh", p.display());
}

#[path = "../../testdata/testdata.rs"]
mod testdata;

/// The example catalog, then every catalog of `testdata/`, real and
/// adversarial.
fn corpus() -> Vec<String> {
    let mut files = vec![PathBuf::from(example("poisoned-catalog.json"))];
    files.extend(testdata::json_files(&testdata::catalogs()));
    files.extend(testdata::json_files(&testdata::adversarial()));
    assert!(files.len() > 20, "testdata not found under {}", testdata::dir().display());
    files.into_iter().map(|p| p.to_str().unwrap().to_string()).collect()
}

/// Where two outputs first differ, for the failure message.
fn first_difference(a: &[u8], b: &[u8]) -> String {
    let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(a.len().min(b.len()));
    let lo = at.saturating_sub(60);
    format!(
        "first difference at byte {at} (lengths {} and {}):\n  native: {:?}\n  wasm:   {:?}",
        a.len(),
        b.len(),
        text(&a[lo..(at + 60).min(a.len())]),
        text(&b[lo..(at + 60).min(b.len())]),
    )
}

/// Same exit code and byte-identical stdout and stderr under both engines.
fn assert_same(args: &[&str]) -> i32 {
    let (n, w) = both(args);
    let label = args.join(" ");
    assert_eq!(
        code(&n),
        code(&w),
        "{label}: exit code\nnative stderr: {}\nwasm stderr: {}",
        text(&n.stderr),
        text(&w.stderr)
    );
    assert!(n.stdout == w.stdout, "{label}: stdout differs; {}", first_difference(&n.stdout, &w.stdout));
    // Not only stdout: the sanitize summary and the error lines come from the
    // same engine types, so stderr matches too.
    assert!(n.stderr == w.stderr, "{label}: stderr differs; {}", first_difference(&n.stderr, &w.stderr));
    code(&n)
}

/// Runs `command` on the whole corpus under `preset`; returns the exit codes seen.
fn corpus_parity(command: &str, preset: &str, extra: &[&str]) -> [usize; 3] {
    component_present();
    let mut codes = [0; 3];
    let files = corpus();
    for f in &files {
        let mut args = vec![command, f.as_str(), "--preset", preset];
        args.extend_from_slice(extra);
        let c = assert_same(&args);
        codes[usize::try_from(c).expect("exit code 0..=2").min(2)] += 1;
    }
    eprintln!("{command} --preset {preset}: {} catalogs, exit codes 0/1/2: {codes:?}, identical", files.len());
    assert_eq!(codes.iter().sum::<usize>(), files.len());
    codes
}

#[test]
fn check_json_is_identical_on_the_corpus_default_preset() {
    let [_, findings, _] = corpus_parity("check", "default", &["--format", "json"]);
    assert!(findings > 5, "the corpus has catalogs with findings");
}

#[test]
fn check_json_is_identical_on_the_corpus_strict_preset() {
    let [_, findings, _] = corpus_parity("check", "strict", &["--format", "json"]);
    assert!(findings > 5);
}

#[test]
fn sanitize_is_identical_on_the_corpus_default_preset() {
    let [ok, _, _] = corpus_parity("sanitize", "default", &[]);
    assert!(ok > 20, "most catalogs sanitize");
}

#[test]
fn sanitize_is_identical_on_the_corpus_strict_preset() {
    let [ok, _, _] = corpus_parity("sanitize", "strict", &[]);
    assert!(ok > 20);
}

#[test]
fn every_output_format_is_identical_on_the_example() {
    component_present();
    let cat = example("poisoned-catalog.json");
    let policy = example("strict-policy.json");
    for args in [
        &["check", &cat][..],
        &["check", &cat, "--color", "always"],
        &["check", &cat, "--format", "sarif"],
        &["check", &cat, "--format", "json", "--policy", &policy],
        &["check", &cat, "--format", "table", "--policy", &policy, "--server", "docs", "--fail-on", "critical"],
        &["check", &cat, "--preset", "permissive", "--foreign-names", "read_file,get_weather"],
        &["sanitize", &cat, "--pretty", "--policy", &policy],
        &["sanitize", &cat, "--server", "docs", "--foreign-names", "get_weather"],
    ] {
        assert_same(args);
    }
}

#[test]
fn engine_errors_are_identical() {
    component_present();
    let dir = std::env::temp_dir().join(format!("mcp-guard-cli-wasm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, body: &str| {
        let p = dir.join(name);
        std::fs::write(&p, body).unwrap();
        p.to_str().unwrap().to_string()
    };
    let bad_json = file("bad.json", r#"{"tools":[{"name":"a",}]}"#);
    let dup = file("dup.json", r#"{"tools":[],"tools":[]}"#);
    let envelope = file("env.json", r#"{"tool":[]}"#);
    let policy = file("policy.json", r#"{"catalog":{"max_catalog_bytes":"x"}}"#);
    for args in [
        &["check", &bad_json][..],
        &["sanitize", &dup],
        &["check", &envelope, "--format", "json"],
        &["check", &example("poisoned-catalog.json"), "--policy", &policy],
    ] {
        assert_eq!(assert_same(args), 2, "{args:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_component_path_comes_from_wasm_then_the_environment() {
    component_present();
    let cat = example("poisoned-catalog.json");
    let missing = "/nonexistent/mcp-guard.wasm";

    // --wasm wins over the environment.
    let good = Path::new(ROOT).join("dist/mcp-guard.wasm");
    let good = std::env::var(mcp_guard_host::WASM_ENV)
        .ok()
        .filter(|p| !p.is_empty())
        .unwrap_or_else(|| good.to_str().unwrap().to_string());
    let o = command(&["--engine", "wasm", "--wasm", &good, "check", &cat, "--format", "json"])
        .env(mcp_guard_host::WASM_ENV, missing)
        .output()
        .unwrap();
    assert_eq!(code(&o), 1, "{}", text(&o.stderr));
    assert_eq!(o.stdout, run(&["check", &cat, "--format", "json"]).stdout);

    // Then $MCP_GUARD_WASM, before dist/ of the current directory.
    let o =
        command(&["--engine", "wasm", "check", &cat]).env(mcp_guard_host::WASM_ENV, missing).output().unwrap();
    assert_eq!(code(&o), 2);
    let err = text(&o.stderr);
    assert!(
        err.starts_with("mcp-guard: error: wasm engine: cannot read the component /nonexistent/mcp-guard.wasm"),
        "{err}"
    );
    assert!(err.trim_end().ends_with("(kind: wasm)"), "{err}");
    assert!(o.stdout.is_empty());

    // A file that is not a component.
    let o = run(&["--engine", "wasm", "--wasm", &cat, "sanitize", &cat]);
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).trim_end().ends_with("(kind: wasm)"), "{}", text(&o.stderr));
    assert!(o.stdout.is_empty());
}
