#!/usr/bin/env python3
"""Instruction counts of the durable-write path, for before/after comparisons of CPU work on a
noisy machine (callgrind counts instructions, so one run of each binary is enough).

    callgrind_writes.py BIN OUT [N]

Starts `BIN serve` under `valgrind --tool=callgrind`, makes 8 sessions of 10 controllers (as
bench.py does), sends N (default 800) sequential PATCHes of c0's title (as patch.lua) and N/4
pushes, stops the server with SIGTERM so callgrind writes OUT, then prints the inclusive
instructions of the stored-row step (Persistence.commit) and of its main parts, per write.
Needs valgrind (apt-get install valgrind) and a release build with symbols (the default).
"""
import http.client, json, os, re, signal, subprocess, sys, tempfile, time

binary, out = os.path.abspath(sys.argv[1]), sys.argv[2]
n = int(sys.argv[3]) if len(sys.argv) > 3 else 800
folder = tempfile.mkdtemp(prefix="navsim-callgrind-")
log_path = os.path.join(folder, "server.log")
env = dict(os.environ, NAVSIM_DB=os.path.join(folder, "db.sqlite"), NAVSIM_PORT="0", NAVSIM_HOST="127.0.0.1")
with open(log_path, "w") as log:
    # The log goes to a file: a pipe nobody reads would block the server once it is full.
    proc = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "serve",
                             "--max-stack-depth", "1000"], env=env, stdout=log, stderr=subprocess.STDOUT)
port, deadline = None, time.time() + 300
while port is None and time.time() < deadline:
    time.sleep(0.5)
    m = re.search(r"http://127\.0\.0\.1:(\d+)", open(log_path).read())
    port = int(m.group(1)) if m else None
if port is None:
    proc.kill()
    sys.exit("callgrind_writes: the server did not start")
c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)


def call(method, path, body):
    c.request(method, path, body=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    r = c.getresponse()
    data = r.read()
    if r.status >= 300:
        sys.exit(f"callgrind_writes: {method} {path}: {r.status} {data[:200]!r}")


for s in range(8):
    call("POST", "/v1/sessions", {"id": f"w{s}", "root": {"id": "nav", "kind": "navigationController",
         "viewControllers": [{"id": f"c{i}", "title": f"Screen {i}"} for i in range(10)]}})
for i in range(n):
    call("PATCH", f"/v1/sessions/w{i % 8}/controllers/c0", {"title": f"t{i}"})
for i in range(n // 4):
    call("POST", f"/v1/sessions/w{i % 8}/controllers/nav/push", {"viewController": {"id": f"p{i}", "title": "P"}})
c.close()
proc.send_signal(signal.SIGTERM)
proc.wait(timeout=600)

writes = n + n // 4
report = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", "--auto=no", out],
                        capture_output=True, text=True, check=True).stdout
parts = [("stored-row step (Persistence.commit)", r"11PersistenceO6commity"),
         ("  command text", r"11PersistenceO11commandText_"),
         ("  controller rows, old path (StoredCodec.encode)", r"11StoredCodecO6encodeySays5UInt8VGxKSERzlFZAA0D10ControllerV_"),
         ("  controller rows, direct (StoredController.write)", r"16StoredControllerV5write2to"),
         ("whole process", r"PROGRAM TOTALS")]
for label, pattern in parts:
    # A function inlined in others is listed once per file its code came from: the largest
    # inclusive count is the function's own.
    counts = [int(line.split()[0].replace(",", "")) for line in report.splitlines() if re.search(pattern, line)]
    if counts:
        print(f"{label:<52} {max(counts):>14,} Ir  {max(counts) / writes:>10,.0f} Ir/write")
