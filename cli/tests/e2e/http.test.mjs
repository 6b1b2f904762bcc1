// End-to-end: `mcp-guard proxy --url` between the official MCP TypeScript
// SDK client (stdio side) and Streamable HTTP servers on loopback: the SDK's
// own StreamableHTTPServerTransport (http-server.mjs, stateful, JSON and SSE
// answers), the Python `mcp` 2.x server (python_http_server.py, with the TS
// client speaking 2025-11-25 to it through the proxy) and a hostile server
// (hostile-http-server.mjs). Run by scripts/test-proxy.sh (MCP_GUARD_BIN,
// MCP_GUARD_PYTHON). The Python client over 2026-07-28 is test_python_sdk.py.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createServer as createNetServer, connect as connectTcp } from "node:net";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { nextListChanged, refused } from "./helpers.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const bin = process.env.MCP_GUARD_BIN ?? resolve(here, "../../../target/debug/mcp-guard");
const work = mkdtempSync(join(tmpdir(), "mcp-guard-http-"));
const RAW_MARKER = "RAW-UPSTREAM-BYTES";

const INVALIDATE = {
  core: { tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "invalidate" } },
};
const POISON_BLOCK = { core: { tool_poisoning: { mode: "block" } } };

function policyFile(name, policy) {
  const p = join(work, `${name}.json`);
  writeFileSync(p, JSON.stringify(policy));
  return p;
}

const servers = [];
after(() => servers.forEach((p) => p.kill()));

/** Starts `node script args` and resolves to its base URL once it printed `PORT n`. */
function startServer(script, args = []) {
  const proc = spawn(process.execPath, [join(here, script), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  servers.push(proc);
  return new Promise((resolve, reject) => {
    let out = "";
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /PORT (\d+)/.exec(out);
      if (m) resolve(`http://127.0.0.1:${m[1]}`);
    });
    proc.on("exit", (code) => reject(new Error(`${script} exited ${code}`)));
  });
}

/** An SDK client whose server is `mcp-guard proxy [opts] --url url`. */
async function connect(url, opts = [], env = {}) {
  const transport = new StdioClientTransport({
    command: bin,
    args: ["proxy", ...opts, "--url", url],
    env: { ...process.env, ...env },
    stderr: "pipe",
  });
  const stderr = [];
  transport.stderr?.on("data", (d) => stderr.push(d.toString()));
  const client = new Client({ name: "mcp-guard-http-e2e", version: "1.0.0" });
  await client.connect(transport);
  return { client, stderr };
}

const text = (r) => r.content[0].text;

for (const mode of ["json", "sse"]) {
  test(`SDK StreamableHTTP server (${mode} answers): listing sanitized, poisoned tool hidden, calls gated before they leave`, async () => {
    const base = await startServer("http-server.mjs", mode === "json" ? ["--json"] : []);
    const log = join(work, `gate-${mode}.log`);
    const { client } = await connect(`${base}/mcp`, ["--policy", policyFile("poison", POISON_BLOCK), "--log", log]);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), ["calls", "echo", "headers", "mutate"]);
      assert.equal(text(await client.callTool({ name: "echo", arguments: { message: "over http" } })), "Echo: over http");
      await refused(client.callTool({ name: "notes", arguments: { sidenote: "x" } }), -32602, "hidden-tool");
      await refused(client.callTool({ name: "rm", arguments: {} }), -32602, "unknown-tool");
      await refused(client.callTool({ name: "echo", arguments: { message: 42 } }), -32602, "invalid-arguments");
      // Only the allowed call reached the server.
      assert.deepEqual(JSON.parse(text(await client.callTool({ name: "calls", arguments: {} }))), ["echo"]);
      // 2025-11-25 session headers on a request after the handshake.
      const seen = JSON.parse(text(await client.callTool({ name: "headers", arguments: {} })));
      assert.ok(seen["mcp-session-id"], JSON.stringify(seen));
      assert.equal(seen["mcp-protocol-version"], "2025-11-25");
    } finally {
      await client.close();
    }
    const events = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    assert.ok(events.some((e) => e.event === "listing" && e.decision === "served"));
    assert.ok(events.some((e) => e.event === "get-stream" && e.state === "open"), "the GET stream was opened");
    assert.ok(events.some((e) => e.event === "session-closed" && e.status === 200), "DELETE ended the session");
    assert.ok(!events.some((e) => /dropped|failed/.test(e.event)), JSON.stringify(events));
  });

  test(`SDK StreamableHTTP server (${mode} answers): a rug pull announced on the GET stream closes the session`, async () => {
    const base = await startServer("http-server.mjs", mode === "json" ? ["--json"] : []);
    const { client, stderr } = await connect(`${base}/mcp`, ["--policy", policyFile("invalidate", INVALIDATE)]);
    try {
      await client.listTools();
      const changed = nextListChanged(client);
      assert.equal(text(await client.callTool({ name: "mutate", arguments: {} })), "mutated");
      await changed; // forwarded from the GET stream
      await refused(client.listTools(), -32001, "session-invalidated");
      await refused(client.callTool({ name: "echo", arguments: { message: "b" } }), -32602, "session-invalidated");
    } finally {
      await client.close();
    }
    assert.match(stderr.join(""), /"event":"session-invalidated"/);
  });
}

