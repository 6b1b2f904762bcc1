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

/**
 * Where pin records live (pins across runs): one text per record id
 * (`recordId(key)`), no expiry; `putRecord` replaces a record in one write.
 */
export interface PinStore {
  getRecord(id: string): string | undefined | Promise<string | undefined>;
  putRecord(id: string, text: string): void | Promise<void>;
  deleteRecord(id: string): void | Promise<void>;
  /** Every record, sorted by id. */
  listRecords(): { id: string; text: string }[] | Promise<{ id: string; text: string }[]>;
}

/** In-process store with TTLs (the default), and pin records without expiry. */
export class MemoryStore implements SessionStore, PinStore {
  /** `now`: clock in ms (for tests); default Date.now. */
  constructor(opts?: { now?: () => number });
  get(key: string): SessionEntry | undefined;
  put(key: string, entry: SessionEntry, ttlMs: number): void;
  touch(key: string, ttlMs: number): void;
  delete(key: string): void;
  getRecord(id: string): string | undefined;
  putRecord(id: string, text: string): void;
  deleteRecord(id: string): void;
  listRecords(): { id: string; text: string }[];
  /** Drops every expired entry. */
  sweep(): void;
  readonly size: number;
}
