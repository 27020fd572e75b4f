#!/usr/bin/env python3
"""SIGTERM under 32 writers: no request is cut off, every acknowledged write is kept.

    python3 scripts/sigterm-drain.py [--binary .build/release/navsim] [--rounds 3] [--clients 32]
                                     [--grace 10] [--min-acked 500] [--budget 60]

Each round starts the binary on a fresh SQLite database (127.0.0.1, port 0 read back from its
`listening` log line) and runs `--clients` writer threads, each on keep-alive connections of
its own, each writing to a session of its own (create it, then push and pop on its navigation
controller), recording every acknowledged write (a 2xx reply read whole). Once at least
`--min-acked` writes are acknowledged, every writer sends its next request but the last byte
of the body and waits; when all have, the server gets SIGTERM, and then the last bytes go out:
at least `--clients` requests are in flight at the signal. Each writer also holds a second
keep-alive connection, idle at the signal, and sends one more write on it right after. The
writers go on until the server refuses their new connection.

Asserted each round, and the script exits 1 on any failure or below a minimum:
  - no connection reset: every request that was sent got a whole reply; a connection attempt
    refused (ECONNREFUSED) after the signal is the only failure allowed;
  - every reply is 2xx, or 503 application/problem+json of type /v1/problems/server-stopping;
  - at least --min-acked writes acknowledged before the signal, at least --clients requests
    in flight at it (sent before it, answered after it);
  - the process exits 0 within --grace seconds of the signal;
  - after a restart on the same database, every acknowledged write is there: the session's
    version is at least the acknowledged one and its history holds that version for the same
    request (method and path).
Loopback only; Python 3 standard library only; bounded by --budget seconds in all.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
STOPPING_TYPE = "/v1/problems/server-stopping"


class Cut(Exception):
    """A request that was sent and got no whole reply (reset, or end of stream)."""


class Refused(Exception):
    """A new connection refused: the server has stopped listening."""


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    @property
    def closes(self) -> bool:
        return self.headers.get("connection", "").lower() == "close"


class Connection:
    """HTTP/1.1 on one keep-alive socket, spoken by hand so that a request can be held back
    at its last byte and so that every way a reply can fail to arrive is seen as such."""

    def __init__(self, port: int, timeout: float) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.settimeout(timeout)
        try:
            self.sock.connect(("127.0.0.1", port))
        except ConnectionRefusedError as e:
            self.sock.close()
            raise Refused() from e
        except OSError as e:
            self.sock.close()
            raise Cut(f"connect: {e!r}") from e
        self.buffer = b""

    def close(self) -> None:
        self.sock.close()

    @staticmethod
    def encode(method: str, path: str, body: dict) -> bytes:
        data = json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(data)}\r\n\r\n")
        return head.encode() + data

    def send(self, data: bytes) -> None:
        try:
            self.sock.sendall(data)
        except OSError as e:
            raise Cut(f"send: {e!r}") from e

    def _fill(self) -> None:
        try:
            chunk = self.sock.recv(65536)
        except OSError as e:
            raise Cut(f"recv: {e!r}") from e
        if not chunk:
            raise Cut("end of stream before a whole reply")
        self.buffer += chunk

    def read_reply(self) -> Reply:
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ")[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Reply(status, headers, body)


@dataclass(frozen=True)
class Ack:
    sid: str
    version: int
    method: str
    path: str


@dataclass
class Round:
    """What the writers of one round saw."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    acked_before_signal: int = 0
    failures: list[str] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)
    refused_connects: int = 0
    in_flight_at_signal: int = 0
    sent_after_signal: int = 0
    signalled_at: float | None = None

    def fail(self, what: str) -> None:
        with self.lock:
            self.failures.append(what)


