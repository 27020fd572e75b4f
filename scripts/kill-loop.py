#!/usr/bin/env python3
"""SIGKILL under write load: no acknowledged write is ever lost.

    python3 scripts/kill-loop.py [--cycles 10] [--writers 8] [--seed 9] [--budget 90]

Each cycle starts .build/release/navsim on the same database (127.0.0.1, a free port), checks
every write acknowledged so far, then runs `--writers` threads of real operations (create a
session with a navigation controller, push, pop, present, dismiss) and SIGKILLs the server in the
middle of them. A write is acknowledged when its whole 2xx reply was read. Before the next start,
Python's sqlite3 runs `PRAGMA integrity_check` on the killed server's database file.

A write is kept when the session's version is at least the acknowledged version and the history
holds an entry of that version for the same request (method and path). Prints one line per cycle,
then `N acknowledged writes, 0 lost`; exits 1 on any lost write, failed integrity check, reply
other than 2xx (every write is valid by construction, so a refusal is a defect, not noise), cycle
with fewer than `--min-acks` acknowledged writes (a server that refused every write would
otherwise pass with "0 acknowledged, 0 lost"), or time over budget. `--sabotage` shows that the check can fail: after the last kill it deletes the
newest history entry of one session and rolls its version back, as a store that lost a write
would, and the loop must then report it. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sqlite3
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from hostile_lib import BINARY, Server  # noqa: E402


@dataclass(frozen=True)
class Ack:
    sid: str
    version: int
    method: str
    path: str


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    refused: dict[int, int] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    other: list[str] = field(default_factory=list)

    def refusal(self, status: int, what: str) -> None:
        with self.lock:
            self.refused[status] = self.refused.get(status, 0) + 1
            if status >= 500:
                self.server_errors.append(what)
            else:
                self.other.append(f"{status} {what}")


class Writer(threading.Thread):
    """One client: its own sessions, a model of each one's stack, real UIKit operations."""

    def __init__(self, name: str, port: int, tally: Tally, rng: random.Random, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.prefix, self.port, self.tally, self.rng, self.stop = name, port, tally, rng, stop
        self.conn: http.client.HTTPConnection | None = None
        self.made = 0

    def send(self, method: str, path: str, body: dict) -> tuple[int, dict | None]:
        if self.conn is None:
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        self.conn.request(method, path, body=json.dumps(body), headers={"Content-Type": "application/json"})
        resp = self.conn.getresponse()
        data = resp.read()  # the reply is acknowledged only once all of it has arrived
        try:
            return resp.status, json.loads(data) if data else None
        except ValueError:
            return resp.status, None

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                self.session()
        except (OSError, http.client.HTTPException):
            pass  # the server was killed: this client stops
        finally:
            if self.conn:
                self.conn.close()

    def session(self) -> None:
        self.made += 1
        sid = f"{self.prefix}-{self.made}"
        status, _ = self.send("POST", "/v1/sessions", {
            "id": sid, "root": {"id": "nav", "kind": "navigationController",
                                "viewControllers": [{"id": "root", "class": "RootViewController"}]}})
        if status != 201:
            self.tally.refusal(status, f"POST /v1/sessions {sid}")
            return
        with self.tally.lock:
            self.tally.acks.append(Ack(sid, 0, "POST", "/v1/sessions"))
        stack, presented, n = ["root"], None, 0
        for _ in range(self.rng.randint(10, 40)):
            if self.stop.is_set():
                return
            n += 1
            top = stack[-1]
            if presented:
                path, body = f"/v1/sessions/{sid}/controllers/{presented}/dismiss", {}
            else:
                choice = self.rng.random()
                if choice < 0.45 and len(stack) < 8 or len(stack) == 1 and choice < 0.7:
                    path, body = f"/v1/sessions/{sid}/controllers/nav/push", {"viewController": {"id": f"p{n}"}}
                elif choice < 0.7:
                    path, body = f"/v1/sessions/{sid}/controllers/nav/pop", {}
                else:
                    path, body = (f"/v1/sessions/{sid}/controllers/{top}/present",
                                  {"viewController": {"id": f"m{n}", "modalPresentationStyle": "fullScreen"}})
            status, reply = self.send("POST", path, body)
            if status != 200 or not isinstance(reply, dict) or "version" not in reply:
                self.tally.refusal(status, f"POST {path}")
                return  # the model may be off now: start another session
            with self.tally.lock:
                self.tally.acks.append(Ack(sid, int(reply["version"]), "POST", path))
            if path.endswith("/dismiss"):
                presented = None
            elif path.endswith("/push"):
                stack.append(f"p{n}")
            elif path.endswith("/pop"):
                stack.pop()
            else:
                presented = f"m{n}"


def history(srv: Server, sid: str) -> dict[int, tuple[str, str]]:
    entries: dict[int, tuple[str, str]] = {}
    after = 0
    for _ in range(1000):
        r = srv.request("GET", f"/v1/sessions/{sid}/history?after={after}&limit=1000", record=False)
        if r.status != 200:
            raise RuntimeError(f"GET history of {sid}: {r}")
        page = r.json
        for e in page["entries"]:
            req = e.get("request") or {}
            entries[int(e["version"])] = (req.get("method", ""), req.get("path", ""))
        if "next" not in page:
            return entries
        after = int(page["next"])
    raise RuntimeError(f"history of {sid} does not end")


def verify(srv: Server, acks: list[Ack]) -> list[str]:
    """Every acknowledged write is in the restarted server; returns what is missing."""
    by_session: dict[str, list[Ack]] = {}
    for a in acks:
        by_session.setdefault(a.sid, []).append(a)
    lost: list[str] = []
    for sid, items in by_session.items():
        r = srv.request("GET", f"/v1/sessions/{sid}", record=False)
        if r.status != 200:
            lost += [f"{a.sid}@{a.version} (session answers {r.status})" for a in items]
            continue
        have = r.json["version"]
        top = max(a.version for a in items)
        entries = history(srv, sid) if top > 0 else {}
        for a in items:
            if a.version > have:
                lost.append(f"{sid}@{a.version}: the session is at version {have}")
            elif a.version > 0 and entries.get(a.version) != (a.method, a.path):
                lost.append(f"{sid}@{a.version}: history has {entries.get(a.version)}, acknowledged {a.method} {a.path}")
    return lost


def integrity(db: Path) -> str:
    con = sqlite3.connect(f"file:{db}?mode=rw", uri=True, timeout=5)
    try:
        rows = con.execute("PRAGMA integrity_check").fetchall()
    finally:
        con.close()
    return "; ".join(str(r[0]) for r in rows)


def lose_one_write(db: Path) -> None:
    con = sqlite3.connect(db)
    with con:
        sid, v = con.execute("SELECT session_id, MAX(version) FROM history GROUP BY session_id "
                             "HAVING MAX(version) > 0 LIMIT 1").fetchone()
        con.execute("DELETE FROM history WHERE session_id = ? AND version = ?", (sid, v))
        con.execute("UPDATE sessions SET version = ? WHERE id = ?", (v - 1, sid))
    con.close()
    print(f"sabotage: removed {sid}@{v} from the database")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cycles", type=int, default=10)
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--budget", type=float, default=90.0, help="seconds for the whole loop")
    ap.add_argument("--load", type=float, nargs=2, default=(1.5, 4.0), metavar=("MIN", "MAX"),
                    help="seconds of load before each SIGKILL (uniform)")
    ap.add_argument("--min-acks", type=int, default=100,
                    help="acknowledged writes each cycle must reach before its kill (the gate's floor)")
    ap.add_argument("--sabotage", action="store_true",
                    help="lose one acknowledged write on purpose after the last kill (the loop must fail)")
    args = ap.parse_args()
    if not BINARY.exists():
        print(f"no {BINARY}: build it first (swift build -c release)", file=sys.stderr)
        return 2

    rng = random.Random(args.seed)
    folder = Path(tempfile.mkdtemp(prefix="navsim-kill-"))
    db = folder / "navsim.sqlite"
    tally = Tally()
    lost: list[str] = []
    bad_integrity = 0
    completed = 0
    thin: list[str] = []
    started = time.monotonic()
    srv = Server(db=db, log=folder / "server.log")
    try:
        for cycle in range(1, args.cycles + 2):
            srv.start()
            before = len(tally.acks)
            missing = verify(srv, tally.acks)
            lost += missing
            if cycle > args.cycles:
                print(f"final restart: {before} acknowledged writes checked, {len(missing)} lost")
                break
            stop = threading.Event()
            writers = [Writer(f"c{cycle}w{i}", srv.port, tally, random.Random(rng.random()), stop)
                       for i in range(args.writers)]
            for w in writers:
                w.start()
            load = rng.uniform(*args.load)
            time.sleep(load)
            srv.kill()  # SIGKILL while the writers are mid-request
            stop.set()
            for w in writers:
                w.join(timeout=15)
            if args.sabotage and cycle == args.cycles:
                lose_one_write(db)
            check = integrity(db)
            if check != "ok":
                bad_integrity += 1
            print(f"cycle {cycle}: killed after {load:.1f}s, {len(tally.acks) - before} writes acknowledged "
                  f"({len(tally.acks)} so far), {len(missing)} of the earlier ones lost, integrity_check {check}",
                  flush=True)
            completed = cycle
            if len(tally.acks) - before < args.min_acks:
                thin.append(f"cycle {cycle}: {len(tally.acks) - before} acknowledged writes, fewer than {args.min_acks}")
            if time.monotonic() - started > args.budget:
                print(f"over the budget of {args.budget:.0f}s after cycle {cycle}")
                break
    finally:
        srv.kill()
    elapsed = time.monotonic() - started
    for line in lost[:20]:
        print(f"  lost: {line}")
    refused = ", ".join(f"{n}×{s}" for s, n in sorted(tally.refused.items())) or "none"
    print(f"replies other than 2xx: {refused}")
    for line in tally.server_errors[:10]:
        print(f"  5xx: {line}")
    for line in tally.other[:10]:
        print(f"  refused: {line}")
    print(f"{len(tally.acks)} acknowledged writes, {len(lost)} lost; "
          f"{completed - bad_integrity}/{completed} integrity checks ok; {elapsed:.0f}s")
    over = completed < args.cycles or elapsed > args.budget
    if over:
        print(f"FAIL: {completed}/{args.cycles} cycles in {elapsed:.0f}s (budget {args.budget:.0f}s)")
    for line in thin:
        print(f"FAIL: {line}")
    if tally.refused:
        print("FAIL: writes were refused; each one is valid by construction")
    failed = lost or bad_integrity or tally.refused or thin or over
    if not failed:
        import shutil
        shutil.rmtree(folder, ignore_errors=True)
    else:
        print(f"kept {folder} (database and server log)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
