// End-to-end: `mcp-guard proxy` between the official MCP TypeScript SDK
// client and real servers (server-everything from npm, and the SDK-based
// mutating-server.mjs beside this file). Run by scripts/test-proxy.sh, which
// builds the binary and passes it as MCP_GUARD_BIN.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { nextListChanged, refused } from "./helpers.mjs";
import { CreateMessageRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.MCP_GUARD_BIN ?? resolve(here, "../../../target/debug/mcp-guard");
const require = createRequire(import.meta.url);
const everything = join(dirname(require.resolve("@modelcontextprotocol/server-everything/package.json")), "dist/index.js");
const mutating = join(here, "mutating-server.mjs");
const work = mkdtempSync(join(tmpdir(), "mcp-guard-proxy-"));

const INVALIDATE = {
  core: { tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "invalidate" } },
};
const SUBSET = { core: { tool_definition_pinning: { mode: "block", block_strategy: "baseline_subset" } } };
const POISON_BLOCK = { core: { tool_poisoning: { mode: "block" } } };

function policyFile(name, policy) {
  const p = join(work, `${name}.json`);
  writeFileSync(p, JSON.stringify(policy));
  return p;
}

let stores = 0;

/** A connected SDK client whose server is `mcp-guard proxy [opts] -- node server [args]`.
 * Pins are kept across runs (the proxy's default) in a store of this test's
 * own unless `opts` names one or the session scope. */
async function connect({ server, serverArgs = [], opts = [], capabilities = {} }) {
  const own = opts.includes("--pins") || opts.includes("--pin-scope");
  const store = own ? [] : ["--pins", join(work, `pins-${stores++}`)];
  const transport = new StdioClientTransport({
    command: bin,
    args: ["proxy", ...store, ...opts, "--", process.execPath, server, ...serverArgs],
    stderr: "pipe", // the proxy's JSON log lines and the server's own stderr
  });
  const stderr = [];
  transport.stderr?.on("data", (d) => stderr.push(d.toString()));
  const client = new Client({ name: "mcp-guard-e2e", version: "1.0.0" }, { capabilities });
  await client.connect(transport);
  return { client, stderr };
}

test("server-everything through the proxy: list, call, progress, sampling, gate", async () => {
  const log = join(work, "everything.log");
  const { client } = await connect({
    server: everything,
    serverArgs: ["stdio"],
    opts: ["--log", log],
    capabilities: { sampling: {} },
  });
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    model: "test-model",
    content: { type: "text", text: "sampled through the proxy" },
  }));
  try {
    const { tools, nextCursor } = await client.listTools();
    const names = tools.map((t) => t.name);
    assert.ok(names.includes("echo") && names.includes("get-sum"), names.join(" "));
    assert.equal(nextCursor, undefined);

    const echo = await client.callTool({ name: "echo", arguments: { message: "through mcp-guard" } });
    assert.equal(echo.content[0].text, "Echo: through mcp-guard");
    const sum = await client.callTool({ name: "get-sum", arguments: { a: 2, b: 3 } });
    assert.match(sum.content[0].text, /5/);

    // Progress notifications stream through while the call is open.
    const progress = [];
    const long = await client.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.3, steps: 3 } },
      undefined,
      { onprogress: (p) => progress.push(p.progress) },
    );
    assert.match(long.content[0].text, /completed/);
    // In order and passed through while the call is open. The server may
    // send its last step's notification after the result under load, so
    // the last one is not required (it raced the answer in a CI run).
    assert.ok(progress.length >= 2, `progress: ${progress}`);
    assert.deepEqual(progress, [1, 2, 3].slice(0, progress.length));

    // A request from the server to the client (sampling) and its answer.
    // (server-everything registers this tool once it saw the client's
    // sampling capability, before it answers initialize.)
    assert.ok(names.includes("trigger-sampling-request"), names.join(" "));
    const sampled = await client.callTool({ name: "trigger-sampling-request", arguments: { prompt: "hi", maxTokens: 5 } });
    assert.match(JSON.stringify(sampled.content), /sampled through the proxy/);

    // Unrelated methods pass (with their own pagination).
    const { resources } = await client.listResources();
    assert.ok(resources.length > 0);

    // The call gate: never listed, look-alike, wrong arguments.
    await refused(client.callTool({ name: "delete_everything", arguments: {} }), -32602, "unknown-tool");
    await refused(client.callTool({ name: "Echo", arguments: { message: "x" } }), -32602, "confusable-name");
    await refused(client.callTool({ name: "echo", arguments: { message: 42 } }), -32602, "invalid-arguments");
  } finally {
    await client.close();
  }
  const events = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(events.some((e) => e.event === "listing" && e.decision === "served"));
  assert.ok(events.some((e) => e.event === "call-refused" && e.reason === "unknown-tool"));
});

