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
//!
//! The default policy runs the rules and the learned scorer
//! (`learned.poisoning`); the report gives each alone and their union, on
//! both parts and on every real tool of `testdata/` (false positives).

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

/// The learned scorer's finding (its detail starts with its rule id).
fn is_learned(f: &Finding) -> bool {
    f.detail.starts_with("[learned.poisoning]")
}

/// Per source, what one item got: (rules flagged, scorer flagged, scorer at
/// `high`, i.e. what it hides under `block`).
fn by_source(out: &Outcome) -> (bool, bool, bool) {
    let p = out.findings.iter().filter(|f| is_poison(f));
    let (mut r, mut l, mut lh) = (false, false, false);
    for f in p {
        if is_learned(f) {
            l = true;
            lh |= f.severity >= mcp_guard::Severity::High;
        } else {
            r = true;
        }
    }
    (r, l, lh)
}

/// Flagged / blocked tallies of the rules, the scorer and their union.
#[derive(Default)]
struct Sources {
    flag: [Tally; 3],
    block: [Tally; 3],
}

const SOURCES: [&str; 3] = ["rules", "scorer", "union"];

impl Sources {
    fn add(&mut self, key: &str, flag: [bool; 3], block: [bool; 3]) {
        for i in 0..3 {
            self.flag[i].add(key, flag[i]);
            self.block[i].add(key, block[i]);
        }
    }
    fn print(&self, title: &str) {
        println!("  {title}: flagged rules / scorer / union | blocked rules / scorer / union");
        for k in self.flag[2].0.keys() {
            let c = |t: &Tally| t.0.get(k).copied().unwrap_or_default();
            let n = c(&self.flag[2]).1;
            let f: Vec<String> = self.flag.iter().map(|t| format!("{:>5.1}%", pct(c(t).0, n))).collect();
            let b: Vec<String> = self.block.iter().map(|t| format!("{:>5.1}%", pct(c(t).0, n))).collect();
            println!("    {k:<24} n={n:<5} {} | {}", f.join(" "), b.join(" "));
        }
    }
    fn json(&self) -> Value {
        let mut m = serde_json::Map::new();
        for (i, s) in SOURCES.iter().enumerate() {
            m.insert(format!("{s}_flagged"), self.flag[i].json());
            m.insert(format!("{s}_blocked"), self.block[i].json());
        }
        Value::Object(m)
    }
}

