#!/usr/bin/env python3
"""Three navsim instances behind HAProxy on one PostgreSQL database, one of them SIGKILLed.

    python3 scripts/cluster-sim.py [--clients 48] [--load-seconds 12] [--one-session-clients 64]
                                   [--one-session-writes 6] [--budget 170] [--keep-logs DIR]
    python3 scripts/cluster-sim.py --bench [--rounds 5] [--bench-seconds 6] [--clients 32]

Needs the release binary (.build/release/navsim, built with `swift build -c release`), PostgreSQL
and HAProxy from Debian (scripts/install-cluster-prereqs.sh). Everything listens on 127.0.0.1 only.

The simulation:
  1. starts a throwaway PostgreSQL cluster (scripts/pg-cluster.sh), three `navsim serve --store
     postgres://…` instances on free ports, and HAProxy with a configuration made from
     deploy/haproxy.cfg (its affinity rules as shipped; only the listening address, the server
     lines and the health-check timing change, plus an X-Served-By reply header that names the
     instance, so the simulation knows which sessions each one holds);
  2. plays the repository's flows (Tests/Flows) through HAProxy: all must pass;
  3. write load: `--clients` threads, each on its own two sessions, push and pop through HAProxy;
     every acknowledged write (a 2xx whose whole reply was read) is recorded with its session,
     version and request. At 40 % of it, it SIGKILLs the instance that holds the most sessions and
     keeps going. Checks: every acknowledged write is in PostgreSQL's history at its version, for the
     same request; each session's history is gapless; HAProxy-side failures (502/503) happen only
     in the failover window after the kill and none come from navsim itself (no problem+json 5xx);
     every session the killed instance held gets acknowledged writes from a survivor afterwards;
     a GET of each session through HAProxy at the end shows the database's version;
  4. the killed instance starts again; then one session, `--one-session-clients` clients, each sent straight to an instance (round robin,
     bypassing HAProxy's affinity), each doing `--one-session-writes` writes: the history is
     gapless 0…V, holds every acknowledged write at its version, and V equals the number of
     acknowledged writes (a refused write, 409 included, wrote nothing);
  5. the database goes away: a second HAProxy on deploy/haproxy.cfg with only its addresses
     changed (health checks, retries and all else as shipped), `--outage-clients` clients writing
     through it, PostgreSQL stopped (`pg_ctl stop -m fast`) for `--outage-seconds` and started
     again. Checks: every failed request is navsim's 503 `store-unreachable` problem+json with
     Retry-After and an X-Request-Id (never a 500, a dropped connection or HAProxy's own page);
     nothing is acknowledged while the database is down and no acknowledged write is missing
     from it; the first write succeeds within 1 s of PostgreSQL accepting connections again
     (`pg_isready`); each instance that answered 503s logged one "store unreachable" and one
     "store reachable again" line. It fails below its minimums (OUTAGE_MIN_*: acknowledged
     writes before and after, 503s during), so a server that refuses every write cannot pass;
  6. stops everything and removes the cluster and the temporary folder, also on failure.

Prints one line per check and a summary; exits 1 if any check fails, 2 if the setup fails.
`--sabotage` shows that the acknowledged-write check can fail: after the kill it deletes the newest
history entry of one session and rolls its version back, and the run must then report it.

`--bench` measures durable writes per second through HAProxy with 1 and with 3 instances on the
same PostgreSQL, the same clients (each on its own sessions), in interleaved runs, and prints the
medians. Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import atexit
import csv
import http.client
import io
import json
import os
import random
import re
import shlex
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
BINARY = Path(os.environ.get("NAVSIM_BIN", REPO / ".build" / "release" / "navsim"))  # scripts/gates/check-gates.sh
SHIPPED_HAPROXY = REPO / "deploy" / "haproxy.cfg"
# The simulation's health check: every 200 ms, out after 2 failures, back after 2 successes
# (the shipped file checks every 2 s, which would make the failover window 4 s or more).
SIM_DEFAULT_SERVER = "default-server inter 200ms fastinter 100ms downinter 500ms fall 2 rise 2"


class SetupError(Exception):
    """The simulation could not be set up (exit 2), as opposed to a failed check (exit 1)."""


class Budget(Exception):
    """The run took longer than --budget seconds."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --- processes ---------------------------------------------------------------------------------

