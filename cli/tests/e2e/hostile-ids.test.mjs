// End-to-end: a hostile stdio server answers the guarded requests under ids a
// client would take for its own (hostile-ids-server.mjs), the official MCP
// TypeScript SDK client (it routes an answer by Number(id)) talks to it
// through the real `mcp-guard proxy`, in every pinning / sanitization /
// poisoning mode. The client never sees the raw catalog or a forged result:
// it gets an error for its request (id-mismatch) or the engine's
// answer. Run by scripts/test-proxy.sh (MCP_GUARD_BIN).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.MCP_GUARD_BIN ?? resolve(here, "../../../target/debug/mcp-guard");
const hostile = join(here, "hostile-ids-server.mjs");
const work = mkdtempSync(join(tmpdir(), "mcp-guard-ids-"));

const off = { mode: "off" };
const MODES = {
  default: [],
  strict: ["--preset", "strict"],
  permissive: ["--preset", "permissive"],
  "all-off": { core: { tool_metadata_sanitization: off, tool_poisoning: off, tool_definition_pinning: off } },
  "pinning-block-invalidate": {
    core: { tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "invalidate" } },
  },
  "pinning-block-subset": { core: { tool_definition_pinning: { mode: "block", block_strategy: "baseline_subset" } } },
  "poisoning-block": { core: { tool_poisoning: { mode: "block" } } },
};
const VARIANTS = ["string", "decimal", "exponent", "exact", "hex", "padded", "plus", "duplicate"];

function modeArgs(name) {
  const m = MODES[name];
  if (Array.isArray(m)) return m;
  const p = join(work, `${name}.json`);
  writeFileSync(p, JSON.stringify(m));
  return ["--policy", p];
}

async function connect(variant, target, mode) {
  const transport = new StdioClientTransport({
    command: bin,
    // Pins per run: this test is about ids, and must not keep records.
    args: ["proxy", "--pin-scope", "session", ...modeArgs(mode), "--", process.execPath, hostile, variant, target],
    stderr: "pipe",
  });
  const stderr = [];
  transport.stderr?.on("data", (d) => stderr.push(d.toString()));
  const client = new Client({ name: "mcp-guard-ids-e2e", version: "1.0.0" });
  // The SDK reports answers it cannot route here; none may be taken.
  client.onerror = () => {};
  await client.connect(transport);
  return { client, stderr };
}

const HIDDEN = /[\u{e0000}-\u{e007f}]/u;

/** The engine's catalog: the honest tool only, nothing the raw one adds. */
function assertSanitized(tools, where) {
  const names = tools.map((t) => t.name);
  assert.deepEqual(names, ["echo"], `${where}: ${names}`);
  assert.ok(!HIDDEN.test(JSON.stringify(tools)), `${where}: hidden characters reached the client`);
}

/** The request fails with id-mismatch; the client took no answer. */
async function assertMismatch(promise, where) {
  let got;
  try {
    got = await promise;
  } catch (e) {
    assert.ok(e instanceof McpError, `${where}: expected McpError, got ${e}`);
    assert.equal(e.code, -32002, `${where}: ${e.message}`);
    assert.equal(e.data?.reason, "id-mismatch", `${where}: ${e.message}`);
    return;
  }
  assert.fail(`${where}: the client took the server's answer: ${JSON.stringify(got).slice(0, 400)}`);
}

for (const mode of Object.keys(MODES)) {
  test(`hostile answer ids, mode ${mode}: the client gets an error or the engine's answer`, async () => {
    for (const variant of VARIANTS) {
      for (const target of ["list", "relist", "call"]) {
        const where = `${mode}/${variant}/${target}`;
        const { client, stderr } = await connect(variant, target, mode);
        try {
          const duplicate = variant === "duplicate";
          if (target === "list" && !duplicate) {
            await assertMismatch(client.listTools(), where);
            // Nothing was pinned from the raw catalog: the next (honest)
            // listing is the first the engine saw.
            await assert.rejects(client.callTool({ name: "exfiltrate", arguments: { sidenote: "x" } }), McpError);
          }
          assertSanitized((await client.listTools()).tools, `${where} (first listing served)`);
          if (target === "relist") {
            if (duplicate) assertSanitized((await client.listTools()).tools, `${where} (re-list)`);
            else await assertMismatch(client.listTools(), `${where} (re-list)`);
          }
          if (target === "call" && !duplicate) {
            await assertMismatch(client.callTool({ name: "echo", arguments: { message: "hi" } }), where);
          } else {
            const r = await client.callTool({ name: "echo", arguments: { message: "hi" } });
            assert.equal(r.content[0].text, "Echo: hi", where);
          }
          // The gate never learnt `exfiltrate`. (After the attacked call:
          // the server guesses the client's ids by counting its requests, and
          // a call the gate answers uses up one of the client's ids.)
          await assert.rejects(client.callTool({ name: "exfiltrate", arguments: { sidenote: "x" } }), (e) => {
            assert.equal(e.data?.reason, "unknown-tool", `${where}: ${e.message}`);
            return true;
          });
          // A later request still gets its own, honest answer (the dropped
          // late answers did not shift the client's ids).
          assertSanitized((await client.listTools()).tools, `${where} (last listing)`);
        } finally {
          await client.close();
        }
        const log = stderr.join("");
        assert.match(log, /"event":"response-dropped"/, where);
        assert.doesNotMatch(log, /"event":"engine-error"/, where);
      }
    }
  });
}
