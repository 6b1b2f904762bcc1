//! mcp-guard as a WebAssembly component: world `mcp-guard:engine/guard`
//! (`wit/`), built for `wasm32-unknown-unknown` and wrapped by
//! `wasm-tools component new` (see `scripts/build-component.sh`), so the
//! component imports nothing: no WASI, no clock, no I/O.
//!
//! The only WIT-aware code is the `bindings` module below; it translates the
//! plain engine types one to one and adds no behaviour of its own, except
//! parsing and writing the JSON text the `schema` interface takes and returns
//! (with the engine's own strict parser and compact writer).
//!
//! Memory: `alloc` is the component's allocator, an arena for each call's own
//! work over dlmalloc for the compiled policy; every export but the policy
//! constructor starts with `alloc::per_call()`. The only hand-written
//! `unsafe` is there.
//!
//! Panics: with `panic = "abort"` (profile `wasm`) a panic is a bare trap that
//! poisons the instance, and there is nothing to catch it with. So nothing in
//! here unwraps: every engine failure is an `Err` mapped to the WIT `error`
//! (or `schema-error`) variant, including a finding kind this WIT version does
//! not know yet, and JSON text that does not parse is a typed answer too.

// The crate only links for wasm: its export names contain `:`.
#![cfg(target_family = "wasm")]
#![deny(unsafe_code)]

// A global allocator can only be written with `unsafe`: allowed in there.
mod alloc;

/// Marker type the WIT exports are implemented on.
struct Component;

/// A compiled policy, owned by the component behind a WIT `policy` handle.
struct GuardPolicy(mcp_guard::Policy);

/// One mediated MCP conversation behind a WIT `mediator` handle. The WIT
/// methods take `&self`; the mediator changes with every message.
struct GuardMediator(std::cell::RefCell<mcp_guard::mediate::Mediator>);

mod bindings {
    // `unsafe` is confined to the generated glue (canonical ABI lifting and
    // lowering); the hand-written code below is safe Rust.
    #![allow(unsafe_code)]

    wit_bindgen::generate!({
        path: "../wit",
        world: "guard",
    });

    use super::{Component, GuardMediator, GuardPolicy};
    use exports::mcp_guard::engine::mediation::{Guest as MediationGuest, GuestMediator, Out};
    use exports::mcp_guard::engine::sanitize::{
        Guest, GuestPolicy, Outcome, SanitizeOptions,
    };
    use exports::mcp_guard::engine::schema::{
        Change, Guest as SchemaGuest, Normalized, SchemaError, Violation,
    };
    use exports::mcp_guard::engine::pinning::{
        AllowedCall, ApprovedTool, CallDecision, CallRefusal, Change as PinChange, ChangeKind, Compared, Decision,
        Drift, DriftKind, EditedRecord, Guest as PinningGuest, ListingRefusal, PendingChange, PendingKind,
        PendingTool, PinRecord, Pinned, RecordError, RefusalReason, ServerInfo,
    };
    use exports::mcp_guard::engine::discovery::{Guest as DiscoveryGuest, SearchHit};
    use exports::mcp_guard::engine::sanitize::PolicyBorrow;
    use mcp_guard::pinning as pin;
    use exports::mcp_guard::engine::types::{
        Action, ByteSpan, Dialect, DuplicateKeyError, Error, Finding, FindingKind, HiddenTool,
        InvalidJsonError, InvalidPolicyError, NameMapping, Severity, ToolReport, ToolStatus,
        TooLargeError,
    };
    use mcp_guard::json::{self, ParseError, ParseOptions, Value};

    export!(Component);

    impl Guest for Component {
        type Policy = GuardPolicy;

        fn engine_version() -> String {
            mcp_guard::ENGINE_VERSION.to_string()
        }
    }

    impl GuestPolicy for GuardPolicy {
        fn new(json: String) -> Result<Self, Error> {
            // The policy outlives the call: not in the per-call arena.
            crate::alloc::persistent();
            mcp_guard::Policy::from_json(&json).map(GuardPolicy).map_err(error)
        }

