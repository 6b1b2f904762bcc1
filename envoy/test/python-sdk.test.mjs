// End to end, MCP protocol 2026-07-28 through the filter: the official
// Python SDK (`mcp` 2.x) on both sides — its Streamable HTTP server behind a
// real Envoy running the filter, and `mcp.client.Client` in its default
// mode, which discovers the server (`server/discover`) and then sends
// stateless requests: no initialize, no Mcp-Session-Id, the version and
// capabilities in each request's `_meta`. The listing is guarded (the
// poisoned tool hidden) and a call succeeds, as with a 2025 session.
//
// The same client through a guard that prefixes tool names (server_prefix)
// calls `py__echo`; the filter sends the call upstream as `echo`, in the
// body and in the `Mcp-Name` header, which the SDK server checks against
// the body (-32020 otherwise). Requests whose `Mcp-Method` / `Mcp-Name`
// headers disagree with the body, or carry one twice, are refused with
// HTTP 400 and -32020 before anything reaches the server.
//
// MCP_GUARD_PYTHON: a Python with `mcp` 2.3.0 (scripts/test-envoy.sh
// installs it into its venv).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import { upstream, envoy, stopAll, runPython } from "./harness.mjs";

const PYTHON = process.env.MCP_GUARD_PYTHON;
const policy = { core: { tool_poisoning: { mode: "block" }, tool_definition_pinning: { mode: "block" } } };

let env;

before(async () => {
  assert.ok(PYTHON, "MCP_GUARD_PYTHON must name a Python with mcp 2.3.0 (scripts/test-envoy.sh sets it)");
  const sse = await upstream([], "py-server.py", PYTHON);
  const json = await upstream(["--json"], "py-server.py", PYTHON);
  // One `server` id each: without sessions every client of a server shares
  // one baseline, and the two upstreams must not share theirs.
  env = await envoy([
    { name: "sse", upstreamPort: sse.port, filter: { policy, server: "py-sse" } },
    { name: "json", upstreamPort: json.port, filter: { policy, server: "py-json" } },
    { name: "prefixed", upstreamPort: json.port, filter: { policy: { ...policy, core: { ...policy.core, tool_names: { server_prefix: true } } }, server: "py" } },
    { name: "plain", upstreamPort: sse.port },
  ]);
});

after(() => stopAll());

/** py-client.py through `listener`: its one JSON line. */
const pyClient = (listener, prefix = "") =>
  runPython(PYTHON, "py-client.py", [`http://127.0.0.1:${env.ports[listener]}/mcp`, prefix]);

for (const mode of ["sse", "json"]) {
  test(`${mode}: the Python SDK client in its default (2026-07-28) mode lists and calls through the filter`, async () => {
    // Twice: the first listing pins, the second compares with it.
    for (let i = 0; i < 2; i++) {
      const r = await pyClient(mode);
      assert.equal(r.discovered, true, "the client settled on 2026-07-28 (server/discover), not the legacy handshake");
      assert.deepEqual(r.tools, ["echo", "in_region"], "the poisoned tool is hidden");
      assert.deepEqual(r.echo, ["Echo: hi"]);
      // The served listing kept `x-mcp-header`: the client sent the header
      // the server requires, so the call went through.
      assert.deepEqual(r.in_region, ["eu-west1: q"]);
      assert.equal(r.notes_error.code, -32602);
      assert.equal(r.notes_error.data.reason, "hidden-tool");
    }
  });
}

test("mapped names: the client calls py__echo, the server runs echo (body and Mcp-Name rewritten together)", async () => {
  const r = await pyClient("prefixed", "py__");
  assert.deepEqual(r.listed, ["py__echo", "py__in_region"]);
  assert.deepEqual(r.echo, ["Echo: hi"]);
  // The x-mcp-header parameter still travels: Mcp-Param-Region is the
  // client's, checked by the server against the (unchanged) arguments.
  assert.deepEqual(r.in_region, ["eu-west1: q"]);
  // A hidden tool has no mapped name: py__notes names nothing listed.
  assert.equal(r.notes_error.code, -32602);
  assert.equal(r.notes_error.data.reason, "unknown-tool");
});

