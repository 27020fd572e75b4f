#!/usr/bin/env python3
"""Two builds' durable write rates, measured in many short interleaved pairs, with the median of
the pairs' ratios: the way to tell builds apart on a shared machine, where one `bench.py` run of
each moves more than the difference.

    python3 scripts/bench/write_pairs.py [--pairs 16] [--seconds 3] \
        BASE=BINARY[:MIGRATIONS] NEW=BINARY[:MIGRATIONS]

Both servers run side by side, each holding 64 ten-controller sessions (bench.py's write set-up),
on loopback ports the system picks. Each pair measures both builds, one after the other, the first
alternating from pair to pair: 64 connections PATCHing their own sessions (`own`: writes per
second and the server's CPU microseconds per write), then 64 connections PATCHing one session
(`one`: writes per second), with bench.py's `patch.lua` through wrk. Printed: each pair's figures,
then per figure the median over the pairs of the second build's figure divided by the first's
(NEW / BASE), beside each build's own median. The two can point different ways: the median of
the ratios compares each pair measured together, the medians compare the builds' whole runs.
`MIGRATIONS` is the binary's own migrations folder (default: this checkout's `migrations/`), so a
build of another commit can be compared.

Needs wrk (scripts/install-bench-prereqs.sh) and release builds. Loopback only.
"""
import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402  (the server, client and wrk helpers)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pairs", type=int, default=16, help="pairs of runs (default 16)")
    ap.add_argument("--seconds", type=int, default=3, help="seconds of each wrk run (default 3)")
    ap.add_argument("builds", nargs=2, metavar="NAME=BINARY[:MIGRATIONS]")
    a = ap.parse_args()
    names, servers = [], {}
    try:
        for spec in a.builds:
            name, binary, migrations = bench.build_spec(spec)
            os.environ["NAVSIM_MIGRATIONS"] = migrations
            server = bench.Navsim(binary, tempfile.mkdtemp(prefix=f"navsim-pairs-{name}-"))
            servers[name] = server
            names.append(name)
            client = bench.Client(server.port)
            for i in range(64):
                bench.make_nav_session(client, f"w{i:02d}", 10)
        own = ",".join(f"w{i:02d}" for i in range(64))
        figures = {"own sessions, writes/s": (own, 0), "CPU per write, own sessions, us": (own, 1),
                   "one session, writes/s": ("w63", 0)}
        results = {name: [] for name in names}
        for pair in range(a.pairs):
            for name in (names if pair % 2 == 0 else names[::-1]):
                server = servers[name]
                mine = bench.wrk(server.proc.pid, server.port, "/", a.seconds, 64, "patch.lua", {"BENCH_SESSIONS": own})
                one = bench.wrk(server.proc.pid, server.port, "/", a.seconds, 64, "patch.lua", {"BENCH_SESSIONS": "w63"})
                results[name].append({own: mine, "w63": one})
                print(f"pair {pair + 1:>2} {name:<10} own {mine[0]:>8.0f}/s {mine[1]:>6.1f} us   one {one[0]:>8.0f}/s",
                      flush=True)
        base, new = names
        print(f"\n{'figure':<34} {'median ' + new + '/' + base:>18} {base + ' median':>16} {new + ' median':>16}")
        for label, (sessions, i) in figures.items():
            b = [r[sessions][i] for r in results[base]]
            n = [r[sessions][i] for r in results[new]]
            ratio = statistics.median(x / y for x, y in zip(n, b))
            print(f"{label:<34} {ratio:>18.3f} {statistics.median(b):>16.1f} {statistics.median(n):>16.1f}")
    finally:
        for server in servers.values():
            server.stop()


if __name__ == "__main__":
    main()
