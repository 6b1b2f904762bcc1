// The upstream of served-results.test.mjs: `node catalog-upstream.mjs PORT
// FILE...` answers a JSON-RPC POST to /mcp/N with the N-th catalog file as
// its result (under the request's own id: the filter mints ids), with the
// result fields protocol 2026-07-28 requires added in front. Raw bytes, not
// an SDK server: it must serve catalogs no SDK would build (real ones as
// captured, adversarial ones as written).
import http from "node:http";
import fs from "node:fs";

const [port, ...files] = process.argv.slice(2);
const FIELDS = { ttlMs: "60000", cacheScope: '"public"', resultType: '"complete"' };

http
  .createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const n = Number(/^\/mcp\/(\d+)$/.exec(req.url ?? "")?.[1]);
      if (req.method !== "POST" || !(n >= 0 && n < files.length)) return res.writeHead(404).end();
      const id = JSON.stringify(JSON.parse(Buffer.concat(chunks).toString("utf8")).id);
      const text = fs.readFileSync(files[n], "utf8").trim();
      // An object gets the fields inside it (no real catalog has them); a
      // catalog that is no object (the envelope cases) goes as it is.
      // Only the fields it lacks (a real server may send them already; a
      // second copy would be a duplicate key), as raw text so the catalog's
      // own bytes (huge numbers included) reach the filter unchanged.
      let result = text;
      if (text.startsWith("{")) {
        let has = {};
        try {
          has = JSON.parse(text);
        } catch {}
        const add = Object.entries(FIELDS)
          .filter(([k]) => !(has !== null && typeof has === "object" && k in has))
          .map(([k, v]) => `"${k}":${v}`)
          .join(",");
        const rest = text.slice(1).trimStart();
        result = add ? `{${add}${rest.startsWith("}") ? "" : ","}${rest}` : text;
      }
      const body = Buffer.from(`{"jsonrpc":"2.0","id":${id},"result":${result}}`);
      res.writeHead(200, { "content-type": "application/json", "content-length": body.length }).end(body);
    });
  })
  .listen(Number(port), "127.0.0.1");
