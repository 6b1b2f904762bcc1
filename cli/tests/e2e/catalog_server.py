"""A raw stdio MCP server for test_served_results.py: answers the n-th
`tools/list` with the n-th catalog file named on the command line (its
`tools`, and whatever else its top level holds) plus the result fields
protocol 2026-07-28 requires, and `tools/call` with a small complete result.
Raw JSON-RPC, not an SDK server: it must serve catalogs no SDK would build
(the real ones as captured, and the adversarial ones)."""

import json
import sys

catalogs = sys.argv[1:]
served = 0

for line in sys.stdin:
    msg = json.loads(line)
    method, rid = msg.get("method"), msg.get("id")
    if rid is None:
        continue
    if method == "tools/list":
        with open(catalogs[served % len(catalogs)], encoding="utf-8") as f:
            text = f.read()
        served += 1
        try:
            result = json.loads(text)
        except ValueError:
            result = None
        if not isinstance(result, dict):
            # A catalog that is no object (the adversarial envelope cases)
            # is sent as the result as it is, on one line (a line break
            # inside JSON text is whitespace outside strings): the proxy must
            # refuse it.
            one_line = text.strip().replace("\r", " ").replace("\n", " ")
            out = '{"jsonrpc":"2.0","id":%s,"result":%s}' % (json.dumps(rid), one_line)
        else:
            result.update({"ttlMs": 60000, "cacheScope": "public", "resultType": "complete"})
            out = json.dumps({"jsonrpc": "2.0", "id": rid, "result": result})
    elif method == "tools/call":
        out = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "ok"}], "resultType": "complete"}})
    else:
        out = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"resultType": "complete"}})
    sys.stdout.write(out + "\n")
    sys.stdout.flush()
