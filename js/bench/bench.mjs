// Benchmark of the npm package: per-catalog time on the 1.7 MB real corpus
// (shared-real-tools.json) and per-call time on small inputs, through the
// package, next to Node's own JSON.parse + JSON.stringify round trip of the
// same bytes (the floor: any sanitizer must at least read and write them).
//
//   node bench/bench.mjs [RUNS]          (npm run bench)
//
// The corpus is testdata/bench/shared-real-tools.json of the repository. If the
// native `profile` example is built (target/release/examples/profile, or
// $MCP_GUARD_PROFILE_BIN), the Rust serde_json round trip and the native
// pipeline are timed too, in a subprocess: (time of N runs - time of 0 runs) / N.
//
// Runs are interleaved (one of each workload per round) and the best and
// median are printed: on a shared machine the best is the least disturbed.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const t0 = performance.now();
const { createGuard, checkCall } = await import("../index.js");
const firstGuard = createGuard();
const startup = performance.now() - t0;

const pkg = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const repo = resolve(pkg, "..");
const corpus = join(repo, "testdata/bench/shared-real-tools.json");
if (!existsSync(corpus)) {
  console.error(`bench: ${corpus} not found`);
  process.exit(1);
}
const RUNS = Number(process.argv[2] ?? 15);
const text = readFileSync(corpus, "utf8");
const bytes = Buffer.byteLength(text);
const catalogObject = JSON.parse(text);

const guard = firstGuard;
const guardOff = createGuard({ core: { tool_poisoning: { mode: "off" } } });
const { baseline } = guard.pin(text);
const someTool = JSON.parse(guard.sanitize(text).catalogJson).tools[0];

// Per-call inputs: one small real-sized tool list, and the example catalog.
const small = JSON.stringify({ tools: catalogObject.tools.slice(0, 3) });
const exampleText = readFileSync(join(repo, "examples/poisoned-catalog.json"), "utf8");
const smallPin = guard.pin(small);
const smallTool = JSON.parse(smallPin.outcome.catalogJson).tools[0];

const sink = [];
const workloads = {
  "floor: JSON.stringify(JSON.parse(text))": () => JSON.stringify(JSON.parse(text)),
  "JSON.parse(text) alone": () => JSON.parse(text),
  "package, default policy, text in → text out": () => guard.sanitize(text).catalogJson,
  "package, default policy, object in → object out": () => guard.sanitize(catalogObject).catalog,
  "package, poisoning off, text in → text out": () => guardOff.sanitize(text).catalogJson,
  "compare with the pin (no drift), text out": () => {
    const c = guard.compare(baseline, text);
    return c.decision.catalogJson;
  },
  "checkCall with the corpus's baseline": () => checkCall(baseline, someTool.name, {}),
};
const perCall = {
  [`sanitize, 3 real tools (${Buffer.byteLength(small)} B)`]: () => guard.sanitize(small).catalogJson,
  [`sanitize, examples/poisoned-catalog.json (${Buffer.byteLength(exampleText)} B)`]: () => guard.sanitize(exampleText).catalogJson,
  [`floor on the same ${Buffer.byteLength(exampleText)} B`]: () => JSON.stringify(JSON.parse(exampleText)),
  "checkCall, 3-tool baseline": () => checkCall(smallPin.baseline, smallTool.name, {}),
};

function measure(table, rounds, inner = 1) {
  const times = Object.fromEntries(Object.keys(table).map((k) => [k, []]));
  for (const f of Object.values(table)) for (let i = 0; i < Math.min(3, inner * 3); i++) sink.push(f()); // warm-up (V8 tiers up)
  for (let r = 0; r < rounds; r++) {
    for (const [k, f] of Object.entries(table)) {
      const s = process.hrtime.bigint();
      for (let i = 0; i < inner; i++) sink.push(f());
      times[k].push(Number(process.hrtime.bigint() - s) / 1e6 / inner);
      sink.length = 0;
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, v]) => {
      v.sort((a, b) => a - b);
      return [k, { best: v[0], median: v[Math.floor(v.length / 2)] }];
    }),
  );
}

// The native figures come from the same rounds (interleaved with the
// package's), as min over rounds of the time of N runs minus min of 0 runs
// (process start and reading the file), divided by N.
const profileBin = process.env.MCP_GUARD_PROFILE_BIN ?? join(repo, "target/release/examples/profile");
const NATIVE_N = 3;
function spawnTime(n, mode) {
  const s = process.hrtime.bigint();
  const r = spawnSync(profileBin, [corpus, String(n), mode], { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`${profileBin} ${mode} failed`);
  return Number(process.hrtime.bigint() - s) / 1e6;
}
if (existsSync(profileBin)) {
  for (const mode of ["floor", "pipeline"]) {
    workloads[`native ${mode}, ${NATIVE_N} runs`] = () => spawnTime(NATIVE_N, mode);
    workloads[`native ${mode}, 0 runs`] = () => spawnTime(0, mode);
  }
}
function native(big) {
  if (!existsSync(profileBin)) return null;
  const per = (mode) => (big[`native ${mode}, ${NATIVE_N} runs`].best - big[`native ${mode}, 0 runs`].best) / NATIVE_N;
  const out = { bin: profileBin, floor: per("floor"), pipeline: per("pipeline") };
  for (const k of Object.keys(big)) if (k.startsWith("native ")) delete big[k];
  return out;
}

const fmt = (ms) => (ms >= 1 ? `${ms.toFixed(1)} ms` : `${(ms * 1000).toFixed(0)} µs`);
const big = measure(workloads, RUNS);
const n = native(big);
const calls = measure(perCall, RUNS, 200);
const floor = big["floor: JSON.stringify(JSON.parse(text))"].best;

console.log(`node ${process.version}; corpus ${corpus}: ${bytes} bytes, ${catalogObject.tools.length} tools; ${RUNS} interleaved rounds`);
console.log(`start-up: import + first createGuard (compile + instantiate the component): ${fmt(startup)}`);
console.log("\nper catalog (1.7 MB)                                   best      median    best vs floor");
for (const [k, { best, median }] of Object.entries(big)) {
  console.log(`  ${k.padEnd(52)} ${fmt(best).padStart(9)} ${fmt(median).padStart(9)}    ${(best / floor).toFixed(2)}×`);
}
console.log("\nper call (mean of 200 calls per round)                  best      median");
for (const [k, { best, median }] of Object.entries(calls)) {
  console.log(`  ${k.padEnd(52)} ${fmt(best).padStart(9)} ${fmt(median).padStart(9)}`);
}
if (n) {
  const pkgText = big["package, default policy, text in → text out"].best;
  console.log(`\nnative (${n.bin}, same rounds; (best of ${NATIVE_N} runs - best of 0 runs) / ${NATIVE_N}):`);
  console.log(`  Rust serde_json parse + serialize (Value)            ${fmt(n.floor).padStart(9)}`);
  console.log(`  native engine, default policy                        ${fmt(n.pipeline).padStart(9)}`);
  console.log(`  package text → text vs serde_json round trip: ${(pkgText / n.floor).toFixed(2)}×; vs native engine: ${(pkgText / n.pipeline).toFixed(2)}×`);
} else {
  console.log("\nnative: target/release/examples/profile not built (cargo build --release --example profile); skipped");
}
