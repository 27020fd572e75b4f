#!/usr/bin/env python3
"""A stand-in for navsim that refuses every write: the server no CI gate may pass against.

    NAVSIM_BIN=scripts/gates/refuse-writes.py scripts/schemathesis.sh

It takes navsim's command line (`[serve] --host H --port P --db F …`), starts the real binary
(`$NAVSIM_REAL_BIN`, default .build/release/navsim) on a free loopback port with the other
arguments, and listens on H:P itself. Reads (GET, HEAD, OPTIONS) are passed through unchanged;
every other request is answered `$REFUSE_STATUS` (default 409: a refusal that is neither a 5xx
nor a crash, so only a gate that counts what it checked can notice) as problem+json, and the
real server never sees it. It logs the real server's `listening` line with its own address and one
JSON line per request, as navsim does, so the gates read it as they read navsim.

scripts/gates/check-gates.sh runs every gate against it and expects each to fail. Python 3
standard library only; loopback only; it ends with its real server (SIGTERM or SIGKILL, whose
death the child follows through PR_SET_PDEATHSIG).
"""

from __future__ import annotations

import ctypes
import http.client
import http.server
import json
import os
import re
import signal
import socketserver
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
REAL = Path(os.environ.get("NAVSIM_REAL_BIN", REPO / ".build" / "release" / "navsim"))
STATUS = int(os.environ.get("REFUSE_STATUS", "409"))
PASSED = {"GET", "HEAD", "OPTIONS"}


def die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def log(members: dict) -> None:
    sys.stderr.write(json.dumps(members, separators=(",", ":")) + "\n")
    sys.stderr.flush()


def main() -> int:
    args = sys.argv[1:]
    if args and args[0] == "serve":
        args = args[1:]
    if args and args[0] in {"test", "record", "lint", "refactor"}:
        os.execv(str(REAL), [str(REAL), *args])  # not a server: nothing to refuse
    host, port, rest = "127.0.0.1", 8080, []
    i = 0
    while i < len(args):
        name = args[i]
        if name in {"--host", "--port"} and i + 1 < len(args):
            if name == "--host":
                host = args[i + 1]
            else:
                port = int(args[i + 1])
            i += 2
            continue
        rest.append(name)
        i += 1
    real = subprocess.Popen([str(REAL), "--host", "127.0.0.1", "--port", "0", *rest],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=die_with_parent)
    upstream = None
    assert real.stderr is not None
    deadline = time.monotonic() + 30
    while upstream is None and time.monotonic() < deadline:
        line = real.stderr.readline()
        if not line:
            log({"message": "the real server exited at start", "status": real.wait()})
            return 2
        found = re.search(rb'"message":"listening".*"url":"http://[^:]+:(\d+)"', line)
        if found:
            upstream = int(found.group(1))
    if upstream is None:
        return 2
    # The real server's own log lines are read and dropped: a full pipe would block its writes.
    threading.Thread(target=lambda: [None for _ in real.stderr], daemon=True).start()

    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *_: object) -> None:
            pass

        def handle_one(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            if self.command in PASSED:
                conn = http.client.HTTPConnection("127.0.0.1", upstream, timeout=30)
                headers = {k: v for k, v in self.headers.items() if k.lower() not in {"connection", "host"}}
                conn.request(self.command, self.path, body=body or None, headers=headers)
                reply = conn.getresponse()
                data = reply.read()
                status, pairs = reply.status, [(k, v) for k, v in reply.getheaders()
                                               if k.lower() not in {"connection", "content-length", "transfer-encoding"}]
                conn.close()
            else:
                status = STATUS
                data = json.dumps({"type": "https://navsim.dev/problems/refused-by-stand-in",
                                   "title": "Refused", "status": STATUS,
                                   "detail": "this stand-in refuses every write"}).encode()
                pairs = [("Content-Type", "application/problem+json")]
            self.send_response(status)
            for k, v in pairs:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(data)
            log({"method": self.command, "path": self.path.split("?")[0], "status": status})

        do_GET = do_HEAD = do_OPTIONS = do_POST = do_PUT = do_PATCH = do_DELETE = handle_one

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True
        allow_reuse_address = True

    server = Server((host, port), Handler)
    log({"message": "listening", "url": f"http://{host}:{server.server_address[1]}", "standIn": True})

    def stop(*_: object) -> None:
        real.terminate()
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.serve_forever()
    finally:
        real.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())
