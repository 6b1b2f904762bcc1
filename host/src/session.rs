//! Host side of pinning: sessions and tombstones.
//!
//! The engine is stateless; a host keeps one baseline per session key
//! (`Mcp-Session-Id`, or a key of its own) in a [`SessionStore`], and a
//! terminal tombstone when drift closed the session: reuse of that key stays
//! refused until the tombstone expires. Time is passed in (`now_ms`), never
//! read from a clock here, so the logic is testable and hosts choose the
//! clock. [`MemoryStore`] is the in-process store; other stores (a file,
//! Redis) implement the trait.

use crate::{
    CallDecision, Compared, Decision, GuardInstance, HostError, Pinned, PolicyHandle, SanitizeOptions, WitError,
};
use std::collections::HashMap;

/// What a store holds for one session key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// The session's baseline (opaque engine text).
    Active { baseline: String },
    /// The session was closed; refuse it until `until_ms`.
    Tombstone { reason: String, until_ms: u64 },
}

/// Storage of session entries with expiry. Implementations must treat an
/// entry past its expiry as absent.
pub trait SessionStore {
    fn get(&mut self, key: &str, now_ms: u64) -> Option<Entry>;
    /// Stores `entry`, expiring at `expires_ms`.
    fn put(&mut self, key: &str, entry: Entry, expires_ms: u64);
    fn remove(&mut self, key: &str);
}

/// An in-process store (a `HashMap`); expired entries are dropped on access
/// and by [`MemoryStore::sweep`].
#[derive(Default)]
pub struct MemoryStore {
    map: HashMap<String, (Entry, u64)>,
}

impl MemoryStore {
    pub fn new() -> Self {
        Self::default()
    }

    /// Drops every expired entry (call it now and then: memory stays bounded
    /// by the live sessions).
    pub fn sweep(&mut self, now_ms: u64) {
        self.map.retain(|_, (_, exp)| *exp > now_ms);
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }
}

impl SessionStore for MemoryStore {
    fn get(&mut self, key: &str, now_ms: u64) -> Option<Entry> {
        match self.map.get(key) {
            Some((e, exp)) if *exp > now_ms => Some(e.clone()),
            Some(_) => {
                self.map.remove(key);
                None
            }
            None => None,
        }
    }

    fn put(&mut self, key: &str, entry: Entry, expires_ms: u64) {
        self.map.insert(key.to_string(), (entry, expires_ms));
    }

    fn remove(&mut self, key: &str) {
        self.map.remove(key);
    }
}

/// Lifetimes of stored entries.
#[derive(Clone, Copy, Debug)]
pub struct Ttl {
    /// How long an idle session's baseline is kept (refreshed on each use).
    pub session_ms: u64,
    /// How long a closed session stays refused.
    pub tombstone_ms: u64,
}

impl Default for Ttl {
    /// 1 hour idle sessions, 1 hour tombstones.
    fn default() -> Self {
        Ttl { session_ms: 3_600_000, tombstone_ms: 3_600_000 }
    }
}

/// The answer to a tools/list for a session.
#[derive(Debug)]
pub enum ListResult {
    /// Serve this tools/list result.
    Serve { catalog: String, compared: Option<Compared>, pinned: Option<Pinned> },
    /// Fail the request (drift under `error`); `invalidated`: the session is
    /// now tombstoned.
    Refuse { message: String, invalidated: bool },
    /// The session is tombstoned (HTTP hosts answer 409: a session conflict).
    Tombstoned { reason: String },
    /// The catalog or the stored baseline is unusable: fail closed.
    Error(WitError),
}

/// The answer to a tools/call for a session.
#[derive(Debug)]
pub enum CallResult {
    Decided(CallDecision),
    /// The session is tombstoned.
    Tombstoned { reason: String },
    /// No listing was served in this session yet: nothing is callable.
    NoSession,
    Error(WitError),
}

/// Sessions over one component instance and one store.
pub struct Sessions<S: SessionStore> {
    pub store: S,
    pub ttl: Ttl,
}

impl<S: SessionStore> Sessions<S> {
    pub fn new(store: S, ttl: Ttl) -> Self {
        Sessions { store, ttl }
    }

    /// A tools/list result for session `key`: pinned on first exposure,
    /// compared afterwards; a closing drift tombstones the key.
    pub fn list(
        &mut self,
        guard: &mut GuardInstance,
        policy: &PolicyHandle,
        key: &str,
        catalog: &str,
        options: &SanitizeOptions,
        now_ms: u64,
    ) -> Result<ListResult, HostError> {
        let expires = now_ms.saturating_add(self.ttl.session_ms);
        match self.store.get(key, now_ms) {
            Some(Entry::Tombstone { reason, .. }) => Ok(ListResult::Tombstoned { reason }),
            None => match guard.pin(policy, catalog, options)? {
                Ok(p) => {
                    self.store.put(key, Entry::Active { baseline: p.baseline.clone() }, expires);
                    Ok(ListResult::Serve { catalog: p.outcome.catalog.clone(), compared: None, pinned: Some(p) })
                }
                Err(e) => Ok(ListResult::Error(e)),
            },
            Some(Entry::Active { baseline }) => match guard.compare(policy, &baseline, catalog, options)? {
                Ok(c) => match &c.decision {
                    Decision::Serve(served) => {
                        let served = served.clone();
                        self.store.put(key, Entry::Active { baseline: c.baseline.clone() }, expires);
                        Ok(ListResult::Serve { catalog: served, compared: Some(c), pinned: None })
                    }
                    Decision::Refuse(r) => {
                        if r.invalidate {
                            let until = now_ms.saturating_add(self.ttl.tombstone_ms);
                            self.store.put(key, Entry::Tombstone { reason: r.message.clone(), until_ms: until }, until);
                        } else {
                            self.store.put(key, Entry::Active { baseline: c.baseline.clone() }, expires);
                        }
                        Ok(ListResult::Refuse { message: r.message.clone(), invalidated: r.invalidate })
                    }
                },
                Err(e) => Ok(ListResult::Error(e)),
            },
        }
    }

    /// A tools/call in session `key`.
    pub fn call(
        &mut self,
        guard: &mut GuardInstance,
        key: &str,
        name: &str,
        arguments: Option<&str>,
        now_ms: u64,
    ) -> Result<CallResult, HostError> {
        match self.store.get(key, now_ms) {
            Some(Entry::Tombstone { reason, .. }) => Ok(CallResult::Tombstoned { reason }),
            None => Ok(CallResult::NoSession),
            Some(Entry::Active { baseline }) => Ok(match guard.check_call(&baseline, name, arguments)? {
                Ok(d) => CallResult::Decided(d),
                Err(e) => CallResult::Error(e),
            }),
        }
    }
}
