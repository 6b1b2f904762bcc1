"""Every `tools/list` result `mcp-guard proxy` serves is one a 2026-07-28
client accepts: each real catalog of testdata/catalogs and
testdata/catalogs-wide and each adversarial catalog is listed through the
proxy by a 2026-07-28 request, and the answer is validated with the `mcp` 2.x
SDK's own wire models (`mcp_types` 2026-07-28: `ListToolsResultResponse`,
else a JSON-RPC error response). Whatever the engine removed or kept, a
client must never get a result it rejects (the Python SDK's default client
failed on the engine's listings before the result fields were kept)."""

import json
import os
import subprocess
import sys
from pathlib import Path

from mcp_types._v2026_07_28 import JSONRPCErrorResponse, ListToolsResultResponse

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
BIN = os.environ.get("MCP_GUARD_BIN", str(ROOT / "target" / "debug" / "mcp-guard"))
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}


def readable(f: Path) -> bool:
    """Python's json reads it (one adversarial file nests past its recursion
    limit and past the proxy's message parser's, 512: such an answer is
    dropped, not served, and tests/mediation.rs covers that)."""
    try:
        json.loads(f.read_text(encoding="utf-8"))
    except RecursionError:
        return False
    except ValueError:
        pass
    return True


def catalogs() -> list[Path]:
    data = ROOT / "testdata"
    files = sorted((data / "catalogs").glob("*.json")) + sorted((data / "catalogs-wide").glob("*.json"))
    files += sorted((data / "adversarial").glob("*.json"))
    return [f for f in files if readable(f)]


def test_every_listing_the_proxy_serves_validates_as_a_2026_07_28_result(tmp_path: Path) -> None:
    files = catalogs()
    assert len(files) > 250, len(files)
    proxy = subprocess.Popen(
        [BIN, "proxy", "--pin-scope", "session", "--log", str(tmp_path / "proxy.log"), "--",
         sys.executable, str(HERE / "catalog_server.py"), *map(str, files)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8",
    )
    assert proxy.stdin and proxy.stdout
    served, refused = 0, []
    try:
        for i, f in enumerate(files):
            req = {"jsonrpc": "2.0", "id": i + 1, "method": "tools/list", "params": {"_meta": META}}
            proxy.stdin.write(json.dumps(req) + "\n")
            proxy.stdin.flush()
            line = proxy.stdout.readline()
            assert line, f"{f.name}: the proxy closed its output"
            answer = json.loads(line)
            assert answer.get("id") == i + 1, (f.name, line[:300])
            if "error" in answer:
                JSONRPCErrorResponse.model_validate(answer)
                refused.append(f.name)
                continue
            r = ListToolsResultResponse.model_validate(answer)
            assert r.result.cache_scope == "public" and r.result.result_type == "complete", f.name
            served += 1
    finally:
        proxy.stdin.close()
        proxy.wait(timeout=60)
    print(f"served {served}, refused {len(refused)}: {refused}")
    # Every real catalog is served (poisoned tools are hidden, not the
    # listing); only the adversarial envelopes (no tools array, a bad
    # cursor) are refused.
    assert all(name.startswith("17-envelope") for name in refused), refused
    assert served >= len(files) - len(refused) and served > 250, (served, refused)
