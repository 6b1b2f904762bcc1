// Latency and load of the Envoy filter (docs/performance-history.md, "Envoy filter"):
// the official SDK client against a 103-tool SDK server (100 realistic tools
// + the test's three), three ways in the same run: straight to the server,
// through Envoy without the filter, through Envoy with it.
//
//   node envoy/test/bench.mjs   (scripts/test-envoy.sh --bench sets the paths)
//
// BENCH_N sequential requests per operation (default 500, after 50 warm-up),
// BENCH_PAIRED requests per target with and without the filter in alternation
// (default 2000: the p99 comparison),
// then BENCH_SECONDS (default 30) of load per target from BENCH_SESSIONS
// concurrent sessions (default 16), in 6 rounds alternating between Envoy
// with and without the filter: once alternating tools/list and tools/call
// (every listing is checked — poisoned tool absent, tool count right — and a
// response that is unfiltered or lost is counted, not hidden), once
// alternating ping and resources/list (passthrough: what every other request
// of a session costs through the filter).
import fs from "node:fs";
import { upstream, envoy, connect, stopAll } from "./harness.mjs";

const N = Number(process.env.BENCH_N || 500);
const SECONDS = Number(process.env.BENCH_SECONDS || 30);
const SESSIONS = Number(process.env.BENCH_SESSIONS || 16);
const POLICY = { pin_scope: "session", policy: { core: { tool_poisoning: { mode: "block" }, tool_definition_pinning: { mode: "block" } } } };

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (x) => x.toFixed(3);

// The two timed operations, on a connected SDK client.
const OPS = [
  ["tools/list", (c) => c.listTools()],
  ["tools/call", (c) => c.callTool({ name: "echo", arguments: { message: "bench" } })],
];

async function sequential(port) {
  const { client } = await connect(port);
  const out = {};
  for (const [op, run] of OPS) {
    for (let i = 0; i < 50; i++) await run(client);
    const t = [];
    for (let i = 0; i < N; i++) {
      const a = process.hrtime.bigint();
      await run(client);
      t.push(Number(process.hrtime.bigint() - a) / 1e6);
    }
    out[op] = { p50: pct(t, 50), p99: pct(t, 99), mean: t.reduce((a, b) => a + b, 0) / t.length };
  }
  await client.close();
  return out;
}

// The same operation through Envoy without and with the filter, request by
// request in alternation (which goes first alternates too), so that the
// machine's slow moments fall on both distributions alike: their p99s are
// then comparable to well under a millisecond, which separate runs are not.
async function paired(plainPort, guardedPort, n) {
  const a = await connect(plainPort);
  const b = await connect(guardedPort);
  const out = {};
  for (const [op, run] of OPS) {
    for (let i = 0; i < 50; i++) await Promise.all([run(a.client), run(b.client)]);
    const t = [[], []];
    for (let i = 0; i < n; i++) {
      const order = i % 2 === 0 ? [0, 1] : [1, 0];
      for (const k of order) {
        const c = k === 0 ? a.client : b.client;
        const s = process.hrtime.bigint();
        await run(c);
        t[k].push(Number(process.hrtime.bigint() - s) / 1e6);
      }
    }
    out[op] = t.map((x) => ({ p50: pct(x, 50), p90: pct(x, 90), p99: pct(x, 99) }));
  }
  await a.client.close();
  await b.client.close();
  return out;
}

// `mixed`: tools/list and tools/call, both guarded. `passthrough`: ping and
// resources/list, which the filter reads (a JSON POST's method) and lets pass
// untouched: what every other request of an MCP session costs through it.
async function load(port, guarded, kind = "mixed", seconds = SECONDS) {
  const end = Date.now() + seconds * 1000;
  let done = 0, bad = 0, lost = 0;
  const lat = [];
  await Promise.all(
    Array.from({ length: SESSIONS }, async () => {
      const { client } = await connect(port);
      await client.listTools();
      for (let i = 0; Date.now() < end; i++) {
        const a = process.hrtime.bigint();
        try {
          if (kind === "passthrough") {
            if (i % 2 === 0) await client.ping();
            else if ((await client.listResources()).resources.length !== 1) bad++;
          } else if (i % 2 === 0) {
            const { tools } = await client.listTools();
            const poisoned = tools.some((t) => t.name === "notes");
            if (guarded ? poisoned || tools.length !== 102 : !poisoned) bad++;
          } else {
            const r = await client.callTool({ name: "echo", arguments: { message: "load" } });
            if (r.content[0].text !== "Echo: load") bad++;
          }
        } catch {
          lost++;
        }
        lat.push(Number(process.hrtime.bigint() - a) / 1e6);
        done++;
      }
      await client.close();
    }),
  );
  return { seconds, lat, bad, lost, done };
}

// Both targets in alternating rounds (6 of SECONDS / 6 each), so a slow
// stretch of the shared machine lands on both, not on whichever ran second.
async function alternating(plainPort, guardedPort, kind) {
  const sum = () => ({ seconds: 0, lat: [], bad: 0, lost: 0, done: 0 });
  const out = [sum(), sum()];
  for (let r = 0; r < 6; r++) {
    for (const [i, port, guarded] of [[0, plainPort, false], [1, guardedPort, true]]) {
      const l = await load(port, guarded, kind, SECONDS / 6);
      const o = out[i];
      o.seconds += l.seconds;
      o.lat.push(...l.lat);
      o.bad += l.bad;
      o.lost += l.lost;
      o.done += l.done;
    }
  }
  return out.map((o) => ({ rps: o.done / o.seconds, p50: pct(o.lat, 50), p99: pct(o.lat, 99), bad: o.bad, lost: o.lost, done: o.done }));
}

