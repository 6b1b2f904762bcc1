// The mediation conformance cases (conformance/mediation/*.json) through the
// npm package: the same scripted conversations the native engine replays
// (tests/mediation.rs), here against the component's `mediator` resource
// (index.js `Mediator`), compared the same way: messages as compact JSON
// text, key order and number spelling included; log lines in order, each as
// a subset (texts for people may be left out of the expectation). A case
// with `record` keeps pins across runs as tests/mediation.rs runs it: the
// mediator is made with the record (`record: {key, stored}`), `persist`
// outputs are compared as subsets and kept, `restart` makes a new mediator
// from the record last persisted, and `approve` approves pending tools in it
// through `recordApprove` (what `pins.approve` does).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { createGuard, recordApprove } from "../index.js";
import { repoRoot } from "./helpers.mjs";

const dir = join(repoRoot, "conformance/mediation");
const cases = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort();

/**
 * Reads JSON keeping each value's exact compact text (`raw`): JSON.parse
 * would turn the id `1.0` into `1` and reorder integer-like keys, and the
 * cases spell ids the way a hostile server does.
 */
function readRaw(text) {
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  };
  const string = () => {
    const start = i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return text.slice(start, i);
  };
  const value = () => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      const object = c === "{";
      i++;
      const items = [];
      ws();
      if (text[i] !== (object ? "}" : "]")) {
        for (;;) {
          ws();
          let key;
          if (object) {
            key = string();
            ws();
            i++; // ':'
          }
          items.push([key, value()]);
          ws();
          if (text[i++] !== ",") break;
        }
      } else i++;
      const raw = object
        ? `{${items.map(([k, v]) => `${k}:${v.raw}`).join(",")}}`
        : `[${items.map(([, v]) => v.raw).join(",")}]`;
      return object ? { raw, entries: items.map(([k, v]) => [JSON.parse(k), v]) } : { raw, items: items.map(([, v]) => v) };
    }
    const start = i;
    if (c === '"') string();
    else while (i < text.length && !",}] \t\n\r".includes(text[i])) i++;
    return { raw: text.slice(start, i) };
  };
  return value();
}

const get = (node, key) => node.entries?.find(([k]) => k === key)?.[1];

/** `want` is `got` or a part of it (objects: every key of `want`, compared the same way). */
function subset(want, got) {
  if (want !== null && typeof want === "object" && !Array.isArray(want)) {
    return got !== null && typeof got === "object" && Object.entries(want).every(([k, v]) => k in got && subset(v, got[k]));
  }
  if (Array.isArray(want)) return Array.isArray(got) && want.length === got.length && want.every((w, i) => subset(w, got[i]));
  return JSON.stringify(want) === JSON.stringify(got);
}

test("the mediation suite has cases", () => {
  assert.ok(cases.length >= 10, `only ${cases.length} cases in ${dir}`);
});

for (const name of cases) {
  test(`mediation: ${name}`, () => {
    const text = readFileSync(join(dir, name), "utf8");
    const c = JSON.parse(text);
    const raw = readRaw(text);
    const options = c.options ?? {};
    const guard = createGuard(c.policy ?? {});
    const start = (stored) =>
      guard.mediator({
        server: options.server ?? undefined,
        foreignNames: options.foreign_names ?? [],
        idPrefix: c.id_prefix ?? "mcp-guard-test",
        record: c.record === undefined ? undefined : { key: c.record.key, stored },
      });
    let m = start(undefined);
    let persisted;
    try {
      get(raw, "steps").items.forEach((stepRaw, i) => {
        const step = c.steps[i];
        if (step.restart === true) {
          m.dispose();
          m = start(persisted);
          return;
        }
        if (Array.isArray(step.approve)) {
          assert.ok(persisted !== undefined, `${name} step ${i}: nothing persisted`);
          persisted = recordApprove(persisted, step.approve).text;
          return;
        }
        const message = get(stepRaw, "message");
        const input = message !== undefined ? message.raw : step.text;
        const outs = step.from === "client" ? m.onClientMessage(input) : m.onServerMessage(input);
        const where = `${name} step ${i}`;
        for (const [key, to] of [
          ["to_server", "server"],
          ["to_client", "client"],
        ]) {
          const want = (get(stepRaw, key)?.items ?? []).map((v) => v.raw);
          const got = outs.filter((o) => o.to === to).map((o) => readRaw(o.text).raw);
          assert.deepEqual(got, want, `${where} ${key}`);
        }
        const persists = outs.filter((o) => o.to === "persist").map((o) => JSON.parse(o.text));
        const wantPersist = step.persist ?? [];
        assert.ok(
          wantPersist.length === persists.length && wantPersist.every((w, j) => subset(w, persists[j])),
          `${where} persist:\n  want ${JSON.stringify(wantPersist)}\n  got  ${JSON.stringify(persists)}`,
        );
        const last = outs.filter((o) => o.to === "persist").at(-1);
        if (last !== undefined) persisted = last.text;
        const wantLogs = step.log ?? [];
        const gotLogs = outs.filter((o) => o.to === "log").map((o) => o.log);
        assert.ok(
          wantLogs.length === gotLogs.length && wantLogs.every((w, j) => subset(w, gotLogs[j])),
          `${where} log:\n  want ${JSON.stringify(wantLogs)}\n  got  ${JSON.stringify(gotLogs)}`,
        );
      });
      if (c.record !== undefined) {
        assert.ok(persisted !== undefined, `${name}: a record case persists a record`);
        assert.equal(m.pinRecord(), persisted, `${name}: the record as it stands is the one last persisted`);
      }
    } finally {
      m.dispose();
      guard.dispose();
    }
  });
}

test("a mediator restored from a stored baseline compares instead of pinning, and forgets it on request", () => {
  const guard = createGuard({});
  const listing = { tools: [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }] };
  const first = guard.mediator({ idPrefix: "mcp-guard-a" });
  first.onClientMessage({ jsonrpc: "2.0", id: 1, method: "tools/list" });
  first.onServerMessage({ jsonrpc: "2.0", id: "mcp-guard-a-1", result: listing });
  const stored = first.baseline();
  assert.equal(typeof stored, "string");

  // A later run: the stored baseline gates calls before any listing…
  const later = guard.mediator({ idPrefix: "mcp-guard-b", baseline: stored });
  const call = later.onClientMessage({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } });
  assert.deepEqual(call.map((o) => o.to), ["server"]);
  // …and its first listing is compared with it.
  later.onClientMessage({ jsonrpc: "2.0", id: 8, method: "tools/list" });
  const outs = later.onServerMessage({ jsonrpc: "2.0", id: "mcp-guard-b-2", result: listing });
  assert.equal(outs.find((o) => o.to === "log" && o.log.event === "listing").log.baseline, "compared");

  // Forgotten: nothing is callable until a listing pins again.
  later.restore(undefined);
  assert.equal(later.baseline(), undefined);
  const refused = later.onClientMessage({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: {} } });
  assert.deepEqual(refused.map((o) => o.to), ["client", "log"]);
  assert.equal(JSON.parse(refused[0].text).error.data.reason, "unknown-tool");

  // A baseline this engine cannot read is a typed error, not a guess.
  assert.throws(() => guard.mediator({ baseline: '{"format":"nope"}' }), (e) => e.kind === "invalid-baseline");
  assert.throws(() => later.restore("not json"), (e) => e.kind === "invalid-baseline");
  assert.throws(() => guard.mediator({ idPrefix: "1-looks-like-a-number" }), (e) => e.kind === "other");
});
