// Every tools/list result the Envoy filter serves is one a 2026-07-28 client
// accepts: each real catalog (testdata/catalogs, testdata/catalogs-wide) and
// each adversarial one goes through a real Envoy with the filter, listed by
// a 2026-07-28 request (its `_meta` and Mcp-* headers), and every answer is
// validated with the `mcp` 2.x SDK's own wire models (`mcp_types` 2026-07-28:
// `ListToolsResultResponse`, else a JSON-RPC error response) in Python.
// The proxy's twin is cli/tests/e2e/test_served_results.py.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { envoy, stopAll, upstream } from "./harness.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const testdata = path.resolve(here, "../../testdata");
after(stopAll);

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };

const VALIDATE = `
import json, sys
from mcp_types._v2026_07_28 import JSONRPCErrorResponse, ListToolsResultResponse
served, refused = 0, []
for line in open(sys.argv[1], encoding="utf-8"):
    case = json.loads(line)
    answer = json.loads(case["body"])
    if "error" in answer:
        JSONRPCErrorResponse.model_validate(answer)
        refused.append(case["file"])
    else:
        r = ListToolsResultResponse.model_validate(answer)
        assert r.result.result_type == "complete", case["file"]
        served += 1
print(json.dumps({"served": served, "refused": refused}))
`;

function catalogs() {
  const list = (dir) =>
    fs
      .readdirSync(path.join(testdata, dir))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => path.join(testdata, dir, f));
  return [...list("catalogs"), ...list("catalogs-wide"), ...list("adversarial")];
}

test("every listing the Envoy filter serves validates as a 2026-07-28 result", async () => {
  const python = process.env.MCP_GUARD_PYTHON;
  assert.ok(python, "MCP_GUARD_PYTHON: the python with `mcp` 2.x (scripts/test-envoy.sh sets it)");
  const files = catalogs();
  assert.ok(files.length > 250, `${files.length} catalogs`);
  const up = await upstream(files, "catalog-upstream.mjs");
  // Pins off: each request lists another server's catalog; what is checked
  // is the shape of what the filter serves.
  const filter = { pin_scope: "session", policy: { core: { tool_definition_pinning: { mode: "off" } } } };
  const env = await envoy([{ name: "guarded", upstreamPort: up.port, filter }], { bufferLimit: 64 << 20 });
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mcp-guard-served-")), "answers.jsonl");
  const lines = [];
  for (const [i, file] of files.entries()) {
    const res = await fetch(`http://127.0.0.1:${env.ports.guarded}/mcp/${i}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/list",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: i + 1, method: "tools/list", params: { _meta: META } }),
    });
    const body = await res.text();
    assert.match(res.headers.get("content-type") ?? "", /application\/json/, `${file}: ${res.status} ${body.slice(0, 200)}`);
    lines.push(JSON.stringify({ file: path.basename(file), status: res.status, body }));
  }
  fs.writeFileSync(out, lines.join("\n") + "\n");
  const v = spawnSync(python, ["-c", VALIDATE, out], { encoding: "utf8", maxBuffer: 64 << 20 });
  assert.equal(v.status, 0, v.stderr);
  const { served, refused } = JSON.parse(v.stdout);
  // Every real catalog is served (poisoned tools hidden, not the listing);
  // only adversarial files may be refused: the broken envelopes, and what
  // is over the filter's body cap or the parser's depth.
  const real = new Set(files.filter((f) => !f.includes(`${path.sep}adversarial${path.sep}`)).map((f) => path.basename(f)));
  assert.deepEqual(refused.filter((f) => real.has(f)), [], "a real catalog was refused");
  assert.ok(served >= real.size, `${served} served, refused: ${refused.join(", ")}`);
});
