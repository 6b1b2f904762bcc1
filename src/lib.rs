//! # mcp-guard
//!
//! A firewall for MCP tool metadata. An MCP server's `tools/list` result is
//! model-visible input from a party the user does not control; `sanitize`
//! turns it into a clean, bounded catalog and reports every change it made.
//!
//! ```
//! let policy = mcp_guard::Policy::default();
//! let out = mcp_guard::sanitize(&policy, r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#,
//!                               &mcp_guard::SanitizeOptions::default()).unwrap();
//! assert_eq!(out.catalog, r#"{"tools":[{"name":"echo","inputSchema":{"type":"object"}}]}"#);
//! assert!(out.findings.is_empty());
//! ```
//!
//! The core is pure: no I/O, no globals, no clock. Hosts (CLI, WASI component,
//! npm, Python, Envoy) are thin adapters over this crate.

#![forbid(unsafe_code)]

mod ctx;
pub mod dialect;
pub mod discovery;
mod error;
mod finding;
pub mod jcs;
pub mod json;
mod keyword;
pub mod jsonrpc;
pub mod markup;
pub mod mediate;
mod pattern;
mod pipeline;
pub mod pinning;
pub mod poison;
pub mod policy;
pub mod schema;
mod stages;
mod swar;
pub mod text;

pub use error::Error;
pub use finding::{Action, Finding, FindingKind, HiddenTool, Severity};
pub use policy::{Policy, Preset};
pub use stages::names::NameMapping;

/// Version of the engine's rules; part of every pin digest, so a rule change
/// cannot be mistaken for upstream drift.
pub const ENGINE_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Per-call inputs besides the catalog and the policy.
#[derive(Clone, Debug, Default)]
pub struct SanitizeOptions {
    /// Id of the server the catalog came from: selects `servers[]` overrides,
    /// the name prefix and the description placeholder.
    pub server: Option<String>,
    /// Tool names from *other* servers the client also sees, for look-alike
    /// and shadowing checks.
    pub foreign_names: Vec<String>,
}

/// What happened to one tool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolStatus {
    /// Passed through unchanged.
    Clean,
    /// Kept with rewrites (removed fields, cleaned text, normalized schema, mapped name).
    Rewritten,
    /// Kept, and some text was cut at a cap.
    Truncated,
    /// Not shown to the client.
    Hidden,
}

impl ToolStatus {
    pub fn id(self) -> &'static str {
        match self {
            ToolStatus::Clean => "clean",
            ToolStatus::Rewritten => "rewritten",
            ToolStatus::Truncated => "truncated",
            ToolStatus::Hidden => "hidden",
        }
    }
}

/// Per-tool summary, in input order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolReport {
    pub index: u32,
    /// Upstream name as received (if it was a string).
    pub name: Option<String>,
    /// The name the client sees (None when hidden).
    pub visible_name: Option<String>,
    pub status: ToolStatus,
    /// Some finding only reported (did not change) something about this tool.
    pub flagged: bool,
    /// Byte range of the raw tool in the input text: the tool as received
    /// stays available for audit without a copy.
    pub raw_span: (u64, u64),
}

/// The result of `sanitize`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The sanitized tools/list result, compact JSON, deterministic bytes.
    pub catalog: String,
    /// Every change and suspicion, in tool order then stage order.
    pub findings: Vec<Finding>,
    /// Tools the client will not see, with the deciding reason.
    pub hidden: Vec<HiddenTool>,
    pub tools: Vec<ToolReport>,
    /// Visible name → upstream name, for every tool whose name was mapped.
    pub name_map: Vec<NameMapping>,
}

/// Runs the full pipeline over the JSON text of a tools/list result.
///
/// Errors refuse the whole input (malformed JSON, duplicate keys, not a
/// tools/list result, too large). A defect inside one tool never is an
/// error: it hides that tool and is reported.
pub fn sanitize(policy: &Policy, catalog_json: &str, opts: &SanitizeOptions) -> Result<Outcome, Error> {
    let sp = policy.for_server(opts.server.as_deref());
    // A little over the input's length: `\uXXXX` escapes of non-ASCII
    // text may make the served text longer than the input. Under discovery
    // the surface is built from the tree instead.
    let size = catalog_json.len() + catalog_json.len() / 16 + 256;
    let s = pipeline::run(policy, catalog_json, opts, (!sp.discovery.on).then_some(size))?;
    // Under discovery the client is served the surface; the report still
    // covers every tool behind it.
    Ok(if sp.discovery.on {
        let surface = json::write_served(&discovery::surface_catalog(&sp.discovery, sp.dialect.target, &s.catalog));
        s.serving(surface)
    } else {
        s.into_outcome(size)
    })
}
