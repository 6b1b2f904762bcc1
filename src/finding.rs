//! Findings: every change the engine makes, and every suspicion it reports, is
//! one `Finding` with a JSON pointer into the *input* document. Nothing is
//! changed silently.

use std::fmt;

/// What a finding is about. Kebab-case ids (`Display`) are stable API: they
/// cross the WIT boundary and appear in JSON and SARIF reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum FindingKind {
    // -- envelope ----------------------------------------------------------
    /// An unknown key of the tools/list result (e.g. `instructions`) was removed.
    ResultKeyDropped,
    /// `nextCursor` was not a string and was removed.
    InvalidCursor,
    /// A `tools` entry was not an object or had no string `name`: hidden.
    ToolEntryInvalid,
    /// The catalog has more tools than `catalog_limits.max_tools`: the rest are hidden.
    CatalogLimit,
    // -- fields: field allow-list ---------------------------------------------
    /// A tool field outside the allow-list (`_meta`, `icons`, unknown) was removed.
    FieldDropped,
    /// An optional tool field had the wrong JSON type and was removed.
    FieldInvalidType,
    /// An unknown annotation key, or a hint that is not a boolean, was removed.
    AnnotationDropped,
    /// Contradictory hints (`readOnlyHint` and `destructiveHint` both true), or
    /// hints that contradict the tool's name or description (`delete_file`
    /// claiming `readOnlyHint: true` or `destructiveHint: false`): the tool is
    /// treated as destructive (the safe-sounding hint removed).
    AnnotationContradiction,
    /// The display title does not describe the tool the name does.
    TitleMismatch,
    /// An icon with a disallowed URI or type was removed.
    IconDropped,
    /// A reserved or unsafe `_meta` key was removed.
    MetaDropped,
    // -- sanitize: metadata sanitization ---------------------------------------
    /// Invisible or formatting characters (Cf, bidi controls, tag characters,
    /// variation selectors, fillers, private-use, noncharacters) were removed.
    InvisibleRemoved,
    /// Control characters or terminal escape sequences were removed.
    ControlRemoved,
    /// Unicode NFKC normalization changed the text.
    UnicodeNormalized,
    /// Line separators, CR, or long runs of blanks were normalized.
    WhitespaceNormalized,
    /// A title, description or schema text exceeded its cap and was cut with a marker.
    TextTruncated,
    /// A value the server receives back (tool or property name, enum/const/
    /// default/examples value) holds characters sanitization would change. It is
    /// never rewritten: reported, and by policy the tool is hidden.
    UnsafeValue,
    // -- description: description policy -------------------------------------
    DescriptionTruncated,
    DescriptionStripped,
    DescriptionReplaced,
    // -- limits: structural limits --------------------------------------------
    /// An unknown JSON Schema keyword was removed.
    SchemaKeywordDropped,
    /// A harmless deterministic rewrite (`{}` → object schema, duplicate
    /// `required`/`enum` entries, OpenAPI `nullable`).
    SchemaNormalized,
    /// A schema value of the wrong type or shape.
    SchemaInvalid,
    /// A structural cap (depth, properties, required, enum, nodes, branches,
    /// string length) was exceeded.
    SchemaLimit,
    /// `$ref` pointing outside the schema, or nowhere.
    SchemaRef,
    /// A `pattern` that is not portable ECMA-262 or risks catastrophic
    /// backtracking was removed.
    PatternDropped,
    /// A number that no JSON consumer can represent (`1e400`).
    NumberInvalid,
    // -- names ------------------------------------------------------------------
    NameInvalid,
    NameMapped,
    NameDuplicate,
    NameConfusable,
    // -- poisoning: the detector -------------------------------------------------
    /// Instructions aimed at the model: imperatives about what the assistant must do, "before/after using", "always/never", line-jumping "on every request".
    PoisonInstruction,
    /// Secrecy toward the user ("do not tell the user").
    PoisonSecrecy,
    /// Secrets and credential locations (SSH keys, cloud credentials, `.env`, MCP client config, browser data, tokens).
    PoisonSecretAccess,
    /// Exfiltration channels: markdown images or links carrying data, "call/visit this URL", "pass it as a parameter".
    PoisonExfiltration,
    /// Fake authority or role markup (`<IMPORTANT>`, `<system>`, closing tags of a tool description, "system override").
    PoisonAuthority,
    /// A description that changes how *another* tool must be used.
    PoisonShadowing,
    /// Classic prompt injection ("ignore previous instructions", persona changes).
    PoisonInjection,
    /// Encoded payloads (base64/hex blobs) with a decode hint.
    PoisonEncoded,
    /// Text hidden from a reader: HTML comments, padding that pushes text out of view.
    PoisonHidden,
    // -- dialect: schema dialect ---------------------------------------------------
    /// A schema construct rewritten into the target dialect's form without changing what it accepts (`oneOf` → `anyOf`, `const` → `enum`, inlined `$ref`, merged `allOf`).
    DialectRewritten,
    /// A construct the target dialect cannot express was dropped or widened; arguments are still validated against the original schema on the way back.
    DialectLossy,
    /// A recursive `$ref` chain was cut into an open schema at the configured depth.
    RefCut,
    /// The schema cannot be made valid for the target dialect (the tool is kept non-strict or hidden, as the finding's action says).
    DialectUnsupported,
    // -- pinning ------------------------------------------------------------------
    /// A pinned tool's definition changed since the session's baseline.
    DriftChanged,
    /// A tool that is not in the session's baseline appeared.
    DriftNew,
    /// A pinned tool disappeared (a rename is removed + new).
    DriftRemoved,
}

