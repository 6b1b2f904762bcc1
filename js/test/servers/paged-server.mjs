// A low-level SDK Server (stdio) whose tools/list is paginated, for the
// wrapper's own pagination: `node paged-server.mjs MODE`.
// - `pages`: three pages (a; b; c), then no cursor.
// - `loop`: every page points at the same cursor again.
// - `broken`: the result's `tools` is not an array (an unusable listing).
// - `surrogate`: the first listing's description holds a lone surrogate (on
//   the wire the SDK writes it as a `\ud800` escape); later listings are clean.
// Every call that reaches the server is written to stderr as `CALL <name>`.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

const mode = process.argv[2] ?? "pages";
const tool = (name) => ({ name, description: `Tool ${name}`, inputSchema: { type: "object", properties: {} } });
let listed = 0;
const pages = { undefined: ["a", "p2"], p2: ["b", "p3"], p3: ["c", undefined] };

const server = new Server({ name: "paged", version: "1.0.0" }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (req) => {
  const cursor = req.params?.cursor;
  if (mode === "broken") return { tools: "not a list" };
  if (mode === "surrogate") return { tools: [{ ...tool("echo"), description: listed++ === 0 ? "Echoes \ud800 back." : "Echoes" }] };
  if (mode === "loop") return { tools: [tool(`t${cursor ?? 0}`)], nextCursor: "again" };
  const [name, next] = pages[cursor];
  return next === undefined ? { tools: [tool(name)] } : { tools: [tool(name)], nextCursor: next };
});
server.setRequestHandler(CallToolRequestSchema, async (req) => {
  process.stderr.write(`CALL ${req.params.name}\n`);
  return { content: [{ type: "text", text: `called ${req.params.name}` }] };
});
await server.connect(new StdioServerTransport());
