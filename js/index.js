// mcp-guard for Node: the engine's WebAssembly component (transpiled by jco
// into gen/) behind plain JS objects.
//
// This file only translates (STYLE.md, "pure core, thin adapters"): objects
// become JSON text on the way in, JSON text and jco's records become plain
// objects on the way out, and the component's `result` errors (jco's
// `ComponentError` with the WIT variant in `.payload`) become `GuardError`s
// whose `kind` is the WIT case id. Every rule lives in the engine.
import * as nodeBuffer from "node:buffer";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { _setAsciiTest, _takeMaybeLoneSurrogates, instantiate } from "./gen/mcp-guard.js";

// Long ASCII strings (every served catalog) leave the component as one
// Latin-1 copy of their bytes (scripts/build.mjs, 4e); `isAscii` is Node >= 18.15.
_setAsciiTest(nodeBuffer.isAscii);

// ---------------------------------------------------------------------------
// Errors

/**
 * Every refusal of the engine, and of the wrappers in `mcp-guard/mcp`.
 * `kind` is stable API (a WIT case id such as `invalid-json`,
 * `invalid-policy`, `invalid-baseline`); `message` is not.
 */
export class GuardError extends Error {
  constructor(kind, message, details = {}) {
    super(message);
    this.name = "GuardError";
    /** The WIT error case id (or, for the wrappers, the refusal's id). */
    this.kind = kind;
    /** The case's payload as a plain object (numbers, not BigInts). */
    this.details = details;
  }
}

/** A tools/list result refused by pinning (`kind`: `drift` or `session-invalidated`). */
export class ListingRefusedError extends GuardError {
  constructor(kind, message, details = {}) {
    super(kind, message, details);
    this.name = "ListingRefusedError";
  }
}

/**
 * A tools/call refused by the call gate: `kind` is the WIT `refusal-reason`
 * (`unknown-tool`, `hidden-tool`, `drifted-tool`, `confusable-name`,
 * `invalid-arguments`, `session-invalidated`); `violations` (for
 * `invalid-arguments`) point into the arguments.
 */
export class CallRefusedError extends GuardError {
  constructor(kind, message, violations = []) {
    super(kind, message, { violations });
    this.name = "CallRefusedError";
    this.violations = violations;
  }
}

const num = (v) => (typeof v === "bigint" ? Number(v) : v);

/** The WIT `error` / `schema-error` variant as a GuardError. */
function fromWitError(payload) {
  if (Array.isArray(payload)) {
    // coerce-arguments: its error is a bare list<violation>, not a variant.
    const violations = payload.map((v) => ({ pointer: v.pointer, reason: v.reason }));
    const e = new GuardError("invalid-arguments", `arguments do not fit the schema: ${violations.map((v) => `${v.pointer || "(root)"}: ${v.reason}`).join("; ")}`, { violations });
    e.violations = violations;
    return e;
  }
  const { tag, val } = payload;
  switch (tag) {
    case "invalid-json":
      return new GuardError(tag, `invalid JSON at byte ${num(val.offset)}: ${val.reason}`, { offset: num(val.offset), reason: val.reason });
    case "duplicate-key":
      return new GuardError(tag, `duplicate key ${JSON.stringify(val.key)} in the object at ${JSON.stringify(val.pointer)}`, { pointer: val.pointer, key: val.key });
    case "too-deep":
      return new GuardError(tag, `nesting deeper than ${val} levels`, { limit: num(val) });
    case "too-large":
      return new GuardError(tag, `input of ${num(val.actual)} bytes is over the limit of ${num(val.limit)}`, { limit: num(val.limit), actual: num(val.actual) });
    case "invalid-policy":
      return new GuardError(tag, `invalid policy${val.field ? ` at ${val.field}` : ""}: ${val.reason}`, { field: val.field, reason: val.reason });
    default:
      // invalid-envelope, invalid-baseline, unsupported (schema), other
      return new GuardError(tag, `${tag}: ${val}`, { reason: String(val) });
  }
}

// ---------------------------------------------------------------------------
// The component instance

