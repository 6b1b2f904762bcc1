//! The policy: JSON in the seeds' own vocabulary, compiled once.
//!
//! ```json
//! {
//!   "preset": "default",
//!   "core": {
//!     "tool_fields": { "allow": ["name","title","description","inputSchema","outputSchema","annotations"] },
//!     "tool_metadata_sanitization": { "mode": "sanitize" },
//!     "tool_description_policy": { "mode": "preserve" },
//!     "schema_limits": { "max_depth": 32 },
//!     "tool_names": { "on_invalid_name": "error" },
//!     "tool_definition_pinning": { "mode": "warn" },
//!     "catalog_limits": { "max_tools": 10000 }
//!   },
//!   "servers": [ { "id": "playwright", "tool_description_policy": { "mode": "strip" } } ]
//! }
//! ```
//!
//! Every field is optional and has a documented default (the `# Default`
//! lines below; README.md shows the whole document). A server entry overrides
//! single fields of `core` for catalogs from that server id. Unknown keys, wrong types and
//! contradictory settings are an `Error::InvalidPolicy` naming the field.

use crate::json::{self, Object, ParseOptions, Value};
use crate::Error;

/// Named bundles of limits. `Default` accepts every real catalog of
/// `testdata/catalogs`; `Strict` uses small fixed caps (name 80, description
/// 600, depth 4, 32 properties, 16 required, 25 enum values, 200 nodes);
/// `Permissive` only stops bombs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    Default,
    Strict,
    Permissive,
}

