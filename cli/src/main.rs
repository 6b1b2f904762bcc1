//! `mcp-guard`: the command line over the `mcp_guard` engine.
//!
//! This crate only translates: arguments and files in, the engine's
//! `Outcome` out as a table, JSON or SARIF. Every decision about a catalog
//! is the engine's.
//!
//! Exit codes: 0 clean enough, 1 findings at or above `--fail-on` (or a tool
//! hidden), 2 unusable input or command line.

#![forbid(unsafe_code)]

mod args;
mod json_out;
mod pin_cmd;
mod pins;
mod proxy;
mod report;
mod sarif;
mod table;
mod term;
#[cfg(feature = "wasm")]
mod wasm_engine;

use args::{Args, Tok, UsageError};
use mcp_guard::{Error, Outcome, Policy, Preset, SanitizeOptions, Severity};
use std::io::{self, IsTerminal, Read, Write};
use std::process::ExitCode;

const EXIT_OK: u8 = 0;
const EXIT_FINDINGS: u8 = 1;
const EXIT_UNUSABLE: u8 = 2;

const USAGE: &str = "\
mcp-guard — a firewall for MCP tool metadata

Usage:
  mcp-guard [global options] check CATALOG.json [options]     report what the engine would change
  mcp-guard [global options] sanitize CATALOG.json [options]  print the sanitized catalog
  mcp-guard pin CATALOG.json [options] > baseline.json        pin what a client would see
  mcp-guard diff BASELINE.json CATALOG.json [options]         report drift since the pin
  mcp-guard proxy [options] -- COMMAND [ARGS...]              run a stdio MCP server behind the engine
  mcp-guard pins list|show|approve|forget [SERVER] [TOOL...]  review the pins the proxy keeps across runs
  mcp-guard help [COMMAND]
  mcp-guard --version

