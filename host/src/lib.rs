//! The wasmtime host of the mcp-guard component (`dist/mcp-guard.wasm`,
//! built by `scripts/build-component.sh`): what `mcp-guard --engine wasm`
//! runs the engine through, and what this crate's tests check byte for byte
//! against the native engine (parity, conformance, sandbox limits).
//!
//! - [`GuardHost`] compiles the component once (the expensive part, 60–80 ms
//!   release) and hands out sandboxed instances.
//! - [`GuardInstance`] is one `Store` + instance with a memory limit and,
//!   optionally, a fuel budget. The component imports nothing, so the linker
//!   is empty: the guest can compute and allocate, nothing else.
//! - A trap (fuel exhausted, memory limit, a guest panic) poisons the instance;
//!   drop it and instantiate a fresh one (cheap: the component stays compiled).
//!
//! The `to_native_*` functions turn the WIT types back into the engine's own
//! types so tests can compare a component run with a native one with `==`
//! (`sanitize` results, and `schema` results: `to_native_normalized`,
//! `to_native_violations`, `dialect_to_native` / `dialect_from_native`).

use std::path::{Path, PathBuf};

use wasmtime::component::{Component, Linker, ResourceAny};
use wasmtime::{Config, Engine, Store, StoreLimits, StoreLimitsBuilder};

mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "guard",
    });
}

pub use bindings::exports::mcp_guard::engine::sanitize::{Outcome, SanitizeOptions};
pub use bindings::exports::mcp_guard::engine::schema::{Change, Normalized, SchemaError, Violation};
pub use bindings::exports::mcp_guard::engine::pinning::{
    AllowedCall, CallDecision, CallRefusal, ChangeKind, Compared, Decision, Drift, DriftKind, EditedRecord,
    ListingRefusal, PinRecord, Pinned, RecordError, RefusalReason,
};

pub use bindings::exports::mcp_guard::engine::discovery::SearchHit;
/// What one message makes a mediator do (`server`, `client`, `log`).
pub use bindings::exports::mcp_guard::engine::mediation::Out as MediatorOut;

pub mod session;
pub use bindings::exports::mcp_guard::engine::types::{
    Action, Dialect, Error as WitError, Finding, FindingKind, HiddenTool, InvalidJsonError, NameMapping,
    Severity, ToolReport, ToolStatus,
};
use bindings::{Guard, GuardPre};

/// Error type of the host side (`anyhow`-style, from wasmtime): traps,
/// fuel exhaustion, memory limit, a missing or invalid `.wasm`.
pub type HostError = wasmtime::Error;

/// Environment variable that overrides the component path.
pub const WASM_ENV: &str = "MCP_GUARD_WASM";

/// The component path: `$MCP_GUARD_WASM`, else `<workspace>/dist/mcp-guard.wasm`.
pub fn wasm_path() -> PathBuf {
    match std::env::var_os(WASM_ENV) {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("../dist/mcp-guard.wasm"),
    }
}

/// Per-instance sandbox limits.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest linear memory the guest may grow to, in bytes. Growing past it
    /// traps (rather than handing the guest a failed `memory.grow`, which the
    /// Rust allocator would turn into an abort anyway).
    pub memory_bytes: usize,
    /// Fuel for the whole life of the instance (roughly one unit per wasm
    /// instruction); `None` = unlimited.
    pub fuel: Option<u64>,
}

impl Default for Limits {
    /// 256 MiB of linear memory (the default policy admits 16 MiB catalogs,
    /// which need several copies in flight) and unlimited fuel.
    fn default() -> Self {
        Limits { memory_bytes: 256 << 20, fuel: None }
    }
}

/// Store data: only the limiter. The component has no imports to serve.
struct HostState {
    limits: PeakLimits,
}

/// The store's limits, recording the largest linear memory the guest asked
/// for (linear memory never shrinks, so that is its peak).
struct PeakLimits {
    inner: StoreLimits,
    peak: usize,
}