/** A raw 2026-07-28 POST through `listener` with `headers` ([name, value] pairs; a name given twice is sent as two header lines). */
function post(listener, headers, body) {
  return new Promise((resolve, reject) => {
    const h = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    // An array value: Node writes one header line per element.
    for (const [k, v] of headers) h[k] = k in h ? [h[k], v].flat() : v;
    const req = http.request({ host: "127.0.0.1", port: env.ports[listener], path: "/mcp", method: "POST", headers: h }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode, text }));
    });
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
const callBody = (name) => ({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name, arguments: { message: "x" }, _meta: META } });
const V = ["mcp-protocol-version", "2026-07-28"];

for (const [what, headers, body, header] of [
  ["a forged Mcp-Name (header echo, body notes)", [V, ["mcp-method", "tools/call"], ["mcp-name", "echo"]], callBody("notes"), "mcp-name"],
  ["a forged Mcp-Name (header notes, body echo)", [V, ["mcp-method", "tools/call"], ["mcp-name", "notes"]], callBody("echo"), "mcp-name"],
  ["a forged Mcp-Method (header tools/list, body tools/call)", [V, ["mcp-method", "tools/list"], ["mcp-name", "echo"]], callBody("echo"), "mcp-method"],
  ["Mcp-Name sent twice", [V, ["mcp-method", "tools/call"], ["mcp-name", "echo"], ["mcp-name", "echo"]], callBody("echo"), "mcp-name"],
  ["Mcp-Method sent twice", [V, ["mcp-method", "tools/call"], ["mcp-method", "tools/call"], ["mcp-name", "echo"]], callBody("echo"), "mcp-method"],
  ["a 2026-07-28 call without Mcp-Name", [V, ["mcp-method", "tools/call"]], callBody("echo"), "mcp-name"],
]) {
  test(`${what} is refused with 400 / -32020 before it leaves`, async () => {
    const r = await post("sse", headers, body);
    assert.equal(r.status, 400, r.text);
    const m = JSON.parse(r.text);
    assert.equal(m.id, 7);
    assert.equal(m.error.code, -32020);
    assert.equal(m.error.data.header, header);
  });
}

test("control, no filter: the SDK server itself refuses a forged Mcp-Name (the check the filter makes before it)", async () => {
  const r = await post("plain", [V, ["mcp-method", "tools/call"], ["mcp-name", "notes"]], callBody("echo"));
  assert.equal(r.status, 400, r.text);
  assert.equal(JSON.parse(r.text).error.code, -32020);
});

test("control, no filter: the same client sees the poisoned tool", async () => {
  const r = await pyClient("plain");
  assert.equal(r.discovered, true);
  assert.deepEqual(r.tools, ["echo", "in_region", "notes"]);
  assert.deepEqual(r.in_region, ["eu-west1: q"]);
  assert.equal(r.notes_error, null);
});

test("the filter pinned and compared the stateless listings", () => {
  const log = fs.readFileSync(env.logFile, "utf8");
  assert.match(log, /"event":"listing"[^\n]*"baseline":"pinned"[^\n]*"hidden":\["notes"\][^\n]*"protocol":"2026-07-28"/);
  assert.match(log, /"event":"listing"[^\n]*"baseline":"compared"[^\n]*"decision":"served"/);
  assert.match(log, /"event":"request-refused"[^\n]*"reason":"header-repeated"/);
  assert.match(log, /"event":"request-refused"[^\n]*"reason":"header-mismatch"/);
  // The SDK server's answers meet the response-id rule: none dropped or failed.
  assert.doesNotMatch(log, /"event":"(request-failed|response-dropped|server-line-dropped)"/);
});
