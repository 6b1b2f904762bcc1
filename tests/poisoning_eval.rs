//! Recall and false positives of the poisoning detector on the labelled set of
//! `eval/poisoning/` (see its README), for the development part and the
//! held-back part separately. The held-back part is the headline: no rule may
//! be written or tuned on it.
//!
//! Ignored by default (it runs the Python generator and prints a report):
//!
//! ```sh
//! cargo test --test poisoning_eval -- --ignored --nocapture
//! ```
//!
//! `MCP_GUARD_EVAL_DIR` chooses where the set is generated (default: the
//! test's target tmp dir); `results.json` (the figures) and `verdicts.jsonl`
//! (one line per item) are written beside it.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use mcp_guard::{sanitize, Finding, Outcome, Policy, Preset, SanitizeOptions};
use serde_json::{json, Value};

/// What the engine did with one item under one policy.
struct Verdict {
    /// Some poisoning finding on one of the item's tools.
    flagged: bool,
    /// The poisoning finding kinds (`poison-*`) raised.
    kinds: Vec<String>,
    /// Highest severity among the poisoning findings.
    max_severity: Option<String>,
    /// Hidden by the poisoning stage.
    hidden_poison: bool,
    /// Hidden for another reason (unsafe value, schema, names, ...).
    hidden_other: Vec<String>,
    /// One line per poisoning finding, for the report on benign tools.
    details: Vec<String>,
}

fn is_poison(f: &Finding) -> bool {
    f.kind.id().starts_with("poison-")
}

fn verdict(out: &Outcome) -> Verdict {
    let poison: Vec<&Finding> = out.findings.iter().filter(|f| is_poison(f)).collect();
    let mut kinds: Vec<String> = poison.iter().map(|f| f.kind.id().to_string()).collect();
    kinds.sort();
    kinds.dedup();
    Verdict {
        flagged: !poison.is_empty(),
        kinds,
        max_severity: poison.iter().map(|f| f.severity).max().map(|s| s.id().to_string()),
        hidden_poison: out.hidden.iter().any(|h| h.reason.id().starts_with("poison-")),
        hidden_other: out
            .hidden
            .iter()
            .filter(|h| !h.reason.id().starts_with("poison-"))
            .map(|h| h.reason.id().to_string())
            .collect(),
        details: poison
            .iter()
            .map(|f| {
                format!(
                    "{} {} {}: {}",
                    f.severity.id(),
                    f.kind.id(),
                    f.pointer,
                    f.detail.chars().take(160).collect::<String>()
                )
            })
            .collect(),
    }
}

fn generate() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("MCP_GUARD_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("poisoning-eval"));
    let status = Command::new("python3")
        .arg(root.join("eval/poisoning/generate.py"))
        .arg("--out")
        .arg(&dir)
        .arg("--check")
        .status()
        .expect("python3 runs the generator");
    assert!(status.success(), "the generator failed or its output is not the committed set");
    dir
}

fn read_jsonl(path: PathBuf) -> Vec<Value> {
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON value per line"))
        .collect()
}

/// hits / total per key.
#[derive(Default)]
struct Tally(BTreeMap<String, (u32, u32)>);

impl Tally {
    fn add(&mut self, key: impl Into<String>, hit: bool) {
        let e = self.0.entry(key.into()).or_default();
        e.0 += hit as u32;
        e.1 += 1;
    }
    fn print(&self, title: &str) {
        println!("  {title}");
        for (k, (h, n)) in &self.0 {
            println!("    {k:<28} {h:>5}/{n:<5} {:>6.1}%", pct(*h, *n));
        }
    }
    fn json(&self) -> Value {
        Value::Object(self.0.iter().map(|(k, (h, n))| (k.clone(), json!({"hit": h, "n": n}))).collect())
    }
}

fn pct(h: u32, n: u32) -> f64 {
    if n == 0 {
        0.0
    } else {
        100.0 * h as f64 / n as f64
    }
}