impl wasmtime::ResourceLimiter for PeakLimits {
    fn memory_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        let ok = self.inner.memory_growing(current, desired, maximum)?;
        if ok {
            self.peak = self.peak.max(desired);
        }
        Ok(ok)
    }

    fn table_growing(&mut self, current: usize, desired: usize, maximum: Option<usize>) -> wasmtime::Result<bool> {
        self.inner.table_growing(current, desired, maximum)
    }
}

/// The compiled component, ready to instantiate many times.
pub struct GuardHost {
    engine: Engine,
    pre: GuardPre<HostState>,
    fuel_metering: bool,
}

impl GuardHost {
    /// Loads and compiles the component from [`wasm_path`], with fuel
    /// metering on.
    pub fn load() -> Result<GuardHost, HostError> {
        GuardHost::from_file(&wasm_path(), true)
    }

    /// Loads and compiles a component file. `fuel_metering` makes every
    /// instance count fuel (a few percent slower; required for
    /// [`Limits::fuel`]).
    pub fn from_file(path: &Path, fuel_metering: bool) -> Result<GuardHost, HostError> {
        let bytes = std::fs::read(path).map_err(|e| {
            wasmtime::format_err!(
                "cannot read the component {}: {e} (build it with scripts/build-component.sh, or set {WASM_ENV})",
                path.display()
            )
        })?;
        GuardHost::from_bytes(&bytes, fuel_metering)
    }

    /// Compiles a component from its bytes.
    pub fn from_bytes(bytes: &[u8], fuel_metering: bool) -> Result<GuardHost, HostError> {
        let mut config = Config::new();
        config.consume_fuel(fuel_metering);
        // Linear memory is initialized by copying the data segments, not
        // from a copy-on-write image: on Linux that image is a sealed memfd,
        // and sealing it failed once in CI under load ("cannot add seals to
        // the memfd", session 38), failing the whole engine. A copy of the
        // component's data segments (3.5 MB) per instance costs about what
        // faulting in the same pages of an image costs, and depends on
        // nothing of the kernel's.
        config.memory_init_cow(false);
        let engine = Engine::new(&config)?;
        let component = Component::from_binary(&engine, bytes)?;
        // Empty linker: the component must import nothing, and this fails
        // if it does.
        let linker = Linker::<HostState>::new(&engine);
        let pre = GuardPre::new(linker.instantiate_pre(&component)?)?;
        Ok(GuardHost { engine, pre, fuel_metering })
    }

    /// A fresh sandboxed instance.
    pub fn instantiate(&self, limits: Limits) -> Result<GuardInstance, HostError> {
        let state = HostState {
            limits: PeakLimits {
                inner: StoreLimitsBuilder::new().memory_size(limits.memory_bytes).trap_on_grow_failure(true).build(),
                peak: 0,
            },
        };
        let mut store = Store::new(&self.engine, state);
        store.limiter(|s| &mut s.limits);
        match (self.fuel_metering, limits.fuel) {
            (true, fuel) => store.set_fuel(fuel.unwrap_or(u64::MAX))?,
            (false, None) => {}
            (false, Some(_)) => wasmtime::bail!("a fuel budget needs a GuardHost built with fuel metering"),
        }
        let guard = self.pre.instantiate(&mut store)?;
        Ok(GuardInstance { store, guard })
    }
}

/// A compiled policy living inside one instance.
pub struct PolicyHandle(ResourceAny);

/// A mediated conversation living inside one instance.
pub struct MediatorHandle(ResourceAny);

/// One instantiated component with its own store and limits.
pub struct GuardInstance {
    store: Store<HostState>,
    guard: Guard,
}

impl GuardInstance {
    /// `engine-version` of the component.
    pub fn engine_version(&mut self) -> Result<String, HostError> {
        self.guard.mcp_guard_engine_sanitize().call_engine_version(&mut self.store)
    }

