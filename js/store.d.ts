/** What a store holds for one session key. */
export type SessionEntry =
  | { state: "active"; /** Opaque engine text, stored as is. */ baseline: string }
  | { state: "tombstone"; reason: string; /** ms since the epoch. */ until: number };

/**
 * Where guarded clients keep session state. An expired entry is absent; a
 * tombstone is terminal until it expires (putting an active baseline does
 * not replace it). Methods may return promises.
 */
export interface SessionStore {
  get(key: string): SessionEntry | undefined | Promise<SessionEntry | undefined>;
  put(key: string, entry: SessionEntry, ttlMs: number): void | Promise<void>;
  /** Extends an active entry. */
  touch?(key: string, ttlMs: number): void | Promise<void>;
  delete(key: string): void | Promise<void>;
}

/** In-process store with TTLs (the default). */
export class MemoryStore implements SessionStore {
  /** `now`: clock in ms (for tests); default Date.now. */
  constructor(opts?: { now?: () => number });
  get(key: string): SessionEntry | undefined;
  put(key: string, entry: SessionEntry, ttlMs: number): void;
  touch(key: string, ttlMs: number): void;
  delete(key: string): void;
  /** Drops every expired entry. */
  sweep(): void;
  readonly size: number;
}
