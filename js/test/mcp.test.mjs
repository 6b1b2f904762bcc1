// End to end: the official MCP TypeScript SDK Client, wrapped by
// guardClient, against real servers: @modelcontextprotocol/server-everything
// from npm over stdio and over Streamable HTTP on loopback, and the SDK
// McpServer in servers/test-server.mjs (a poisoned catalog, a rug pull).
//
// "Never reaches the server" is observed on the wire: every message the
// client transport sends is recorded (the real transport's send, wrapped).
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallRefusedError, GuardError, ListingRefusedError, MemoryStore, guardClient } from "../mcp.js";
import { createGuard } from "../index.js";
import { everything, here, startNode, stop } from "./helpers.mjs";

const testServer = join(here, "servers/test-server.mjs");
const pagedServer = join(here, "servers/paged-server.mjs");
const INVALIDATE = {
  core: { tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "invalidate" } },
};
const KEEP = { core: { tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "keep" } } };
const SUBSET = { core: { tool_definition_pinning: { mode: "block", block_strategy: "baseline_subset" } } };
const POISON_BLOCK = { core: { tool_poisoning: { mode: "block" } } };

/** Records every tools/call the transport sends. */
function recordCalls(transport) {
  const calls = [];
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    if (msg.method === "tools/call") calls.push(msg.params.name);
    return send(msg, opts);
  };
  return calls;
}

/** A connected SDK client on a stdio server, wrapped. */
async function stdio(server, args, guardOpts = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [server, ...args], stderr: "pipe" });
  const stderr = [];
  transport.stderr?.on("data", (d) => stderr.push(d.toString()));
  const sent = recordCalls(transport);
  const client = new Client({ name: "mcp-guard-js-e2e", version: "1.0.0" });
  await client.connect(transport);
  const events = [];
  const guarded = guardClient(client, { onEvent: (e) => events.push(e), ...guardOpts });
  // The server logs a call on stderr before it answers on stdout, but the two
  // pipes are read independently: the answer can be handled first. So the
  // log is read once it holds `n` calls (or after 5 s, to fail on it).
  const calls = () => stderr.join("").match(/^CALL \S+$/gm) ?? [];
  const serverCalls = async (n) => {
    for (const end = Date.now() + 5000; calls().length < n && Date.now() < end; ) await new Promise((r) => setTimeout(r, 10));
    return calls();
  };
  return { client, guarded, sent, events, serverCalls };
}

/** Resolves with the next onToolsChanged report `{error, result}`. */
function toolsChanged() {
  let resolve;
  const p = new Promise((r) => (resolve = r));
  const timer = setTimeout(() => resolve({ error: new Error("no tools/list_changed within 10 s") }), 10_000);
  return {
    promise: p,
    onToolsChanged: (error, result) => {
      clearTimeout(timer);
      resolve({ error, result });
    },
  };
}

async function refusedCall(promise, kind) {
  await assert.rejects(promise, (e) => {
    assert.ok(e instanceof CallRefusedError, `expected CallRefusedError, got ${e?.stack ?? e}`);
    assert.equal(e.kind, kind, e.message);
    return true;
  });
}

