//! Parity producer for two hosts: the native engine and the component in
//! wasmtime. Reads the job list and writes one dump per host, in the format
//! of `parity/README.md` (run by `scripts/parity.sh`).
//!
//! ```sh
//! cargo run --release -p mcp-guard-host --example parity_dump -- JOBS.json NATIVE.jsonl WASMTIME.jsonl
//! ```
//!
//! The component is compiled once; every job gets a fresh instance (so one
//! job's linear memory does not carry into the next) and one compiled policy.
//! Both hosts go through the same driver (`run_job`): only the calls into
//! the engine differ.

use std::fmt::Write as _;
use std::io::Write as _;

use mcp_guard_host::{
    error_kind, to_native_outcome, CallDecision, Decision, GuardHost, GuardInstance, Limits, PolicyHandle,
    SanitizeOptions,
};
use serde_json::{json, Value};

/// One job of `jobs.json`.
struct Job {
    input: String,
    path: String,
    next_path: String,
    policy: String,
    policy_json: String,
    server: Option<String>,
    foreign_names: Vec<String>,
}

/// `Err` is an error kind (the WIT id, or `trap`).
type R<T> = Result<T, String>;

/// What the driver needs from a host. Baselines cross as text, as they do
/// for every host that stores them.
trait Host {
    type Policy;
    fn policy(&mut self, json: &str) -> R<Self::Policy>;
    /// The outcome, as its dump value.
    fn sanitize(&mut self, p: &Self::Policy, text: &str, o: &mcp_guard::SanitizeOptions) -> R<Value>;
    /// (baseline, outcome).
    fn pin(&mut self, p: &Self::Policy, text: &str, o: &mcp_guard::SanitizeOptions) -> R<(String, Value)>;
    /// (baseline, decision, drift, outcome).
    fn compare(
        &mut self,
        p: &Self::Policy,
        baseline: &str,
        text: &str,
        o: &mcp_guard::SanitizeOptions,
    ) -> R<(String, Value, Value, Value)>;
    /// The decision, or `{error}`.
    fn check_call(&mut self, baseline: &str, name: &str, args: Option<&str>) -> Value;
    fn drop_policy(&mut self, p: Self::Policy);
}

fn error(kind: impl Into<String>) -> Value {
    json!({ "error": kind.into() })
}

fn outcome(o: &mcp_guard::Outcome) -> Value {
    json!({
        "catalog": o.catalog,
        "findings": o.findings.iter().map(|f| json!({
            "action": f.action.id(), "detail": f.detail, "kind": f.kind.id(), "pointer": f.pointer,
            "severity": f.severity.id(), "tool": f.tool, "tool_index": f.tool_index,
        })).collect::<Vec<_>>(),
        "hidden": o.hidden.iter().map(|h| json!({
            "detail": h.detail, "index": h.index, "name": h.name, "reason": h.reason.id(),
        })).collect::<Vec<_>>(),
        "name_map": o.name_map.iter().map(|m| json!({"upstream": m.upstream, "visible": m.visible})).collect::<Vec<_>>(),
        "tools": o.tools.iter().map(|t| json!({
            "flagged": t.flagged, "index": t.index, "name": t.name, "raw_span": [t.raw_span.0, t.raw_span.1],
            "status": t.status.id(), "visible_name": t.visible_name,
        })).collect::<Vec<_>>(),
    })
}

