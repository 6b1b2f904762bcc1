//! `--engine wasm`: the engine as the WebAssembly component
//! (`dist/mcp-guard.wasm`, built by `scripts/build-component.sh`), run in the
//! wasmtime host of `host/` (`GuardHost`).
//!
//! The component answers in WIT types; they are turned back into the
//! engine's own `Outcome` / `Error` here, so every output format is rendered
//! by the same code as a native run and comes out byte for byte the same.
//! Only compiled with the `wasm` feature (it pulls in wasmtime).

use std::path::{Path, PathBuf};

use mcp_guard::{Error, Outcome, SanitizeOptions};
use mcp_guard_host::{options_from_native, to_native, GuardHost, Limits, WASM_ENV};

/// The component file: `--wasm PATH`, else `$MCP_GUARD_WASM`, else
/// `dist/mcp-guard.wasm` in the current directory, else the one in the
/// source tree this binary was built from.
pub fn component_path(explicit: Option<&str>) -> PathBuf {
    if let Some(p) = explicit {
        return PathBuf::from(p);
    }
    if let Some(p) = std::env::var_os(WASM_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    let here = Path::new("dist/mcp-guard.wasm");
    if here.is_file() {
        return here.to_path_buf();
    }
    // The env var is handled above, so this is `<repo>/dist/mcp-guard.wasm`.
    mcp_guard_host::wasm_path()
}

/// Sandbox limits for one CLI run: no fuel budget (metering off, it only
/// slows the guest down), and linear memory sized to the catalogs the policy
/// admits: the host crate's default (256 MiB, enough for the default 16 MiB
/// cap), or 16× a larger cap, within wasm32's 4 GiB.
fn limits(max_catalog_bytes: u64) -> Limits {
    let default = Limits::default();
    let wanted = max_catalog_bytes.saturating_mul(16).min(4 << 30);
    let memory_bytes = default.memory_bytes.max(usize::try_from(wanted).unwrap_or(usize::MAX));
    Limits { memory_bytes, fuel: None }
}

/// Compiles `policy_json` and sanitizes `input` inside the component.
/// Outer `Err`: the host failed (component missing or invalid, a trap, a
/// finding kind the engine does not know), as one line. Inner: the engine's
/// own answer, converted to the native types.
pub fn sanitize(
    wasm: &Path,
    policy_json: &str,
    max_catalog_bytes: u64,
    input: &str,
    opts: &SanitizeOptions,
) -> Result<Result<Outcome, Error>, String> {
    let host = GuardHost::from_file(wasm, false).map_err(|e| format!("{e:#}"))?;
    let mut instance = host.instantiate(limits(max_catalog_bytes)).map_err(|e| format!("{e:#}"))?;
    let raw = instance
        .sanitize_once(policy_json, input, &options_from_native(opts))
        .map_err(|e| format!("the component trapped: {e:#}"))?;
    to_native(raw)
}
