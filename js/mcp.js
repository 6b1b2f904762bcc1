// mcp-guard around the official MCP TypeScript SDK `Client`: the same
// session logic as `mcp-guard proxy` (README, "Proxy"), for Node hosts.
//
// - listTools(): fetches every page itself (one catalog is pinned and
//   compared, no page is shown before the decision), then the session's
//   first listing is pinned and later ones are compared; a refused listing
//   throws ListingRefusedError, and with `invalidate` the session key is
//   tombstoned in the store.
// - callTool(): decided by the call gate against the session's baseline;
//   a refused call throws CallRefusedError and never reaches the server; an
//   allowed one goes out under the upstream name with the coerced arguments.
//   Under discovery (`core.discovery.mode: "on"`) the gate answers
//   search_tools / get_tool_schema itself (returned, nothing sent) and turns
//   call_tool into an allowed call of the inner tool.
// - notifications/tools/list_changed: re-lists at once and compares, so a
//   drifted tool leaves the gate even if the host never re-lists.
//
// - The SDK client itself is guarded once wrapped: its listTools() and
//   callTool() are the wrapper's, and its transport refuses to send any
//   other tools/list or tools/call request (a raw `client.request(...)`, the
//   SDK's own list_changed auto-refresh, a task stream) with GuardError
//   `unguarded-request`. So every tools/list answer the SDK takes is one the
//   engine judges, and every tools/call on the wire passed the gate.
// - Response ids: the SDK matches them itself (Protocol._onresponse takes
//   `Number(id)`, so "1", " 0x1 " and 1.0 all answer request 1, and a second
//   answer for an id already answered is dropped as unknown). The wrapper
//   does not match ids; it relies on the point above instead: whichever
//   answer the SDK takes for a tools/list request is pinned or compared by
//   the engine before the caller sees it, and a tools/call answer can only
//   exist for a call the gate allowed. (The proxy, which matches ids itself,
//   refuses loose ones; README "Response ids".)
//
// Session state lives in a store (store.js): in memory by default, Redis
// (redis.js) for replicas. The key is the host's (`sessionKey`), else the
// transport's session id (Streamable HTTP `Mcp-Session-Id`), else one
// random key per wrapper (a stdio connection is one session).
import { randomUUID } from "node:crypto";
import { CallToolResultSchema, ResultSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { CallRefusedError, GuardError, ListingRefusedError, createGuard } from "./index.js";
import { MemoryStore } from "./store.js";

export { CallRefusedError, GuardError, ListingRefusedError } from "./index.js";
export { MemoryStore } from "./store.js";

const HOUR = 3_600_000;
const MAX_PAGES = 1000;
// Marks a Client already wrapped: two guards on one client would each gate
// the other's requests.
const WRAPPED = Symbol.for("mcp-guard.guardedClient");
const GUARDED_METHODS = new Set(["tools/list", "tools/call"]);

export class GuardedClient {
  #client;
  #guard;
  #store;
  #key;
  #localKey = randomUUID();
  #server;
  #foreignNames;
  #sessionTtlMs;
  #tombstoneTtlMs;
  #onToolsChanged;
  #onEvent;
  #queue = Promise.resolve(); // listings of one wrapper run one at a time
  #sdkCallTool; // the SDK's own callTool, bound, from before the wrapping
  // The one guarded method the next transport send may carry. Set around a
  // synchronous call into the SDK (Protocol.request hands the message to
  // transport.send before its first await) and cleared right after.
  #approved = null;

  /** The last listing's audit record: `{pinned?, compared?, served}`. */
  lastListing = undefined;

  constructor(client, opts = {}) {
    if (typeof client?.request !== "function") throw new TypeError("guardClient needs an MCP SDK Client");
    if (client[WRAPPED]) throw new TypeError("this Client is already wrapped by guardClient");
    this.#client = client;
    this.#guard = opts.guard ?? createGuard(opts.policy ?? {});
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
    this.#guardClientItself(client);
  }

  // Fail closed for the paths around the wrapper: the SDK client's own
  // listTools()/callTool() (the SDK calls listTools() itself for its
  // `listChanged` auto-refresh, and hands the tools to the host) become the
  // guarded ones, and its transport refuses every other tools/list and
  // tools/call request. The transport is hooked now if connected, else when
  // connect() gets one (also after a reconnect).
  #guardClientItself(client) {
    client[WRAPPED] = true;
    this.#sdkCallTool = client.callTool.bind(client);
    client.listTools = (params, options) => this.listTools(params, options);
    client.callTool = (params, resultSchema, options) => this.callTool(params, resultSchema, options);
    if (client.transport) this.#hookTransport(client.transport);
    const connect = client.connect.bind(client);
    client.connect = (transport, options) => {
      this.#hookTransport(transport);
      return connect(transport, options);
    };
  }

  #hookTransport(transport) {
    if (transport[WRAPPED]) return;
    transport[WRAPPED] = true;
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      const method = message?.method;
      if (GUARDED_METHODS.has(method) && message.id !== undefined) {
        if (this.#approved !== method) {
          this.#onEvent({ event: "unguarded-request", sessionKey: this.sessionKey, method });
          return Promise.reject(
            new GuardError("unguarded-request", `mcp-guard: a ${method} request that did not go through the guarded client was not sent`),
          );
        }
        this.#approved = null; // one message per approval
      }
      return send(message, options);
    };
  }

  // Runs `fn` (which synchronously hands one `method` request to the
  // transport) with that one request approved.
  #approve(method, fn) {
    this.#approved = method;
    try {
      return fn();
    } finally {
      this.#approved = null;
    }
  }

  /** The wrapped SDK client, for everything the guard does not touch (its
   * listTools/callTool are this wrapper's; other tools/* requests are refused). */
  get client() {
    return this.#client;
  }

  get guard() {
    return this.#guard;
  }

  get store() {
    return this.#store;
  }

  /** The key this session's state is stored under. */
  get sessionKey() {
    if (typeof this.#key === "function") return this.#key();
    return this.#key ?? this.#client.transport?.sessionId ?? this.#localKey;
  }

  #opts() {
    return { server: this.#server, foreignNames: this.#foreignNames };
  }

  /**
   * The session's sanitized tools/list result (all pages in one, no
   * `nextCursor`). Throws ListingRefusedError (`drift`,
   * `session-invalidated`) or the engine's GuardError for an unusable
   * catalog (fail closed: nothing unsanitized is ever returned).
   */
  listTools(params, options) {
    if (params?.cursor !== undefined) {
      return Promise.reject(new GuardError("invalid-cursor", "the guarded listTools returns the whole catalog; it takes no cursor"));
    }
    const run = this.#queue.then(() => this.#list(params, options));
    this.#queue = run.catch(() => {});
    return run;
  }

  async #fetchAll(params, options) {
    // ResultSchema is the SDK's loose result: the tools reach the engine as
    // the server sent them (ListToolsResultSchema would strip unknown tool
    // keys before the engine could report them).
    const seen = new Set();
    let first;
    const tools = [];
    let cursor;
    for (let page = 0; ; page++) {
      if (page === MAX_PAGES) throw new GuardError("too-many-pages", `more than ${MAX_PAGES} tools/list pages`);
      const p = cursor === undefined ? params : { ...params, cursor };
      const r = await this.#approve("tools/list", () => this.#client.request({ method: "tools/list", params: p }, ResultSchema, options));
      if (!Array.isArray(r.tools)) {
        // Let the engine refuse it with its own error kind.
        if (first === undefined) return r;
        throw new GuardError("invalid-envelope", "a later tools/list page has no tools array");
      }
      first ??= r;
      tools.push(...r.tools);
      cursor = r.nextCursor;
      if (typeof cursor !== "string") break;
      if (seen.has(cursor)) throw new GuardError("cursor-loop", "the server repeated a tools/list cursor");
      seen.add(cursor);
    }
    const { nextCursor: _drop, ...rest } = first;
    return { ...rest, tools };
  }

  async #list(params, options) {
    const key = this.sessionKey;
    const catalog = await this.#fetchAll(params, options);
    const entry = await this.#store.get(key);
    if (entry?.state === "tombstone") {
      throw new ListingRefusedError("session-invalidated", `session closed by tool drift: ${entry.reason}`);
    }
    if (entry === undefined) {
      const pinned = this.#guard.pin(catalog, this.#opts());
      await this.#store.put(key, { state: "active", baseline: pinned.baseline }, this.#sessionTtlMs);
      const served = pinned.outcome.catalog;
      this.lastListing = { pinned, served };
      this.#findings(pinned.outcome);
      this.#cacheToolMetadata(served, pinned.outcome.nameMap);
      this.#onEvent({ event: "listing", sessionKey: key, decision: "pinned", tools: served.tools.length });
      return served;
    }
    const compared = this.#guard.compare(entry.baseline, catalog, this.#opts());
    this.#findings(compared.outcome);
    const d = compared.decision;
    if (d.action === "serve") {
      await this.#store.put(key, { state: "active", baseline: compared.baseline }, this.#sessionTtlMs);
      const served = d.catalog;
      this.lastListing = { compared, served };
      this.#cacheToolMetadata(served, compared.outcome.nameMap);
      this.#onEvent({ event: "listing", sessionKey: key, decision: "served", tools: served.tools.length, drift: compared.drift.length });
      return served;
    }
    this.lastListing = { compared, served: undefined };
    if (d.invalidate) {
      const until = Date.now() + this.#tombstoneTtlMs;
      await this.#store.put(key, { state: "tombstone", reason: d.message, until }, this.#tombstoneTtlMs);
      this.#onEvent({ event: "session-invalidated", sessionKey: key, message: d.message });
      throw new ListingRefusedError("session-invalidated", d.message, { drift: compared.drift });
    }
    await this.#store.put(key, { state: "active", baseline: compared.baseline }, this.#sessionTtlMs);
    this.#onEvent({ event: "listing", sessionKey: key, decision: "refused", drift: compared.drift.length, message: d.message });
    throw new ListingRefusedError("drift", d.message, { drift: compared.drift });
  }

  #findings(outcome) {
    for (const f of outcome.findings) this.#onEvent({ event: "finding", ...f });
  }

  // The SDK validates structured tool output against the output schemas it
  // saw in its own listTools(); ours bypasses that, so hand it the served
  // tools under their upstream names (the names callTool sends).
  #cacheToolMetadata(served, nameMap) {
    if (typeof this.#client.cacheToolMetadata !== "function") return;
    const upstream = new Map(nameMap.map((m) => [m.visible, m.upstream]));
    try {
      this.#client.cacheToolMetadata(served.tools.map((t) => ({ ...t, name: upstream.get(t.name) ?? t.name })));
    } catch (e) {
      this.#onEvent({ event: "output-schema-cache-failed", reason: String(e?.message ?? e) });
    }
  }

  async #listChanged() {
    let result;
    let error;
    try {
      result = await this.listTools();
    } catch (e) {
      error = e;
      // Refusals were reported by the listing itself; anything else (an
      // unusable catalog, a transport error) is reported here.
      if (!(e instanceof ListingRefusedError)) {
        this.#onEvent({ event: "listing-error", sessionKey: this.sessionKey, kind: e?.kind, message: String(e?.message ?? e) });
      }
    }
    if (this.#onToolsChanged) this.#onToolsChanged(error ?? null, result);
  }

  /**
   * Calls a tool the session was shown. Throws CallRefusedError (the gate's
   * reason) without reaching the server when refused; returns the engine's
   * answer for a discovery meta-tool (search_tools, get_tool_schema) without
   * reaching it either; otherwise forwards to the upstream name (for
   * call_tool: the inner tool's) with the arguments mapped back from the
   * dialect.
   */
  async callTool(params, resultSchema, options) {
    const key = this.sessionKey;
    const entry = await this.#store.get(key);
    if (entry?.state === "tombstone") {
      this.#onEvent({ event: "call-refused", sessionKey: key, name: params.name, reason: "session-invalidated" });
      throw new CallRefusedError("session-invalidated", `session closed by tool drift: ${entry.reason}`);
    }
    if (entry === undefined) {
      // Nothing was shown in this session, so nothing is callable.
      this.#onEvent({ event: "call-refused", sessionKey: key, name: params.name, reason: "unknown-tool" });
      throw new CallRefusedError("unknown-tool", `no tools/list was served in this session; ${JSON.stringify(params.name)} is unknown`);
    }
    const d = this.#guard.checkCall(entry.baseline, params.name, params.arguments);
    if (d.action === "refuse") {
      this.#onEvent({ event: "call-refused", sessionKey: key, name: params.name, reason: d.reason, message: d.message });
      throw new CallRefusedError(d.reason, d.message, d.violations);
    }
    if (d.action === "respond") {
      // A discovery meta-tool (search_tools, get_tool_schema) answered by the
      // engine from the session's baseline: nothing goes upstream. Parsed with
      // the caller's result schema, as a server's answer would be.
      this.#onEvent({ event: "call-answered", sessionKey: key, name: params.name });
      await this.#store.touch?.(key, this.#sessionTtlMs);
      return (resultSchema ?? CallToolResultSchema).parse(d.result);
    }
    if (d.action !== "allow") {
      // A decision this package version cannot carry out: fail closed.
      throw new CallRefusedError("unknown-tool", `call decision ${JSON.stringify(d.action)} is not supported by this package version`);
    }
    if (d.warning) this.#onEvent({ event: "call-warning", sessionKey: key, name: params.name, warning: d.warning });
    await this.#store.touch?.(key, this.#sessionTtlMs);
    const forwarded = { ...params, name: d.upstream };
    if (d.argumentsJson === undefined) delete forwarded.arguments;
    else forwarded.arguments = d.arguments;
    return this.#approve("tools/call", () => this.#sdkCallTool(forwarded, resultSchema, options));
  }

  /** Forgets this session's state in the store (tombstones too). */
  async forget() {
    await this.#store.delete(this.sessionKey);
  }

  close() {
    return this.#client.close();
  }
}

/**
 * Wraps a connected (or about to be connected) SDK Client. Options:
 * `guard` or `policy`, `store` (default MemoryStore), `sessionKey` (string or
 * function), `server`, `foreignNames`, `sessionTtlMs`, `tombstoneTtlMs`
 * (1 h each), `onToolsChanged(err, result)`, `onEvent(event)`,
 * `followListChanged` (default true).
 */
export function guardClient(client, opts) {
  return new GuardedClient(client, opts);
}
