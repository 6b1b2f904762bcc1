//! `mcp-guard pin` and `mcp-guard diff`: pin a server's catalog in CI and
//! report drift later, the way mcp-scan users pin tool hashes — with the
//! engine's own pinning, so the digests are the ones a gateway
//! running the same policy computes.

use super::{print_out, read_catalog, term, EngineArgs, EngineChoice, EngineKind, Failure, EXIT_FINDINGS, EXIT_OK};
use crate::args::{Args, Tok};
use mcp_guard::json::{self, Object, Value};
use mcp_guard::pinning::{self, Baseline, DriftKind};
use mcp_guard::policy::PinningMode;
use mcp_guard::{Policy, SanitizeOptions};
use std::io::Write;

pub const USAGE_PIN: &str = "\
Usage: mcp-guard pin CATALOG.json [options] > baseline.json

Sanitizes the catalog and prints the baseline of what a client would see: one
SHA-256 digest per tool over the canonical (RFC 8785) form of the pinned fields
(core.tool_definition_pinning.fields). The baseline is opaque, versioned JSON;
keep it with your CI configuration and check later catalogs with `mcp-guard diff`.
Exit 0, or 2 on unusable input.

Options:
";

pub const USAGE_DIFF: &str = "\
Usage: mcp-guard diff BASELINE.json CATALOG.json [options]

Compares a catalog with a baseline written by `mcp-guard pin` (same policy and
--server) and reports drift: changed tools with the fields and places that
differ, new tools, removed tools (a rename is removed + new). Exit 0 when
nothing drifted, 1 on drift, 2 on unusable input (including a baseline from
another engine version, server, field set or dialect).

Options:
";

pub const PIN_OPTIONS: &str = "  --format FORMAT        table|json (diff; default: table)
  -h, --help             this help
";

/// Pinning must be on for these commands even under a policy that turns it
/// off for serving: the user asked for a pin.
fn pinning_on(mut p: Policy) -> Policy {
    for sp in p.server_policies_mut() {
        if sp.pinning.mode == PinningMode::Off {
            sp.pinning.mode = PinningMode::Warn;
        }
    }
    p
}

fn native_only(engine: &EngineChoice, what: &str) -> Result<(), Failure> {
    if engine.kind == EngineKind::Native {
        return Ok(());
    }
    // The component computes byte-identical baselines (host/tests/pinning.rs);
    // the CLI keeps one path for these commands.
    Err(Failure::Plain(format!("`{what}` runs the native engine only (its baselines equal the component's byte for byte)")))
}

pub fn pin(mut a: Args, engine: &EngineChoice) -> Result<u8, Failure> {
    a.set_command("pin");
    let mut eng = EngineArgs::default();
    while let Some(tok) = a.next()? {
        if eng.accept(&tok, &mut a)? {
            continue;
        }
        let Tok::Flag(f) = tok else { unreachable!("values are accepted by EngineArgs") };
        match f.as_str() {
            "-h" | "--help" => return print_out(&super::usage_for(Some("pin")), EXIT_OK),
            _ => return Err(a.error(format!("unknown option {f}")).into()),
        }
    }
    eng.finish(&a)?;
    native_only(engine, "pin")?;
    let policy = pinning_on(eng.policy()?.compiled);
    let path = eng.catalog.as_deref().unwrap_or("-");
    let input = read_catalog(path, policy.catalog.max_catalog_bytes)?;
    let opts = SanitizeOptions { server: eng.server.clone(), foreign_names: eng.foreign_names.clone() };
    let pinned = pinning::pin(&policy, &input, &opts).map_err(Failure::engine)?;
    let b = &pinned.baseline;
    let _ = writeln!(
        std::io::stderr().lock(),
        "mcp-guard: pinned {} tool(s) of {} ({} hidden); catalog digest {}",
        b.pins.len(),
        term::escape(path),
        pinned.outcome.hidden.len(),
        b.digest
    );
    print_out(&format!("{}\n", b.to_json()), EXIT_OK)
}