    /// The `policy` constructor. Outer `Err`: a trap; inner `Err`: the
    /// component's typed error.
    pub fn policy(&mut self, json: &str) -> Result<Result<PolicyHandle, WitError>, HostError> {
        let r = self.guard.mcp_guard_engine_sanitize().policy().call_constructor(&mut self.store, json)?;
        Ok(r.map(PolicyHandle))
    }

    /// `policy.sanitize`.
    pub fn sanitize(
        &mut self,
        policy: &PolicyHandle,
        catalog: &str,
        options: &SanitizeOptions,
    ) -> Result<Result<Outcome, WitError>, HostError> {
        self.guard.mcp_guard_engine_sanitize().policy().call_sanitize(&mut self.store, policy.0, catalog, options)
    }

    /// `pinning.pin`: sanitize and pin. Outer `Err`: a trap.
    pub fn pin(
        &mut self,
        policy: &PolicyHandle,
        catalog: &str,
        options: &SanitizeOptions,
    ) -> Result<Result<Pinned, WitError>, HostError> {
        self.guard.mcp_guard_engine_pinning().call_pin(&mut self.store, policy.0, catalog, options)
    }

    /// `pinning.compare`: sanitize and compare with a session baseline.
    pub fn compare(
        &mut self,
        policy: &PolicyHandle,
        baseline: &str,
        catalog: &str,
        options: &SanitizeOptions,
    ) -> Result<Result<Compared, WitError>, HostError> {
        self.guard.mcp_guard_engine_pinning().call_compare(&mut self.store, policy.0, baseline, catalog, options)
    }

    /// `pinning.check-call`: decide a tools/call in a session.
    pub fn check_call(
        &mut self,
        baseline: &str,
        name: &str,
        arguments: Option<&str>,
    ) -> Result<Result<CallDecision, WitError>, HostError> {
        self.guard.mcp_guard_engine_pinning().call_check_call(&mut self.store, baseline, name, arguments)
    }

    /// `discovery.search`. Outer `Err`: a trap.
    pub fn search(&mut self, baseline: &str, query: &str, limit: u32) -> Result<Result<Vec<SearchHit>, WitError>, HostError> {
        self.guard.mcp_guard_engine_discovery().call_search(&mut self.store, baseline, query, limit)
    }

    /// `discovery.tool-schema`. Outer `Err`: a trap.
    pub fn tool_schema(&mut self, baseline: &str, name: &str) -> Result<Result<Option<String>, WitError>, HostError> {
        self.guard.mcp_guard_engine_discovery().call_tool_schema(&mut self.store, baseline, name)
    }

    /// `discovery.estimate-tokens`. Outer `Err`: a trap.
    pub fn estimate_tokens(&mut self, catalog: &str) -> Result<u64, HostError> {
        self.guard.mcp_guard_engine_discovery().call_estimate_tokens(&mut self.store, catalog)
    }

    /// The `mediator` constructor (`mediation`): one guarded MCP
    /// conversation. Outer `Err`: a trap; inner `Err`: the typed error.
    pub fn mediator(
        &mut self,
        policy: &PolicyHandle,
        options: &SanitizeOptions,
        id_prefix: &str,
        baseline: Option<&str>,
    ) -> Result<Result<MediatorHandle, WitError>, HostError> {
        let r = self.guard.mcp_guard_engine_mediation().mediator().call_constructor(
            &mut self.store,
            policy.0,
            options,
            id_prefix,
            baseline,
        )?;
        Ok(r.map(MediatorHandle))
    }

    /// `mediator.with-record`: a conversation that keeps pins across runs
    /// in the pin record of server `key` (`stored`: the host's record, if
    /// any). Outer `Err`: a trap; inner `Err`: the typed error.
    pub fn mediator_with_record(
        &mut self,
        policy: &PolicyHandle,
        options: &SanitizeOptions,
        id_prefix: &str,
        key: &str,
        stored: Option<&str>,
    ) -> Result<Result<MediatorHandle, WitError>, HostError> {
        let r = self.guard.mcp_guard_engine_mediation().mediator().call_with_record(
            &mut self.store,
            policy.0,
            options,
            id_prefix,
            key,
            stored,
        )?;
        Ok(r.map(MediatorHandle))
    }

