//! The one place that fixes the order of the stages, and why. Each stage is
//! named after its module (`crate::stages::*`, then `crate::discovery` and
//! `crate::pinning`); docs, findings and the WIT use these names.
//!
//! - **`envelope`** — refuse what is not a tools/list result before touching tools.
//! - **`fields`** — drop fields the client should not see *first*, so no later
//!   stage spends time on (or reports about) `_meta` or icons that vanish anyway
//!   (their text is kept aside for the poisoning detector).
//! - **`sanitize`** — clean text before anything measures or judges it: limits
//!   must count what the client will actually get, the detector must read text
//!   with zero-width splits, tag smuggling and homoglyphs already folded away,
//!   and the description policy must cut clean text, not padding.
//! - **`limits`** — shape and size of the schemas *before* any text scanner
//!   walks them: a 100,000-value enum bomb is hidden here, cheaply, instead of
//!   being scanned string by string. Dropped keywords (`x-*`, `$comment`) are
//!   kept aside for the detector. Right after it, look-alike property names
//!   (`path` and a Cyrillic `pаth` in one object) are flagged: on the bounded
//!   schema, before `dialect` rewrites it, so pointers name the input.
//! - **`poisoning`** — over every string upstream sent, including what `fields`
//!   and `limits` removed (an instruction planted in `$comment` still convicts
//!   its author), and before `description` removes prose: the verdict must not
//!   depend on how much prose this deployment forwards.
//! - **`description`** — limits *prose* after it is clean and judged
//!   (sanitization cleans text, the description policy limits text).
//! - **`dialect`** — normalize schemas for the target model API from the
//!   cleaned, bounded, judged metadata; off by default.
//! - **`names`** — across the whole catalog, last among the per-catalog stages,
//!   because duplicates and look-alikes are only defined over the tools that
//!   survived the per-tool stages, and the mapping must describe the final
//!   visible surface (including the dialect's tool-name rule).
//!
//! - **`discovery`** (`core.discovery`, off by default) — after every metadata
//!   control, so the meta-tools only ever reach cleaned, judged,
//!   dialect-normalized tools (discovery must not be a bypass). Here only the
//!   meta-tools' names are reserved; the surface itself is built where the
//!   catalog is served (`sanitize`, `pinning`).
//! - **`pinning`** (`crate::pinning`, its own calls: pin / compare / check
//!   call) — of what the client actually sees, and under discovery of the
//!   whole catalog behind the surface (the effective surface is pinned, not
//!   the upstream catalog).

use crate::ctx::ToolCtx;
use crate::finding::{Finding, FindingKind as K, HiddenTool, Severity as S};
use crate::json::{self, Object, ParseOptions, Value};
use crate::stages::{self, names::NameMapping};
use crate::{Error, Outcome, Policy, SanitizeOptions, ToolReport, ToolStatus};

/// The sanitized catalog as a value plus everything the report needs.
#[derive(Clone)]
pub(crate) struct Sanitized {
    pub catalog: Value,
    pub findings: Vec<Finding>,
    pub hidden: Vec<HiddenTool>,
    pub tools: Vec<ToolReport>,
    pub name_map: Vec<NameMapping>,
    /// Visible name → input schema before the dialect stage, for every tool
    /// the dialect rewrote (the call gate validates against the original).
    pub call_schemas: Vec<(String, Value)>,
}

impl Sanitized {
    /// `size_hint`: about how long the served text will be (the input's
    /// length: sanitizing mostly keeps or shortens it), to write it into one
    /// buffer of that size.
    pub fn into_outcome(mut self, size_hint: usize) -> Outcome {
        let tree = std::mem::replace(&mut self.catalog, Value::Null);
        let catalog = json::write_served_sized(tree, size_hint);
        self.serving(catalog)
    }

    /// The report, with `catalog` as the text the client is served (the
    /// discovery surface instead of the whole catalog).
    pub fn serving(self, catalog: String) -> Outcome {
        Outcome {
            catalog,
            findings: self.findings,
            hidden: self.hidden,
            tools: self.tools,
            name_map: self.name_map,
        }
    }
}

/// One per-tool stage: edits the tool, reports through its context.
type Stage<'a> = dyn Fn(&mut Object, &mut ToolCtx) + 'a;

