import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolRequest, CompatibilityCallToolResultSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Finding, Guard, Json, PinRecordView, PolicyInput } from "./index.js";
import type { PinStore, SessionStore } from "./store.js";

export { CallRefusedError, GuardError, ListingRefusedError } from "./index.js";
export { MemoryStore, SessionStore, SessionEntry, PinStore } from "./store.js";

/**
 * What the wrapper reports (log it): the mediator's log lines, each with the
 * `sessionKey`, under the names below where they have one, else under the
 * mediator's own event name (cli/README.md, "Proxy": `request-refused`,
 * `response-dropped`, `request-failed`, `listing-unusable`, …).
 */
export type GuardEvent =
  | { event: "listing"; sessionKey: string; decision: "pinned" | "served" | "refused"; tools: number; drift: number; request: Json; protocol: string | null; hidden: (string | null)[]; changed: string[]; new: string[]; removed: string[] }
  | { event: "session-invalidated"; sessionKey: string; message: string }
  | { event: "call-refused"; sessionKey: string; name: string | null; reason: string; message?: string }
  | { event: "call-warning"; sessionKey: string; name: string; warning: string }
  /** A discovery meta-tool (search_tools, get_tool_schema) answered by the engine; nothing was sent. */
  | { event: "call-answered"; sessionKey: string; name: string }
  | { event: "output-schema-cache-failed"; reason: string }
  /** The automatic re-list after list_changed failed other than by a refusal. */
  | { event: "listing-error"; sessionKey: string; kind?: string; message: string }
  | ({ event: "finding"; sessionKey: string } & Finding)
  | { event: string; sessionKey?: string; [key: string]: unknown };

/** A listing's outcome as the mediator logged it. */
export interface ListingOutcome {
  findings: Finding[];
  /** The hidden tools' names (null for an entry without one). */
  hidden: { name: string | null }[];
}

/** The last listing, for audit. */
export interface ListingRecord {
  /** The session's first listing: pinned. */
  pinned?: { outcome: ListingOutcome; baseline: string };
  /** A later one: compared with the baseline. */
  compared?: {
    outcome: ListingOutcome;
    drift: { kind: "changed" | "new" | "removed"; name: string }[];
    decision: { action: "serve" } | { action: "refuse"; invalidate: boolean };
    baseline?: string;
  };
  /** What the caller got (undefined for a refusal or the mediator's own re-list). */
  served?: { tools: Json[]; [key: string]: Json };
}

export interface GuardClientOptions {
  /** A compiled guard (shared between clients), or… */
  guard?: Guard;
  /** …a policy to compile (default: the safe default). */
  policy?: PolicyInput;
  /** Session state; default a MemoryStore per wrapper. Share a RedisStore between replicas. */
  store?: SessionStore;
  /** The session's key; default the transport's `sessionId` (Streamable HTTP), else one random key per wrapper. */
  sessionKey?: string | (() => string);
  /** Server id for the policy's per-server settings and name prefix. */
  server?: string;
  /** Tool names of other servers the client sees (look-alike and shadowing checks). */
  foreignNames?: string[];
  /** Idle session lifetime (refreshed by each listing and allowed call); default 1 h. */
  sessionTtlMs?: number;
  /** How long a closed session stays refused; default 1 h. */
  tombstoneTtlMs?: number;
  /** Called after the automatic re-list on notifications/tools/list_changed. */
  onToolsChanged?: (error: Error | null, result?: { tools: Json[]; [key: string]: Json }) => void;
  onEvent?: (event: GuardEvent) => void;
  /** Install a notifications/tools/list_changed handler (default true; it replaces the client's own). */
  followListChanged?: boolean;
  /**
   * Pins across runs: the pin record of this server in `store` (loaded at
   * connect: wrap before connect), keyed by `server` (default: the `server`
   * option; the identity the host gives the server, never what it reports)
   * and `principal` when pins are per user. Changed and new tools are held
   * back until approved (`pins.approve`); the policy's pinning mode
   * defaults to `quarantine`. Without it, pins last one session (`store`).
   */
  pins?: { store: PinStore; server?: string; principal?: string };
}

export class GuardedClient {
  constructor(client: Client, opts?: GuardClientOptions);
  /**
   * The wrapped client. Once wrapped, its own listTools()/callTool() are this
   * wrapper's, and its transport is mediated: every message it sends or gets
   * (a raw `request`, a task stream too) goes through the mediator.
   */
  readonly client: Client;
  readonly guard: Guard;
  readonly store: SessionStore;
  readonly sessionKey: string;
  /** With `pins`: this client's pin record (`key`, `id`) and its store; else null. */
  readonly pins: { store: PinStore; key: string; id: string } | null;
  /** The last listing (the wrapper's or the mediator's own re-list), for audit. */
  lastListing?: ListingRecord;
  /**
   * The whole sanitized catalog (every page; no cursor): pinned on the
   * session's first listing, compared afterwards. Throws ListingRefusedError
   * or, for an unusable catalog, the engine's GuardError.
   */
  listTools(params?: { _meta?: Record<string, unknown> }, options?: RequestOptions): Promise<{ tools: Json[]; [key: string]: Json }>;
  /**
   * Gated: throws CallRefusedError without reaching the server; under
   * discovery, returns the engine's answer to search_tools / get_tool_schema
   * (nothing sent) and sends call_tool as a call of the inner tool; else calls
   * the upstream name with coerced arguments.
   */
  callTool(
    params: CallToolRequest["params"],
    resultSchema?: typeof CallToolResultSchema | typeof CompatibilityCallToolResultSchema,
    options?: RequestOptions,
  ): ReturnType<Client["callTool"]>;
  /** Forgets this session's state in the store (tombstones too): the next listing pins afresh. */
  forget(): Promise<void>;
  close(): Promise<void>;
}

export function guardClient(client: Client, opts?: GuardClientOptions): GuardedClient;

/** The record key of a server identity (and principal); the Python package builds the same. */
export function recordKey(server: string, principal?: string): string;
/** The policy JSON with `core.tool_definition_pinning.mode` defaulting to `quarantine`. */
export function recordPolicy(policyJson: string): string;

/**
 * `mcp-guard pins list | show | approve | forget` over a pin store. `server`:
 * a record key (`pins.key(server, principal)`) or 8+ leading hex characters
 * of a record id. Errors are GuardErrors: `unknown-server`,
 * `ambiguous-server`, `invalid-baseline`, `not-pending`, `unknown-tool`.
 */
export const pins: {
  key(server: string, principal?: string): string;
  list(store: PinStore): Promise<
    ({ id: string; key: string; serverInfo?: { name: string; version?: string }; approved: string[]; pending: string[] } | { id: string; error: string; kind: string })[]
  >;
  show(store: PinStore, server: string): Promise<PinRecordView>;
  approve(store: PinStore, server: string, names?: string[]): Promise<string[]>;
  forget(store: PinStore, server: string, names?: string[]): Promise<string[]>;
};
