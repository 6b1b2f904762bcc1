// Pins kept across sessions (pin_scope: persistent) in a real Envoy: one
// pin record per server identity (and principal) in the filter's shared
// data, compared with the first listing of every new session and every
// stateless 2026-07-28 client; what changed is held back (quarantine) until
// an operator approves it on the admin path.
//
// "The server changed between runs" is two upstreams behind two listeners
// that name the same `server`: one Envoy, one vm_id, so one store. The
// clients are the official SDKs: the Python `mcp` 2.x client (2026-07-28,
// stateless) and the TypeScript SDK 1.32.2 client (2025-11-25, sessions).
// The admin path is on a listener of its own, as envoy/README.md advises.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { upstream, envoy, stopAll, rejects, runPython } from "./harness.mjs";

const PYTHON = process.env.MCP_GUARD_PYTHON;
const TOKEN = crypto.randomBytes(24).toString("hex");
const ADMIN = { path: "/mcp-guard/pins", token_sha256: crypto.createHash("sha256").update(TOKEN).digest("hex") };
// No pinning mode: persistent scope makes it quarantine. Poisoning blocks,
// so `notes` is hidden (hidden tools are no part of the approval).
const policy = { core: { tool_poisoning: { mode: "block" } } };

let env;

before(async () => {
  assert.ok(PYTHON, "MCP_GUARD_PYTHON must name a Python with mcp 2.3.0 (scripts/test-envoy.sh sets it)");
  const [py1, py2, ts1, ts2] = await Promise.all([
    upstream([], "py-server.py", PYTHON),
    upstream(["--rugpull"], "py-server.py", PYTHON),
    upstream(),
    upstream(["--rugpull"]),
  ]);
  const pp = { policy, server: "pyp", principal_header: "x-principal" };
  env = await envoy([
    // Python client, one record per server.
    { name: "py1", upstreamPort: py1.port, filter: { policy, server: "py" } },
    { name: "py2", upstreamPort: py2.port, filter: { policy, server: "py" } },
    { name: "pyAdmin", upstreamPort: py1.port, filter: { policy, server: "py", admin: ADMIN } },
    // Python client, one record per principal (x-principal, which an
    // authn filter in front would set).
    { name: "pyp1", upstreamPort: py1.port, filter: pp },
    { name: "pyp2", upstreamPort: py2.port, filter: pp },
    { name: "pypAdmin", upstreamPort: py1.port, filter: { ...pp, admin: ADMIN } },
    // TypeScript client, 2025-11-25 sessions.
    { name: "ts1", upstreamPort: ts1.port, filter: { policy, server: "ts" } },
    { name: "ts2", upstreamPort: ts2.port, filter: { policy, server: "ts" } },
    { name: "tsAdmin", upstreamPort: ts1.port, filter: { policy, server: "ts", admin: ADMIN } },
  ]);
});

after(() => stopAll());

/** py-client.py through `listener` (as `principal`): its one JSON line. */
const pyClient = (listener, principal = "") =>
  runPython(PYTHON, "py-client.py", [`http://127.0.0.1:${env.ports[listener]}/mcp`, "", principal]);

/** An admin request on `listener`: { status, body (parsed JSON) }. */
async function adminCall(listener, method, suffix = "", body, token = TOKEN) {
  const headers = token === null ? {} : { authorization: `Bearer ${token}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const r = await fetch(`http://127.0.0.1:${env.ports[listener]}${ADMIN.path}${suffix}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: r.status, body: await r.json() };
}

/** The one record of `listener`'s server whose key is `key`. */
async function record(listener, key) {
  const r = await adminCall(listener, "GET");
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const hit = r.body.records.find((x) => x.key === key);
  assert.ok(hit, `no record ${key} in ${JSON.stringify(r.body)}`);
  return hit;
}

const quarantined = (e) => {
  assert.equal(e.code, -32602);
  assert.equal(e.data.reason, "quarantined");
};

test("python 2026-07-28: run 1 pins; after a rug pull a new client does not see echo and its call is refused until approved", async () => {
  // Run 1 (trust on first use): the record is made.
  const r1 = await pyClient("py1");
  assert.equal(r1.discovered, true, "a stateless 2026-07-28 client");
  assert.deepEqual(r1.tools, ["echo", "in_region"]);
  assert.deepEqual(r1.echo, ["Echo: hi"]);
  const rec = await record("pyAdmin", "py");
  assert.deepEqual(rec.approved, ["echo", "in_region"]);
  assert.deepEqual(rec.pending, []);

  // The server changed echo; a new client through the same server id.
  const r2 = await pyClient("py2");
  assert.deepEqual(r2.tools, ["in_region"], "the changed tool is held back");
  quarantined(r2.echo_error);
  assert.deepEqual(r2.in_region, ["eu-west1: q"], "unchanged tools keep working");

  // The operator reviews the change, then approves it.
  const shown = await adminCall("pyAdmin", "GET", `/${rec.id}`);
  assert.equal(shown.status, 200);
  const [p] = shown.body.pending;
  assert.equal(p.name, "echo");
  assert.equal(p.kind, "changed");
  assert.deepEqual(p.changes.map((c) => c.pointer), ["/description"]);
  assert.equal(p.approved_def.description, "Echoes the message back");
  assert.equal(p.def.description, "Echoes the message back, and keeps a copy of it");
  const ok = await adminCall("pyAdmin", "POST", `/${rec.id.slice(0, 12)}/approve`, { tools: ["echo"] });
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.approved, ["echo"]);

  const r3 = await pyClient("py2");
  assert.deepEqual(r3.tools, ["echo", "in_region"]);
  assert.deepEqual(r3.echo, ["Echo: hi"]);
  // Now the old definition is the one that changed (the record's pending
  // set follows the last listing: one server id must name one server).
  const r4 = await pyClient("py1");
  assert.deepEqual(r4.tools, ["in_region"]);
  quarantined(r4.echo_error);
});

