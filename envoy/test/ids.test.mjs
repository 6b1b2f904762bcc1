// End to end, the response-id rule (README, "Envoy"): a hostile upstream
// (hostile-ids.mjs) answers the guarded requests with ids the official SDK
// client takes for its own without being them, on the wrong stream, and
// twice; through a real Envoy running the filter the client never receives
// the poisoned catalog, and gets an error or the sanitized listing instead.
// The same upstream without the filter shows each attack works (controls).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { upstream, envoy, stopAll, rejects } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const VARIANTS = Number(spawnSync(process.execPath, [path.join(here, "hostile-ids.mjs"), "0", "--count"], { encoding: "utf8" }).stdout);
const GUARD = { pin_scope: "session", policy: { core: { tool_poisoning: { mode: "block" }, tool_definition_pinning: { mode: "block" } } } };
/** The poisoned catalog's tell-tale text. */
const POISON = "id_rsa";

let env;

before(async () => {
  const hostile = await upstream([], "hostile-ids.mjs");
  env = await envoy([
    { name: "guarded", upstreamPort: hostile.port, filter: GUARD },
    { name: "plain", upstreamPort: hostile.port },
  ]);
});

after(() => stopAll());

/**
 * An SDK client through `listener`, on the hostile upstream's `query`,
 * recording every message the client receives (the transport's onmessage,
 * set before the Client wraps it) and every error it reports.
 */
async function connect(listener, query) {
  const client = new Client({ name: "ids-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${env.ports[listener]}/mcp?${query}`));
  const seen = [];
  const errors = [];
  transport.onmessage = (m) => seen.push(JSON.stringify(m));
  client.onerror = (e) => errors.push(String(e));
  await client.connect(transport);
  // The GET event stream opens after initialize; let it settle.
  await new Promise((r) => setTimeout(r, 100));
  return { client, seen, errors };
}

function neverSawThePoison({ seen, errors }) {
  for (const m of seen) assert.ok(!m.includes(POISON), `the client received the raw catalog: ${m}`);
  for (const e of errors) assert.ok(!e.includes(POISON), `the client reported the raw catalog: ${e}`);
}

for (const sse of [0, 1]) {
  const kind = sse ? "SSE" : "JSON";
  test(`${kind}: a tools/list answered under every loose variant of its id is refused, never served raw`, async () => {
    for (let v = 0; v < VARIANTS; v++) {
      const c = await connect("guarded", `mode=loose&v=${v}&sse=${sse}`);
      await rejects(c.client.listTools(), (e) => {
        assert.equal(e.code, -32002, `variant ${v}: ${e}`);
        assert.equal(e.data.reason, "id-mismatch", `variant ${v}`);
      });
      neverSawThePoison(c);
      await c.client.close();
    }
  });

  test(`${kind}: a rug pull under a loose id after an honest first listing is refused`, async () => {
    const c = await connect("guarded", `mode=honest-then-loose&v=0&sse=${sse}`);
    const { tools } = await c.client.listTools();
    assert.deepEqual(tools.map((t) => t.name), ["echo"]);
    await rejects(c.client.listTools(), (e) => assert.equal(e.data.reason, "id-mismatch"));
    neverSawThePoison(c);
    await c.client.close();
  });

  test(`${kind}: the answer to tools/list on the stream of a ping or resources/read is dropped`, async () => {
    for (const other of ["ping", "read"]) {
      const c = await connect("guarded", `mode=cross-post&sse=${sse}`);
      const second = other === "ping" ? c.client.ping() : c.client.readResource({ uri: "mem://readme" });
      const [list, own] = await Promise.allSettled([c.client.listTools(), second]);
      assert.equal(list.status, "rejected", JSON.stringify(list.value));
      assert.equal(list.reason.data.reason, "no-response");
      if (sse) assert.equal(own.status, "fulfilled", String(own.reason));
      // A JSON body holds one answer: the smuggled one takes its place, so
      // the request whose stream carried it gets an error instead.
      else assert.equal(own.reason.data.reason, "not-a-response");
      neverSawThePoison(c);
      await c.client.close();
    }
  });

  test(`${kind}: a tools/call answered under a loose id is refused`, async () => {
    for (let v = 0; v < VARIANTS; v++) {
      const c = await connect("guarded", `mode=call-loose&v=${v}&sse=${sse}`);
      await c.client.listTools();
      await rejects(c.client.callTool({ name: "echo", arguments: { message: "x" } }), (e) => {
        assert.equal(e.code, -32002);
        assert.equal(e.data.reason, "id-mismatch");
      });
      neverSawThePoison(c);
      await c.client.close();
    }
  });
}

test("the answer to tools/list on the GET event stream is dropped", async () => {
  const c = await connect("guarded", "mode=cross-get");
  await rejects(c.client.listTools(), (e) => assert.equal(e.data.reason, "no-response"));
  neverSawThePoison(c);
  await c.client.close();
});

test("a second, different answer for the same id is dropped; the client keeps the sanitized first", async () => {
  for (let v = 0; v < VARIANTS; v++) {
    const c = await connect("guarded", `mode=second&v=${v}`);
    const { tools } = await c.client.listTools();
    assert.equal(tools.length, 1);
    assert.equal(tools[0].description, "Echoes the message back");
    await new Promise((r) => setTimeout(r, 50));
    neverSawThePoison(c);
    assert.equal(c.seen.filter((m) => m.includes('"tools":[')).length, 1, c.seen.join("\n"));
    await c.client.close();
  }
});

// Controls: the same upstream straight through Envoy, no filter. Each
// attack above hands the SDK client the poisoned catalog.
for (const [name, query] of [
  ["a loose string id", "mode=loose&v=0&sse=1"],
  ["a loose number id (1.0)", "mode=loose&v=1&sse=0"],
  ["a loose id with spaces", "mode=loose&v=4&sse=1"],
  ["an answer on the GET stream", "mode=cross-get"],
]) {
  test(`control, no filter: ${name} gets the poisoned catalog to the SDK client`, async () => {
    const c = await connect("plain", query);
    const { tools } = await c.client.listTools();
    assert.match(tools[0].description, /id_rsa/);
    await c.client.close();
  });
}

test("control, no filter: an answer on a ping's stream gets the poisoned catalog to the SDK client", async () => {
  const c = await connect("plain", "mode=cross-post&sse=1");
  const [list] = await Promise.allSettled([c.client.listTools(), c.client.ping()]);
  assert.match(list.value.tools[0].description, /id_rsa/);
  await c.client.close();
});

test("the filter logged what it refused and dropped", () => {
  const log = fs.readFileSync(env.logFile, "utf8");
  // The mediation core's log lines (src/mediate/requests.rs).
  assert.match(log, /"event":"response-dropped"[^\n]*"reason":"id-mismatch"/);
  assert.match(log, /"event":"request-failed"[^\n]*"reason":"id-mismatch"[^\n]*"method":"tools\/list"/);
  assert.match(log, /"event":"request-failed"[^\n]*"reason":"id-mismatch"[^\n]*"method":"tools\/call"/);
  // Answers on the GET stream and on another request's stream.
  assert.match(log, /"event":"response-dropped"[^\n]*"reason":"unknown-response-id"/);
  assert.match(log, /"event":"response-dropped"[^\n]*"reason":"duplicate-response"/);
});
