// The upstream of the performance table's Envoy row (table.mjs): answers
// every POST to /NAME with the same bytes, a JSON-RPC answer with id 1 whose
// result is the catalog file given for NAME, and every other request with an
// empty 200. No SDK, no per-request work: what Envoy adds is all there is.
//
//   node fixed-upstream.mjs PORT NAME=CATALOG.json ...
import http from "node:http";
import fs from "node:fs";

const [port, ...files] = process.argv.slice(2);
const answers = new Map(
  files.map((f) => {
    const [name, path] = f.split(/=(.*)/s);
    const body = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"result":'), fs.readFileSync(path), Buffer.from("}")]);
    return [`/${name}`, body];
  }),
);

http
  .createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const body = req.method === "POST" ? answers.get(req.url) : undefined;
      if (!body) return res.writeHead(200, { "content-length": 0 }).end();
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length }).end(body);
    });
  })
  .listen(Number(port), "127.0.0.1");
