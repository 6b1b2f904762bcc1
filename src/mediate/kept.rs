//! A kept listing answer: a client that lists an unchanged catalog again
//! (the steady state of every session: SDK clients re-list on every list
//! change, every reconnect, often every turn) is answered without the
//! engine, byte for byte as the engine would answer it.
//!
//! Why that is sound: a listing's outcome is a pure function of the policy,
//! the options, the pin state (the baseline, and with pins across runs the
//! pin record) and the catalog text. When a client's listing left that
//! state as it found it (a compare without drift, nothing new to persist),
//! the mediator keeps what it answered, with everything it depended on; a
//! later listing is served from it only when every one of those is equal
//! again (the catalog compared as text, the rest as values). Anything else
//! — another catalog byte, a policy, a pin state, a record — runs the
//! engine: a kept answer can only be skipped, never be wrong.
//!
//! A host that makes one mediator per request (the Envoy filter: one per
//! HTTP stream) carries the kept answer from one to the next
//! ([`Mediator::kept_listing`], [`Mediator::with_kept_listing`]); the same
//! checks decide whether it applies, so a host that hands over the wrong one
//! costs only the engine's time.

use super::{Mediator, Out};
use crate::json::{Object, Value};
use crate::pinning::{Baseline, ServerInfo};
use crate::Policy;
use std::sync::Arc;

/// Bytes one kept listing may hold (catalog, answer, log lines, its copy of
/// the state: [`KeptListing::size`]); a larger listing is compared every
/// time (a 10,000-tool catalog is ~20 MB of each, and a host may keep one
/// per session).
pub const MAX_KEPT_BYTES: usize = 32 << 20;

/// A client listing's answer kept for the next identical listing. See the
/// module docs.
#[derive(Debug)]
pub struct KeptListing {
    // ---- what the answer was computed from
    catalog: String,
    policy: Policy,
    server: Option<String>,
    foreign_names: Vec<String>,
    baseline: Baseline,
    /// With pins across runs: the record's key, its text as stored, and the
    /// `serverInfo` a listing would write into it.
    record: Option<(String, Option<String>, Option<ServerInfo>)>,
    // ---- the answer
    /// The served catalog's compact text, or the refusal (invalidate, message).
    served: Result<String, (bool, String)>,
    /// The `finding` log lines, in order.
    findings: Vec<Value>,
    /// The `listing` log line (its `request` and `protocol` are the request's).
    listing: Object,
    /// Bytes held besides the catalog and answer: the log lines (a stray
    /// field of a few bytes is a finding line of a few hundred) and the
    /// state's own copy of the surface and the discovery catalog (the pins
    /// are shared). Counted once, when kept.
    held: usize,
}

/// The pin state as a listing reads it, compared field by field. Spelled
/// out (no `..`) so that a field added to [`Baseline`] must be decided here;
/// the pins are shared between copies of one state (an `Arc`), so the same
/// state held twice compares in O(1) for its largest part.
pub(super) fn same_state(a: &Baseline, b: &Baseline) -> bool {
    let Baseline {
        engine,
        server,
        dialect,
        fields,
        pinned,
        digest,
        pins,
        surface,
        revoked,
        hidden,
        invalidated,
        quarantined,
        discovery,
        catalog,
    } = a;
    *engine == b.engine
        && *server == b.server
        && *dialect == b.dialect
        && *fields == b.fields
        && *pinned == b.pinned
        && *digest == b.digest
        && (Arc::ptr_eq(pins, &b.pins) || **pins == *b.pins)
        && *surface == b.surface
        && *revoked == b.revoked
        && *hidden == b.hidden
        && *invalidated == b.invalidated
        && *quarantined == b.quarantined
        && *discovery == b.discovery
        && *catalog == b.catalog
}

/// The pin record's part of the state (`None`: per-session pinning).
fn record_state(m: &Mediator) -> Option<(String, Option<String>, Option<ServerInfo>)> {
    m.record.as_ref().map(|r| (r.key.clone(), r.stored.clone(), r.server_info.clone()))
}

