// A hostile Streamable HTTP "server" for http.test.mjs: answers initialize
// properly, then misbehaves on tools/list the way the URL path says
// (`node hostile-http-server.mjs` prints `PORT <n>`). Every bad answer holds
// RAW_MARKER so the test can tell that no raw byte of it reached the client.
// GET /_seen returns the headers of the latest POST. It also tunnels CONNECT
// to itself (a forward proxy for the HTTP_PROXY test).
import { createServer as createHttp } from "node:http";
import { createServer as createHttps } from "node:https";
import { readFileSync } from "node:fs";
import { connect } from "node:net";

const RAW_MARKER = "RAW-UPSTREAM-BYTES";
let seen = {};

function rpc(id, result) {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

const tool = { name: "echo", description: `Echoes ${RAW_MARKER}`, inputSchema: { type: "object" } };

const modes = {
  // The catalog, over the proxy's cap (the policy's max_catalog_bytes).
  oversized: (res, msg) => {
    const big = Array.from({ length: 4000 }, (_, i) => ({ ...tool, name: `t${i}`, description: RAW_MARKER.repeat(40) }));
    res.writeHead(200, { "content-type": "application/json" }).end(rpc(msg.id, { tools: big }));
  },
  // The same catalog as one SSE event.
  "oversized-sse": (res, msg) => {
    const big = Array.from({ length: 4000 }, (_, i) => ({ ...tool, name: `t${i}`, description: RAW_MARKER.repeat(40) }));
    res.writeHead(200, { "content-type": "text/event-stream" }).end(`data: ${rpc(msg.id, { tools: big })}\n\n`);
  },
  slow: (res, msg) => {
    setTimeout(() => res.writeHead(200, { "content-type": "application/json" }).end(rpc(msg.id, { tools: [tool] })), 5000);
  },
  nonjson: (res) => res.writeHead(200, { "content-type": "application/json" }).end(`<html>${RAW_MARKER}</html>`),
  ctype: (res, msg) => res.writeHead(200, { "content-type": "text/html" }).end(rpc(msg.id, { tools: [tool] })),
  // The answer under an id a client would take for its own (loosely equal
  // to the client's 1) and under an unrelated one.
  otherid: (res) => res.writeHead(200, { "content-type": "application/json" }).end(rpc(1, { tools: [tool] })),
  strangerid: (res) => res.writeHead(200, { "content-type": "application/json" }).end(rpc("someone-else", { tools: [tool] })),
  // An SSE answer cut off mid-event (no blank line, then the connection ends).
  dropped: (res, msg) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`event: message\ndata: ${rpc(msg.id, { tools: [tool] }).slice(0, 40)}`);
    setTimeout(() => res.destroy(), 100);
  },
  redirect: (res) => res.writeHead(302, { location: "https://elsewhere.example/mcp" }).end(RAW_MARKER),
  unauthorized: (res) =>
    res
      .writeHead(401, { "www-authenticate": 'Bearer resource_metadata="https://auth.example/.well-known/oauth-protected-resource"' })
      .end(RAW_MARKER),
  error500: (res) => res.writeHead(500, { "content-type": "text/plain" }).end(RAW_MARKER),
  // Not hostile: two pages (the proxy fetches the second itself).
  paged: (res, msg) => {
    const page = msg.params?.cursor === "p2" ? { tools: [{ ...tool, name: "add" }] } : { tools: [tool], nextCursor: "p2" };
    res.writeHead(200, { "content-type": "application/json" }).end(rpc(msg.id, page));
  },
  ok: (res, msg) => res.writeHead(200, { "content-type": "application/json" }).end(rpc(msg.id, { tools: [tool] })),
};

// `--tls`: HTTPS with the self-signed test certificate (testdata/tls).
const tls = process.argv.includes("--tls");
const fixture = (f) => readFileSync(new URL(`../../../testdata/tls/${f}`, import.meta.url));
const createServer = tls
  ? (handler) => createHttps({ key: fixture("self-signed.key"), cert: fixture("self-signed.crt") }, handler)
  : createHttp;

const http = createServer((req, res) => {
  const path = new URL(req.url, "http://x").pathname.slice(1);
  if (req.method === "GET" && path === "_seen") {
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen));
    return;
  }
  if (req.method !== "POST") {
    res.writeHead(405).end();
    return;
  }
  seen = req.headers;
  let body = "";
  req.on("data", (d) => (body += d));
  req.on("end", () => {
    const msg = JSON.parse(body);
    if (msg.method === "initialize") {
      const result = { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "hostile", version: "1" } };
      res.writeHead(200, { "content-type": "application/json" }).end(rpc(msg.id, result));
    } else if (msg.id === undefined) {
      res.writeHead(202).end();
    } else if (msg.method === "tools/list") {
      (modes[path] ?? modes.ok)(res, msg);
    } else {
      res.writeHead(200, { "content-type": "application/json" }).end(rpc(msg.id, { content: [] }));
    }
  });
});

// Also a forward proxy to itself: a CONNECT (how an HTTP client reaches a
// host through HTTP_PROXY) is tunnelled to this server, whatever host it names.
http.on("connect", (_req, sock, head) => {
  const up = connect(http.address().port, "127.0.0.1", () => {
    sock.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    up.write(head);
    up.pipe(sock);
    sock.pipe(up);
  });
  up.on("error", () => sock.destroy());
  sock.on("error", () => up.destroy());
});

http.listen(0, "127.0.0.1", () => console.log(`PORT ${http.address().port}`));
