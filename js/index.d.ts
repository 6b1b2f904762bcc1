// Types of the `mcp-guard` package (index.js). Ids (kinds, actions,
// severities, reasons) are the engine's stable kebab-case ids, the WIT
// package mcp-guard:engine@0.1.0's case names; `detail`, `message` and
// `reason` texts are not API: show them, never parse them.

/** JSON value as it crosses the package boundary. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** A tools/list result: an object (it is serialized) or its JSON text (passed as is). */
export type CatalogInput = string | { tools: unknown[]; [key: string]: unknown };

/** A policy document (docs/engine.md, "Policy"), its JSON text, or nothing for the safe default. */
export type PolicyInput = string | Record<string, unknown>;

export type FindingKind =
  | "result-key-dropped" | "invalid-cursor" | "tool-entry-invalid" | "catalog-limit"
  | "field-dropped" | "field-invalid-type" | "annotation-dropped" | "annotation-contradiction"
  | "title-mismatch" | "icon-dropped" | "meta-dropped"
  | "invisible-removed" | "control-removed" | "unicode-normalized" | "whitespace-normalized"
  | "text-truncated" | "unsafe-value"
  | "description-truncated" | "description-stripped" | "description-replaced"
  | "schema-keyword-dropped" | "schema-normalized" | "schema-invalid" | "schema-limit" | "schema-ref"
  | "pattern-dropped" | "number-invalid"
  | "name-invalid" | "name-mapped" | "name-duplicate" | "name-confusable"
  | "poison-instruction" | "poison-secrecy" | "poison-secret-access" | "poison-exfiltration"
  | "poison-authority" | "poison-shadowing" | "poison-injection" | "poison-encoded" | "poison-hidden"
  | "dialect-rewritten" | "dialect-lossy" | "ref-cut" | "dialect-unsupported"
  | "drift-changed" | "drift-new" | "drift-removed";
export type Action = "removed" | "rewritten" | "truncated" | "hidden" | "flagged" | "mapped";
export type Severity = "info" | "low" | "medium" | "high" | "critical";
export type Dialect = "none" | "gemini" | "openai-strict" | "anthropic" | "portable";
export type ToolStatus = "clean" | "rewritten" | "truncated" | "hidden";

/** One change or suspicion. Nothing is changed silently. */
export interface Finding {
  kind: FindingKind;
  severity: Severity;
  /** Upstream tool name as received; undefined for result-level findings. */
  tool?: string;
  /** Position of the tool in the input `tools`; undefined for result-level findings. */
  toolIndex?: number;
  /** RFC 6901 pointer into the input (`/tools/3/inputSchema/...`). */
  pointer: string;
  action: Action;
  /** Not API. */
  detail: string;
}

export interface HiddenTool {
  index: number;
  name?: string;
  /** The finding kind that decided to hide it. */
  reason: FindingKind;
  detail: string;
}

export interface ToolReport {
  index: number;
  name?: string;
  /** The name the client sees; undefined when hidden. */
  visibleName?: string;
  status: ToolStatus;
  flagged: boolean;
  /** Byte range `[start, end)` of the raw tool in the UTF-8 input text. */
  rawSpan: { start: number; end: number };
}

export interface NameMapping {
  visible: string;
  upstream: string;
}

export interface SanitizeOptions {
  /** Id of the server the catalog came from (per-server policy, name prefix). */
  server?: string;
  /** Tool names from other servers the client also sees (look-alike and shadowing checks). */
  foreignNames?: string[];
}

export interface Outcome {
  /** The sanitized tools/list result (parsed from `catalogJson` on first read). */
  readonly catalog: { tools: Json[]; [key: string]: Json };
  /** The sanitized tools/list result: compact JSON, deterministic bytes. */
  catalogJson: string;
  /** Every change and suspicion, in tool order then stage order. */
  findings: Finding[];
  hidden: HiddenTool[];
  /** One per input `tools` entry, in input order. */
  tools: ToolReport[];
  nameMap: NameMapping[];
}

export interface Pinned {
  /** Serve `outcome.catalog`. */
  outcome: Outcome;
  /** The session's baseline: opaque, store it as is. */
  baseline: string;
}