        fn sanitize(&self, catalog: String, options: SanitizeOptions) -> Result<Outcome, Error> {
            crate::alloc::per_call();
            let out = mcp_guard::sanitize(&self.0, &catalog, &native_options(options)).map_err(error)?;
            // Free the input before building the (possibly large) output
            // lists: linear memory only grows, and the store has a limit.
            drop(catalog);
            outcome(out)
        }
    }

    impl SchemaGuest for Component {
        fn normalize_schema(
            schema: String,
            target: Dialect,
            max_ref_depth: u32,
            node_budget: u32,
        ) -> Result<Normalized, SchemaError> {
            crate::alloc::per_call();
            let value = parse(&schema).map_err(|e| {
                SchemaError::InvalidJson(InvalidJsonError { offset: e.offset as u64, reason: e.to_string() })
            })?;
            drop(schema);
            let n = mcp_guard::dialect::normalize(&value, dialect(target), max_ref_depth, node_budget)
                .map_err(SchemaError::Unsupported)?;
            drop(value);
            let changes = n
                .changes
                .into_iter()
                .map(|c| {
                    Ok(Change {
                        kind: finding_kind(c.kind).map_err(SchemaError::Other)?,
                        severity: severity(c.severity),
                        pointer: c.pointer,
                        action: action(c.action),
                        detail: c.detail,
                    })
                })
                .collect::<Result<Vec<_>, SchemaError>>()?;
            Ok(Normalized { schema: json::write_compact(&n.schema), changes, strict_ok: n.strict_ok })
        }

        fn coerce_arguments(original_schema: String, target: Dialect, arguments: String) -> Result<String, Vec<Violation>> {
            crate::alloc::per_call();
            let (original, args) = parse_pair(&original_schema, "the original schema is", &arguments, "the arguments are")?;
            drop((original_schema, arguments));
            mcp_guard::dialect::coerce_arguments(&original, dialect(target), &args)
                .map(|v| json::write_compact(&v))
                .map_err(violations)
        }

        fn validate(schema: String, instance: String) -> Vec<Violation> {
            crate::alloc::per_call();
            match parse_pair(&schema, "the schema is", &instance, "the instance is") {
                Ok((schema, instance)) => violations(mcp_guard::dialect::validate(&schema, &instance)),
                Err(unreadable) => unreadable,
            }
        }

        fn tool_name_ok(name: String, target: Dialect) -> bool {
            mcp_guard::dialect::tool_name_ok(&name, dialect(target))
        }
    }

    impl PinningGuest for Component {
        fn pin(policy: PolicyBorrow<'_>, catalog: String, options: SanitizeOptions) -> Result<Pinned, Error> {
            crate::alloc::per_call();
            let p = mcp_guard::pinning::pin(&policy.get::<GuardPolicy>().0, &catalog, &native_options(options)).map_err(error)?;
            drop(catalog);
            Ok(Pinned { baseline: p.baseline.to_json(), outcome: outcome(p.outcome)? })
        }

        fn compare(
            policy: PolicyBorrow<'_>,
            baseline: String,
            catalog: String,
            options: SanitizeOptions,
        ) -> Result<Compared, Error> {
            crate::alloc::per_call();
            let b = mcp_guard::pinning::Baseline::from_json(&baseline).map_err(error)?;
            drop(baseline);
            let c = mcp_guard::pinning::compare(&policy.get::<GuardPolicy>().0, &b, &catalog, &native_options(options))
                .map_err(error)?;
            drop((b, catalog));
            let drift = c
                .drift
                .into_iter()
                .map(|d| Drift {
                    kind: match d.kind {
                        pin::DriftKind::Changed => DriftKind::Changed,
                        pin::DriftKind::New => DriftKind::New,
                        pin::DriftKind::Removed => DriftKind::Removed,
                    },
                    name: d.name,
                    tool_index: d.tool_index,
                    fields: d.fields,
                    changes: d
                        .changes
                        .into_iter()
                        .map(|c| PinChange { pointer: c.pointer, kind: change_kind(c.kind) })
                        .collect(),
                    changes_truncated: d.changes_truncated,
                    benign: d.benign,
                })
                .collect();
            let decision = match c.decision {
                pin::Decision::Serve(catalog) => Decision::Serve(catalog),
                pin::Decision::Refuse { invalidate, message } => Decision::Refuse(ListingRefusal { invalidate, message }),
            };
            Ok(Compared { baseline: c.baseline.to_json(), outcome: outcome(c.outcome)?, drift, decision })
        }

