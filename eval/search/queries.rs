//! The labelled task queries of `eval/search/` (README there): one reader
//! for every test that uses them (the evaluation runner, tests/search_eval.rs,
//! and the component's ranking parity, host/tests/search_parity.rs), so the
//! split into development and held-back parts is read one way. Included by
//! path (`#[path = ".../eval/search/queries.rs"]`), not a crate.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

pub const CLASSES: [&str; 3] = ["vocab", "form", "sibling"];
pub const STYLES: [&str; 5] = ["do", "ask", "want", "terse", "story"];

pub struct Query {
    pub catalog: String,
    pub class: String,
    pub style: String,
    pub held: Option<&'static str>,
    pub expect: Vec<String>,
    pub text: String,
}

/// `split.txt`: held-back catalogs and styles.
fn split(dir: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let text = std::fs::read_to_string(dir.join("split.txt")).expect("split.txt");
    let (mut catalogs, mut styles) = (BTreeSet::new(), BTreeSet::new());
    for line in text.lines() {
        let line = line.split('#').next().unwrap().trim();
        if line.is_empty() {
            continue;
        }
        let (key, value) = line.split_once(char::is_whitespace).unwrap_or_else(|| panic!("split.txt: {line:?}"));
        match key {
            "held-catalog" => catalogs.insert(value.trim().to_string()),
            "held-style" => styles.insert(value.trim().to_string()),
            _ => panic!("split.txt: unknown key {key:?}"),
        };
    }
    (catalogs, styles)
}

/// The queries of `dir/queries/*.txt` (`dir`: `eval/search`), catalogs in
/// file-name order, queries in file order. `held_back: false` leaves the
/// held-back part out (its catalogs' files are not even opened): for a test
/// that needs no more than the development part.
pub fn read(dir: &Path, held_back: bool) -> Vec<Query> {
    let (held_catalogs, held_styles) = split(dir);
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("queries"))
        .expect("eval/search/queries")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let catalog = path.file_stem().unwrap().to_string_lossy().into_owned();
        if !held_back && held_catalogs.contains(&catalog) {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let at = format!("{}:{}", path.display(), n + 1);
            let mut parts = line.splitn(3, '|').map(str::trim);
            let (head, expect, query) = match (parts.next(), parts.next(), parts.next()) {
                (Some(h), Some(e), Some(q)) if !q.is_empty() => (h, e, q),
                _ => panic!("{at}: not `class style | tools | query`"),
            };
            let (class, style) = head.split_once(' ').unwrap_or_else(|| panic!("{at}: no style"));
            assert!(CLASSES.contains(&class), "{at}: class {class:?}");
            assert!(STYLES.contains(&style), "{at}: style {style:?}");
            let held = if held_catalogs.contains(&catalog) {
                Some("held-back catalog")
            } else if held_styles.contains(style) {
                Some("held-back style")
            } else {
                None
            };
            if held.is_some() && !held_back {
                continue;
            }
            out.push(Query {
                catalog: catalog.clone(),
                class: class.to_string(),
                style: style.to_string(),
                held,
                expect: expect.split(',').map(|e| e.trim().to_string()).collect(),
                text: query.to_string(),
            });
        }
    }
    out
}