// Core modules are compiled once per process; an instance is cheap (~2 ms).
const modules = new Map();
function getCoreModule(path) {
  let m = modules.get(path);
  if (!m) {
    m = new WebAssembly.Module(readFileSync(new URL(`./gen/${path}`, import.meta.url)));
    modules.set(path, m);
  }
  return m;
}

// One instance per process (the engine is pure; calls are synchronous, so
// nothing interleaves). A trap poisons an instance: the next call gets a new
// one, and each Guard re-creates its policy in it (`generation`).
let instance = null;
let generation = 0;
function engine() {
  if (instance === null) {
    instance = instantiate(getCoreModule, {});
    generation += 1;
  }
  return instance;
}

/** Runs `f(component)`, translating errors. */
function call(f) {
  let root;
  depth += 1;
  try {
    root = engine();
    const out = f(root);
    refuseLoneSurrogate();
    return out;
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError && instance === root) instance = null; // poisoned: start afresh next time
    // A long argument with a lone surrogate outranks whatever the engine
    // said about its replaced text (see `deferred`).
    refuseLoneSurrogate();
    if (e !== null && typeof e === "object" && e.constructor?.name === "ComponentError" && "payload" in e) {
      throw fromWitError(e.payload);
    }
    if (e instanceof WebAssembly.RuntimeError) {
      throw new GuardError("trap", `the engine trapped: ${e.message}`, { reason: e.message });
    }
    throw e;
  } finally {
    depth -= 1;
    if (depth === 0) deferred.length = 0;
  }
}

// ---------------------------------------------------------------------------
// Translation helpers

// Strings that cannot cross the boundary. The component takes UTF-8; a JS
// string holding a lone UTF-16 surrogate has no UTF-8 form, and jco's
// TextEncoder would quietly put U+FFFD in its place: the engine would then
// sanitize, pin and gate a string the caller never passed (a tool name that
// is not the one asked for, a catalog that is not the server's). So such a
// string is refused here, before it crosses, as `invalid-json` naming the
// argument and the UTF-16 index, the way every host refuses text that is
// not Unicode (docs/component.md, "Strings that cannot cross"). Objects need no check:
// JSON.stringify writes a lone surrogate as a `\udXXX` escape, which the
// engine's strict parser refuses like any other unreadable JSON.
// With /u a well-formed pair is one code point, so only lone halves match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const isWellFormed =
  typeof String.prototype.isWellFormed === "function" ? (s) => s.isWellFormed() : (s) => !LONE_SURROGATE.test(s);

// A string of 64 Ki units or more is not read here: as it crosses, the glue
// searches its UTF-8 bytes for the U+FFFD that `encodeInto` writes for a
// lone surrogate (scripts/build.mjs, 4d; ~0.02 ms for the 1.7 MB corpus
// where `isWellFormed` takes ~0.9 ms), and only a string whose bytes hold
// one gets the exact test, after the call. By then its bytes are in the
// guest, which frees them only in the call, so the call runs on the replaced
// text and its answer is thrown away: `call` refuses the string instead
// (`refuseLoneSurrogate`). Such strings wait in `deferred` with their
// argument's name until the outermost `call` returns, so the refusal is the
// same GuardError as here.
const DEFER_AT = 1 << 16;
/** [string, argument] of the long strings the current call passes. */
const deferred = [];
/** Nesting of `call` (a guard compiles its policy in a nested one). */
let depth = 0;

/** `s` itself if it is Unicode text (encodable as UTF-8); else GuardError `invalid-json`. */
function unicodeText(s, argument) {
  if (s.length >= DEFER_AT) {
    deferred.push([s, argument]);
    return s;
  }
  if (isWellFormed(s)) return s;
  throw loneSurrogate(s, argument);
}

/** Throws the refusal of the first long string the call passed with a lone surrogate, if any. */
function refuseLoneSurrogate() {
  const s = _takeMaybeLoneSurrogates().find((t) => !isWellFormed(t));
  if (s === undefined) return;
  const d = deferred.findLast(([t]) => t === s);
  throw loneSurrogate(s, d === undefined ? "argument" : d[1]);
}

