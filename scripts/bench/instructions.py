#!/usr/bin/env python3
"""Marginal instructions per request, counted by valgrind's callgrind from outside the process,
beside floor programs counted the same way in the same run, and a gate on those counts.

    python3 scripts/bench/instructions.py                 # measure and print the table
    python3 scripts/bench/instructions.py --check         # ... and fail (exit 1) on a regression
    python3 scripts/bench/instructions.py --update        # ... and rewrite the expected file
    python3 scripts/bench/instructions.py --self-test     # the gate fails on a 10 % regression

Method. Each program runs whole under `valgrind --tool=callgrind` and is stopped with SIGTERM;
the count is the process's total (every thread, start-up and shutdown included). Every workload
runs once with N1 requests of each operation (the base run) and once more per operation with N2
requests of that operation and N1 of the others. The difference to the base run, divided by
N2 - N1, is the cost of one more request: start-up, set-up (storyboard upload, session creation)
and shutdown are the same in both runs and cancel.

navsim (the release binary, one keep-alive connection, durable writes):
  push         POST .../controllers/nav/push on a 10-controller navigation session
  pop          POST .../controllers/nav/pop on a 10-controller navigation session
  patch        PATCH .../controllers/c0 of a title (each a change, so each commits a version)
  performSegue POST .../controllers/inbox/performSegue "showMessage" on a session created from the
               initial scene of Tests/Fixtures/Storyboards/handwritten/app/Main.storyboard
  get          GET of a 10-controller session (the bytes scripts/bench.sh reads)
push, pop and performSegue each act on a session of their own, made in the set-up (N2 of each in
every run), so every request meets the same state; PATCH and GET repeat on one session.

Floors (scripts/bench/raw_mhd.c and scripts/bench/naive_sqlite.c, compiled with cc -O2):
  echo         raw libmicrohttpd answering POST /echo with the push's body, one keep-alive connection
  raw get      raw libmicrohttpd serving the bytes navsim answered for the GET
  commit       the naive writer: one BEGIN; INSERT of 512 bytes; COMMIT (WAL, synchronous=FULL)
A write's floor is echo + commit; the GET's is raw get.

The gate (--check) compares navsim's figure for each operation with the expected file
(scripts/bench/instructions.expected.json by default) and fails when one is more than --tolerance
(10 %) above it. After a deliberate change, --update rewrites the file; commit it with the change.
The floors are printed, not gated: they are other projects' code.

Needs valgrind (Debian's package), cc and pkg-config with libmicrohttpd and sqlite3, and the
release build (`swift build -c release`). Loopback only.
"""
import argparse
import http.client
import json
import os
import platform
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPECTED = os.path.join(REPO, "scripts", "bench", "instructions.expected.json")
STORYBOARDS = os.path.join(REPO, "Tests", "Fixtures", "Storyboards", "handwritten", "app")
NAVSIM_OPS = ["push", "pop", "patch", "performSegue", "get"]
READ_OPS = ["get", "echo", "raw get"]
PUSH_BODY = {"viewController": {"id": "pushed", "title": "Pushed"}}
SEGUE_BODY = {"identifier": "showMessage"}
ROW_BYTES = 512
# --depth: the shallow stack it is compared with, and the profile its sessions run (explicit, so
# that the figures do not move with the server's default).
DEPTH_SHALLOW = 10
DEPTH_IOS = "26"
# Counts that do not depend on the run: Swift's hashing seeded the same in every process (the
# order of dictionaries, hence of the work done over them), one locale and time zone.
# Counts that do not depend on the CPU either: glibc picks its memcpy, memset and string routines
# by the CPU's features, and valgrind counts each step of a `rep movsb`/`rep stosb` (chosen where
# the CPU has ERMS or FSRM) as one instruction, so libmicrohttpd's zeroing of its 16 KiB pool alone
# would count thousands more on one CPU than another. Masking those features (glibc's
# glibc.cpu.hwcaps tunable) gives every x86-64 machine the same baseline SSE2 routines.
DETERMINISTIC_ENV = {
    "SWIFT_DETERMINISTIC_HASHING": "1", "LC_ALL": "C", "TZ": "UTC",
    "GLIBC_TUNABLES": "glibc.cpu.hwcaps=-ERMS,-FSRM,-AVX512F,-AVX512VL,-AVX512BW,-AVX2,-AVX,-FMA,-BMI1,-BMI2,"
                      "-LZCNT,-MOVBE,-SSE4_2,-SSE4_1,-SSSE3,-POPCNT,-RTM",
}


