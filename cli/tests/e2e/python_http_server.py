"""python_sdk_server.py's server over Streamable HTTP (official Python SDK
2.x, protocol 2026-07-28 and 2025-11-25), for test_python_sdk.py's
`proxy --url` cases: `python python_http_server.py PORT` serves
http://127.0.0.1:PORT/mcp."""

import sys

from python_sdk_server import server

if __name__ == "__main__":
    server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[1]))
