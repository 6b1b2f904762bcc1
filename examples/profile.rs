//! Runs one workload N times, for instruction-count profiling with
//! `valgrind --tool=callgrind` (noise-free next to criterion's wall clock):
//! `cargo run --release --example profile -- FILE N [pipeline|pipeline-off|floor|parse]`
//! (`pipeline`: the default policy, poisoning `flag`; `pipeline-off`: the same
//! with `core.tool_poisoning.mode` `off`, so the difference is the detector.)
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let n: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let mode = a.get(3).map(String::as_str).unwrap_or("pipeline");
    let p = match mode {
        "pipeline-off" => mcp_guard::Policy::from_json(r#"{"core":{"tool_poisoning":{"mode":"off"}}}"#).unwrap(),
        _ => mcp_guard::Policy::default(),
    };
    for _ in 0..n {
        match mode {
            "floor" => {
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                std::hint::black_box(serde_json::to_string(&v).unwrap());
            }
            "parse" => {
                let v = mcp_guard::json::parse(&text, Default::default()).unwrap().value;
                std::hint::black_box(mcp_guard::json::write_compact(&v));
            }
            _ => {
                std::hint::black_box(mcp_guard::sanitize(&p, &text, &Default::default()).unwrap());
            }
        }
    }
}
