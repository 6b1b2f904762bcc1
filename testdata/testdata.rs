//! Where the repository's test data is (`testdata/README.md` says where it
//! came from), for every test crate of the workspace. Included by path, not
//! a crate, so the engine's tests, the CLI's and the component host's share
//! one copy without a dependency between them:
//!
//! ```ignore
//! #[path = "../testdata/testdata.rs"]
//! mod testdata;
//! ```
//!
//! The three large adversarial catalogs are not committed: the first call
//! of [`adversarial`] writes them with `testdata/make-large-adversarial.py`
//! (byte for byte the published files, checked by SHA-256), so a fresh clone
//! tests the same inputs as the corpus they were taken from.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `<workspace>/testdata`: the first ancestor of the including crate's
/// manifest folder that holds it (the crates sit at different depths).
pub fn dir() -> PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .ancestors()
            .map(|a| a.join("testdata"))
            .find(|d| d.join("make-large-adversarial.py").is_file())
            .expect("testdata/ not found above CARGO_MANIFEST_DIR")
    })
    .clone()
}

/// Real `tools/list` results of published servers, one file per server
/// (`testdata/catalogs/INDEX.md`).
pub fn catalogs() -> PathBuf {
    dir().join("catalogs")
}

/// Hand-made attack catalogs with `expectations.jsonl`, the generated
/// large files included.
pub fn adversarial() -> PathBuf {
    static READY: OnceLock<()> = OnceLock::new();
    READY.get_or_init(|| {
        let script = dir().join("make-large-adversarial.py");
        let status = std::process::Command::new("python3")
            .arg(&script)
            .status()
            .unwrap_or_else(|e| panic!("python3 {}: {e} (python3 writes the large adversarial files)", script.display()));
        assert!(status.success(), "{} failed: {status}", script.display());
    });
    dir().join("adversarial")
}

/// Every tool of `catalogs/` in one `{"tools":[…]}` (names prefixed
/// `<server>__`), the benchmarks' input.
pub fn bench_catalog() -> PathBuf {
    dir().join("bench/shared-real-tools.json")
}

/// Sorted `*.json` files of a folder (panics if unreadable).
pub fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The mediation conformance cases (`conformance/mediation/*.json`,
/// scripted conversations every host replays), beside `testdata/`.
pub fn mediation_cases() -> Vec<PathBuf> {
    json_files(&dir().parent().expect("testdata/ has a parent").join("conformance/mediation"))
}

/// The wide real corpus: 233 further published servers, one compact
/// `{"tools":[…]}` per file (`testdata/catalogs-wide/INDEX.md`), kept out of
/// [`catalogs`] so the everyday tests stay fast; read by the evaluation
/// runners (false positives on real tools).
pub fn catalogs_wide() -> PathBuf {
    dir().join("catalogs-wide")
}

/// Its split by server (`catalogs-wide-split.json`): what tuning may look at
/// (`development`) and what it never did (`held_out`).
pub fn catalogs_wide_split() -> PathBuf {
    dir().join("catalogs-wide-split.json")
}
