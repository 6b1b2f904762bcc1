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
    let cases = common::testdata::mediation_cases();
    assert!(cases.len() >= 10, "the mediation suite is missing: {cases:?}");
    let mut inst = common::instance();
    for path in cases {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let case = parse(&std::fs::read_to_string(&path).unwrap());
        let o = case.as_object().expect("a case is an object");
        let policy_json = o.get("policy").map_or_else(|| "{}".to_string(), json::write_compact);
        let opts = o.get("options").and_then(Value::as_object).cloned().unwrap_or_else(Object::new);
        let server = opts.get("server").and_then(Value::as_str).map(str::to_string);
        let foreign: Vec<String> = opts
            .get("foreign_names")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).map(str::to_string).collect())
            .unwrap_or_default();
        let prefix = o.get("id_prefix").and_then(Value::as_str).unwrap_or("mcp-guard-test");

        // A case with `record` keeps pins across runs: both sides start
        // from the record last persisted (by the native side; the component
        // must persist the same text), `restart` is a new run and `approve`
        // approves pending tools, natively and through `record-approve`.
        let key = o.get("record").and_then(Value::as_object).and_then(|r| r.get("key")).and_then(Value::as_str);
        let policy = inst.policy(&policy_json).unwrap().expect("case policy");
        let options = SanitizeOptions { server: server.clone(), foreign_names: foreign.clone() };
        let start = |inst: &mut mcp_guard_host::GuardInstance, stored: Option<&str>| {
            let m = Mediator::new(
                mcp_guard::Policy::from_json(&policy_json).expect("case policy"),
                mcp_guard::SanitizeOptions { server: server.clone(), foreign_names: foreign.clone() },
                prefix,
            )
            .expect("case prefix");
            match key {
                Some(k) => (
                    m.with_record(k, stored).expect("case record"),
                    inst.mediator_with_record(&policy, &options, prefix, k, stored).unwrap().expect("case record"),
                ),
                None => (m, inst.mediator(&policy, &options, prefix, None).unwrap().expect("case prefix")),
            }
        };
        let (mut m, mut handle) = start(&mut inst, None);
        let mut persisted: Option<String> = None;

        for (i, step) in o.get("steps").and_then(Value::as_array).expect("steps").iter().enumerate() {
            let step = step.as_object().expect("a step is an object");
            if step.get("restart") == Some(&Value::Bool(true)) {
                inst.drop_mediator(handle).unwrap();
                (m, handle) = start(&mut inst, persisted.as_deref());
                continue;
            }
            if let Some(Value::Array(tools)) = step.get("approve") {
                let tools: Vec<String> = tools.iter().filter_map(Value::as_str).map(str::to_string).collect();
                let text = persisted.clone().unwrap_or_else(|| panic!("{name}: step {i}: nothing persisted"));
                let mut r = mcp_guard::pinning::PinRecord::from_json(&text).expect("persisted record");
                let names = r.approve(&tools).expect("approve");
                let edited = inst.record_approve(&text, &tools).unwrap().expect("record-approve");
                assert_eq!((edited.text.as_str(), &edited.names), (r.to_json().as_str(), &names), "{name} step {i}: approve");
                persisted = Some(edited.text);
                continue;
            }
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
            if let Some((_, r)) = want.iter().rev().find(|(to, _)| *to == "persist") {
                persisted = Some(r.clone());
            }
        }
        if key.is_some() {
            assert!(persisted.is_some(), "{name}: a record case persists a record");
            assert_eq!(
                inst.mediator_pin_record(&handle).unwrap(),
                m.record().map(|r| r.to_json()),
                "{name}: the record as it stands"
            );
        }
        let native_baseline = m.baseline().map(|b| b.to_json());
        assert_eq!(inst.mediator_baseline(&handle).unwrap(), native_baseline, "{name}: the baseline to store");
        inst.drop_mediator(handle).unwrap();
        inst.drop_policy(policy).unwrap();
    }
}
