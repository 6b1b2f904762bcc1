//! Runs one workload N times, for instruction-count profiling with
//! `valgrind --tool=callgrind` (noise-free next to criterion's wall clock):
//! `cargo run --release --example profile -- FILE N [pipeline|pipeline-off|floor|parse|time]`
//! (`pipeline`: the default policy, poisoning `flag`; `pipeline-off`: the same
//! with `core.tool_poisoning.mode` `off`, so the difference is the detector;
//! `pipeline-rules`: the default with `learned` `false`, so the difference is
//! the learned scorer; `time-learned` times `pipeline` against it;
//! `time-floor` times `pipeline` against `floor`, the `serde_json` round trip
//! the speed target is stated against.)
//!
//! `time` runs `pipeline` and `pipeline-off` alternately in blocks of 10
//! runs, N blocks each, and prints the fastest and the median run of each
//! and their ratios, and the median (with quartiles) of the ratios of
//! adjacent blocks' fastest runs: alternating in one process keeps a shared
//! machine's slow moments from landing on one side only (separate processes
//! timed one after the other did not), and runs in a block find the caches
//! as a benchmark loop does (as criterion's, which the target is stated in).
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let n: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let mode = a.get(3).map(String::as_str).unwrap_or("pipeline");
    let off = || mcp_guard::Policy::from_json(r#"{"core":{"tool_poisoning":{"mode":"off"}}}"#).unwrap();
    let rules = || mcp_guard::Policy::from_json(r#"{"core":{"tool_poisoning":{"learned":false}}}"#).unwrap();
    let policy = || match mode {
        "pipeline-off" => off(),
        "pipeline-rules" => rules(),
        _ => mcp_guard::Policy::default(),
    };
    if mode == "time" || mode == "time-learned" || mode == "time-floor" {
        let other = if mode == "time" { off() } else { rules() };
        let floor = || {
            let v: serde_json::Value = serde_json::from_str(&text).unwrap();
            std::hint::black_box(serde_json::to_string(&v).unwrap());
        };
        let engine = |p: &mcp_guard::Policy| {
            std::hint::black_box(mcp_guard::sanitize(p, &text, &Default::default()).unwrap());
        };
        let p = policy();
        let runs: [&dyn Fn(); 2] = [&|| engine(&p), &|| if mode == "time-floor" { floor() } else { engine(&other) }];
        let mut times: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        // Per pair of adjacent blocks: the ratio of their fastest runs. A
        // shared machine's slow stretches last longer than a block, so they
        // land on both sides of a pair and cancel in its ratio.
        let mut pairs: Vec<f64> = Vec::new();
        for _ in 0..n {
            let mut best = [f64::MAX; 2];
            for ((run, t), b) in runs.iter().zip(&mut times).zip(&mut best) {
                for _ in 0..10 {
                    let start = std::time::Instant::now();
                    run();
                    let ms = start.elapsed().as_secs_f64() * 1e3;
                    t.push(ms);
                    *b = b.min(ms);
                }
            }
            pairs.push(best[0] / best[1]);
        }
        for t in times.iter_mut().chain([&mut pairs]) {
            t.sort_by(f64::total_cmp);
        }
        let (on, off) = (&times[0], &times[1]);
        println!(
            "pipeline {:.2} ms (median {:.2}), {} {:.2} ms (median {:.2}): +{:.1}% (medians +{:.1}%, paired blocks +{:.1}% [{:.1}..{:.1}]; best {:.2}x)",
            on[0],
            on[on.len() / 2],
            match mode {
                "time" => "pipeline-off",
                "time-floor" => "floor",
                _ => "pipeline-rules",
            },
            off[0],
            off[off.len() / 2],
            (on[0] / off[0] - 1.0) * 100.0,
            (on[on.len() / 2] / off[off.len() / 2] - 1.0) * 100.0,
            (pairs[pairs.len() / 2] - 1.0) * 100.0,
            (pairs[pairs.len() / 4] - 1.0) * 100.0,
            (pairs[pairs.len() * 3 / 4] - 1.0) * 100.0,
            on[0] / off[0],
        );
        return;
    }
    // The policy is built once, as a host does, and not at all for `floor`
    // and `parse`: `serde_json` needs none, and the default policy's build
    // (its automata, ~16 M instructions) counted against the floor hid a
    // third of the engine's difference.
    if matches!(mode, "floor" | "parse") {
        for _ in 0..n {
            if mode == "floor" {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                std::hint::black_box(serde_json::to_string(&v).unwrap());
            } else {
                let v = mcp_guard::json::parse(&text, Default::default()).unwrap().value;
                std::hint::black_box(mcp_guard::json::write_compact(&v));
            }
        }
        return;
    }
    let p = policy();
    for _ in 0..n {
        std::hint::black_box(mcp_guard::sanitize(&p, &text, &Default::default()).unwrap());
    }
}