pub(crate) fn run(policy: &Policy, text: &str, opts: &SanitizeOptions) -> Result<Sanitized, Error> {
    let limit = policy.catalog.max_catalog_bytes;
    if text.len() as u64 > limit {
        return Err(Error::TooLarge { limit, actual: text.len() as u64 });
    }
    let parsed = json::parse(text, ParseOptions { max_depth: policy.catalog.max_json_depth as usize })?;
    let json::Parsed { value, tool_spans: spans, tool_has_mcp_header } = parsed;
    let mut findings = Vec::new();
    let (entries, envelope) = stages::envelope::run(value, &mut findings)?;

    let server = opts.server.as_deref();
    let sp = policy.for_server(server);
    let max_tools = policy.catalog.max_tools as usize;
    let mut cxs: Vec<ToolCtx> = Vec::with_capacity(entries.len());
    let mut tools: Vec<Option<Object>> = Vec::with_capacity(entries.len());

    // Every upstream name plus the other servers' names: the poisoning
    // detector's shadowing rule looks for them in descriptions. Built only
    // when the detector runs for this server.
    let name_index = if sp.poisoning.mode == crate::policy::PoisoningMode::Off {
        crate::poison::NameIndex::new(&[])
    } else {
        // Borrowed: the index copies the names it keeps.
        let mut all_names: Vec<&str> =
            entries.iter().filter_map(|e| e.as_object().and_then(|o| o.get("name")).and_then(Value::as_str)).collect();
        all_names.extend(opts.foreign_names.iter().map(String::as_str));
        crate::poison::NameIndex::of(&all_names)
    };

    // The stages' pointer buffer, handed from tool to tool.
    let mut path_buf = String::new();
    for (i, entry) in entries.into_iter().enumerate() {
        let name = entry.as_object().and_then(|o| o.get("name")).and_then(Value::as_str).map(str::to_string);
        let mut cx = ToolCtx::new(i as u32, name, sp, server);
        cx.path_buf = std::mem::take(&mut path_buf);
        // The parser saw every key: a tool without `x-mcp-header` skips the
        // limits stage's walk that checks each one.
        cx.may_have_mcp_header = tool_has_mcp_header.get(i).copied().unwrap_or(true);
        let base = cx.base();
        if i >= max_tools {
            cx.hide(K::CatalogLimit, S::Medium, base.to_string(), format!("the catalog has more than {max_tools} tools"));
            cxs.push(cx);
            tools.push(None);
            continue;
        }
        let Value::Object(mut tool) = entry else {
            cx.hide(K::ToolEntryInvalid, S::Medium, base.to_string(), format!("a tools entry must be an object, not {}", entry.type_name()));
            cxs.push(cx);
            tools.push(None);
            continue;
        };
        match tool.get("name") {
            Some(Value::String(_)) => {}
            Some(other) => {
                let d = format!("tool name must be a string, not {}", other.type_name());
                cx.hide(K::ToolEntryInvalid, S::Medium, format!("{base}/name"), d);
            }
            None => cx.hide(K::ToolEntryInvalid, S::Medium, format!("{base}/name"), "tool has no name".into()),
        }
        // The per-tool stages, in order (`fields` to `dialect`, with the
        // property look-alikes after `limits`); a hidden tool skips the rest.
        let poisoning = |t: &mut Object, c: &mut ToolCtx| stages::poisoning::run(t, c, &policy.detector.0, &name_index);
        let per_tool: [&Stage; 7] = [
            &stages::fields::run,
            &stages::sanitize::run,
            &stages::limits::run,
            &stages::names::look_alike_properties,
            &poisoning,
            &stages::description::run,
            &stages::dialect::run,
        ];
        for stage in per_tool {
            if cx.is_hidden() {
                break;
            }
            stage(&mut tool, &mut cx);
        }
        path_buf = std::mem::take(&mut cx.path_buf);
        cxs.push(cx);
        tools.push(Some(tool));
    }

    // `names`, across the catalog.
    let mut visible = stages::names::run(&mut cxs, server, &opts.foreign_names);
    // `discovery`: the meta-tools' names are reserved; a real tool
    // that would be served under one is hidden (a client could not tell
    // which one it calls).
    if sp.discovery.on {
        for (cx, vis) in cxs.iter_mut().zip(visible.iter_mut()) {
            if cx.hidden.is_none() && vis.as_deref().is_some_and(crate::discovery::is_meta_tool) {
                let d = format!("{:?} is reserved for the discovery meta-tool of that name", vis.as_deref().unwrap_or_default());
                cx.hide(K::NameDuplicate, S::Medium, format!("{}/name", cx.base()), d);
                *vis = None;
            }
        }
    }

    let mut out_tools = Vec::with_capacity(tools.len());
    let mut hidden = Vec::new();
    let mut reports = Vec::with_capacity(tools.len());
    let mut name_map = Vec::new();
    let mut call_schemas = Vec::new();
    for ((cx, tool), vis) in cxs.iter_mut().zip(tools).zip(visible) {
        let span = spans.get(cx.index as usize).copied().unwrap_or((0, 0));
        let status = match (&cx.hidden, tool, &vis) {
            (None, Some(mut t), Some(v)) => {
                if cx.name.as_deref() != Some(v.as_str()) {
                    t.insert("name", Value::String(v.clone()));
                    name_map.push(NameMapping { visible: v.clone(), upstream: cx.name.clone().unwrap_or_default() });
                }
                out_tools.push(Value::Object(t));
                if let Some(s) = cx.call_schema.take() {
                    call_schemas.push((v.clone(), s));
                }
                if cx.truncated {
                    ToolStatus::Truncated
                } else if cx.rewritten {
                    ToolStatus::Rewritten
                } else {
                    ToolStatus::Clean
                }
            }
            (h, _, _) => {
                let (reason, detail) = h.clone().unwrap_or((K::ToolEntryInvalid, "tool has no usable name".into()));
                hidden.push(HiddenTool { index: cx.index, name: cx.name.clone(), reason, detail });
                ToolStatus::Hidden
            }
        };
        reports.push(ToolReport {
            index: cx.index,
            // Taken: the contexts are done with after this loop.
            name: cx.name.take(),
            visible_name: if status == ToolStatus::Hidden { None } else { vis },
            status,
            flagged: cx.flagged,
            raw_span: (span.0 as u64, span.1 as u64),
        });
        findings.append(&mut cx.findings);
    }

    let mut catalog = Object::with_capacity(2);
    catalog.insert("tools", Value::Array(out_tools));
    for (k, v) in envelope.into_entries() {
        catalog.insert(k, v);
    }
    Ok(Sanitized { catalog: Value::Object(catalog), findings, hidden, tools: reports, name_map, call_schemas })
}