class Writer(threading.Thread):
    """One client: one session of its own, pushes and pops on its navigation controller."""

    def __init__(self, index: int, port: int, tally: Round, hold: threading.Event, held: threading.Semaphore,
                 go: threading.Event, deadline: float) -> None:
        super().__init__(daemon=True)
        self.sid = f"w{index}"
        self.port, self.tally, self.deadline = port, tally, deadline
        self.hold, self.held, self.go = hold, held, go
        self.conn: Connection | None = None
        self.n = 0
        self.depth = 1

    def request(self, method: str, path: str, body: dict) -> Reply | None:
        """One request; None once the server refuses new connections. Raises Cut."""
        if self.conn is None:
            try:
                self.conn = Connection(self.port, timeout=15)
            except Refused:
                with self.tally.lock:
                    self.tally.refused_connects += 1
                    signalled = self.tally.signalled_at is not None
                if not signalled:
                    raise Cut("connection refused before the signal")
                return None
        data = Connection.encode(method, path, body)
        held = False
        spare: Connection | None = None
        if self.hold.is_set() and not self.go.is_set():
            # A second keep-alive connection, open and idle at the signal: right after it, one
            # more write goes out on it (answered 2xx, or 503 server-stopping, never cut off).
            spare = Connection(self.port, timeout=15)
            spare.send(f"GET /v1/sessions/{self.sid} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            warm = spare.read_reply()
            if warm.status != 200 or warm.closes:
                raise Cut(f"the spare connection's GET: {warm.status}")
            # The in-flight request at the signal: all but the last byte now, the rest after it.
            self.conn.send(data[:-1])
            self.held.release()
            self.go.wait()
            held = True
            self.conn.send(data[-1:])
            self.n += 1
            spare_path = f"/v1/sessions/{self.sid}/controllers/nav/push"
            spare.send(Connection.encode("POST", spare_path, {"viewController": {"id": f"s{self.n}"}}))
        else:
            self.conn.send(data)
        reply = self.conn.read_reply()
        with self.tally.lock:
            self.tally.statuses[reply.status] = self.tally.statuses.get(reply.status, 0) + 1
            if held and self.tally.signalled_at is not None:
                self.tally.in_flight_at_signal += 1
        if reply.closes:
            self.conn.close()
            self.conn = None
        if spare is not None:
            after = spare.read_reply()
            spare.close()
            with self.tally.lock:
                self.tally.statuses[after.status] = self.tally.statuses.get(after.status, 0) + 1
                self.tally.sent_after_signal += 1
            if self.check("POST", spare_path, after, 200):
                self.depth += 1
        return reply

    def check(self, method: str, path: str, reply: Reply, ok: int) -> bool:
        """Records an acknowledged write; True when it was one."""
        if reply.status == ok:
            try:
                version = 0 if ok == 201 else int(json.loads(reply.body)["version"])
            except (ValueError, KeyError, TypeError):
                self.tally.fail(f"{method} {path}: {reply.status} without a version: {reply.body[:200]!r}")
                return False
            with self.tally.lock:
                self.tally.acks.append(Ack(self.sid, version, method, path))
                if self.tally.signalled_at is None:
                    self.tally.acked_before_signal += 1
            return True
        problem = None
        try:
            problem = json.loads(reply.body)
        except ValueError:
            pass
        if (reply.status == 503 and reply.headers.get("content-type", "").startswith("application/problem+json")
                and isinstance(problem, dict) and problem.get("type") == STOPPING_TYPE):
            return False
        self.tally.fail(f"{method} {path}: {reply.status} {reply.headers.get('content-type')} {reply.body[:200]!r}")
        return False

    def run(self) -> None:
        try:
            created = False
            while time.monotonic() < self.deadline:
                if not created:
                    path, body, ok = "/v1/sessions", {"id": self.sid, "root": {
                        "id": "nav", "kind": "navigationController",
                        "viewControllers": [{"id": "root", "class": "RootViewController"}]}}, 201
                else:
                    self.n += 1
                    if self.depth < 3:
                        path, body = f"/v1/sessions/{self.sid}/controllers/nav/push", {"viewController": {"id": f"p{self.n}"}}
                    else:
                        path, body = f"/v1/sessions/{self.sid}/controllers/nav/pop", {}
                    ok = 200
                reply = self.request("POST", path, body)
                if reply is None:
                    return  # refused after the signal: this writer is done
                if self.check("POST", path, reply, ok):
                    if not created:
                        created = True
                    elif path.endswith("/push"):
                        self.depth += 1
                    else:
                        self.depth -= 1
                elif not created and reply.status == 503:
                    return  # the session was never created: nothing more to write
            self.tally.fail(f"{self.sid}: still writing at the round's deadline")
        except Cut as e:
            self.tally.fail(f"{self.sid}: request {self.n} cut off: {e}")
        finally:
            if self.conn:
                self.conn.close()
            if self.hold.is_set() and not self.go.is_set():
                self.held.release()  # never leave the signaller waiting


class Server:
    def __init__(self, binary: Path, db: Path, log: Path, grace: int) -> None:
        # The grace through the environment (NAVSIM_SHUTDOWN_GRACE), which a binary from before
        # the flag ignores instead of refusing: the script runs against one to show it fails.
        env = dict(os.environ, NAVSIM_MIGRATIONS=str(REPO / "migrations"), NAVSIM_OPENAPI=str(REPO / "openapi.yaml"),
                   NAVSIM_SHUTDOWN_GRACE=str(grace))
        self.log = log
        self.out = open(log, "wb")
        self.proc = subprocess.Popen([str(binary), "serve", "--host", "127.0.0.1", "--port", "0", "--db", str(db)],
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=subprocess.STDOUT, env=env)
        self.port = self._listening_port()

    def _listening_port(self) -> int:
        """The port of the `listening` line: bound by the server itself (port 0), so no other
        process can take it between a pick and the bind."""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for line in self.log.read_text(errors="replace").splitlines():
                try:
                    event = json.loads(line)
                except ValueError:
                    continue
                if isinstance(event, dict) and event.get("message") == "listening":
                    return int(event["url"].rsplit(":", 1)[1])
            if self.proc.poll() is not None:
                raise RuntimeError(f"navsim ended with {self.proc.returncode} before listening:\n{self.tail()}")
            time.sleep(0.02)
        raise RuntimeError(f"navsim logged no listening line within 30 s:\n{self.tail()}")

    def tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])

    def get(self, path: str) -> tuple[int, dict | None]:
        conn = Connection(self.port, timeout=15)
        try:
            conn.send(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
            reply = conn.read_reply()
        finally:
            conn.close()
        try:
            return reply.status, json.loads(reply.body)
        except ValueError:
            return reply.status, None

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.out.close()


def history(srv: Server, sid: str) -> dict[int, tuple[str, str]]:
    entries: dict[int, tuple[str, str]] = {}
    after = 0
    for _ in range(1000):
        status, page = srv.get(f"/v1/sessions/{sid}/history?after={after}&limit=1000")
        if status != 200 or not isinstance(page, dict):
            raise RuntimeError(f"GET history of {sid}: {status}")
        for e in page["entries"]:
            req = e.get("request") or {}
            entries[int(e["version"])] = (req.get("method", ""), req.get("path", ""))
        if "next" not in page:
            return entries
        after = int(page["next"])
    raise RuntimeError(f"history of {sid} does not end")


def missing(srv: Server, acks: list[Ack]) -> list[str]:
    by_session: dict[str, list[Ack]] = {}
    for a in acks:
        by_session.setdefault(a.sid, []).append(a)
    lost: list[str] = []
    for sid, items in sorted(by_session.items()):
        status, session = srv.get(f"/v1/sessions/{sid}")
        if status != 200 or not isinstance(session, dict):
            lost += [f"{sid}@{a.version} (the session answers {status})" for a in items]
            continue
        have = int(session["version"])
        entries = history(srv, sid) if max(a.version for a in items) > 0 else {}
        for a in items:
            if a.version > have:
                lost.append(f"{sid}@{a.version}: the session is at version {have}")
            elif a.version > 0 and entries.get(a.version) != (a.method, a.path):
                lost.append(f"{sid}@{a.version}: history has {entries.get(a.version)}, acknowledged {a.method} {a.path}")
    return lost


def run_round(number: int, args: argparse.Namespace, folder: Path, budget_end: float) -> list[str]:
    db = folder / f"round{number}.sqlite"
    srv = Server(args.binary, db, folder / f"round{number}.log", args.grace)
    tally = Round()
    hold, go = threading.Event(), threading.Event()
    held = threading.Semaphore(0)
    deadline = min(budget_end, time.monotonic() + args.round_seconds)
    writers = [Writer(i, srv.port, tally, hold, held, go, deadline) for i in range(args.clients)]
    problems: list[str] = []
    try:
        for w in writers:
            w.start()
        while time.monotonic() < deadline:
            with tally.lock:
                if tally.acked_before_signal >= args.min_acked or tally.failures:
                    break
            time.sleep(0.01)
        hold.set()
        ready = 0
        while ready < args.clients and time.monotonic() < deadline:
            if held.acquire(timeout=0.1):
                ready += 1
        time.sleep(0.05)  # the held requests' heads have reached the server
        with tally.lock:
            tally.signalled_at = time.monotonic()
            acked = tally.acked_before_signal
        srv.proc.send_signal(signal.SIGTERM)
        go.set()
        try:
            code = srv.proc.wait(timeout=args.grace)
            exited = time.monotonic() - tally.signalled_at
        except subprocess.TimeoutExpired:
            code, exited = None, None
        for w in writers:
            w.join(timeout=max(1.0, deadline - time.monotonic()))
        if any(w.is_alive() for w in writers):
            problems.append("writers still running at the round's deadline")

        problems += tally.failures[:20]
        if len(tally.failures) > 20:
            problems.append(f"... {len(tally.failures) - 20} more failures")
        if acked < args.min_acked:
            problems.append(f"only {acked} writes acknowledged before the signal (minimum {args.min_acked})")
        if tally.in_flight_at_signal < args.clients:
            problems.append(f"only {tally.in_flight_at_signal} requests in flight at the signal (minimum {args.clients})")
        if code is None:
            problems.append(f"navsim still running {args.grace} s after SIGTERM")
        elif code != 0:
            problems.append(f"navsim exited {code} after SIGTERM")
        others = {s: n for s, n in tally.statuses.items() if not (200 <= s < 300 or s == 503)}
        if others:
            problems.append(f"replies other than 2xx and 503: {others}")

        srv.kill()
        again = Server(args.binary, db, folder / f"round{number}-restart.log", args.grace)
        try:
            lost = missing(again, tally.acks)
        finally:
            again.proc.send_signal(signal.SIGTERM)
            try:
                again.proc.wait(timeout=args.grace + 5)
            except subprocess.TimeoutExpired:
                pass
            again.kill()
        problems += [f"lost: {x}" for x in lost[:20]]
        statuses = ", ".join(f"{s}: {n}" for s, n in sorted(tally.statuses.items()))
        print(f"round {number}: {acked} acknowledged before SIGTERM, {tally.in_flight_at_signal} in flight at it, "
              f"{tally.sent_after_signal} sent after it on connections open before it, "
              f"{len(tally.acks)} acknowledged in all; replies {{{statuses}}}; "
              f"{tally.refused_connects} connections refused after it; {len(tally.failures)} cut off; "
              f"exit {code} after {'%.2f s' % exited if exited is not None else 'no exit'}; "
              f"{len(tally.acks) - len(lost)}/{len(tally.acks)} acknowledged writes present after restart", flush=True)
    finally:
        go.set()
        srv.kill()
    if problems:
        print(f"round {number} FAILED:\n  " + "\n  ".join(problems), flush=True)
        print(f"server log (tail):\n{srv.tail()}", flush=True)
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", type=Path, default=Path(os.environ.get("NAVSIM_BIN", REPO / ".build" / "release" / "navsim")))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--grace", type=int, default=10, help="--shutdown-grace given to navsim, seconds")
    ap.add_argument("--min-acked", type=int, default=500, help="writes acknowledged before the signal, at least")
    ap.add_argument("--round-seconds", type=float, default=30.0, help="at most, per round")
    ap.add_argument("--budget", type=float, default=60.0, help="seconds for all rounds")
    args = ap.parse_args()
    if not args.binary.exists():
        print(f"no binary at {args.binary}: build it first (swift build -c release)", file=sys.stderr)
        return 2
    budget_end = time.monotonic() + args.budget
    failed = 0
    with tempfile.TemporaryDirectory(prefix="sigterm-drain-") as tmp:
        for number in range(1, args.rounds + 1):
            if time.monotonic() >= budget_end:
                print(f"budget of {args.budget:.0f} s used up before round {number}")
                return 1
            if run_round(number, args, Path(tmp), budget_end):
                failed += 1
    if failed:
        print(f"FAILED: {failed} of {args.rounds} rounds")
        return 1
    print(f"ok: {args.rounds} rounds, no request cut off, every acknowledged write kept")
    return 0


if __name__ == "__main__":
    sys.exit(main())