        fn check_call(baseline: String, name: String, arguments: Option<String>) -> Result<CallDecision, Error> {
            crate::alloc::per_call();
            let b = mcp_guard::pinning::Baseline::from_json(&baseline).map_err(error)?;
            drop(baseline);
            Ok(match mcp_guard::pinning::check_call(&b, &name, arguments.as_deref()) {
                pin::CallDecision::Allow(a) => {
                    CallDecision::Allow(AllowedCall { upstream: a.upstream, arguments: a.arguments, warning: a.warning })
                }
                pin::CallDecision::Respond(result) => CallDecision::Respond(result),
                pin::CallDecision::Refuse(r) => CallDecision::Refuse(CallRefusal {
                    reason: match r.reason {
                        pin::RefusalReason::SessionInvalidated => RefusalReason::SessionInvalidated,
                        pin::RefusalReason::HiddenTool => RefusalReason::HiddenTool,
                        pin::RefusalReason::DriftedTool => RefusalReason::DriftedTool,
                        pin::RefusalReason::ConfusableName => RefusalReason::ConfusableName,
                        pin::RefusalReason::UnknownTool => RefusalReason::UnknownTool,
                        pin::RefusalReason::InvalidArguments => RefusalReason::InvalidArguments,
                        pin::RefusalReason::Quarantined => RefusalReason::Quarantined,
                    },
                    message: r.message,
                    violations: violations(r.violations),
                }),
            })
        }

        fn record_id(key: String) -> String {
            pin::record_id(&key)
        }

        fn record_policy(policy: String) -> String {
            crate::alloc::per_call();
            pin::record_policy(&policy)
        }

        fn record_show(stored: String) -> Result<PinRecord, RecordError> {
            crate::alloc::per_call();
            Ok(record_view(&read_record(&stored)?))
        }

        fn record_approve(stored: String, names: Vec<String>) -> Result<EditedRecord, RecordError> {
            crate::alloc::per_call();
            let mut r = read_record(&stored)?;
            let names = r.approve(&names).map_err(record_error)?;
            Ok(EditedRecord { text: r.to_json(), names })
        }

        fn record_forget(stored: String, names: Vec<String>) -> Result<EditedRecord, RecordError> {
            crate::alloc::per_call();
            let mut r = read_record(&stored)?;
            let names = r.forget(&names).map_err(record_error)?;
            Ok(EditedRecord { text: r.to_json(), names })
        }
    }

    /// The pin record operations of `mcp-guard pins`, over a record's text:
    /// each reads it with `PinRecord::from_json`, calls the record's own
    /// method and writes it back; nothing is decided here.
    fn read_record(text: &str) -> Result<pin::PinRecord, RecordError> {
        pin::PinRecord::from_json(text).map_err(|e| match e {
            mcp_guard::Error::InvalidBaseline { reason } => RecordError::InvalidBaseline(reason),
            other => RecordError::InvalidBaseline(other.to_string()),
        })
    }

    fn record_error(e: pin::RecordError) -> RecordError {
        match e {
            pin::RecordError::NotPending { name } => RecordError::NotPending(name),
            pin::RecordError::UnknownTool { name } => RecordError::UnknownTool(name),
            // A case the engine adds later: a refusal, never a silent success.
            other => RecordError::InvalidBaseline(other.to_string()),
        }
    }