fn generate() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let dir = std::env::var_os("MCP_GUARD_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("poisoning-eval"));
    // The first set (parts dev, held) and the extra parts (train, held2, held3).
    for script in ["eval/poisoning/generate.py", "eval/poisoning/generate_extra.py"] {
        let status = Command::new("python3")
            .arg(root.join(script))
            .arg("--out")
            .arg(&dir)
            .arg("--check")
            .status()
            .expect("python3 runs the generator");
        assert!(status.success(), "{script} failed or its output is not the committed set");
    }
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
    let mut labels: BTreeMap<String, Value> =
        read_jsonl(dir.join("labels.jsonl")).into_iter().map(|l| (l["id"].as_str().unwrap().to_string(), l)).collect();
    labels.extend(read_jsonl(dir.join("extra-labels.jsonl")).into_iter().map(|l| (l["id"].as_str().unwrap().to_string(), l)));
    let mut items = read_jsonl(dir.join("poisoned.jsonl"));
    items.extend(read_jsonl(dir.join("benign.jsonl")));
    items.extend(read_jsonl(dir.join("extra-poisoned.jsonl")));
    items.extend(read_jsonl(dir.join("extra-benign.jsonl")));
    assert!(items.len() >= 2_300, "expected the full set, got {} items", items.len());

    let default = Policy::preset(Preset::Default);
    let block = Policy::from_json(r#"{"core":{"tool_poisoning":{"mode":"block"}}}"#).expect("block policy");
    let rules_block =
        Policy::from_json(r#"{"core":{"tool_poisoning":{"mode":"block","learned":false}}}"#).expect("rules-only block policy");
    let opts = SanitizeOptions::default();
    // The same catalogs when the engine is told the tool names of the other
    // servers the client sees (a proxy in front of several servers knows
    // them; `mcp-guard check` alone does not): shadowing names such tools.
    let foreign: Vec<String> =
        serde_json::from_str(&std::fs::read_to_string(dir.join("foreign_names.json")).unwrap()).unwrap();
    let opts_foreign = SanitizeOptions { foreign_names: foreign, ..Default::default() };

    let mut results = serde_json::Map::new();
    let mut per_item = String::new();
    // `train` is fitted on like `dev`; `held2` and `held3` are the second and
    // third held-back parts, `held4` the fourth, in nine languages no other
    // part has (nothing is fitted on them).
    for part in ["dev", "held", "train", "held2", "held3", "held4"] {
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
        let (mut src_all, mut src_class, mut src_lang, mut src_loc, mut src_enc, mut src_benign) =
            (Sources::default(), Sources::default(), Sources::default(), Sources::default(), Sources::default(), Sources::default());
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
            let d_out = sanitize(&default, &text, &opts).expect("the catalog is accepted");
            let d = verdict(&d_out);
            let b = verdict(&sanitize(&block, &text, &opts).expect("the catalog is accepted"));
            let rb = verdict(&sanitize(&rules_block, &text, &opts).expect("the catalog is accepted"));
            let (rf, lf, lh) = by_source(&d_out);
            let (flag3, block3) = ([rf, lf, d.flagged], [rb.hidden_poison, lh, b.hidden_poison]);
            let f = verdict(&sanitize(&default, &text, &opts_foreign).expect("the catalog is accepted"));
            let s = |k: &str| label[k].as_str().unwrap_or("").to_string();
            per_item.push_str(
                &json!({"id": id, "flagged": d.flagged, "kinds": d.kinds, "max_severity": d.max_severity,
                "hidden_under_block": b.hidden_poison, "hidden_by_other_stages": d.hidden_other, "rule_kinds": rb.kinds,
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
                src_all.add("all", flag3, block3);
                src_class.add(&class, flag3, block3);
                src_lang.add(&s("language"), flag3, block3);
                src_loc.add(&s("location"), flag3, block3);
                src_enc.add(&s("encoding"), flag3, block3);
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
                src_benign.add("hard benign", flag3, block3);
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
            match part {
                "held" => "HELD-BACK",
                "held2" => "SECOND HELD-BACK",
                "held3" => "THIRD HELD-BACK",
                "held4" => "FOURTH HELD-BACK (languages never fitted)",
                "train" => "extra training",
                _ => "development",
            }
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
        println!("  --- rules / learned scorer / union ({} part) ---", part);
        src_all.print("poisoned");
        src_class.print("by class");
        src_lang.print("by language");
        src_loc.print("by location");
        src_enc.print("by encoding");
        src_benign.print("hard benign (false positives)");
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
                "sources": {"all": src_all.json(), "by_class": src_class.json(), "by_language": src_lang.json(),
                    "by_location": src_loc.json(), "by_encoding": src_enc.json(), "hard_benign": src_benign.json()},
            }),
        );
    }
    results.insert("real_tools".into(), real_tool_false_positives(&default, &block, &rules_block));
    std::fs::write(dir.join("verdicts.jsonl"), per_item).unwrap();
    let path = dir.join("results.json");
    std::fs::write(&path, serde_json::to_string_pretty(&Value::Object(results)).unwrap()).unwrap();
    println!("\nresults: {}", path.display());
}

/// False positives on every real tool of `testdata/`: each catalog of
/// `testdata/catalogs/` as its server sent it, and the 868 tools of
/// `testdata/bench/shared-real-tools.json`. Flagged by the rules, the scorer,
/// either; hidden under `block`.
fn real_tool_false_positives(default: &Policy, block: &Policy, rules_block: &Policy) -> Value {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata");
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("catalogs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = serde_json::Map::new();
    for (name, set) in [("testdata/catalogs", files), ("testdata/bench/shared-real-tools.json", vec![root.join("bench/shared-real-tools.json")])] {
        let mut src = Sources::default();
        let mut lines = Vec::new();
        for f in &set {
            let text = std::fs::read_to_string(f).unwrap();
            let n = serde_json::from_str::<Value>(&text).unwrap()["tools"].as_array().map_or(0, |a| a.len());
            let opts = SanitizeOptions::default();
            let d = sanitize(default, &text, &opts).expect("a real catalog is accepted");
            let b = sanitize(block, &text, &opts).expect("a real catalog is accepted");
            let rb = sanitize(rules_block, &text, &opts).expect("a real catalog is accepted");
            let hidden = |o: &Outcome, i: u32| o.hidden.iter().any(|h| h.index == i && h.reason.id().starts_with("poison-"));
            for i in 0..n as u32 {
                let mine: Vec<&Finding> = d.findings.iter().filter(|x| x.tool_index == Some(i) && is_poison(x)).collect();
                let rf = mine.iter().any(|x| !is_learned(x));
                let lf = mine.iter().any(|x| is_learned(x));
                let lh = mine.iter().any(|x| is_learned(x) && x.severity >= mcp_guard::Severity::High);
                src.add("real tools", [rf, lf, rf || lf], [hidden(&rb, i), lh, hidden(&b, i)]);
                for x in mine.iter().filter(|x| is_learned(x)) {
                    lines.push(format!("    {} #{i} {}: {}", f.file_name().unwrap().to_string_lossy(), x.pointer, x.detail.chars().take(220).collect::<String>()));
                }
            }
        }
        println!("\n=== real tools: {name} ===");
        src.print("false positives");
        for l in &lines {
            println!("{l}");
        }
        out.insert(name.to_string(), src.json());
    }
    Value::Object(out)
}
