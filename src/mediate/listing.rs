//! A listing: the pages of one `tools/list` (the client's, or the mediator's
//! own re-list), assembled into one catalog, then pinned (the first),
//! compared (later ones) and served or refused through [`crate::pinning`].

use super::kept::{self, KeptListing};
use super::requests::Pending;
use super::{n, obj, s, Mediator, Out, MAX_PAGES};
use crate::json::{self, Object, Value};
use crate::jsonrpc::{code, error_response, reason};
use crate::pinning::{self, Decision};
use crate::Error;
use std::collections::HashSet;
use std::sync::Arc;

/// A listing being assembled from pages.
#[derive(Clone)]
pub(crate) struct Listing {
    /// The client's request id; `None` for the mediator's own re-list.
    pub(crate) client_id: Option<Value>,
    /// Protocol version of the request it answers (for the log).
    version: Option<String>,
    /// `_meta` entries every page request carries (2026-07-28).
    envelope: Option<Object>,
    /// The first page's result without `tools` and `nextCursor`.
    head: Object,
    tools: Vec<Value>,
    /// Bytes of the pages so far (capped by `catalog_limits.max_catalog_bytes`).
    bytes: u64,
    pages: usize,
    cursors: HashSet<String>,
}

impl Listing {
    pub(crate) fn new(client_id: Option<Value>, version: Option<String>, envelope: Option<Object>) -> Listing {
        Listing {
            client_id,
            version,
            envelope,
            head: Object::new(),
            tools: Vec::new(),
            bytes: 0,
            pages: 0,
            cursors: HashSet::new(),
        }
    }
}

/// Folds a later page's cache fields into the listing's: the shortest
/// `ttlMs`, `cacheScope` `"private"` if any page is private. A value of the
/// wrong type sticks (the envelope stage then drops it with a finding: a
/// 2026-07-28 client refuses the listing, which fails closed).
fn merge_cache_fields(head: &mut Object, page: &Object) {
    let int = |v: &Value| if let Value::Number(n) = v { n.as_u64() } else { None };
    if let Some(t) = page.get("ttlMs") {
        let merged = match head.get("ttlMs") {
            Some(h) if int(h).is_none() => None,
            Some(h) => match (int(h), int(t)) {
                (Some(a), Some(b)) => Some(Value::Number(json::Number::from_u64(a.min(b)))),
                _ => Some(t.clone()),
            },
            None => Some(t.clone()),
        };
        if let Some(v) = merged {
            head.insert("ttlMs", v);
        }
    }
    if let Some(c) = page.get("cacheScope") {
        let valid = |v: &Value| matches!(v.as_str(), Some("public" | "private"));
        let keep_head = match head.get("cacheScope") {
            Some(h) => !valid(h) || (h.as_str() == Some("private") && valid(c)) || c.as_str() == Some("public"),
            None => false,
        };
        if !keep_head {
            head.insert("cacheScope", c.clone());
        }
    }
}

impl Mediator {
    /// After a list change: the mediator's own re-list, so the gate follows
    /// the server even when the client does not re-list. Not before a first
    /// listing (nothing to compare with), not in a dead conversation.
    pub(crate) fn relist(&mut self) -> Vec<Out> {
        if self.baseline.is_none() || self.dead().is_some() {
            return Vec::new();
        }
        if !self.own_requests {
            let why = "the host sends no requests of its own; the client's next listing is compared";
            return vec![self.log("relist-skipped", vec![("message", s(why))])];
        }
        if self.requests.relisting() {
            self.relist_again = true;
            return Vec::new();
        }
        let (version, envelope) = self.protocol.own_request();
        vec![self.request_page(Listing::new(None, version, envelope), None)]
    }

    /// Sends the mediator's own `tools/list` (with `cursor` for a next page).
    fn request_page(&mut self, listing: Listing, cursor: Option<&str>) -> Out {
        let id = self.requests.mint();
        let mut params = Object::new();
        if let Some(c) = cursor {
            params.insert("cursor", s(c));
        }
        if let Some(env) = &listing.envelope {
            params.insert("_meta", Value::Object(env.clone()));
        }
        let req = obj([
            ("jsonrpc", s("2.0")),
            ("id", s(&id)),
            ("method", s("tools/list")),
            ("params", Value::Object(params)),
        ]);
        self.requests.insert(id, Pending::Page(listing));
        Out::Server(json::write_compact(&req))
    }

