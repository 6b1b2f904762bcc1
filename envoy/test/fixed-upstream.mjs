// The upstream of the performance table's Envoy row (table.mjs): answers
// every POST to /NAME with the catalog file given for NAME as the result of a
// JSON-RPC answer under the request's own id (the filter sends requests
// upstream under ids it mints), and every other request with an empty 200.
// No SDK; per request only the small request body is read: what Envoy adds
// is all there is.
//
//   node fixed-upstream.mjs PORT NAME=CATALOG.json ...
import http from "node:http";
import fs from "node:fs";

const [port, ...files] = process.argv.slice(2);
const answers = new Map(
  files.map((f) => {
    const [name, path] = f.split(/=(.*)/s);
    return [`/${name}`, fs.readFileSync(path)];
  }),
);
const TAIL = Buffer.from("}");

http
  .createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const catalog = req.method === "POST" ? answers.get(req.url) : undefined;
      if (!catalog) return res.writeHead(200, { "content-length": 0 }).end();
      let id = "1";
      try {
        id = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")).id ?? 1);
      } catch {}
      const head = Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":`);
      res.writeHead(200, { "content-type": "application/json", "content-length": head.length + catalog.length + TAIL.length });
      res.write(head);
      res.write(catalog);
      res.end(TAIL);
    });
  })
  .listen(Number(port), "127.0.0.1");