/** GuardError `invalid-json` for `s`, which holds a lone surrogate. */
function loneSurrogate(s, argument) {
  const index = s.search(LONE_SURROGATE);
  const unit = s.charCodeAt(index).toString(16).toUpperCase();
  // The prefix is well-formed (this is the first lone surrogate): its UTF-8 length.
  const offset = Buffer.byteLength(s.slice(0, index), "utf8");
  const reason = `lone UTF-16 surrogate U+${unit} at index ${index} has no UTF-8 form`;
  return new GuardError("invalid-json", `${argument} is not Unicode text: ${reason}`, { argument, index, offset, reason });
}

function jsonText(value, what) {
  if (typeof value === "string") return unicodeText(value, what);
  if (value === undefined) throw new TypeError(`${what} is required`);
  return JSON.stringify(value);
}

function baselineText(baseline) {
  if (typeof baseline !== "string") throw new TypeError("baseline must be the string pin() or compare() returned");
  return unicodeText(baseline, "baseline");
}

function nameText(name, what = "name") {
  if (typeof name !== "string") throw new TypeError(`${what} must be a string`);
  return unicodeText(name, what);
}

function witOptions(opts = {}) {
  const foreign = opts.foreignNames ?? [];
  if (!Array.isArray(foreign) || foreign.some((n) => typeof n !== "string")) {
    throw new TypeError("foreignNames must be an array of strings");
  }
  if (opts.server !== undefined && opts.server !== null && typeof opts.server !== "string") {
    throw new TypeError("server must be a string");
  }
  foreign.forEach((n, i) => unicodeText(n, `foreignNames[${i}]`));
  const server = opts.server ?? undefined;
  return { server: server === undefined ? undefined : unicodeText(server, "server"), foreignNames: foreign };
}

/** `obj[prop]` parses `obj[textProp]` on first read (and keeps it). */
function lazyJson(obj, prop, textProp) {
  let parsed;
  let done = false;
  Object.defineProperty(obj, prop, {
    enumerable: true,
    configurable: true,
    get() {
      if (!done) {
        parsed = obj[textProp] === undefined ? undefined : JSON.parse(obj[textProp]);
        done = true;
      }
      return parsed;
    },
  });
  return obj;
}

function finding(f) {
  return {
    kind: f.kind,
    severity: f.severity,
    tool: f.tool,
    toolIndex: f.toolIndex,
    pointer: f.pointer,
    action: f.action,
    detail: f.detail,
  };
}

function outcome(o) {
  const out = {
    catalogJson: o.catalog,
    findings: o.findings.map(finding),
    hidden: o.hidden.map((h) => ({ index: h.index, name: h.name, reason: h.reason, detail: h.detail })),
    tools: o.tools.map((t) => ({
      index: t.index,
      name: t.name,
      visibleName: t.visibleName,
      status: t.status,
      flagged: t.flagged,
      rawSpan: { start: num(t.rawSpan.start), end: num(t.rawSpan.end) },
    })),
    nameMap: o.nameMap.map((m) => ({ visible: m.visible, upstream: m.upstream })),
  };
  return lazyJson(out, "catalog", "catalogJson");
}

function drift(d) {
  return {
    kind: d.kind,
    name: d.name,
    toolIndex: d.toolIndex,
    fields: d.fields,
    changes: d.changes.map((c) => ({ pointer: c.pointer, kind: c.kind })),
    changesTruncated: d.changesTruncated,
    benign: d.benign,
  };
}

function callDecision(d) {
  switch (d.tag) {
    case "allow": {
      const a = { action: "allow", upstream: d.val.upstream, argumentsJson: d.val.arguments, warning: d.val.warning };
      return lazyJson(a, "arguments", "argumentsJson");
    }
    case "refuse":
      return {
        action: "refuse",
        reason: d.val.reason,
        message: d.val.message,
        violations: d.val.violations.map((v) => ({ pointer: v.pointer, reason: v.reason })),
      };
    case "respond":
      // A discovery meta-tool the engine answered: a whole CallToolResult.
      return lazyJson({ action: "respond", resultJson: d.val }, "result", "resultJson");
    default:
      // A case this package version does not know (a newer component): the
      // caller cannot carry it out, so it is not passed on as if it were data.
      throw new GuardError("other", `unknown call decision ${JSON.stringify(d.tag)} from the engine`, { reason: String(d.tag) });
  }
}

