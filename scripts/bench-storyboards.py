#!/usr/bin/env python3
"""Benchmark: import a storyboard corpus into a running navsim over HTTP and print how long it
took (issue target: under 1 s in total). The corpus is the optional shared/storyboards beside the
checkout when it is there, else the repository's own Tests/Fixtures/Storyboards.

Usage: scripts/bench-storyboards.py [--base http://127.0.0.1:8080] [--rounds 3]
Each round uploads every .storyboard with PUT /v1/storyboards/{name} (Content-Type
application/xml) and prints total seconds, files/s and MB/s; names are unique per round.
"""
import argparse, os, sys, time, urllib.error, urllib.parse, urllib.request

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--base", default=os.environ.get("BASE", "http://127.0.0.1:8080"))
    ap.add_argument("--rounds", type=int, default=3)
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = os.path.join(os.path.dirname(repo), "shared", "storyboards")
    ap.add_argument("--corpus", default=shared if os.path.isdir(shared) else os.path.join(repo, "Tests", "Fixtures", "Storyboards"))
    a = ap.parse_args()
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(a.corpus) for f in fs if f.endswith(".storyboard"))
    # Names unique within a round: the path under the corpus, flattened.
    blobs = [(os.path.relpath(p, a.corpus).replace(os.sep, "__"), open(p, "rb").read()) for p in paths]
    total_bytes = sum(len(b) for _, b in blobs)
    print(f"corpus: {len(blobs)} files, {total_bytes / 1e6:.2f} MB")
    for r in range(a.rounds):
        started = time.perf_counter()
        for name, data in blobs:
            req = urllib.request.Request(f"{a.base}/v1/storyboards/" + urllib.parse.quote(f"bench{r}-{name[:-11]}"), data=data, method="PUT",
                                         headers={"Content-Type": "application/xml"})
            try:
                with urllib.request.urlopen(req, timeout=30) as resp:
                    if resp.status not in (200, 201):
                        sys.exit(f"{name}: HTTP {resp.status}")
            except urllib.error.HTTPError as e:
                # Fixtures that exist to be refused (a macOS document, broken XML) answer 4xx.
                if e.code >= 500:
                    sys.exit(f"{name}: HTTP {e.code}")
        took = time.perf_counter() - started
        print(f"round {r + 1}: {took:.3f} s total, {len(blobs) / took:.0f} files/s, {total_bytes / 1e6 / took:.1f} MB/s")

if __name__ == "__main__":
    main()
