// Session stores for `mcp-guard/mcp`: one entry per session key, either the
// session's baseline (opaque engine text, stored as is) or a tombstone when
// drift closed the session. Same model as the wasmtime host's SessionStore
// (host/src/session.rs).
//
// The contract every store keeps (the Redis store too):
// - `get(key)` → `{state: "active", baseline}` | `{state: "tombstone", reason, until}` | undefined;
//   an expired entry is absent.
// - `put(key, entry, ttlMs)` stores an entry for `ttlMs`. A tombstone is
//   terminal until it expires: putting an active baseline does not replace
//   one (a replica still busy with a listing cannot revive a closed session).
// - `touch(key, ttlMs)` extends an active entry (a session in use stays).
// - `delete(key)` forgets the key, tombstone included.
// All methods may return promises; the wrapper awaits them.
//
// Pin records (pins across runs, `guardClient(client, {pins: {store, …}})`)
// live in a namespace of their own, without expiry: pins outlive every
// session. A record is named by its id (`recordId(key)` in index.js: a hash
// of the server key, so no key text ever becomes part of a store key):
// - `getRecord(id)` → the stored text | undefined;
// - `putRecord(id, text)` replaces it in one write (a reader sees the old
//   record or the new one, never half of one);
// - `deleteRecord(id)`; `listRecords()` → `[{id, text}]`, sorted by id.

/** An in-process store with TTLs; expired entries are dropped on access and by `sweep()`. */
export class MemoryStore {
  #map = new Map(); // key -> {entry, expires}
  #records = new Map(); // record id -> text (pin records: no expiry)
  #now;
  #puts = 0;

  /** @param {{now?: () => number}} [opts] clock in ms (for tests); default Date.now */
  constructor({ now = Date.now } = {}) {
    this.#now = now;
  }

  get(key) {
    const e = this.#map.get(key);
    if (e === undefined) return undefined;
    if (e.expires <= this.#now()) {
      this.#map.delete(key);
      return undefined;
    }
    return { ...e.entry };
  }

  put(key, entry, ttlMs) {
    const now = this.#now();
    const cur = this.#map.get(key);
    if (entry.state === "active" && cur?.entry.state === "tombstone" && cur.expires > now) return;
    this.#map.set(key, { entry: { ...entry }, expires: now + ttlMs });
    // Amortized sweep: memory stays bounded by the live sessions.
    if (++this.#puts % 1024 === 0) this.sweep();
  }

  touch(key, ttlMs) {
    const now = this.#now();
    const cur = this.#map.get(key);
    if (cur?.entry.state === "active" && cur.expires > now) cur.expires = now + ttlMs;
  }

  delete(key) {
    this.#map.delete(key);
  }

  getRecord(id) {
    return this.#records.get(id);
  }

  putRecord(id, text) {
    if (typeof text !== "string") throw new TypeError("a pin record is text");
    this.#records.set(id, text);
  }

  deleteRecord(id) {
    this.#records.delete(id);
  }

  listRecords() {
    return [...this.#records].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([id, text]) => ({ id, text }));
  }

  /** Drops every expired entry. */
  sweep() {
    const now = this.#now();
    for (const [k, e] of this.#map) if (e.expires <= now) this.#map.delete(k);
  }

  /** Live and not yet swept entries. */
  get size() {
    return this.#map.size;
  }
}
