//! The component in wasmtime 48 vs the native engine, same process, same
//! input: every tool of the real catalogs in one
//! (`testdata/bench/shared-real-tools.json`, 1.7 MB), default policy.
//!
//!   scripts/build-component.sh
//!   cargo bench -p mcp-guard-host --bench component -- --warm-up-time 1 --measurement-time 3
//!
//! `component` is what the tests run (fuel metering on, unlimited budget);
//! `component-no-fuel` is the same without metering, to show its cost.
//! Both reuse one instance and one policy handle, as a host would; the
//! catalog string is copied into the guest on every call (part of the cost).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcp_guard_host::{default_options, wasm_path, GuardHost, Limits};

#[path = "../../testdata/testdata.rs"]
mod testdata;

fn catalog() -> String {
    let path = testdata::bench_catalog();
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn bench(c: &mut Criterion) {
    let text = catalog();
    let policy = mcp_guard::Policy::default();
    let opts = mcp_guard::SanitizeOptions::default();
    let wopts = default_options();

    let t = Instant::now();
    let host = GuardHost::load().expect("component");
    let compile = t.elapsed();
    let plain = GuardHost::from_file(&wasm_path(), false).expect("component");
    let size = std::fs::metadata(wasm_path()).map(|m| m.len()).unwrap_or(0);

    let mut g = host.instantiate(Limits::default()).unwrap();
    let p = g.policy("{}").unwrap().unwrap();
    let mut g2 = plain.instantiate(Limits::default()).unwrap();
    let p2 = g2.policy("{}").unwrap().unwrap();

    // Same answer both ways before timing anything.
    let native_out = mcp_guard::sanitize(&policy, &text, &opts).unwrap();
    let wasm_out = g.sanitize(&p, &text, &wopts).unwrap().unwrap();
    assert_eq!(native_out.catalog, wasm_out.catalog);
    let before = g.fuel().unwrap();
    g.sanitize(&p, &text, &wopts).unwrap().unwrap();
    let fuel_per_call = before - g.fuel().unwrap();

    let mut group = c.benchmark_group("shared-real-tools");
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.sample_size(20);
    group.bench_function("native", |b| b.iter(|| mcp_guard::sanitize(&policy, black_box(&text), &opts).unwrap()));
    group.bench_function("component", |b| b.iter(|| g.sanitize(&p, black_box(&text), &wopts).unwrap().unwrap()));
    group.bench_function("component-no-fuel", |b| {
        b.iter(|| g2.sanitize(&p2, black_box(&text), &wopts).unwrap().unwrap())
    });
    group.finish();

    // A plain side-by-side line for BENCHMARKS.md: the best of 25 rounds,
    // the three runs interleaved in each round, which is what survives other
    // jobs sharing the machine.
    let time = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed()
    };
    let (mut n, mut w, mut w2) = (Duration::MAX, Duration::MAX, Duration::MAX);
    for _ in 0..25 {
        n = n.min(time(&mut || {
            black_box(mcp_guard::sanitize(&policy, &text, &opts).unwrap());
        }));
        w = w.min(time(&mut || {
            black_box(g.sanitize(&p, &text, &wopts).unwrap().unwrap());
        }));
        w2 = w2.min(time(&mut || {
            black_box(g2.sanitize(&p2, &text, &wopts).unwrap().unwrap());
        }));
    }
    let t = Instant::now();
    let fresh = host.instantiate(Limits::default()).unwrap();
    let inst = t.elapsed();
    drop(fresh);
    println!(
        "\nsummary: {} bytes in, {} tools; .wasm {size} bytes; compile {compile:.0?}; instantiate {inst:.1?}\n\
         summary (best of 25): native {n:.2?} | component {w:.2?} ({:.2}x) | component without fuel {w2:.2?} ({:.2}x) | {fuel_per_call} fuel/call",
        text.len(),
        native_out.tools.len(),
        w.as_secs_f64() / n.as_secs_f64(),
        w2.as_secs_f64() / n.as_secs_f64(),
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
