#!/usr/bin/env python3
"""Write latency around history checkpoints at a large session.

Every 64th entry of a session's history keeps a checkpoint: the whole state, every controller
encoded. At 600 controllers that is ~14 ms of work. This measures what the writes of that
session see of it: WRITERS keep-alive clients PATCH titles of one session of CONTROLLERS
controllers (`Prefer: return=minimal`, so the client reads small replies), and the script
prints the latency percentiles of all writes, of the writes that produced a checkpoint version
(version % 64 == 0) and of the others.

    checkpoint_latency.py --navsim BIN [--navsim BIN2 ...] [--controllers 600] [--writes 1280] [--writers 4] [--rounds 3]

With several binaries the runs alternate (A B A B ...) and each line is one run; the last lines
are the medians per binary.
"""
import argparse, os, statistics, sys, tempfile, threading, time, shutil, json

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import Navsim, Client, make_nav_session  # noqa: E402


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(p / 100 * (len(xs) - 1))))] if xs else float("nan")


def run(binary, controllers, writes, writers):
    folder = tempfile.mkdtemp(prefix="navsim-ckpt-")
    server = Navsim(binary, folder)
    try:
        make_nav_session(Client(server.port), "big", controllers)
        samples = []  # (version, seconds)
        lock = threading.Lock()
        left = [writes]

        def writer(k):
            c = Client(server.port)
            i = 0
            while True:
                with lock:
                    if left[0] <= 0:
                        return
                    left[0] -= 1
                i += 1
                start = time.perf_counter()
                _, payload = c.ok("PATCH", f"/v1/sessions/big/controllers/c{k}", {"title": f"w{k}-{i}"},
                                  headers={"Prefer": "return=minimal"})
                took = time.perf_counter() - start
                version = json.loads(payload)["version"]
                with lock:
                    samples.append((version, took))

        threads = [threading.Thread(target=writer, args=(k,)) for k in range(writers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        server.stop()
        shutil.rmtree(folder, ignore_errors=True)
    every = [s for _, s in samples]
    at = [s for v, s in samples if v % 64 == 0]
    others = [s for v, s in samples if v % 64 != 0]
    return {"p50": pct(every, 50), "p99": pct(every, 99), "max": max(every),
            "checkpoint_p50": pct(at, 50), "checkpoint_max": max(at) if at else float("nan"),
            "others_p50": pct(others, 50), "others_p99": pct(others, 99)}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--navsim", action="append", required=True)
    p.add_argument("--controllers", type=int, default=600)
    p.add_argument("--writes", type=int, default=1280)
    p.add_argument("--writers", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    a = p.parse_args()
    keys = ["p50", "p99", "max", "checkpoint_p50", "checkpoint_max", "others_p50", "others_p99"]
    print(f"{'binary':<28} " + " ".join(f"{k:>15}" for k in keys) + "   (ms)")
    results = {b: [] for b in a.navsim}
    for _ in range(a.rounds):
        for b in a.navsim:
            r = run(b, a.controllers, a.writes, a.writers)
            results[b].append(r)
            print(f"{os.path.basename(b):<28} " + " ".join(f"{r[k] * 1e3:>15.2f}" for k in keys), flush=True)
    for b in a.navsim:
        med = {k: statistics.median(r[k] for r in results[b]) for k in keys}
        print(f"{'median ' + os.path.basename(b):<28} " + " ".join(f"{med[k] * 1e3:>15.2f}" for k in keys))


if __name__ == "__main__":
    main()