test("pins across runs over --url: a server upgraded between two runs has its changed tool quarantined until approved", async () => {
  // Keyed by --server: the two runs reach the server on different ports.
  const pins = join(work, "pins-across-runs");
  const opts = ["--server", "remote-demo", "--pins", pins];
  const run = async (serverArgs, f) => {
    const base = await startServer("http-server.mjs", serverArgs);
    const { client } = await connect(`${base}/mcp`, opts);
    try {
      await f(client);
    } finally {
      await client.close();
    }
  };
  const names = async (client) => (await client.listTools()).tools.map((t) => t.name).sort();
  await run(["--json"], async (client) => {
    assert.ok((await names(client)).includes("echo"), "run 1 pins echo (trust on first use)");
  });
  await run(["--json", "--pulled"], async (client) => {
    assert.ok(!(await names(client)).includes("echo"), "run 2 holds the changed echo back");
    await refused(client.callTool({ name: "echo", arguments: { message: "x" } }), -32602, "quarantined");
    assert.deepEqual(JSON.parse(text(await client.callTool({ name: "calls", arguments: {} }))), [], "nothing reached the server");
  });
  const cli = (...args) => spawnSync(bin, ["pins", ...args, "--pins", pins], { encoding: "utf8" });
  const shown = cli("show", "remote-demo");
  assert.equal(shown.status, 1, shown.stderr);
  assert.match(shown.stdout, /~\/\.ssh\/id_rsa/);
  assert.equal(cli("approve", "remote-demo", "echo").status, 0);
  await run(["--json", "--pulled"], async (client) => {
    assert.ok((await names(client)).includes("echo"), "run 3 serves the approved echo");
    assert.equal(text(await client.callTool({ name: "echo", arguments: { message: "y" } })), "Echo: y");
  });
});

/** A free loopback port (bound and released: the Python server takes it as an argument). */
function freePort() {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function untilListening(port, proc) {
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) throw new Error(`the Python server exited ${proc.exitCode}`);
    const up = await new Promise((resolve) => {
      const c = connectTcp(port, "127.0.0.1", () => (c.end(), resolve(true)));
      c.on("error", () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the Python server did not listen within 20 s");
}

test("the TypeScript SDK client through proxy --url to the Python mcp 2.x Streamable HTTP server: listed, called, gated", async () => {
  // test-proxy.sh sets it to its venv's python, where `mcp` 2.x is installed.
  const python = process.env.MCP_GUARD_PYTHON;
  assert.ok(python, "MCP_GUARD_PYTHON: the python with `mcp` 2.x (scripts/test-proxy.sh sets it)");
  const port = await freePort();
  const proc = spawn(python, [join(here, "python_http_server.py"), String(port)], { stdio: ["ignore", "ignore", "ignore"] });
  servers.push(proc);
  await untilListening(port, proc);
  const log = join(work, "ts-to-python.log");
  const { client } = await connect(`http://127.0.0.1:${port}/mcp`, ["--pin-scope", "session", "--log", log]);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ["add", "echo", "whoami"]) assert.ok(names.includes(n), `${n} in ${names}`);
    const added = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    assert.equal(text(added), "5");
    await refused(client.callTool({ name: "rm", arguments: {} }), -32602, "unknown-tool");
    await refused(client.callTool({ name: "add", arguments: { a: "two" } }), -32602, "invalid-arguments");
  } finally {
    await client.close();
  }
  const events = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
  assert.ok(events.some((e) => e.event === "listing" && e.decision === "served"), JSON.stringify(events));
});

test("--header values from the environment reach the server and never the log", async () => {
  const base = await startServer("http-server.mjs");
  const secret = "s3cret-token-value";
  const { client, stderr } = await connect(
    `${base}/mcp?tenant=abc`,
    ["--header", "Authorization: Bearer ${MCP_GUARD_TEST_TOKEN}", "--header", "X-Plain: yes"],
    { MCP_GUARD_TEST_TOKEN: secret },
  );
  try {
    await client.listTools();
    const seen = JSON.parse(text(await client.callTool({ name: "headers", arguments: {} })));
    assert.equal(seen.authorization, `Bearer ${secret}`);
    assert.equal(seen["x-plain"], "yes");
  } finally {
    await client.close();
  }
  const log = stderr.join("");
  assert.match(log, /"headers":\["Authorization","X-Plain"\]/);
  assert.ok(!log.includes(secret) && !log.includes("tenant=abc"), log);
});

/** Runs the proxy with raw lines in (initialize as id 0, tools/list as id 1); resolves to its stdout once id 1 is answered. */
function rawListing(url, opts = [], env = {}) {
  const proc = spawn(bin, ["proxy", ...opts, "--url", url], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...env } });
  let stdout = "";
  let stderr = "";
  proc.stderr.on("data", (d) => (stderr += d));
  const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 0, method: "initialize", params: init }) + "\n");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill();
      reject(new Error(`no answer to tools/list: ${stdout}\n${stderr}`));
    }, 20_000);
    let sent = false;
    proc.stdout.on("data", (d) => {
      stdout += d;
      const lines = stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
      if (!sent && lines.some((m) => m.id === 0)) {
        sent = true;
        proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
        proc.stdin.write(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) + "\n");
      }
      const answer = lines.find((m) => m.id === 1);
      if (answer) {
        clearTimeout(timer);
        proc.stdin.end();
        proc.on("exit", () => resolve({ stdout, stderr, answer }));
      }
    });
  });
}

