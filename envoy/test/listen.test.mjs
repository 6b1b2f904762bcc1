// The 2026-07-28 form of a list change through a real Envoy: the Python
// `mcp` 2.x client opens a `subscriptions/listen` stream (a long POST whose
// SSE events are notifications) through the filter, the server adds a tool
// and publishes `toolsListChanged` on it, the frame reaches the client
// through the filter, and the client's re-list is compared with the pins:
// the new tool was never approved, so it is held back and its call refused
// (pin_scope persistent: quarantine). The filter does not re-list on its own
// (it has no upstream of its own; envoy/README.md), the client's re-list is
// what it compares.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { upstream, envoy, stopAll, runPython } from "./harness.mjs";

const PYTHON = process.env.MCP_GUARD_PYTHON;
after(() => stopAll());

test("a subscriptions/listen list change passes the filter and the client's re-list is compared: the new tool is held back", async () => {
  assert.ok(PYTHON, "MCP_GUARD_PYTHON must name a Python with mcp 2.3.0 (scripts/test-envoy.sh sets it)");
  const up = await upstream(["--grow"], "py-server.py", PYTHON);
  const env = await envoy([{ name: "listen", upstreamPort: up.port, filter: { server: "py-listen" } }]);
  const r = await runPython(PYTHON, "py-listen.py", [`http://127.0.0.1:${env.ports.listen}/mcp`]);
  assert.equal(r.protocol, "2026-07-28");
  assert.ok(r.before.includes("grow") && !r.before.includes("extra"), JSON.stringify(r));
  assert.equal(r.frame, true, "the toolsListChanged frame reached the client through the filter");
  assert.ok(!r.after.includes("extra"), `the new tool is held back: ${JSON.stringify(r)}`);
  assert.equal(r.extra, null);
  assert.equal(r.extra_error?.data?.reason, "quarantined", JSON.stringify(r));
});