    fn change_kind(k: pin::ChangeKind) -> ChangeKind {
        match k {
            pin::ChangeKind::Added => ChangeKind::Added,
            pin::ChangeKind::Removed => ChangeKind::Removed,
            pin::ChangeKind::Modified => ChangeKind::Modified,
            pin::ChangeKind::Reordered => ChangeKind::Reordered,
        }
    }

    fn record_view(r: &pin::PinRecord) -> PinRecord {
        let text = |v: &Value| json::write_compact(v);
        let mut approved: Vec<ApprovedTool> = r
            .approved
            .pins
            .iter()
            .map(|p| ApprovedTool { name: p.name.clone(), digest: p.digest.clone(), definition: text(&p.def) })
            .collect();
        approved.sort_by(|a, b| a.name.cmp(&b.name));
        let pending = r
            .pending
            .iter()
            .map(|p| {
                let (changes, truncated) = r.pending_changes(p);
                let old = r.approved.pin(&p.pin.name).map(|x| &x.def);
                PendingTool {
                    name: p.pin.name.clone(),
                    kind: match p.kind {
                        pin::PendingKind::Changed => PendingKind::Changed,
                        pin::PendingKind::New => PendingKind::New,
                    },
                    digest: p.pin.digest.clone(),
                    changes: changes
                        .iter()
                        .map(|c| PendingChange {
                            pointer: c.pointer.clone(),
                            kind: change_kind(c.kind),
                            before: old.and_then(|v| json::pointer_get(v, &c.pointer)).map(text),
                            after: json::pointer_get(&p.pin.def, &c.pointer).map(text),
                        })
                        .collect(),
                    changes_truncated: truncated,
                    approved_definition: old.map(text),
                    definition: text(&p.pin.def),
                }
            })
            .collect();
        PinRecord {
            id: pin::record_id(&r.key),
            key: r.key.clone(),
            server_info: r.server_info.as_ref().map(|i| ServerInfo { name: i.name.clone(), version: i.version.clone() }),
            approved,
            pending,
        }
    }

    impl DiscoveryGuest for Component {
        fn search(baseline: String, query: String, limit: u32) -> Result<Vec<SearchHit>, Error> {
            crate::alloc::per_call();
            let b = mcp_guard::pinning::Baseline::from_json(&baseline).map_err(error)?;
            Ok(mcp_guard::discovery::search_tools(&b, &query, limit as usize)
                .into_iter()
                .map(|h| SearchHit { name: h.name, title: h.title, summary: h.summary })
                .collect())
        }

        fn tool_schema(baseline: String, name: String) -> Result<Option<String>, Error> {
            crate::alloc::per_call();
            let b = mcp_guard::pinning::Baseline::from_json(&baseline).map_err(error)?;
            Ok(mcp_guard::discovery::tool_schema(&b, &name).map(|o| json::write_compact(&Value::Object(o.clone()))))
        }

        fn estimate_tokens(catalog: String) -> u64 {
            crate::alloc::per_call();
            mcp_guard::discovery::estimate_tokens(&catalog)
        }
    }

    impl MediationGuest for Component {
        type Mediator = GuardMediator;
    }

    // Every mediator call allocates in `persistent` mode: the mediator's
    // state (requests in flight, the baseline) outlives the call, and an
    // arena block kept alive would hold the arena from ever starting over.
    impl GuestMediator for GuardMediator {
        fn new(
            policy: PolicyBorrow<'_>,
            options: SanitizeOptions,
            id_prefix: String,
            baseline: Option<String>,
        ) -> Result<Self, Error> {
            crate::alloc::persistent();
            let policy = policy.get::<GuardPolicy>().0.clone();
            let m = mcp_guard::mediate::Mediator::new(policy, native_options(options), &id_prefix)
                .map_err(|e| Error::Other(e.to_string()))?;
            let m = match baseline {
                Some(b) => m.with_baseline(mcp_guard::pinning::Baseline::from_json(&b).map_err(error)?),
                None => m,
            };
            Ok(GuardMediator(std::cell::RefCell::new(m)))
        }

