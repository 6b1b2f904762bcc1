//! Every scanner is linear in its input: a scanner's trigger prefix repeated
//! (`httphttp…`, `![![…`, `<img <img …`) costs what plain text of the same
//! size costs, give or take a constant. Timing belongs to the benchmark
//! (`cargo bench --bench linearity` prints the ratios); this test only keeps
//! a quadratic scan out of CI with a generous bound on how the time grows:
//! quadrupling the input multiplies a linear scan's time by ~4 and a
//! quadratic one's by ~16, so growth past 10× fails.

mod linearity_cases;
use linearity_cases::*;

#[test]
fn every_scanner_grows_linearly_with_hostile_input() {
    let policy = policy();
    let small = 64 * 1024;
    let mut units: Vec<(String, String, String)> =
        UNITS.iter().map(|(n, u, t)| (n.to_string(), u.to_string(), t.to_string())).collect();
    units.push(("mixed".into(), mixed_unit(), String::new()));
    units.push(("plain".into(), PLAIN.to_string(), String::new()));
    let mut bad = Vec::new();
    for place in PLACES {
        for (name, unit, tail) in &units {
            let small_cat = catalog(&fill(unit, tail, small), *place);
            let large_cat = catalog(&fill(unit, tail, 4 * small), *place);
            // Times of a few milliseconds are noise on a loaded machine: 4×
            // the input must cost under 10× plus 25 ms, in one of three
            // measurements (a quadratic scan fails all three: the ones this
            // stops took seconds at 64 KiB in a debug build).
            let mut last = None;
            let grows_linearly = (0..3).any(|_| {
                let t1 = best_time(&policy, &small_cat, 5);
                let t4 = best_time(&policy, &large_cat, 5);
                last = Some((t1, t4));
                t4 <= t1 * 10 + std::time::Duration::from_millis(25)
            });
            if !grows_linearly {
                let (t1, t4) = last.unwrap_or_default();
                bad.push(format!("{name} in {place:?}: {t1:?} for 64 KiB, {t4:?} for 256 KiB"));
            }
        }
    }
    assert!(bad.is_empty(), "superlinear scans:\n{}", bad.join("\n"));
}

/// Text in dropped keywords is read by the detector up to 64 KiB a tool:
/// forty tools with 60 KiB of a trigger prefix each in an `x-` keyword
/// (40 tools × 64 KiB took 36 s when the URL scan was quadratic) cost about
/// four times forty tools with 15 KiB each.
#[test]
fn dropped_keywords_of_many_tools_are_read_in_linear_time() {
    let policy = mcp_guard::Policy::default();
    let catalog_of = |text: &str| {
        let tools: Vec<String> = (0..40)
            .map(|i| {
                let t = serde_json::to_string(text).unwrap();
                format!(r#"{{"name":"t{i}","description":"d","inputSchema":{{"type":"object","x-note":{t}}}}}"#)
            })
            .collect();
        format!(r#"{{"tools":[{}]}}"#, tools.join(","))
    };
    for (unit, tail) in [("http://x.example/", " ?{chat}"), ("![", "](http://x)"), ("<span hidden>", ""), ("http", "?")] {
        let (small, large) = (catalog_of(&fill(unit, tail, 15 * 1024)), catalog_of(&fill(unit, tail, 60 * 1024)));
        let grows_linearly = (0..3).any(|_| {
            let t1 = best_time(&policy, &small, 3);
            let t4 = best_time(&policy, &large, 3);
            t4 <= t1 * 10 + std::time::Duration::from_millis(25)
        });
        assert!(grows_linearly, "{unit}: 60 KiB a tool cost over 10x 15 KiB a tool");
    }
}

/// Many strings of one tool with an encoded reading (each gets the rules'
/// second reading and a pointer): 32,000 base64 `examples` took 12 s when
/// each pointer was a walk of its own (red team, session 38). Four times
/// the strings must cost about four times the time.
#[test]
fn encoded_strings_of_one_tool_are_located_in_linear_time() {
    let policy = mcp_guard::Policy::default();
    let catalog_of = |n: usize| {
        let ex = vec!["\"QUJDREVGR0hJSktMTU5PUFFSU1RVVldY\""; n].join(",");
        format!(r#"{{"tools":[{{"name":"t","description":"d","inputSchema":{{"type":"object","properties":{{"a":{{"type":"string","examples":[{ex}]}}}}}}}}]}}"#)
    };
    let (small, large) = (catalog_of(2_000), catalog_of(8_000));
    let grows_linearly = (0..3).any(|_| {
        let t1 = best_time(&policy, &small, 3);
        let t4 = best_time(&policy, &large, 3);
        t4 <= t1 * 10 + std::time::Duration::from_millis(25)
    });
    assert!(grows_linearly, "8,000 encoded examples cost over 10x 2,000");
}