try {
  const results = {};
  for (const mode of ["json", "sse"]) {
    const up = await upstream(["--extra", "100", ...(mode === "json" ? ["--json"] : [])]);
    const env = await envoy([
      { name: "guarded", upstreamPort: up.port, filter: POLICY },
      { name: "plain", upstreamPort: up.port },
    ]);
    const r = {
      direct: await sequential(up.port),
      plain: await sequential(env.ports.plain),
      guarded: await sequential(env.ports.guarded),
    };
    results[mode] = r;
    console.log(`\n${mode} answers, ${N} sequential requests, one session (ms):`);
    console.log("| operation | direct p50 / p99 | Envoy p50 / p99 | Envoy + filter p50 / p99 | added by the filter p50 / p99 |");
    console.log("|---|---|---|---|---|");
    for (const op of ["tools/list", "tools/call"]) {
      const [d, p, g] = [r.direct[op], r.plain[op], r.guarded[op]];
      console.log(`| ${op} | ${ms(d.p50)} / ${ms(d.p99)} | ${ms(p.p50)} / ${ms(p.p99)} | ${ms(g.p50)} / ${ms(g.p99)} | ${ms(g.p50 - p.p50)} / ${ms(g.p99 - p.p99)} |`);
    }
    const PAIRED = Number(process.env.BENCH_PAIRED || 2000);
    if (PAIRED > 0) {
      const pr = await paired(env.ports.plain, env.ports.guarded, PAIRED);
      console.log(`\n${mode} answers, ${PAIRED} requests per target, Envoy without and with the filter in alternation (ms):`);
      console.log("| operation | Envoy p50 / p90 / p99 | Envoy + filter p50 / p90 / p99 | added p50 / p90 / p99 |");
      console.log("|---|---|---|---|");
      for (const op of ["tools/list", "tools/call"]) {
        const [p, g] = pr[op];
        console.log(`| ${op} | ${ms(p.p50)} / ${ms(p.p90)} / ${ms(p.p99)} | ${ms(g.p50)} / ${ms(g.p90)} / ${ms(g.p99)} | ${ms(g.p50 - p.p50)} / ${ms(g.p90 - p.p90)} / ${ms(g.p99 - p.p99)} |`);
      }
    }
    // The filter's own time per listing, from its log lines (engine +
    // shared data, no network): the steady state, compares of the session.
    const micros = fs
      .readFileSync(env.logFile, "utf8")
      .split("\n")
      .filter((l) => l.includes('"event":"listing"') && l.includes('"baseline":"compared"'))
      .map((l) => Number(/"micros":(\d+)/.exec(l)?.[1]))
      .filter((x) => !Number.isNaN(x));
    if (micros.length) {
      const bytes = /"bytes":(\d+)/.exec(fs.readFileSync(env.logFile, "utf8"))?.[1];
      console.log(`\nin the filter, per tools/list compare (${micros.length} listings, ${bytes} bytes served): p50 ${pct(micros, 50)} µs, p99 ${pct(micros, 99)} µs`);
    }
    if (mode === "json" && SECONDS > 0) {
      const [lp, lg] = await alternating(env.ports.plain, env.ports.guarded, "mixed");
      console.log(`\nload: ${SESSIONS} sessions, ${SECONDS} s per target in 6 alternating rounds, alternating tools/list and tools/call (json answers):`);
      console.log("| target | requests/s | p50 ms | p99 ms | requests | unfiltered or wrong | lost |");
      console.log("|---|---|---|---|---|---|---|");
      for (const [name, l] of [["Envoy", lp], ["Envoy + filter", lg]]) {
        console.log(`| ${name} | ${l.rps.toFixed(0)} | ${ms(l.p50)} | ${ms(l.p99)} | ${l.done} | ${l.bad} | ${l.lost} |`);
      }
      console.log(`guarded-mix throughput with the filter: ${((lg.rps / lp.rps - 1) * 100).toFixed(1)}%`);
      const [pp, pg] = await alternating(env.ports.plain, env.ports.guarded, "passthrough");
      console.log(`\npassthrough load: ${SESSIONS} sessions, ${SECONDS} s per target in 6 alternating rounds, alternating ping and resources/list (json answers):`);
      console.log("| target | requests/s | p50 ms | p99 ms | requests | wrong | lost |");
      console.log("|---|---|---|---|---|---|---|");
      for (const [name, l] of [["Envoy", pp], ["Envoy + filter", pg]]) {
        console.log(`| ${name} | ${l.rps.toFixed(0)} | ${ms(l.p50)} | ${ms(l.p99)} | ${l.done} | ${l.bad} | ${l.lost} |`);
      }
      console.log(`passthrough throughput with the filter: ${((pg.rps / pp.rps - 1) * 100).toFixed(1)}%`);
    }
    stopAll();
  }
} finally {
  stopAll();
}
