//! Resource bounds inside the component: for every file of
//! `testdata/adversarial`, with the default policy, in a fresh instance: wall time
//! (best of 3) and peak linear memory. Prints a table and the worst of each;
//! asserts nothing (`tests/bounds.rs` holds the memory bound).
//! `cargo bench -p mcp-guard-host --bench bounds`

use mcp_guard_host::{default_options, GuardHost, Limits};

#[path = "../../testdata/testdata.rs"]
mod testdata;
use testdata::json_files;
use std::time::{Duration, Instant};

fn main() {
    let host = GuardHost::from_file(&mcp_guard_host::wasm_path(), false).expect("component");
    let mut rows = Vec::new();
    for path in json_files(&testdata::adversarial()) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut best = Duration::MAX;
        let mut peak = 0;
        let mut verdict = String::new();
        for _ in 0..3 {
            let mut g = host.instantiate(Limits::default()).expect("instance");
            let p = g.policy("{}").expect("no trap").expect("policy");
            let baseline = g.peak_memory();
            let t = Instant::now();
            let r = g.sanitize(&p, &text, &default_options());
            best = best.min(t.elapsed());
            peak = peak.max(g.peak_memory().saturating_sub(0).max(baseline));
            verdict = match r {
                Ok(Ok(o)) => format!("ok, {} hidden", o.hidden.len()),
                Ok(Err(e)) => format!("error {}", mcp_guard_host::error_kind(&e)),
                Err(e) => format!("TRAP {e}"),
            };
        }
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        rows.push((name, text.len(), best, peak, verdict));
    }
    println!("| file | bytes | time (best of 3) | peak linear memory | result |");
    println!("|---|---|---|---|---|");
    for (name, bytes, t, peak, verdict) in &rows {
        println!("| {name} | {bytes} | {:.2} ms | {:.1} MiB | {verdict} |", t.as_secs_f64() * 1e3, *peak as f64 / (1 << 20) as f64);
    }
    let worst_t = rows.iter().max_by_key(|r| r.2).unwrap();
    let worst_m = rows.iter().max_by_key(|r| r.3).unwrap();
    println!(
        "worst time: {} {:.2} ms; worst memory: {} {:.1} MiB",
        worst_t.0,
        worst_t.2.as_secs_f64() * 1e3,
        worst_m.0,
        worst_m.3 as f64 / (1 << 20) as f64
    );
}