def measured_env(args):
    env = dict(os.environ, **DETERMINISTIC_ENV)
    if args.native_cpu:
        env.pop("GLIBC_TUNABLES")
    return env


RUNNING = []  # the server under measurement, stopped by fail() so that none outlives the script


def fail(message, code=2):
    print(f"instructions: {message}", file=sys.stderr)
    for proc in RUNNING:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    sys.exit(code)


def nav_spec(depth=10):
    vcs = [{"id": f"c{i}", "title": f"Screen {i}"} for i in range(depth)]
    return {"id": "nav", "kind": "navigationController", "viewControllers": vcs}


class Client:
    """One keep-alive connection; every reply must be 2xx, or the run is void."""

    def __init__(self, port):
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        self.sock = None

    def call(self, method, path, body=None, content_type="application/json"):
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        headers = {"Content-Type": content_type} if data is not None else {}
        self.conn.request(method, path, body=data, headers=headers)
        reply = self.conn.getresponse()
        payload = reply.read()
        # http.client reconnects on its own after a close: the socket must stay the first one.
        if self.sock is None:
            self.sock = self.conn.sock
        elif self.conn.sock is not self.sock:
            fail(f"{method} {path}: a new connection was opened; the run needs one keep-alive connection")
        if reply.status >= 300:
            fail(f"{method} {path}: {reply.status} {payload[:300]!r}")
        if reply.getheader("Connection", "").lower() == "close":
            fail(f"{method} {path}: the server closed the connection; the run needs one keep-alive connection")
        return payload

    def close(self):
        self.conn.close()


def callgrind(out, argv):
    return ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no",
            "--dump-line=no", "--trace-children=no", *argv]


def total_instructions(out):
    with open(out, errors="replace") as f:
        for line in f:
            if line.startswith(("totals:", "summary:")):
                return int(line.split()[1])
    fail(f"{out} has no totals line")


def wait_for_port(log_path, proc, pattern, what):
    deadline = time.time() + 300
    while time.time() < deadline:
        if proc.poll() is not None:
            fail(f"{what} exited before listening:\n{open(log_path, errors='replace').read()[-2000:]}")
        m = re.search(pattern, open(log_path, errors="replace").read())
        if m:
            return int(m.group(1))
        time.sleep(0.2)
    proc.kill()
    fail(f"{what} did not start within 300 s")


def stop(proc, what):
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=120)
    except subprocess.TimeoutExpired:
        fail(f"{what} did not stop within 120 s of SIGTERM")
    RUNNING.remove(proc)