/** Checks the guard on any server-everything session. */
async function exerciseEverything(guarded, sent) {
  const names = (await guarded.listTools()).tools.map((t) => t.name);
  assert.ok(names.includes("echo") && names.includes("get-sum"), names.join(" "));
  assert.ok(guarded.lastListing.pinned, "the first listing is pinned");
  const stored = await guarded.store.get(guarded.sessionKey);
  assert.equal(stored.state, "active");
  assert.equal(stored.baseline, guarded.lastListing.pinned.baseline, "the store holds the baseline as is");

  const echo = await guarded.callTool({ name: "echo", arguments: { message: "through mcp-guard" } });
  assert.equal(echo.content[0].text, "Echo: through mcp-guard");
  // Arguments are coerced to the original schema: "5" → 5 for numbers.
  const sum = await guarded.callTool({ name: "get-sum", arguments: { a: 2, b: "3" } });
  assert.match(sum.content[0].text, /\b5\b/);

  // Blocked calls: never listed, look-alike, wrong arguments.
  const before = sent.length;
  await refusedCall(guarded.callTool({ name: "delete_everything", arguments: {} }), "unknown-tool");
  await refusedCall(guarded.callTool({ name: "Echo", arguments: { message: "x" } }), "confusable-name");
  await assert.rejects(guarded.callTool({ name: "echo", arguments: { message: 42 } }), (e) => {
    assert.ok(e instanceof CallRefusedError);
    assert.equal(e.kind, "invalid-arguments");
    assert.equal(e.violations[0].pointer, "/message");
    return true;
  });
  assert.deepEqual(sent.slice(before), [], "refused calls never reach the server");
  assert.deepEqual(sent, ["echo", "get-sum"]);

  // The second listing is compared with the pin: nothing drifted.
  const again = await guarded.listTools();
  assert.deepEqual(again.tools.map((t) => t.name), names);
  assert.deepEqual(guarded.lastListing.compared.drift, []);
}

test("server-everything over stdio behind the guarded SDK client", async () => {
  const { guarded, sent } = await stdio(everything, ["stdio"]);
  try {
    // Before any listing nothing is callable (and nothing is sent).
    await refusedCall(guarded.callTool({ name: "echo", arguments: { message: "early" } }), "unknown-tool");
    await exerciseEverything(guarded, sent);
  } finally {
    await guarded.close();
  }
});

