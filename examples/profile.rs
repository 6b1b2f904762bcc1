//! Runs the default pipeline on a file N times (for profilers).
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&a[1]).unwrap();
    let n: usize = a.get(2).and_then(|s| s.parse().ok()).unwrap_or(20);
    let p = mcp_guard::Policy::default();
    for _ in 0..n {
        std::hint::black_box(mcp_guard::sanitize(&p, &text, &Default::default()).unwrap());
    }
}
