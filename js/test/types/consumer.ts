// Compiled with `tsc --noEmit` by test/types.test.mjs: the package's .d.ts
// files describe what a TypeScript host writes.
import { createGuard, estimateTokens, GuardError, recordShow, search, toolSchema, type CallDecision, type Outcome, type PinRecordView, type SearchHit } from "mcp-guard";
import { guardClient, pins, CallRefusedError, ListingRefusedError, MemoryStore } from "mcp-guard/mcp";
import { RedisStore } from "mcp-guard/redis";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { createClient } from "redis";

const guard = createGuard({ core: { tool_poisoning: { mode: "block" } } });
const out: Outcome = guard.sanitize({ tools: [] }, { server: "docs", foreignNames: ["x"] });
const names: string[] = out.findings.map((f) => `${f.kind}:${f.pointer}:${f.toolIndex ?? -1}`);
const { baseline } = guard.pin('{"tools":[]}');
const c = guard.compare(baseline, { tools: [] });
if (c.decision.action === "serve") console.log(c.decision.catalog.tools.length);
else console.log(c.decision.invalidate, c.decision.message);
const d: CallDecision = guard.checkCall(c.baseline, "echo", { message: "hi" });
if (d.action === "allow") console.log(d.upstream, d.arguments);
else if (d.action === "respond") console.log(d.result.content[0]?.text, d.result.structuredContent, d.resultJson.length);
else console.log(d.reason, d.violations.map((v) => v.pointer));
const hits: SearchHit[] = guard.search(c.baseline, "add two numbers", 5);
console.log(hits.map((h) => `${h.name}:${h.title ?? ""}:${h.summary}`), guard.search(c.baseline, "x"));
const schema = guard.toolSchema(c.baseline, "get-sum");
if (schema !== undefined) console.log(schema.name, schema.inputSchema);
const tokens: number = guard.estimateTokens({ tools: [] }) + estimateTokens("{\"tools\":[]}") + search(c.baseline, "q").length;
console.log(tokens, toolSchema(c.baseline, "x"));
console.log(guard.normalizeSchema({ type: "object" }, { target: "gemini" }).strictOk, names);

try {
  createGuard("{");
} catch (e) {
  if (e instanceof GuardError) console.log(e.kind, e.details);
}

const client = new Client({ name: "host", version: "1.0.0" });
const redis = createClient();
const guarded = guardClient(client, {
  guard,
  store: Math.random() > 0.5 ? new MemoryStore() : new RedisStore(redis),
  sessionKey: () => "k",
  onToolsChanged: (err, result) => console.log(err?.message, result?.tools.length),
  onEvent: (e) => console.log(e.event, e.event === "call-answered" ? e.name : ""),
});
async function main() {
  const { tools } = await guarded.listTools();
  try {
    const r = await guarded.callTool({ name: "echo", arguments: { message: "x" } });
    console.log(tools.length, r.content);
  } catch (e) {
    if (e instanceof CallRefusedError) console.log(e.kind, e.violations);
    if (e instanceof ListingRefusedError) console.log(e.details.drift);
  }
}
void main;

// Pins across runs: a record store, the server's identity, the `pins` calls.
const pinStore = new MemoryStore();
const pinned = guardClient(new Client({ name: "desktop", version: "1.0.0" }), {
  pins: { store: Math.random() > 0.5 ? pinStore : new RedisStore(redis), server: "docs", principal: "alice" },
});
async function approveAll() {
  const key = pinned.pins?.key ?? pins.key("docs", "alice");
  for (const r of await pins.list(pinStore)) if ("error" in r) console.log(r.id, r.kind);
  const shown: PinRecordView = await pins.show(pinStore, key);
  for (const p of shown.pending) for (const c of p.changes) console.log(p.name, p.kind, c.pointer, c.before, c.after);
  const approved: string[] = await pins.approve(pinStore, key);
  console.log(approved, await pins.forget(pinStore, key, ["echo"]), recordShow("{}").serverInfo?.name);
}
void approveAll;
