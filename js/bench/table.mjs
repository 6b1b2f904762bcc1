// The npm package's row of BENCHMARKS.md's performance table, with Node's
// own JSON round trip as its floor (scripts/bench-table.sh writes the plan):
//
//   node bench/table.mjs PLAN.json time          # both rows, interleaved
//   node bench/table.mjs PLAN.json memory ROW    # ROW = npm | node-json, alone
//
// The package as a gateway forwarding bytes uses it: one guard per policy,
// text in → `catalogJson` out.
import { emit, measure, peakMemory, readPlan } from "../../scripts/bench-table-lib.mjs";
import { readFileSync } from "node:fs";
// Before the package: it wraps `WebAssembly.Instance` to see the guest's memory.
import { guestBytes } from "../scripts/guest-memory.mjs";
const { createGuard } = await import("../index.js");

const [planPath, mode, only] = process.argv.slice(2);
const plan = readPlan(planPath);

/** A row; `policies`: the plan's policies it needs (by name). */
function row(name, policies = Object.keys(plan.policies)) {
  if (name === "npm") {
    const guards = Object.fromEntries(policies.map((k) => [k, createGuard(plan.policies[k])]));
    return { name, run: (policy, text) => guards[policy].sanitize(text).catalogJson };
  }
  if (name === "node-json") return { name, run: (_, text) => JSON.stringify(JSON.parse(text)) };
  throw new Error(`unknown row ${name} (npm, node-json)`);
}

if (mode === "memory") {
  const w = plan.workloads.find((x) => x.name === plan.memory.workload);
  const text = readFileSync(w.path, "utf8");
  const r = row(only, [w.policy]);
  const m = await peakMemory(() => r.run(w.policy, text), plan.memory.runs);
  const bytes = guestBytes();
  const guest = bytes === null ? null : bytes / 2 ** 20;
  emit({ row: only, workload: "memory", ...m, guest_mib: guest });
} else {
  const rows = [row("npm"), row("node-json")];
  emit({ row: "npm", info: { node: process.version } });
  for (const w of plan.workloads) {
    console.error(`table.mjs: ${w.name} (${w.bytes} bytes), ${w.rounds} rounds`);
    await measure(rows, w, readFileSync(w.path, "utf8"));
  }
}
