// Parity through the Envoy filter: every job's input served by a plain
// upstream as a `tools/list` answer, through a real Envoy running the filter
// (envoy/) with the job's policy, twice per session (first listing: pin;
// second: compare with the next input), each followed by the dump's calls as
// tools/call requests. The answers must be what the native dump says: the
// same catalog bytes spliced into the JSON-RPC result, or the same refusal /
// error kind; a call refused for the same reason, answered with the same
// result bytes, or forwarded under the same upstream name with the same
// arguments (the upstream echoes what it received).
//
//   node parity/envoy.mjs JOBS.json NATIVE.jsonl
//
// Needs ENVOY_BIN and MCP_GUARD_ENVOY_WASM (scripts/parity.sh sets them the
// way scripts/test-envoy.sh does) and envoy/test's npm packages (the
// harness that starts Envoy is reused from there).
//
// What the filter cannot show the same way, and is expected instead:
// - it reads the upstream's JSON-RPC envelope with its strict parser first,
//   so an input that is not strict JSON (native `invalid-json`,
//   `duplicate-key`) is `invalid-json` from the filter (-32002);
// - it refuses a paginated result (`nextCursor`) rather than pinning one page
//   (README, "Envoy"): `paginated` (-32002), or `invalid-cursor` when the
//   cursor is no string (checked first, by the mediation core);
// - it has no foreign-names option: jobs with foreign names are left out;
// - bodies over its `max_body_bytes` (4 MiB) fail closed by design: left out.
// After a first listing that failed there is no baseline, so the second
// listing is not compared.
import http from "node:http";
import { basename } from "node:path";
import { readFileSync } from "node:fs";
import { envoy, stopAll } from "../envoy/test/harness.mjs";

const [jobsPath, nativePath] = process.argv.slice(2);
if (!jobsPath || !nativePath) {
  console.error("usage: node parity/envoy.mjs JOBS.json NATIVE.jsonl");
  process.exit(2);
}
const MAX_BODY = 4 << 20;

const { jobs } = JSON.parse(readFileSync(jobsPath, "utf8"));
const native = readFileSync(nativePath, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
if (native.length !== jobs.length) throw new Error(`${nativePath}: ${native.length} lines for ${jobs.length} jobs`);

// The upstream: answers `tools/list` of session `parity-<job>` with the job's
// input the first time and its next input after, spliced in as the result
// byte for byte; anything else gets an empty result.
const listings = new Map();
const upstreamServer = http.createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    const msg = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const id = JSON.stringify(msg.id ?? null);
    const sid = req.headers["mcp-session-id"] ?? "";
    const m = /^parity-(\d+)$/.exec(sid);
    let result = "{}";
    if (msg.method === "tools/call") {
      // What reached the server: the driver reads name and arguments back.
      result = `{"content":[{"type":"text","text":"called"}],"echo":${Buffer.concat(chunks).toString("utf8")}}`;
    } else if (msg.method === "tools/list" && m) {
      const n = listings.get(sid) ?? 0;
      listings.set(sid, n + 1);
      const job = jobs[Number(m[1])];
      result = readFileSync(n === 0 ? job.path : job.next_path);
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(Buffer.concat([Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":`), Buffer.from(result), Buffer.from("}")]));
  });
});
await new Promise((r) => upstreamServer.listen(0, "127.0.0.1", r));
const upstreamPort = upstreamServer.address().port;

// One listener per (policy, server).
const listenerOf = (job) => JSON.stringify([job.policy_json, job.server]);
const specs = new Map();
for (const job of jobs) {
  const key = listenerOf(job);
  if (!specs.has(key)) {
    // Session scope: each parity session pins its own first listing, as the
    // native pin/compare it is compared with (persistent scope would hold
    // changed tools back across sessions and needs a server id).
    const filter = { policy: JSON.parse(job.policy_json), pin_scope: "session" };
    if (job.server !== null) filter.server = job.server;
    specs.set(key, { name: `l${specs.size}`, upstreamPort, filter });
  }
}

// Known differences, each a filter bug reported and not fixed yet (the
// expected-failure list: a listing that matches an entry passes; an entry
// that no longer occurs fails the run, so it is removed with the fix).
// Keyed by the served file, the native answer and the filter's answer.
const KNOWN = [];