const SMALL = { core: { catalog_limits: { max_catalog_bytes: 65536 } } };
const hostile = [
  ["oversized", "upstream-too-large", /larger than/, ["--policy", policyFile("small", SMALL)]],
  ["oversized-sse", "upstream-too-large", /SSE event .* larger than/, ["--policy", policyFile("small", SMALL)]],
  ["slow", "upstream-timeout", /within 1 s/, []],
  ["nonjson", "upstream-not-json", /not strict JSON/, []],
  ["ctype", "upstream-content-type", /text\/html/, []],
  ["otherid", "id-mismatch", /under an id it was not sent/, []],
  ["strangerid", "upstream-no-answer", /no answer to this request/, []],
  ["dropped", "upstream-stream-ended", /SSE stream/, []],
  ["redirect", "upstream-redirect", /https:\/\/elsewhere\.example\/mcp/, []],
  ["unauthorized", "upstream-unauthorized", /resource_metadata="https:\/\/auth\.example/, []],
  ["error500", "upstream-http-status", /HTTP 500/, []],
];

for (const [path, reason, message, opts] of hostile) {
  test(`hostile upstream (${path}): the client gets a JSON-RPC error naming the cause and no raw bytes`, async () => {
    const base = await startServer("hostile-http-server.mjs");
    const { stdout, answer } = await rawListing(`${base}/${path}`, ["--timeout", "1", ...opts]);
    assert.equal(answer.error?.data?.reason, reason, JSON.stringify(answer));
    assert.match(answer.error.message, message);
    assert.ok(!stdout.includes(RAW_MARKER), stdout);
    assert.ok(!("result" in answer));
  });
}

test("a client that closes stdin right after its requests still gets the answers, then the proxy exits 0", async () => {
  const base = await startServer("hostile-http-server.mjs");
  const proc = spawn(bin, ["proxy", "--url", `${base}/slow`, "--timeout", "20"], { stdio: ["pipe", "pipe", "pipe"] });
  let stdout = "";
  proc.stdout.on("data", (d) => (stdout += d));
  const init = { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } };
  proc.stdin.end(
    [
      { jsonrpc: "2.0", id: 0, method: "initialize", params: init },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, method: "tools/list" },
    ]
      .map((m) => JSON.stringify(m) + "\n")
      .join(""),
  );
  const code = await new Promise((resolve) => proc.on("exit", resolve));
  assert.equal(code, 0);
  const answers = stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const listing = answers.find((m) => m.id === 1);
  assert.deepEqual(listing?.result?.tools?.map((t) => t.name), ["echo"], stdout);
});

test("a paged listing over HTTP: the proxy fetches the next page itself and answers once", async () => {
  const base = await startServer("hostile-http-server.mjs");
  const { answer } = await rawListing(`${base}/paged`);
  assert.deepEqual(answer.result.tools.map((t) => t.name), ["echo", "add"]);
  assert.equal(answer.result.nextCursor, undefined);
});

test("HTTP_PROXY from the environment carries the requests, NO_PROXY exempts a host", async () => {
  // The hostile server also tunnels CONNECT to itself, as a forward proxy;
  // mcp.invalid never resolves, so only the proxy reaches it.
  const proxyUrl = await startServer("hostile-http-server.mjs");
  const { answer } = await rawListing("http://mcp.invalid/ok", [], { HTTP_PROXY: proxyUrl, NO_PROXY: "" });
  assert.deepEqual(answer.result.tools.map((t) => t.name), ["echo"]);
  const direct = await rawListing("http://mcp.invalid/ok", ["--timeout", "5"], { HTTP_PROXY: proxyUrl, NO_PROXY: "mcp.invalid" });
  assert.equal(direct.answer.error?.data?.reason, "upstream-unreachable", JSON.stringify(direct.answer));
});

test("TLS is verified: a self-signed certificate is refused and nothing is sent", async () => {
  const base = (await startServer("hostile-http-server.mjs", ["--tls"])).replace("http://", "https://");
  const { answer } = await rawListing(`${base}/ok`);
  assert.equal(answer.error?.data?.reason, "upstream-tls", JSON.stringify(answer));
  assert.match(answer.error.message, /TLS/);
});