        fn with_record(
            policy: PolicyBorrow<'_>,
            options: SanitizeOptions,
            id_prefix: String,
            key: String,
            stored: Option<String>,
        ) -> Result<exports::mcp_guard::engine::mediation::Mediator, Error> {
            crate::alloc::persistent();
            let policy = policy.get::<GuardPolicy>().0.clone();
            let m = mcp_guard::mediate::Mediator::new(policy, native_options(options), &id_prefix)
                .map_err(|e| Error::Other(e.to_string()))?
                .with_record(&key, stored.as_deref())
                .map_err(error)?;
            Ok(exports::mcp_guard::engine::mediation::Mediator::new(GuardMediator(std::cell::RefCell::new(m))))
        }

        fn pin_record(&self) -> Option<String> {
            crate::alloc::persistent();
            self.0.borrow().record().map(|r| r.to_json())
        }

        fn on_client_message(&self, message: String) -> Vec<Out> {
            crate::alloc::persistent();
            let out = self.0.borrow_mut().on_client_line(message.as_bytes());
            drop(message);
            outs(out)
        }

        fn on_server_message(&self, message: String) -> Vec<Out> {
            crate::alloc::persistent();
            let out = self.0.borrow_mut().on_server_line(message.as_bytes());
            drop(message);
            outs(out)
        }

        fn baseline(&self) -> Option<String> {
            crate::alloc::persistent();
            self.0.borrow().baseline().map(|b| b.to_json())
        }

        fn dead(&self) -> Option<String> {
            self.0.borrow().dead().map(str::to_string)
        }

        fn relisting(&self) -> bool {
            self.0.borrow().relisting()
        }

        fn restore(&self, baseline: Option<String>) -> Result<(), Error> {
            crate::alloc::persistent();
            let b = baseline.map(|b| mcp_guard::pinning::Baseline::from_json(&b)).transpose().map_err(error)?;
            self.0.borrow_mut().set_baseline(b);
            Ok(())
        }
    }

    /// The engine's `Out` one to one. Exhaustive on purpose: a case the
    /// engine adds (e.g. `Persist`) is a compile error here until the WIT
    /// `out` variant has it, so no message is ever dropped on the way out.
    fn outs(v: Vec<mcp_guard::mediate::Out>) -> Vec<Out> {
        use mcp_guard::mediate::Out as O;
        v.into_iter()
            .map(|o| match o {
                O::Server(s) => Out::Server(s),
                O::Client(s) => Out::Client(s),
                O::Log(v) => Out::Log(json::write_compact(&v)),
                O::Persist(r) => Out::Persist(r),
            })
            .collect()
    }

    fn native_options(o: SanitizeOptions) -> mcp_guard::SanitizeOptions {
        mcp_guard::SanitizeOptions { server: o.server, foreign_names: o.foreign_names }
    }

    /// The engine's strict parser with its default bounds (128 levels), as
    /// for a catalog.
    fn parse(text: &str) -> Result<Value, ParseError> {
        json::parse(text, ParseOptions::default()).map(|p| p.value)
    }

    /// Parses two texts; `Err` holds one violation at `""` per text that is
    /// not valid JSON (the first one first), naming which text (`a_is`:
    /// "the schema is") and why.
    fn parse_pair(a: &str, a_is: &str, b: &str, b_is: &str) -> Result<(Value, Value), Vec<Violation>> {
        let unreadable = |is: &str, e: ParseError| Violation {
            pointer: String::new(),
            reason: format!("{is} not valid JSON: {e}"),
        };
        match (parse(a), parse(b)) {
            (Ok(a), Ok(b)) => Ok((a, b)),
            (a, b) => {
                let mut out = Vec::new();
                if let Err(e) = a {
                    out.push(unreadable(a_is, e));
                }
                if let Err(e) = b {
                    out.push(unreadable(b_is, e));
                }
                Err(out)
            }
        }
    }

    fn violations(v: Vec<mcp_guard::dialect::Violation>) -> Vec<Violation> {
        v.into_iter().map(|v| Violation { pointer: v.pointer, reason: v.reason }).collect()
    }