/** The expected answer for a native result (`pin`, or `compare`'s decision). */
function expectedError(kind) {
  return kind;
}

/**
 * What the filter answers a paged result with, or null when the result is
 * not paged: a cursor that is no string is `invalid-cursor` (the mediator
 * checks it first, as for any host), a string one `paginated`.
 */
function paginated(path) {
  try {
    const c = JSON.parse(readFileSync(path, "utf8"));
    if (c === null || typeof c !== "object" || c.nextCursor === undefined || c.nextCursor === null) return null;
    return typeof c.nextCursor === "string" ? "paginated" : "invalid-cursor";
  } catch {
    return null;
  }
}

/** What the filter answered: {catalog} | {refuse: reason} | {error: reason} | {other}. */
function answer(status, body) {
  const prefix = '{"jsonrpc":"2.0","id":1,"result":';
  if (status === 200 && body.startsWith(prefix) && body.endsWith("}")) return { catalog: body.slice(prefix.length, -1) };
  try {
    const m = JSON.parse(body);
    if (m.error?.code === -32001) return { refuse: m.error.data?.reason };
    if (m.error?.code === -32002) return { error: m.error.data?.reason };
  } catch {
    // fall through
  }
  return { other: `HTTP ${status}: ${body.slice(0, 200)}` };
}

/** Sorted-key JSON of a parsed value (arguments compare as values: the
 * filter forwards the client's own bytes when the engine changed nothing). */
