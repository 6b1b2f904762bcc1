//! Requests in flight and the ids minted for them.
//!
//! The rule (cli/README.md "Request ids"; the same in every host): the
//! mediator never forwards a client's request id. Every request it sends
//! upstream carries an id it minted (`"<prefix>-<n>"`, a string no client
//! picks and that reads as no number), and it keeps minted id → (client's
//! id, method) until the answer; the answer goes to the client under the
//! client's exact id. A server message without a `method` is taken only when
//! its id is *exactly* a pending minted id ([`id_match`] = `Exact`); every
//! other one is dropped with a log line and never reaches the client, so no
//! client can route a raw catalog to its `tools/list` by loose id equality
//! (`"1"`, `1.0`, `1e0` for `1`). When the dropped id is the *client's* id
//! of a pending request (exactly or loosely: the server guessed it, e.g.
//! from a progress token), that request fails: the client gets -32002
//! `id-mismatch` under its own id, and the server's later answer is dropped
//! like any second answer for an id already answered.
//! `notifications/cancelled` is sent upstream with the minted id (and the
//! request is forgotten); a cancellation of nothing pending is dropped.
//! Server → client requests (sampling, elicitation, roots) and the client's
//! answers to them keep their ids: those ids are the server's. At most
//! [`MAX_PENDING`] requests (and [`MAX_PENDING_BYTES`] of their ids and
//! methods) wait for answers; past that a new request is answered -32600
//! `too-many-pending` and not forwarded.
//!
//! One `Requests` belongs to one transport conversation (a stdio pipe; for
//! an HTTP transport, one stream).

use super::listing::Listing;
use crate::json::{self, Value};
use crate::jsonrpc::{id_match, IdMatch};
use std::collections::HashMap;

/// Client requests waiting for the server's answer. A client that never
/// waits for answers cannot grow the mediator's memory past this; requests
/// past it are answered -32600 `too-many-pending` without reaching the server.
pub const MAX_PENDING: usize = 1024;

/// Bytes of the client ids and method names kept for pending requests (the
/// count alone would let 1024 huge ids through).
pub const MAX_PENDING_BYTES: usize = 16 << 20;

/// Longest id (in bytes of its text) compared with the pending clients' ids
/// when a server answers under an id the mediator did not mint. Only for the
/// early `id-mismatch` error: such an answer is dropped in any case, and the
/// bound keeps one stray answer's cost at `MAX_PENDING × MAX_COMPARED_ID`
/// instead of growing with hostile ids.
pub(crate) const MAX_COMPARED_ID: usize = 256;

/// What the answer to a minted id is for.
#[derive(Clone)]
pub(crate) enum Pending {
    /// A client's request other than `tools/list`, forwarded under a minted
    /// id; the answer goes back under `client_id`. `tool`: the name a
    /// `tools/call` was sent for (upstream), for the log.
    Request { client_id: Value, method: String, tool: Option<String> },
    /// A page of a listing (the client's `tools/list` or the mediator's own
    /// re-list): the answer goes to the engine, never straight to the client.
    Page(Listing),
}

impl Pending {
    pub(crate) fn client_id(&self) -> Option<&Value> {
        match self {
            Pending::Request { client_id, .. } => Some(client_id),
            Pending::Page(l) => l.client_id.as_ref(),
        }
    }

    pub(crate) fn method(&self) -> &str {
        match self {
            Pending::Request { method, .. } => method,
            Pending::Page(_) => "tools/list",
        }
    }

    /// Bytes counted against `MAX_PENDING_BYTES`.
    fn weight(&self) -> usize {
        let tool = match self {
            Pending::Request { tool: Some(t), .. } => t.len(),
            _ => 0,
        };
        self.client_id().map_or(0, |id| json::write_compact(id).len()) + self.method().len() + tool
    }
}

/// The requests in flight upstream, by the id the mediator minted for each.
#[derive(Clone)]
pub struct Requests {
    pending: HashMap<String, Pending>,
    /// Sum of `Pending::weight` over `pending`.
    pending_bytes: usize,
    /// Prefix of the ids minted here (checked by `Mediator::new`).
    prefix: String,
    /// Ids minted so far: `"<prefix>-1"` to `"<prefix>-<next_id>"`.
    next_id: u64,
}

