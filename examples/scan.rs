//! Prints findings per catalog by kind (developer aid): `cargo run --example scan -- FILE...`
use std::collections::BTreeMap;
fn main() {
    let policy = match std::env::var("POLICY") {
        Ok(p) => mcp_guard::Policy::from_json(&std::fs::read_to_string(p).unwrap()).unwrap(),
        Err(_) => mcp_guard::Policy::default(),
    };
    let verbose = std::env::var("VERBOSE").is_ok();
    for path in std::env::args().skip(1) {
        let text = std::fs::read_to_string(&path).unwrap();
        match mcp_guard::sanitize(&policy, &text, &Default::default()) {
            Err(e) => println!("{path}: ERROR {} {e}", e.kind()),
            Ok(o) => {
                let mut by: BTreeMap<String, usize> = BTreeMap::new();
                for f in &o.findings {
                    *by.entry(format!("{}/{}", f.kind, f.action)).or_default() += 1;
                    if verbose { println!("   {:?} {} {} {} {}", f.tool, f.kind, f.action, f.pointer, f.detail.chars().take(150).collect::<String>()); }
                }
                println!("{}: tools={} hidden={} {:?}", path.rsplit('/').next().unwrap(), o.tools.len(), o.hidden.len(), by);
                for h in &o.hidden { println!("   HIDDEN #{} {:?} {} {}", h.index, h.name.as_deref().map(|n| n.chars().take(40).collect::<String>()), h.reason, h.detail.chars().take(160).collect::<String>()); }
            }
        }
    }
}