fn same_record(kept: &Option<(String, Option<String>, Option<ServerInfo>)>, m: &Mediator) -> bool {
    match (kept, m.record.as_deref()) {
        (None, None) => true,
        (Some((key, stored, info)), Some(r)) => *key == r.key && *stored == r.stored && *info == r.server_info,
        _ => false,
    }
}

/// The client's answer to a listing under `id`: the served catalog spliced
/// in as it is, or the refusal.
pub(super) fn answer(id: &Value, served: &Result<String, (bool, String)>) -> String {
    use crate::jsonrpc::{code, error_response};
    match served {
        Ok(catalog) => format!("{{\"jsonrpc\":\"2.0\",\"id\":{},\"result\":{catalog}}}", crate::json::write_compact(id)),
        Err((invalidate, message)) => {
            let data = super::obj([("reason", super::s(if *invalidate { "session-invalidated" } else { "drift" }))]);
            error_response(id, code::REFUSED, &format!("mcp-guard: {message}"), Some(data))
        }
    }
}

impl KeptListing {
    /// Keeps a listing of `catalog` that left `m`'s state as it found it
    /// (`m` holds that state). `None` when over [`MAX_KEPT_BYTES`].
    pub(super) fn new(
        m: &Mediator,
        catalog: String,
        served: Result<String, (bool, String)>,
        findings: Vec<Value>,
        listing: Object,
    ) -> Option<KeptListing> {
        let baseline = m.baseline.clone()?;
        let kept = KeptListing {
            catalog,
            policy: m.policy.clone(),
            server: m.opts.server.clone(),
            foreign_names: m.opts.foreign_names.clone(),
            baseline,
            record: record_state(m),
            served,
            findings,
            listing,
            held: 0,
        };
        let kept = KeptListing { held: kept.held_bytes(), ..kept };
        (kept.size() <= MAX_KEPT_BYTES).then_some(kept)
    }

    /// Whether this is the answer `m` would give now to a listing of
    /// `catalog`: the same catalog text, policy, options and pin state.
    pub(super) fn answers(&self, m: &Mediator, catalog: &str) -> bool {
        // Cheapest first: the catalog's length, then its bytes.
        self.catalog.len() == catalog.len()
            && self.catalog == catalog
            && m.opts.server == self.server
            && m.opts.foreign_names == self.foreign_names
            && same_record(&self.record, m)
            && m.baseline.as_ref().is_some_and(|b| same_state(b, &self.baseline))
            && m.policy == self.policy
    }

    /// The outputs of the kept listing for request `id` of `version`: its
    /// finding lines, its listing line (marked `kept`), the answer.
    pub(super) fn replay(&self, id: &Value, version: Option<&str>) -> Vec<Out> {
        let mut out: Vec<Out> = self.findings.iter().cloned().map(Out::Log).collect();
        let mut line = self.listing.clone();
        line.insert("request", id.clone());
        line.insert("protocol", version.map_or(Value::Null, super::s));
        line.insert("kept", Value::Bool(true));
        out.push(Out::Log(Value::Object(line)));
        out.push(Out::Client(answer(id, &self.served)));
        out
    }

    /// Bytes held (what a host bounds): catalog, answer, log lines, state.
    pub fn size(&self) -> usize {
        self.catalog.len() + self.served.as_ref().map_or_else(|(_, m)| m.len(), String::len) + self.held
    }

    /// The compact text length of what [`KeptListing::held`] counts.
    fn held_bytes(&self) -> usize {
        use crate::json::write_compact;
        let lines: usize = self.findings.iter().map(|f| write_compact(f).len()).sum();
        let listing = write_compact(&Value::Object(self.listing.clone())).len();
        let b = &self.baseline;
        let surface: usize = b
            .surface
            .iter()
            .map(|c| c.name.len() + c.upstream.len() + c.schema.as_ref().map_or(0, |s| write_compact(s).len()))
            .sum();
        let catalog: usize = b.catalog.iter().map(|t| write_compact(t).len()).sum();
        lines + listing + surface + catalog
    }
}