function canon(v) {
  if (v === null || typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(",")}]`;
  return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canon(v[k])}`).join(",")}}`;
}

/** The native call decision as the filter shows it. */
function expectedCall(d) {
  if (d.action === "allow") return { allow: { upstream: d.upstream, arguments: canon(d.arguments === null ? null : JSON.parse(d.arguments)) } };
  if (d.action === "refuse") return { refuse: d.reason };
  if (d.action === "respond") return { respond: d.result };
  return d;
}

/** What the filter did with a tools/call: forwarded (what the server got), refused, or answered. */
function callAnswer(status, body) {
  const prefix = '{"jsonrpc":"2.0","id":1,"result":';
  try {
    const m = JSON.parse(body);
    const echo = m.result?.echo;
    if (status === 200 && echo) return { allow: { upstream: echo.params?.name, arguments: canon(echo.params?.arguments ?? null) } };
    if (status === 200 && m.result && body.startsWith(prefix) && body.endsWith("}")) return { respond: body.slice(prefix.length, -1) };
    if ((status === 200 && m.error?.code === -32602) || (status === 409 && m.error?.code === -32001)) return { refuse: m.error.data?.reason };
  } catch {
    // fall through
  }
  return { other: `HTTP ${status}: ${body.slice(0, 200)}` };
}

function show(a) {
  if (a.catalog !== undefined) return `catalog (${a.catalog.length} chars) ${JSON.stringify(a.catalog.slice(0, 100))}…`;
  return JSON.stringify(a);
}

function same(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

let env;
try {
  // The harness picks each listener's port by opening and closing a socket,
  // so with many listeners two can get the same port now and then (Envoy
  // then refuses the configuration): start again with fresh ports.
  for (let attempt = 1; !env; attempt++) {
    try {
      env = await envoy([...specs.values()]);
    } catch (e) {
      if (attempt === 3 || !/duplicate address/.test(e.message)) throw e;
      stopAll();
      console.error(`parity envoy: a listener port was handed out twice; starting Envoy again (${attempt})`);
    }
  }
  const t0 = performance.now();
  const counts = { compared: 0, listings: 0, calls: 0, callKinds: {}, skipped: {} };
  const diffs = [];
  const skip = (why) => (counts.skipped[why] = (counts.skipped[why] ?? 0) + 1);
  for (const [i, job] of jobs.entries()) {
    const line = native[i];
    if (line.input !== job.input || line.policy !== job.policy) throw new Error(`native dump out of step at line ${i + 1}`);
    if (job.foreign_names.length > 0) { skip("foreign names (no filter option)"); continue; }
    const size = readFileSync(job.path).length;
    if (size + 64 > MAX_BODY) { skip("over max_body_bytes"); continue; }
    const port = env.ports[specs.get(listenerOf(job)).name];
    const post = (body) =>
      fetch(`http://127.0.0.1:${port}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": `parity-${i}` },
        body,
      });
    const list = async () => {
      const r = await post('{"jsonrpc":"2.0","id":1,"method":"tools/list"}');
      return answer(r.status, await r.text());
    };
    // The native calls of the dump, as tools/call requests in the session.
    const calls = async (what, native) => {
      for (const c of native) {
        const params = c.arguments === null ? `{"name":${JSON.stringify(c.name)}}` : `{"name":${JSON.stringify(c.name)},"arguments":${c.arguments}}`;
        const r = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":${params}}`);
        const got = callAnswer(r.status, await r.text());
        counts.calls += 1;
        const k = Object.keys(got)[0];
        counts.callKinds[k] = (counts.callKinds[k] ?? 0) + 1;
        const want = expectedCall(c.decision);
        if (!same(want, got)) diffs.push(`  ${job.input} under ${job.policy}, ${what} call ${c.name} ${c.arguments}:\n    native: ${show(want)}\n     envoy: ${show(got)}`);
      }
    };
    const check = (what, file, want, got) => {
      counts.listings += 1;
      if (same(want, got)) return;
      const known = KNOWN.find((k) => k.file === basename(file) && same(k.native, want) && same(k.envoy, got));
      if (known) {
        known.seen = (known.seen ?? 0) + 1;
        return;
      }
      diffs.push(`  ${job.input} under ${job.policy}, ${what}:\n    native: ${show(want)}\n     envoy: ${show(got)}`);
    };
    const expect = (res, kind) =>
      kind === "pin"
        ? res.error !== undefined ? { error: expectedError(res.error) } : { catalog: res.outcome.catalog }
        : res.error !== undefined
          ? { error: expectedError(res.error) }
          : res.decision.action === "serve"
            ? { catalog: res.decision.catalog }
            : { refuse: res.decision.invalidate ? "session-invalidated" : "drift" };
    const first = await list();
    const paged = paginated(job.path);
    check("first listing (pin)", job.path, paged ? { error: paged } : expect(line.pin, "pin"), first);
    if (first.catalog === undefined || line.pin.error !== undefined) {
      skip("second listing after a failed first");
    } else {
      await calls("pinned", line.calls);
      const second = await list();
      const nextPaged = paginated(job.next_path);
      check("second listing (compare with the next input)", job.next_path, nextPaged ? { error: nextPaged } : expect(line.compare, "compare"), second);
      if (line.compare.error === undefined && second.other === undefined && !paginated(job.next_path)) await calls("compared", line.compare.calls);
    }
    counts.compared += 1;
  }
  const skipped = Object.entries(counts.skipped).map(([k, n]) => `${n} ${k}`).join(", ");
  console.log(
    `parity envoy: ${counts.compared} jobs, ${counts.listings} listings and ${counts.calls} tools/call through Envoy (${specs.size} listeners) in ${((performance.now() - t0) / 1000).toFixed(1)} s; left out: ${skipped || "none"}`,
  );
  console.log(`parity envoy: tools/call ${Object.entries(counts.callKinds).map(([k, n]) => `${n} ${k === "allow" ? "forwarded" : k === "respond" ? "answered by the filter" : k === "refuse" ? "refused" : k}`).join(", ")}`);
  for (const k of KNOWN) {
    if (k.seen) console.log(`parity envoy: known difference on ${k.seen} listings of ${k.file}: native ${JSON.stringify(k.native)}, envoy ${JSON.stringify(k.envoy)} (see KNOWN)`);
    else diffs.push(`  the known difference for ${k.file} no longer occurs: remove it from KNOWN in parity/envoy.mjs`);
  }
  if (diffs.length > 0) {
    console.log(`parity envoy: ${diffs.length} answers differ from the native engine; the first ${Math.min(8, diffs.length)}:`);
    console.log(diffs.slice(0, 8).join("\n"));
    process.exitCode = 1;
  } else {
    console.log("parity envoy: every other listing = native, byte for byte; every call decided as natively");
  }
} catch (e) {
  if (env) console.error(readFileSync(env.logFile, "utf8").slice(-4000));
  throw e;
} finally {
  stopAll();
  upstreamServer.close();
}