impl FindingKind {
    pub const ALL: &'static [FindingKind] = &[
        FindingKind::ResultKeyDropped,
        FindingKind::InvalidCursor,
        FindingKind::ToolEntryInvalid,
        FindingKind::CatalogLimit,
        FindingKind::FieldDropped,
        FindingKind::FieldInvalidType,
        FindingKind::AnnotationDropped,
        FindingKind::AnnotationContradiction,
        FindingKind::TitleMismatch,
        FindingKind::IconDropped,
        FindingKind::MetaDropped,
        FindingKind::InvisibleRemoved,
        FindingKind::ControlRemoved,
        FindingKind::UnicodeNormalized,
        FindingKind::WhitespaceNormalized,
        FindingKind::TextTruncated,
        FindingKind::UnsafeValue,
        FindingKind::DescriptionTruncated,
        FindingKind::DescriptionStripped,
        FindingKind::DescriptionReplaced,
        FindingKind::SchemaKeywordDropped,
        FindingKind::SchemaNormalized,
        FindingKind::SchemaInvalid,
        FindingKind::SchemaLimit,
        FindingKind::SchemaRef,
        FindingKind::PatternDropped,
        FindingKind::NumberInvalid,
        FindingKind::NameInvalid,
        FindingKind::NameMapped,
        FindingKind::NameDuplicate,
        FindingKind::NameConfusable,
        FindingKind::PoisonInstruction,
        FindingKind::PoisonSecrecy,
        FindingKind::PoisonSecretAccess,
        FindingKind::PoisonExfiltration,
        FindingKind::PoisonAuthority,
        FindingKind::PoisonShadowing,
        FindingKind::PoisonInjection,
        FindingKind::PoisonEncoded,
        FindingKind::PoisonHidden,
        FindingKind::DialectRewritten,
        FindingKind::DialectLossy,
        FindingKind::RefCut,
        FindingKind::DialectUnsupported,
        FindingKind::DriftChanged,
        FindingKind::DriftNew,
        FindingKind::DriftRemoved,
    ];

    pub fn id(self) -> &'static str {
        use FindingKind::*;
        match self {
            ResultKeyDropped => "result-key-dropped",
            InvalidCursor => "invalid-cursor",
            ToolEntryInvalid => "tool-entry-invalid",
            CatalogLimit => "catalog-limit",
            FieldDropped => "field-dropped",
            FieldInvalidType => "field-invalid-type",
            AnnotationDropped => "annotation-dropped",
            AnnotationContradiction => "annotation-contradiction",
            TitleMismatch => "title-mismatch",
            IconDropped => "icon-dropped",
            MetaDropped => "meta-dropped",
            InvisibleRemoved => "invisible-removed",
            ControlRemoved => "control-removed",
            UnicodeNormalized => "unicode-normalized",
            WhitespaceNormalized => "whitespace-normalized",
            TextTruncated => "text-truncated",
            UnsafeValue => "unsafe-value",
            DescriptionTruncated => "description-truncated",
            DescriptionStripped => "description-stripped",
            DescriptionReplaced => "description-replaced",
            SchemaKeywordDropped => "schema-keyword-dropped",
            SchemaNormalized => "schema-normalized",
            SchemaInvalid => "schema-invalid",
            SchemaLimit => "schema-limit",
            SchemaRef => "schema-ref",
            PatternDropped => "pattern-dropped",
            NumberInvalid => "number-invalid",
            NameInvalid => "name-invalid",
            NameMapped => "name-mapped",
            NameDuplicate => "name-duplicate",
            NameConfusable => "name-confusable",
            PoisonInstruction => "poison-instruction",
            PoisonSecrecy => "poison-secrecy",
            PoisonSecretAccess => "poison-secret-access",
            PoisonExfiltration => "poison-exfiltration",
            PoisonAuthority => "poison-authority",
            PoisonShadowing => "poison-shadowing",
            PoisonInjection => "poison-injection",
            PoisonEncoded => "poison-encoded",
            PoisonHidden => "poison-hidden",
            DialectRewritten => "dialect-rewritten",
            DialectLossy => "dialect-lossy",
            RefCut => "ref-cut",
            DialectUnsupported => "dialect-unsupported",
            DriftChanged => "drift-changed",
            DriftNew => "drift-new",
            DriftRemoved => "drift-removed",
        }
    }

    pub fn from_id(s: &str) -> Option<FindingKind> {
        FindingKind::ALL.iter().copied().find(|k| k.id() == s)
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// What the engine did about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// A field, key, keyword or characters were removed; the tool stays.
    Removed,
    /// Text or structure was rewritten deterministically; the tool stays.
    Rewritten,
    /// Text was cut at a cap, with a visible marker.
    Truncated,
    /// The whole tool was hidden from the client.
    Hidden,
    /// Reported only; nothing changed.
    Flagged,
    /// A name was mapped; calls are routed back to the upstream name.
    Mapped,
}

