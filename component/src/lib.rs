//! mcp-guard as a WebAssembly component: world `mcp-guard:engine/guard`
//! (`wit/`), built for `wasm32-unknown-unknown` and wrapped by
//! `wasm-tools component new` (see `scripts/build-component.sh`), so the
//! component imports nothing: no WASI, no clock, no I/O.
//!
//! The only WIT-aware code is the `bindings` module below; it translates the
//! plain engine types one to one and adds no behaviour of its own.
//!
//! Panics: with `panic = "abort"` (profile `wasm`) a panic is a bare trap that
//! poisons the instance, and there is nothing to catch it with. So nothing in
//! here unwraps: every engine failure is an `Err` mapped to the WIT `error`
//! variant, including a finding kind this WIT version does not know yet.

// The crate only links for wasm: its export names contain `:`.
#![cfg(target_family = "wasm")]
#![deny(unsafe_code)]

/// Marker type the WIT exports are implemented on.
struct Component;

/// A compiled policy, owned by the component behind a WIT `policy` handle.
struct GuardPolicy(mcp_guard::Policy);

mod bindings {
    // `unsafe` is confined to the generated glue (canonical ABI lifting and
    // lowering); the hand-written code below is safe Rust.
    #![allow(unsafe_code)]

    wit_bindgen::generate!({
        path: "../wit",
        world: "guard",
    });

    use super::{Component, GuardPolicy};
    use exports::mcp_guard::engine::sanitize::{
        Guest, GuestPolicy, Outcome, SanitizeOptions,
    };
    use exports::mcp_guard::engine::types::{
        Action, ByteSpan, DuplicateKeyError, Error, Finding, FindingKind, HiddenTool,
        InvalidJsonError, InvalidPolicyError, NameMapping, Severity, ToolReport, ToolStatus,
        TooLargeError,
    };

    export!(Component);

    impl Guest for Component {
        type Policy = GuardPolicy;

        fn engine_version() -> String {
            mcp_guard::ENGINE_VERSION.to_string()
        }
    }

    impl GuestPolicy for GuardPolicy {
        fn new(json: String) -> Result<Self, Error> {
            mcp_guard::Policy::from_json(&json).map(GuardPolicy).map_err(error)
        }

        fn sanitize(&self, catalog: String, options: SanitizeOptions) -> Result<Outcome, Error> {
            let opts = mcp_guard::SanitizeOptions {
                server: options.server,
                foreign_names: options.foreign_names,
            };
            let out = mcp_guard::sanitize(&self.0, &catalog, &opts).map_err(error)?;
            // Free the input before building the (possibly large) output
            // lists: linear memory only grows, and the store has a limit.
            drop(catalog);
            outcome(out)
        }
    }

    fn outcome(out: mcp_guard::Outcome) -> Result<Outcome, Error> {
        let findings = out
            .findings
            .into_iter()
            .map(|f| {
                Ok(Finding {
                    kind: finding_kind(f.kind)?,
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
                Ok(HiddenTool { index: h.index, name: h.name, reason: finding_kind(h.reason)?, detail: h.detail })
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
            E::Other(s) => Error::Other(s),
            other => Error::Other(other.to_string()),
        }
    }

    /// A kind this WIT version has no case for refuses the call with
    /// `other` instead of dropping or relabelling the finding: nothing is
    /// changed silently. The host tests check that the enum mirrors
    /// `FindingKind::ALL`, so this only fires on a stale component.
    fn unknown(what: &str, id: &str) -> Error {
        Error::Other(format!(
            "{what} `{id}` has no case in mcp-guard:engine@{}; rebuild the component from matching WIT",
            env!("CARGO_PKG_VERSION")
        ))
    }

    fn finding_kind(k: mcp_guard::FindingKind) -> Result<FindingKind, Error> {
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