const DIALECTS = new Set(["none", "gemini", "openai-strict", "anthropic", "portable"]);
function dialect(target) {
  if (!DIALECTS.has(target)) throw new TypeError(`target must be one of ${[...DIALECTS].join(", ")}; got ${JSON.stringify(target)}`);
  return target;
}

// ---------------------------------------------------------------------------
// Pure functions (no policy)

/** The engine's rule version (the `mcp-guard` crate version). */
export function engineVersion() {
  return call((c) => c.sanitize.engineVersion());
}

/**
 * Rewrites one JSON Schema into `target`'s dialect.
 * @returns {{schema, schemaJson, changes, strictOk}}
 */
export function normalizeSchema(schema, { target, maxRefDepth = 8, nodeBudget = 2000 } = {}) {
  const text = jsonText(schema, "schema");
  const n = call((c) => c.schema.normalizeSchema(text, dialect(target), maxRefDepth, nodeBudget));
  return lazyJson(
    {
      schemaJson: n.schema,
      changes: n.changes.map((c) => ({ kind: c.kind, severity: c.severity, pointer: c.pointer, action: c.action, detail: c.detail })),
      strictOk: n.strictOk,
    },
    "schema",
    "schemaJson",
  );
}

/**
 * Maps a model's arguments back to what the server's original schema
 * expects and validates them. Throws a GuardError `invalid-arguments` with
 * `violations` when they do not fit.
 */
export function coerceArguments(originalSchema, target, args) {
  const s = jsonText(originalSchema, "originalSchema");
  const a = jsonText(args, "arguments");
  return JSON.parse(call((c) => c.schema.coerceArguments(s, dialect(target), a)));
}

/** Every violation of `instance` against `schema`; empty means valid. */
export function validate(schema, instanceValue) {
  const s = jsonText(schema, "schema");
  const i = jsonText(instanceValue, "instance");
  return call((c) => c.schema.validate(s, i)).map((v) => ({ pointer: v.pointer, reason: v.reason }));
}

/** Whether `name` is a valid tool name for `target`. */
export function toolNameOk(name, target) {
  nameText(name);
  return call((c) => c.schema.toolNameOk(name, dialect(target)));
}

// ---------------------------------------------------------------------------
// Guard: one compiled policy

class Guard {
  #policyJson;
  #policy = null;
  #generation = 0;

  constructor(policyJson) {
    this.#policyJson = policyJson;
    this.#handle(); // compile now: an invalid policy fails createGuard
  }

