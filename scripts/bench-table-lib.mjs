// What the Node drivers of BENCHMARKS.md's performance table share
// (js/bench/table.mjs, envoy/test/table.mjs; scripts/bench-table.sh runs
// them): the plan, the interleaved rounds, the memory reading, the JSON
// lines. The Rust and Python drivers do the same in their languages; the
// line format is what scripts/bench-table.py reads.
import { readFileSync, writeFileSync } from "node:fs";

export const readPlan = (path) => JSON.parse(readFileSync(path, "utf8"));

export const emit = (line) => process.stdout.write(JSON.stringify(line) + "\n");

/** A `Vm*` field of /proc/PID/status, in KiB. */
export function vm(field, pid = "self") {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/**
 * Peak memory of `runs` calls: VmHWM after them minus VmRSS just before
 * (the high-water mark reset there, Linux >= 4.0), in MiB.
 * `run` may be async; `pid` is the process to read (default this one).
 */
export async function peakMemory(run, runs, pid = "self") {
  const before = vm("VmRSS", pid);
  writeFileSync(`/proc/${pid}/clear_refs`, "5");
  for (let i = 0; i < runs; i++) await run();
  return { rss_before_mib: before / 1024, peak_mib: Math.max(0, vm("VmHWM", pid) - before) / 1024 };
}

/**
 * Times workload `w` (a plan entry) for every row, interleaved: per round,
 * `calls` calls of each row in turn. A row is `{ name, run(policy, text) }`
 * returning its output (text, or its size in bytes); `async: true` rows are
 * awaited, and a row's `after()`, if any, is awaited after each call,
 * untimed (then each call is timed on its own). The first output's size goes
 * into the line: every engine host must write the same bytes. Emits one
 * line per row: best and median (the middle round; the upper one of two) of
 * the per-call time.
 */
export async function measure(rows, w, text, calls = w.calls) {
  const once = async (r) => (r.async ? await r.run(w.policy, text) : r.run(w.policy, text));
  const out = [];
  for (const r of rows) {
    for (let i = 0; i < Math.max(1, w.warmup) * calls; i++) {
      const o = await once(r);
      if (i === 0) out.push(typeof o === "string" ? Buffer.byteLength(o) : o);
      if (r.after) await r.after();
    }
  }
  const times = rows.map(() => []);
  for (let round = 0; round < w.rounds; round++) {
    for (const [k, r] of rows.entries()) {
      let ns = 0n;
      if (r.after) {
        for (let i = 0; i < calls; i++) {
          const s = process.hrtime.bigint();
          await r.run(w.policy, text);
          ns += process.hrtime.bigint() - s;
          await r.after();
        }
      } else {
        const s = process.hrtime.bigint();
        if (r.async) for (let i = 0; i < calls; i++) await r.run(w.policy, text);
        else for (let i = 0; i < calls; i++) r.run(w.policy, text);
        ns = process.hrtime.bigint() - s;
      }
      times[k].push(Number(ns) / 1e6 / calls);
    }
  }
  for (const [k, r] of rows.entries()) {
    const t = times[k].sort((a, b) => a - b);
    emit({ row: r.name, workload: w.name, best_ms: t[0], median_ms: t[Math.floor(t.length / 2)], rounds: w.rounds, calls, output_bytes: out[k] });
  }
}
