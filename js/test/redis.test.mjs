// The Redis session store against a real redis-server: the store contract,
// and two guarded clients (two gateway replicas, each with its own upstream
// connection) sharing one Redis: a pin made by one is the other's baseline,
// a tombstone set by one refuses the other.
//
// Uses $MCP_GUARD_REDIS_URL (scripts/test-js.sh starts redis-server on a
// random loopback port); without it, starts `redis-server` itself the same
// way and stops it after.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { createClient } from "redis";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { CallRefusedError, ListingRefusedError, guardClient } from "../mcp.js";
import { RedisStore } from "../redis.js";
import { here, stop } from "./helpers.mjs";

const testServer = join(here, "servers/test-server.mjs");
const INVALIDATE = {
  core: { tool_definition_pinning: { mode: "block", block_strategy: "error", block_error_session_action: "invalidate" } },
};

let redisProc;
let url = process.env.MCP_GUARD_REDIS_URL;
const clients = [];

function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

before(async () => {
  if (url) return;
  const port = await freePort();
  redisProc = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  await new Promise((resolve, reject) => {
    redisProc.once("spawn", resolve);
    redisProc.once("error", (e) => reject(new Error(`redis-server: ${e.message} (install the Debian package redis-server)`)));
  });
  url = `redis://127.0.0.1:${port}`;
});

after(async () => {
  for (const c of clients) await c.quit().catch(() => {});
  if (redisProc) await stop(redisProc);
});

async function redis() {
  for (let i = 0; ; i++) {
    const c = createClient({ url, socket: { reconnectStrategy: false } });
    c.on("error", () => {});
    try {
      await c.connect();
      clients.push(c);
      return c;
    } catch (e) {
      if (i > 50) throw e;
      await sleep(100); // redis-server still starting
    }
  }
}

const uniq = () => `t${process.pid}-${Math.random().toString(36).slice(2)}:`;

test("RedisStore keeps the store contract: baselines as is, expiry, terminal tombstones, touch, delete", async () => {
  const r = await redis();
  const store = new RedisStore(r, { prefix: uniq() });
  assert.equal(await store.get("s"), undefined);

  const baseline = '{"v":1,"opaque":"\u00e9\u200b"}';
  await store.put("s", { state: "active", baseline }, 60_000);
  assert.deepEqual(await store.get("s"), { state: "active", baseline });

  await store.put("short", { state: "active", baseline: "b" }, 50);
  await sleep(120);
  assert.equal(await store.get("short"), undefined, "expired by Redis (PX)");

  await store.put("s", { state: "tombstone", reason: "drift", until: 123 }, 60_000);
  await store.put("s", { state: "active", baseline: "revived?" }, 60_000);
  assert.deepEqual(await store.get("s"), { state: "tombstone", reason: "drift", until: 123 }, "a tombstone is terminal");

  await store.put("t", { state: "active", baseline: "b" }, 200);
  await store.touch("t", 60_000);
  await sleep(300);
  assert.equal((await store.get("t")).state, "active", "touch extended the TTL");

  await store.delete("s");
  assert.equal(await store.get("s"), undefined);
});

async function replica(store, sessionKey, onToolsChanged) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [testServer], stderr: "pipe" });
  const sent = [];
  const send = transport.send.bind(transport);
  transport.send = (m, o) => {
    if (m.method === "tools/call") sent.push(m.params.name);
    return send(m, o);
  };
  const client = new Client({ name: "replica", version: "1.0.0" });
  await client.connect(transport);
  return { guarded: guardClient(client, { policy: INVALIDATE, store, sessionKey, onToolsChanged }), sent };
}

test("two replicas sharing one Redis see the same pins and tombstones", async () => {
  const prefix = uniq();
  const storeA = new RedisStore(await redis(), { prefix });
  const storeB = new RedisStore(await redis(), { prefix });
  let changed;
  const changedP = new Promise((resolve) => (changed = resolve));
  const a = await replica(storeA, "shared-session", (error) => changed(error));
  const b = await replica(storeB, "shared-session");
  try {
    // A pins; B never listed, yet the pin is B's baseline too.
    await a.guarded.listTools();
    const pinned = a.guarded.lastListing.pinned.baseline;
    assert.equal((await storeB.get("shared-session")).baseline, pinned);
    assert.equal((await b.guarded.callTool({ name: "echo", arguments: { message: "via B" } })).content[0].text, "Echo: via B");
    await refusedCall(b.guarded.callTool({ name: "nope", arguments: {} }), "unknown-tool");

    // B's own listing is compared with A's pin (same upstream catalog).
    await b.guarded.listTools();
    assert.ok(b.guarded.lastListing.compared, "B compared instead of pinning");
    assert.deepEqual(b.guarded.lastListing.compared.drift, []);

    // A's upstream pulls the rug; A's re-list tombstones the shared session.
    await a.guarded.callTool({ name: "mutate", arguments: {} });
    const error = await Promise.race([changedP, sleep(10_000).then(() => new Error("no list_changed"))]);
    assert.ok(error instanceof ListingRefusedError && error.kind === "session-invalidated", String(error));

    // B sees the tombstone: its calls and listings are refused before its upstream.
    assert.equal((await storeB.get("shared-session")).state, "tombstone");
    await refusedCall(b.guarded.callTool({ name: "echo", arguments: { message: "after" } }), "session-invalidated");
    await assert.rejects(b.guarded.listTools(), (e) => e instanceof ListingRefusedError && e.kind === "session-invalidated");
    assert.deepEqual(b.sent, ["echo"], "B's refused calls never reached its server");
  } finally {
    await a.guarded.close();
    await b.guarded.close();
  }
});

async function refusedCall(promise, kind) {
  await assert.rejects(promise, (e) => e instanceof CallRefusedError && e.kind === kind);
}

test("pins across runs in Redis: a rug pull between two runs is quarantined until approved (TS SDK client and McpServer)", async () => {
  const { rugPullAcrossRuns } = await import("./pins-runs.mjs");
  const r = await redis();
  const prefix = uniq();
  const store = new RedisStore(r, { prefix });
  await rugPullAcrossRuns(store);
  // One record, in its own namespace, without expiry (pins outlive sessions).
  const keys = await r.sendCommand(["KEYS", `${prefix}records:*`]);
  assert.equal(keys.length, 1);
  assert.equal(await r.sendCommand(["PTTL", keys[0]]), -1);
  // Another prefix sees none of it.
  assert.deepEqual(await new RedisStore(r, { prefix: uniq() }).listRecords(), []);
});

test("RedisStore pin records: replaced whole, listed by id, deleted; a prefix with glob characters matches only itself", async () => {
  const r = await redis();
  const base = uniq();
  const store = new RedisStore(r, { prefix: `${base}*` });
  const other = new RedisStore(r, { prefix: `${base}x` });
  await other.putRecord("aa", "other");
  assert.equal(await store.getRecord("aa"), undefined);
  await store.putRecord("bb", "one");
  await store.putRecord("aa", "two");
  await store.putRecord("bb", "three");
  assert.deepEqual(await store.listRecords(), [
    { id: "aa", text: "two" },
    { id: "bb", text: "three" },
  ]);
  await store.deleteRecord("aa");
  assert.deepEqual(await store.listRecords(), [{ id: "bb", text: "three" }]);
  assert.deepEqual(await other.listRecords(), [{ id: "aa", text: "other" }]);
});
