//! The Rust rows of BENCHMARKS.md's performance table (run by
//! `scripts/bench-table.sh`, which writes the plan): the native engine, the
//! `serde_json` floor, and the component in wasmtime 48.
//!
//! ```sh
//! bench_table PLAN.json time           # every workload, the three rows interleaved
//! bench_table PLAN.json memory ROW     # ROW = native | serde | component, alone in this process
//! ```
//!
//! Prints JSON lines (`scripts/bench-table.py render` reads them). One crate
//! for the three rows, so they run in the same rounds; the component is the
//! one `mcp-guard --engine wasm` runs: Cranelift, no fuel metering, one
//! instance and one policy handle reused, the catalog copied in and the
//! outcome lifted out on every call.

use std::hint::black_box;
use std::time::Instant;

use mcp_guard_host::{default_options, wasm_path, GuardHost, GuardInstance, Limits, PolicyHandle};
use serde_json::{json, Value};

/// One row: text in, sanitized (or round-tripped) text out.
trait Row {
    fn name(&self) -> &'static str;
    /// Runs once on `text` under the plan's policy `policy`; returns the
    /// output's length (so the work cannot be optimized away).
    fn run(&mut self, policy: &str, text: &str) -> usize;
    fn guest_memory(&self) -> Option<usize> {
        None
    }
}

struct Native {
    policies: Vec<(String, mcp_guard::Policy)>,
}

impl Row for Native {
    fn name(&self) -> &'static str {
        "native"
    }
    fn run(&mut self, policy: &str, text: &str) -> usize {
        let p = &self.policies.iter().find(|(k, _)| k == policy).expect("policy").1;
        mcp_guard::sanitize(p, text, &Default::default()).expect("sanitize").catalog.len()
    }
}

struct Serde;

impl Row for Serde {
    fn name(&self) -> &'static str {
        "serde"
    }
    fn run(&mut self, _: &str, text: &str) -> usize {
        let v: Value = serde_json::from_str(text).expect("json");
        serde_json::to_string(&v).unwrap().len()
    }
}

struct Component {
    g: GuardInstance,
    policies: Vec<(String, PolicyHandle)>,
}

impl Row for Component {
    fn name(&self) -> &'static str {
        "component"
    }
    fn run(&mut self, policy: &str, text: &str) -> usize {
        let p = &self.policies.iter().find(|(k, _)| k == policy).expect("policy").1;
        self.g.sanitize(p, text, &default_options()).expect("trap").expect("sanitize").catalog.len()
    }
    fn guest_memory(&self) -> Option<usize> {
        Some(self.g.peak_memory())
    }
}

fn make(row: &str, policies: &[(String, String)]) -> Box<dyn Row> {
    match row {
        "native" => Box::new(Native {
            policies: policies
                .iter()
                .map(|(k, j)| (k.clone(), mcp_guard::Policy::from_json(j).expect("policy")))
                .collect(),
        }),
        "serde" => Box::new(Serde),
        "component" => {
            let host = GuardHost::from_file(&wasm_path(), false).unwrap_or_else(|e| panic!("{e:#}"));
            let mut g = host.instantiate(Limits::default()).expect("instantiate");
            let policies = policies.iter().map(|(k, j)| (k.clone(), g.policy(j).unwrap().expect("policy"))).collect();
            Box::new(Component { g, policies })
        }
        other => panic!("unknown row {other} (native, serde, component)"),
    }
}

/// `Vm*` fields of /proc/self/status, in KiB.
fn vm(field: &str) -> u64 {
    let s = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    s.lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':')?.trim().strip_suffix("kB")?.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

const MIB: f64 = 1024.0 * 1024.0;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let plan: Value = serde_json::from_str(&std::fs::read_to_string(&args[0]).expect("plan")).expect("plan");
    let policies: Vec<(String, String)> = plan["policies"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_string()))
        .collect();
    let workloads = plan["workloads"].as_array().unwrap();
    let read = |w: &Value| std::fs::read_to_string(w["path"].as_str().unwrap()).expect("input");

    if args.get(1).map(String::as_str) == Some("memory") {
        let w = workloads.iter().find(|w| w["name"] == plan["memory"]["workload"]).expect("memory workload");
        let policy = w["policy"].as_str().unwrap();
        // Only the policy the workload uses is compiled.
        let mut row = make(&args[2], &policies.into_iter().filter(|(k, _)| k == policy).collect::<Vec<_>>());
        let text = read(w);
        let before = vm("VmRSS");
        // Reset the high-water mark to the current RSS (Linux >= 4.0).
        std::fs::write("/proc/self/clear_refs", "5").expect("/proc/self/clear_refs");
        for _ in 0..plan["memory"]["runs"].as_u64().unwrap() {
            black_box(row.run(policy, &text));
        }
        let peak = vm("VmHWM");
        let guest = row.guest_memory().map(|b| b as f64 / MIB);
        let line = json!({
            "row": row.name(), "workload": "memory", "rss_before_mib": before as f64 / 1024.0,
            "peak_mib": peak.saturating_sub(before) as f64 / 1024.0, "guest_mib": guest,
        });
        println!("{line}");
        return;
    }

    let mut rows: Vec<Box<dyn Row>> = ["native", "serde", "component"].iter().map(|r| make(r, &policies)).collect();
    for w in workloads {
        let text = read(w);
        let name = w["name"].as_str().unwrap();
        let policy = w["policy"].as_str().unwrap();
        let n = |k: &str| w[k].as_u64().unwrap() as usize;
        let (warmup, rounds, calls) = (n("warmup"), n("rounds"), n("calls"));
        eprintln!("bench_table: {name} ({} bytes), {rounds} rounds", text.len());
        // Warm-up; the first output's size goes into the line (every engine
        // host must write the same bytes).
        let out: Vec<usize> = rows
            .iter_mut()
            .map(|r| {
                let first = r.run(policy, &text);
                (1..warmup.max(1) * calls).for_each(|_| _ = r.run(policy, &text));
                first
            })
            .collect();
        let mut times: Vec<Vec<f64>> = vec![Vec::new(); rows.len()];
        for _ in 0..rounds {
            for (row, t) in rows.iter_mut().zip(&mut times) {
                let start = Instant::now();
                for _ in 0..calls {
                    black_box(row.run(policy, black_box(&text)));
                }
                t.push(start.elapsed().as_secs_f64() * 1e3 / calls as f64);
            }
        }
        for ((row, t), out) in rows.iter().zip(&mut times).zip(out) {
            t.sort_by(f64::total_cmp);
            let line = json!({
                "row": row.name(), "workload": name, "best_ms": t[0], "median_ms": t[t.len() / 2],
                "rounds": rounds, "calls": calls, "output_bytes": out,
            });
            println!("{line}");
        }
    }
}
