import type { PinStore, SessionEntry, SessionStore } from "./store.js";

/** The part of a node-redis client (`redis` package, v4+) the store uses. */
export interface RedisLike {
  sendCommand(args: string[]): Promise<unknown>;
}

/**
 * Session state in Redis, shared by replicas: `<prefix>pin:<key>` holds the
 * baseline, `<prefix>tomb:<key>` a tombstone, which wins on read. Expiry is
 * Redis's (PX). Pin records live under `<prefix>records:<id>`, without expiry.
 */
export class RedisStore implements SessionStore, PinStore {
  /** `client`: a connected node-redis client. `prefix`: default `mcp-guard:`. */
  constructor(client: RedisLike, opts?: { prefix?: string });
  get(key: string): Promise<SessionEntry | undefined>;
  put(key: string, entry: SessionEntry, ttlMs: number): Promise<void>;
  touch(key: string, ttlMs: number): Promise<void>;
  delete(key: string): Promise<void>;
  getRecord(id: string): Promise<string | undefined>;
  putRecord(id: string, text: string): Promise<void>;
  deleteRecord(id: string): Promise<void>;
  listRecords(): Promise<{ id: string; text: string }[]>;
}
