// End to end, MCP protocol 2026-07-28 through the filter: the official
// Python SDK (`mcp` 2.x) on both sides — its Streamable HTTP server behind a
// real Envoy running the filter, and `mcp.client.Client` in its default
// mode, which discovers the server (`server/discover`) and then sends
// stateless requests: no initialize, no Mcp-Session-Id, the version and
// capabilities in each request's `_meta`. The listing is guarded (the
// poisoned tool hidden) and a call succeeds, as with a 2025 session.
//
// MCP_GUARD_PYTHON: a Python with `mcp` 2.3.0 (scripts/test-envoy.sh
// installs it into its venv).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { upstream, envoy, stopAll } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
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
    { name: "plain", upstreamPort: sse.port },
  ]);
});

after(() => stopAll());

/** py-client.py through `listener`: its one JSON line. */
async function pyClient(listener) {
  const child = spawn(PYTHON, [path.join(here, "py-client.py"), `http://127.0.0.1:${env.ports[listener]}/mcp`], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const code = await new Promise((r) => child.on("close", r));
  assert.equal(code, 0, `py-client.py failed:\n${err.slice(-3000)}`);
  return JSON.parse(out);
}

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

test("control, no filter: the same client sees the poisoned tool", async () => {
  const r = await pyClient("plain");
  assert.equal(r.discovered, true);
  assert.deepEqual(r.tools, ["echo", "in_region", "notes"]);
  assert.deepEqual(r.in_region, ["eu-west1: q"]);
  assert.equal(r.notes_error, null);
});

test("the filter pinned and compared the stateless listings", () => {
  const log = fs.readFileSync(env.logFile, "utf8");
  assert.match(log, /"event":"listing","baseline":"pinned"[^\n]*"hidden":\["notes"\]/);
  assert.match(log, /"event":"listing","baseline":"compared"[^\n]*"decision":"served"/);
  // The SDK server's answers meet the response-id rule: none refused or dropped.
  assert.doesNotMatch(log, /"event":"(answer-refused|response-dropped)"/);
});