test("server-everything over Streamable HTTP on loopback: the session key is the Mcp-Session-Id", async () => {
  const { child, match } = await startNode(["--import", join(here, "servers/loopback.mjs"), everything, "streamableHttp"], {
    ready: /mcp-guard-test listening on port (\d+)/,
    env: { PORT: "0" },
  });
  try {
    const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${match[1]}/mcp`));
    const sent = recordCalls(transport);
    const client = new Client({ name: "mcp-guard-js-e2e", version: "1.0.0" });
    await client.connect(transport);
    const store = new MemoryStore();
    const guarded = guardClient(client, { store });
    try {
      assert.match(transport.sessionId, /^[0-9a-f-]{36}$/);
      assert.equal(guarded.sessionKey, transport.sessionId);
      await exerciseEverything(guarded, sent);
      assert.equal((await store.get(transport.sessionId)).state, "active");
    } finally {
      await guarded.close();
    }
  } finally {
    await stop(child);
  }
});

test("a poisoned catalog from an McpServer: poisoned tool hidden and its call blocked, smuggled text removed", async () => {
  const { guarded, sent, events, serverCalls } = await stdio(testServer, [], { policy: POISON_BLOCK });
  try {
    const { tools } = await guarded.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["echo", "mutate", "search"]);
    const outcome = guarded.lastListing.pinned.outcome;
    assert.deepEqual(outcome.hidden.map((h) => h.name), ["notes"]);
    const kinds = new Set(outcome.findings.filter((f) => f.tool === "notes").map((f) => f.kind));
    for (const k of ["poison-secret-access", "poison-secrecy", "poison-authority"]) assert.ok(kinds.has(k), `${k} in ${[...kinds]}`);
    assert.ok(events.some((e) => e.event === "finding" && e.tool === "notes"));

    const search = tools.find((t) => t.name === "search");
    assert.equal(search.description, "Searches the docs.");
    assert.ok(outcome.findings.some((f) => f.tool === "search" && f.kind === "invisible-removed"));

    await refusedCall(guarded.callTool({ name: "notes", arguments: { sidenote: "x" } }), "hidden-tool");
    const r = await guarded.callTool({ name: "search", arguments: { query: "q", limit: "3" } });
    assert.equal(r.content[0].text, "results for q (limit 3, number)");
    assert.deepEqual(sent, ["search"]);
    assert.deepEqual(await serverCalls(1), ["CALL search"]);
  } finally {
    await guarded.close();
  }
});

test("rug pull mid-session under block/error/invalidate: list_changed re-lists, the session is tombstoned", async () => {
  const changed = toolsChanged();
  const store = new MemoryStore();
  const { guarded, sent, events, serverCalls } = await stdio(testServer, [], {
    policy: INVALIDATE,
    store,
    sessionKey: "host-session-1",
    onToolsChanged: changed.onToolsChanged,
  });
  try {
    await guarded.listTools();
    assert.equal((await guarded.callTool({ name: "echo", arguments: { message: "a" } })).content[0].text, "Echo: a");

    await guarded.callTool({ name: "mutate", arguments: {} });
    // The wrapper re-lists on its own when the server says tools changed.
    const { error } = await changed.promise;
    assert.ok(error instanceof ListingRefusedError, String(error));
    assert.equal(error.kind, "session-invalidated");
    assert.equal(error.details.drift[0].name, "echo");
    assert.equal(error.details.drift[0].kind, "changed");

    const entry = await store.get("host-session-1");
    assert.equal(entry.state, "tombstone");
    assert.ok(events.some((e) => e.event === "session-invalidated"));

    await assert.rejects(guarded.listTools(), (e) => e instanceof ListingRefusedError && e.kind === "session-invalidated");
    await refusedCall(guarded.callTool({ name: "echo", arguments: { message: "b" } }), "session-invalidated");
    await refusedCall(guarded.callTool({ name: "mutate", arguments: {} }), "session-invalidated");
    assert.deepEqual(sent, ["echo", "mutate"]);
    assert.deepEqual(await serverCalls(2), ["CALL echo", "CALL mutate"]);
  } finally {
    await guarded.close();
  }
});

test("rug pull under block/error/keep: the re-list is refused as drift, the session and its pins stay", async () => {
  const changed = toolsChanged();
  const { guarded } = await stdio(testServer, [], { policy: KEEP, onToolsChanged: changed.onToolsChanged });
  try {
    await guarded.listTools();
    await guarded.callTool({ name: "mutate", arguments: {} });
    const { error } = await changed.promise;
    assert.ok(error instanceof ListingRefusedError, String(error));
    assert.equal(error.kind, "drift");
    assert.equal((await guarded.store.get(guarded.sessionKey)).state, "active");
    await refusedCall(guarded.callTool({ name: "echo", arguments: { message: "b" } }), "drifted-tool");
    assert.equal((await guarded.callTool({ name: "mutate", arguments: {} })).content[0].text, "mutated");
  } finally {
    await guarded.close();
  }
});

test("rug pull under baseline_subset: the changed tool leaves the listing and the gate", async () => {
  const changed = toolsChanged();
  const { guarded, sent } = await stdio(testServer, [], { policy: SUBSET, onToolsChanged: changed.onToolsChanged });
  try {
    await guarded.listTools();
    await guarded.callTool({ name: "mutate", arguments: {} });
    const { error, result } = await changed.promise;
    assert.equal(error, null);
    assert.deepEqual(result.tools.map((t) => t.name).sort(), ["mutate", "notes", "search"]);
    await refusedCall(guarded.callTool({ name: "echo", arguments: { message: "b" } }), "drifted-tool");
    assert.deepEqual(sent, ["mutate"]);
  } finally {
    await guarded.close();
  }
});

test("rug pull under the default policy (warn): served with a marker, calls go through with a warning", async () => {
  const changed = toolsChanged();
  const guard = createGuard();
  const { guarded, events } = await stdio(testServer, [], { guard, onToolsChanged: changed.onToolsChanged });
  try {
    await guarded.listTools();
    await guarded.callTool({ name: "mutate", arguments: {} });
    const { error, result } = await changed.promise;
    assert.equal(error, null);
    const echo = result.tools.find((t) => t.name === "echo");
    assert.match(echo.description, /changed since the session's baseline/);
    assert.equal((await guarded.callTool({ name: "echo", arguments: { message: "c" } })).content[0].text, "Echo: c");
    assert.ok(events.some((e) => e.event === "call-warning" && e.name === "echo"));
  } finally {
    await guarded.close();
  }
});

test("a paginated tools/list is fetched whole: one catalog pinned, no cursor shown", async () => {
  const { guarded, client } = await stdio(pagedServer, ["pages"]);
  try {
    const result = await guarded.listTools();
    assert.deepEqual(result.tools.map((t) => t.name), ["a", "b", "c"]);
    assert.equal(result.nextCursor, undefined);
    assert.equal((await guarded.callTool({ name: "c", arguments: {} })).content[0].text, "called c");
    await assert.rejects(guarded.listTools({ cursor: "p2" }), (e) => e instanceof GuardError && e.kind === "invalid-cursor");
    // The wrapped SDK client's own listTools() is the guarded one: the whole
    // catalog, no cursor (the server's pages never reach the caller raw).
    const viaClient = await client.listTools();
    assert.deepEqual(viaClient.tools.map((t) => t.name), ["a", "b", "c"]);
    assert.equal(viaClient.nextCursor, undefined);
  } finally {
    await guarded.close();
  }
});

test("a cursor loop and an unusable listing fail closed, with nothing pinned", async () => {
  for (const [mode, kind] of [
    ["loop", "cursor-loop"],
    ["broken", "invalid-envelope"],
  ]) {
    const { guarded } = await stdio(pagedServer, [mode]);
    try {
      await assert.rejects(guarded.listTools(), (e) => e instanceof GuardError && e.kind === kind, mode);
      assert.equal(await guarded.store.get(guarded.sessionKey), undefined, mode);
      await refusedCall(guarded.callTool({ name: "t0", arguments: {} }), "unknown-tool");
    } finally {
      await guarded.close();
    }
  }
});

// Discovery (core.discovery): the client is served the core tools and three
// meta-tools; the gate answers search_tools / get_tool_schema itself and
// sends call_tool upstream as a call of the inner tool, or refuses it.
const DISCOVERY = { core: { discovery: { mode: "on", core_tools: ["echo"] } } };

test("discovery over server-everything: core + meta-tools served, meta-tools answered locally, call_tool reaches the inner tool", async () => {
  const { guarded, sent, events } = await stdio(everything, ["stdio"], { policy: DISCOVERY });
  try {
    const { tools } = await guarded.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["echo", "search_tools", "get_tool_schema", "call_tool"]);
    // The wrapped client's own listTools() is the guarded surface too.
    assert.deepEqual((await guarded.client.listTools()).tools.map((t) => t.name), tools.map((t) => t.name));
    // The server has many more tools (seen by a separate, unwrapped client).
    const plain = new Client({ name: "mcp-guard-js-e2e-plain", version: "1.0.0" });
    await plain.connect(new StdioClientTransport({ command: process.execPath, args: [everything, "stdio"], stderr: "ignore" }));
    const full = (await plain.listTools()).tools;
    await plain.close();
    assert.ok(full.length > 4 && full.some((t) => t.name === "get-sum"), full.map((t) => t.name).join(" "));
    assert.ok(guarded.guard.estimateTokens({ tools }) < guarded.guard.estimateTokens({ tools: full }));

    // search_tools and get_tool_schema: answered from the baseline, nothing sent.
    const found = await guarded.callTool({ name: "search_tools", arguments: { query: "add two numbers" } });
    assert.notEqual(found.isError, true);
    const hits = found.structuredContent.tools.map((t) => t.name);
    assert.ok(hits.includes("get-sum"), hits.join(" "));
    assert.match(found.content[0].text, /get-sum/);
    const schema = await guarded.callTool({ name: "get_tool_schema", arguments: { name: "get-sum" } });
    assert.equal(schema.structuredContent.name, "get-sum");
    assert.ok(schema.structuredContent.inputSchema.properties.a, JSON.stringify(schema.structuredContent));
    assert.deepEqual(sent, [], "the meta-tools never reach the server");
    assert.deepEqual(events.filter((e) => e.event === "call-answered").map((e) => e.name), ["search_tools", "get_tool_schema"]);

    // call_tool goes out as the inner tool, arguments coerced to its schema.
    const sum = await guarded.callTool({ name: "call_tool", arguments: { name: "get-sum", arguments: { a: 2, b: "3" } } });
    assert.match(sum.content[0].text, /\b5\b/);
    assert.deepEqual(sent, ["get-sum"]);
    // A core tool is called directly.
    assert.equal((await guarded.callTool({ name: "echo", arguments: { message: "core" } })).content[0].text, "Echo: core");
    assert.deepEqual(sent, ["get-sum", "echo"]);

    // Refused through call_tool: a meta-tool, an unknown name, a look-alike,
    // arguments that do not fit the inner tool. Nothing is sent.
    await refusedCall(guarded.callTool({ name: "call_tool", arguments: { name: "search_tools", arguments: { query: "x" } } }), "unknown-tool");
    await refusedCall(guarded.callTool({ name: "call_tool", arguments: { name: "call_tool", arguments: {} } }), "unknown-tool");
    await refusedCall(guarded.callTool({ name: "call_tool", arguments: { name: "delete_everything", arguments: {} } }), "unknown-tool");
    await refusedCall(guarded.callTool({ name: "call_tool", arguments: { name: "get-Sum", arguments: { a: 1, b: 2 } } }), "confusable-name");
    await refusedCall(guarded.callTool({ name: "call_tool", arguments: { name: "get\u2010sum", arguments: { a: 1, b: 2 } } }), "confusable-name");
    await refusedCall(guarded.callTool({ name: "call_tool", arguments: { name: "get-sum", arguments: { a: "two", b: 2 } } }), "invalid-arguments");
    // get_tool_schema of an unknown tool and a search without a query are refused too.
    await refusedCall(guarded.callTool({ name: "get_tool_schema", arguments: { name: "delete_everything" } }), "unknown-tool");
    await refusedCall(guarded.callTool({ name: "search_tools", arguments: {} }), "invalid-arguments");
    assert.deepEqual(sent, ["get-sum", "echo"], "refused calls never reach the server");

    // The same answers as data.
    const baseline = (await guarded.store.get(guarded.sessionKey)).baseline;
    assert.ok(guarded.guard.search(baseline, "add two numbers", 5).some((h) => h.name === "get-sum"));
    assert.deepEqual(guarded.guard.toolSchema(baseline, "get-sum"), schema.structuredContent);

    // Listing again is compared with the pin (the whole catalog behind the surface): no drift.
    assert.deepEqual((await guarded.listTools()).tools.map((t) => t.name), ["echo", "search_tools", "get_tool_schema", "call_tool"]);
    assert.deepEqual(guarded.lastListing.compared.drift, []);
  } finally {
    await guarded.close();
  }
});

test("a rug pull between two runs is caught by the pin kept in the store (trust on first use across runs)", async () => {
  // One store and one session key for two runs of a desktop client; the
  // server is updated between them (echo poisoned from the start).
  const store = new MemoryStore();
  const first = await stdio(testServer, [], { policy: INVALIDATE, store, sessionKey: "desktop" });
  try {
    await first.guarded.listTools();
    assert.ok(first.guarded.lastListing.pinned);
    assert.equal((await first.guarded.callTool({ name: "echo", arguments: { message: "a" } })).content[0].text, "Echo: a");
  } finally {
    await first.guarded.close();
  }
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [testServer],
    env: { ...process.env, RUG_FROM_START: "1" },
    stderr: "pipe",
  });
  const sent = recordCalls(transport);
  const client = new Client({ name: "mcp-guard-js-e2e", version: "1.0.0" });
  await client.connect(transport);
  const second = guardClient(client, { policy: INVALIDATE, store, sessionKey: "desktop" });
  try {
    // The first listing of this run is compared with the stored pin, not pinned afresh.
    await assert.rejects(second.listTools(), (e) => e instanceof ListingRefusedError && e.kind === "session-invalidated");
    assert.ok(second.lastListing.compared, "compared with the stored baseline");
    assert.deepEqual(second.lastListing.compared.drift, [{ kind: "changed", name: "echo" }]);
    assert.equal((await store.get("desktop")).state, "tombstone");
    await refusedCall(second.callTool({ name: "echo", arguments: { message: "b" } }), "session-invalidated");
    assert.deepEqual(sent, [], "nothing was called in the second run");
  } finally {
    await second.close();
  }
});
