#!/usr/bin/env python3
"""Marginal cost of one durable PATCH when several connections write at once, counted by
valgrind's callgrind (the same on any machine), for each binary given, side by side.

    python3 scripts/bench/concurrent_writes.py [--connections 8] [--n1 20] [--n2 60] \
        NAME=BINARY[:MIGRATIONS] ...

Each binary serves `--connections` sessions of 10 controllers (bench.py's write set-up), and one
client thread per session PATCHes its title `--n1` times, then, in a second run, `--n2` times;
the difference between the two runs over connections * (n2 - n1) is one more PATCH's cost.
Besides instructions it prints, per PATCH, the calls of `swift_retain` (each an atomic operation,
far dearer than its instructions when two cores share the object) and of the runtime's generic
metadata lookups (each takes the runtime's global metadata cache). `MIGRATIONS` is the binary's
own migrations folder (default: this checkout's), so a build of another commit can be compared.

Needs valgrind and callgrind_annotate (Debian's valgrind), and release builds. Loopback only.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile
import threading

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (build_spec)
import instructions as I  # noqa: E402  (the shared server, client and stop helpers)

COUNTED = {"swift_retain": r"swift_retain \[", "metadata lookups": r"swift_getCanonicalPrespecializedGenericMetadata \["}


def run(binary, migrations, connections, n, folder):
    os.makedirs(folder, exist_ok=True)
    out, log_path = os.path.join(folder, "callgrind.out"), os.path.join(folder, "server.log")
    env = dict(os.environ, **I.DETERMINISTIC_ENV, NAVSIM_DB=os.path.join(folder, "db.sqlite"), NAVSIM_PORT="0",
               NAVSIM_HOST="127.0.0.1", NAVSIM_MIGRATIONS=migrations)
    with open(log_path, "w") as log:
        p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no",
                              binary, "serve"], env=env, stdout=log, stderr=subprocess.STDOUT)
    I.RUNNING.append(p)
    port = I.wait_for_port(log_path, p, r'"url":"http://127\.0\.0\.1:(\d+)"', "navsim")
    c = I.Client(port)
    for i in range(connections):
        c.call("POST", "/v1/sessions", {"id": f"w{i:02d}", "root": I.nav_spec()})
    c.close()

    def writer(i):
        client = I.Client(port)
        for k in range(n):
            client.call("PATCH", f"/v1/sessions/w{i:02d}/controllers/c0", {"title": f"Title {'AB'[k % 2]}"})
        client.close()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    I.stop(p, "navsim")
    return out


def calls(out, pattern):
    """How many times the function matching `pattern` was called, from callgrind's caller tree."""
    text = subprocess.run(["callgrind_annotate", "--tree=caller", "--threshold=100", out],
                          capture_output=True, text=True, check=True).stdout.splitlines()
    total = 0
    for i, line in enumerate(text):
        if re.match(r"\s*[\d,]+ \([^)]*\)\s+\*", line) and re.search(pattern, line):
            j = i - 1
            while j >= 0 and re.match(r"\s*[\d,]+ \([^)]*\)\s+<", text[j]):
                m = re.search(r"\((\d[\d,]*)x\)", text[j])
                if m:
                    total += int(m.group(1).replace(",", ""))
                j -= 1
    return total


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--connections", type=int, default=8)
    ap.add_argument("--n1", type=int, default=20)
    ap.add_argument("--n2", type=int, default=60)
    ap.add_argument("binaries", nargs="+", metavar="NAME=BINARY[:MIGRATIONS]")
    a = ap.parse_args()
    work = tempfile.mkdtemp(prefix="navsim-concurrent-")
    per = a.connections * (a.n2 - a.n1)
    print(f"{'build':<12} {'Ir/PATCH':>12} " + " ".join(f"{k + '/PATCH':>24}" for k in COUNTED))
    for spec in a.binaries:
        name, binary, migrations = bench.build_spec(spec)
        runs = [run(binary, migrations, a.connections, n,
                    os.path.join(work, f"{name}-{n}")) for n in (a.n1, a.n2)]
        ir = (I.total_instructions(runs[1]) - I.total_instructions(runs[0])) / per
        counted = [(calls(runs[1], pat) - calls(runs[0], pat)) / per for pat in COUNTED.values()]
        print(f"{name:<12} {ir:>12,.0f} " + " ".join(f"{c:>24,.1f}" for c in counted), flush=True)


if __name__ == "__main__":
    main()