def navsim_run(args, work, counts, tag):
    """One navsim process under callgrind: set-up, then counts[op] requests of each operation.
    Returns (instructions, the GET's reply bytes)."""
    folder = os.path.join(work, f"navsim-{tag}")
    os.makedirs(folder)
    out, log_path = os.path.join(folder, "callgrind.out"), os.path.join(folder, "server.log")
    env = dict(measured_env(args), NAVSIM_DB=os.path.join(folder, "db.sqlite"),
               NAVSIM_PORT="0", NAVSIM_HOST="127.0.0.1",
               NAVSIM_MIGRATIONS=os.environ.get("NAVSIM_MIGRATIONS", os.path.join(REPO, "migrations")))
    with open(log_path, "w") as log:
        # The log goes to a file: a pipe nobody reads would block the server once it is full.
        proc = subprocess.Popen(callgrind(out, [args.navsim, "serve"]), env=env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    RUNNING.append(proc)
    port = wait_for_port(log_path, proc, r'"url":"http://127\.0\.0\.1:(\d+)"', "navsim")
    c = Client(port)
    n2 = args.n2
    for name in sorted(f for f in os.listdir(STORYBOARDS) if f.endswith(".storyboard")):
        with open(os.path.join(STORYBOARDS, name), "rb") as f:
            c.call("PUT", f"/v1/storyboards/{name[:-len('.storyboard')]}", f.read(), "application/xml")
    # The same set-up in every run, whatever its counts: N2 sessions for each one-shot operation.
    for i in range(n2):
        c.call("POST", "/v1/sessions", {"id": f"push{i:04d}", "root": nav_spec()})
        c.call("POST", "/v1/sessions", {"id": f"pop{i:04d}", "root": nav_spec()})
        c.call("POST", "/v1/sessions", {"id": f"segue{i:04d}", "root": {"storyboard": "Main"}})
    c.call("POST", "/v1/sessions", {"id": "patch", "root": nav_spec()})
    c.call("POST", "/v1/sessions", {"id": "get", "root": nav_spec()})
    for i in range(counts["push"]):
        c.call("POST", f"/v1/sessions/push{i:04d}/controllers/nav/push", PUSH_BODY)
    for i in range(counts["pop"]):
        c.call("POST", f"/v1/sessions/pop{i:04d}/controllers/nav/pop", {})
    for i in range(counts["patch"]):
        # Two titles of one length in turn: each PATCH is a change, and every reply the same size.
        c.call("PATCH", "/v1/sessions/patch/controllers/c0", {"title": f"Title {'AB'[i % 2]}"})
    for i in range(counts["performSegue"]):
        c.call("POST", f"/v1/sessions/segue{i:04d}/controllers/inbox/performSegue", SEGUE_BODY)
    body = b""
    for _ in range(counts["get"]):
        body = c.call("GET", "/v1/sessions/get")
    c.close()
    stop(proc, "navsim")
    return total_instructions(out), body


def depth_run(args, work, pairs, tag):
    """navsim under callgrind with two sessions, each a navigation controller DEPTH_SHALLOW and
    args.depth controllers deep: pairs[depth] push+pop pairs on each. A pair leaves the stack as
    it found it (automatic release drops the popped controller), so every pair meets the same
    stack. Returns the instructions."""
    folder = os.path.join(work, f"depth-{tag}")
    os.makedirs(folder)
    out, log_path = os.path.join(folder, "callgrind.out"), os.path.join(folder, "server.log")
    deep = args.depth
    # The limits of docs/limits.md let a stack one above the deep one through: its spec lists
    # every child, and a push goes one deeper.
    env = dict(measured_env(args), NAVSIM_DB=os.path.join(folder, "db.sqlite"),
               NAVSIM_PORT="0", NAVSIM_HOST="127.0.0.1",
               NAVSIM_MAX_STACK_DEPTH=str(max(64, deep + 1)), NAVSIM_MAX_SPEC_WIDTH=str(max(256, deep)),
               NAVSIM_MAX_CONTROLLERS=str(max(1000, deep + 2)),
               NAVSIM_MIGRATIONS=os.environ.get("NAVSIM_MIGRATIONS", os.path.join(REPO, "migrations")))
    with open(log_path, "w") as log:
        proc = subprocess.Popen(callgrind(out, [args.navsim, "serve"]), env=env, stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    RUNNING.append(proc)
    port = wait_for_port(log_path, proc, r'"url":"http://127\.0\.0\.1:(\d+)"', "navsim")
    c = Client(port)
    depths = (DEPTH_SHALLOW, deep)
    for d in depths:
        c.call("POST", "/v1/sessions", {"id": f"deep{d}", "root": nav_spec(d),
                                        "options": {"iOS": DEPTH_IOS, "release": "automatic"}})
    for d in depths:
        for _ in range(pairs[d]):
            c.call("POST", f"/v1/sessions/deep{d}/controllers/nav/push", PUSH_BODY)
            c.call("POST", f"/v1/sessions/deep{d}/controllers/nav/pop", {})
    c.close()
    stop(proc, "navsim")
    return total_instructions(out)


def measure_depth(args, work, round_, per):
    """Marginal instructions of one push+pop pair at each depth, into `per`."""
    n1, n2 = args.n1, args.n2
    depths = (DEPTH_SHALLOW, args.depth)
    base = depth_run(args, work, {d: n1 for d in depths}, f"{round_}-base")
    for d in depths:
        more = depth_run(args, work, {e: n2 if e == d else n1 for e in depths}, f"{round_}-{d}")
        per[f"depth {d}"] = (more - base) / (n2 - n1)
        print(f"  round {round_ + 1}: navsim push+pop at depth {d:<4} {per[f'depth {d}']:>12,.0f} Ir/pair",
              file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raw_run(args, work, counts, tag, session_bytes):
    """raw_mhd under callgrind: counts['echo'] POST /echo and counts['raw get'] GETs."""
    folder = os.path.join(work, f"raw-{tag}")
    os.makedirs(folder)
    out, log_path = os.path.join(folder, "callgrind.out"), os.path.join(folder, "server.log")
    health, session = os.path.join(folder, "healthz.json"), os.path.join(folder, "session.json")
    with open(health, "w") as f:
        f.write('{"status":"ok"}')
    with open(session, "wb") as f:
        f.write(session_bytes)
    port = args.raw_port or free_port()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(callgrind(out, [args.raw_mhd, str(port), health, session]),
                                env=measured_env(args), stdout=log,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    RUNNING.append(proc)
    # raw_mhd prints nothing when it listens: poll /healthz on a connection of its own.
    deadline = time.time() + 300
    while True:
        try:
            probe = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            probe.request("GET", "/healthz")
            probe.getresponse().read()
            probe.close()
            break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                proc.kill()
                fail(f"raw_mhd did not start on port {port}:\n{open(log_path, errors='replace').read()[-2000:]}")
            time.sleep(0.2)
    c = Client(port)
    echo = json.dumps(PUSH_BODY).encode()
    for _ in range(counts["echo"]):
        c.call("POST", "/echo", echo)
    for _ in range(counts["raw get"]):
        c.call("GET", "/v1/sessions/get")
    c.close()
    stop(proc, "raw_mhd")
    return total_instructions(out)


def naive_run(args, work, count, tag):
    folder = os.path.join(work, f"naive-{tag}")
    os.makedirs(folder)
    out = os.path.join(folder, "callgrind.out")
    subprocess.run(callgrind(out, [args.naive, os.path.join(folder, "db.sqlite"), "0", str(ROW_BYTES), str(count)]),
                   env=measured_env(args), check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
    return total_instructions(out)


def depth_keys(depth):
    return [f"depth {DEPTH_SHALLOW}", f"depth {depth}"] if depth else []


def counts_of(args, more=None):
    """Requests of each operation in one run: N1 (or N2 for `more`), reads READ_FACTOR times as
    many, so that each run's background work, spread over fewer instructions per read, stays
    far below the gate's tolerance."""
    def n(op):
        base = args.n2 if op == more else args.n1
        return base * args.read_factor if op in READ_OPS else base
    return {op: n(op) for op in NAVSIM_OPS + ["echo", "raw get"]}


def measure_once(args, work, round_):
    """One round: every marginal figure, in Ir per request."""
    per = {}
    if args.depth_only:
        measure_depth(args, work, round_, per)
        return per

    def marginal(op, more, base):
        per[op] = (more - base) / (counts_of(args, op)[op] - counts_of(args)[op])

    base, session_bytes = navsim_run(args, work, counts_of(args), f"{round_}-base")
    for op in NAVSIM_OPS:
        marginal(op, navsim_run(args, work, counts_of(args, op), f"{round_}-{op}")[0], base)
        print(f"  round {round_ + 1}: navsim {op:<13} {per[op]:>12,.0f} Ir/request", file=sys.stderr, flush=True)
    raw_base = raw_run(args, work, counts_of(args), f"{round_}-base", session_bytes)
    for op in ["echo", "raw get"]:
        marginal(op, raw_run(args, work, counts_of(args, op), f"{round_}-{op}", session_bytes), raw_base)
        print(f"  round {round_ + 1}: raw_mhd {op:<12} {per[op]:>12,.0f} Ir/request", file=sys.stderr, flush=True)
    n1, n2 = args.n1, args.n2
    per["commit"] = (naive_run(args, work, n2, f"{round_}-n2") - naive_run(args, work, n1, f"{round_}-n1")) / (n2 - n1)
    print(f"  round {round_ + 1}: naive   commit       {per['commit']:>12,.0f} Ir/commit", file=sys.stderr, flush=True)
    per["_get_bytes"] = len(session_bytes)
    if args.depth:
        measure_depth(args, work, round_, per)
    return per


def compile_floors(args, work):
    def pkg(name):
        try:
            return subprocess.run(["pkg-config", "--cflags", "--libs", name], capture_output=True, text=True,
                                  check=True).stdout.split()
        except (OSError, subprocess.CalledProcessError):
            fail(f"pkg-config knows no {name}: run scripts/install-prereqs.sh")
    args.raw_mhd, args.naive = os.path.join(work, "raw_mhd"), os.path.join(work, "naive_sqlite")
    for src, exe, lib in (("raw_mhd.c", args.raw_mhd, "libmicrohttpd"), ("naive_sqlite.c", args.naive, "sqlite3")):
        subprocess.run(["cc", "-O2", "-o", exe, os.path.join(REPO, "scripts", "bench", src), *pkg(lib)], check=True)


def tool_version(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def cpu_model():
    # glibc picks its string and memory routines by the CPU's features, and valgrind passes many
    # of them through: counts of the same build can differ between CPU models.
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def measure(args):
    for tool in ("valgrind", "cc", "pkg-config"):
        if shutil.which(tool) is None:
            fail(f"{tool} is missing: run scripts/install-bench-prereqs.sh")
    if not os.access(args.navsim, os.X_OK):
        fail(f"{args.navsim} is not there: run `swift build -c release` first")
    if args.n2 <= args.n1 or args.n1 < 1:
        fail("need 1 <= N1 < N2")
    if args.depth and args.depth <= DEPTH_SHALLOW:
        fail(f"--depth must be above {DEPTH_SHALLOW}")
    work = tempfile.mkdtemp(prefix="navsim-instructions-")
    try:
        compile_floors(args, work)
        started = time.time()
        rounds = [measure_once(args, work, r) for r in range(args.repeat)]
        seconds = time.time() - started
    finally:
        for proc in RUNNING:
            proc.kill()
        if args.keep:
            print(f"instructions: kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    figures = {}
    keys = [] if args.depth_only else NAVSIM_OPS + ["echo", "raw get", "commit"]
    for key in keys + depth_keys(args.depth):
        values = [r[key] for r in rounds]
        figures[key] = {"median": sorted(values)[len(values) // 2], "min": min(values), "max": max(values)}
    return {"n1": args.n1, "n2": args.n2, "read_factor": args.read_factor, "rounds": args.repeat, "seconds": round(seconds, 1),
            "get_bytes": rounds[0].get("_get_bytes", 0), "figures": figures, "depth": args.depth,
            "valgrind": tool_version(["valgrind", "--version"]),
            "swift": tool_version(["swift", "--version"]), "cpu": cpu_model(),
            "glibc_routines": "this CPU's" if args.native_cpu else "baseline (GLIBC_TUNABLES)",
            "machine": platform.machine()}


def floor_of(op, figures):
    if op == "get":
        return figures["raw get"]["median"]
    return figures["echo"]["median"] + figures["commit"]["median"]


def spread(f):
    lo, hi, mid = f["min"], f["max"], f["median"]
    return (hi - lo) / mid * 100 if mid else 0.0


def print_table(m):
    f = m["figures"]
    routines = m.get("glibc_routines", "baseline (GLIBC_TUNABLES)")
    print(f"marginal instructions per request: N1={m['n1']} N2={m['n2']} (reads x{m['read_factor']}), {m['rounds']} round(s), "
          f"{m['seconds']} s; {m['valgrind']}, {m['machine']}, glibc routines: {routines}")
    if all(op in f for op in NAVSIM_OPS):
        print_operations(m)
    deep = m.get("depth", 0)
    if deep:
        shallow, far = f[f"depth {DEPTH_SHALLOW}"], f[f"depth {deep}"]
        print(f"push+pop pairs on one navigation controller (iOS {DEPTH_IOS}, automatic release, full replies), not gated:")
        print(f"  {f'depth {DEPTH_SHALLOW}':<42} {shallow['median']:>14,.0f} {'':>13} {'':>7}  {spread(shallow):>6.2f}%")
        print(f"  {f'depth {deep}':<42} {far['median']:>14,.0f} {'':>13} {far['median'] / shallow['median']:>6.2f}x  "
              f"{spread(far):>6.2f}%")
        print(f"  (Ir per pair; ratio: depth {deep} / depth {DEPTH_SHALLOW})")


def print_operations(m):
    f = m["figures"]
    print(f"{'operation':<44} {'navsim Ir/req':>14} {'floor Ir/req':>13} {'ratio':>7}  {'spread':>7}")
    labels = {"push": "push, 10-controller session, durable",
              "pop": "pop, 10-controller session, durable",
              "patch": "PATCH of a title, durable",
              "performSegue": "performSegue on a storyboard scene, durable",
              "get": f"GET session ({m['get_bytes']} B)"}
    for op in NAVSIM_OPS:
        ours, floor = f[op]["median"], floor_of(op, f)
        print(f"{labels[op]:<44} {ours:>14,.0f} {floor:>13,.0f} {ours / floor:>6.2f}x  {spread(f[op]):>6.2f}%")
    print("floors:")
    for key, label in (("echo", "raw libmicrohttpd POST /echo, push body"),
                       ("raw get", f"raw libmicrohttpd GET, same {m['get_bytes']} B"),
                       ("commit", f"naive SQLite INSERT {ROW_BYTES} B + commit")):
        print(f"  {label:<42} {f[key]['median']:>14,.0f} {'':>13} {'':>7}  {spread(f[key]):>6.2f}%")
    print("(a write's floor is echo + commit, the GET's raw GET; spread: (max - min) / median over the rounds)")


def check(m, expected_path, tolerance):
    try:
        with open(expected_path) as fh:
            expected = json.load(fh)
    except (OSError, ValueError) as e:
        print(f"instructions: cannot read the expected file {expected_path}: {e}", file=sys.stderr)
        return 1
    want = expected.get("navsim", {})
    status = 0
    if m.get("glibc_routines", "").startswith("this CPU"):
        print("instructions: --native-cpu figures cannot be checked: the expected file holds baseline ones", file=sys.stderr)
        return 2
    for key in ("valgrind", "swift", "cpu"):
        if key in expected and key in m and expected[key] != m[key]:
            print(f"note: {key} differs from the expected file's ({m[key]!r}, file: {expected[key]!r}); "
                  "counts can move with it")
    print(f"gate against {os.path.relpath(expected_path)} (fails above +{tolerance * 100:.0f} %):")
    print(f"{'operation':<14} {'expected Ir':>12} {'now Ir':>12} {'change':>8}")
    for op in NAVSIM_OPS:
        now = m["figures"][op]["median"]
        if not isinstance(want.get(op), (int, float)) or want[op] <= 0:
            print(f"{op:<14} {'(none)':>12} {now:>12,.0f}   FAIL: the expected file has no figure for it; run --update")
            status = 1
            continue
        change = now / want[op] - 1
        verdict = ""
        if change > tolerance:
            verdict = "  FAIL: more than the tolerance"
            status = 1
        elif change < -tolerance:
            verdict = "  (lower: run --update and commit the file to keep the gain)"
        print(f"{op:<14} {want[op]:>12,.0f} {now:>12,.0f} {change * 100:>+7.1f}%{verdict}")
    for op in sorted(set(want) - set(NAVSIM_OPS)):
        print(f"{op:<14} in the expected file but not measured: run --update")
        status = 1
    if status:
        print(f"instructions: REGRESSION: an operation costs more than {tolerance * 100:.0f} % above "
              f"{os.path.relpath(expected_path)}. If that is deliberate, run "
              "`python3 scripts/bench/instructions.py --update` and commit the file with the change.", file=sys.stderr)
    else:
        print("instructions: gate ok")
    return status


def update(m, expected_path):
    if m.get("glibc_routines", "").startswith("this CPU"):
        fail("--native-cpu figures are not written to the expected file: it holds baseline ones")
    doc = {
        "about": "Expected marginal instructions per request of navsim (release build), counted by "
                 "scripts/bench/instructions.py; its --check fails when one grows by more than 10 %. "
                 "To regenerate after a deliberate change: swift build -c release && "
                 "python3 scripts/bench/instructions.py --update, then commit this file with the change. "
                 "floors and the tool fields are told, not gated.",
        "n1": m["n1"], "n2": m["n2"], "read_factor": m["read_factor"], "rounds": m["rounds"],
        "valgrind": m["valgrind"], "swift": m.get("swift", "unknown"), "cpu": m.get("cpu", "unknown"),
        "machine": m["machine"],
        "navsim": {op: round(m["figures"][op]["median"]) for op in NAVSIM_OPS},
        "floors": {k: round(m["figures"][k]["median"]) for k in ("echo", "raw get", "commit")},
    }
    with open(expected_path, "w") as fh:
        json.dump(doc, fh, indent=2)
        fh.write("\n")
    print(f"instructions: wrote {os.path.relpath(expected_path)}")


def self_test(measured_path):
    """The gate, run as CI runs it, against expected files made from a measurement: it must pass
    at the measured figures and at 5 % below them, and fail when they are 15 % below (the figures
    then read as a regression of 1/0.85 - 1, about 18 %, beyond the 10 % tolerance) or when one
    operation is missing."""
    with open(measured_path) as fh:
        m = json.load(fh)
    work = tempfile.mkdtemp(prefix="navsim-instructions-selftest-")
    failures = []
    try:
        cases = [("at the measured figures", 1.0, None, 0),
                 ("expected 5 % below now", 0.95, None, 0),
                 ("expected 15 % below now (a regression past 10 %)", 0.85, None, 1),
                 ("one operation 15 % below, the others exact", 1.0, "patch", 1),
                 ("an operation missing from the file", 1.0, "missing", 1)]
        for label, scale, which, want in cases:
            navsim = {op: round(m["figures"][op]["median"] * scale) for op in NAVSIM_OPS}
            if which == "missing":
                del navsim["get"]
            elif which:
                navsim[which] = round(navsim[which] * 0.85)
            expected = os.path.join(work, "expected.json")
            with open(expected, "w") as fh:
                json.dump({"navsim": navsim}, fh)
            r = subprocess.run([sys.executable, os.path.abspath(__file__), "--check", "--from", measured_path,
                                "--expected", expected], capture_output=True, text=True)
            said = "FAIL" in r.stdout and "REGRESSION" in r.stderr
            ok = r.returncode == want and (said if want else not said)
            print(f"self-test: {label}: exit {r.returncode} (want {want}) {'ok' if ok else 'WRONG'}")
            if not ok:
                failures.append(label)
                print(r.stdout + r.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"instructions: self-test failed: {', '.join(failures)}", file=sys.stderr)
        return 1
    print("instructions: self-test ok (the gate fails on a regression past 10 % and passes below it)")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    # $NAVSIM_BIN: scripts/gates/check-gates.sh points it at a server that refuses every write.
    ap.add_argument("--navsim", default=os.environ.get("NAVSIM_BIN", os.path.join(REPO, ".build", "release", "navsim")),
                    help="the binary (default $NAVSIM_BIN, else .build/release/navsim)")
    ap.add_argument("--n1", type=int, default=10, help="requests of each write in the base run (default 10)")
    ap.add_argument("--n2", type=int, default=50, help="requests of the measured write in the others (default 50)")
    ap.add_argument("--read-factor", type=int, default=20,
                    help="reads (GET, echo, raw GET) run this many times N1 and N2 (default 20)")
    ap.add_argument("--repeat", type=int, default=1, help="rounds; the figure is their median, the spread is shown")
    ap.add_argument("--check", action="store_true", help="fail (exit 1) when an operation grows past the tolerance")
    ap.add_argument("--update", action="store_true", help="rewrite the expected file with this run's figures")
    ap.add_argument("--expected", default=EXPECTED, help="the expected file (default scripts/bench/instructions.expected.json)")
    ap.add_argument("--tolerance", type=float, default=0.10, help="growth allowed by --check (default 0.10)")
    ap.add_argument("--save", metavar="FILE", help="write this run's figures as JSON")
    ap.add_argument("--from", dest="from_", metavar="FILE", help="use figures saved with --save instead of measuring")
    ap.add_argument("--self-test", nargs="?", const="", metavar="FILE",
                    help="check that the gate fails on a regression, against figures saved with --save "
                         "(measures first when no FILE is given)")
    ap.add_argument("--raw-port", type=int, default=0, help="loopback port for raw_mhd (default: a free one)")
    ap.add_argument("--native-cpu", action="store_true",
                    help="let glibc pick its routines for this CPU (counts then differ between CPUs; not for --check)")
    ap.add_argument("--keep", action="store_true", help="keep the callgrind output files")
    ap.add_argument("--depth", type=int, default=0, metavar="N",
                    help=f"also count a push+pop pair on a navigation controller N deep and {DEPTH_SHALLOW} deep, "
                         "and print their ratio (not gated; 0, the default: not measured)")
    ap.add_argument("--depth-only", action="store_true",
                    help="measure only those pairs (--depth, 500 unless given); not with --check or --update")
    args = ap.parse_args()

    if args.self_test:
        sys.exit(self_test(args.self_test))
    if args.depth_only:
        if args.check or args.update or args.self_test is not None:
            fail("--depth-only measures no gated operation: not with --check, --update or --self-test")
        args.depth = args.depth or 500
    if args.from_:
        with open(args.from_) as fh:
            m = json.load(fh)
    else:
        m = measure(args)
    if args.save:
        os.makedirs(os.path.dirname(os.path.abspath(args.save)), exist_ok=True)
        with open(args.save, "w") as fh:
            json.dump(m, fh, indent=2)
    print_table(m)
    status = 0
    if args.self_test == "":
        saved = args.save or os.path.join(tempfile.mkdtemp(prefix="navsim-instructions-"), "measured.json")
        if not args.save:
            with open(saved, "w") as fh:
                json.dump(m, fh)
        status |= self_test(saved)
    if args.update:
        update(m, args.expected)
    if args.check:
        status |= check(m, args.expected, args.tolerance)
    sys.exit(status)


if __name__ == "__main__":
    main()