    // Exhaustive both ways: a dialect the engine grows is a compile error here.
    fn dialect(d: Dialect) -> mcp_guard::policy::Dialect {
        use mcp_guard::policy::Dialect as D;
        match d {
            Dialect::None => D::None,
            Dialect::Gemini => D::Gemini,
            Dialect::OpenaiStrict => D::OpenAiStrict,
            Dialect::Anthropic => D::Anthropic,
            Dialect::Portable => D::Portable,
        }
    }

    fn outcome(out: mcp_guard::Outcome) -> Result<Outcome, Error> {
        let findings = out
            .findings
            .into_iter()
            .map(|f| {
                Ok(Finding {
                    kind: finding_kind(f.kind).map_err(Error::Other)?,
                    severity: severity(f.severity),
                    tool: f.tool,
                    tool_index: f.tool_index,
                    pointer: f.pointer,
                    action: action(f.action),
                    detail: f.detail,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let hidden = out
            .hidden
            .into_iter()
            .map(|h| {
                Ok(HiddenTool {
                    index: h.index,
                    name: h.name,
                    reason: finding_kind(h.reason).map_err(Error::Other)?,
                    detail: h.detail,
                })
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let tools = out
            .tools
            .into_iter()
            .map(|t| ToolReport {
                    index: t.index,
                    name: t.name,
                    visible_name: t.visible_name,
                    status: tool_status(t.status),
                    flagged: t.flagged,
                    raw_span: ByteSpan { start: t.raw_span.0, end: t.raw_span.1 },
            })
            .collect();
        let name_map = out
            .name_map
            .into_iter()
            .map(|m| NameMapping { visible: m.visible, upstream: m.upstream })
            .collect();
        Ok(Outcome { catalog: out.catalog, findings, hidden, tools, name_map })
    }

    /// Every engine error becomes its WIT case; an error the engine adds
    /// later lands in `other` (whose text is not API) until the WIT grows.
    fn error(e: mcp_guard::Error) -> Error {
        use mcp_guard::Error as E;
        match e {
            E::InvalidJson { offset, reason } => Error::InvalidJson(InvalidJsonError { offset, reason }),
            E::DuplicateKey { pointer, key } => Error::DuplicateKey(DuplicateKeyError { pointer, key }),
            E::TooDeep { max_depth } => Error::TooDeep(max_depth),
            E::TooLarge { limit, actual } => Error::TooLarge(TooLargeError { limit, actual }),
            E::InvalidEnvelope { reason } => Error::InvalidEnvelope(reason),
            E::InvalidPolicy { field, reason } => Error::InvalidPolicy(InvalidPolicyError { field, reason }),
            E::InvalidBaseline { reason } => Error::InvalidBaseline(reason),
            E::Other(s) => Error::Other(s),
            other => Error::Other(other.to_string()),
        }
    }

    /// A kind this WIT version has no case for refuses the call with
    /// `other` (of `error` or `schema-error`, the caller picks) instead of
    /// dropping or relabelling the finding: nothing is changed silently. The
    /// host tests check that the enum mirrors `FindingKind::ALL`, so this
    /// only fires on a stale component.
    fn unknown(what: &str, id: &str) -> String {
        format!(
            "{what} `{id}` has no case in mcp-guard:engine@{}; rebuild the component from matching WIT",
            env!("CARGO_PKG_VERSION")
        )
    }

    fn finding_kind(k: mcp_guard::FindingKind) -> Result<FindingKind, String> {
        use mcp_guard::FindingKind as K;
        Ok(match k {
            K::ResultKeyDropped => FindingKind::ResultKeyDropped,
            K::InvalidCursor => FindingKind::InvalidCursor,
            K::ToolEntryInvalid => FindingKind::ToolEntryInvalid,
            K::CatalogLimit => FindingKind::CatalogLimit,
            K::FieldDropped => FindingKind::FieldDropped,
            K::FieldInvalidType => FindingKind::FieldInvalidType,
            K::AnnotationDropped => FindingKind::AnnotationDropped,
            K::AnnotationContradiction => FindingKind::AnnotationContradiction,
            K::TitleMismatch => FindingKind::TitleMismatch,
            K::IconDropped => FindingKind::IconDropped,
            K::MetaDropped => FindingKind::MetaDropped,
            K::InvisibleRemoved => FindingKind::InvisibleRemoved,
            K::ControlRemoved => FindingKind::ControlRemoved,
            K::UnicodeNormalized => FindingKind::UnicodeNormalized,
            K::WhitespaceNormalized => FindingKind::WhitespaceNormalized,
            K::TextTruncated => FindingKind::TextTruncated,
            K::UnsafeValue => FindingKind::UnsafeValue,
            K::DescriptionTruncated => FindingKind::DescriptionTruncated,
            K::DescriptionStripped => FindingKind::DescriptionStripped,
            K::DescriptionReplaced => FindingKind::DescriptionReplaced,
            K::SchemaKeywordDropped => FindingKind::SchemaKeywordDropped,
            K::SchemaNormalized => FindingKind::SchemaNormalized,
            K::SchemaInvalid => FindingKind::SchemaInvalid,
            K::SchemaLimit => FindingKind::SchemaLimit,
            K::SchemaRef => FindingKind::SchemaRef,
            K::PatternDropped => FindingKind::PatternDropped,
            K::NumberInvalid => FindingKind::NumberInvalid,
            K::NameInvalid => FindingKind::NameInvalid,
            K::NameMapped => FindingKind::NameMapped,
            K::NameDuplicate => FindingKind::NameDuplicate,
            K::NameConfusable => FindingKind::NameConfusable,
            K::PoisonInstruction => FindingKind::PoisonInstruction,
            K::PoisonSecrecy => FindingKind::PoisonSecrecy,
            K::PoisonSecretAccess => FindingKind::PoisonSecretAccess,
            K::PoisonExfiltration => FindingKind::PoisonExfiltration,
            K::PoisonAuthority => FindingKind::PoisonAuthority,
            K::PoisonShadowing => FindingKind::PoisonShadowing,
            K::PoisonInjection => FindingKind::PoisonInjection,
            K::PoisonEncoded => FindingKind::PoisonEncoded,
            K::PoisonHidden => FindingKind::PoisonHidden,
            K::DialectRewritten => FindingKind::DialectRewritten,
            K::DialectLossy => FindingKind::DialectLossy,
            K::RefCut => FindingKind::RefCut,
            K::DialectUnsupported => FindingKind::DialectUnsupported,
            K::DriftChanged => FindingKind::DriftChanged,
            K::DriftNew => FindingKind::DriftNew,
            K::DriftRemoved => FindingKind::DriftRemoved,
            other => return Err(unknown("finding kind", other.id())),
        })
    }

    fn severity(s: mcp_guard::Severity) -> Severity {
        use mcp_guard::Severity as S;
        match s {
            S::Info => Severity::Info,
            S::Low => Severity::Low,
            S::Medium => Severity::Medium,
            S::High => Severity::High,
            S::Critical => Severity::Critical,
        }
    }

    // `Action`, `Severity` and `ToolStatus` are exhaustive in the engine: a
    // new case there is a compile error here, which is what we want.
    fn action(a: mcp_guard::Action) -> Action {
        use mcp_guard::Action as A;
        match a {
            A::Removed => Action::Removed,
            A::Rewritten => Action::Rewritten,
            A::Truncated => Action::Truncated,
            A::Hidden => Action::Hidden,
            A::Flagged => Action::Flagged,
            A::Mapped => Action::Mapped,
        }
    }

    fn tool_status(s: mcp_guard::ToolStatus) -> ToolStatus {
        use mcp_guard::ToolStatus as T;
        match s {
            T::Clean => ToolStatus::Clean,
            T::Rewritten => ToolStatus::Rewritten,
            T::Truncated => ToolStatus::Truncated,
            T::Hidden => ToolStatus::Hidden,
        }
    }
}
