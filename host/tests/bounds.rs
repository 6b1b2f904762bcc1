//! Memory bound inside the component (issue: hardening): every adversarial
//! file of `testdata/adversarial`, with the default policy, in a fresh instance,
//! stays within 64 MiB of linear memory — by the engine's own budgets, since
//! the instance is given 256 MiB. (Time is measured by `benches/bounds.rs`.)

mod common;

use common::{json_files, testdata, HOST};
use mcp_guard_host::{default_options, Limits};

const BOUND: usize = 64 << 20;

#[test]
fn every_adversarial_file_stays_within_64_mib() {
    let mut worst = (String::new(), 0usize);
    for path in json_files(&testdata::adversarial()) {
        let text = std::fs::read_to_string(&path).unwrap();
        let mut g = HOST.instantiate(Limits::default()).unwrap();
        let p = g.policy("{}").unwrap().unwrap();
        let r = g.sanitize(&p, &text, &default_options());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert!(r.is_ok(), "{name}: trapped");
        let peak = g.peak_memory();
        assert!(peak <= BOUND, "{name}: {peak} bytes of linear memory");
        if peak > worst.1 {
            worst = (name, peak);
        }
    }
    eprintln!("worst peak linear memory: {} {:.1} MiB", worst.0, worst.1 as f64 / (1 << 20) as f64);
}
