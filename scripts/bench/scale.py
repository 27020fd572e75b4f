#!/usr/bin/env python3
"""The figures that scale with the whole database: restart, memory, a long delete, and
history reads beside a long replay. Called by scripts/bench.sh (skip with --skip-scale there):

    scale.py --navsim BIN [--sessions 50000] [--big 100000] [--quick]
             [--skip-restart] [--skip-big] [--skip-delete]

Seeding: one 10-controller session is created through the server, the server is stopped, and
its rows (sessions, controllers, history) are copied under new ids with SQL into the same file:
a session's stored rows do not contain its id, so each copy is byte for byte what navsim writes
for a session of that id. The id of the copy is s000001, s000002, …

RSS is VmRSS of /proc/PID/status, read once the server is at rest (Server.rest_rss): a pass over
every session evicts past the budget, and the free-page pass those evictions ask for runs up to
2 s later (FreePages.minimumInterval), so a reading taken the moment the GETs end lands before or
after it by chance (touched vs live 1.00x and 1.11x in two bench runs). "live" is the first
server on the seeded file after a GET of every session; then SIGTERM, a new server on the same
file, the time until a GET of a random session answers 200 and until /healthz answers "ok" (both
from the moment the process is spawned), its RSS then, and after a GET of every session again.

Everything listens on 127.0.0.1; every loop is bounded by a count or a duration.
Output, one line per figure:  figure  navsim  anchor  ratio  (target)
"""
import argparse, http.client, json, os, random, shutil, signal, socket, sqlite3, statistics, subprocess, sys
import tempfile, threading, time


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_seconds(pid):
    """User + system CPU seconds of process `pid` (all threads): /proc/PID/stat fields 14 and 15."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_bytes(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class Conn:
    """One keep-alive connection that reconnects once when the server closed it."""

    def __init__(self, port, timeout=30):
        self.port, self.timeout = port, timeout
        self.c = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"Content-Type": "application/json"} if data else {}
        for attempt in (0, 1):
            try:
                self.c.request(method, path, body=data, headers=headers)
                r = self.c.getresponse()
                return r.status, r.read()
            except (http.client.HTTPException, ConnectionError, OSError):
                self.c.close()
                self.c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
                if attempt:
                    raise
        raise RuntimeError("unreachable")

    def ok(self, method, path, body=None):
        status, payload = self.call(method, path, body)
        if status >= 300:
            sys.exit(f"scale: {method} {path} answered {status}: {payload[:200]!r}")
        return payload


class Server:
    def __init__(self, binary, db, extra=()):
        self.port = free_port()
        env = dict(os.environ, NAVSIM_DB=db, NAVSIM_PORT=str(self.port), NAVSIM_HOST="127.0.0.1")
        self.started = time.perf_counter()
        self.proc = subprocess.Popen([binary, "serve", *extra], env=env, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)

    def wait_for(self, path, want=b"", limit=300.0):
        """Seconds from the spawn until `path` answers 200 (containing `want`); polls every 5 ms."""
        deadline = self.started + limit
        while time.perf_counter() < deadline:
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                c.request("GET", path)
                r = c.getresponse()
                body = r.read()
                c.close()
                if r.status == 200 and want in body:
                    return time.perf_counter() - self.started
            except OSError:
                pass
            if self.proc.poll() is not None:
                sys.exit(f"scale: navsim exited with {self.proc.returncode}")
            time.sleep(0.005)
        sys.exit(f"scale: {path} did not answer within {limit} s")

    def rss(self):
        return rss_bytes(self.proc.pid)

    def rest_rss(self, quiet=0.3, bound=15.0):
        """RSS once the server has used no CPU for `quiet` s and at least 2.5 s have passed (the free-page
        pass that the last evictions queued has run): at most `bound` s of waiting."""
        start, last = time.perf_counter(), cpu_seconds(self.proc.pid)
        while time.perf_counter() - start < bound:
            time.sleep(quiet)
            now = cpu_seconds(self.proc.pid)
            if now == last and time.perf_counter() - start >= 2.5:
                break
            last = now
        return self.rss()

    def stop(self):
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def line(figure, ours, anchor, target, unit=""):
    ratio = ours / anchor if anchor else float("inf")
    print(f"{figure:<52} {ours:>10.1f}{unit:>2} {anchor:>10.1f}{unit:>2} {ratio:>7.2f}x  ({target})", flush=True)


def note(figure, value):
    print(f"{figure:<52} {value:>12}", flush=True)


TEN = {"id": "t", "root": {"id": "nav", "kind": "navigationController",
                           "viewControllers": [{"id": f"c{i}", "title": f"Screen {i}"} for i in range(9)]}}


def seed(binary, folder, count):
    """A database of `count` 10-controller sessions: one made by navsim, the rest SQL copies of its rows."""
    db = os.path.join(folder, "navsim.sqlite")
    s = Server(binary, db)
    s.wait_for("/healthz")
    Conn(s.port).ok("POST", "/v1/sessions", TEN)
    s.stop()
    con = sqlite3.connect(db)
    con.execute("PRAGMA journal_mode=WAL")
    with con:
        for table, key, cols in (("sessions", "id", "version, created_at, state, format"),
                                 ("controllers", "session_id", "id, parent, presenting, presented, body, format"),
                                 ("history", "session_id",
                                  "version, at, method, path, body, command, result, format, changes, checkpoint, rules_version")):
            con.execute(f"""WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                            INSERT INTO {table} ({key}, {cols})
                            SELECT printf('s%06d', i), {cols} FROM {table}, n WHERE {key} = 't'""", (count - 1,))
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return db, ["t"] + [f"s{i:06d}" for i in range(1, count)]


def touch_all(port, ids, threads=4):
    """GETs every session once, on `threads` connections; returns the elapsed seconds."""
    start = time.perf_counter()
    chunks = [ids[i::threads] for i in range(threads)]

    def run(chunk):
        c = Conn(port)
        for sid in chunk:
            c.ok("GET", f"/v1/sessions/{sid}")

    workers = [threading.Thread(target=run, args=(ch,)) for ch in chunks]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return time.perf_counter() - start


def restart_figures(binary, count, label, per_session=False):
    folder = tempfile.mkdtemp(prefix="navsim-scale-")
    try:
        t = time.perf_counter()
        db, ids = seed(binary, folder, count)
        note(f"seeded {count} sessions (SQL copies), s", f"{time.perf_counter() - t:.1f}")
        if per_session:
            # What one loaded session costs: every session in memory, no reply bytes cached.
            s = Server(binary, db, ["--max-loaded-sessions", str(count + 1), "--session-cache-bytes", "0"])
            s.wait_for("/healthz")
            empty = s.rss()
            touch_all(s.port, ids)
            full = s.rss()
            s.stop()
            note("RSS per loaded 10-controller session, bytes", f"{(full - empty) / count:.0f}")
        s = Server(binary, db)
        s.wait_for("/healthz")
        touch_all(s.port, ids)
        live = s.rest_rss()
        s.stop()
        s = Server(binary, db)
        sid = random.choice(ids)
        first_get = s.wait_for(f"/v1/sessions/{sid}")
        healthz = s.wait_for("/healthz", b'"ok"')
        after = s.rss()
        touch_all(s.port, ids)
        touched = s.rest_rss()
        s.stop()
        line(f"{label}: restart to first GET of a session, ms", first_get * 1e3, 2000, "<= 2 s", "ms")
        note(f"{label}: restart to /healthz ok, ms", f"{healthz * 1e3:.1f}")
        mib = 1 << 20
        line(f"{label}: RSS after restart vs live, MiB", after / mib, live / mib, "<= 1.1x", "Mi")
        line(f"{label}: RSS after touching all vs live, MiB", touched / mib, live / mib, "<= 1.1x", "Mi")
        line(f"{label}: RSS live vs 1 GiB, MiB", live / mib, 1024, "<= 1.0x", "Mi")
        line(f"{label}: RSS after restart + all vs 1 GiB, MiB", touched / mib, 1024, "<= 1.0x", "Mi")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def percentile(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else 0.0


def timed_loop(port, method, path_of, body_of, seconds, stop=None, spans=None):
    """Sends requests for `seconds` (or until `stop` is set); returns each one's latency.
    `spans`, when given, also gets each request's (start, end) in perf_counter seconds."""
    c = Conn(port)
    out = []
    end = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < end and not (stop and stop.is_set()):
        t = time.perf_counter()
        c.ok(method, path_of(i), body_of(i))
        done = time.perf_counter()
        out.append(done - t)
        if spans is not None:
            spans.append((t, done))
        i += 1
    return out


