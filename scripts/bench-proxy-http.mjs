// Added latency of `mcp-guard proxy --url` over loopback (issue #25): the
// official TypeScript SDK client lists tools and calls one, N times each,
// (a) straight to a Streamable HTTP server (the SDK's own client transport)
// and (b) through the proxy (stdio to the proxy, HTTP from it to the same
// server), in one run against one server process. Prints a Markdown table
// of medians and p90s and the difference. Run by scripts/bench-proxy-http.sh.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const e2e = join(root, "cli/tests/e2e");
const req = createRequire(join(e2e, "package.json"));
const { Client } = await import(req.resolve("@modelcontextprotocol/sdk/client/index.js"));
const { StdioClientTransport } = await import(req.resolve("@modelcontextprotocol/sdk/client/stdio.js"));
const { StreamableHTTPClientTransport } = await import(req.resolve("@modelcontextprotocol/sdk/client/streamableHttp.js"));

const bin = process.env.MCP_GUARD_BIN;
const n = Number(process.env.N ?? 300);
const extra = Number(process.env.TOOLS ?? 50);
const mode = process.env.MODE ?? "json";

const server = spawn(process.execPath, [join(e2e, "http-server.mjs"), "--extra", String(extra), ...(mode === "json" ? ["--json"] : [])], {
  stdio: ["ignore", "pipe", "inherit"],
});
const base = await new Promise((res, rej) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = /PORT (\d+)/.exec(out);
    if (m) res(`http://127.0.0.1:${m[1]}/mcp`);
  });
  server.on("exit", (c) => rej(new Error(`server exited ${c}`)));
});

async function client(kind) {
  const c = new Client({ name: "bench", version: "1" });
  const t =
    kind === "direct"
      ? new StreamableHTTPClientTransport(new URL(base))
      : new StdioClientTransport({ command: bin, args: ["proxy", "--url", base], stderr: "ignore" });
  await c.connect(t);
  return c;
}

const q = (xs, p) => xs.slice().sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function time(c, op) {
  const t0 = process.hrtime.bigint();
  await op(c);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

const ops = {
  "tools/list": (c) => c.listTools(),
  "tools/call": (c) => c.callTool({ name: "echo", arguments: { message: "bench" } }),
};

const clients = { direct: await client("direct"), proxy: await client("proxy") };
const samples = {};
for (const op of Object.keys(ops)) {
  for (const k of Object.keys(clients)) samples[`${op} ${k}`] = [];
  // Warm up both paths, then alternate them so drift hits both alike.
  for (let i = 0; i < 20; i++) for (const c of Object.values(clients)) await ops[op](c);
  for (let i = 0; i < n; i++) {
    for (const [k, c] of Object.entries(clients)) samples[`${op} ${k}`].push(await time(c, ops[op]));
  }
}
for (const c of Object.values(clients)) await c.close();
server.kill();

console.log(`| operation (${extra + 5} tools, ${mode} answers, N=${n}) | direct median | proxy median | added median | direct p90 | proxy p90 | added p90 |`);
console.log("|---|---:|---:|---:|---:|---:|---:|");
for (const op of Object.keys(ops)) {
  const d = samples[`${op} direct`];
  const p = samples[`${op} proxy`];
  const f = (x) => `${x.toFixed(2)} ms`;
  const [dm, pm, d9, p9] = [q(d, 0.5), q(p, 0.5), q(d, 0.9), q(p, 0.9)];
  console.log(`| ${op} | ${f(dm)} | ${f(pm)} | ${f(pm - dm)} | ${f(d9)} | ${f(p9)} | ${f(p9 - d9)} |`);
}
