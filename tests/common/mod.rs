//! Helpers shared by the engine's integration tests.

use std::path::PathBuf;

/// Every real catalog of `../shared/corpus/catalogs` as (file name, text),
/// sorted by name.
pub fn real_catalogs() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/catalogs");
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("shared corpus")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    out.sort();
    assert!(out.len() >= 20, "expected the shared corpus, found {} catalogs", out.len());
    out
}
