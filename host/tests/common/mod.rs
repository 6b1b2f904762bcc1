//! Helpers shared by the host test binaries.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::LazyLock;

use mcp_guard_host::{GuardHost, GuardInstance, Limits};

/// The component, compiled once per test binary.
pub static HOST: LazyLock<GuardHost> = LazyLock::new(|| match GuardHost::load() {
    Ok(h) => h,
    Err(e) => panic!("{e:#}"),
});

/// A fresh instance with the default limits.
pub fn instance() -> GuardInstance {
    HOST.instantiate(Limits::default()).expect("instantiate the component")
}

#[path = "../../../testdata/testdata.rs"]
pub mod testdata;
#[allow(unused_imports)]
pub use testdata::json_files;

/// The workspace root.
pub fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A `wasm-tools` command: `$WASM_TOOLS`, the venv the build script makes,
/// or `wasm-tools` on PATH.
pub fn wasm_tools() -> Command {
    if let Some(p) = std::env::var_os("WASM_TOOLS").filter(|p| !p.is_empty()) {
        return Command::new(p);
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target"));
    let venv = target.join("tools/venv/bin/wasm-tools");
    if venv.is_file() {
        Command::new(venv)
    } else {
        Command::new("wasm-tools")
    }
}