test("rug pull under block/error/invalidate: the re-list is refused and the session is dead", async () => {
  const { client, stderr } = await connect({ server: mutating, opts: ["--policy", policyFile("invalidate", INVALIDATE)] });
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["echo", "mutate", "notes"]);
    assert.equal((await client.callTool({ name: "echo", arguments: { message: "a" } })).content[0].text, "Echo: a");

    const changed = nextListChanged(client);
    await client.callTool({ name: "mutate", arguments: {} });
    await changed; // forwarded by the proxy

    await refused(client.listTools(), -32001, "session-invalidated");
    await refused(client.callTool({ name: "echo", arguments: { message: "b" } }), -32602, "session-invalidated");
    await refused(client.callTool({ name: "mutate", arguments: {} }), -32602, "session-invalidated");
  } finally {
    await client.close();
  }
  assert.match(stderr.join(""), /"event":"session-invalidated"/);
});

test("rug pull under baseline_subset: the changed tool disappears and its call is refused", async () => {
  const { client } = await connect({ server: mutating, opts: ["--policy", policyFile("subset", SUBSET)] });
  try {
    await client.listTools();
    const changed = nextListChanged(client);
    await client.callTool({ name: "mutate", arguments: {} });
    await changed;

    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["mutate", "notes"]);
    await refused(client.callTool({ name: "echo", arguments: { message: "b" } }), -32602, "drifted-tool");
    // Unchanged tools still work.
    assert.equal((await client.callTool({ name: "mutate", arguments: {} })).content[0].text, "mutated");
  } finally {
    await client.close();
  }
});

test("a poisoned tool hidden by tool_poisoning: block cannot be called", async () => {
  const { client } = await connect({ server: mutating, opts: ["--policy", policyFile("poison", POISON_BLOCK)] });
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ["echo", "mutate"]);
    await refused(client.callTool({ name: "notes", arguments: { sidenote: "x" } }), -32602, "hidden-tool");
  } finally {
    await client.close();
  }
});

test("the proxy exits with the server's exit code and keeps stdout for the protocol", () => {
  const script = "console.log('not json'); console.log(JSON.stringify({jsonrpc:'2.0',method:'notifications/message',params:{level:'info',data:'x'}})); process.exit(3)";
  const r = spawnSync(bin, ["proxy", "--", process.execPath, "-e", script], { input: "", encoding: "utf8", timeout: 20_000 });
  assert.equal(r.status, 3, r.stderr);
  assert.equal(r.stdout, '{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"x"}}\n');
  assert.match(r.stderr, /"event":"server-line-dropped"/);
});

test("discovery surface through the proxy: server-everything reached via search_tools, get_tool_schema, call_tool", async () => {
  const policy = policyFile("discovery", { core: { discovery: { mode: "on", core_tools: ["echo"] } } });
  const { client } = await connect({ server: everything, serverArgs: ["stdio"], opts: ["--policy", policy] });
  try {
    const listed = (await client.listTools()).tools.map((t) => t.name);
    assert.deepEqual(listed, ["echo", "search_tools", "get_tool_schema", "call_tool"]);
    // Find a non-core tool by describing the task.
    const found = await client.callTool({ name: "search_tools", arguments: { query: "add two numbers" } });
    const names = found.structuredContent.tools.map((t) => t.name);
    assert.ok(names.includes("get-sum"), `search results: ${names}`);
    const schema = await client.callTool({ name: "get_tool_schema", arguments: { name: "get-sum" } });
    assert.ok(schema.structuredContent.inputSchema.properties.a, JSON.stringify(schema.structuredContent));
    // call_tool reaches the real server through the call gate.
    const sum = await client.callTool({ name: "call_tool", arguments: { name: "get-sum", arguments: { a: 2, b: 3 } } });
    assert.match(JSON.stringify(sum.content), /5/);
    // The core tool stays directly callable.
    const echoed = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    assert.match(JSON.stringify(echoed.content), /hi/);
    // Refusals: unknown tool, a meta-tool through call_tool, bad arguments.
    await refused(client.callTool({ name: "call_tool", arguments: { name: "no-such", arguments: {} } }), -32602, "unknown-tool");
    await refused(client.callTool({ name: "call_tool", arguments: { name: "search_tools", arguments: {} } }), -32602, "unknown-tool");
    await refused(client.callTool({ name: "call_tool", arguments: { name: "get-sum", arguments: { a: "x" } } }), -32602, "invalid-arguments");
  } finally {
    await client.close();
  }
});