export interface Drift {
  kind: "changed" | "new" | "removed";
  /** Visible name. */
  name: string;
  /** Index in the current input's `tools` (undefined for `removed`). */
  toolIndex?: number;
  /** Pinned fields that differ (`changed` only). */
  fields: string[];
  /** Where they differ (RFC 6901 into the tool); at most 32. */
  changes: { pointer: string; kind: "added" | "removed" | "modified" | "reordered" }[];
  changesTruncated: boolean;
  /** Every change reorders the same items. */
  benign: boolean;
}

export type ListingDecision =
  | { action: "serve"; readonly catalog: { tools: Json[]; [key: string]: Json }; catalogJson: string }
  | { action: "refuse"; invalidate: boolean; message: string };

export interface Compared {
  /** The sanitize report plus one finding per drift (audit; serve `decision`). */
  outcome: Outcome;
  drift: Drift[];
  decision: ListingDecision;
  /** The baseline to store (replaces the one passed in). */
  baseline: string;
}

export type RefusalReason =
  | "session-invalidated" | "hidden-tool" | "drifted-tool" | "confusable-name" | "unknown-tool" | "invalid-arguments";

/** One reason a JSON value does not fit a schema; `pointer` into the value. */
export interface Violation {
  pointer: string;
  reason: string;
}

export type CallDecision =
  | {
      action: "allow";
      /** Send the call under this (upstream) name. */
      upstream: string;
      /** Arguments to forward, mapped back from the dialect (undefined when the call had none). */
      readonly arguments: { [key: string]: Json } | undefined;
      argumentsJson: string | undefined;
      /** Set when the tool is served despite drift (`warn`). */
      warning?: string;
    }
  | { action: "refuse"; reason: RefusalReason; message: string; violations: Violation[] }
  | {
      /**
       * A discovery meta-tool (`search_tools`, `get_tool_schema`) the engine
       * answered from the baseline: reply to the client with `result`; call
       * nothing upstream. (`call_tool` comes back as `allow` for the inner tool.)
       */
      action: "respond";
      /** A complete MCP `CallToolResult` (parsed from `resultJson` on first read). */
      readonly result: CallToolResultJson;
      resultJson: string;
    };

/** A `CallToolResult` as the engine writes it for a meta-tool. */
export interface CallToolResultJson {
  content: { type: "text"; text: string }[];
  structuredContent?: { [key: string]: Json };
  isError?: boolean;
  [key: string]: Json | undefined;
}

/** One `search_tools` result. */
export interface SearchHit {
  name: string;
  title?: string;
  /** One line from the sanitized description (or the title). */
  summary: string;
}

export interface SchemaChange {
  kind: FindingKind;
  severity: Severity;
  /** RFC 6901 pointer relative to the schema root. */
  pointer: string;
  action: Action;
  detail: string;
}

export interface Normalized {
  readonly schema: { [key: string]: Json };
  schemaJson: string;
  changes: SchemaChange[];
  /** `openai-strict` only: the tool may be declared `strict: true`. */
  strictOk: boolean;
}

export interface NormalizeOptions {
  target: Dialect;
  /** Re-entries of a recursive `$ref` before it is cut (default 8). */
  maxRefDepth?: number;
  /** Most subschema nodes expansion may create (default 2000). */
  nodeBudget?: number;
}

/**
 * The engine's error kinds (the WIT `error` and `schema-error` cases),
 * `invalid-arguments` (coerceArguments), `trap` (the engine trapped; the
 * next call runs in a fresh instance), and the MCP wrapper's own
 * (`drift`, the refusal reasons, `invalid-cursor`, `cursor-loop`,
 * `too-many-pages`).
 */
export type GuardErrorKind =
  | "invalid-json" | "duplicate-key" | "too-deep" | "too-large" | "invalid-envelope"
  | "invalid-policy" | "invalid-baseline" | "unsupported" | "other"
  | "invalid-arguments" | "trap"
  | "drift" | RefusalReason | "invalid-cursor" | "cursor-loop" | "too-many-pages";

