//! The mediation conformance cases (`conformance/mediation/*.json`) through
//! the component's `mediator` resource, against the native engine's
//! `Mediator` on the same messages: every output, log lines included (as
//! compact text, every field), must be the same, in the same order.
//! (`tests/mediation.rs` holds the native outputs to the files.)

mod common;

use mcp_guard::json::{self, Object, Value};
use mcp_guard::mediate::{Mediator, Out};
use mcp_guard_host::{MediatorOut, SanitizeOptions};

fn parse(text: &str) -> Value {
    json::parse(text, json::ParseOptions { max_depth: 1024 }).expect("valid JSON").value
}

/// One output as text, tagged by where it goes.
fn native(o: Out) -> (&'static str, String) {
    match o {
        Out::Server(s) => ("server", s),
        Out::Client(s) => ("client", s),
        Out::Log(v) => ("log", json::write_compact(&v)),
        Out::Persist(r) => ("persist", r),
    }
}

fn component(o: MediatorOut) -> (&'static str, String) {
    match o {
        MediatorOut::Server(s) => ("server", s),
        MediatorOut::Client(s) => ("client", s),
        MediatorOut::Log(s) => ("log", s),
        MediatorOut::Persist(r) => ("persist", r),
    }
}

#[test]
fn the_component_mediates_every_case_exactly_as_the_native_engine() {
    let dir = common::workspace().join("conformance/mediation");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("conformance/mediation")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 10, "the mediation suite is missing: {cases:?}");
    let mut inst = common::instance();
    for path in cases {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let case = parse(&std::fs::read_to_string(&path).unwrap());
        let o = case.as_object().expect("a case is an object");
        if o.get("record").is_some() {
            // Pins kept across runs (`restart`, `approve`, `persist` steps):
            // the component's mediator takes no pin record yet (issue #24).
            println!("skipped {name}: the component's mediator takes no pin record yet");
            continue;
        }
        let policy_json = o.get("policy").map_or_else(|| "{}".to_string(), json::write_compact);
        let opts = o.get("options").and_then(Value::as_object).cloned().unwrap_or_else(Object::new);
        let server = opts.get("server").and_then(Value::as_str).map(str::to_string);
        let foreign: Vec<String> = opts
            .get("foreign_names")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        let prefix = o.get("id_prefix").and_then(Value::as_str).unwrap_or("mcp-guard-test");

        let mut m = Mediator::new(
            mcp_guard::Policy::from_json(&policy_json).expect("case policy"),
            mcp_guard::SanitizeOptions { server: server.clone(), foreign_names: foreign.clone() },
            prefix,
        )
        .expect("case prefix");
        let policy = inst.policy(&policy_json).unwrap().expect("case policy");
        let options = SanitizeOptions { server, foreign_names: foreign };
        let handle = inst.mediator(&policy, &options, prefix, None).unwrap().expect("case prefix");

        for (i, step) in o.get("steps").and_then(Value::as_array).expect("steps").iter().enumerate() {
            let step = step.as_object().expect("a step is an object");
            let text = match (step.get("message"), step.get("text")) {
                (Some(msg), None) => json::write_compact(msg),
                (None, Some(Value::String(t))) => t.clone(),
                _ => panic!("{name}: step {i} needs one of message, text"),
            };
            let client = step.get("from").and_then(Value::as_str) == Some("client");
            let (want, got): (Vec<_>, Vec<_>) = if client {
                (
                    m.on_client_line(text.as_bytes()).into_iter().map(native).collect(),
                    inst.on_client_message(&handle, &text).unwrap().into_iter().map(component).collect(),
                )
            } else {
                (
                    m.on_server_line(text.as_bytes()).into_iter().map(native).collect(),
                    inst.on_server_message(&handle, &text).unwrap().into_iter().map(component).collect(),
                )
            };
            assert_eq!(got, want, "{name} step {i}");
        }
        let native_baseline = m.baseline().map(|b| b.to_json());
        assert_eq!(inst.mediator_baseline(&handle).unwrap(), native_baseline, "{name}: the baseline to store");
        inst.drop_mediator(handle).unwrap();
        inst.drop_policy(policy).unwrap();
    }
}