@dataclass
class Child:
    """A process in its own process group, so that stopping it stops everything it started."""

    name: str
    proc: subprocess.Popen
    log: Path

    def alive(self) -> bool:
        return self.proc.poll() is None

    def signal_group(self, sig: int) -> None:
        try:
            os.killpg(self.proc.pid, sig)
        except ProcessLookupError:
            pass

    def stop(self) -> None:
        if self.alive():
            self.signal_group(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.signal_group(signal.SIGKILL)
                self.proc.wait(timeout=10)

    def log_tail(self, n: int = 600) -> str:
        try:
            return self.log.read_text(errors="replace")[-n:]
        except OSError:
            return ""


class Cluster:
    """PostgreSQL, navsim instances and HAProxy processes of one run; `close()` undoes all of it."""

    def __init__(self, keep_logs: Path | None) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="navsim-cluster."))
        self.keep_logs = keep_logs
        self.pg_dir: str | None = None
        self.pg_url = ""
        self.children: list[Child] = []
        self.closed = False
        atexit.register(self.close)

    # PostgreSQL through scripts/pg-cluster.sh (initdb in a temp folder, a free port, fsync on).
    def start_postgres(self) -> None:
        out = subprocess.run([str(REPO / "scripts" / "pg-cluster.sh"), "start"], capture_output=True,
                             text=True, timeout=120)
        if out.returncode != 0:
            raise SetupError(f"pg-cluster.sh start failed: {out.stderr.strip()[-600:]}")
        lines = out.stdout.strip().splitlines()
        self.pg_dir, self.pg_url = lines[0], lines[-1]

    def pg_ctl(self, *args: str, wait: bool = True) -> subprocess.Popen | subprocess.CompletedProcess:
        """pg_ctl on the cluster's data folder, as its owner (`postgres` under root, as in
        scripts/pg-cluster.sh); without `wait`, started and returned at once."""
        bindir = sorted(Path("/usr/lib/postgresql").glob("*/bin"), key=lambda p: [int(x) for x in re.findall(r"\d+", str(p))])
        if not bindir or not self.pg_dir:
            raise SetupError("no pg_ctl under /usr/lib/postgresql/*/bin, or no cluster")
        argv = [str(bindir[-1] / "pg_ctl"), "-D", str(Path(self.pg_dir) / "data"), *args]
        if os.geteuid() == 0:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        if not wait:
            return subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
        return subprocess.run(argv, capture_output=True, text=True, timeout=90)

    def stop_postgres(self) -> None:
        """A fast shutdown (`pg_ctl stop -m fast`): sessions are ended, new connections refused."""
        out = self.pg_ctl("-m", "fast", "-w", "-t", "60", "stop")
        if out.returncode != 0:
            raise SetupError(f"pg_ctl stop failed: {out.stderr.strip()[-400:]}")

    def start_postgres_again(self) -> subprocess.Popen:
        """Starts the stopped server with the options it ran with (its postmaster.opts, which
        scripts/pg-cluster.sh's `-o` wrote), without waiting: the caller sees when it accepts."""
        data = Path(self.pg_dir or "") / "data"
        argv = shlex.split((data / "postmaster.opts").read_text())[1:]
        opts = []
        i = 0
        while i < len(argv):
            if argv[i] == "-D":
                i += 2
                continue
            opts.append(argv[i])
            i += 1
        return self.pg_ctl("-l", str(Path(self.pg_dir or "") / "server.log"), "-o", shlex.join(opts), "start", wait=False)

    def pg_accepts(self) -> bool:
        """Whether the server accepts connections now (`pg_isready`, exit status 0)."""
        m = re.search(r"@([^:/]+):(\d+)/", self.pg_url)
        host, port = (m.group(1), m.group(2)) if m else ("127.0.0.1", "5432")
        return subprocess.run(["pg_isready", "-q", "-h", host, "-p", port, "-t", "1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0

    def psql_csv(self, query: str) -> list[list[str]]:
        """Rows of `query`, read with COPY … TO STDOUT in CSV (so any text survives)."""
        out = subprocess.run(["psql", self.pg_url, "-X", "-q", "-v", "ON_ERROR_STOP=1", "-c",
                              f"COPY ({query}) TO STDOUT WITH (FORMAT csv)"],
                             capture_output=True, text=True, timeout=120)
        if out.returncode != 0:
            raise SetupError(f"psql failed: {out.stderr.strip()[-400:]}")
        return list(csv.reader(io.StringIO(out.stdout)))

    def spawn(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> Child:
        log = self.tmp / f"{name}.log"
        with open(log, "ab") as out:
            proc = subprocess.Popen(argv, stdout=out, stderr=out, stdin=subprocess.DEVNULL,
                                    env=env, start_new_session=True)
        child = Child(name, proc, log)
        self.children.append(child)
        return child

    def start_navsim(self, name: str) -> tuple[Child, int]:
        """`navsim serve --store <url> --port 0`; the port is read from its "listening" log line."""
        env = dict(os.environ)
        env.pop("NAVSIM_TOKEN", None)
        env.pop("NAVSIM_DB", None)
        env.setdefault("NAVSIM_MIGRATIONS", str(REPO / "migrations"))
        env.setdefault("NAVSIM_POSTGRES_MIGRATIONS", str(REPO / "migrations-postgres"))
        child = self.spawn(name, [str(BINARY), "serve", "--host", "127.0.0.1", "--port", "0",
                                  "--store", self.pg_url, "--max-stack-depth", "256"], env)
        deadline = time.monotonic() + 30
        pattern = re.compile(r'"message":"listening".*?"url":"http://127\.0\.0\.1:(\d+)"')
        while time.monotonic() < deadline:
            if not child.alive():
                raise SetupError(f"{name} exited with {child.proc.returncode}: {child.log_tail()}")
            m = pattern.search(child.log_tail(100_000))
            if m:
                port = int(m.group(1))
                if wait_healthy(port, 15):
                    return child, port
                raise SetupError(f"{name} on port {port} did not answer /healthz with 200")
            time.sleep(0.05)
        raise SetupError(f"{name} did not log 'listening' within 30 s: {child.log_tail()}")

    def start_haproxy(self, name: str, servers: list[tuple[str, int]], shipped_checks: bool = False) -> int:
        """HAProxy on deploy/haproxy.cfg (see haproxy_config); with `shipped_checks`, only the
        addresses change: health checks, retries and everything else stay as shipped."""
        port = free_port()
        cfg = self.tmp / f"{name}.cfg"
        cfg.write_text(haproxy_config(SHIPPED_HAPROXY.read_text(), port, servers, shipped_checks))
        check = subprocess.run(["haproxy", "-c", "-q", "-f", str(cfg)], capture_output=True, text=True, timeout=30)
        if check.returncode != 0:
            raise SetupError(f"haproxy -c refused the generated configuration: {check.stderr.strip()}")
        child = self.spawn(name, ["haproxy", "-db", "-f", str(cfg)])
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if not child.alive():
                raise SetupError(f"haproxy exited: {child.log_tail()}")
            if wait_healthy(port, 0.5):
                # All servers up (rise 2 at 200 ms): the first checks pass within a second.
                time.sleep(0.6)
                return port
        raise SetupError("haproxy did not answer /healthz within 15 s")

    def close(self, failed: bool = True) -> None:
        """Stops every process, stops and removes the PostgreSQL cluster and the temporary
        folder; with `keep_logs`, a failed run's logs are copied there first."""
        if self.closed:
            return
        self.closed = True
        for child in reversed(self.children):
            try:
                child.stop()
            except Exception as e:  # keep going: the rest must stop too
                print(f"cluster-sim: stopping {child.name}: {e}", file=sys.stderr)
        if self.pg_dir:
            subprocess.run([str(REPO / "scripts" / "pg-cluster.sh"), "stop", self.pg_dir],
                           capture_output=True, timeout=120)
        if self.keep_logs and failed:
            self.keep_logs.mkdir(parents=True, exist_ok=True)
            for f in self.tmp.glob("*.log"):
                shutil.copy(f, self.keep_logs / f.name)
        shutil.rmtree(self.tmp, ignore_errors=True)


def haproxy_config(shipped: str, port: int, servers: list[tuple[str, int]], shipped_checks: bool = False) -> str:
    """deploy/haproxy.cfg with its `bind`, `default-server` and `server` lines replaced; every
    other line (the affinity rules, the health check request, the timeouts) stays as shipped.
    With `shipped_checks` the `default-server` line (check timing) stays too and no header is
    added: only the addresses differ from the shipped file."""
    out: list[str] = []
    seen = {"bind": 0, "default-server": 0, "balance": 0, "hash-type": 0}
    for line in shipped.splitlines():
        word = line.split()[0] if line.split() else ""
        indent = line[: len(line) - len(line.lstrip())]
        if word == "bind":
            out.append(f"{indent}bind 127.0.0.1:{port}")
        elif word == "default-server":
            if shipped_checks:
                out.append(line)
            else:
                out.append(indent + SIM_DEFAULT_SERVER)
                out.append(indent + "http-response set-header X-Served-By %[srv_name]")
            out.extend(f"{indent}server {name} 127.0.0.1:{p} check" for name, p in servers)
        elif word == "server":
            continue
        else:
            out.append(line)
        if word in seen:
            seen[word] += 1
    if seen["bind"] != 1 or seen["default-server"] != 1 or not seen["balance"] or not seen["hash-type"]:
        raise SetupError(f"{SHIPPED_HAPROXY} has changed shape (expected one bind, one default-server, "
                         f"balance and hash-type lines): {seen}")
    return "\n".join(out) + "\n"


def wait_healthy(port: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            resp = conn.getresponse()
            resp.read()
            conn.close()
            if resp.status == 200:
                return True
        except (OSError, http.client.HTTPException):
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.05)


# --- HTTP clients ------------------------------------------------------------------------------

@dataclass
class Outcome:
    """One request as the client saw it. `status` is 0 when no whole reply arrived."""

    started: float
    ended: float
    sid: str
    status: int
    served_by: str
    problem_json: bool
    error: str = ""
    # A creation answered 409 after an earlier try of it got no reply: that try had been committed.
    benign: bool = False
    # What a reply that is not 2xx was: its Content-Type, problem type, Retry-After and
    # X-Request-Id (navsim's; the last 5 characters name the instance), for the outage checks.
    content_type: str = ""
    problem_type: str = ""
    retry_after: str = ""
    request_id: str = ""


class Client:
    """One keep-alive HTTP/1.1 connection (reopened after a failure)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn: http.client.HTTPConnection | None = None

    def send(self, method: str, path: str, body: dict | None) -> tuple[int, dict, dict | None, str]:
        """(status, headers, JSON body or None, error); status 0 and an error text when the
        connection failed or the reply was cut short: such a write is not acknowledged."""
        try:
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
            data = json.dumps(body).encode() if body is not None else None
            hdrs = {"Content-Type": "application/json"} if data is not None else {}
            self.conn.request(method, path, body=data, headers=hdrs)
            resp = self.conn.getresponse()
            raw = resp.read()  # acknowledged only once the whole reply has arrived
            headers = {k.lower(): v for k, v in resp.getheaders()}
            if headers.get("connection", "").lower() == "close":
                self.close()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = None
            return resp.status, headers, parsed, ""
        except (OSError, http.client.HTTPException) as e:
            self.close()
            return 0, {}, None, f"{type(e).__name__}: {e}"

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


@dataclass(frozen=True)
class Ack:
    """An acknowledged write: the session's version in the reply, and the request that made it
    (`marker` is the pushed controller's id, which the stored request body must contain)."""

    sid: str
    version: int
    method: str
    path: str
    marker: str


@dataclass
class Tally:
    lock: threading.Lock = field(default_factory=threading.Lock)
    acks: list[Ack] = field(default_factory=list)
    outcomes: list[Outcome] = field(default_factory=list)
    statuses: dict[int, int] = field(default_factory=dict)

    def record(self, outcome: Outcome, ack: Ack | None) -> None:
        with self.lock:
            self.outcomes.append(outcome)
            self.statuses[outcome.status] = self.statuses.get(outcome.status, 0) + 1
            if ack is not None:
                self.acks.append(ack)


def create_session(client: Client, sid: str, tally: Tally, t0: float, retry: bool = False) -> bool:
    """POST /v1/sessions with a navigation controller `nav` on `root`; True when the session exists
    (created now, or, on a `retry` after a try without reply, created by that try)."""
    started = time.monotonic() - t0
    status, headers, reply, err = client.send("POST", "/v1/sessions", {
        "id": sid, "options": {"transitions": "immediate"},
        "root": {"id": "nav", "kind": "navigationController",
                 "viewControllers": [{"id": "root", "class": "RootViewController"}]}})
    ok = status == 201 and isinstance(reply, dict) and reply.get("version") == 0
    existed = retry and status == 409
    tally.record(Outcome(started, time.monotonic() - t0, sid, status, headers.get("x-served-by", ""),
                         "problem+json" in headers.get("content-type", ""), err, benign=existed),
                 Ack(sid, 0, "POST", "/v1/sessions", "") if ok else None)
    return ok or existed


def write(client: Client, sid: str, push: bool, marker: str, tally: Tally, t0: float) -> int:
    """One push (of controller `marker`) or pop; returns the status (0: no whole reply)."""
    path = f"/v1/sessions/{sid}/controllers/nav/{'push' if push else 'pop'}"
    body = {"viewController": {"id": marker}, "animated": False} if push else {"animated": False}
    started = time.monotonic() - t0
    status, headers, reply, err = client.send("POST", path, body)
    ack = None
    if 200 <= status < 300 and isinstance(reply, dict) and isinstance(reply.get("version"), int):
        ack = Ack(sid, reply["version"], "POST", path, marker if push else "")
    elif 200 <= status < 300:
        err = f"2xx without a version: {str(reply)[:120]}"
        status = -status  # a malformed acknowledgement counts as a failure of its own
    content_type = headers.get("content-type", "")
    tally.record(Outcome(started, time.monotonic() - t0, sid, status, headers.get("x-served-by", ""),
                         "problem+json" in content_type, err, content_type=content_type,
                         problem_type=str(reply.get("type", "")) if isinstance(reply, dict) else "",
                         retry_after=headers.get("retry-after", ""), request_id=headers.get("x-request-id", "")), ack)
    return status


class SessionWriter(threading.Thread):
    """A client with its own sessions: a random walk of pushes and pops on each, through one port."""

    def __init__(self, name: str, port: int, sessions: int, tally: Tally, t0: float,
                 stop: threading.Event, seed: int, max_writes: int, pause: float = 0.02) -> None:
        super().__init__(daemon=True)
        self.name_, self.port, self.count, self.tally, self.t0 = name, port, sessions, tally, t0
        self.stop, self.rng, self.max_writes, self.pause = stop, random.Random(seed), max_writes, pause
        self.sids: list[str] = []
        self.writes = 0
        self.ready = threading.Event()  # set once its sessions exist

    def run(self) -> None:
        client = Client(self.port)
        try:
            for i in range(self.count):
                sid = f"{self.name_}-s{i}"
                for attempt in range(20):  # a creation that failed (kill, failover) is tried again
                    if self.stop.is_set() or create_session(client, sid, self.tally, self.t0, attempt > 0):
                        break
                    time.sleep(0.05)
                self.sids.append(sid)
            self.ready.set()
            depth = {sid: 1 for sid in self.sids}
            n = 0
            while not self.stop.is_set() and n < self.max_writes:
                sid = self.rng.choice(self.sids)
                n += 1
                push = depth[sid] < 3 or (depth[sid] < 12 and self.rng.random() < 0.5)
                status = write(client, sid, push, f"{self.name_}-p{n}", self.tally, self.t0)
                if 200 <= status < 300:
                    depth[sid] = depth[sid] + 1 if push else max(1, depth[sid] - 1)
                elif status in (0, 502, 503, 504):
                    time.sleep(self.pause)  # the instance or its database is gone: try again soon
            self.writes = n
        finally:
            client.close()


# --- checks ------------------------------------------------------------------------------------

class Report:
    def __init__(self) -> None:
        self.failures: list[str] = []

    def check(self, ok: bool, text: str) -> None:
        print(f"  {'ok  ' if ok else 'FAIL'} {text}", flush=True)
        if not ok:
            self.failures.append(text)

    def info(self, text: str) -> None:
        print(f"       {text}", flush=True)


def stored_history(cluster: Cluster, sids: set[str] | None = None) -> dict[str, dict[int, tuple[str, str, str]]]:
    """session id → version → (method, path, body) from PostgreSQL's history table."""
    where = ""
    if sids is not None and len(sids) == 1:
        where = " WHERE session_id = " + "'" + next(iter(sids)).replace("'", "''") + "'"
    rows = cluster.psql_csv(f"SELECT session_id, version, method, path, coalesce(body, '') FROM history{where}")
    out: dict[str, dict[int, tuple[str, str, str]]] = {}
    for sid, version, method, path, body in rows:
        out.setdefault(sid, {})[int(version)] = (method, path, body)
    return out


def stored_versions(cluster: Cluster) -> dict[str, int]:
    return {sid: int(v) for sid, v in cluster.psql_csv("SELECT id, version FROM sessions")}


def check_acks(report: Report, acks: list[Ack], history: dict[str, dict[int, tuple[str, str, str]]],
               versions: dict[str, int], what: str) -> None:
    lost = []
    for a in acks:
        entry = history.get(a.sid, {}).get(a.version)
        if (entry is None or entry[0] != a.method or entry[1] != a.path
                or (a.marker and f'"{a.marker}"' not in entry[2]) or versions.get(a.sid, -1) < a.version):
            lost.append(a)
    report.check(not lost, f"{what}: {len(acks)} acknowledged writes, {len(lost)} missing from PostgreSQL"
                 + (f" (first: {lost[0]})" if lost else ""))
    gaps = [sid for sid in {a.sid for a in acks}
            if sorted(history.get(sid, {})) != list(range(versions.get(sid, -1) + 1))]
    report.check(not gaps, f"{what}: history gapless 0…version in {len({a.sid for a in acks}) - len(gaps)} of "
                 f"{len({a.sid for a in acks})} sessions" + (f" (first with a gap: {gaps[0]})" if gaps else ""))


# --- phases ------------------------------------------------------------------------------------

def play_flows(report: Report, cluster: Cluster, port: int) -> None:
    junit = cluster.tmp / "flows-junit.xml"
    started = time.monotonic()
    out = subprocess.run([str(BINARY), "test", "--base", f"http://127.0.0.1:{port}", "--junit", str(junit),
                          str(REPO / "Tests" / "Flows")], capture_output=True, text=True, timeout=120)
    last = (out.stdout.strip().splitlines() or ["(no output)"])[-1]
    if out.returncode != 0:
        failing = [line[:400] for line in out.stdout.splitlines() if not line.startswith("ok ")]
        print("\n".join(failing[-40:]), out.stderr[-1000:], sep="\n")
    report.check(out.returncode == 0, f"flows through HAProxy: {last} ({time.monotonic() - started:.1f} s)")


def kill_under_load(report: Report, cluster: Cluster, navsims: dict[str, tuple[Child, int]], port: int,
                    clients: int, seconds: float, sabotage: bool = False) -> str:
    """The write load with a SIGKILL in its middle; returns the killed instance's name."""
    tally = Tally()
    stop = threading.Event()
    t0 = time.monotonic()
    writers = [SessionWriter(f"w{i:02d}", port, 2, tally, t0, stop, 1000 + i, 100_000) for i in range(clients)]
    for w in writers:
        w.start()
    time.sleep(seconds * 0.4)
    # The victim: the instance that served the most sessions so far.
    with tally.lock:
        holders: dict[str, str] = {}
        for o in tally.outcomes:
            if 200 <= o.status < 300 and o.served_by:
                holders[o.sid] = o.served_by
        before = len(tally.acks)
    held: dict[str, set[str]] = {}
    for sid, name in holders.items():
        held.setdefault(name, set()).add(sid)
    victim = max(navsims, key=lambda n: len(held.get(n, set())))
    victim_sids = held.get(victim, set())
    killed_at = time.monotonic() - t0
    navsims[victim][0].signal_group(signal.SIGKILL)
    navsims[victim][0].proc.wait(timeout=10)
    time.sleep(seconds * 0.6)
    stop.set()
    for w in writers:
        w.join(timeout=30)
    hung = sum(w.is_alive() for w in writers)
    report.check(hung == 0, f"write load: all {clients} clients finished ({hung} still running)")
    report.info(f"{clients} clients on {2 * clients} sessions, {len(tally.acks)} acknowledged writes "
                f"({before} before the kill); SIGKILL of {victim} (held {len(victim_sids)} sessions) "
                f"at t={killed_at:.2f} s; statuses {dict(sorted(tally.statuses.items()))}")

    failed = [o for o in tally.outcomes if not 200 <= o.status < 300 and not o.benign]
    kinds: dict[str, int] = {}
    for o in failed:
        kind = o.error.split(":")[0] if o.status == 0 else f"{o.status}{' problem+json' if o.problem_json else ''}"
        kinds[kind] = kinds.get(kind, 0) + 1
    report.info(f"failed requests by kind: {dict(sorted(kinds.items())) or 'none'}")
    early = [o for o in failed if o.ended < killed_at]
    report.check(not early, f"no failed request before the kill ({len(early)})"
                 + (f": {early[0]}" if early else ""))
    from_navsim = [o for o in failed if o.status >= 500 and o.problem_json]
    report.check(not from_navsim, f"no 5xx from navsim itself ({len(from_navsim)})"
                 + (f": {from_navsim[0]}" if from_navsim else ""))
    refused = [o for o in failed if 0 < o.status < 500]
    report.check(not refused, f"no write refused (4xx) under failover ({len(refused)})"
                 + (f": {refused[0]}" if refused else ""))
    after = [o for o in failed if o.ended >= killed_at]
    window = max((o.ended for o in after), default=killed_at) - killed_at
    report.check(window < 5.0, f"failover window {window:.2f} s after the kill: {len(after)} requests failed in it "
                 f"(connection errors and HAProxy 502/503: not acknowledged)")
    served_after: dict[str, float] = {}
    for o in tally.outcomes:
        if o.sid in victim_sids and 200 <= o.status < 300 and o.started > killed_at and o.served_by != victim:
            served_after[o.sid] = min(served_after.get(o.sid, 1e9), o.ended - killed_at)
    orphans = victim_sids - served_after.keys()
    report.check(bool(victim_sids) and not orphans,
                 f"survivors serve the killed instance's sessions: {len(served_after)} of {len(victim_sids)} "
                 f"got acknowledged writes after the kill, the last first one {max(served_after.values(), default=0):.2f} s "
                 f"after it" + (f" (never again: {sorted(orphans)[:3]})" if orphans else ""))
    stray = [o for o in tally.outcomes if o.started > killed_at + 1.0 and o.served_by == victim]
    report.check(not stray, f"nothing served by {victim} once it was killed ({len(stray)})")

    if sabotage and tally.acks:
        # Shows that the check can fail: drop the newest history entry of one session and roll
        # its version back, as a store that lost an acknowledged write would.
        sid = tally.acks[-1].sid
        q = sid.replace("'", "''")
        cluster.psql_csv(f"WITH gone AS (DELETE FROM history WHERE session_id = '{q}' AND version = "
                         f"(SELECT max(version) FROM history WHERE session_id = '{q}') RETURNING version), "
                         f"back AS (UPDATE sessions SET version = version - 1 WHERE id = '{q}' RETURNING id) "
                         f"SELECT (SELECT count(*) FROM gone), (SELECT count(*) FROM back)")
        report.info(f"--sabotage: deleted the newest history entry of {sid}; the next check must fail")
    history, versions = stored_history(cluster), stored_versions(cluster)
    check_acks(report, tally.acks, history, versions, "after the kill")
    # Reads through HAProxy show what the database holds (no stale cached copy after failover).
    client, stale = Client(port), []
    for sid in sorted({a.sid for a in tally.acks}):
        status, headers, reply, err = client.send("GET", f"/v1/sessions/{sid}", None)
        got = reply.get("version") if isinstance(reply, dict) else None
        if status != 200 or got != versions.get(sid):
            stale.append(f"{sid}: {status} version {got}, database {versions.get(sid)} {err}")
    client.close()
    report.check(not stale, f"GET through HAProxy after the load shows the database's version in all sessions "
                 f"({len(stale)} differ)" + (f"; first: {stale[0]}" if stale else ""))
    return victim


class OneSessionWriter(threading.Thread):
    def __init__(self, idx: int, port: int, sid: str, writes: int, tally: Tally, t0: float) -> None:
        super().__init__(daemon=True)
        self.idx, self.port, self.sid, self.writes, self.tally, self.t0 = idx, port, sid, writes, tally, t0

    def run(self) -> None:
        client = Client(self.port)
        try:
            for n in range(self.writes):
                # Alternate push and pop: each client leaves at most one controller of its own on
                # the stack, and a pop on the root alone is a valid write too (R78).
                write(client, self.sid, n % 2 == 0, f"c{self.idx:02d}-{n}", self.tally, self.t0)
        finally:
            client.close()


def one_session(report: Report, cluster: Cluster, ports: list[int], clients: int, writes: int) -> None:
    sid = "one-session"
    tally = Tally()
    t0 = time.monotonic()
    if not create_session(Client(ports[0]), sid, tally, t0):
        report.check(False, f"one session: creating {sid} failed: {tally.outcomes[-1]}")
        return
    # Every instance reads the session first, so each holds a cached copy that others make stale.
    for p in ports:
        Client(p).send("GET", f"/v1/sessions/{sid}", None)
    threads = [OneSessionWriter(i, ports[i % len(ports)], sid, writes, tally, t0) for i in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    elapsed = time.monotonic() - t0
    statuses = dict(sorted(tally.statuses.items()))
    acks = [a for a in tally.acks if a.version > 0]
    report.info(f"one session, {clients} clients round robin over {len(ports)} instances, {clients * writes} "
                f"writes in {elapsed:.1f} s: statuses {statuses}")
    other = {s: n for s, n in tally.statuses.items() if s not in (200, 201, 409)}
    report.check(not other, f"one session: only 200 and 409 answers ({other or 'none other'})")
    history = stored_history(cluster, {sid})
    versions = {s: v for s, v in stored_versions(cluster).items() if s == sid}
    check_acks(report, tally.acks, history, versions, "one session")
    dup = len(acks) - len({a.version for a in acks})
    report.check(dup == 0, f"one session: no two acknowledged writes share a version ({dup})")
    v = versions.get(sid, -1)
    report.check(v == len(acks), f"one session: version {v} = {len(acks)} acknowledged writes "
                 f"({tally.statuses.get(409, 0)} answered 409 and wrote nothing)")


# The database stopped under write load (docs/deployment.md, "When the database goes away").
# Minimums below which the phase fails, so that it cannot pass against a server that refuses
# every write (or one that the load never reached): acknowledged writes before the stop and
# after the restart, and navsim's 503s seen while the database was down.
OUTAGE_MIN_ACKS_BEFORE = 50
OUTAGE_MIN_ACKS_AFTER = 50
OUTAGE_MIN_503 = 30
# The first write after the database accepts connections again succeeds within this many seconds.
OUTAGE_RECOVERY_BOUND = 1.0
STORE_UNREACHABLE = "/v1/problems/store-unreachable"


def store_log_lines(child: Child, offset: int) -> list[dict]:
    """The "store unreachable" / "store reachable again" lines `child` logged past `offset`."""
    try:
        with open(child.log, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
    except OSError:
        return []
    lines = []
    for raw in text.splitlines():
        if '"store unreachable"' in raw or '"store reachable again"' in raw:
            try:
                lines.append(json.loads(raw))
            except ValueError:
                pass
    return lines


def instance_tag(child: Child) -> str:
    """The instance's request-id tag: the last 5 characters of every X-Request-Id it hands out
    (docs/api.md, request ids), read from its request log."""
    m = re.search(r'"requestId":"[^"]*([-0-9A-Za-z_]{5})"', child.log_tail(200_000))
    return m.group(1) if m else ""


def database_outage(report: Report, cluster: Cluster, navsims: dict[str, tuple[Child, int]], clients: int,
                    outage: float) -> None:
    """PostgreSQL stopped for `outage` seconds under write load through HAProxy with deploy/haproxy.cfg's
    own health checks and retries (only the addresses change)."""
    port = cluster.start_haproxy("haproxy-shipped", [(n, p) for n, (_, p) in navsims.items()], shipped_checks=True)
    offsets = {n: c.log.stat().st_size for n, (c, _) in navsims.items()}
    tally = Tally()
    stop = threading.Event()
    t0 = time.monotonic()
    # After a 503 a client waits 50 ms, not Retry-After's second: the phase measures how soon a
    # write succeeds after the database is back, not how long clients choose to wait.
    writers = [SessionWriter(f"o{i:02d}", port, 1, tally, t0, stop, 2000 + i, 100_000, pause=0.05)
               for i in range(clients)]
    for w in writers:
        w.start()
    for w in writers:
        w.ready.wait(timeout=20)
    time.sleep(3.0)
    stopping = time.monotonic() - t0
    cluster.stop_postgres()
    stopped = time.monotonic() - t0
    time.sleep(max(0.0, outage - (time.monotonic() - t0 - stopped)))
    restarting = time.monotonic() - t0
    starter = cluster.start_postgres_again()
    # It began to accept connections between the start of the last check that said no
    # (`refusing`) and the end of the first that said yes; the recovery bound is counted from
    # that check's start (`accepted`), the stricter reading.
    accepted, refusing = None, restarting
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        asked = time.monotonic() - t0
        if cluster.pg_accepts():
            accepted = asked
            break
        refusing = asked
        time.sleep(0.01)
    starter.wait(timeout=60)
    if accepted is None:
        raise SetupError("PostgreSQL did not accept connections within 60 s of its restart")
    time.sleep(3.0)
    stop.set()
    for w in writers:
        w.join(timeout=30)
    hung = sum(w.is_alive() for w in writers)

    outcomes = [o for o in tally.outcomes if not o.benign]
    before = [o for o in outcomes if 200 <= o.status < 300 and o.ended <= stopping]
    after = [o for o in outcomes if 200 <= o.status < 300 and o.started >= accepted]
    failed = [o for o in outcomes if not 200 <= o.status < 300]
    during = [o for o in failed if o.status == 503 and stopped <= o.started < refusing]
    report.info(f"{clients} clients, PostgreSQL stopped at t={stopping:.2f}-{stopped:.2f} s, restarted at "
                f"t={restarting:.2f} s, accepting at t={accepted:.2f} s; statuses {dict(sorted(tally.statuses.items()))}")
    report.check(hung == 0, f"outage: all {clients} clients finished ({hung} still running)")
    report.check(len(before) >= OUTAGE_MIN_ACKS_BEFORE and len(after) >= OUTAGE_MIN_ACKS_AFTER and len(during) >= OUTAGE_MIN_503,
                 f"outage: {len(before)} acknowledged writes before the stop (at least {OUTAGE_MIN_ACKS_BEFORE}), "
                 f"{len(after)} after the restart (at least {OUTAGE_MIN_ACKS_AFTER}), {len(during)} 503s while it "
                 f"was down (at least {OUTAGE_MIN_503})")
    wrong = [o for o in failed if not (o.status == 503 and o.content_type.startswith("application/problem+json")
                                       and o.problem_type == STORE_UNREACHABLE and o.retry_after.isdigit()
                                       and o.request_id)]
    report.check(not wrong, f"outage: every failed request ({len(failed)}) is navsim's 503 store-unreachable "
                 f"problem+json with Retry-After (no 500, no HAProxy page, no dropped connection): {len(wrong)} other"
                 + (f"; first: {wrong[0]}" if wrong else ""))
    early = [o for o in outcomes if 200 <= o.status < 300 and stopped <= o.started and o.ended < refusing]
    report.check(not early, f"outage: nothing acknowledged while the database was down ({len(early)})"
                 + (f"; first: {early[0]}" if early else ""))
    first = min((o.ended for o in outcomes if 200 <= o.status < 300 and o.ended >= accepted), default=None)
    report.check(first is not None and first - accepted <= OUTAGE_RECOVERY_BOUND,
                 f"outage: the first write succeeded {first - accepted if first is not None else float('nan'):.3f} s "
                 f"after PostgreSQL accepted connections again (at most {OUTAGE_RECOVERY_BOUND:.1f} s)")
    check_acks(report, tally.acks, stored_history(cluster), stored_versions(cluster), "outage")

    # The log: per instance, one line when the store went and one when it came back, not a line per
    # failed request; each instance that answered a 503 logged that pair.
    tags = {instance_tag(c): n for n, (c, _) in navsims.items()}
    answered: dict[str, int] = {}
    for o in during:
        name = tags.get(o.request_id[-5:], "?")
        answered[name] = answered.get(name, 0) + 1
    bad, counts = [], []
    for n, (c, _) in navsims.items():
        lines = store_log_lines(c, offsets[n])
        downs = [line for line in lines if line.get("message") == "store unreachable"]
        ups = [line for line in lines if line.get("message") == "store reachable again"]
        # A second pair is allowed: an operation on a connection PostgreSQL had not yet closed can
        # succeed while the stop begins, a true change of state. A line per failed request is not.
        if answered.get(n) and not 1 <= len(downs) <= 2 or len(downs) > 2 or len(ups) != len(downs):
            bad.append(f"{n}: {len(downs)} unreachable, {len(ups)} reachable-again lines, {answered.get(n, 0)} 503s")
        for up in ups:
            counts.append(f"{n}: {answered.get(n, 0)} 503s, logged {up.get('failedReads')} reads and "
                          f"{up.get('failedWrites')} writes failed in {up.get('unreachableSeconds')} s")
            if answered.get(n) and up.get("failedReads", 0) + up.get("failedWrites", 0) <= 0:
                bad.append(f"{n}: its reachable-again line counts no failure")
    report.check(not bad and "?" not in answered,
                 "outage: each instance that answered 503s logged one 'store unreachable' and one 'store reachable "
                 "again' line" + (f"; {bad}" if bad else "") + (f"; 503s from an unknown instance: {answered.get('?')}"
                                                             if "?" in answered else ""))
    for line in counts:
        report.info(line)


# --- bench -------------------------------------------------------------------------------------

def wal_counters(cluster: Cluster) -> tuple[int, int]:
    """(WAL flushes, committed transactions) of the database so far (pg_stat_wal, pg_stat_database)."""
    row = cluster.psql_csv("SELECT (SELECT wal_sync FROM pg_stat_wal), (SELECT xact_commit FROM pg_stat_database "
                           "WHERE datname = current_database())")[0]
    return int(row[0]), int(row[1])


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    """User + system CPU time of these processes (all their threads), from /proc/<pid>/stat."""
    total = 0
    for pid in pids:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def postgres_pids(cluster: Cluster) -> list[int]:
    """The cluster's postmaster and its children (backends, WAL writer, checkpointer)."""
    try:
        master = int((Path(cluster.pg_dir or "") / "data" / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    pids = [master]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2:].split()[1]) == master:
                pids.append(int(entry.name))
    return pids


def bench_run(cluster: Cluster, port: int, clients: int, seconds: float, tag: str,
              navsim_pids: list[int]) -> tuple[float, float, float, float, float]:
    """(acknowledged writes, PostgreSQL transactions, WAL flushes, navsim CPU seconds, PostgreSQL
    CPU seconds, this client's CPU seconds) per second through `port`, with `clients` clients each
    on its own session."""
    tally = Tally()
    stop = threading.Event()
    t0 = time.monotonic()
    writers = [SessionWriter(f"{tag}-{i:02d}", port, 1, tally, t0, stop, i, 100_000) for i in range(clients)]
    for w in writers:
        w.start()
    time.sleep(0.5)  # the sessions exist and the connections are open: measure from here
    with tally.lock:
        a0, m0 = len(tally.acks), time.monotonic()
    s0, x0 = wal_counters(cluster)
    pg = postgres_pids(cluster)
    n0, p0, c0 = cpu_seconds(navsim_pids), cpu_seconds(pg), time.process_time()
    time.sleep(seconds)
    with tally.lock:
        a1, m1 = len(tally.acks), time.monotonic()
        bad = sum(n for s, n in tally.statuses.items() if not 200 <= s < 300)
    n1, p1, c1 = cpu_seconds(navsim_pids), cpu_seconds(pg), time.process_time()
    s1, x1 = wal_counters(cluster)
    stop.set()
    for w in writers:
        w.join(timeout=30)
    if bad:
        print(f"  (run {tag}: {bad} failed requests)", flush=True)
    span = m1 - m0
    return ((a1 - a0) / span, (x1 - x0) / span, (s1 - s0) / span, (n1 - n0) / span, (p1 - p0) / span,
            (c1 - c0) / span)


def bench(args: argparse.Namespace, cluster: Cluster, navsims: dict[str, tuple[Child, int]]) -> int:
    names = sorted(navsims)
    one = cluster.start_haproxy("haproxy-1", [(names[0], navsims[names[0]][1])])
    three = cluster.start_haproxy("haproxy-3", [(n, navsims[n][1]) for n in names])
    version = cluster.psql_csv("SELECT current_setting('server_version')")[0][0]
    print(f"machine: {os.cpu_count()} cores, shared with other work; PostgreSQL {version} (fsync, "
          f"synchronous_commit on) on the same machine; {args.clients} clients, each on its own session, "
          f"push/pop through HAProxy; {args.rounds} interleaved rounds of {args.bench_seconds:.0f} s", flush=True)
    results: dict[int, list[tuple[float, ...]]] = {1: [], 3: []}
    pids = [navsims[n][0].proc.pid for n in names]
    for r in range(args.rounds):
        order = [(1, one), (3, three)] if r % 2 == 0 else [(3, three), (1, one)]
        for n, port in order:
            run = bench_run(cluster, port, args.clients, args.bench_seconds, f"b{r}i{n}", pids)
            results[n].append(run)
            print(f"  round {r + 1}: {n} instance{'s' if n > 1 else ' '} {run[0]:6.0f} writes/s, "
                  f"{run[1]:5.0f} transactions/s, {run[2]:5.0f} WAL flushes/s, CPU: navsim {run[3]:.2f}, "
                  f"PostgreSQL {run[4]:.2f}, clients {run[5]:.2f} cores", flush=True)
    medians = {}
    for n in (1, 3):
        xs = results[n]
        med = [statistics.median(x[i] for x in xs) for i in range(6)]
        medians[n] = med[0]
        print(f"{n} instance{'s' if n > 1 else ' '} on one PostgreSQL: median {med[0]:.0f} durable writes/s "
              f"(min {min(x[0] for x in xs):.0f}, max {max(x[0] for x in xs):.0f}, {len(xs)} runs); "
              f"{med[1]:.0f} transactions/s, {med[2]:.0f} WAL flushes/s, "
              f"{med[0] / med[2] if med[2] else 0:.1f} writes per flush; CPU navsim {med[3]:.2f} + "
              f"PostgreSQL {med[4]:.2f} + clients {med[5]:.2f} cores")
    print(f"3 instances / 1 instance: {medians[3] / medians[1]:.2f}")
    return 0


# --- main --------------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=48)
    ap.add_argument("--load-seconds", type=float, default=12.0)
    ap.add_argument("--one-session-clients", type=int, default=64)
    ap.add_argument("--one-session-writes", type=int, default=6)
    ap.add_argument("--outage-clients", type=int, default=16)
    ap.add_argument("--outage-seconds", type=float, default=10.0)
    ap.add_argument("--budget", type=float, default=170.0, help="seconds for the whole run")
    ap.add_argument("--keep-logs", type=Path, help="after a failed run, copy the processes' logs here")
    ap.add_argument("--bench", action="store_true", help="measure 1 vs 3 instances instead")
    ap.add_argument("--sabotage", action="store_true",
                    help="lose one acknowledged write in the database after the kill: the run must fail")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--bench-seconds", type=float, default=6.0)
    args = ap.parse_args()
    if args.bench and "--clients" not in sys.argv:
        args.clients = 32
    if not BINARY.exists():
        print(f"cluster-sim: no {BINARY}; run swift build -c release first", file=sys.stderr)
        return 2
    for tool in ("haproxy", "psql"):
        if shutil.which(tool) is None:
            print(f"cluster-sim: no {tool}; run scripts/install-cluster-prereqs.sh", file=sys.stderr)
            return 2

    def over_budget(signum, frame):
        raise Budget(f"over the budget of {args.budget:.0f} s")

    signal.signal(signal.SIGALRM, over_budget)
    signal.signal(signal.SIGTERM, lambda s, f: sys.exit(3))
    signal.alarm(int(args.budget))
    started = time.monotonic()
    cluster = Cluster(args.keep_logs)
    report = Report()
    failed = True
    try:
        cluster.start_postgres()
        navsims = {name: cluster.start_navsim(name) for name in ("navsim1", "navsim2", "navsim3")}
        print(f"cluster: PostgreSQL at {cluster.pg_url}; "
              + ", ".join(f"{n} on :{p}" for n, (_, p) in navsims.items()), flush=True)
        if args.bench:
            status = bench(args, cluster, navsims)
            failed = status != 0
            return status
        hp = cluster.start_haproxy("haproxy", [(n, p) for n, (_, p) in navsims.items()])
        print(f"HAProxy on :{hp} (deploy/haproxy.cfg's rules, health check every 200 ms)", flush=True)
        print("== flows through HAProxy", flush=True)
        play_flows(report, cluster, hp)
        print("== write load, one instance SIGKILLed", flush=True)
        victim = kill_under_load(report, cluster, navsims, hp, args.clients, args.load_seconds, args.sabotage)
        # The killed instance starts again (as a supervisor would restart it) and joins the others
        # for the one-session test, which goes to the instances directly.
        navsims[victim] = cluster.start_navsim(victim + "-restarted")
        print("== one session, clients spread over the instances", flush=True)
        one_session(report, cluster, [p for _, p in navsims.values()], args.one_session_clients,
                    args.one_session_writes)
        print(f"== PostgreSQL stopped for {args.outage_seconds:.0f} s under write load, behind HAProxy "
              f"with deploy/haproxy.cfg's health checks and retries", flush=True)
        database_outage(report, cluster, navsims, args.outage_clients, args.outage_seconds)
        failed = bool(report.failures)
    except (SetupError, Budget) as e:
        print(f"cluster-sim: {e}", file=sys.stderr)
        for child in cluster.children:
            if not child.alive() and child.proc.returncode not in (0, -signal.SIGKILL):
                print(f"--- {child.name} exited {child.proc.returncode}: {child.log_tail()}", file=sys.stderr)
        return 2
    finally:
        signal.alarm(0)
        cluster.close(failed)
    took = time.monotonic() - started
    if report.failures:
        print(f"cluster-sim: {len(report.failures)} checks failed ({took:.0f} s)")
        return 1
    print(f"cluster-sim: all checks passed ({took:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