CATALOG.json is the result of a tools/list call ({\"tools\": [...]}); `-` reads stdin.
Run `mcp-guard help check` or `mcp-guard help sanitize` for the options.

Global options (before the command):
  --engine ENGINE        native (default): the engine compiled into this binary;
                         wasm: the same engine as the WebAssembly component
                         (dist/mcp-guard.wasm) in a wasmtime sandbox, same output.
                         {WASM_STATUS}
  --wasm FILE            the component for --engine wasm (default: $MCP_GUARD_WASM,
                         else dist/mcp-guard.wasm in the current directory, else
                         the one in the source tree)

Exit codes: 0 ok, 1 findings at or above --fail-on or a tool hidden (check),
2 unusable input or command line.
";

const ENGINE_OPTIONS: &str = "  --policy FILE          policy JSON (see README.md, section Policy); names its own preset
  --preset NAME          default|strict|permissive, when no --policy is given
  --server ID            server id: selects servers[] overrides and the name prefix
  --foreign-names A,B    tool names other servers expose (look-alike checks)
  --dialect TARGET       none|gemini|openai-strict|anthropic|portable: normalize schemas
                         for that model API (sets core.schema_dialect.target)
";

const USAGE_CHECK: &str = "\
Usage: mcp-guard check CATALOG.json [options]

Runs the engine and reports every finding. Exit 0 when no finding reaches
--fail-on and no tool is hidden, 1 otherwise, 2 on unusable input.

Options:
";

const CHECK_OPTIONS: &str = "  --fail-on SEVERITY     info|low|medium|high|critical (default: medium)
  --footprint            also estimate the listing's model tokens (bytes / 4): the full
                         sanitized catalog vs the discovery surface (core.discovery;
                         turned on with no core tools if the policy has it off)
  --format FORMAT        table|json|sarif (default: table)
  --color WHEN           auto|always|never (default: auto; auto honours NO_COLOR)
  -h, --help             this help
";

const USAGE_SANITIZE: &str = "\
Usage: mcp-guard sanitize CATALOG.json [options]

Prints the sanitized tools/list result on stdout (compact JSON, exactly what a
client would receive) and a one-line summary on stderr. Exit 0, or 2 on
unusable input.

Options:
";

const SANITIZE_OPTIONS: &str = "  --pretty               indent the output (two spaces)
  -h, --help             this help
";

const GLOBAL_HINT: &str = "\
Global options go before the command: --engine native|wasm, --wasm FILE
(mcp-guard --engine wasm check CATALOG.json); see `mcp-guard --help`.
";

/// Whether `--engine wasm` is compiled in (the `wasm` cargo feature).
const WASM_BUILT: bool = cfg!(feature = "wasm");

/// Why `--engine wasm` fails in a build without it.
const NO_WASM: &str =
    "this mcp-guard was built without the wasm engine; rebuild with `cargo build -p mcp-guard-cli --features wasm`";

fn usage_for(command: Option<&str>) -> String {
    match command {
        Some("check") => format!("{USAGE_CHECK}{ENGINE_OPTIONS}{CHECK_OPTIONS}\n{GLOBAL_HINT}"),
        Some("sanitize") => format!("{USAGE_SANITIZE}{ENGINE_OPTIONS}{SANITIZE_OPTIONS}\n{GLOBAL_HINT}"),
        Some("pin") => format!("{}{ENGINE_OPTIONS}{}", pin_cmd::USAGE_PIN, pin_cmd::PIN_OPTIONS),
        Some("diff") => format!("{}{ENGINE_OPTIONS}{}", pin_cmd::USAGE_DIFF, pin_cmd::PIN_OPTIONS),
        Some("proxy") => proxy::USAGE.to_string(),
        Some("pins") => pins::USAGE.to_string(),
        _ => {
            let status = if WASM_BUILT {
                "This build has both engines."
            } else {
                "Not in this build: `cargo build -p mcp-guard-cli --features wasm`."
            };
            USAGE.replace("{WASM_STATUS}", status)
        }
    }
}

/// What went wrong, by exit code 2.
enum Failure {
    /// The command line: message plus usage.
    Usage(UsageError),
    /// The input or the policy: one line.
    Unusable { message: String, kind: &'static str },
    /// Anything else that stops the run before the engine: one line.
    Plain(String),
}

impl From<UsageError> for Failure {
    fn from(e: UsageError) -> Failure {
        Failure::Usage(e)
    }
}

impl Failure {
    fn engine(e: Error) -> Failure {
        Failure::Unusable { message: e.to_string(), kind: e.kind() }
    }
}

fn main() -> ExitCode {
    let mut argv = Vec::new();
    for a in std::env::args_os().skip(1) {
        match a.into_string() {
            Ok(s) => argv.push(s),
            Err(a) => {
                return fail(Failure::Usage(UsageError::new(
                    None,
                    format!("argument {} is not valid UTF-8", term::escape(&a.to_string_lossy())),
                )))
            }
        }
    }
    match run(argv) {
        Ok(code) => ExitCode::from(code),
        Err(f) => fail(f),
    }
}

fn fail(f: Failure) -> ExitCode {
    let mut err = io::stderr().lock();
    match f {
        Failure::Usage(e) => {
            let _ = writeln!(err, "mcp-guard: error: {}\n\n{}", term::escape(&e.message), usage_for(e.command));
        }
        Failure::Unusable { message, kind } => {
            let _ = writeln!(err, "mcp-guard: error: {} (kind: {kind})", term::escape(&message));
        }
        Failure::Plain(message) => {
            let _ = writeln!(err, "mcp-guard: error: {}", term::escape(&message));
        }
    }
    ExitCode::from(EXIT_UNUSABLE)
}

/// Which implementation `run_engine` calls (global option `--engine`).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
enum EngineKind {
    /// The `mcp_guard` crate linked into this binary.
    #[default]
    Native,
    /// The component `dist/mcp-guard.wasm` in wasmtime (feature `wasm`).
    Wasm,
}

/// The global options: the engine and, for `wasm`, the component file.
#[derive(Default)]
struct EngineChoice {
    kind: EngineKind,
    wasm: Option<String>,
}

/// Global options, then one subcommand.
fn run(argv: Vec<String>) -> Result<u8, Failure> {
    let mut a = Args::new(argv);
    // Global options come before the subcommand; they select what
    // `run_engine` calls.
    let mut engine = EngineChoice::default();
    let command = loop {
        match a.next()? {
            None => return Err(UsageError::new(None, "no command given").into()),
            Some(Tok::Flag(f)) if f == "-h" || f == "--help" => return print_out(&usage_for(None), EXIT_OK),
            Some(Tok::Flag(f)) if f == "-V" || f == "--version" => {
                let v = format!("mcp-guard {} (engine {})\n", env!("CARGO_PKG_VERSION"), mcp_guard::ENGINE_VERSION);
                return print_out(&v, EXIT_OK);
            }
            Some(Tok::Flag(f)) if f == "--engine" => {
                engine.kind = match a.choice(&["native", "wasm"])? {
                    "wasm" if !WASM_BUILT => return Err(Failure::Plain(NO_WASM.to_string())),
                    "wasm" => EngineKind::Wasm,
                    _ => EngineKind::Native,
                }
            }
            Some(Tok::Flag(f)) if f == "--wasm" => engine.wasm = Some(a.value()?),
            Some(Tok::Flag(f)) => return Err(UsageError::new(None, format!("unknown option {f}")).into()),
            Some(Tok::Value(cmd)) => break cmd,
        }
    };
    if engine.wasm.is_some() && engine.kind != EngineKind::Wasm {
        return Err(UsageError::new(None, "--wasm FILE only applies with --engine wasm").into());
    }
    let rest = Args::new(a.rest());
    match command.as_str() {
        "check" => check(rest, &engine),
        "sanitize" => sanitize(rest, &engine),
        "proxy" => proxy::run(rest, &engine),
        "pin" => pin_cmd::pin(rest, &engine),
        "diff" => pin_cmd::diff(rest, &engine),
        "pins" => pins::run(rest),
        "help" => help(rest),
        other => Err(UsageError::new(None, format!("unknown command {other:?}")).into()),
    }
}

fn help(mut a: Args) -> Result<u8, Failure> {
    let topic = match a.next()? {
        None => None,
        Some(Tok::Value(v)) if ["check", "sanitize", "pin", "diff", "proxy", "pins"].contains(&v.as_str()) => Some(v),
        Some(Tok::Value(v)) => return Err(UsageError::new(None, format!("no help for {v:?}")).into()),
        Some(Tok::Flag(f)) => return Err(UsageError::new(None, format!("unknown option {f}")).into()),
    };
    if let Some(extra) = a.next()? {
        return Err(UsageError::new(None, format!("unexpected argument {extra:?}")).into());
    }
    print_out(&usage_for(topic.as_deref()), EXIT_OK)
}

/// Options every engine-running subcommand accepts.
#[derive(Default)]
struct EngineArgs {
    catalog: Option<String>,
    policy: Option<String>,
    preset: Option<Preset>,
    server: Option<String>,
    foreign_names: Vec<String>,
    dialect: Option<String>,
}

impl EngineArgs {
    /// Consumes `tok` if it is one of the shared options or the catalog path.
    fn accept(&mut self, tok: &Tok, a: &mut Args) -> Result<bool, UsageError> {
        match tok {
            Tok::Value(v) => {
                if self.catalog.is_some() {
                    return Err(a.error(format!("only one CATALOG is accepted (also got {v:?})")));
                }
                self.catalog = Some(v.clone());
            }
            Tok::Flag(f) => match f.as_str() {
                "--policy" => self.policy = Some(a.value()?),
                "--preset" => {
                    self.preset = Some(match a.choice(&["default", "strict", "permissive"])? {
                        "strict" => Preset::Strict,
                        "permissive" => Preset::Permissive,
                        _ => Preset::Default,
                    })
                }
                "--server" => self.server = Some(a.value()?),
                "--dialect" => {
                    self.dialect =
                        Some(a.choice(&["none", "gemini", "openai-strict", "anthropic", "portable"])?.to_string())
                }
                "--foreign-names" => self
                    .foreign_names
                    .extend(a.value()?.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string)),
                "--engine" | "--wasm" => return Err(a.error(format!(
                    "{f} is a global option: give it before the command (mcp-guard --engine wasm check CATALOG.json)"
                ))),
                _ => return Ok(false),
            },
        }
        Ok(true)
    }

    fn finish(&self, a: &Args) -> Result<(), UsageError> {
        if self.catalog.is_none() {
            return Err(a.error("missing CATALOG (a file path, or - for stdin)"));
        }
        if self.policy.is_some() && self.preset.is_some() {
            // Which would win is not obvious; a policy file says `"preset"` itself.
            return Err(a.error("give either --policy or --preset (a policy file names its preset with \"preset\")"));
        }
        Ok(())
    }

    fn policy(&self) -> Result<LoadedPolicy, Failure> {
        let loaded = self.policy_as_given()?;
        let Some(target) = &self.dialect else { return Ok(loaded) };
        // `--dialect` sets `core.schema_dialect.target` in the policy document
        // itself, so the native engine and the component compile the same
        // policy (a `servers[]` entry that sets its own target still wins).
        let mut doc = mcp_guard::json::parse(&loaded.json, Default::default()).map_err(|e| Failure::Plain(e.to_string()))?.value;
        let root = doc.as_object_mut().ok_or_else(|| Failure::Plain("policy is not an object".into()))?;
        object_member(object_member(root, "core")?, "schema_dialect")?.insert("target", mcp_guard::json::Value::str(target.clone()));
        let json = mcp_guard::json::write_compact(&doc);
        let compiled = Policy::from_json(&json).map_err(Failure::engine)?;
        Ok(LoadedPolicy { compiled, json })
    }

    fn policy_as_given(&self) -> Result<LoadedPolicy, Failure> {
        match (&self.policy, self.preset) {
            (Some(path), _) => {
                let bytes = std::fs::read(path).map_err(|e| Failure::Unusable {
                    message: format!("cannot read policy {}: {e}", term::escape(path)),
                    kind: "io",
                })?;
                // Not UTF-8 is `invalid-json`, as for every input in every host
                // (README, "Strings that cannot cross"), not an I/O failure.
                let text = utf8_text(bytes)?;
                let compiled = Policy::from_json(&text).map_err(Failure::engine)?;
                Ok(LoadedPolicy { compiled, json: text })
            }
            (None, p) => {
                let p = p.unwrap_or(Preset::Default);
                Ok(LoadedPolicy { compiled: Policy::preset(p), json: format!("{{\"preset\":\"{}\"}}", p.id()) })
            }
        }
    }

    /// Loads everything and runs the engine: (display path, input text, outcome).
    fn run(&self, engine: &EngineChoice) -> Result<(String, String, Outcome), Failure> {
        let policy = self.policy()?;
        let path = self.catalog.as_deref().unwrap_or("-");
        let input = read_catalog(path, policy.compiled.catalog.max_catalog_bytes)?;
        let opts = SanitizeOptions { server: self.server.clone(), foreign_names: self.foreign_names.clone() };
        let outcome = run_engine(engine, &policy, &input, &opts)?;
        let display = if path == "-" { "<stdin>".to_string() } else { path.to_string() };
        Ok((display, input, outcome))
    }
}

/// A policy compiled natively (the CLI needs its catalog size cap before
/// reading the catalog) and the JSON it came from (what the component
/// compiles for itself under `--engine wasm`).
struct LoadedPolicy {
    compiled: Policy,
    #[cfg_attr(not(feature = "wasm"), allow(dead_code))]
    json: String,
}

/// The one call into the engine: the native crate, or the component under
/// `--engine wasm`. Both answer with the engine's own types, so everything
/// after this call is the same code whichever engine ran.
fn run_engine(
    engine: &EngineChoice,
    policy: &LoadedPolicy,
    input: &str,
    opts: &SanitizeOptions,
) -> Result<Outcome, Failure> {
    match engine.kind {
        EngineKind::Native => mcp_guard::sanitize(&policy.compiled, input, opts).map_err(Failure::engine),
        #[cfg(feature = "wasm")]
        EngineKind::Wasm => {
            let wasm = wasm_engine::component_path(engine.wasm.as_deref());
            let max = policy.compiled.catalog.max_catalog_bytes;
            match wasm_engine::sanitize(&wasm, &policy.json, max, input, opts) {
                Ok(result) => result.map_err(Failure::engine),
                Err(message) => Err(Failure::Unusable { message: format!("wasm engine: {message}"), kind: "wasm" }),
            }
        }
        // Refused while parsing the global options; kept for completeness.
        #[cfg(not(feature = "wasm"))]
        EngineKind::Wasm => Err(Failure::Plain(NO_WASM.to_string())),
    }
}

/// Reads a catalog without ever holding more than `limit + 1` bytes: an
/// oversized stdin is drained to count it, not buffered.
fn read_catalog(path: &str, limit: u64) -> Result<String, Failure> {
    let io_err = |e: io::Error| Failure::Unusable {
        message: format!("cannot read {}: {e}", if path == "-" { "stdin".to_string() } else { term::escape(path) }),
        kind: "io",
    };
    let mut bytes = Vec::new();
    let total = if path == "-" {
        let mut stdin = io::stdin().lock();
        let n = (&mut stdin).take(limit + 1).read_to_end(&mut bytes).map_err(io_err)? as u64;
        if n > limit {
            n + io::copy(&mut stdin, &mut io::sink()).map_err(io_err)?
        } else {
            n
        }
    } else {
        let mut file = std::fs::File::open(path).map_err(io_err)?;
        if file.metadata().map_err(io_err)?.is_dir() {
            return Err(io_err(io::Error::other("is a directory")));
        }
        (&mut file).take(limit + 1).read_to_end(&mut bytes).map_err(io_err)?;
        file.metadata().map_err(io_err)?.len().max(bytes.len() as u64)
    };
    if total > limit {
        return Err(Failure::engine(Error::TooLarge { limit, actual: total }));
    }
    utf8_text(bytes)
}

/// RFC 8259 §8.1: JSON exchanged between systems is UTF-8. Bytes that are
/// not (a stray 0xFF, a surrogate encoded as UTF-8) are `invalid-json` at
/// the first bad byte; nothing is replaced.
fn utf8_text(bytes: Vec<u8>) -> Result<String, Failure> {
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        Failure::engine(Error::InvalidJson { offset: at as u64, reason: format!("invalid UTF-8 at byte {at}") })
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Table,
    Json,
    Sarif,
}

fn check(mut a: Args, engine: &EngineChoice) -> Result<u8, Failure> {
    a.set_command("check");
    let mut eng = EngineArgs::default();
    let mut fail_on = Severity::Medium;
    let mut format = Format::Table;
    let mut color = "auto";
    let mut footprint = false;
    while let Some(tok) = a.next()? {
        if eng.accept(&tok, &mut a)? {
            continue;
        }
        let Tok::Flag(f) = tok else { unreachable!("values are accepted by EngineArgs") };
        match f.as_str() {
            "-h" | "--help" => return print_out(&usage_for(Some("check")), EXIT_OK),
            "--footprint" => footprint = true,
            "--fail-on" => {
                let v = a.choice(&["info", "low", "medium", "high", "critical"])?;
                fail_on = Severity::from_id(v).unwrap_or(Severity::Medium);
            }
            "--format" => {
                format = match a.choice(&["table", "json", "sarif"])? {
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    _ => Format::Table,
                }
            }
            "--color" | "--colour" => color = a.choice(&["auto", "always", "never"])?,
            _ => return Err(a.error(format!("unknown option {f}")).into()),
        }
    }
    eng.finish(&a)?;
    let (path, input, outcome) = eng.run(engine)?;
    let r = report::Report { path: &path, input: &input, outcome: &outcome, fail_on };
    let text = match format {
        Format::Table => {
            let tty = io::stdout().is_terminal();
            let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
            let on = match color {
                "always" => true,
                "never" => false,
                _ => tty && !no_color,
            };
            table::render(&r, term::Style { color: on })
        }
        Format::Json => json_out::render(&r),
        Format::Sarif => sarif::render(&r),
    };
    let code = if r.exit_code() == 0 { EXIT_OK } else { EXIT_FINDINGS };
    let mut text = text;
    if footprint {
        let line = footprint_line(&eng, &input)?;
        if format == Format::Table {
            text.push_str(&line);
        } else {
            let _ = write!(io::stderr().lock(), "{line}");
        }
    }
    print_out(&text, code)
}

/// Full sanitized catalog vs the discovery surface, in estimated tokens.
fn footprint_line(eng: &EngineArgs, input: &str) -> Result<String, Failure> {
    let mut on = eng.policy()?.compiled;
    let mut policy = on.clone();
    let opts = SanitizeOptions { server: eng.server.clone(), foreign_names: eng.foreign_names.clone() };
    for sp in policy.server_policies_mut() {
        sp.discovery.on = false;
    }
    let full = mcp_guard::sanitize(&policy, input, &opts).map_err(Failure::engine)?;
    for sp in on.server_policies_mut() {
        sp.discovery.on = true;
    }
    let surface = mcp_guard::sanitize(&on, input, &opts).map_err(Failure::engine)?;
    let count = |c: &str| {
        mcp_guard::json::parse(c, mcp_guard::json::ParseOptions { max_depth: 256 })
            .ok()
            .and_then(|p| p.value.as_object().and_then(|o| o.get("tools")).and_then(|t| t.as_array()).map(Vec::len))
            .unwrap_or(0)
    };
    let (a, b) = (mcp_guard::discovery::estimate_tokens(&full.catalog), mcp_guard::discovery::estimate_tokens(&surface.catalog));
    let saved = if a == 0 { 0.0 } else { 100.0 * (1.0 - b as f64 / a as f64) };
    Ok(format!(
        "footprint (estimated tokens, bytes/4): full catalog {} tools ≈ {a}; discovery surface {} tools ≈ {b} ({saved:.1}% smaller)\n",
        count(&full.catalog),
        count(&surface.catalog)
    ))
}

fn sanitize(mut a: Args, engine: &EngineChoice) -> Result<u8, Failure> {
    a.set_command("sanitize");
    let mut eng = EngineArgs::default();
    let mut pretty = false;
    while let Some(tok) = a.next()? {
        if eng.accept(&tok, &mut a)? {
            continue;
        }
        let Tok::Flag(f) = tok else { unreachable!("values are accepted by EngineArgs") };
        match f.as_str() {
            "-h" | "--help" => return print_out(&usage_for(Some("sanitize")), EXIT_OK),
            "--pretty" => pretty = true,
            _ => return Err(a.error(format!("unknown option {f}")).into()),
        }
    }
    eng.finish(&a)?;
    let (path, input, outcome) = eng.run(engine)?;
    let mut text = if pretty {
        // The engine wrote this text itself, so it parses; depth is bounded
        // by the input's, which the policy capped at ≤ 256.
        let parsed =
            mcp_guard::json::parse(&outcome.catalog, mcp_guard::json::ParseOptions { max_depth: 256 }).map_err(
                |e| Failure::Unusable { message: format!("re-reading the sanitized catalog: {e}"), kind: "other" },
            )?;
        mcp_guard::json::write_pretty(&parsed.value)
    } else {
        outcome.catalog.clone()
    };
    text.push('\n');
    let r = report::Report { path: &path, input: &input, outcome: &outcome, fail_on: Severity::Medium };
    let _ = writeln!(io::stderr().lock(), "mcp-guard: {}; {}", r.header(), r.findings_line());
    print_out(&text, EXIT_OK)
}

/// Writes to stdout. A closed pipe (`| head`) is not an error worth a
/// message; any other write failure is exit 2.
fn print_out(text: &str, code: u8) -> Result<u8, Failure> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(code),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(code),
        Err(e) => Err(Failure::Unusable { message: format!("cannot write to stdout: {e}"), kind: "io" }),
    }
}

/// `o[key]` as an object, made one (replacing whatever was there) if it is
/// not: where `--dialect` writes its setting into the policy document.
fn object_member<'o>(o: &'o mut mcp_guard::json::Object, key: &str) -> Result<&'o mut mcp_guard::json::Object, Failure> {
    if !matches!(o.get(key), Some(mcp_guard::json::Value::Object(_))) {
        o.insert(key, mcp_guard::json::Value::Object(Default::default()));
    }
    o.get_mut(key).and_then(|v| v.as_object_mut()).ok_or_else(|| Failure::Plain(format!("policy: {key} is not an object")))
}