    /// `mediator.pin-record`: the record as it stands.
    pub fn mediator_pin_record(&mut self, m: &MediatorHandle) -> Result<Option<String>, HostError> {
        self.guard.mcp_guard_engine_mediation().mediator().call_pin_record(&mut self.store, m.0)
    }

    /// `pinning.record-show`. Outer `Err`: a trap.
    pub fn record_show(&mut self, stored: &str) -> Result<Result<PinRecord, RecordError>, HostError> {
        self.guard.mcp_guard_engine_pinning().call_record_show(&mut self.store, stored)
    }

    /// `pinning.record-approve` (`names` empty: every pending tool). Outer `Err`: a trap.
    pub fn record_approve(&mut self, stored: &str, names: &[String]) -> Result<Result<EditedRecord, RecordError>, HostError> {
        self.guard.mcp_guard_engine_pinning().call_record_approve(&mut self.store, stored, names)
    }

    /// `pinning.record-forget`. Outer `Err`: a trap.
    pub fn record_forget(&mut self, stored: &str, names: &[String]) -> Result<Result<EditedRecord, RecordError>, HostError> {
        self.guard.mcp_guard_engine_pinning().call_record_forget(&mut self.store, stored, names)
    }

    /// `pinning.record-id`. Outer `Err`: a trap.
    pub fn record_id(&mut self, key: &str) -> Result<String, HostError> {
        self.guard.mcp_guard_engine_pinning().call_record_id(&mut self.store, key)
    }

    /// The policy a mediator with a pin record works under (`record-policy`).
    pub fn record_policy(&mut self, policy: &str) -> Result<String, HostError> {
        self.guard.mcp_guard_engine_pinning().call_record_policy(&mut self.store, policy)
    }

    /// `mediator.on-client-message`.
    pub fn on_client_message(&mut self, m: &MediatorHandle, message: &str) -> Result<Vec<MediatorOut>, HostError> {
        self.guard.mcp_guard_engine_mediation().mediator().call_on_client_message(&mut self.store, m.0, message)
    }

    /// `mediator.on-server-message`.
    pub fn on_server_message(&mut self, m: &MediatorHandle, message: &str) -> Result<Vec<MediatorOut>, HostError> {
        self.guard.mcp_guard_engine_mediation().mediator().call_on_server_message(&mut self.store, m.0, message)
    }

    /// `mediator.baseline`: what a pin store saves after a listing.
    pub fn mediator_baseline(&mut self, m: &MediatorHandle) -> Result<Option<String>, HostError> {
        self.guard.mcp_guard_engine_mediation().mediator().call_baseline(&mut self.store, m.0)
    }

    /// Drops a mediator inside the guest.
    pub fn drop_mediator(&mut self, m: MediatorHandle) -> Result<(), HostError> {
        m.0.resource_drop(&mut self.store)
    }

    /// Drops a policy inside the guest.
    pub fn drop_policy(&mut self, policy: PolicyHandle) -> Result<(), HostError> {
        policy.0.resource_drop(&mut self.store)
    }

    /// Compiles `policy_json`, sanitizes `catalog`, drops the policy. An
    /// invalid policy comes back as the inner `Err`, like a bad catalog.
    pub fn sanitize_once(
        &mut self,
        policy_json: &str,
        catalog: &str,
        options: &SanitizeOptions,
    ) -> Result<Result<Outcome, WitError>, HostError> {
        let policy = match self.policy(policy_json)? {
            Ok(p) => p,
            Err(e) => return Ok(Err(e)),
        };
        let out = self.sanitize(&policy, catalog, options)?;
        self.drop_policy(policy)?;
        Ok(out)
    }

