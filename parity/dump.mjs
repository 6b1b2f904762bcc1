// Parity producer for the npm package (js/index.js): reads the job list and
// writes one dump, in the format of parity/README.md.
//
//   node parity/dump.mjs JOBS.json OUT.jsonl
//
// Goes through the package's public API only (createGuard, pin, compare,
// checkCall); the texts it dumps are the package's `catalogJson`,
// `baseline`, `argumentsJson` and `resultJson`.
import { closeSync, openSync, readFileSync, writeSync } from "node:fs";
import { GuardError, createGuard } from "../js/index.js";

const [jobsPath, outPath] = process.argv.slice(2);
if (!jobsPath || !outPath) {
  console.error("usage: node parity/dump.mjs JOBS.json OUT.jsonl");
  process.exit(2);
}

/** Canonical writing: sorted keys, no whitespace, JSON.stringify's escaping. */
function canonical(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (typeof v === "object") {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  }
  if (typeof v === "number" && !Number.isInteger(v)) throw new Error(`the dump holds integers only, got ${v}`);
  if (v === undefined) throw new Error("undefined in the dump");
  return JSON.stringify(v);
}

/** Error kind of a thrown GuardError (anything else is a producer bug). */
function kind(e) {
  if (e instanceof GuardError) return e.kind;
  throw e;
}

const opt = (x) => (x === undefined ? null : x);

function outcome(o) {
  return {
    catalog: o.catalogJson,
    findings: o.findings.map((f) => ({
      action: f.action,
      detail: f.detail,
      kind: f.kind,
      pointer: f.pointer,
      severity: f.severity,
      tool: opt(f.tool),
      tool_index: opt(f.toolIndex),
    })),
    hidden: o.hidden.map((h) => ({ detail: h.detail, index: h.index, name: opt(h.name), reason: h.reason })),
    name_map: o.nameMap.map((m) => ({ upstream: m.upstream, visible: m.visible })),
    tools: o.tools.map((t) => ({
      flagged: t.flagged,
      index: t.index,
      name: opt(t.name),
      raw_span: [t.rawSpan.start, t.rawSpan.end],
      status: t.status,
      visible_name: opt(t.visibleName),
    })),
  };
}

function decision(d) {
  switch (d.action) {
    case "allow":
      return { action: "allow", arguments: opt(d.argumentsJson), upstream: d.upstream, warning: opt(d.warning) };
    case "refuse":
      return {
        action: "refuse",
        message: d.message,
        reason: d.reason,
        violations: d.violations.map((v) => ({ pointer: v.pointer, reason: v.reason })),
      };
    case "respond":
      return { action: "respond", result: d.resultJson };
    default:
      throw new Error(`unknown call decision ${d.action}`);
  }
}

function calls(servedCatalog) {
  const out = [];
  const first = JSON.parse(servedCatalog)?.tools?.[0]?.name;
  if (typeof first === "string") {
    out.push([first, "{}"]);
    out.push(["call_tool", `{"name":${JSON.stringify(first)},"arguments":{}}`]);
  }
  out.push(["search_tools", '{"query":"read a file"}']);
  out.push(["no-such-tool", null]);
  return out;
}

function runCalls(guard, baseline, list) {
  return list.map(([name, args]) => {
    let d;
    try {
      d = decision(guard.checkCall(baseline, name, args ?? undefined));
    } catch (e) {
      d = { error: kind(e) };
    }
    return { arguments: args, decision: d, name };
  });
}

function runJob(job, text, next) {
  const opts = { server: job.server ?? undefined, foreignNames: job.foreign_names };
  const line = { input: job.input, policy: job.policy, policy_error: null, sanitize: null, pin: null, calls: null, compare: null };
  let guard;
  try {
    guard = createGuard(job.policy_json);
  } catch (e) {
    line.policy_error = kind(e);
    return line;
  }
  try {
    line.sanitize = outcome(guard.sanitize(text, opts));
  } catch (e) {
    line.sanitize = { error: kind(e) };
  }
  let pinned;
  try {
    pinned = guard.pin(text, opts);
  } catch (e) {
    line.pin = { error: kind(e) };
  }
  if (pinned) {
    const list = calls(pinned.outcome.catalogJson);
    line.pin = { baseline: pinned.baseline, outcome: outcome(pinned.outcome) };
    line.calls = runCalls(guard, pinned.baseline, list);
    try {
      const c = guard.compare(pinned.baseline, next, opts);
      const d =
        c.decision.action === "serve"
          ? { action: "serve", catalog: c.decision.catalogJson }
          : { action: "refuse", invalidate: c.decision.invalidate, message: c.decision.message };
      line.compare = {
        baseline: c.baseline,
        calls: runCalls(guard, c.baseline, list),
        decision: d,
        drift: c.drift.map((x) => ({
          benign: x.benign,
          changes: x.changes.map((y) => ({ kind: y.kind, pointer: y.pointer })),
          changes_truncated: x.changesTruncated,
          fields: x.fields,
          kind: x.kind,
          name: x.name,
          tool_index: opt(x.toolIndex),
        })),
        outcome: outcome(c.outcome),
      };
    } catch (e) {
      line.compare = { error: kind(e) };
    }
  }
  guard.dispose();
  return line;
}

const { jobs } = JSON.parse(readFileSync(jobsPath, "utf8"));
const t0 = performance.now();
const fd = openSync(outPath, "w");
for (const job of jobs) {
  writeSync(fd, canonical(runJob(job, readFileSync(job.path, "utf8"), readFileSync(job.next_path, "utf8"))) + "\n");
}
closeSync(fd);
console.error(`parity dump.mjs: ${jobs.length} jobs in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