/// The finding kind each class is expected to raise, to tell "flagged for the
/// right reason" from "flagged by some other rule".
fn own_kinds(class: &str) -> &'static [&'static str] {
    match class {
        "injection" => &["poison-injection", "poison-instruction"],
        "authority" => &["poison-authority"],
        "secret" => &["poison-secret-access"],
        "exfil_url" => &["poison-exfiltration"],
        "secrecy" => &["poison-secrecy"],
        "line_jumping" => &["poison-instruction"],
        "shadowing" => &["poison-shadowing"],
        _ => &[],
    }
}

#[test]
#[ignore = "evaluation report: runs the Python generator; use --ignored --nocapture"]
fn poisoning_detector_recall_and_false_positives_on_the_held_back_set() {
    let dir = generate();
    let labels: BTreeMap<String, Value> =
        read_jsonl(dir.join("labels.jsonl")).into_iter().map(|l| (l["id"].as_str().unwrap().to_string(), l)).collect();
    let mut items = read_jsonl(dir.join("poisoned.jsonl"));
    items.extend(read_jsonl(dir.join("benign.jsonl")));
    assert!(items.len() >= 2_300, "expected the full set, got {} items", items.len());

    let default = Policy::preset(Preset::Default);
    let block = Policy::from_json(r#"{"core":{"tool_poisoning":{"mode":"block"}}}"#).expect("block policy");
    let opts = SanitizeOptions::default();
    // The same catalogs when the engine is told the tool names of the other
    // servers the client sees (a proxy in front of several servers knows
    // them; `mcp-guard check` alone does not): shadowing names such tools.
    let foreign: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("foreign_names.json")).unwrap()).unwrap();
    let opts_foreign = SanitizeOptions { foreign_names: foreign, ..Default::default() };

    let mut results = serde_json::Map::new();
    let mut per_item = String::new();
    for part in ["dev", "held"] {
        let mut overall = Tally::default();
        let (
            mut by_class,
            mut own_kind,
            mut by_lang,
            mut by_loc,
            mut by_enc,
            mut by_hint,
            mut by_family,
            mut blocked_by_class,
        ) = (
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
            Tally::default(),
        );
        let mut by_class_foreign = Tally::default();
        let mut benign_flagged_foreign = 0u32;
        let mut hidden_other_stages = 0u32;
        let (mut benign_n, mut benign_flagged, mut benign_high, mut benign_blocked) = (0u32, 0u32, 0u32, 0u32);
        let mut benign_lines = Vec::new();
        let mut benign_by_lang = Tally::default();
        for item in &items {
            let id = item["id"].as_str().unwrap();
            let label = &labels[id];
            if label["part"] != part {
                continue;
            }
            let text = serde_json::to_string(&item["catalog"]).unwrap();
            let d = verdict(&sanitize(&default, &text, &opts).expect("the catalog is accepted"));
            let b = verdict(&sanitize(&block, &text, &opts).expect("the catalog is accepted"));
            let f = verdict(&sanitize(&default, &text, &opts_foreign).expect("the catalog is accepted"));
            let s = |k: &str| label[k].as_str().unwrap_or("").to_string();
            per_item.push_str(
                &json!({"id": id, "flagged": d.flagged, "kinds": d.kinds, "max_severity": d.max_severity,
                "hidden_under_block": b.hidden_poison, "hidden_by_other_stages": d.hidden_other,
                "flagged_with_foreign_names": f.flagged})
                .to_string(),
            );
            per_item.push('\n');
            if label["kind"] == "poisoned" {
                let class = s("class");
                overall.add("all", d.flagged);
                overall.add("with foreign names", f.flagged);
                by_class_foreign.add(&class, f.flagged);
                by_class.add(&class, d.flagged);
                own_kind.add(&class, d.kinds.iter().any(|k| own_kinds(&class).contains(&k.as_str())));
                by_lang.add(s("language"), d.flagged);
                by_loc.add(s("location"), d.flagged);
                let enc = s("encoding");
                by_enc.add(&enc, d.flagged);
                if enc != "none" {
                    by_hint.add(
                        if label["decode_hint"] == true { "with decode hint" } else { "without decode hint" },
                        d.flagged,
                    );
                }
                by_family.add(s("family"), d.flagged);
                blocked_by_class.add(&class, b.hidden_poison);
                overall.add("hidden under block", b.hidden_poison);
                hidden_other_stages += !d.hidden_other.is_empty() as u32;
            } else {
                benign_n += 1;
                benign_by_lang.add(s("language"), d.flagged);
                benign_flagged_foreign += f.flagged as u32;
                if d.flagged {
                    benign_flagged += 1;
                    let high = matches!(d.max_severity.as_deref(), Some("high" | "critical"));
                    benign_high += high as u32;
                    benign_lines.push(format!(
                        "    {} {} [{}] {}{}",
                        id,
                        label["tools"][0].as_str().unwrap_or(""),
                        s("language"),
                        d.kinds.join(","),
                        if b.hidden_poison { "  HIDDEN UNDER BLOCK" } else { "" }
                    ));
                    for line in &d.details {
                        benign_lines.push(format!("        {line}"));
                    }
                }
                benign_blocked += b.hidden_poison as u32;
            }
        }
        let (h, n) = overall.0.get("all").copied().unwrap_or_default();
        let (bh, _) = overall.0.get("hidden under block").copied().unwrap_or_default();
        let (fh, _) = overall.0.get("with foreign names").copied().unwrap_or_default();
        println!(
            "\n=== {} part: poisoned {n}, benign {benign_n} ===",
            if part == "held" { "HELD-BACK" } else { "development" }
        );
        println!("  recall (any poisoning finding, default policy): {h}/{n} = {:.1}%", pct(h, n));
        println!("  hidden under `block` (default threshold):       {bh}/{n} = {:.1}%", pct(bh, n));
        println!("  recall with other servers' tool names passed in:  {fh}/{n} = {:.1}%", pct(fh, n));
        println!("  poisoned items hidden by another stage (default policy): {hidden_other_stages}");
        by_class.print("recall by class");
        by_class_foreign.print("recall by class, other servers' tool names passed in");
        own_kind.print("flagged with the class's own finding kind");
        blocked_by_class.print("hidden under block, by class");
        by_lang.print("recall by language");
        by_loc.print("recall by location");
        by_enc.print("recall by encoding");
        by_hint.print("encoded payloads: decode hint");
        by_family.print("recall by family");
        println!(
            "  hard benign: flagged {benign_flagged}/{benign_n} ({:.1}%), of which high/critical {benign_high}; hidden under block {benign_blocked}",
            pct(benign_flagged, benign_n)
        );
        println!("  hard benign flagged with other servers' tool names passed in: {benign_flagged_foreign}/{benign_n}");
        benign_by_lang.print("benign flagged by language");
        for l in &benign_lines {
            println!("{l}");
        }
        results.insert(
            part.to_string(),
            json!({
                "poisoned": n, "flagged": h, "hidden_under_block": bh, "flagged_with_foreign_names": fh,
                "by_class_with_foreign_names": by_class_foreign.json(), "benign_flagged_with_foreign_names": benign_flagged_foreign, "hidden_by_other_stages": hidden_other_stages,
                "by_class": by_class.json(), "own_kind_by_class": own_kind.json(), "blocked_by_class": blocked_by_class.json(),
                "by_language": by_lang.json(), "by_location": by_loc.json(), "by_encoding": by_enc.json(),
                "by_decode_hint": by_hint.json(), "by_family": by_family.json(),
                "benign": benign_n, "benign_flagged": benign_flagged, "benign_flagged_high": benign_high,
                "benign_hidden_under_block": benign_blocked, "benign_by_language": benign_by_lang.json(),
            }),
        );
    }
    std::fs::write(dir.join("verdicts.jsonl"), per_item).unwrap();
    let path = dir.join("results.json");
    std::fs::write(&path, serde_json::to_string_pretty(&Value::Object(results)).unwrap()).unwrap();
    println!("\nresults: {}", path.display());
}
