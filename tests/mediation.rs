//! Mediation conformance (`conformance/mediation/*.json`): scripted
//! conversations between a client and a server through the mediator, with
//! what must go each way and be logged after every message. The files are
//! the contract every host that wraps `mcp_guard::mediate` replays.
//!
//! A case:
//! ```json
//! {"about": "what it shows (the attack it stops)",
//!  "policy": {…}, "options": {"server": "docs", "foreign_names": []},
//!  "id_prefix": "mcp-guard-test",
//!  "steps": [{"from": "client" | "server",
//!             "message": <a JSON-RPC message> | "text": "<raw bytes as UTF-8 text>",
//!             "to_server": [<message>…], "to_client": [<message>…],
//!             "log": [<log line, compared as a subset>…]}]}
//! ```
//! `policy`, `options`, `id_prefix` (default `mcp-guard-test`) and the
//! expectations (default `[]`) are optional.
//!
//! Pins across runs: a case with `"record": {"key": "<server key>"}` runs the
//! mediator with a pin record (`Mediator::with_record`, none stored at
//! first). Each step may expect `"persist": [<record, compared as a
//! subset>…]` (the `Out::Persist` texts). Two steps stand for what a host
//! and a person do between runs: `{"restart": true}` starts a new mediator
//! (a new run) with the record last persisted, and `{"approve": [<tool>…]}`
//! approves pending tools in it (`[]`: all), as `mcp-guard pins approve`
//! does. Messages are compared as
//! compact JSON text: key order is part of the contract (the mediator's
//! output is deterministic). Log lines are compared in order and count,
//! each as a subset: an expected object's keys must be present with equal
//! values (objects inside compared the same way, arrays element by
//! element), so texts meant for people (`message`, `detail`) may be left out.
//!
//! `UPDATE_MEDIATION=1 cargo test --test mediation` rewrites the
//! expectations from what the mediator does (log lines without `message`,
//! `detail`, `server`), for review by hand.

use mcp_guard::json::{self, Object, Value};
use mcp_guard::mediate::{Mediator, Out};
use mcp_guard::pinning::PinRecord;
use mcp_guard::{Policy, SanitizeOptions};
use std::path::{Path, PathBuf};

#[path = "../testdata/testdata.rs"]
mod testdata;

fn cases() -> Vec<PathBuf> {
    testdata::mediation_cases()
}

fn parse(text: &str) -> Value {
    json::parse(text, json::ParseOptions { max_depth: 1024 }).expect("valid JSON").value
}

fn mediator(case: &Object) -> Mediator {
    let policy = match case.get("policy") {
        Some(p) => Policy::from_json(&json::write_compact(p)).expect("case policy"),
        None => Policy::default(),
    };
    let mut opts = SanitizeOptions::default();
    if let Some(o) = case.get("options").and_then(Value::as_object) {
        opts.server = o.get("server").and_then(Value::as_str).map(str::to_string);
        if let Some(Value::Array(a)) = o.get("foreign_names") {
            opts.foreign_names = a.iter().filter_map(Value::as_str).map(str::to_string).collect();
        }
    }
    let prefix = case.get("id_prefix").and_then(Value::as_str).unwrap_or("mcp-guard-test");
    Mediator::new(policy, opts, prefix).expect("case id prefix")
}

/// The record's server key, for a case that keeps pins across runs.
fn record_key(case: &Object) -> Option<String> {
    case.get("record").and_then(Value::as_object).and_then(|r| r.get("key")).and_then(Value::as_str).map(str::to_string)
}

/// A persisted record as `UPDATE_MEDIATION` writes it: the key, the server
/// info and the names of approved and pending tools (digests change with
/// every engine version).
fn record_for_update(v: &Value) -> Value {
    let o = v.as_object().cloned().unwrap_or_default();
    let names = |a: Option<&Value>, keep: &[&str]| {
        Value::Array(
            a.and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_object)
                        .map(|e| Value::Object(e.iter().filter(|(k, _)| keep.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect()))
                        .collect()
                })
                .unwrap_or_default(),
        )
    };
    let approved = o.get("approved").and_then(Value::as_object);
    let mut a = Object::new();
    a.insert("pins", names(approved.and_then(|a| a.get("pins")), &["name"]));
    let mut r = Object::new();
    for k in ["key", "server_info"] {
        r.insert(k, o.get(k).cloned().unwrap_or(Value::Null));
    }
    r.insert("approved", Value::Object(a));
    r.insert("pending", names(o.get("pending"), &["name", "kind"]));
    Value::Object(r)
}

/// `expected` is `actual` or a part of it (see the module docs).
fn subset(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => e.iter().all(|(k, v)| a.get(k).is_some_and(|av| subset(v, av))),
        (Value::Array(e), Value::Array(a)) => e.len() == a.len() && e.iter().zip(a).all(|(x, y)| subset(x, y)),
        _ => json::write_compact(expected) == json::write_compact(actual),
    }
}

/// A log line as `UPDATE_MEDIATION` writes it: without texts for people.
fn log_for_update(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(o) = v.as_object_mut() {
        o.retain(|k, _| !matches!(k, "message" | "server"));
        if let Some(Value::Object(f)) = o.get_mut("finding") {
            f.retain(|k, _| k != "detail");
        }
    }
    v
}