/// Kebab-case id of a WIT enum case from its Debug name (`SessionInvalidated`).
fn kebab(debug: &str) -> String {
    let name = debug.rsplit("::").next().unwrap_or(debug);
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push('-');
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

// ---------------------------------------------------------------------------
// The native engine

struct Native;

impl Host for Native {
    type Policy = mcp_guard::Policy;

    fn policy(&mut self, json: &str) -> R<mcp_guard::Policy> {
        mcp_guard::Policy::from_json(json).map_err(|e| e.kind().to_string())
    }

    fn sanitize(&mut self, p: &mcp_guard::Policy, text: &str, o: &mcp_guard::SanitizeOptions) -> R<Value> {
        mcp_guard::sanitize(p, text, o).map(|o| outcome(&o)).map_err(|e| e.kind().to_string())
    }

    fn pin(&mut self, p: &mcp_guard::Policy, text: &str, o: &mcp_guard::SanitizeOptions) -> R<(String, Value)> {
        let pinned = mcp_guard::pinning::pin(p, text, o).map_err(|e| e.kind().to_string())?;
        Ok((pinned.baseline.to_json(), outcome(&pinned.outcome)))
    }

    fn compare(
        &mut self,
        p: &mcp_guard::Policy,
        baseline: &str,
        text: &str,
        o: &mcp_guard::SanitizeOptions,
    ) -> R<(String, Value, Value, Value)> {
        use mcp_guard::pinning::{Baseline, Decision as D};
        let b = Baseline::from_json(baseline).map_err(|e| e.kind().to_string())?;
        let c = mcp_guard::pinning::compare(p, &b, text, o).map_err(|e| e.kind().to_string())?;
        let decision = match &c.decision {
            D::Serve(catalog) => json!({"action": "serve", "catalog": catalog}),
            D::Refuse { invalidate, message } => json!({"action": "refuse", "invalidate": invalidate, "message": message}),
        };
        let drift = c
            .drift
            .iter()
            .map(|d| {
                json!({
                    "benign": d.benign,
                    "changes": d.changes.iter().map(|x| json!({"kind": x.kind.id(), "pointer": x.pointer})).collect::<Vec<_>>(),
                    "changes_truncated": d.changes_truncated, "fields": d.fields, "kind": d.kind.id(),
                    "name": d.name, "tool_index": d.tool_index,
                })
            })
            .collect();
        Ok((c.baseline.to_json(), decision, Value::Array(drift), outcome(&c.outcome)))
    }

    fn check_call(&mut self, baseline: &str, name: &str, args: Option<&str>) -> Value {
        use mcp_guard::pinning::{Baseline, CallDecision as D};
        let b = match Baseline::from_json(baseline) {
            Ok(b) => b,
            Err(e) => return error(e.kind()),
        };
        match mcp_guard::pinning::check_call(&b, name, args) {
            D::Allow(a) => {
                json!({"action": "allow", "arguments": a.arguments, "upstream": a.upstream, "warning": a.warning})
            }
            D::Refuse(r) => json!({
                "action": "refuse", "message": r.message, "reason": r.reason.id(),
                "violations": r.violations.iter().map(|v| json!({"pointer": v.pointer, "reason": v.reason})).collect::<Vec<_>>(),
            }),
            D::Respond(result) => json!({"action": "respond", "result": result}),
        }
    }

    fn drop_policy(&mut self, _: mcp_guard::Policy) {}
}

// ---------------------------------------------------------------------------
// The component in wasmtime

struct Wasm {
    g: GuardInstance,
    /// A trap poisons the instance: every later call of the job is `trap`.
    trapped: bool,
}

impl Wasm {
    /// Runs `f` unless the instance trapped; a trap (outer `Err`) becomes `trap`.
    fn call<T>(
        &mut self,
        f: impl FnOnce(&mut GuardInstance) -> Result<Result<T, mcp_guard_host::WitError>, mcp_guard_host::HostError>,
    ) -> R<T> {
        if self.trapped {
            return Err("trap".into());
        }
        match f(&mut self.g) {
            Ok(r) => r.map_err(|e| error_kind(&e).to_string()),
            Err(e) => {
                eprintln!("parity_dump: the component trapped: {e:#}");
                self.trapped = true;
                Err("trap".into())
            }
        }
    }
}

fn wit_options(o: &mcp_guard::SanitizeOptions) -> SanitizeOptions {
    mcp_guard_host::options_from_native(o)
}

fn wit_outcome(o: mcp_guard_host::Outcome) -> Value {
    // The conversion maps every WIT case back by its id and fails on an
    // unknown one, so nothing is lost on the way.
    outcome(&to_native_outcome(o).unwrap_or_else(|e| panic!("parity_dump: {e}")))
}

impl Host for Wasm {
    type Policy = PolicyHandle;

    fn policy(&mut self, json: &str) -> R<PolicyHandle> {
        self.call(|g| g.policy(json))
    }

    fn sanitize(&mut self, p: &PolicyHandle, text: &str, o: &mcp_guard::SanitizeOptions) -> R<Value> {
        self.call(|g| g.sanitize(p, text, &wit_options(o))).map(wit_outcome)
    }

    fn pin(&mut self, p: &PolicyHandle, text: &str, o: &mcp_guard::SanitizeOptions) -> R<(String, Value)> {
        self.call(|g| g.pin(p, text, &wit_options(o))).map(|x| (x.baseline, wit_outcome(x.outcome)))
    }

    fn compare(
        &mut self,
        p: &PolicyHandle,
        baseline: &str,
        text: &str,
        o: &mcp_guard::SanitizeOptions,
    ) -> R<(String, Value, Value, Value)> {
        let c = self.call(|g| g.compare(p, baseline, text, &wit_options(o)))?;
        let decision = match &c.decision {
            Decision::Serve(catalog) => json!({"action": "serve", "catalog": catalog}),
            Decision::Refuse(r) => json!({"action": "refuse", "invalidate": r.invalidate, "message": r.message}),
        };
        let drift = c
            .drift
            .iter()
            .map(|d| {
                json!({
                    "benign": d.benign,
                    "changes": d.changes.iter().map(|x| json!({"kind": kebab(&format!("{:?}", x.kind)), "pointer": x.pointer})).collect::<Vec<_>>(),
                    "changes_truncated": d.changes_truncated, "fields": d.fields, "kind": kebab(&format!("{:?}", d.kind)),
                    "name": d.name, "tool_index": d.tool_index,
                })
            })
            .collect();
        Ok((c.baseline, decision, Value::Array(drift), wit_outcome(c.outcome)))
    }

    fn check_call(&mut self, baseline: &str, name: &str, args: Option<&str>) -> Value {
        match self.call(|g| g.check_call(baseline, name, args)) {
            Err(kind) => error(kind),
            Ok(CallDecision::Allow(a)) => {
                json!({"action": "allow", "arguments": a.arguments, "upstream": a.upstream, "warning": a.warning})
            }
            Ok(CallDecision::Refuse(r)) => json!({
                "action": "refuse", "message": r.message, "reason": kebab(&format!("{:?}", r.reason)),
                "violations": r.violations.iter().map(|v| json!({"pointer": v.pointer, "reason": v.reason})).collect::<Vec<_>>(),
            }),
            Ok(CallDecision::Respond(result)) => json!({"action": "respond", "result": result}),
        }
    }

    fn drop_policy(&mut self, p: PolicyHandle) {
        if !self.trapped {
            let _ = self.g.drop_policy(p);
        }
    }
}

// ---------------------------------------------------------------------------
// The driver: the same steps for every host (parity/README.md, "Dump format").

/// The calls of the dump format, for a served catalog.
fn calls(served_catalog: &str) -> Vec<(String, Option<String>)> {
    // The engine's parser, not serde_json: serde_json stops at 128 levels,
    // and a served catalog can be deeper (Node's and Python's parsers are not
    // limited there). No depth limit: the engine's own output is bounded.
    use mcp_guard::json::{parse, ParseOptions, Value as J};
    let first = parse(served_catalog, ParseOptions { max_depth: usize::MAX }).ok().and_then(|p| {
        let J::Array(tools) = p.value.as_object()?.get("tools")? else { return None };
        tools.first()?.as_object()?.get("name")?.as_str().map(str::to_string)
    });
    let mut out = Vec::new();
    if let Some(f) = first {
        let quoted = serde_json::to_string(&f).unwrap();
        out.push((f, Some("{}".to_string())));
        out.push(("call_tool".into(), Some(format!(r#"{{"name":{quoted},"arguments":{{}}}}"#))));
    }
    out.push(("search_tools".into(), Some(r#"{"query":"read a file"}"#.into())));
    out.push(("no-such-tool".into(), None));
    out
}

fn run_calls<H: Host>(h: &mut H, baseline: &str, calls: &[(String, Option<String>)]) -> Value {
    Value::Array(
        calls
            .iter()
            .map(|(name, args)| {
                json!({"arguments": args, "decision": h.check_call(baseline, name, args.as_deref()), "name": name})
            })
            .collect(),
    )
}

fn run_job<H: Host>(h: &mut H, job: &Job, text: &str, next: &str) -> Value {
    let opts = mcp_guard::SanitizeOptions { server: job.server.clone(), foreign_names: job.foreign_names.clone() };
    let mut line = json!({
        "input": job.input, "policy": job.policy, "policy_error": null,
        "sanitize": null, "pin": null, "calls": null, "compare": null,
    });
    let p = match h.policy(&job.policy_json) {
        Ok(p) => p,
        Err(kind) => {
            line["policy_error"] = kind.into();
            return line;
        }
    };
    line["sanitize"] = h.sanitize(&p, text, &opts).unwrap_or_else(error);
    match h.pin(&p, text, &opts) {
        Err(kind) => line["pin"] = error(kind),
        Ok((baseline, out)) => {
            let calls = calls(out["catalog"].as_str().unwrap_or(""));
            line["pin"] = json!({"baseline": baseline, "outcome": out});
            line["calls"] = run_calls(h, &baseline, &calls);
            line["compare"] = match h.compare(&p, &baseline, next, &opts) {
                Err(kind) => error(kind),
                Ok((next_baseline, decision, drift, out)) => json!({
                    "baseline": next_baseline, "calls": run_calls(h, &next_baseline, &calls),
                    "decision": decision, "drift": drift, "outcome": out,
                }),
            };
        }
    }
    h.drop_policy(p);
    line
}

// ---------------------------------------------------------------------------
// Canonical writing (parity/README.md): sorted keys, no whitespace, strings
// escaped as JSON.stringify does (serde_json escapes the same set, with
// lowercase hex).

fn write_canonical(v: &Value, out: &mut String) {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(k).unwrap());
                out.push(':');
                write_canonical(&m[k], out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(x, out);
            }
            out.push(']');
        }
        Value::Number(n) => {
            assert!(n.is_u64() || n.is_i64(), "parity_dump: the dump holds integers only, got {n}");
            write!(out, "{n}").unwrap();
        }
        other => out.push_str(&serde_json::to_string(other).unwrap()),
    }
}

fn read_jobs(path: &str) -> Vec<Job> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let s = |j: &Value, k: &str| j[k].as_str().unwrap_or_else(|| panic!("{path}: job field {k}")).to_string();
    v["jobs"]
        .as_array()
        .expect("jobs")
        .iter()
        .map(|j| Job {
            input: s(j, "input"),
            path: s(j, "path"),
            next_path: s(j, "next_path"),
            policy: s(j, "policy"),
            policy_json: s(j, "policy_json"),
            server: j["server"].as_str().map(str::to_string),
            foreign_names: j["foreign_names"]
                .as_array()
                .expect("foreign_names")
                .iter()
                .map(|n| n.as_str().expect("foreign name").to_string())
                .collect(),
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [jobs, native_out, wasm_out] = args.as_slice() else {
        eprintln!("usage: parity_dump JOBS.json NATIVE.jsonl WASMTIME.jsonl");
        std::process::exit(2);
    };
    let jobs = read_jobs(jobs);
    // Fuel metering off: no budget is set, and metering only slows the run.
    let host = GuardHost::from_file(&mcp_guard_host::wasm_path(), false).unwrap_or_else(|e| panic!("{e:#}"));
    let mut native_file = std::io::BufWriter::new(std::fs::File::create(native_out).expect(native_out));
    let mut wasm_file = std::io::BufWriter::new(std::fs::File::create(wasm_out).expect(wasm_out));
    let read = |p: &str| std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let t0 = std::time::Instant::now();
    let (mut t_native, mut t_wasm) = (std::time::Duration::ZERO, std::time::Duration::ZERO);
    for job in &jobs {
        let (text, next) = (read(&job.path), read(&job.next_path));
        let mut line = String::new();
        let t = std::time::Instant::now();
        write_canonical(&run_job(&mut Native, job, &text, &next), &mut line);
        t_native += t.elapsed();
        line.push('\n');
        native_file.write_all(line.as_bytes()).unwrap();
        line.clear();
        let t = std::time::Instant::now();
        let mut w = Wasm { g: host.instantiate(Limits::default()).expect("instantiate"), trapped: false };
        write_canonical(&run_job(&mut w, job, &text, &next), &mut line);
        t_wasm += t.elapsed();
        line.push('\n');
        wasm_file.write_all(line.as_bytes()).unwrap();
    }
    native_file.flush().unwrap();
    wasm_file.flush().unwrap();
    eprintln!(
        "parity_dump: {} jobs in {:.1} s (native {:.1} s, wasmtime {:.1} s)",
        jobs.len(),
        t0.elapsed().as_secs_f64(),
        t_native.as_secs_f64(),
        t_wasm.as_secs_f64()
    );
}