test("typescript 2025-11-25: session 1 pins; a new session after the rug pull does not see echo, its call is refused, approval serves it", async () => {
  const connect = async (listener) => {
    const client = new Client({ name: "pins-e2e", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${env.ports[listener]}/mcp`)));
    return client;
  };
  let c = await connect("ts1");
  assert.deepEqual((await c.listTools()).tools.map((t) => t.name).sort(), ["echo", "mutate"]);
  assert.equal((await c.callTool({ name: "echo", arguments: { message: "hi" } })).content[0].text, "Echo: hi");
  await c.close();

  c = await connect("ts2");
  assert.deepEqual((await c.listTools()).tools.map((t) => t.name), ["mutate"]);
  await rejects(c.callTool({ name: "echo", arguments: { message: "hi" } }), quarantined);
  await c.close();
  // A new session that calls before listing anything is refused too: the
  // record alone gates it.
  c = await connect("ts2");
  await rejects(c.callTool({ name: "echo", arguments: { message: "hi" } }), quarantined);
  await c.close();

  const rec = await record("tsAdmin", "ts");
  assert.deepEqual(rec.pending, ["echo"]);
  // No body: approve everything pending.
  const ok = await adminCall("tsAdmin", "POST", `/${rec.id}/approve`);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.deepEqual(ok.body.pending, []);

  c = await connect("ts2");
  assert.deepEqual((await c.listTools()).tools.map((t) => t.name).sort(), ["echo", "mutate"]);
  assert.equal((await c.callTool({ name: "echo", arguments: { message: "hi" } })).content[0].text, "Echo: hi");
  await c.close();
});

test("two principals get separate records: alice's rug pull is held back, bob trusts his first listing", async () => {
  assert.deepEqual((await pyClient("pyp1", "alice")).tools, ["echo", "in_region"]);
  const bob = await pyClient("pyp2", "bob");
  assert.deepEqual(bob.tools, ["echo", "in_region"], "bob's first use pins the changed server");
  assert.deepEqual(bob.echo, ["Echo: hi"]);
  const alice = await pyClient("pyp2", "alice");
  assert.deepEqual(alice.tools, ["in_region"]);
  quarantined(alice.echo_error);
  const a = await record("pypAdmin", 'pyp principal="alice"');
  const b = await record("pypAdmin", 'pyp principal="bob"');
  assert.deepEqual([a.pending, b.pending], [["echo"], []]);
  assert.notEqual(a.id, b.id);
  // Forgetting alice's whole record: her next listing trusts on first use.
  const gone = await adminCall("pypAdmin", "POST", `/${a.id}/forget`);
  assert.equal(gone.status, 200, JSON.stringify(gone.body));
  assert.deepEqual((await pyClient("pyp2", "alice")).echo, ["Echo: hi"]);
});

/** A raw 2026-07-28 tools/list through `listener` with extra header lines ([name, value] pairs). */
function rawList(listener, extra) {
  const headers = { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list" };
  // An array value: Node writes one header line per element.
  for (const [k, v] of extra) headers[k] = k in headers ? [headers[k], v].flat() : v;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } });
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: env.ports[listener], path: "/mcp", method: "POST", headers }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

for (const [what, extra] of [
  ["without the principal", []],
  ["with an empty principal", [["x-principal", ""]]],
  ["with the principal header twice", [["x-principal", "alice"], ["x-principal", "bob"]]],
  ["with a principal over 256 bytes", [["x-principal", "a".repeat(257)]]],
]) {
  test(`a request ${what} is refused (403), never pinned under someone's record`, async () => {
    const r = await rawList("pyp1", extra);
    assert.equal(r.status, 403, r.text);
    assert.equal(JSON.parse(r.text).error.data.reason, "no-principal");
  });
}

test("the admin path wants the bearer token, and answers only for its own server's records", async () => {
  for (const token of [null, "wrong", `${TOKEN}x`]) {
    const r = await adminCall("pyAdmin", "GET", "", undefined, token);
    assert.equal(r.status, 401, `token ${token}`);
  }
  const bad = await adminCall("pyAdmin", "POST", "/0123456789abcdef/approve", { tools: ["echo"] });
  assert.equal(bad.status, 404);
  // The TypeScript server's record is not listed under the Python server's path.
  const r = await adminCall("pyAdmin", "GET");
  assert.deepEqual(r.body.records.map((x) => x.key), ["py"]);
  assert.equal(r.body.server, "py");
});

test("the filter logged the held-back listing, the record writes and the approvals", () => {
  const log = fs.readFileSync(env.logFile, "utf8");
  assert.match(log, /"event":"listing"[^\n]*"baseline":"compared"[^\n]*"changed":\["echo"\][^\n]*"protocol":"2026-07-28"[^\n]*"quarantined":\["echo"\]/);
  assert.match(log, /"event":"pins-saved"[^\n]*"key":"py"/);
  assert.match(log, /"event":"pins-approved"[^\n]*"key":"ts"/);
  assert.match(log, /"event":"admin-refused"/);
  assert.doesNotMatch(log, /"event":"(request-failed|response-dropped|server-line-dropped)"/);
});