export class GuardError extends Error {
  constructor(kind: GuardErrorKind, message: string, details?: Record<string, unknown>);
  /** Stable id: the WIT case id. */
  readonly kind: GuardErrorKind;
  /**
   * The case's payload: `{offset, reason}` (invalid-json; plus `argument`
   * and `index`, the UTF-16 index, when a string argument holds a lone
   * surrogate and was refused before reaching the engine), `{pointer, key}`
   * (duplicate-key), `{limit}` (too-deep), `{limit, actual}` (too-large),
   * `{field, reason}` (invalid-policy), `{violations}` (invalid-arguments),
   * `{drift}` (listing refusals), else `{reason}`.
   */
  readonly details: Record<string, unknown>;
  /** For `invalid-arguments`. */
  readonly violations?: Violation[];
}

/** A tools/list refused by pinning: `kind` is `drift` or `session-invalidated`. */
export class ListingRefusedError extends GuardError {
  readonly details: { drift?: Drift[] };
}

/** A tools/call refused by the call gate: `kind` is the refusal reason. */
export class CallRefusedError extends GuardError {
  constructor(kind: RefusalReason, message: string, violations?: Violation[]);
  readonly kind: RefusalReason;
  readonly violations: Violation[];
}

/** One compiled policy. Synchronous; safe to share. */
export interface Guard {
  /** The policy's JSON text as given. */
  readonly policyJson: string;
  /** Runs the full pipeline over a tools/list result. Throws GuardError. */
  sanitize(catalog: CatalogInput, opts?: SanitizeOptions): Outcome;
  /** Sanitizes and pins what the client will see as the session's baseline. */
  pin(catalog: CatalogInput, opts?: SanitizeOptions): Pinned;
  /** Sanitizes a later catalog and compares it with `baseline` under the policy's pinning settings. */
  compare(baseline: string, catalog: CatalogInput, opts?: SanitizeOptions): Compared;
  /** Decides a tools/call in the session `baseline`. Only an unusable baseline throws. */
  checkCall(baseline: string, name: string, args?: string | Record<string, unknown>): CallDecision;
  /** `search_tools` as data over the session's callable tools, best first (default limit 10); empty without discovery. */
  search(baseline: string, query: string, limit?: number): SearchHit[];
  /** `get_tool_schema` as data: the served definition, or undefined (hidden, drifted, unknown). */
  toolSchema(baseline: string, name: string): { name: string; [key: string]: Json } | undefined;
  /** Estimated model tokens of a listing: bytes / 4, rounded up. */
  estimateTokens(catalog: CatalogInput): number;
  normalizeSchema(schema: string | object, opts: NormalizeOptions): Normalized;
  coerceArguments(originalSchema: string | object, target: Dialect, args: string | Record<string, unknown>): { [key: string]: Json };
  validate(schema: string | object, instance: unknown): Violation[];
  toolNameOk(name: string, target: Dialect): boolean;
  /** One guarded MCP conversation under this policy (the engine's mediation core). */
  mediator(opts?: MediatorOptions): Mediator;
  /** Frees the compiled policy now rather than at garbage collection. */
  dispose(): void;
}

export interface MediatorOptions extends SanitizeOptions {
  /** Starts every id the mediator mints (`"<idPrefix>-<n>"`): an ASCII letter, then letters, digits, `-`, `_`. Default `mcp-guard-<uuid>`. */
  idPrefix?: string;
  /** A stored baseline (`Mediator.baseline()` of an earlier conversation): the first listing is compared with it. */
  baseline?: string;
  /**
   * Pins across runs (instead of `baseline`): the pin record of the server
   * the host identifies as `key` (never what the server reports), `stored`
   * its text from the store (none yet: trust on first use). The mediator
   * returns `{to: "persist", text}` whenever the record changed.
   */
  record?: { key: string; stored?: string };
}

/** What one message makes the mediator do, in order. */
export type MediatorOut =
  | { to: "server"; text: string }
  | { to: "client"; text: string }
  /** A log line: `event`, `server` and the event's fields (cli/README.md, "Proxy"). */
  | { to: "log"; log: { event: string; server: string | null; [key: string]: Json } }
  /** The pin record changed (a mediator made with `record`): write it under its key, replacing the old one. */
  | { to: "persist"; text: string };