    /// `schema.normalize-schema`. Outer `Err`: a trap; inner `Err`: the
    /// component's typed `schema-error`.
    pub fn normalize_schema(
        &mut self,
        schema: &str,
        target: Dialect,
        max_ref_depth: u32,
        node_budget: u32,
    ) -> Result<Result<Normalized, SchemaError>, HostError> {
        self.guard.mcp_guard_engine_schema().call_normalize_schema(&mut self.store, schema, target, max_ref_depth, node_budget)
    }

    /// `schema.coerce-arguments`: the arguments to forward (JSON text), or
    /// every violation of the original schema. Outer `Err`: a trap.
    pub fn coerce_arguments(
        &mut self,
        original_schema: &str,
        target: Dialect,
        arguments: &str,
    ) -> Result<Result<String, Vec<Violation>>, HostError> {
        self.guard.mcp_guard_engine_schema().call_coerce_arguments(&mut self.store, original_schema, target, arguments)
    }

    /// `schema.validate`: every violation; empty = valid. Outer `Err`: a trap.
    pub fn validate(&mut self, schema: &str, instance: &str) -> Result<Vec<Violation>, HostError> {
        self.guard.mcp_guard_engine_schema().call_validate(&mut self.store, schema, instance)
    }

    /// `schema.tool-name-ok`. Outer `Err`: a trap.
    pub fn tool_name_ok(&mut self, name: &str, target: Dialect) -> Result<bool, HostError> {
        self.guard.mcp_guard_engine_schema().call_tool_name_ok(&mut self.store, name, target)
    }

    /// The largest linear memory this instance has had, in bytes (its
    /// memory never shrinks).
    pub fn peak_memory(&self) -> usize {
        self.store.data().limits.peak
    }

    /// Fuel left in the store.
    pub fn fuel(&self) -> Result<u64, HostError> {
        self.store.get_fuel()
    }
}

/// Options with no server and no foreign names (the engine's default).
pub fn default_options() -> SanitizeOptions {
    SanitizeOptions { server: None, foreign_names: Vec::new() }
}

/// The WIT options for the engine's options.
pub fn options_from_native(o: &mcp_guard::SanitizeOptions) -> SanitizeOptions {
    SanitizeOptions { server: o.server.clone(), foreign_names: o.foreign_names.clone() }
}

// ---------------------------------------------------------------------------
// WIT -> engine types, so a component result compares with `==` against a
// native one. Enum cases go through their kebab-case ids: the same ids the
// WIT uses, so a case the two sides spell differently fails loudly.

/// Kebab-case WIT id of a finding kind (e.g. `result-key-dropped`).
pub fn finding_kind_id(k: FindingKind) -> String {
    // The generated enum's Debug prints the Rust variant name; the WIT case
    // is its kebab-case spelling.
    kebab(&format!("{k:?}"))
}

fn kebab(debug: &str) -> String {
    let name = debug.rsplit("::").next().unwrap_or(debug);
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn native_kind(k: FindingKind) -> Result<mcp_guard::FindingKind, String> {
    let id = finding_kind_id(k);
    mcp_guard::FindingKind::from_id(&id).ok_or_else(|| format!("WIT finding kind `{id}` is unknown to the engine"))
}

fn native_severity(s: Severity) -> mcp_guard::Severity {
    match s {
        Severity::Info => mcp_guard::Severity::Info,
        Severity::Low => mcp_guard::Severity::Low,
        Severity::Medium => mcp_guard::Severity::Medium,
        Severity::High => mcp_guard::Severity::High,
        Severity::Critical => mcp_guard::Severity::Critical,
    }
}

fn native_action(a: Action) -> mcp_guard::Action {
    match a {
        Action::Removed => mcp_guard::Action::Removed,
        Action::Rewritten => mcp_guard::Action::Rewritten,
        Action::Truncated => mcp_guard::Action::Truncated,
        Action::Hidden => mcp_guard::Action::Hidden,
        Action::Flagged => mcp_guard::Action::Flagged,
        Action::Mapped => mcp_guard::Action::Mapped,
    }
}

fn native_status(s: ToolStatus) -> mcp_guard::ToolStatus {
    match s {
        ToolStatus::Clean => mcp_guard::ToolStatus::Clean,
        ToolStatus::Rewritten => mcp_guard::ToolStatus::Rewritten,
        ToolStatus::Truncated => mcp_guard::ToolStatus::Truncated,
        ToolStatus::Hidden => mcp_guard::ToolStatus::Hidden,
    }
}

/// Stable kebab-case id of a WIT error case (same as `mcp_guard::Error::kind`).
pub fn error_kind(e: &WitError) -> &'static str {
    match e {
        WitError::InvalidJson(_) => "invalid-json",
        WitError::DuplicateKey(_) => "duplicate-key",
        WitError::TooDeep(_) => "too-deep",
        WitError::TooLarge(_) => "too-large",
        WitError::InvalidEnvelope(_) => "invalid-envelope",
        WitError::InvalidPolicy(_) => "invalid-policy",
        WitError::InvalidBaseline(_) => "invalid-baseline",
        WitError::Other(_) => "other",
    }
}

