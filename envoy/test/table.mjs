// The Envoy rows of BENCHMARKS.md's performance table (scripts/bench-table.sh
// writes the plan and sets ENVOY_BIN and MCP_GUARD_ENVOY_WASM, as
// scripts/test-envoy.sh does):
//
//   node envoy/test/table.mjs PLAN.json time          # with and without the filter, interleaved
//   node envoy/test/table.mjs PLAN.json memory WAY    # a fresh Envoy with the filter only
//
// One Envoy (one worker) with two listeners in front of fixed-upstream.mjs,
// which answers POST /WORKLOAD with that workload's catalog: `guarded` runs
// the filter, `plain` does not; the same request goes through both in the
// same rounds, and the table shows the difference. Two ways (WAY) to list:
//
// - `new`: the session (`Mcp-Session-Id`) is ended after every listing
//   (DELETE, untimed), so each is a session's first listing, which the
//   engine sanitizes and pins: the other rows' work, plus the pin. (One
//   session id, not a new one per listing: the worker keeps up to 256
//   parsed baselines by session, bounded by count and not by size, and ~10
//   sessions of the 10k-tool catalog exhausted the filter's memory.)
// - `same`: one session per workload: its first listing pins, the next one
//   compares (both before the measured ones) and, as it leaves the pin state
//   as it found it, is kept by the mediation core; every measured one is then
//   answered from that kept answer while catalog and answer fit its 32 MiB
//   (the `repeats` column counts listing log lines marked `"kept":true`).
//
// The filter's own time per listing comes from its log lines (`micros`).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { ENVOY, envoy, stopAll, upstream } from "./harness.mjs";
import { emit, measure, peakMemory, readPlan } from "../../scripts/bench-table-lib.mjs";

const [planPath, mode] = process.argv.slice(2);
const plan = readPlan(planPath);
// Whatever fails (a spawn error is an unhandled event, outside any try), no
// Envoy or upstream outlives this process.
for (const event of ["uncaughtException", "unhandledRejection"]) {
  process.on(event, (e) => {
    console.error(e);
    stopAll();
    process.exit(1);
  });
}
// The 10,000-tool catalog is ~20 MB: the filter's cap and Envoy's buffers
// are raised above it (defaults: 4 MiB and 1 MiB).
const MAX_BODY = 64 << 20;
// Session pins: the table measures a listing, as it did before pin records.
const filter = { policy: JSON.parse(plan.policies.scale), max_body_bytes: MAX_BODY, pin_scope: "session" };
// What the filter wraps the served catalog in (the request's id is 1).
const HEAD = '{"jsonrpc":"2.0","id":1,"result":';

const REQUEST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
const agents = new Map();

/** One request on a kept-alive connection; resolves to the answer's size (or its text with `keep`). */
function send(port, path, session, { method = "POST", keep = false } = {}) {
  if (!agents.has(port)) agents.set(port, new http.Agent({ keepAlive: true, maxSockets: 1 }));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1", port, path, method, agent: agents.get(port),
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session },
      },
      (res) => {
        let size = 0;
        const chunks = [];
        res.on("data", (c) => ((size += c.length), keep && chunks.push(c)));
        res.on("end", () => (res.statusCode === 200 ? resolve(keep ? Buffer.concat(chunks).toString() : size) : reject(new Error(`${path}: HTTP ${res.statusCode}`))));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(method === "POST" ? REQUEST : undefined);
  });
}

/** The served catalog's size; fails unless the filter served one. */
async function checked(port, path, session) {
  const body = await send(port, path, session, { keep: true });
  if (!body.startsWith(HEAD) || !body.endsWith("}")) throw new Error(`${path}: the filter did not serve a catalog: ${body.slice(0, 300)}`);
  return Buffer.byteLength(body) - HEAD.length - 1;
}

/** The filter's listing log lines, in order: their `micros`, and whether each was answered from a kept answer. */
function listings(logFile) {
  const lines = fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l.includes('"event":"listing"'));
  return { micros: lines.map((l) => Number(/"micros":(\d+)/.exec(l)?.[1])), repeat: lines.map((l) => l.includes('"kept":true')) };
}

async function waitListings(logFile, n) {
  for (let i = 0; i < 100; i++) {
    const l = listings(logFile);
    if (l.micros.length >= n) return l;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`expected ${n} listing lines in ${logFile}`);
}

/** The two rows of `way` for workload `w`: the same requests without and with the filter. */
function rows(way, w, plain, guarded) {
  const path = `/${w.name}`;
  const session = `table-${way}-${w.name}`;
  let first = true;
  return [
    { name: `envoy-${way}-plain`, async: true, run: () => send(plain, path, session) },
    {
      name: `envoy-${way}-guarded`,
      async: true,
      // The first answer is read whole and checked; its size is the served catalog's.
      run: () => (first ? ((first = false), checked(guarded, path, session)) : send(guarded, path, session)),
      // Ending the session clears its baseline: the next listing is a first one again.
      after: way === "new" ? () => send(guarded, path, session, { method: "DELETE" }) : undefined,
    },
  ];
}

try {
  const up = await upstream(plan.workloads.map((w) => `${w.name}=${w.path}`), "fixed-upstream.mjs");
  const specs = [{ name: "guarded", upstreamPort: up.port, filter }];
  if (mode !== "memory") specs.push({ name: "plain", upstreamPort: up.port });
  const env = await envoy(specs, { concurrency: 1, bufferLimit: MAX_BODY + (1 << 20) });
  const { guarded, plain } = env.ports;

  if (mode === "memory") {
    const way = process.argv[4];
    const w = plan.workloads.find((x) => x.name === plan.memory.workload);
    const [, g] = rows(way, w, plain, guarded);
    const m = await peakMemory(async () => (await g.run(), await g.after?.()), plan.memory.runs, env.child.pid);
    emit({ row: `envoy-${way}`, workload: "memory", ...m, guest_mib: null });
  } else {
    const version = /\/(\d+\.\d+\.\d+)\//.exec(spawnSync(ENVOY, ["--version"], { encoding: "utf8" }).stdout)?.[1];
    emit({ row: "envoy-new-guarded", info: { envoy: version } });
    let seen = 0;
    for (const w of plan.workloads) {
      console.error(`table.mjs: ${w.name} (${w.bytes} bytes), ${w.rounds} rounds`);
      const calls = Math.min(w.calls, plan.envoy_calls);
      for (const way of ["new", "same"]) {
        // A repeated listing: the session's first listing (pin) goes before
        // the warm-up, which compares; the measured ones are the steady state.
        const pin = way === "same" ? (await send(guarded, `/${w.name}`, `table-${way}-${w.name}`), 1) : 0;
        await measure(rows(way, w, plain, guarded), w, null, calls);
        const warm = pin + Math.max(1, w.warmup) * calls;
        const all = await waitListings(env.logFile, seen + warm + w.rounds * calls);
        const micros = all.micros.slice(seen + warm).sort((a, b) => a - b);
        const repeats = all.repeat.slice(seen + warm).filter(Boolean).length;
        seen = all.micros.length;
        emit({ row: `envoy-${way}-filter`, workload: w.name, best_ms: micros[0] / 1e3, median_ms: micros[Math.floor(micros.length / 2)] / 1e3, listings: micros.length, repeats });
        if (way === "same") await send(guarded, `/${w.name}`, `table-${way}-${w.name}`, { method: "DELETE" });
      }
    }
  }
} finally {
  for (const a of agents.values()) a.destroy();
  stopAll();
}