    /// One page of a listing arrived.
    pub(crate) fn page(&mut self, mut l: Listing, msg: Value) -> Vec<Out> {
        let mut msg = match msg {
            Value::Object(o) => o,
            _ => Object::new(),
        };
        if let Some(err) = msg.remove("error") {
            // The server refused the listing: the client gets the server's
            // error under its own id.
            let mut out = vec![self.log("listing-error", vec![("error", err.clone())])];
            if let Some(id) = &l.client_id {
                out.push(Out::Client(json::write_compact(&obj([
                    ("jsonrpc", s("2.0")),
                    ("id", id.clone()),
                    ("error", err),
                ]))));
            }
            return out;
        }
        let result = msg.remove("result").unwrap_or(Value::Null);
        let mut result = match result {
            Value::Object(r) => r,
            // Not an object: the engine refuses it with a typed error.
            other => return self.finish(l, json::write_compact(&other)),
        };
        let cursor = match result.remove("nextCursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(c),
            Some(other) => {
                let why = format!("nextCursor must be a string, not {}", other.type_name());
                return self.unusable(l, "invalid-cursor", &why);
            }
        };
        if l.pages == 0 && cursor.is_none() {
            // The common case: one page, handed to the engine as it is.
            return self.finish(l, json::write_compact(&Value::Object(result)));
        }
        let tools = match result.remove("tools") {
            Some(Value::Array(t)) => t,
            _ => return self.unusable(l, "not-a-tools-list", "a page of the tools/list result has no tools array"),
        };
        let page_bytes = json::write_compact(&Value::Array(tools.clone())).len() as u64;
        l.bytes += page_bytes;
        l.pages += 1;
        if l.pages == 1 {
            // The first page's other fields (`resultType`, `ttlMs`,
            // `cacheScope`, `_meta`) stand for the whole listing…
            l.head = result;
        } else {
            // …but no page may be cached longer or wider than it allows.
            merge_cache_fields(&mut l.head, &result);
        }
        l.tools.extend(tools);
        let max = self.policy.catalog.max_catalog_bytes;
        if l.bytes > max {
            let why = format!("the pages of the tools/list result exceed catalog_limits.max_catalog_bytes ({max})");
            return self.unusable(l, "too-large", &why);
        }
        match cursor {
            None => {
                let mut catalog = Object::with_capacity(l.head.len() + 1);
                catalog.insert("tools", Value::Array(std::mem::take(&mut l.tools)));
                for (k, v) in std::mem::take(&mut l.head).into_entries() {
                    catalog.insert(k, v);
                }
                self.finish(l, json::write_compact(&Value::Object(catalog)))
            }
            Some(_) if l.pages >= MAX_PAGES => {
                self.unusable(l, "too-many-pages", &format!("the tools/list result has more than {MAX_PAGES} pages"))
            }
            Some(c) if !l.cursors.insert(c.clone()) => {
                self.unusable(l, "cursor-loop", "the server handed out the same nextCursor twice")
            }
            Some(_) if !self.own_requests => self.unusable(
                l,
                "paginated",
                "the result is paginated (nextCursor), and this host does not fetch pages itself",
            ),
            Some(c) => vec![self.request_page(l, Some(&c))],
        }
    }

    /// Fails a listing closed: the client gets an error, never the raw pages.
    fn unusable(&mut self, l: Listing, kind: &str, why: &str) -> Vec<Out> {
        let message = format!("mcp-guard: the server's tools/list result is unusable: {why}");
        let mut out = vec![self.log("listing-unusable", vec![("kind", s(kind)), ("message", s(why))])];
        if let Some(id) = &l.client_id {
            out.push(Out::Client(error_response(id, code::UNUSABLE_CATALOG, &message, Some(reason(kind)))));
        }
        out
    }

