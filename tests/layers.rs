//! The engine's modules import one way only, from the pipeline's stages down
//! to JSON and text: a module may name (`crate::x`) only modules of its own
//! layer or below. The layers, bottom up, are below; a new module must be
//! placed in one. (Modules of one layer that named each other in a circle —
//! policy, stages, dialect, poison and ctx did — are what this stops.)

const LAYERS: &[&[&str]] = &[
    // Data and text: no policy, no stage.
    &["swar", "json", "keyword", "text", "finding", "error", "jcs", "pattern", "schema", "markup"],
    // The detector: rules over text.
    &["poison"],
    // The policy: data, holding the compiled detector.
    &["policy"],
    // Per-tool bookkeeping of a run.
    &["ctx"],
    // Schema dialects, used by stages and the call gate.
    &["dialect"],
    // The pipeline's stages.
    &["stages"],
    // What runs the stages and what hosts call.
    &["pipeline", "pinning", "discovery", "jsonrpc", "mediate", "lib"],
];

fn layer(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

#[test]
fn modules_import_only_their_own_layer_or_below() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![src.clone()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                files.push(p);
            }
        }
    }
    let mut bad = Vec::new();
    for f in files {
        let rel = f.strip_prefix(&src).unwrap();
        let module = rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string();
        let Some(mine) = layer(&module) else {
            bad.push(format!("{}: module {module:?} is in no layer", rel.display()));
            continue;
        };
        // Code only: a doc comment may point at any module.
        let text: String = std::fs::read_to_string(&f)
            .unwrap()
            .lines()
            .map(|l| l.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        for (i, _) in text.match_indices("crate::") {
            let name: String = text[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            // `crate::Error`, `crate::Policy`: re-exports at the crate root.
            if name.starts_with(|c: char| c.is_ascii_uppercase()) || name.is_empty() {
                continue;
            }
            match layer(&name) {
                Some(l) if l <= mine => {}
                Some(l) => bad.push(format!("{} ({module}, layer {mine}) names crate::{name} (layer {l})", rel.display())),
                None => bad.push(format!("{} names crate::{name}, which is in no layer", rel.display())),
            }
        }
    }
    bad.sort();
    bad.dedup();
    assert!(bad.is_empty(), "imports against the layers:\n{}", bad.join("\n"));
}
