// JSON-RPC id confusion against guardClient, end to end: the official MCP
// TypeScript SDK Client (1.32) wrapped by the package, on a hostile stdio
// server (servers/hostile-ids.mjs) that answers every guarded request under
// each id spelling a client might take for the request's id, and with a
// second, different answer for the same id.
//
// What the SDK would do with them (Protocol._onresponse looks the handler up
// by `Number(id)`, so `"1"`, `1.0`, `1e0`, `" 1 "`, `" 0x1 "` and `"1.0"` all
// answer request 1) no longer matters: the wrapper's transport is mediated,
// so the server only ever sees ids the mediator minted (`"mcp-guard-<uuid>-<n>"`,
// strings that read as no number), an answer is taken only under such an id
// exactly (a second one is dropped), and the SDK gets it back under its own
// id. The loose spellings against the mediator itself are the conformance
// cases `loose-id-answer-*` (test/mediation.test.mjs). These tests hold the
// wrapper to what the SDK's caller sees: every listing judged by the engine,
// only gated tools/call requests on the wire, whatever the server writes.
import { test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallToolResultSchema, McpError, ResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CallRefusedError, ListingRefusedError, guardClient } from "../mcp.js";
import { here } from "./helpers.mjs";

const hostile = join(here, "servers/hostile-ids.mjs");
const VARIANTS = ["exact", "string", "float", "exp", "padded", "hex", "string-float"];
const POLICY = {
  core: {
    tool_poisoning: { mode: "block" },
    tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "invalidate" },
  },
};

/** Fails if `value` (a served result, an error, anything) holds what the engine removes. */
function assertNoPoison(value, what) {
  const text = JSON.stringify(value) ?? "";
  assert.ok(!text.includes("id_rsa"), `${what} carries the poisoned text: ${text}`);
  assert.ok(!/[\u200b]|[\u{e0000}-\u{e007f}]/u.test(text), `${what} carries hidden characters: ${text}`);
}

/** Starts the hostile server; the client's tools/* messages on the wire are recorded. */
async function connect(variant, scenario, { wrapBeforeConnect = false, clientOptions, guardOptions = {} } = {}) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [hostile, variant, scenario], stderr: "pipe" });
  const wire = [];
  const send = transport.send.bind(transport);
  transport.send = (msg, opts) => {
    if (msg.method?.startsWith("tools/")) wire.push(`${msg.method} ${msg.params?.name ?? ""}`.trim());
    return send(msg, opts);
  };
  const client = new Client({ name: "mcp-guard-ids", version: "1.0.0" }, clientOptions);
  const events = [];
  const opts = { policy: POLICY, onEvent: (e) => events.push(e), ...guardOptions };
  let guarded;
  if (wrapBeforeConnect) guarded = guardClient(client, opts);
  await client.connect(transport);
  guarded ??= guardClient(client, opts);
  return { client, guarded, wire, events };
}

function changed() {
  let resolve;
  const promise = new Promise((r) => (resolve = r));
  const timer = setTimeout(() => resolve({ error: new Error("no tools/list_changed within 10 s") }), 10_000);
  return {
    promise,
    report: (error, result) => {
      clearTimeout(timer);
      resolve({ error, result });
    },
  };
}

