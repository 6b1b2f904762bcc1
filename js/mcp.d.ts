import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { RequestOptions } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolRequest, CompatibilityCallToolResultSchema, CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Compared, Finding, Guard, Json, Pinned, PolicyInput } from "./index.js";
import type { SessionStore } from "./store.js";

export { CallRefusedError, GuardError, ListingRefusedError } from "./index.js";
export { MemoryStore, SessionStore, SessionEntry } from "./store.js";

/** What the wrapper reports (log it). */
export type GuardEvent =
  | { event: "listing"; sessionKey: string; decision: "pinned" | "served" | "refused"; tools?: number; drift?: number; message?: string }
  | { event: "session-invalidated"; sessionKey: string; message: string }
  | { event: "call-refused"; sessionKey: string; name: string; reason: string; message?: string }
  | { event: "call-warning"; sessionKey: string; name: string; warning: string }
  /** A discovery meta-tool (search_tools, get_tool_schema) answered by the engine; nothing was sent. */
  | { event: "call-answered"; sessionKey: string; name: string }
  | { event: "output-schema-cache-failed"; reason: string }
  /** A tools/list or tools/call that did not go through the wrapper was refused before the wire (GuardError `unguarded-request`). */
  | { event: "unguarded-request"; sessionKey: string; method: "tools/list" | "tools/call" }
  /** The automatic re-list after list_changed failed other than by a refusal. */
  | { event: "listing-error"; sessionKey: string; kind?: string; message: string }
  | ({ event: "finding" } & Finding);

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
}

export class GuardedClient {
  constructor(client: Client, opts?: GuardClientOptions);
  /**
   * The wrapped client, for everything the guard does not touch. Once wrapped,
   * its own listTools()/callTool() are this wrapper's, and its transport
   * refuses any other tools/list or tools/call (GuardError `unguarded-request`).
   */
  readonly client: Client;
  readonly guard: Guard;
  readonly store: SessionStore;
  readonly sessionKey: string;
  /** The last listing, for audit. */
  lastListing?: { pinned?: Pinned; compared?: Compared; served?: { tools: Json[]; [key: string]: Json } };
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
  /** Forgets this session's state in the store (tombstones too). */
  forget(): Promise<void>;
  close(): Promise<void>;
}

export function guardClient(client: Client, opts?: GuardClientOptions): GuardedClient;
