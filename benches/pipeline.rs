//! Default pipeline vs the floor (a plain serde_json parse + serialize of the
//! same bytes) on the merged real corpus. Prints figures; asserts nothing.
//! `cargo bench --bench pipeline`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;

#[path = "../testdata/testdata.rs"]
mod testdata;

fn corpus() -> String {
    let p = testdata::bench_catalog();
    std::fs::read_to_string(p).expect("shared-real-tools.json")
}

fn bench(c: &mut Criterion) {
    let text = corpus();
    let policy = mcp_guard::Policy::default();
    let opts = mcp_guard::SanitizeOptions::default();
    let mut g = c.benchmark_group("shared-real-tools");
    g.throughput(Throughput::Bytes(text.len() as u64));
    g.bench_function("floor: serde_json parse+serialize", |b| {
        b.iter(|| {
            let v: serde_json::Value = serde_json::from_str(black_box(&text)).unwrap();
            black_box(serde_json::to_string(&v).unwrap())
        })
    });
    g.bench_function("mcp-guard parse+write only", |b| {
        b.iter(|| {
            let v = mcp_guard::json::parse(black_box(&text), Default::default()).unwrap().value;
            black_box(mcp_guard::json::write_compact(&v))
        })
    });
    g.bench_function("mcp-guard default pipeline", |b| {
        b.iter(|| black_box(mcp_guard::sanitize(&policy, black_box(&text), &opts).unwrap()))
    });
    // The same without the learned scorer (the rules only): the difference
    // is the scorer's cost.
    let rules_only = mcp_guard::Policy::from_json(r#"{"core":{"tool_poisoning":{"learned":false}}}"#).unwrap();
    g.bench_function("mcp-guard default pipeline, learned scorer off", |b| {
        b.iter(|| black_box(mcp_guard::sanitize(&rules_only, black_box(&text), &opts).unwrap()))
    });
    // The same without the poisoning detector: the difference is its cost.
    let off = mcp_guard::Policy::from_json(r#"{"core":{"tool_poisoning":{"mode":"off"}}}"#).unwrap();
    g.bench_function("mcp-guard default pipeline, poisoning off", |b| {
        b.iter(|| black_box(mcp_guard::sanitize(&off, black_box(&text), &opts).unwrap()))
    });
    let strict = mcp_guard::Policy::preset(mcp_guard::Preset::Strict);
    g.bench_function("mcp-guard strict pipeline", |b| {
        b.iter(|| black_box(mcp_guard::sanitize(&strict, black_box(&text), &opts).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