/**
 * One guarded MCP conversation (WIT `mediation.mediator`): feed it every
 * message each way and carry out what it returns. Throws GuardError `trap`
 * once the engine instance holding it trapped (the conversation is lost).
 */
export class Mediator {
  private constructor();
  /** One message (or batch) from the client: an object or its JSON text. */
  onClientMessage(message: string | object): MediatorOut[];
  /** One message (or batch) from the server: an object or its JSON text. */
  onServerMessage(message: string | object): MediatorOut[];
  /** The current baseline (save it after each `listing` log line); undefined before the first listing. */
  baseline(): string | undefined;
  /** Why drift closed the conversation, or undefined. */
  dead(): string | undefined;
  /** The mediator's own re-list (after a list change) is in flight. */
  relisting(): boolean;
  /** Replaces the baseline (another replica's, from a shared store); undefined forgets it. */
  restore(baseline?: string): void;
  /** The pin record as it stands (a mediator made with `record`); undefined before the first pinned listing. */
  pinRecord(): string | undefined;
  dispose(): void;
}

/** A pending tool's difference from its approved pin, at one place. */
export interface PendingChange {
  /** RFC 6901 pointer into the tool definition. */
  pointer: string;
  kind: "added" | "removed" | "modified" | "reordered";
  /** The approved value there; undefined where absent. */
  before?: Json;
  /** The pending value there; undefined where absent. */
  after?: Json;
}

/** A pin record, read (`recordShow`, `pins.show`). */
export interface PinRecordView {
  /** `recordId(key)`. */
  id: string;
  /** The host's identity of the server. */
  key: string;
  /** What the server reported about itself (display only). */
  serverInfo?: { name: string; version?: string };
  approved: { name: string; digest: string; definition: { [key: string]: Json } }[];
  pending: {
    name: string;
    kind: "changed" | "new";
    digest: string;
    changes: PendingChange[];
    changesTruncated: boolean;
    approvedDefinition?: { [key: string]: Json };
    definition: { [key: string]: Json };
  }[];
}

/** A stable, key-safe name for the record of server `key` (lower-case hex SHA-256). */
export function recordId(key: string): string;
/** The policy JSON a mediator keeping a pin record works under (quarantine unless the policy sets a mode). */
export function recordPolicy(policyJson: string): string;
/** Reads a pin record. Throws GuardError `invalid-baseline`. */
export function recordShow(text: string): PinRecordView;
/** Approves pending tools (all when `names` is empty or omitted). Throws GuardError `not-pending`, `invalid-baseline`. */
export function recordApprove(text: string, names?: string[]): { text: string; names: string[] };
/** Forgets tools (they come back as new). Throws GuardError `unknown-tool`, `invalid-baseline`. */
export function recordForget(text: string, names?: string[]): { text: string; names: string[] };

/** Throws GuardError `invalid-json` naming `argument` when `s` holds a lone UTF-16 surrogate. */
export function checkUnicode(s: unknown, argument: string): void;

/**
 * Compiles a policy once (`{}` or nothing: the safe default;
 * `{preset: "strict"}`). Throws GuardError `invalid-policy` naming the field.
 */
export function createGuard(policy?: PolicyInput): Guard;

export function checkCall(baseline: string, name: string, args?: string | Record<string, unknown>): CallDecision;
export function search(baseline: string, query: string, limit?: number): SearchHit[];
export function toolSchema(baseline: string, name: string): { name: string; [key: string]: Json } | undefined;
export function estimateTokens(catalog: CatalogInput): number;
export function normalizeSchema(schema: string | object, opts: NormalizeOptions): Normalized;
/** Throws GuardError `invalid-arguments` with `violations` when the arguments do not fit. */
export function coerceArguments(originalSchema: string | object, target: Dialect, args: string | Record<string, unknown>): { [key: string]: Json };
export function validate(schema: string | object, instance: unknown): Violation[];
export function toolNameOk(name: string, target: Dialect): boolean;
/** The engine's rule version (part of every pin digest). */
export function engineVersion(): string;

export { MemoryStore, SessionStore, SessionEntry, PinStore } from "./store.js";