fn array<'a>(step: &'a Object, key: &str) -> &'a [Value] {
    step.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

/// Runs one case; returns the failures (empty: it passed) and the case with
/// the actual outputs as its expectations.
fn run(path: &Path) -> (Vec<String>, Value) {
    let mut case = parse(&std::fs::read_to_string(path).unwrap());
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let o = case.as_object().unwrap_or_else(|| panic!("{name}: not an object"));
    let key = record_key(o);
    let start = |stored: Option<&str>| match &key {
        Some(k) => mediator(o).with_record(k, stored).expect("case record"),
        None => mediator(o),
    };
    let mut m = start(None);
    let mut persisted: Option<String> = None;
    let mut failures = Vec::new();
    let steps = o.get("steps").and_then(Value::as_array).cloned().unwrap_or_else(|| panic!("{name}: no steps"));
    let mut updated = Vec::new();
    for (i, step) in steps.into_iter().enumerate() {
        let Value::Object(mut step) = step else { panic!("{name}: step {i} is not an object") };
        if step.get("restart") == Some(&Value::Bool(true)) {
            m = start(persisted.as_deref());
            updated.push(Value::Object(step));
            continue;
        }
        if let Some(Value::Array(tools)) = step.get("approve") {
            let tools: Vec<String> = tools.iter().filter_map(Value::as_str).map(str::to_string).collect();
            let mut r = PinRecord::from_json(persisted.as_deref().unwrap_or_else(|| panic!("{name}: step {i}: nothing persisted")))
                .expect("persisted record");
            r.approve(&tools).unwrap_or_else(|e| panic!("{name}: step {i}: {e}"));
            persisted = Some(r.to_json());
            updated.push(Value::Object(step));
            continue;
        }
        let bytes = match (step.get("message"), step.get("text")) {
            (Some(msg), None) => json::write_compact(msg),
            (None, Some(Value::String(t))) => t.clone(),
            _ => panic!("{name}: step {i} needs one of message, text"),
        };
        let out = match step.get("from").and_then(Value::as_str) {
            Some("client") => m.on_client_line(bytes.as_bytes()),
            Some("server") => m.on_server_line(bytes.as_bytes()),
            other => panic!("{name}: step {i}: from {other:?}"),
        };
        let (mut to_server, mut to_client, mut logs, mut persists) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for o in &out {
            match o {
                Out::Server(l) => to_server.push(parse(l)),
                Out::Client(l) => to_client.push(parse(l)),
                Out::Log(v) => logs.push(v.clone()),
                Out::Persist(r) => {
                    persisted = Some(r.clone());
                    persists.push(parse(r));
                }
            }
        }
        let want_persist = array(&step, "persist");
        if !(want_persist.len() == persists.len() && want_persist.iter().zip(&persists).all(|(w, a)| subset(w, a))) {
            let got: Vec<String> = persists.iter().map(|r| json::write_compact(&record_for_update(r))).collect();
            failures.push(format!("{name} step {i} persist:\n  want {want_persist:#?}\n  got  {got:#?}"));
        }
        if !persists.is_empty() || step.contains_key("persist") {
            step.insert("persist", Value::Array(persists.iter().map(record_for_update).collect()));
        }
        for (key, actual) in [("to_server", &to_server), ("to_client", &to_client)] {
            let want: Vec<String> = array(&step, key).iter().map(json::write_compact).collect();
            let got: Vec<String> = actual.iter().map(json::write_compact).collect();
            if want != got {
                failures.push(format!("{name} step {i} {key}:\n  want {want:#?}\n  got  {got:#?}"));
            }
        }
        let want_logs = array(&step, "log");
        let logs_ok = want_logs.len() == logs.len() && want_logs.iter().zip(&logs).all(|(w, a)| subset(w, a));
        if !logs_ok {
            let got: Vec<String> = logs.iter().map(json::write_compact).collect();
            let want: Vec<String> = want_logs.iter().map(json::write_compact).collect();
            failures.push(format!("{name} step {i} log:\n  want {want:#?}\n  got  {got:#?}"));
        }
        step.insert("to_server", Value::Array(to_server));
        step.insert("to_client", Value::Array(to_client));
        step.insert("log", Value::Array(logs.iter().map(log_for_update).collect()));
        updated.push(Value::Object(step));
    }
    if let Some(o) = case.as_object_mut() {
        o.insert("steps", Value::Array(updated));
    }
    (failures, case)
}

#[test]
fn mediation_cases_replay_as_scripted() {
    let update = std::env::var_os("UPDATE_MEDIATION").is_some();
    let all = cases();
    assert!(all.len() >= 10, "the mediation suite is missing: {all:?}");
    let mut failures = Vec::new();
    for path in &all {
        let (f, actual) = run(path);
        if update && !f.is_empty() {
            let mut text = json::write_pretty(&actual);
            text.push('\n');
            std::fs::write(path, text).unwrap();
        }
        failures.extend(f);
    }
    assert!(update || failures.is_empty(), "{}", failures.join("\n\n"));
}