def delete_and_history_figures(binary, entries, quick):
    folder = tempfile.mkdtemp(prefix="navsim-scale-")
    s = None
    try:
        db = os.path.join(folder, "navsim.sqlite")
        s = Server(binary, db, ["--max-turn-operations", "1000"])
        s.wait_for("/healthz")
        c = Conn(s.port)
        c.ok("POST", "/v1/sessions", dict(TEN, id="long"))
        for i in range(1, entries):
            c.ok("PATCH", "/v1/sessions/long/controllers/c0", {"title": f"t{i}"})
        c.ok("POST", "/v1/sessions", dict(TEN, id="paged"))
        for i in range(200):
            c.ok("PATCH", "/v1/sessions/paged/controllers/c0", {"title": f"p{i}"})
        writers = [f"w{i}" for i in range(8)]
        for w in writers:
            c.ok("POST", "/v1/sessions", dict(TEN, id=w))
        window = 2 if quick else 4

        # A history page's p99 alone, then while another client reads ?version=N in a loop.
        page = lambda i: "/v1/sessions/paged/history?after=50&limit=100"
        alone = timed_loop(s.port, "GET", page, lambda i: None, window)
        stop = threading.Event()
        replays = []
        loopers = [threading.Thread(target=lambda: replays.extend(
            timed_loop(s.port, "GET", lambda i: f"/v1/sessions/long?version={entries - 1}", lambda i: None, window + 5, stop)))
            for _ in range(2)]
        for t in loopers:
            t.start()
        time.sleep(0.2)
        beside = timed_loop(s.port, "GET", page, lambda i: None, window)
        stop.set()
        for t in loopers:
            t.join()
        line("history page p99 beside ?version=N loops vs alone, ms", percentile(beside, 0.99) * 1e3,
             percentile(alone, 0.99) * 1e3, f"flat; 2 loops of ?version={entries - 1}, median {statistics.median(replays) * 1e3:.1f} ms",
             "ms")

        # Other sessions' writes while a long session is deleted, against the same writes without it.
        spans = []
        def writes(seconds, stop=None):
            lat = []
            def run(w):
                lat.extend(timed_loop(s.port, "PATCH", lambda i: f"/v1/sessions/{w}/controllers/c0",
                                      lambda i: {"title": f"x{i}"}, seconds, stop, spans))
            ts = [threading.Thread(target=run, args=(w,)) for w in writers]
            for t in ts:
                t.start()
            return ts, lat
        anchor = os.path.join(folder, "anchor.sqlite")
        source, target = sqlite3.connect(db), sqlite3.connect(anchor)
        source.backup(target)
        source.close()
        target.close()
        ts, base = writes(window)
        for t in ts:
            t.join()
        spans.clear()
        stop = threading.Event()
        ts, during = writes(window + 10, stop)
        time.sleep(0.3)
        t0 = time.perf_counter()
        status, _ = Conn(s.port).call("DELETE", "/v1/sessions/long")
        reply = time.perf_counter() - t0
        gone, _ = Conn(s.port).call("GET", "/v1/sessions/long")
        # Until the chunks are done: no child rows left for the id (read beside the server, WAL).
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        deadline = time.perf_counter() + 60
        while time.perf_counter() < deadline:
            left = con.execute("SELECT (SELECT count(*) FROM history WHERE session_id='long') + "
                               "(SELECT count(*) FROM controllers WHERE session_id='long')").fetchone()[0]
            if left == 0:
                break
            time.sleep(0.01)
        swept = time.perf_counter() - t0
        con.close()
        time.sleep(0.2)
        stop.set()
        for t in ts:
            t.join()
        if status != 204 or gone != 404:
            sys.exit(f"scale: DELETE answered {status}, then GET {gone}")
        # The anchor: the same rows removed by one cascading DELETE (the design before chunks), on
        # the copy of the file taken before the delete, WAL + synchronous=FULL like navsim.
        s.stop()
        s = None
        con = sqlite3.connect(anchor, isolation_level=None)
        con.execute("PRAGMA journal_mode=WAL")
        con.execute("PRAGMA synchronous=FULL")
        con.execute("PRAGMA foreign_keys=ON")
        t = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("DELETE FROM sessions WHERE id = 'long'")
        con.execute("COMMIT")
        cascade = time.perf_counter() - t
        left = con.execute("SELECT count(*) FROM history WHERE session_id = 'long'").fetchone()[0]
        con.close()
        if left:
            sys.exit("scale: the anchor's cascade left rows")
        line(f"DELETE of a {entries}-entry session: reply vs one cascade, ms", reply * 1e3, cascade * 1e3,
             f"short; chunks done after {swept * 1e3:.0f} ms", "ms")
        line("other sessions' write p99 during the delete vs without, ms", percentile(during, 0.99) * 1e3,
             percentile(base, 0.99) * 1e3, "near 1x (was: waits for the whole cascade)", "ms")
        # The same writes, only those that overlapped the chunks (from the DELETE to the last
        # chunk): what the sweep itself costs them, not diluted by the seconds around it.
        sweeping = [b - a for a, b in spans if b > t0 and a < t0 + swept]
        line("  only writes overlapping the chunks, p99 vs without, ms", percentile(sweeping, 0.99) * 1e3,
             percentile(base, 0.99) * 1e3, f"near 1x; {len(sweeping)} writes", "ms")
    finally:
        if s:
            s.stop()
        shutil.rmtree(folder, ignore_errors=True)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--navsim", required=True)
    p.add_argument("--sessions", type=int, default=50_000)
    p.add_argument("--big", type=int, default=100_000)
    p.add_argument("--quick", action="store_true", help="smaller counts: 5,000 / 10,000 sessions, 2,000 entries")
    p.add_argument("--skip-restart", action="store_true")
    p.add_argument("--skip-big", action="store_true")
    p.add_argument("--skip-delete", action="store_true")
    a = p.parse_args()
    sessions, big, entries = (5_000, 10_000, 2_000) if a.quick else (a.sessions, a.big, 10_000)
    print(f"{'figure':<52} {'navsim':>12} {'anchor':>12} {'ratio':>8}  target")
    if not a.skip_restart:
        restart_figures(a.navsim, sessions, f"{sessions} sessions", per_session=True)
    if not a.skip_big:
        restart_figures(a.navsim, big, f"{big} sessions")
    if not a.skip_delete:
        delete_and_history_figures(a.navsim, entries, a.quick)


if __name__ == "__main__":
    main()