impl Action {
    pub fn id(self) -> &'static str {
        match self {
            Action::Removed => "removed",
            Action::Rewritten => "rewritten",
            Action::Truncated => "truncated",
            Action::Hidden => "hidden",
            Action::Flagged => "flagged",
            Action::Mapped => "mapped",
        }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How much a finding matters, for `--fail-on` and policy thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Info,
    Low,
    Medium,
    High,
    Critical,
}

impl Severity {
    pub fn id(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Low => "low",
            Severity::Medium => "medium",
            Severity::High => "high",
            Severity::Critical => "critical",
        }
    }
    pub fn from_id(s: &str) -> Option<Severity> {
        [Severity::Info, Severity::Low, Severity::Medium, Severity::High, Severity::Critical]
            .into_iter()
            .find(|x| x.id() == s)
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One change or suspicion.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    pub severity: Severity,
    /// Upstream tool name as received (`None` for result-level findings or
    /// entries without a string name).
    pub tool: Option<String>,
    /// Position of the tool in the input `tools` array.
    pub tool_index: Option<u32>,
    /// RFC 6901 pointer into the input document (`/tools/3/inputSchema/...`).
    pub pointer: String,
    pub action: Action,
    /// One human-readable sentence. Not API: do not parse it.
    pub detail: String,
}

/// A tool the client will not see, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HiddenTool {
    pub index: u32,
    pub name: Option<String>,
    /// The finding kind that decided it.
    pub reason: FindingKind,
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_ids_are_unique_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for k in FindingKind::ALL {
            assert!(seen.insert(k.id()), "duplicate id {}", k.id());
            assert_eq!(FindingKind::from_id(k.id()), Some(*k));
        }
    }
}