/// The engine error a WIT error stands for.
pub fn to_native_error(e: WitError) -> mcp_guard::Error {
    use mcp_guard::Error as E;
    match e {
        WitError::InvalidJson(x) => E::InvalidJson { offset: x.offset, reason: x.reason },
        WitError::DuplicateKey(x) => E::DuplicateKey { pointer: x.pointer, key: x.key },
        WitError::TooDeep(max_depth) => E::TooDeep { max_depth },
        WitError::TooLarge(x) => E::TooLarge { limit: x.limit, actual: x.actual },
        WitError::InvalidEnvelope(reason) => E::InvalidEnvelope { reason },
        WitError::InvalidPolicy(x) => E::InvalidPolicy { field: x.field, reason: x.reason },
        WitError::InvalidBaseline(reason) => E::InvalidBaseline { reason },
        WitError::Other(s) => E::Other(s),
    }
}

/// The engine outcome a WIT outcome stands for. `Err` names a finding kind
/// the engine does not know (the WIT and the engine disagree).
pub fn to_native_outcome(o: Outcome) -> Result<mcp_guard::Outcome, String> {
    let findings = o
        .findings
        .into_iter()
        .map(|f| {
            Ok(mcp_guard::Finding {
                kind: native_kind(f.kind)?,
                severity: native_severity(f.severity),
                tool: f.tool,
                tool_index: f.tool_index,
                pointer: f.pointer,
                action: native_action(f.action),
                detail: f.detail,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let hidden = o
        .hidden
        .into_iter()
        .map(|h| {
            Ok(mcp_guard::HiddenTool { index: h.index, name: h.name, reason: native_kind(h.reason)?, detail: h.detail })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let tools = o
        .tools
        .into_iter()
        .map(|t| mcp_guard::ToolReport {
            index: t.index,
            name: t.name,
            visible_name: t.visible_name,
            status: native_status(t.status),
            flagged: t.flagged,
            raw_span: (t.raw_span.start, t.raw_span.end),
        })
        .collect();
    let name_map = o
        .name_map
        .into_iter()
        .map(|m| mcp_guard::NameMapping { visible: m.visible, upstream: m.upstream })
        .collect();
    Ok(mcp_guard::Outcome { catalog: o.catalog, findings, hidden, tools, name_map })
}

/// A component result as the engine's own `Result`.
pub fn to_native(r: Result<Outcome, WitError>) -> Result<Result<mcp_guard::Outcome, mcp_guard::Error>, String> {
    match r {
        Ok(o) => to_native_outcome(o).map(Ok),
        Err(e) => Ok(Err(to_native_error(e))),
    }
}

/// The finding-kind case names of `enum finding-kind` in `wit/types.wit`,
/// in order (for the check that the WIT mirrors `FindingKind::ALL`).
pub fn wit_finding_kind_cases() -> Result<Vec<String>, String> {
    wit_enum_cases("finding-kind")
}

/// The case names of `enum NAME` in `wit/types.wit`, in order.
fn wit_enum_cases(name: &str) -> Result<Vec<String>, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../wit/types.wit");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    // Case lines only: doc comments may hold braces (`{}`), so the enum ends
    // at the first line that is a lone `}`.
    let start = text.find(&format!("enum {name} {{")).ok_or_else(|| format!("no `enum {name}` in wit/types.wit"))?;
    Ok(text[start..]
        .lines()
        .skip(1)
        .map(str::trim)
        .take_while(|l| *l != "}")
        .filter(|l| !l.is_empty() && !l.starts_with("//"))
        .map(|l| l.trim_end_matches(',').trim_start_matches('%').to_string())
        .collect())
}

// ---------------------------------------------------------------------------
// The `schema` interface.

/// Every WIT dialect, in WIT order.
pub const DIALECTS: [Dialect; 5] =
    [Dialect::None, Dialect::Gemini, Dialect::OpenaiStrict, Dialect::Anthropic, Dialect::Portable];

/// Kebab-case WIT id of a dialect (e.g. `openai-strict`).
pub fn dialect_id(d: Dialect) -> String {
    kebab(&format!("{d:?}"))
}

/// The engine's dialect for a WIT one, by id (so a case the two sides spell
/// differently fails loudly).
pub fn dialect_to_native(d: Dialect) -> Result<mcp_guard::policy::Dialect, String> {
    let id = dialect_id(d);
    mcp_guard::policy::Dialect::from_id(&id).ok_or_else(|| format!("WIT dialect `{id}` is unknown to the engine"))
}

/// The WIT dialect for an engine one (exhaustive: a dialect the engine grows
/// is a compile error here).
pub fn dialect_from_native(d: mcp_guard::policy::Dialect) -> Dialect {
    use mcp_guard::policy::Dialect as D;
    match d {
        D::None => Dialect::None,
        D::Gemini => Dialect::Gemini,
        D::OpenAiStrict => Dialect::OpenaiStrict,
        D::Anthropic => Dialect::Anthropic,
        D::Portable => Dialect::Portable,
    }
}

/// The engine changes the WIT changes stand for. `Err` names a finding kind
/// the engine does not know.
pub fn to_native_changes(changes: Vec<Change>) -> Result<Vec<mcp_guard::dialect::Change>, String> {
    changes
        .into_iter()
        .map(|c| {
            Ok(mcp_guard::dialect::Change {
                kind: native_kind(c.kind)?,
                severity: native_severity(c.severity),
                pointer: c.pointer,
                action: native_action(c.action),
                detail: c.detail,
            })
        })
        .collect()
}

/// The engine's `Normalized` a WIT one stands for (its schema text parsed
/// with the engine's parser). `Err`: an unknown finding kind, or schema text
/// that does not parse.
pub fn to_native_normalized(n: Normalized) -> Result<mcp_guard::dialect::Normalized, String> {
    let schema = mcp_guard::json::parse(&n.schema, mcp_guard::json::ParseOptions::default())
        .map_err(|e| format!("the component's schema text is not valid JSON: {e}"))?
        .value;
    Ok(mcp_guard::dialect::Normalized { schema, changes: to_native_changes(n.changes)?, strict_ok: n.strict_ok })
}

/// The engine violations the WIT ones stand for.
pub fn to_native_violations(v: Vec<Violation>) -> Vec<mcp_guard::dialect::Violation> {
    v.into_iter().map(|v| mcp_guard::dialect::Violation { pointer: v.pointer, reason: v.reason }).collect()
}

/// Stable kebab-case id of a `schema-error` case.
pub fn schema_error_kind(e: &SchemaError) -> &'static str {
    match e {
        SchemaError::InvalidJson(_) => "invalid-json",
        SchemaError::Unsupported(_) => "unsupported",
        SchemaError::Other(_) => "other",
    }
}

/// The case names of `enum dialect` in `wit/types.wit`, in order.
pub fn wit_dialect_cases() -> Result<Vec<String>, String> {
    wit_enum_cases("dialect")
}
