//! Linearity of every scanner: 1 MiB of each scanner's trigger prefix
//! repeated (and of a hostile mix) beside 1 MiB of plain text in the same
//! place, through the whole pipeline (permissive caps, so the text reaches
//! every scanner). Plain text is real tool prose (the corpus's
//! descriptions); one English sentence repeated is printed too. Prints the
//! best time of each and the ratios; the goal is ≤ 3× real prose
//! (BENCHMARKS.md, "Linearity"). Asserts nothing.
//!
//! `cargo bench --bench linearity` (`LINEARITY_MIB=4` for 4 MiB).

#[path = "../tests/linearity_cases/mod.rs"]
mod linearity_cases;
use linearity_cases::*;

fn main() {
    // `cargo bench` passes `--bench`; a filter argument selects cases.
    let filter: Option<String> = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let mib: usize = std::env::var("LINEARITY_MIB").ok().and_then(|v| v.parse().ok()).unwrap_or(1);
    let size = mib << 20;
    let policy = policy();
    let mut units: Vec<(String, String, String)> =
        UNITS.iter().map(|(n, u, t)| (n.to_string(), u.to_string(), t.to_string())).collect();
    units.push(("mixed".into(), mixed_unit(), String::new()));
    let runs = 5;
    println!("| case | place | hostile ms | real prose ms | ratio | one sentence ms | ratio |");
    println!("|---|---|---:|---:|---:|---:|---:|");
    let mut worst = (0.0f64, String::new());
    let prose = real_prose(size);
    for place in PLACES {
        let plain = best_time(&policy, &catalog(&prose, *place), runs).as_secs_f64() * 1e3;
        let sentence = best_time(&policy, &catalog(&fill(PLAIN, "", size), *place), runs).as_secs_f64() * 1e3;
        for (name, unit, tail) in &units {
            if filter.as_deref().is_some_and(|f| !name.contains(f)) {
                continue;
            }
            let t = best_time(&policy, &catalog(&fill(unit, tail, size), *place), runs).as_secs_f64() * 1e3;
            let ratio = t / plain;
            println!("| {name} | {place:?} | {t:.2} | {plain:.2} | {ratio:.2} | {sentence:.2} | {:.2} |", t / sentence);
            if ratio > worst.0 {
                worst = (ratio, format!("{name} in {place:?}"));
            }
        }
    }
    println!("\nworst: {:.2}x ({}), {mib} MiB, best of {runs}", worst.0, worst.1);
}