/// The cost of comparing an id loosely, in bytes (`None`: never compared —
/// objects and arrays are no id any client matches loosely).
fn id_cost(id: &Value) -> Option<usize> {
    match id {
        Value::String(s) => Some(s.len()),
        Value::Number(n) => Some(n.as_str().len()),
        Value::Bool(_) | Value::Null => Some(0),
        _ => None,
    }
}

/// An id for a log line: as it is when short, else its type and length (a
/// hostile id must not turn one log line into megabytes).
pub(crate) fn id_for_log(id: Option<&Value>) -> Value {
    match id {
        None => Value::Null,
        Some(v) => match id_cost(v) {
            Some(c) if c <= MAX_COMPARED_ID => v.clone(),
            _ => Value::str(format!("({}, {} bytes)", v.type_name(), json::write_compact(v).len())),
        },
    }
}

impl Requests {
    pub(crate) fn new(prefix: String) -> Requests {
        Requests { pending: HashMap::new(), pending_bytes: 0, prefix, next_id: 0 }
    }

    /// No room for another request.
    pub(crate) fn full(&self) -> bool {
        self.pending.len() >= MAX_PENDING || self.pending_bytes >= MAX_PENDING_BYTES
    }

    /// A fresh id for a request sent upstream.
    pub(crate) fn mint(&mut self) -> String {
        self.next_id += 1;
        format!("{}-{}", self.prefix, self.next_id)
    }

    /// `id` is one the mediator minted (pending or not any more).
    pub(crate) fn minted(&self, id: &Value) -> bool {
        let Value::String(text) = id else { return false };
        let Some(n) = text.strip_prefix(self.prefix.as_str()).and_then(|r| r.strip_prefix('-')) else {
            return false;
        };
        // The canonical decimal only: "<prefix>-01" was never minted.
        n.parse::<u64>().is_ok_and(|k| k >= 1 && k <= self.next_id && k.to_string() == n)
    }

    pub(crate) fn insert(&mut self, minted: String, p: Pending) {
        self.pending_bytes += p.weight();
        self.pending.insert(minted, p);
    }

    pub(crate) fn remove(&mut self, minted: &str) -> Option<Pending> {
        let p = self.pending.remove(minted)?;
        self.pending_bytes = self.pending_bytes.saturating_sub(p.weight());
        Some(p)
    }

    pub(crate) fn get(&self, minted: &str) -> Option<&Pending> {
        self.pending.get(minted)
    }

    /// No request is in flight.
    pub(crate) fn is_empty(&self) -> bool {
        self.pending.is_empty()
    }

    /// Takes every request in flight, in the order they were minted.
    pub(crate) fn drain(&mut self) -> Vec<(String, Pending)> {
        let mut all: Vec<(String, Pending)> = self.pending.drain().collect();
        self.pending_bytes = 0;
        // Minted ids end in their sequence number.
        all.sort_by_key(|(k, _)| k.rsplit('-').next().and_then(|n| n.parse::<u64>().ok()).unwrap_or(u64::MAX));
        all
    }

    /// The mediator's own re-list is in flight.
    pub(crate) fn relisting(&self) -> bool {
        self.pending.values().any(|p| matches!(p, Pending::Page(l) if l.client_id.is_none()))
    }

    /// Minted ids of the pending requests whose client id is exactly `id`
    /// (a cancellation names the client's id exactly), sorted.
    pub(crate) fn pending_for_client_id(&self, id: &Value) -> Vec<String> {
        let mut k: Vec<String> = self
            .pending
            .iter()
            .filter(|(_, p)| p.client_id().is_some_and(|c| id_match(c, id) == IdMatch::Exact))
            .map(|(k, _)| k.clone())
            .collect();
        k.sort();
        k
    }

    /// Minted ids of the pending requests a client could take an answer
    /// under `id` for (exactly or loosely its own id), sorted. Bounded: ids
    /// longer than `MAX_COMPARED_ID` are not compared.
    pub(crate) fn guessed(&self, id: &Value) -> Vec<String> {
        match id_cost(id) {
            Some(cost) if cost <= MAX_COMPARED_ID => {
                let mut k: Vec<String> = self
                    .pending
                    .iter()
                    .filter(|(_, p)| {
                        p.client_id().is_some_and(|c| {
                            id_cost(c).is_some_and(|cc| cc <= MAX_COMPARED_ID) && id_match(c, id) != IdMatch::Distinct
                        })
                    })
                    .map(|(k, _)| k.clone())
                    .collect();
                k.sort();
                k
            }
            _ => Vec::new(),
        }
    }
}
