//! Helpers shared by the engine's integration tests.

#[path = "../../testdata/testdata.rs"]
pub mod testdata;

/// Every real catalog of `testdata/catalogs` as (file name, text), sorted by
/// name.
pub fn real_catalogs() -> Vec<(String, String)> {
    let out: Vec<(String, String)> = testdata::json_files(&testdata::catalogs())
        .into_iter()
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    assert!(out.len() >= 20, "expected the real catalogs, found {}", out.len());
    out
}
