//! Numbers a double cannot hold (issue 23 §4): a schema bound that
//! underflows to 0 (`minimum: 1e-400` reads as `minimum: 0` to every
//! consumer; `multipleOf: 1e-400` as the invalid `multipleOf: 0`) is refused
//! like one that overflows (`1e400`): `number-invalid`, the tool hidden. In
//! bounds and in enum/const/default/examples values, at any sign and
//! spelling.

use mcp_guard::{FindingKind, Policy, SanitizeOptions};
use proptest::prelude::*;

static POLICY: std::sync::LazyLock<Policy> = std::sync::LazyLock::new(Policy::default);

/// Where a number can stand in a property schema, as (keyword, how the
/// number is written there).
const SLOTS: &[(&str, &str)] = &[
    ("minimum", "{}"),
    ("maximum", "{}"),
    ("exclusiveMinimum", "{}"),
    ("exclusiveMaximum", "{}"),
    ("multipleOf", "{}"),
    ("enum", "[1, {}]"),
    ("const", "{}"),
    ("default", "{{\"a\": [{}]}}"),
    ("examples", "[{}]"),
    ("example", "{}"),
];

/// Nonzero lexemes below half the smallest subnormal (≈2.47e-324): their
/// double is 0.
fn underflowing() -> impl Strategy<Value = String> {
    (any::<bool>(), 1u32..10, "[0-9]{0,6}", -2000i32..-325, any::<bool>()).prop_map(|(neg, lead, frac, exp, upper)| {
        let frac = if frac.is_empty() { String::new() } else { format!(".{frac}") };
        format!("{}{lead}{frac}{}{exp}", if neg { "-" } else { "" }, if upper { "E" } else { "e" })
    })
}

fn run(keyword: &str, number: &str, form: &str) -> mcp_guard::Outcome {
    let value = form.replace("{}", number).replace("{{", "{").replace("}}", "}");
    let catalog = format!(
        r#"{{"tools":[{{"name":"pick","inputSchema":{{"type":"object","properties":{{"x":{{"type":"number","{keyword}":{value}}}}}}}}},{{"name":"ok","inputSchema":{{"type":"object"}}}}]}}"#
    );
    mcp_guard::sanitize(&POLICY, &catalog, &SanitizeOptions::default()).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_number_that_underflows_to_zero_hides_the_tool(slot in prop::sample::select(SLOTS), n in underflowing()) {
        let (keyword, form) = slot;
        let out = run(keyword, &n, form);
        prop_assert_eq!(out.hidden.len(), 1, "{} {}", keyword, n);
        prop_assert_eq!(out.hidden[0].reason, FindingKind::NumberInvalid);
        let f = out.findings.iter().find(|f| f.kind == FindingKind::NumberInvalid).unwrap();
        prop_assert_eq!(&f.pointer, &format!("/tools/0/inputSchema/properties/x/{keyword}"));
        prop_assert!(f.detail.contains("underflows"), "{}", f.detail);
        // The other tool is untouched.
        prop_assert!(out.catalog.contains(r#""name":"ok""#));
    }

    /// Zero itself, however it is spelled, and tiny numbers a double holds
    /// (subnormals down to 5e-324) are fine.
    #[test]
    fn zero_and_subnormals_are_kept(slot in prop::sample::select(SLOTS), zero in "-?0(\\.0{1,4})?([eE][-+]?[0-9]{1,4})?", sub in 5u32..10, exp in -324i32..-300) {
        let (keyword, form) = slot;
        for n in [zero.clone(), format!("{sub}e{exp}")] {
            if keyword == "multipleOf" && n == zero {
                continue; // 0 is no multipleOf, for its own reason.
            }
            let out = run(keyword, &n, form);
            prop_assert!(out.hidden.is_empty(), "{} {}: {:?}", keyword, n, out.hidden);
        }
    }
}

#[test]
fn minimum_1e_minus_400_is_refused_like_1e400() {
    for (n, why) in [("1e-400", "underflows a double to 0"), ("1e400", "overflows a double")] {
        let out = run("minimum", n, "{}");
        let f = out.findings.iter().find(|f| f.kind == FindingKind::NumberInvalid).unwrap();
        assert_eq!(f.detail, format!("minimum {n} {why}"));
        assert_eq!(out.hidden.len(), 1);
    }
    // multipleOf: number-invalid, not the "must be greater than 0" of a real 0.
    let out = run("multipleOf", "1e-400", "{}");
    assert_eq!(out.hidden[0].reason, FindingKind::NumberInvalid);
}
