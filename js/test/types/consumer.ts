// Compiled with `tsc --noEmit` by test/types.test.mjs: the package's .d.ts
// files describe what a TypeScript host writes.
import { createGuard, estimateTokens, GuardError, search, toolSchema, type CallDecision, type Outcome, type SearchHit } from "mcp-guard";
import { guardClient, CallRefusedError, ListingRefusedError, MemoryStore } from "mcp-guard/mcp";
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