    /// The whole catalog of a listing: pin (first) or compare (later), then
    /// serve or refuse — or, for a client's listing that meets the kept
    /// answer's catalog and state again, that answer (`kept`).
    fn finish(&mut self, l: Listing, catalog: String) -> Vec<Out> {
        if let Some(id) = &l.client_id {
            if let Some(k) = self.kept.as_ref().filter(|k| k.answers(self, &catalog)) {
                return k.replay(id, l.version.as_deref());
            }
        }
        let request = l.client_id.clone().unwrap_or(Value::Null);
        let first = self.baseline.is_none();
        let result = match &self.baseline {
            None => pinning::pin(&self.policy, &catalog, &self.opts).map(|p| {
                let serve = Decision::Serve(p.outcome.catalog.clone());
                (p.outcome, Vec::new(), p.baseline, serve, Vec::new())
            }),
            Some(b) => pinning::compare(&self.policy, b, &catalog, &self.opts)
                .map(|c| (c.outcome, c.drift, c.baseline, c.decision, c.pending)),
        };
        let (outcome, drift, baseline, decision, pending) = match result {
            Ok(r) => r,
            Err(e) => return self.engine_error(l, &e),
        };
        let was_dead = self.dead().is_some();
        let findings: Vec<Value> = outcome
            .findings
            .iter()
            .map(|f| Value::Object(self.log_line("finding", vec![("finding", super::finding_value(f))])))
            .collect();
        let served = match decision {
            Decision::Serve(c) => Ok(c),
            Decision::Refuse { invalidate, message } => Err((invalidate, message)),
        };
        let drift_names =
            |k: pinning::DriftKind| Value::Array(drift.iter().filter(|d| d.kind == k).map(|d| s(&d.name)).collect());
        let listing = self.log_line(
            "listing",
            vec![
                ("request", request),
                ("baseline", s(if first { "pinned" } else { "compared" })),
                ("tools", n(outcome.tools.len() as u64)),
                (
                    "hidden",
                    Value::Array(outcome.hidden.iter().map(|h| h.name.as_deref().map_or(Value::Null, s)).collect()),
                ),
                ("changed", drift_names(pinning::DriftKind::Changed)),
                ("new", drift_names(pinning::DriftKind::New)),
                ("removed", drift_names(pinning::DriftKind::Removed)),
                ("decision", s(if served.is_ok() { "served" } else { "refused" })),
                ("protocol", l.version.as_deref().map_or(Value::Null, s)),
                ("quarantined", Value::Array(baseline.quarantined.iter().map(|q| s(q)).collect())),
                ("kept", Value::Bool(false)),
            ],
        );
        // The record is written before the client sees the listing: what
        // was held back is on disk for review by the time anyone asks.
        let persist = self.update_record(&baseline, pending);
        // A client's listing that leaves the state as it found it is kept
        // (kept.rs); the state then stays the one held before (equal, and
        // its shared pins are what makes the next check cheap).
        let same_state =
            persist.is_none() && self.baseline.as_ref().is_some_and(|b| kept::same_state(b, &baseline));
        let unchanged = same_state && l.client_id.is_some();
        // The kept answer holds the very log lines written now: copies are
        // taken only for a listing that is kept.
        let kept_lines = unchanged.then(|| (findings.clone(), listing.clone()));
        let mut out: Vec<Out> = findings.into_iter().map(Out::Log).collect();
        out.push(Out::Log(Value::Object(listing)));
        out.extend(persist);
        // A client's listing replaces the kept answer (or drops it when too
        // large to keep); the mediator's own re-list after `list_changed`
        // that found the state as it was leaves it: the next client listing
        // of that catalog is still answered by it, and `answers` checks it
        // against everything again anyway.
        if !same_state || l.client_id.is_some() {
            self.kept = None;
        }
        if !same_state {
            self.baseline = Some(baseline);
        }
        if !was_dead {
            if let Some(why) = self.dead() {
                let why = why.to_string();
                out.push(self.log("session-invalidated", vec![("message", s(&why))]));
            }
        }
        let Some(id) = l.client_id else {
            if std::mem::take(&mut self.relist_again) {
                out.extend(self.relist());
            }
            return out;
        };
        if let Some((findings, listing)) = kept_lines {
            self.kept = KeptListing::new(self, catalog, served.clone(), findings, listing).map(Arc::new);
        }
        out.push(Out::Client(kept::answer(&id, &served)));
        out
    }

    fn engine_error(&mut self, l: Listing, e: &Error) -> Vec<Out> {
        let message = format!("mcp-guard refused the server's tools/list result: {e}");
        let mut out = vec![self.log("engine-error", vec![("kind", s(e.kind())), ("message", s(&e.to_string()))])];
        if let Some(id) = &l.client_id {
            out.push(Out::Client(error_response(id, code::UNUSABLE_CATALOG, &message, Some(reason(e.kind())))));
        }
        out
    }
}