for (const variant of VARIANTS) {
  test(`a listing answered under the id ${variant} is judged by the engine, and the rug pull under it is refused`, async () => {
    const seen = changed();
    const { guarded, wire } = await connect(variant, "rug", { guardOptions: { onToolsChanged: seen.report } });
    try {
      const served = await guarded.listTools();
      assertNoPoison(served, "the served listing");
      assert.ok(guarded.lastListing.pinned, "the answer the SDK took went through the engine (pinned)");
      assert.deepEqual(served.tools.map((t) => t.name), ["echo"], "notes and search are hidden");

      const r = await guarded.callTool({ name: "echo", arguments: { message: "hi" } });
      assert.equal(r.content[0].text, "called echo");
      await assert.rejects(guarded.callTool({ name: "notes", arguments: {} }), (e) => e instanceof CallRefusedError && e.kind === "hidden-tool");

      // The server announces the rug pull; the wrapper re-lists under the same id spelling.
      const { error, result } = await seen.promise;
      assert.ok(error instanceof ListingRefusedError, `expected a refusal, got ${error?.stack ?? JSON.stringify(result)}`);
      assert.equal(error.kind, "session-invalidated");
      assert.equal(result, undefined);
      assertNoPoison(error.message, "the refusal");
      await assert.rejects(guarded.callTool({ name: "echo", arguments: { message: "x" } }), (e) => e instanceof CallRefusedError && e.kind === "session-invalidated");
      assert.deepEqual(wire, ["tools/list", "tools/call echo", "tools/list"], "refused calls never reached the wire");
    } finally {
      await guarded.close();
    }
  });

  test(`two answers for one id (${variant} first, with poisoned tools): the caller gets the engine's judgment of the one the SDK took`, async () => {
    const { guarded, wire } = await connect(variant, "raw-first");
    try {
      // The SDK takes the first answer under every spelling here (Number(id)),
      // so the engine pins the poisoned catalog: notes and search hidden.
      const served = await guarded.listTools();
      assertNoPoison(served, "the served listing");
      assert.deepEqual(served.tools.map((t) => t.name), ["echo"]);
      assert.deepEqual(guarded.lastListing.pinned.outcome.hidden.map((h) => h.name).sort(), ["notes", "search"]);
      // The same catalog again: the second answer of the first listing was
      // dropped, not taken for the re-list.
      const again = await guarded.listTools();
      assertNoPoison(again, "the re-list");
      assert.deepEqual(guarded.lastListing.compared.drift, []);
      const r = await guarded.callTool({ name: "echo", arguments: { message: "hi" } });
      assert.equal(r.content[0].text, "first");
      assert.deepEqual(wire, ["tools/list", "tools/list", "tools/call echo"]);
    } finally {
      await guarded.close();
    }
  });

  test(`two answers for one id (exact first, then ${variant} with the rug pull) and an unsolicited answer for the next id: neither is taken`, async () => {
    const { guarded, wire } = await connect(variant, "exact-first");
    try {
      const served = await guarded.listTools();
      assertNoPoison(served, "the served listing");
      assert.equal(served.tools.find((t) => t.name === "echo").description, "Echoes the message back");
      // The re-list gets the next id, which the server had already "answered"
      // with the rug pull before it was asked: dropped as unknown by the SDK,
      // so the honest answer is compared and nothing drifted.
      const again = await guarded.listTools();
      assert.deepEqual(guarded.lastListing.compared.drift, []);
      assertNoPoison(again, "the re-list");
      const r = await guarded.callTool({ name: "echo", arguments: { message: "hi" } });
      assert.equal(r.content[0].text, "first");
      assert.deepEqual(wire, ["tools/list", "tools/list", "tools/call echo"]);
    } finally {
      await guarded.close();
    }
  });
}

test("every path of the SDK client is mediated once wrapped: listTools, callTool, raw requests, the listChanged auto-refresh", async () => {
  const seen = changed();
  const { client, guarded, wire } = await connect("string", "rug", {
    wrapBeforeConnect: true,
    // The SDK's own list_changed handler (installed at connect, over the
    // wrapper's) re-lists with client.listTools() and hands the tools to the host.
    clientOptions: { listChanged: { tools: { autoRefresh: true, onChanged: seen.report } } },
  });
  try {
    // A raw tools/list goes through the guarded transport like any other:
    // the SDK gets the engine's judgment of the listing, never the raw one.
    const raw = await client.request({ method: "tools/list" }, ResultSchema);
    assertNoPoison(raw, "a raw tools/list");
    assert.deepEqual(raw.tools.map((t) => t.name), ["echo"]);
    assert.ok(guarded.lastListing.pinned, "the raw listing was pinned");

    // client.listTools() is the guarded listing (compared with that pin).
    const served = await client.listTools();
    assertNoPoison(served, "client.listTools()");
    assert.deepEqual(guarded.lastListing.compared.drift, []);
    assert.equal(served.resultType, "complete");

    // client.callTool() is gated, and so is a raw tools/call: refused by the
    // call gate, never sent.
    await assert.rejects(client.callTool({ name: "notes", arguments: {} }), (e) => e instanceof CallRefusedError && e.kind === "hidden-tool");
    await assert.rejects(
      client.request({ method: "tools/call", params: { name: "notes", arguments: {} } }, CallToolResultSchema),
      (e) => e instanceof McpError && e.data?.reason === "hidden-tool",
    );
    const r = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    assert.equal(r.content[0].text, "called echo");

    // The SDK's auto-refresh (list_changed after that call) goes through the
    // guard too: it waits for the mediator's own re-list, which closed the
    // session, so the host's onChanged gets the refusal, never the rug pull.
    const { error, result } = await seen.promise;
    assert.ok(error instanceof ListingRefusedError, `expected a refusal, got ${error?.stack ?? JSON.stringify(result)}`);
    assert.equal(error.kind, "session-invalidated");
    assert.equal(result, null);
    assert.deepEqual(wire, ["tools/list", "tools/list", "tools/call echo", "tools/list"]);
  } finally {
    await guarded.close();
  }
});

test("a client is wrapped once: a second guardClient on it is refused", async () => {
  const client = new Client({ name: "x", version: "1" });
  guardClient(client);
  assert.throws(() => guardClient(client), TypeError);
});

test("the served listing keeps MCP 2026-07-28's result fields (resultType, ttlMs, cacheScope, _meta)", async () => {
  const { guarded } = await connect("exact", "rug");
  try {
    const served = await guarded.listTools();
    assert.equal(served.resultType, "complete");
    assert.equal(served.ttlMs, 60000);
    assert.equal(served.cacheScope, "private");
    assert.deepEqual(served._meta, { "example.com/trace": "t-1" });
    assert.equal(served.nextCursor, undefined);
  } finally {
    await guarded.close();
  }
});