  /** The policy resource in the current instance (re-created after a trap). */
  #handle() {
    return call((c) => {
      if (this.#policy === null || this.#generation !== generation) {
        this.#policy = new c.sanitize.Policy(this.#policyJson);
        this.#generation = generation;
      }
      return this.#policy;
    });
  }

  /** The policy's JSON text as given (for logs, or another replica). */
  get policyJson() {
    return this.#policyJson;
  }

  /** Sanitizes a tools/list result (object or JSON text). */
  sanitize(catalog, opts) {
    const text = jsonText(catalog, "catalog");
    const o = witOptions(opts);
    return outcome(call(() => this.#handle().sanitize(text, o)));
  }

  /** Sanitizes `catalog` and pins what the client will see: `{outcome, baseline}`. */
  pin(catalog, opts) {
    const text = jsonText(catalog, "catalog");
    const o = witOptions(opts);
    const r = call((c) => c.pinning.pin(this.#handle(), text, o));
    return { outcome: outcome(r.outcome), baseline: r.baseline };
  }

  /**
   * Compares a later `catalog` with the session's `baseline`:
   * `{outcome, drift, decision, baseline}`, `decision` being
   * `{action: "serve", catalog, catalogJson}` or
   * `{action: "refuse", invalidate, message}`. Store the returned baseline.
   */
  compare(baseline, catalog, opts) {
    baselineText(baseline);
    const text = jsonText(catalog, "catalog");
    const o = witOptions(opts);
    const r = call((c) => c.pinning.compare(this.#handle(), baseline, text, o));
    const decision =
      r.decision.tag === "serve"
        ? lazyJson({ action: "serve", catalogJson: r.decision.val }, "catalog", "catalogJson")
        : { action: "refuse", invalidate: r.decision.val.invalidate, message: r.decision.val.message };
    return { outcome: outcome(r.outcome), drift: r.drift.map(drift), decision, baseline: r.baseline };
  }

  /**
   * Decides a tools/call of `name` with `args` (object, JSON text, or
   * undefined) in the session `baseline`:
   * `{action: "allow", upstream, arguments, argumentsJson, warning}`,
   * `{action: "refuse", reason, message, violations}`, or (discovery's
   * `search_tools` / `get_tool_schema`) `{action: "respond", result,
   * resultJson}`: reply with that CallToolResult, call nothing upstream.
   */
  checkCall(baseline, name, args) {
    return checkCall(baseline, name, args);
  }

  /** `search_tools` as data: `[{name, title, summary}]`, best first (discovery). */
  search(baseline, query, limit) {
    return search(baseline, query, limit);
  }

  /** `get_tool_schema` as data: the served definition, or undefined (discovery). */
  toolSchema(baseline, name) {
    return toolSchema(baseline, name);
  }

  /** Estimated model tokens of a listing (bytes / 4, rounded up). */
  estimateTokens(catalog) {
    return estimateTokens(catalog);
  }

  normalizeSchema(schema, opts) {
    return normalizeSchema(schema, opts);
  }

  coerceArguments(originalSchema, target, args) {
    return coerceArguments(originalSchema, target, args);
  }

  validate(schema, instanceValue) {
    return validate(schema, instanceValue);
  }

  toolNameOk(name, target) {
    return toolNameOk(name, target);
  }

  /**
   * One guarded MCP conversation under this policy (the engine's mediation
   * core; `Mediator` below). Options: `server`, `foreignNames`, `idPrefix`
   * (default `mcp-guard-<uuid>`: unique per conversation), and either
   * `baseline` (a stored one: the first listing is compared with it) or
   * `record: {key, stored}` (pins across runs: the pin record of the server
   * the host identifies as `key`, `stored` its text from the store or
   * undefined; the mediator returns `{to: "persist", text}` whenever the
   * record changed, to be written under `key`).
   */
  mediator({ server, foreignNames, idPrefix = `mcp-guard-${randomUUID()}`, baseline, record } = {}) {
    const o = witOptions({ server, foreignNames });
    if (typeof idPrefix !== "string") throw new TypeError("idPrefix must be a string");
    if (baseline !== undefined) baselineText(baseline);
    if (record !== undefined) {
      if (baseline !== undefined) throw new TypeError("a mediator takes a baseline or a record, not both");
      nameText(record?.key, "record.key");
      if (record.stored !== undefined && record.stored !== null) baselineText(record.stored);
    }
    return call((c) => {
      const resource =
        record === undefined
          ? new c.mediation.Mediator(this.#handle(), o, idPrefix, baseline)
          : c.mediation.Mediator.withRecord(this.#handle(), o, idPrefix, record.key, record.stored ?? undefined);
      return new Mediator(resource, generation);
    });
  }

  /** Frees the compiled policy now rather than at garbage collection. */
  dispose() {
    if (this.#policy !== null && this.#generation === generation) this.#policy[Symbol.dispose]?.();
    this.#policy = null;
  }
}

// ---------------------------------------------------------------------------
// Mediator: one guarded MCP conversation (WIT `mediation.mediator`)

/**
 * The engine's MCP mediation core for one conversation: every message the
 * client sends goes in through `onClientMessage`, every message from the
 * server through `onServerMessage`; each returns, in order, what to send
 * where: `{to: "server", text}`, `{to: "client", text}` (compact JSON-RPC
 * text) and `{to: "log", log}` (the log line as an object). The mediator
 * mints the ids the server sees, fetches every page of a listing, pins,
 * compares, gates calls and re-lists after a list change; the host only
 * moves the messages (mcp.js is such a host).
 *
 * Its state lives in the engine instance: should the instance trap, the
 * conversation is lost and every later call throws GuardError `trap`.
 */
export class Mediator {
  #m;
  #generation;

  constructor(resource, gen) {
    this.#m = resource;
    this.#generation = gen;
  }

  #live() {
    if (this.#m === null) throw new GuardError("disposed", "this mediator was disposed");
    if (this.#generation !== generation) {
      throw new GuardError("trap", "the engine instance that held this conversation trapped; the conversation is lost");
    }
    return this.#m;
  }

  /** One message (or batch) from the client: an object, or its JSON text. */
  onClientMessage(message) {
    const text = jsonText(message, "message");
    return call(() => this.#live().onClientMessage(text)).map(out);
  }

  /** One message (or batch) from the server: an object, or its JSON text. */
  onServerMessage(message) {
    const text = jsonText(message, "message");
    return call(() => this.#live().onServerMessage(text)).map(out);
  }

  /** The current baseline text (what a pin store saves); undefined before the first listing. */
  baseline() {
    return call(() => this.#live().baseline());
  }

  /** Why drift closed the conversation, or undefined. */
  dead() {
    return call(() => this.#live().dead());
  }

  /** The mediator's own re-list (after a list change) is in flight. */
  relisting() {
    return call(() => this.#live().relisting());
  }

  /** The pin record as it stands (a mediator made with `record`); undefined before the first pinned listing. */
  pinRecord() {
    return call(() => this.#live().pinRecord());
  }

  /** Replaces the baseline (a replica's, from a shared store); undefined forgets it. */
  restore(baseline) {
    if (baseline !== undefined) baselineText(baseline);
    call(() => this.#live().restore(baseline));
  }

  /** Frees the conversation's state now rather than at garbage collection. */
  dispose() {
    if (this.#m !== null && this.#generation === generation) this.#m[Symbol.dispose]?.();
    this.#m = null;
  }
}

function out(o) {
  switch (o.tag) {
    case "server":
    case "client":
      return { to: o.tag, text: o.val };
    case "log":
      return { to: "log", log: JSON.parse(o.val) };
    case "persist":
      // The pin record changed: the host writes it (mcp.js: the pin store).
      return { to: "persist", text: o.val };
    default:
      // A case this package version does not know (a newer component):
      // dropping it could lose a message, so the conversation fails closed.
      throw new GuardError("other", `unknown mediator output ${JSON.stringify(o.tag)} from the engine`, { reason: String(o.tag) });
  }
}

/** Throws GuardError `invalid-json` naming `argument` when `s` holds a lone surrogate (no UTF-8 form). */
export function checkUnicode(s, argument) {
  if (typeof s === "string" && !isWellFormed(s)) throw loneSurrogate(s, argument);
}

/** Decides a tools/call against a session baseline (no policy needed). */
export function checkCall(baseline, name, args) {
  baselineText(baseline);
  nameText(name);
  const a = args === undefined || args === null ? undefined : jsonText(args, "arguments");
  return callDecision(call((c) => c.pinning.checkCall(baseline, name, a)));
}

// ---------------------------------------------------------------------------
// Discovery (`core.discovery`): the meta-tools' answers as data. A host needs
// none of this to serve a discovery session (pin/compare serve the surface,
// checkCall answers the meta-tools); these are for UIs, logs and footprints.

/**
 * `search_tools` over the tools callable in the session `baseline`, best
 * first, at most `limit` (default 10, the meta-tool's): `[{name, title,
 * summary}]`. Empty for a session without discovery.
 */
export function search(baseline, query, limit = 10) {
  baselineText(baseline);
  nameText(query, "query");
  if (!Number.isInteger(limit) || limit < 0 || limit > 0xffff_ffff) throw new TypeError("limit must be an integer in 0..2^32-1");
  return call((c) => c.discovery.search(baseline, query, limit)).map((h) => ({ name: h.name, title: h.title, summary: h.summary }));
}

/**
 * `get_tool_schema`: the served definition of a callable tool (a plain
 * object), or undefined when it is hidden, drifted or unknown (`checkCall`
 * says why).
 */
export function toolSchema(baseline, name) {
  baselineText(baseline);
  nameText(name);
  const text = call((c) => c.discovery.toolSchema(baseline, name));
  return text === undefined ? undefined : JSON.parse(text);
}

/**
 * Estimated model tokens of a listing (object or JSON text): bytes / 4,
 * rounded up. Compare a full catalog with its discovery surface.
 */
export function estimateTokens(catalog) {
  const text = jsonText(catalog, "catalog");
  return num(call((c) => c.discovery.estimateTokens(text)));
}

// ---------------------------------------------------------------------------
// Pin records (pins across runs): what `mcp-guard pins show | approve |
// forget` does, over a record's text (the engine's `PinRecord`). mcp.js
// keeps the records in a store; these only read and rewrite one.

function recordText(text) {
  if (typeof text !== "string") throw new TypeError("record must be the text a mediator persisted");
  return unicodeText(text, "record");
}

function namesList(names) {
  if (names === undefined || names === null) return [];
  if (!Array.isArray(names) || names.some((n) => typeof n !== "string")) throw new TypeError("names must be an array of strings");
  names.forEach((n, i) => unicodeText(n, `names[${i}]`));
  return names;
}

/** A stable, key-safe name for the record of server `key` (lower-case hex SHA-256). */
export function recordId(key) {
  nameText(key, "key");
  return call((c) => c.pinning.recordId(key));
}

/**
 * The policy JSON a mediator keeping a pin record works under: the engine's
 * rule (`core.tool_definition_pinning.mode` is `quarantine` unless the
 * policy sets a mode), the same as `mcp-guard proxy` and the Envoy filter.
 */
export function recordPolicy(policyJson) {
  unicodeText(policyJson, "policyJson");
  return call((c) => c.pinning.recordPolicy(policyJson));
}

/**
 * Reads a record: `{id, key, serverInfo, approved: [{name, digest,
 * definition}], pending: [{name, kind, digest, changes: [{pointer, kind,
 * before, after}], changesTruncated, approvedDefinition, definition}]}`
 * (definitions and values parsed; `before`/`after` undefined where absent).
 * Throws GuardError `invalid-baseline` for a text that is no record.
 */
export function recordShow(text) {
  recordText(text);
  const r = call((c) => c.pinning.recordShow(text));
  const parse = (t) => (t === undefined ? undefined : JSON.parse(t));
  return {
    id: r.id,
    key: r.key,
    serverInfo: r.serverInfo === undefined ? undefined : { name: r.serverInfo.name, version: r.serverInfo.version },
    approved: r.approved.map((a) => ({ name: a.name, digest: a.digest, definition: JSON.parse(a.definition) })),
    pending: r.pending.map((p) => ({
      name: p.name,
      kind: p.kind,
      digest: p.digest,
      changes: p.changes.map((ch) => ({ pointer: ch.pointer, kind: ch.kind, before: parse(ch.before), after: parse(ch.after) })),
      changesTruncated: p.changesTruncated,
      approvedDefinition: parse(p.approvedDefinition),
      definition: JSON.parse(p.definition),
    })),
  };
}

/**
 * Approves the pending definitions of `names` (all pending when empty or
 * omitted): `{text, names}`, the record to store and the names approved.
 * Throws GuardError `not-pending` (nothing changes) or `invalid-baseline`.
 */
export function recordApprove(text, names) {
  recordText(text);
  const list = namesList(names);
  const r = call((c) => c.pinning.recordApprove(text, list));
  return { text: r.text, names: r.names };
}

/**
 * Forgets the tools `names` (listed again, they are new and wait for
 * approval): `{text, names}`. Throws GuardError `unknown-tool` (nothing
 * changes) or `invalid-baseline`. (To trust the server on first use again,
 * delete the whole record: `pins.forget(store, key)` in `mcp-guard/mcp`.)
 */
export function recordForget(text, names) {
  recordText(text);
  const list = namesList(names);
  const r = call((c) => c.pinning.recordForget(text, list));
  return { text: r.text, names: r.names };
}

/**
 * Compiles a policy once: an object, its JSON text, or nothing for the safe
 * default (`{preset: "strict"}` / `{preset: "permissive"}` pick a preset).
 * Throws GuardError `invalid-policy` naming the field.
 */
export function createGuard(policy = {}) {
  return new Guard(jsonText(policy, "policy"));
}

export { MemoryStore } from "./store.js";