impl Preset {
    pub fn id(self) -> &'static str {
        match self {
            Preset::Default => "default",
            Preset::Strict => "strict",
            Preset::Permissive => "permissive",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanitizeMode {
    /// No text cleanup (structural checks still run).
    Off,
    /// Forward the cleaned text and report each change. # Default
    Sanitize,
    /// Hide every tool whose text would need cleanup.
    Block,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnUnsafeValue {
    /// Hide the tool (the value cannot be rewritten: the server receives it back). # Default
    Hide,
    /// Keep the tool, report the value.
    Flag,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DescriptionMode {
    /// Keep descriptions after sanitization. # Default
    Preserve,
    /// Keep the first `max_chars` characters.
    Truncate,
    /// Remove the tool description and every nested schema description.
    Strip,
    /// Replace the tool description with "MCP tool '<name>' from server '<server>'."
    /// and remove nested schema descriptions.
    Placeholder,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnExceed {
    /// Hide the tool. # Default
    Hide,
    /// Cut the schema at the limit (deeper subschemas become `{}`, lists are cut).
    Truncate,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnInvalidName {
    /// Hide the tool. # Default
    Error,
    /// Map to a valid name; calls are routed back to the upstream name.
    Sanitize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PinningMode {
    Off,
    /// # Default
    Warn,
    Block,
    /// Trust on first use, then hold back what a person has not approved:
    /// changed and new tools are not served and calls to them are refused
    /// (`quarantined`) until approved (`mcp-guard pins approve`); unchanged
    /// tools keep being served. Unlike `block` + `baseline_subset`, nothing
    /// is revoked for good: a tool that matches its approved pin again is
    /// served again. Meant for pins kept across runs (a pin record); within
    /// one session it behaves as that session's own approval.
    Quarantine,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockStrategy {
    /// # Default
    Error,
    BaselineSubset,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionAction {
    Keep,
    /// # Default
    Invalidate,
}

/// The MCP `Tool` fields the engine knows.
pub const KNOWN_TOOL_FIELDS: &[&str] =
    &["name", "title", "description", "inputSchema", "outputSchema", "annotations", "icons", "_meta", "execution"];

/// The `fields` stage: which tool fields reach the client.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldPolicy {
    /// # Default
    /// `["name","title","description","inputSchema","outputSchema","annotations"]`.
    /// `name` and `inputSchema` are required and must be listed.
    pub allow: Vec<String>,
    /// Keep tool keys the engine does not know. # Default `false`
    pub keep_unknown: bool,
}

/// The `sanitize` stage: `core.tool_metadata_sanitization`.
#[derive(Clone, Debug, PartialEq)]
pub struct SanitizationPolicy {
    /// # Default `sanitize`
    pub mode: SanitizeMode,
    /// # Default 256 (strict 80, permissive 4096)
    pub max_title_chars: u32,
    /// # Default 16384 (strict 600, permissive 1048576)
    pub max_description_chars: u32,
    /// Cap for schema `title`/`description`. # Default 8192 (strict 600, permissive 1048576)
    pub max_schema_text_chars: u32,
    /// Appended where text was cut. # Default `" [truncated]"`
    pub truncation_marker: String,
    /// Longest run of spaces/tabs kept; longer runs become one space. # Default 80 (strict 16)
    pub max_space_run: u32,
    /// Most consecutive blank lines kept. # Default 3 (strict 1)
    pub max_blank_lines: u32,
    /// # Default `hide`
    pub on_unsafe_value: OnUnsafeValue,
}

/// The `description` stage: `core.tool_description_policy`.
#[derive(Clone, Debug, PartialEq)]
pub struct DescriptionPolicy {
    /// # Default `preserve`
    pub mode: DescriptionMode,
    /// Characters kept by `truncate`. # Default 512
    pub max_chars: u32,
}

/// The `limits` stage: `core.schema_limits`.
#[derive(Clone, Debug, PartialEq)]
pub struct SchemaLimits {
    /// Deepest subschema, root = 1. # Default 32 (strict 4, permissive 64)
    pub max_depth: u32,
    /// # Default 1000 (strict 32, permissive 10000)
    pub max_properties: u32,
    /// # Default 1000 (strict 16, permissive 10000)
    pub max_required: u32,
    /// # Default 1000 (strict 25, permissive 10000)
    pub max_enum_values: u32,
    /// Longest string in `enum`/`const`/`default`/`examples`. # Default 1024 (strict 256, permissive 65536)
    pub max_value_chars: u32,
    /// Subschemas per tool (input and output each). # Default 2000 — the largest
    /// real schema in the corpus has 295 (strict 200, permissive 100000)
    pub max_nodes: u32,
    /// Branches of one `anyOf`/`oneOf`/`allOf`. # Default 256 (strict 16, permissive 4096)
    pub max_branches: u32,
    /// # Default 128 (strict 64, permissive 1024)
    pub max_property_name_chars: u32,
    /// # Default 1024 (strict 256, permissive 8192)
    pub max_pattern_chars: u32,
    /// # Default `hide`
    pub on_exceed: OnExceed,
}

/// The `names` stage: `core.tool_names`.
#[derive(Clone, Debug, PartialEq)]
pub struct NamePolicy {
    /// Prefix every visible name with the server id. # Default `false`
    pub server_prefix: bool,
    /// # Default `"__"`
    pub separator: String,
    /// Longest visible name (after prefixing). # Default 128 (strict 80, permissive 256)
    pub max_chars: u32,
    /// # Default `error`
    pub on_invalid_name: OnInvalidName,
}

/// `core.tool_definition_pinning`, used by `pinning`.
#[derive(Clone, Debug, PartialEq)]
pub struct PinningPolicy {
    /// # Default `warn`
    pub mode: PinningMode,
    /// # Default `error`
    pub block_strategy: BlockStrategy,
    /// # Default `invalidate`
    pub block_error_session_action: SessionAction,
    /// Tool fields covered by the digest.
    /// # Default `["name","title","description","inputSchema","outputSchema"]`
    pub fields: Vec<String>,
}

/// `core.discovery`: serve a small surface — core tools plus
/// the meta-tools `search_tools`, `get_tool_schema`, `call_tool` — that still
/// reaches every tool, after every metadata control.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscoveryPolicy {
    /// # Default `false` (`"mode": "off"`)
    pub on: bool,
    /// Tools listed directly, by exact name or a glob with `*` and `?`
    /// (matched against the visible name). # Default `[]`
    pub core_tools: Vec<String>,
    /// Extra synonym groups for `search_tools` (each a list of words that
    /// mean the same), added to the built-in map. # Default `[]`
    pub synonyms: Vec<Vec<String>>,
    /// Most results `search_tools` returns. # Default 10
    pub max_results: u32,
}

/// Whole-input bounds (`core.catalog_limits`; not overridable per server).
#[derive(Clone, Debug, PartialEq)]
pub struct CatalogLimits {
    /// # Default 16 MiB (strict 4 MiB, permissive 64 MiB)
    pub max_catalog_bytes: u64,
    /// # Default 10000 (strict 512, permissive 100000)
    pub max_tools: u32,
    /// JSON nesting bound of the parser (≤ 256). # Default 128
    pub max_json_depth: u32,
}

/// The settings that apply to one server's catalog.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerPolicy {
    pub fields: FieldPolicy,
    pub sanitization: SanitizationPolicy,
    pub description: DescriptionPolicy,
    pub limits: SchemaLimits,
    pub names: NamePolicy,
    pub poisoning: PoisoningPolicy,
    pub dialect: DialectPolicy,
    pub pinning: PinningPolicy,
    pub discovery: DiscoveryPolicy,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoisoningMode {
    Off,
    /// Report matches; change nothing. # Default
    Flag,
    /// Hide tools with a match at or above `block_threshold`.
    Block,
}

/// One accepted false positive: a rule silenced for a server and/or tool.
/// `None` fields match anything.
#[derive(Clone, Debug, PartialEq)]
pub struct PoisoningAllow {
    pub server: Option<String>,
    pub tool: Option<String>,
    pub rule: Option<String>,
}

/// `core.tool_poisoning`: the local tool-poisoning detector.
#[derive(Clone, Debug, PartialEq)]
pub struct PoisoningPolicy {
    /// # Default `flag`
    pub mode: PoisoningMode,
    /// Lowest tool score that hides a tool under `block`: a single rule
    /// finding is `medium`, two independent signals `high`, three
    /// `critical` (`poison::score`). # Default `high`
    pub block_threshold: crate::Severity,
    /// # Default empty
    pub allow: Vec<PoisoningAllow>,
    /// The learned scorer beside the rules (`poison::scorer`, finding rule
    /// `learned.poisoning`): `medium` at its flag threshold, `high` alone a
    /// quarter step above its block threshold, and a second signal beside a
    /// rule halfway from flag to block (`stages::poisoning`). `mode: off`
    /// turns it off with the rules. # Default `true`
    pub learned: bool,
}

/// Schema dialect targets (`core.schema_dialect`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Leave the dialect alone. # Default
    None,
    Gemini,
    OpenAiStrict,
    Anthropic,
    /// What all three accept.
    Portable,
}

impl Dialect {
    pub fn id(self) -> &'static str {
        match self {
            Dialect::None => "none",
            Dialect::Gemini => "gemini",
            Dialect::OpenAiStrict => "openai-strict",
            Dialect::Anthropic => "anthropic",
            Dialect::Portable => "portable",
        }
    }
    pub fn from_id(s: &str) -> Option<Dialect> {
        [Dialect::None, Dialect::Gemini, Dialect::OpenAiStrict, Dialect::Anthropic, Dialect::Portable]
            .into_iter()
            .find(|d| d.id() == s)
    }
}

/// `core.schema_dialect`.
#[derive(Clone, Debug, PartialEq)]
pub struct DialectPolicy {
    /// # Default `none`
    pub target: Dialect,
    /// How many times one `$ref` chain is inlined before it is cut into an
    /// open schema (with a finding). # Default 8
    pub max_ref_depth: u32,
}

/// A compiled policy.
#[derive(Clone, Debug, PartialEq)]
pub struct Policy {
    pub preset: Preset,
    pub core: ServerPolicy,
    pub catalog: CatalogLimits,
    servers: Vec<(String, ServerPolicy)>,
    /// The poisoning rules compiled once with the policy (shared, immutable).
    pub(crate) detector: DetectorHandle,
}

/// Shared compiled detector; compares equal to any other (it is derived from
/// the static rule table, not from settings).
#[derive(Clone, Debug, Default)]
pub(crate) struct DetectorHandle(pub std::sync::Arc<crate::poison::Detector>);

impl PartialEq for DetectorHandle {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Default for Policy {
    fn default() -> Self {
        Policy::preset(Preset::Default)
    }
}

impl ServerPolicy {
    fn preset(p: Preset) -> ServerPolicy {
        let pick = |d: u32, s: u32, w: u32| match p {
            Preset::Default => d,
            Preset::Strict => s,
            Preset::Permissive => w,
        };
        ServerPolicy {
            fields: FieldPolicy {
                allow: ["name", "title", "description", "inputSchema", "outputSchema", "annotations"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                keep_unknown: false,
            },
            sanitization: SanitizationPolicy {
                mode: SanitizeMode::Sanitize,
                max_title_chars: pick(256, 80, 4096),
                max_description_chars: pick(16384, 600, 1 << 20),
                max_schema_text_chars: pick(8192, 600, 1 << 20),
                truncation_marker: " [truncated]".to_string(),
                max_space_run: pick(80, 16, 4096),
                max_blank_lines: pick(3, 1, 64),
                on_unsafe_value: OnUnsafeValue::Hide,
            },
            description: DescriptionPolicy { mode: DescriptionMode::Preserve, max_chars: 512 },
            limits: SchemaLimits {
                max_depth: pick(32, 4, 64),
                max_properties: pick(1000, 32, 10000),
                max_required: pick(1000, 16, 10000),
                max_enum_values: pick(1000, 25, 10000),
                max_value_chars: pick(1024, 256, 65536),
                max_nodes: pick(2000, 200, 100000),
                max_branches: pick(256, 16, 4096),
                max_property_name_chars: pick(128, 64, 1024),
                max_pattern_chars: pick(1024, 256, 8192),
                on_exceed: OnExceed::Hide,
            },
            names: NamePolicy {
                server_prefix: false,
                separator: "__".to_string(),
                max_chars: pick(128, 80, 256),
                on_invalid_name: OnInvalidName::Error,
            },
            poisoning: PoisoningPolicy {
                mode: PoisoningMode::Flag,
                block_threshold: crate::Severity::High,
                allow: Vec::new(),
                learned: true,
            },
            dialect: DialectPolicy { target: Dialect::None, max_ref_depth: 8 },
            discovery: DiscoveryPolicy { on: false, core_tools: Vec::new(), synonyms: Vec::new(), max_results: 10 },
            pinning: PinningPolicy {
                mode: PinningMode::Warn,
                block_strategy: BlockStrategy::Error,
                block_error_session_action: SessionAction::Invalidate,
                fields: ["name", "title", "description", "inputSchema", "outputSchema"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            },
        }
    }
}

impl Policy {
    /// One of the shipped presets with every other field at its default.
    pub fn preset(p: Preset) -> Policy {
        let pick = |d: u64, s: u64, w: u64| match p {
            Preset::Default => d,
            Preset::Strict => s,
            Preset::Permissive => w,
        };
        Policy {
            preset: p,
            core: ServerPolicy::preset(p),
            catalog: CatalogLimits {
                max_catalog_bytes: pick(16 << 20, 4 << 20, 64 << 20),
                max_tools: pick(10000, 512, 100000) as u32,
                max_json_depth: 128,
            },
            servers: Vec::new(),
            detector: DetectorHandle::default(),
        }
    }

    /// The settings for catalogs from `server` (core when absent or unknown).
    /// Every per-server settings block, `core` first, for a host that must
    /// adjust one setting everywhere (the CLI's `pin` turns pinning on).
    pub fn server_policies_mut(&mut self) -> impl Iterator<Item = &mut ServerPolicy> {
        std::iter::once(&mut self.core).chain(self.servers.iter_mut().map(|(_, sp)| sp))
    }

    pub fn for_server(&self, server: Option<&str>) -> &ServerPolicy {
        server
            .and_then(|id| self.servers.iter().find(|(s, _)| s == id))
            .map(|(_, p)| p)
            .unwrap_or(&self.core)
    }

    /// Server ids with overrides, in policy order.
    pub fn server_ids(&self) -> impl Iterator<Item = &str> {
        self.servers.iter().map(|(s, _)| s.as_str())
    }

    /// Compiles a policy from its JSON text.
    pub fn from_json(text: &str) -> Result<Policy, Error> {
        let doc = json::parse(text, ParseOptions { max_depth: 32 })
            .map_err(|e| Error::policy("", format!("not valid JSON: {e}")))?
            .value;
        let root = doc.as_object().ok_or_else(|| Error::policy("", "the policy must be a JSON object"))?;
        let mut r = Reader::new(root, "");
        let preset = match r.string("preset")?.as_deref() {
            None | Some("default") => Preset::Default,
            Some("strict") => Preset::Strict,
            Some("permissive") => Preset::Permissive,
            Some(other) => {
                return Err(Error::policy("preset", format!("unknown preset {other:?} (default, strict, permissive)")))
            }
        };
        let mut policy = Policy::preset(preset);
        if let Some(core) = r.object("core")? {
            let mut c = Reader::new(core, "core");
            apply_server_fields(&mut c, &mut policy.core)?;
            if let Some(cl) = c.object("catalog_limits")? {
                let mut l = Reader::new(cl, "core.catalog_limits");
                if let Some(v) = l.u64("max_catalog_bytes")? {
                    policy.catalog.max_catalog_bytes = v;
                }
                set_u32(&mut l, "max_tools", &mut policy.catalog.max_tools)?;
                set_u32(&mut l, "max_json_depth", &mut policy.catalog.max_json_depth)?;
                if policy.catalog.max_json_depth > 256 || policy.catalog.max_json_depth < 8 {
                    return Err(Error::policy("core.catalog_limits.max_json_depth", "must be between 8 and 256"));
                }
                l.finish()?;
            }
            c.finish()?;
        }
        if let Some(servers) = r.array("servers")? {
            for (i, s) in servers.iter().enumerate() {
                let path = format!("servers[{i}]");
                let o = s.as_object().ok_or_else(|| Error::policy(&path, "must be an object"))?;
                let mut sr = Reader::new(o, &path);
                let id = sr.string("id")?.ok_or_else(|| Error::policy(format!("{path}.id"), "is required"))?;
                if id.is_empty() {
                    return Err(Error::policy(format!("{path}.id"), "must not be empty"));
                }
                if policy.servers.iter().any(|(s, _)| *s == id) {
                    return Err(Error::policy(format!("{path}.id"), format!("server id {id:?} is listed twice")));
                }
                let mut sp = policy.core.clone();
                apply_server_fields(&mut sr, &mut sp)?;
                sr.finish()?;
                policy.servers.push((id, sp));
            }
        }
        r.finish()?;
        Ok(policy)
    }
}

/// Applies the per-server-overridable sections found in `r` onto `p`.
fn apply_server_fields(r: &mut Reader, p: &mut ServerPolicy) -> Result<(), Error> {
    let base = r.path.clone();
    let sub = |name: &str| if base.is_empty() { name.to_string() } else { format!("{base}.{name}") };
    if let Some(o) = r.object("tool_fields")? {
        let mut f = Reader::new(o, &sub("tool_fields"));
        if let Some(list) = f.string_list("allow")? {
            for name in &list {
                if !KNOWN_TOOL_FIELDS.contains(&name.as_str()) {
                    return Err(Error::policy(f.field("allow"), format!("unknown tool field {name:?}")));
                }
            }
            for required in ["name", "inputSchema"] {
                if !list.iter().any(|n| n == required) {
                    return Err(Error::policy(
                        f.field("allow"),
                        format!("{required:?} is required by MCP and cannot be removed"),
                    ));
                }
            }
            p.fields.allow = list;
        }
        if let Some(b) = f.bool("keep_unknown")? {
            p.fields.keep_unknown = b;
        }
        f.finish()?;
    }
    if let Some(o) = r.object("tool_metadata_sanitization")? {
        let mut f = Reader::new(o, &sub("tool_metadata_sanitization"));
        let s = &mut p.sanitization;
        if let Some(m) = f.choice("mode", &["off", "sanitize", "block"])? {
            s.mode = match m {
                0 => SanitizeMode::Off,
                1 => SanitizeMode::Sanitize,
                _ => SanitizeMode::Block,
            };
        }
        set_u32(&mut f, "max_title_chars", &mut s.max_title_chars)?;
        set_u32(&mut f, "max_description_chars", &mut s.max_description_chars)?;
        set_u32(&mut f, "max_schema_text_chars", &mut s.max_schema_text_chars)?;
        set_u32(&mut f, "max_space_run", &mut s.max_space_run)?;
        if let Some(v) = f.u64("max_blank_lines")? {
            s.max_blank_lines = v.min(u32::MAX as u64) as u32; // 0 is meaningful: no blank lines
        }
        if let Some(m) = f.string("truncation_marker")? {
            if m.chars().count() > 64 {
                return Err(Error::policy(f.field("truncation_marker"), "must be at most 64 characters"));
            }
            // The marker must survive a second pass unchanged, or sanitizing
            // twice would not be idempotent.
            if crate::text::has_unsafe_chars(&m) || crate::text::nfkc_changes(&m) || m.contains('\n') {
                return Err(Error::policy(f.field("truncation_marker"), "must be single-line NFKC text without invisible characters"));
            }
            s.truncation_marker = m;
        }
        if let Some(m) = f.choice("on_unsafe_value", &["hide", "flag"])? {
            s.on_unsafe_value = if m == 0 { OnUnsafeValue::Hide } else { OnUnsafeValue::Flag };
        }
        let marker = s.truncation_marker.chars().count() as u32;
        for (name, cap) in [
            ("max_title_chars", s.max_title_chars),
            ("max_description_chars", s.max_description_chars),
            ("max_schema_text_chars", s.max_schema_text_chars),
        ] {
            if cap <= marker {
                return Err(Error::policy(f.field(name), "must be longer than the truncation marker"));
            }
        }
        f.finish()?;
    }
    if let Some(o) = r.object("tool_description_policy")? {
        let mut f = Reader::new(o, &sub("tool_description_policy"));
        let d = &mut p.description;
        if let Some(m) = f.choice("mode", &["preserve", "truncate", "strip", "placeholder"])? {
            d.mode = match m {
                0 => DescriptionMode::Preserve,
                1 => DescriptionMode::Truncate,
                2 => DescriptionMode::Strip,
                _ => DescriptionMode::Placeholder,
            };
        }
        set_u32(&mut f, "max_chars", &mut d.max_chars)?;
        f.finish()?;
    }
    if let Some(o) = r.object("schema_limits")? {
        let mut f = Reader::new(o, &sub("schema_limits"));
        let l = &mut p.limits;
        set_u32(&mut f, "max_depth", &mut l.max_depth)?;
        set_u32(&mut f, "max_properties", &mut l.max_properties)?;
        set_u32(&mut f, "max_required", &mut l.max_required)?;
        set_u32(&mut f, "max_enum_values", &mut l.max_enum_values)?;
        set_u32(&mut f, "max_value_chars", &mut l.max_value_chars)?;
        set_u32(&mut f, "max_nodes", &mut l.max_nodes)?;
        set_u32(&mut f, "max_branches", &mut l.max_branches)?;
        set_u32(&mut f, "max_property_name_chars", &mut l.max_property_name_chars)?;
        set_u32(&mut f, "max_pattern_chars", &mut l.max_pattern_chars)?;
        if let Some(m) = f.choice("on_exceed", &["hide", "truncate"])? {
            l.on_exceed = if m == 0 { OnExceed::Hide } else { OnExceed::Truncate };
        }
        if l.max_depth > 120 {
            return Err(Error::policy(f.field("max_depth"), "must be at most 120 (the JSON nesting bound)"));
        }
        f.finish()?;
    }
    if let Some(o) = r.object("tool_names")? {
        let mut f = Reader::new(o, &sub("tool_names"));
        let n = &mut p.names;
        if let Some(b) = f.bool("server_prefix")? {
            n.server_prefix = b;
        }
        if let Some(s) = f.string("separator")? {
            if s.is_empty() || s.len() > 8 || !s.bytes().all(crate::text::is_name_byte) {
                return Err(Error::policy(f.field("separator"), "must be 1-8 characters from [A-Za-z0-9._-]"));
            }
            n.separator = s;
        }
        set_u32(&mut f, "max_chars", &mut n.max_chars)?;
        if let Some(m) = f.choice("on_invalid_name", &["error", "sanitize"])? {
            n.on_invalid_name = if m == 0 { OnInvalidName::Error } else { OnInvalidName::Sanitize };
        }
        if n.max_chars < 8 {
            return Err(Error::policy(f.field("max_chars"), "must be at least 8"));
        }
        // A server prefix takes at most half of `max_chars` (names.rs,
        // `server_prefix`), and it must hold a character of the server name.
        if n.separator.len() >= n.max_chars as usize / 2 {
            return Err(Error::policy(f.field("separator"), "must be shorter than half of max_chars"));
        }
        f.finish()?;
    }
    if let Some(o) = r.object("tool_poisoning")? {
        let mut f = Reader::new(o, &sub("tool_poisoning"));
        let pp = &mut p.poisoning;
        if let Some(m) = f.choice("mode", &["off", "flag", "block"])? {
            pp.mode = [PoisoningMode::Off, PoisoningMode::Flag, PoisoningMode::Block][m];
        }
        if let Some(m) = f.choice("block_threshold", &["info", "low", "medium", "high", "critical"])? {
            pp.block_threshold = [
                crate::Severity::Info,
                crate::Severity::Low,
                crate::Severity::Medium,
                crate::Severity::High,
                crate::Severity::Critical,
            ][m];
        }
        if let Some(b) = f.bool("learned")? {
            pp.learned = b;
        }
        if let Some(list) = f.array("allow")? {
            let base = f.field("allow");
            pp.allow.clear();
            for (i, e) in list.iter().enumerate() {
                let path = format!("{base}[{i}]");
                let o = e.as_object().ok_or_else(|| Error::policy(&path, "must be an object"))?;
                let mut a = Reader::new(o, &path);
                let entry = PoisoningAllow { server: a.string("server")?, tool: a.string("tool")?, rule: a.string("rule")? };
                if entry.server.is_none() && entry.tool.is_none() && entry.rule.is_none() {
                    return Err(Error::policy(&path, "an allow entry must name a server, a tool or a rule (use mode: off to disable)"));
                }
                a.finish()?;
                pp.allow.push(entry);
            }
        }
        f.finish()?;
    }
    if let Some(o) = r.object("discovery")? {
        let mut f = Reader::new(o, &sub("discovery"));
        let dp = &mut p.discovery;
        if let Some(m) = f.choice("mode", &["off", "on"])? {
            dp.on = m == 1;
        }
        if let Some(list) = f.string_list("core_tools")? {
            if let Some(bad) = list.iter().find(|g| g.is_empty() || g.len() > 256) {
                return Err(Error::policy(f.field("core_tools"), format!("a core tool pattern must be 1 to 256 bytes, not {bad:?}")));
            }
            dp.core_tools = list;
        }
        if let Some(groups) = f.array("synonyms")? {
            let field = f.field("synonyms");
            let mut out = Vec::new();
            for g in groups {
                let words: Option<Vec<String>> = g.as_array().and_then(|a| a.iter().map(|w| w.as_str().map(str::to_string)).collect());
                match words {
                    Some(w) if w.len() >= 2 && w.len() <= 64 && w.iter().all(|x| !x.is_empty() && x.len() <= 64) => out.push(w),
                    _ => return Err(Error::policy(&field, "each synonym group must be a list of 2 to 64 words (1 to 64 bytes each)")),
                }
            }
            if out.len() > 1000 {
                return Err(Error::policy(&field, "at most 1000 synonym groups"));
            }
            dp.synonyms = out;
        }
        if let Some(v) = f.u64("max_results")? {
            if v == 0 || v > 100 {
                return Err(Error::policy(f.field("max_results"), "must be between 1 and 100"));
            }
            dp.max_results = v as u32;
        }
        f.finish()?;
    }
    if let Some(o) = r.object("schema_dialect")? {
        let mut f = Reader::new(o, &sub("schema_dialect"));
        if let Some(t) = f.string("target")? {
            p.dialect.target = Dialect::from_id(&t).ok_or_else(|| {
                Error::policy(f.field("target"), format!("unknown dialect {t:?} (none, gemini, openai-strict, anthropic, portable)"))
            })?;
        }
        if let Some(v) = f.u64("max_ref_depth")? {
            if v > 64 {
                return Err(Error::policy(f.field("max_ref_depth"), "must be at most 64"));
            }
            p.dialect.max_ref_depth = v as u32;
        }
        f.finish()?;
    }
    if let Some(o) = r.object("tool_definition_pinning")? {
        let mut f = Reader::new(o, &sub("tool_definition_pinning"));
        let pp = &mut p.pinning;
        if let Some(m) = f.choice("mode", &["off", "warn", "block", "quarantine"])? {
            pp.mode = [PinningMode::Off, PinningMode::Warn, PinningMode::Block, PinningMode::Quarantine][m];
        }
        if let Some(m) = f.choice("block_strategy", &["error", "baseline_subset"])? {
            pp.block_strategy = [BlockStrategy::Error, BlockStrategy::BaselineSubset][m];
        }
        if let Some(m) = f.choice("block_error_session_action", &["keep", "invalidate"])? {
            pp.block_error_session_action = [SessionAction::Keep, SessionAction::Invalidate][m];
        }
        if let Some(list) = f.string_list("fields")? {
            for name in &list {
                if !KNOWN_TOOL_FIELDS.contains(&name.as_str()) {
                    return Err(Error::policy(f.field("fields"), format!("unknown tool field {name:?}")));
                }
            }
            if !list.iter().any(|n| n == "name") {
                return Err(Error::policy(f.field("fields"), "\"name\" must be pinned"));
            }
            pp.fields = list;
        }
        f.finish()?;
    }
    Ok(())
}

fn set_u32(r: &mut Reader, key: &'static str, slot: &mut u32) -> Result<(), Error> {
    if let Some(v) = r.u64(key)? {
        if v == 0 || v > u32::MAX as u64 {
            return Err(Error::policy(r.field(key), "must be a positive integer below 2^32"));
        }
        *slot = v as u32;
    }
    Ok(())
}

/// Reads typed fields from a policy object and remembers which keys it used,
/// so `finish` can name the first unknown key.
struct Reader<'a> {
    obj: &'a Object,
    path: String,
    used: Vec<&'static str>,
}

impl<'a> Reader<'a> {
    fn new(obj: &'a Object, path: &str) -> Reader<'a> {
        Reader { obj, path: path.to_string(), used: Vec::new() }
    }
    fn field(&self, key: &str) -> String {
        if self.path.is_empty() {
            key.to_string()
        } else {
            format!("{}.{}", self.path, key)
        }
    }
    fn take(&mut self, key: &'static str) -> Option<&'a Value> {
        self.used.push(key);
        self.obj.get(key)
    }
    fn type_err(&self, key: &str, want: &str, got: &Value) -> Error {
        Error::policy(self.field(key), format!("must be {want}, not {}", got.type_name()))
    }
    fn object(&mut self, key: &'static str) -> Result<Option<&'a Object>, Error> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Object(o)) => Ok(Some(o)),
            Some(v) => Err(self.type_err(key, "an object", v)),
        }
    }
    fn array(&mut self, key: &'static str) -> Result<Option<&'a Vec<Value>>, Error> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(v) => Err(self.type_err(key, "an array", v)),
        }
    }
    fn string(&mut self, key: &'static str) -> Result<Option<String>, Error> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(v) => Err(self.type_err(key, "a string", v)),
        }
    }
    fn bool(&mut self, key: &'static str) -> Result<Option<bool>, Error> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Bool(b)) => Ok(Some(*b)),
            Some(v) => Err(self.type_err(key, "a boolean", v)),
        }
    }
    fn u64(&mut self, key: &'static str) -> Result<Option<u64>, Error> {
        match self.take(key) {
            None => Ok(None),
            Some(Value::Number(n)) => n
                .as_u64()
                .map(Some)
                .ok_or_else(|| Error::policy(self.field(key), "must be a non-negative integer")),
            Some(v) => Err(self.type_err(key, "an integer", v)),
        }
    }
    fn string_list(&mut self, key: &'static str) -> Result<Option<Vec<String>>, Error> {
        let Some(a) = self.array(key)? else { return Ok(None) };
        let mut out = Vec::with_capacity(a.len());
        for v in a {
            match v {
                Value::String(s) if !out.contains(s) => out.push(s.clone()),
                Value::String(s) => return Err(Error::policy(self.field(key), format!("{s:?} is listed twice"))),
                _ => return Err(Error::policy(self.field(key), "must be a list of strings")),
            }
        }
        Ok(Some(out))
    }
    fn choice(&mut self, key: &'static str, options: &[&str]) -> Result<Option<usize>, Error> {
        let Some(s) = self.string(key)? else { return Ok(None) };
        options
            .iter()
            .position(|o| *o == s)
            .map(Some)
            .ok_or_else(|| Error::policy(self.field(key), format!("unknown value {s:?} (one of: {})", options.join(", "))))
    }
    fn finish(self) -> Result<(), Error> {
        for k in self.obj.keys() {
            if !self.used.contains(&k.as_str()) {
                return Err(Error::policy(self.field(k), "unknown setting"));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err_field(text: &str) -> String {
        match Policy::from_json(text) {
            Err(Error::InvalidPolicy { field, .. }) => field,
            other => panic!("expected a policy error, got {other:?}"),
        }
    }

    #[test]
    fn empty_policy_is_the_default_preset() {
        assert_eq!(Policy::from_json("{}").unwrap(), Policy::default());
    }

    #[test]
    fn unknown_settings_name_the_field() {
        assert_eq!(err_field(r#"{"core":{"tool_names":{"prefix":true}}}"#), "core.tool_names.prefix");
        assert_eq!(err_field(r#"{"cor":{}}"#), "cor");
        assert_eq!(err_field(r#"{"servers":[{"id":"a","schema_limits":{"max_depth":"3"}}]}"#), "servers[0].schema_limits.max_depth");
    }

    #[test]
    fn contradictions_are_errors() {
        assert_eq!(err_field(r#"{"core":{"tool_fields":{"allow":["name"]}}}"#), "core.tool_fields.allow");
        assert_eq!(err_field(r#"{"servers":[{"id":"a"},{"id":"a"}]}"#), "servers[1].id");
        assert_eq!(
            err_field(r#"{"core":{"tool_metadata_sanitization":{"max_title_chars":3}}}"#),
            "core.tool_metadata_sanitization.max_title_chars"
        );
        assert_eq!(err_field(r#"{"core":{"tool_names":{"separator":"/"}}}"#), "core.tool_names.separator");
        // The prefix takes at most half of the name: a separator of 4 leaves
        // no server character under 8.
        assert_eq!(err_field(r#"{"core":{"tool_names":{"separator":"----","max_chars":8}}}"#), "core.tool_names.separator");
        assert!(Policy::from_json(r#"{"core":{"tool_names":{"separator":"---","max_chars":8}}}"#).is_ok());
        assert_eq!(err_field(r#"{"core":{"schema_limits":{"max_nodes":0}}}"#), "core.schema_limits.max_nodes");
    }

    #[test]
    fn quarantine_is_a_pinning_mode_and_an_unknown_mode_names_it() {
        let p = Policy::from_json(r#"{"core":{"tool_definition_pinning":{"mode":"quarantine"}}}"#).unwrap();
        assert_eq!(p.core.pinning.mode, PinningMode::Quarantine);
        assert_eq!(err_field(r#"{"core":{"tool_definition_pinning":{"mode":"quarantined"}}}"#), "core.tool_definition_pinning.mode");
    }

    #[test]
    fn server_overrides_only_touch_their_fields() {
        let p = Policy::from_json(
            r#"{"preset":"strict","core":{"tool_description_policy":{"mode":"truncate"}},
                "servers":[{"id":"pw","tool_definition_pinning":{"mode":"block"}}]}"#,
        )
        .unwrap();
        let pw = p.for_server(Some("pw"));
        assert_eq!(pw.pinning.mode, PinningMode::Block);
        assert_eq!(pw.description.mode, DescriptionMode::Truncate);
        assert_eq!(pw.limits.max_depth, 4);
        assert_eq!(p.for_server(Some("other")).pinning.mode, PinningMode::Warn);
    }
}
