// Starts real processes on loopback for the Envoy tests and the benchmark:
// SDK upstream servers (server.mjs) and one Envoy whose listeners put the
// mcp-guard filter (or nothing) in front of them. Everything is stopped by
// PID at the end.
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const here = path.dirname(fileURLToPath(import.meta.url));
/** Awaits `p`, which must reject; runs `check` on the error and returns it. */
export async function rejects(p, check) {
  try {
    await p;
  } catch (e) {
    check(e);
    return e;
  }
  throw new Error("expected a rejection");
}

export const ENVOY = process.env.ENVOY_BIN || "envoy";

/**
 * Runs `python SCRIPT ARGS...` (a script of this folder; `python` is the
 * one with `mcp` 2.x, MCP_GUARD_PYTHON) and resolves to the one JSON line
 * it printed; a non-zero exit fails with the end of its stderr.
 */
export async function runPython(python, script, args) {
  const child = spawn(python, [path.join(here, script), ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (c) => (out += c));
  child.stderr.on("data", (c) => (err += c));
  const code = await new Promise((r) => child.on("close", r));
  if (code !== 0) throw new Error(`${script} failed (exit ${code}):\n${err.slice(-3000)}`);
  return JSON.parse(out);
}
export const WASM = process.env.MCP_GUARD_ENVOY_WASM;

export async function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitPort(port, child, ms = 30000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before port ${port} opened`);
    const ok = await new Promise((r) => {
      const c = net.connect(port, "127.0.0.1", () => (c.destroy(), r(true)));
      c.on("error", () => r(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`port ${port} did not open in ${ms} ms`);
}

const children = [];
/** Envoy's working folders (config, log): removed with the processes. */
const dirs = [];
export function stopAll() {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGTERM");
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** An upstream: `node server.mjs PORT ...flags` (or another script, run by `command`). */
export async function upstream(flags = [], script = "server.mjs", command = process.execPath) {
  const port = await freePort();
  const child = spawn(command, [path.join(here, script), String(port), ...flags], { stdio: ["ignore", "ignore", "inherit"] });
  children.push(child);
  await waitPort(port, child);
  return { port, url: `http://127.0.0.1:${port}/mcp` };
}

/** The HTTP filter entry for a filter configuration object. */
export function wasmFilter(configuration) {
  return {
    name: "envoy.filters.http.wasm",
    typed_config: {
      "@type": "type.googleapis.com/envoy.extensions.filters.http.wasm.v3.Wasm",
      config: {
        name: "mcp-guard",
        root_id: "mcp-guard",
        vm_config: { vm_id: "mcp-guard", runtime: "envoy.wasm.runtime.v8", code: { local: { filename: WASM } } },
        configuration: { "@type": "type.googleapis.com/google.protobuf.StringValue", value: JSON.stringify(configuration) },
        failure_policy: "FAIL_CLOSED",
        // The filter holds a JSON POST's headers until it has judged the
        // body (hold_request_headers): Envoy must then still hand it the body.
        allow_on_headers_stop_iteration: true,
      },
    },
  };
}

/**
 * Starts Envoy with one listener per spec: { name, upstreamPort, filter?: config object }.
 * `bufferLimit`: Envoy's per-connection buffer limit, above the filter's
 * `max_body_bytes`. Returns { ports: {name: port}, logFile, child }.
 */
export async function envoy(specs, { concurrency = 2, bufferLimit = 8388608 } = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "mcp-guard-envoy-"));
  dirs.push(dir);
  const ports = {};
  const listeners = [];
  const clusters = [];
  for (const s of specs) {
    const port = await freePort();
    ports[s.name] = port;
    const filters = s.filter ? [wasmFilter(s.filter)] : [];
    filters.push({ name: "envoy.filters.http.router", typed_config: { "@type": "type.googleapis.com/envoy.extensions.filters.http.router.v3.Router" } });
    listeners.push({
      name: s.name,
      address: { socket_address: { address: "127.0.0.1", port_value: port } },
      per_connection_buffer_limit_bytes: bufferLimit,
      filter_chains: [
        {
          filters: [
            {
              name: "envoy.filters.network.http_connection_manager",
              typed_config: {
                "@type": "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
                stat_prefix: s.name,
                route_config: {
                  virtual_hosts: [
                    // timeout 0: the client's GET event stream stays open for the session.
                    { name: "mcp", domains: ["*"], routes: [{ match: { prefix: "/" }, route: { cluster: `up_${s.name}`, timeout: "0s" } }] },
                  ],
                },
                http_filters: filters,
              },
            },
          ],
        },
      ],
    });
    clusters.push({
      name: `up_${s.name}`,
      type: "STATIC",
      connect_timeout: "1s",
      per_connection_buffer_limit_bytes: bufferLimit,
      load_assignment: {
        cluster_name: `up_${s.name}`,
        endpoints: [{ lb_endpoints: [{ endpoint: { address: { socket_address: { address: "127.0.0.1", port_value: s.upstreamPort } } } }] }],
      },
    });
  }
  const cfg = path.join(dir, "envoy.yaml");
  // JSON is YAML: no YAML writer needed.
  fs.writeFileSync(cfg, JSON.stringify({ static_resources: { listeners, clusters } }, null, 1));
  const logFile = path.join(dir, "envoy.log");
  const log = fs.openSync(logFile, "w");
  const child = spawn(
    ENVOY,
    ["-c", cfg, "--disable-hot-restart", "--concurrency", String(concurrency), "-l", "warning", "--component-log-level", "wasm:info"],
    { stdio: ["ignore", log, log] },
  );
  children.push(child);
  try {
    for (const p of Object.values(ports)) await waitPort(p, child);
  } catch (e) {
    throw new Error(`${e.message}\n${fs.readFileSync(logFile, "utf8").slice(-4000)}`);
  }
  return { ports, logFile, child, dir };
}

/** An SDK client connected through `port`. */
export async function connect(port) {
  const client = new Client({ name: "envoy-e2e", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`));
  await client.connect(transport);
  return { client, transport };
}