pub fn diff(mut a: Args, engine: &EngineChoice) -> Result<u8, Failure> {
    a.set_command("diff");
    let mut eng = EngineArgs::default();
    let mut baseline_path: Option<String> = None;
    let mut as_json = false;
    while let Some(tok) = a.next()? {
        if let Tok::Value(v) = &tok {
            if baseline_path.is_none() {
                baseline_path = Some(v.clone());
                continue;
            }
        }
        if eng.accept(&tok, &mut a)? {
            continue;
        }
        let Tok::Flag(f) = tok else { unreachable!("values are accepted by EngineArgs") };
        match f.as_str() {
            "-h" | "--help" => return print_out(&super::usage_for(Some("diff")), EXIT_OK),
            "--format" => as_json = a.choice(&["table", "json"])? == "json",
            _ => return Err(a.error(format!("unknown option {f}")).into()),
        }
    }
    let Some(baseline_path) = baseline_path else { return Err(a.error("missing BASELINE and CATALOG").into()) };
    eng.finish(&a)?;
    native_only(engine, "diff")?;
    let policy = pinning_on(eng.policy()?.compiled);
    let path = eng.catalog.as_deref().unwrap_or("-");
    if path == "-" && baseline_path == "-" {
        return Err(a.error("BASELINE and CATALOG cannot both be stdin").into());
    }
    // A baseline holds the pinned definitions: allow it a little more room
    // than a catalog.
    let baseline_text = read_catalog(&baseline_path, policy.catalog.max_catalog_bytes.saturating_mul(2))?;
    let baseline = Baseline::from_json(&baseline_text).map_err(Failure::engine)?;
    let input = read_catalog(path, policy.catalog.max_catalog_bytes)?;
    let opts = SanitizeOptions { server: eng.server.clone(), foreign_names: eng.foreign_names.clone() };
    let c = pinning::compare(&policy, &baseline, &input, &opts).map_err(Failure::engine)?;
    let text = if as_json { render_json(&c) } else { render_table(&baseline_path, path, &c) };
    print_out(&text, if c.drift.is_empty() { EXIT_OK } else { EXIT_FINDINGS })
}

fn render_table(baseline: &str, catalog: &str, c: &pinning::Compared) -> String {
    let count = |k: DriftKind| c.drift.iter().filter(|d| d.kind == k).count();
    let mut out = format!(
        "mcp-guard diff {} → {}: {}\n",
        term::escape(baseline),
        term::escape(catalog),
        if c.drift.is_empty() {
            "no drift".to_string()
        } else {
            format!(
                "{} drifted ({} changed, {} new, {} removed)",
                c.drift.len(),
                count(DriftKind::Changed),
                count(DriftKind::New),
                count(DriftKind::Removed)
            )
        }
    );
    for d in &c.drift {
        let note = if d.benign { "  (only reordered items: looks benign)" } else { "" };
        out.push_str(&format!("  {:<8} {}  {}{note}\n", d.kind.id(), term::escape(&d.name), d.fields.join(", ")));
        for ch in &d.changes {
            out.push_str(&format!("             {:<9} {}\n", ch.kind.id(), term::escape(&ch.pointer)));
        }
        if d.changes_truncated {
            out.push_str("             …\n");
        }
    }
    out
}

fn render_json(c: &pinning::Compared) -> String {
    let s = |x: &str| Value::str(x);
    let drift = c.drift.iter().map(|d| {
        let mut o = Object::new();
        o.insert("kind", s(d.kind.id()));
        o.insert("name", s(&d.name));
        o.insert("fields", Value::Array(d.fields.iter().map(|f| s(f)).collect()));
        let changes = d.changes.iter().map(|ch| {
            let mut e = Object::new();
            e.insert("pointer", s(&ch.pointer));
            e.insert("kind", s(ch.kind.id()));
            Value::Object(e)
        });
        o.insert("changes", Value::Array(changes.collect()));
        o.insert("changes_truncated", Value::Bool(d.changes_truncated));
        o.insert("benign", Value::Bool(d.benign));
        Value::Object(o)
    });
    let mut root = Object::new();
    root.insert("drift", Value::Array(drift.collect()));
    let mut text = json::write_pretty(&Value::Object(root));
    text.push('\n');
    text
}
