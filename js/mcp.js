// mcp-guard around the official MCP TypeScript SDK `Client`: the SDK's
// transport is guarded by the engine's mediation core (index.js `Mediator`,
// the same decisions as `mcp-guard proxy`), so this file only moves
// messages and translates results.
//
// - Every message the SDK sends goes through `Mediator.onClientMessage`, and
//   every message the server sends through `onServerMessage`; what they
//   return goes to the real transport (`server`), to the SDK's `onmessage`
//   (`client`) and to `onEvent` (`log`). So every path of the SDK client
//   (listTools, callTool, a raw `client.request`, its list_changed
//   auto-refresh, a task stream) is mediated: the server sees only ids the
//   mediator minted, answers are taken under those ids exactly, listings are
//   fetched whole, pinned and compared, calls are gated, and a list change
//   makes the mediator re-list and compare at once.
// - listTools() / callTool() (also installed as the client's own) turn the
//   mediator's refusals into ListingRefusedError / CallRefusedError /
//   GuardError, keep `lastListing`, and let a client's listing wait for the
//   mediator's own re-list in flight.
// - Pins per session (default): the baseline is saved in the store
//   (store.js: memory, Redis) after each listing, under `sessionKey`, as a
//   tombstone once drift closed the session; before each listing and call
//   the store's entry is loaded into the mediator, so replicas sharing a
//   store share pins and tombstones.
// - Pins across runs (`pins: {store, server, principal}`): the mediator
//   keeps the pin record of the server the host names (never what the
//   server reports), loaded from the store where the mediator is made (at
//   connect) and written back on each `persist` the mediator returns. The
//   first listing of every run is compared with the approved pins; what
//   changed or is new is held back until a person approves it (`pins`
//   below, the same calls as `mcp-guard pins`).
import { randomUUID } from "node:crypto";
import { McpError, ResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import {
  CallRefusedError,
  GuardError,
  ListingRefusedError,
  checkUnicode,
  createGuard,
  recordApprove,
  recordForget,
  recordId,
  recordPolicy,
  recordShow,
} from "./index.js";
import { MemoryStore } from "./store.js";

export { CallRefusedError, GuardError, ListingRefusedError, recordPolicy } from "./index.js";
export { MemoryStore } from "./store.js";

const HOUR = 3_600_000;
// Marks a Client (and its transports) already wrapped: two guards on one
// client would each mediate the other's ids.
const WRAPPED = Symbol.for("mcp-guard.guardedClient");
// JSON-RPC codes of the mediator's refusals (src/jsonrpc.rs `code`).
const PARSE_ERROR = -32700;
const INVALID_PARAMS = -32602;
const REFUSED = -32001;
const UNUSABLE_CATALOG = -32002;
// How long a client's listing waits for the mediator's own re-list: as
// long as the SDK waits for an answer by default. After that it goes on
// its own (and is judged on its own).
const RELIST_WAIT_MS = 60_000;

/** McpError's message without the SDK's "MCP error <code>: " prefix. */
function mcpMessage(e) {
  return String(e.message).replace(/^MCP error -?\d+: /, "");
}

/** The mediator's refusal in an McpError: `{code, reason, message}`, else undefined (the server's own error). */
function refusal(e) {
  if (!(e instanceof McpError)) return undefined;
  const message = mcpMessage(e);
  // Every error the mediator writes says so; a server's error passes as it is.
  if (!message.startsWith("mcp-guard")) return undefined;
  return { code: e.code, reason: e.data?.reason, data: e.data, message };
}

function finding(f) {
  return {
    kind: f.kind,
    severity: f.severity,
    tool: f.tool,
    toolIndex: f.tool_index,
    pointer: f.pointer,
    action: f.action,
    detail: f.detail,
  };
}

/**
 * The record key of a server: the identity the host gives it (`server`),
 * with the principal when pins are kept per user. Never what the server
 * reports about itself: a server that rug-pulls would rename itself to get a
 * fresh trust on first use. The Python package builds the same key.
 */
export function recordKey(server, principal) {
  if (typeof server !== "string" || server === "") throw new TypeError("pins need the server's identity: a non-empty string (pins.server or server)");
  if (principal === undefined || principal === null) return server;
  if (typeof principal !== "string" || principal === "") throw new TypeError("pins.principal must be a non-empty string");
  return `${server} (principal ${JSON.stringify(principal)})`;
}

function pinsOptions(pins, server) {
  if (pins === undefined || pins === null) return null;
  const store = pins.store;
  for (const f of ["getRecord", "putRecord", "deleteRecord", "listRecords"]) {
    if (typeof store?.[f] !== "function") throw new TypeError(`pins.store needs ${f}() (MemoryStore, RedisStore)`);
  }
  const key = recordKey(pins.server ?? server, pins.principal);
  return { store, key, id: recordId(key) };
}

export class GuardedClient {
  #client;
  #guard;
  #store;
  /** `{store, key, id}` when pins are kept across runs, else null. */
  #pins;
  #key;
  #localKey = randomUUID();
  #server;
  #foreignNames;
  #sessionTtlMs;
  #tombstoneTtlMs;
  #onToolsChanged;
  #onEvent;
  #queue = Promise.resolve(); // listings of one wrapper run one at a time
  #saving = Promise.resolve(); // store writes, in order
  #sdkCallTool; // the SDK's own callTool, bound, from before the wrapping
  /** The mediator of the hooked transport (one per connection). */
  #mediator = null;
  /** The baseline text the mediator holds as far as the store is concerned (saved or loaded). */
  #known = null;
  /** `{message, drift}` of the listing that closed the session. */
  #closedBy = null;
  #relistWaiters = [];

  /** The last listing, for audit: `{pinned | compared, served}`. */
  lastListing = undefined;

  constructor(client, opts = {}) {
    if (typeof client?.request !== "function") throw new TypeError("guardClient needs an MCP SDK Client");
    if (client[WRAPPED]) throw new TypeError("this Client is already wrapped by guardClient");
    this.#client = client;
    this.#pins = pinsOptions(opts.pins, opts.server);
    this.#guard = opts.guard ?? createGuard(opts.policy ?? {});
    if (this.#pins !== null) {
      const policy = recordPolicy(this.#guard.policyJson);
      if (policy !== this.#guard.policyJson) this.#guard = createGuard(policy);
      // The record is loaded where the mediator is made: in connect().
      if (client.transport) throw new TypeError("with pins, wrap the Client before connect(): its pin record is loaded when it connects");
    }
    this.#store = opts.store ?? new MemoryStore();
    this.#key = opts.sessionKey;
    this.#server = opts.server;
    this.#foreignNames = opts.foreignNames ?? [];
    this.#sessionTtlMs = opts.sessionTtlMs ?? HOUR;
    this.#tombstoneTtlMs = opts.tombstoneTtlMs ?? HOUR;
    this.#onToolsChanged = opts.onToolsChanged;
    this.#onEvent = opts.onEvent ?? (() => {});
    if (opts.followListChanged !== false) {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.#listChanged());
    }
    client[WRAPPED] = true;
    this.#sdkCallTool = client.callTool.bind(client);
    // The SDK calls its own listTools() (the listChanged auto-refresh) and
    // hands the tools to the host: the wrapper's, with its errors.
    client.listTools = (params, options) => this.listTools(params, options);
    client.callTool = (params, resultSchema, options) => this.callTool(params, resultSchema, options);
    // The transport is hooked now if connected, else when connect() gets
    // one (also after a reconnect). Wrap before connect, or right after it:
    // a request already in flight when the hook goes in is answered under
    // the SDK's id, which the mediator did not mint, and is dropped.
    if (client.transport) this.#hookTransport(client.transport);
    const connect = client.connect.bind(client);
    client.connect = async (transport, options) => {
      // An unreadable record refuses the connection: replacing it would be
      // a fresh trust on first use for a server that may have just pulled
      // the rug (`pins.forget` removes it).
      const stored = this.#pins === null ? undefined : await this.#pins.store.getRecord(this.#pins.id);
      this.#hookTransport(transport, stored);
      return connect(transport, options);
    };
  }

  // ---- the guarded transport ---------------------------------------------

  #hookTransport(transport, stored) {
    if (transport[WRAPPED]) return;
    const record = this.#pins === null ? undefined : { key: this.#pins.key, stored: stored ?? undefined };
    const m = this.#guard.mediator({ server: this.#server, foreignNames: this.#foreignNames, record });
    transport[WRAPPED] = true;
    this.#mediator?.dispose();
    this.#mediator = m;
    this.#known = null;
    const send = transport.send.bind(transport);
    let sdkOnMessage = transport.onmessage;
    // Messages reach the SDK in the order the mediator emits them, after
    // the call that emitted them returned (a request's handler is set
    // before the SDK sends it, so an answer the mediator gives at once,
    // e.g. a refused call, finds it).
    // `delivering`: the SDK's handler chains the `onmessage` it found at
    // connect (Protocol.connect), which is `fromServer` when the transport
    // was hooked first; that call carries a message the mediator already
    // sent the client and is ignored.
    let delivering = false;
    const deliver = (text, extra) =>
      queueMicrotask(() => {
        delivering = true;
        try {
          sdkOnMessage?.(JSON.parse(text), extra);
        } catch (e) {
          transport.onerror?.(e);
        } finally {
          delivering = false;
        }
      });
    const fromServer = (message, extra) => {
      if (delivering) return;
      let outs;
      try {
        outs = this.#fromServer(m, message);
      } catch (e) {
        // The mediator is gone (a trap): nothing reaches the client.
        this.#event({ event: "mediator-error", message: String(e?.message ?? e) });
        transport.onerror?.(e);
        return;
      }
      this.#route(outs, (msg) => send(msg).catch((e) => transport.onerror?.(e)), (t) => deliver(t, extra));
      if (this.#relistWaiters.length > 0 && !m.relisting()) {
        const waiters = this.#relistWaiters;
        this.#relistWaiters = [];
        for (const w of waiters) w();
      }
    };
    // The SDK installs its handler in connect() (and may have already):
    // whatever it sets gets only what the mediator sends the client.
    Object.defineProperty(transport, "onmessage", {
      configurable: true,
      enumerable: true,
      get: () => fromServer,
      set: (f) => {
        sdkOnMessage = f;
      },
    });
    transport.send = (message, options) => {
      let outs;
      try {
        outs = this.#fromClient(m, message);
      } catch (e) {
        return Promise.reject(e);
      }
      return this.#route(outs, (msg) => send(msg, options), deliver);
    };
  }

  /** A client message through the mediator. */
  #fromClient(m, message) {
    const outs = m.onClientMessage(JSON.stringify(message));
    // Text the mediator cannot read is answered -32700 under id null (it
    // cannot read the id); the SDK made this message and knows its id, so
    // the error goes to that request instead of leaving it waiting.
    if (message?.id !== undefined && outs.some((o) => o.to === "log" && o.log.event === "client-line-refused")) {
      for (const o of outs) {
        if (o.to === "client") o.text = JSON.stringify({ ...JSON.parse(o.text), id: message.id });
      }
    }
    return outs;
  }

  /** A server message through the mediator. */
  #fromServer(m, message) {
    const outs = m.onServerMessage(JSON.stringify(message));
    // The SDK's JSON.parse read a message the engine's strict parser does
    // not (a lone surrogate escape, nesting past the mediator's bound): the
    // mediator drops it, and the request it answers would wait for ever. An
    // answer's id is all that is kept: an error under that id goes through
    // the mediator, which takes it only for a pending minted id, exactly.
    const id = message?.id;
    if (
      message?.method === undefined &&
      (typeof id === "string" || typeof id === "number") &&
      outs.some((o) => o.to === "log" && o.log.event === "server-line-dropped")
    ) {
      const why = outs.find((o) => o.to === "log" && o.log.event === "server-line-dropped").log.reason;
      const error = {
        jsonrpc: "2.0",
        id,
        error: { code: PARSE_ERROR, message: `mcp-guard: the server's answer is not strict JSON (${why})`, data: { reason: "invalid-json" } },
      };
      outs.push(...m.onServerMessage(JSON.stringify(error)));
    }
    return outs;
  }

  /** Carries out one mediator answer; resolves when every `server` message was sent. */
  #route(outs, toServer, toClient) {
    const sends = [];
    const findings = [];
    let listing = null;
    for (const o of outs) {
      if (o.to === "server") {
        const msg = JSON.parse(o.text);
        if (msg.method === "tools/call" && msg.id !== undefined) this.#touch();
        sends.push(toServer(msg));
      } else if (o.to === "client") {
        toClient(o.text);
      } else if (o.to === "persist") {
        this.#persist(o.text);
      } else {
        listing = this.#log(o.log, findings) ?? listing;
      }
    }
    if (listing !== null) this.#listed(listing);
    return Promise.all(sends).then(() => undefined);
  }

  /** One log line as an event; returns the listing it records, if it is one. */
  #log(line, findings) {
    const sessionKey = this.sessionKey;
    switch (line.event) {
      case "finding": {
        const f = finding(line.finding ?? {});
        findings.push(f);
        this.#event({ event: "finding", sessionKey, server: line.server, ...f });
        return null;
      }
      case "listing": {
        const drift = [
          ...line.changed.map((name) => ({ kind: "changed", name })),
          ...line.new.map((name) => ({ kind: "new", name })),
          ...line.removed.map((name) => ({ kind: "removed", name })),
        ];
        const pinned = line.baseline === "pinned";
        this.#event({ ...line, sessionKey, decision: pinned ? "pinned" : line.decision, drift: drift.length });
        return { line, drift, outcome: { findings: findings.splice(0), hidden: line.hidden.map((name) => ({ name })) } };
      }
      case "call-refused":
      case "call-warning":
        this.#event({ ...line, sessionKey, name: line.tool });
        return null;
      case "meta-tool":
        // A discovery meta-tool answered from the baseline; nothing was sent.
        this.#touch();
        this.#event({ event: "call-answered", sessionKey, server: line.server, name: line.tool });
        return null;
      default:
        this.#event({ ...line, sessionKey });
        return null;
    }
  }

  /**
   * The pin record changed: written to the pin store, in order with the
   * other writes (a listing resolves after it). A failed write is reported
   * and the run goes on, as in `mcp-guard proxy`: the approved pins in the
   * store are unchanged, so the next run still holds back what this one did.
   */
  #persist(text) {
    const { store, key, id } = this.#pins ?? {};
    if (store === undefined) {
      // Only a mediator with a record persists; anything else is a bug to see.
      this.#event({ event: "record-dropped", sessionKey: this.sessionKey, reason: "no pin store" });
      return;
    }
    this.#save(async () => {
      try {
        await store.putRecord(id, text);
        this.#event({ event: "record-saved", key, id });
      } catch (e) {
        this.#event({ event: "record-save-failed", key, id, message: String(e?.message ?? e) });
      }
    });
  }

  /** After a listing: record it, save the baseline (or the tombstone). */
  #listed({ line, drift, outcome }) {
    const m = this.#mediator;
    const baseline = m.baseline();
    const dead = m.dead();
    const decision = line.decision === "served" ? { action: "serve" } : { action: "refuse", invalidate: dead !== undefined };
    this.lastListing = line.baseline === "pinned" ? { pinned: { outcome, baseline } } : { compared: { outcome, drift, decision, baseline } };
    if (dead !== undefined) this.#closedBy ??= { message: dead, drift };
    // Across runs the record is the state (written on `persist`); the
    // session store is not used.
    if (this.#pins !== null) return;
    const key = this.sessionKey;
    if (dead !== undefined) {
      this.#closedBy ??= { message: dead, drift };
      this.#known = null;
      const until = Date.now() + this.#tombstoneTtlMs;
      this.#save(() => this.#store.put(key, { state: "tombstone", reason: dead, until }, this.#tombstoneTtlMs));
    } else {
      this.#known = baseline ?? null;
      this.#save(() => this.#store.put(key, { state: "active", baseline }, this.#sessionTtlMs));
    }
  }

  #save(write) {
    this.#saving = this.#saving.catch(() => {}).then(write);
    // Reported to the caller that waits for it; not unhandled meanwhile.
    this.#saving.catch(() => {});
  }

  #touch() {
    const key = this.sessionKey;
    this.#save(() => this.#store.touch?.(key, this.#sessionTtlMs));
  }

  #event(e) {
    try {
      this.#onEvent(e);
    } catch {
      // A failing log callback must not break the conversation.
    }
  }

  /**
   * Loads the store's entry into the mediator before a listing or a call (a
   * replica may have pinned, compared or closed the session). A tombstone
   * refuses here: the store says the session is closed, and this mediator
   * may never have seen the drift that closed it.
   */
  async #sync(what, name) {
    await this.#saving;
    if (this.#pins !== null) return; // the mediator holds the record's state
    const key = this.sessionKey;
    const entry = await this.#store.get(key);
    if (entry?.state === "tombstone") {
      const message = `session closed by tool drift: ${entry.reason}`;
      if (what === "listing") throw new ListingRefusedError("session-invalidated", message, { drift: this.#closedBy?.drift ?? [] });
      this.#event({ event: "call-refused", sessionKey: key, name, reason: "session-invalidated", message });
      throw new CallRefusedError("session-invalidated", message);
    }
    const m = this.#mediator;
    if (m === null) return; // not connected: the SDK fails the request
    const text = entry?.state === "active" ? entry.baseline : null;
    if (text !== this.#known) {
      m.restore(text ?? undefined);
      this.#known = text;
    }
  }

  /** Resolves once the mediator's own re-list is done (at most RELIST_WAIT_MS). */
  #relistDone() {
    const m = this.#mediator;
    if (m === null || !m.relisting()) return undefined;
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, RELIST_WAIT_MS);
      timer.unref?.();
      this.#relistWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  // ---- the public API ----------------------------------------------------

  /** The wrapped SDK client (every message it sends or gets is mediated). */
  get client() {
    return this.#client;
  }

  get guard() {
    return this.#guard;
  }

  get store() {
    return this.#store;
  }

  /** With pins across runs: `{store, key, id}` of this client's pin record; else null. */
  get pins() {
    return this.#pins === null ? null : { ...this.#pins };
  }

  /** The key this session's state is stored under. */
  get sessionKey() {
    if (typeof this.#key === "function") return this.#key();
    return this.#key ?? this.#client.transport?.sessionId ?? this.#localKey;
  }

  /**
   * The session's sanitized tools/list result (all pages in one, no
   * `nextCursor`). Throws ListingRefusedError (`drift`,
   * `session-invalidated`) or GuardError for an unusable catalog (the
   * engine's error kind, `cursor-loop`, `too-many-pages`, `invalid-cursor`
   * for a cursor passed in, …): nothing unsanitized is ever returned.
   */
  listTools(params, options) {
    const run = this.#queue.then(() => this.#list(params, options));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #list(params, options) {
    await this.#relistDone();
    await this.#sync("listing");
    let result;
    try {
      // ResultSchema is the SDK's loose result: the served catalog and its
      // result fields (resultType, ttlMs, cacheScope, _meta) as they are.
      result = await this.#client.request({ method: "tools/list", params }, ResultSchema, options);
    } catch (e) {
      await this.#saving.catch(() => {});
      throw this.#listingError(e);
    }
    await this.#saving;
    if (this.lastListing !== undefined) this.lastListing.served = result;
    this.#cacheToolMetadata(result);
    return result;
  }

  #listingError(e) {
    const r = refusal(e);
    if (r === undefined) return e;
    if (r.reason === "session-invalidated") {
      return new ListingRefusedError("session-invalidated", r.message, { drift: this.#closedBy?.drift ?? this.lastListing?.compared?.drift ?? [] });
    }
    if (r.code === REFUSED && r.reason === "drift") {
      return new ListingRefusedError("drift", r.message, { drift: this.lastListing?.compared?.drift ?? [] });
    }
    if (typeof r.reason === "string") return new GuardError(r.reason, r.message, { code: r.code });
    if (r.code === PARSE_ERROR) return new GuardError("invalid-json", r.message, { code: r.code });
    return e;
  }

  // The SDK validates structured tool output against the output schemas it
  // saw in a listing: the served ones (the names the client calls by).
  #cacheToolMetadata(served) {
    if (typeof this.#client.cacheToolMetadata !== "function" || !Array.isArray(served?.tools)) return;
    try {
      this.#client.cacheToolMetadata(served.tools);
    } catch (e) {
      this.#event({ event: "output-schema-cache-failed", reason: String(e?.message ?? e) });
    }
  }

  async #listChanged() {
    let result;
    let error;
    try {
      result = await this.listTools();
    } catch (e) {
      error = e;
      // Refusals were logged by the listing itself; anything else (an
      // unusable catalog, a transport error) is reported here.
      if (!(e instanceof ListingRefusedError)) {
        this.#event({ event: "listing-error", sessionKey: this.sessionKey, kind: e?.kind, message: String(e?.message ?? e) });
      }
    }
    if (this.#onToolsChanged) this.#onToolsChanged(error ?? null, result);
  }

  /**
   * Calls a tool the session was shown. Throws CallRefusedError (the gate's
   * reason) when refused: the call never reaches the server. Under discovery
   * the engine answers search_tools / get_tool_schema itself and sends
   * call_tool as a call of the inner tool; otherwise the call goes out under
   * the upstream name with the arguments mapped back from the dialect.
   */
  async callTool(params, resultSchema, options) {
    checkUnicode(params?.name, "name");
    await this.#sync("call", params?.name);
    try {
      return await this.#sdkCallTool(params, resultSchema, options);
    } catch (e) {
      throw this.#callError(e);
    }
  }

  #callError(e) {
    const r = refusal(e);
    if (r === undefined) return e;
    const violations = Array.isArray(r.data?.violations) ? r.data.violations.map((v) => ({ pointer: v.pointer, reason: v.reason })) : [];
    if (r.code === INVALID_PARAMS && typeof r.reason === "string" && r.data?.tool !== undefined) {
      return new CallRefusedError(r.reason, r.message, violations);
    }
    if (r.code === PARSE_ERROR) {
      // The name was checked above: what the engine could not read is in
      // the arguments (a lone surrogate has no UTF-8 form).
      return new CallRefusedError("invalid-arguments", r.message, [{ pointer: "", reason: r.message }]);
    }
    if (typeof r.reason === "string") return new GuardError(r.reason, r.message, { code: r.code });
    return e;
  }

  /** Forgets this session's state in the store (tombstones too); the next listing pins afresh. */
  async forget() {
    await this.#saving.catch(() => {});
    this.#closedBy = null;
    await this.#store.delete(this.sessionKey);
  }

  close() {
    const closed = this.#client.close();
    return Promise.resolve(closed).finally(() => {
      this.#mediator?.dispose();
      this.#mediator = null;
    });
  }
}

/**
 * Wraps a connected (or about to be connected) SDK Client. Options:
 * `guard` or `policy`, `store` (default MemoryStore), `sessionKey` (string or
 * function), `server`, `foreignNames`, `sessionTtlMs`, `tombstoneTtlMs`
 * (1 h each), `onToolsChanged(err, result)`, `onEvent(event)`,
 * `followListChanged` (default true), and `pins: {store, server, principal}`
 * for pins across runs (wrap before connect; `server` defaults to the
 * option above; the policy's pinning mode defaults to `quarantine`).
 */
export function guardClient(client, opts) {
  return new GuardedClient(client, opts);
}

// ---------------------------------------------------------------------------
// `pins`: the calls of `mcp-guard pins list | show | approve | forget`, over a
// pin store (MemoryStore, RedisStore). `server` is a record key
// (`recordKey(server, principal)`, as `GuardedClient.pins.key` shows), or at
// least 8 leading hex characters of a record id (`pins.list` shows them). A
// client already connected keeps the record it loaded and writes it again
// when what it lists changes; an approval is served from the next connect.

/** The stored `{id, text}` of `server` (a key or an id prefix); GuardError `unknown-server` if none. */
async function findRecord(store, server) {
  if (typeof server !== "string" || server === "") throw new TypeError("server must be a record key or id prefix");
  const id = recordId(server);
  const text = await store.getRecord(id);
  if (text !== undefined && text !== null) return { id, text };
  const prefix = server.toLowerCase();
  const hits = /^[0-9a-f]{8,64}$/.test(prefix) ? (await store.listRecords()).filter((r) => r.id.startsWith(prefix)) : [];
  if (hits.length === 1) return hits[0];
  if (hits.length > 1) throw new GuardError("ambiguous-server", `${hits.length} records start with ${prefix}: give more of the id`, { server });
  throw new GuardError("unknown-server", `no pin record for server ${JSON.stringify(server)}`, { server });
}

export const pins = {
  /** The record key of a server identity (and principal): `recordKey`. */
  key: recordKey,

  /**
   * Every record: `[{id, key, serverInfo, approved: [names], pending: [names]}]`,
   * or `{id, error}` for one that does not read (never removed silently).
   */
  async list(store) {
    const out = [];
    for (const { id, text } of await store.listRecords()) {
      try {
        const r = recordShow(text);
        out.push({ id, key: r.key, serverInfo: r.serverInfo, approved: r.approved.map((a) => a.name), pending: r.pending.map((p) => p.name) });
      } catch (e) {
        if (!(e instanceof GuardError)) throw e;
        out.push({ id, error: e.message, kind: e.kind });
      }
    }
    return out;
  },

  /**
   * One record: `recordShow` of it (approved tools, each pending change with
   * its pointers and the values before and after). GuardError
   * `unknown-server`, `invalid-baseline` (a record that does not read).
   */
  async show(store, server) {
    const { text } = await findRecord(store, server);
    return recordShow(text);
  },

  /**
   * Approves the pending definitions of `names` (all pending when omitted);
   * the next connect serves them. Returns the names approved. GuardError
   * `not-pending` (nothing changes), `unknown-server`, `invalid-baseline`.
   */
  async approve(store, server, names) {
    const { id, text } = await findRecord(store, server);
    const r = recordApprove(text, names);
    await store.putRecord(id, r.text);
    return r.names;
  },

  /**
   * Forgets the tools `names` (listed again, they are new and wait for
   * approval), or the whole record when `names` is omitted (the next connect
   * trusts the server on first use again; this is also how a record that
   * does not read goes). Returns the names forgotten (`[]` for the record).
   */
  async forget(store, server, names) {
    const { id, text } = await findRecord(store, server);
    if (names === undefined) {
      await store.deleteRecord(id);
      return [];
    }
    const r = recordForget(text, names);
    await store.putRecord(id, r.text);
    return r.names;
  },
};
