//! `dialect::normalize` for each target over every inputSchema and
//! outputSchema of the merged real corpus (`shared-real-tools.json`, parsed
//! once with `mcp_guard::json::parse`). Prints figures; asserts nothing.
//! `cargo bench --bench dialect -- --warm-up-time 1 --measurement-time 3`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use mcp_guard::dialect::{coerce_arguments, normalize};
use mcp_guard::json::{self, Value};
use mcp_guard::policy::Dialect;
use std::hint::black_box;

#[path = "../testdata/testdata.rs"]
mod testdata;

fn schemas() -> Vec<Value> {
    let p = testdata::bench_catalog();
    let text = std::fs::read_to_string(p).expect("shared-real-tools.json");
    let doc = json::parse(&text, Default::default()).expect("valid JSON").value;
    let mut out = Vec::new();
    for t in doc.as_object().and_then(|o| o.get("tools")).and_then(Value::as_array).expect("tools") {
        for k in ["inputSchema", "outputSchema"] {
            if let Some(s) = t.as_object().and_then(|o| o.get(k)) {
                out.push(s.clone());
            }
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let all = schemas();
    let bytes: usize = all.iter().map(|s| json::write_compact(s).len()).sum();
    eprintln!("{} schemas, {} bytes compact", all.len(), bytes);
    let mut g = c.benchmark_group("dialect/normalize");
    g.throughput(Throughput::Bytes(bytes as u64));
    for target in [Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable] {
        g.bench_function(target.id(), |b| {
            b.iter(|| {
                for s in &all {
                    let _ = black_box(normalize(black_box(s), target, 8, 100_000));
                }
            })
        });
    }
    g.finish();

    // The way back: the typical call is small; time a realistic one.
    let schema = json::parse(
        r#"{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}},"filter":{"type":"object","properties":{"status":{"type":"string","enum":["open","closed"]},"limit":{"type":"integer","minimum":1}},"required":["status"]},"note":{"type":"string"}},"required":["ids"]}"#,
        Default::default(),
    )
    .unwrap()
    .value;
    let args = json::parse(r#"{"ids":"[1,2,3]","filter":{"status":"open","limit":"10"},"note":null}"#, Default::default()).unwrap().value;
    let mut g = c.benchmark_group("dialect/coerce_arguments");
    g.bench_function("stringified args, strict nulls", |b| {
        b.iter(|| black_box(coerce_arguments(black_box(&schema), Dialect::OpenAiStrict, black_box(&args))))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
