"""Instruction counts of a durable write, repeatable on a noisy machine: navsim under
valgrind --tool=callgrind serving N sequential PATCHes of c0's title on an 11-controller
session (bench.py's write request), full replies or (`minimal`) Prefer: return=minimal.

  python3 scripts/bench/callgrind_patch.py .build/release/navsim /tmp/cg.out 1000 [minimal]
  callgrind_annotate --inclusive=yes /tmp/cg.out | swift demangle --simplified | grep EncodedSession.make

Inclusive counts divided by N are per request (startup is outside the request functions)."""
import http.client, json, os, re, shutil, signal, subprocess, sys, tempfile, threading
binary, out, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
minimal = len(sys.argv) > 4 and sys.argv[4] == "minimal"
folder = tempfile.mkdtemp(prefix="navsim-callgrind")
env = dict(os.environ, NAVSIM_DB=os.path.join(folder, "n.sqlite"), NAVSIM_PORT="0", NAVSIM_HOST="127.0.0.1", NAVSIM_MIGRATIONS=os.environ.get("NAVSIM_MIGRATIONS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "migrations")))
p = subprocess.Popen(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", "--dump-instr=no",
                      binary, "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
port = None
while port is None:
    line = p.stdout.readline()
    if not line: sys.exit("navsim did not say where it listens")
    m = re.search(r"http://127\.0\.0\.1:(\d+)", line)
    if m: port = int(m.group(1))
threading.Thread(target=lambda: [None for _ in p.stdout], daemon=True).start()
c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
def call(method, path, body, headers={}):
    c.request(method, path, body=json.dumps(body), headers={"Content-Type": "application/json", **headers})
    r = c.getresponse(); data = r.read()
    assert r.status < 300, (r.status, data)
    return data
vcs = [{"id": f"c{i}", "title": f"Screen {i}"} for i in range(10)]
call("POST", "/v1/sessions", {"id": "w00", "root": {"id": "nav", "kind": "navigationController", "viewControllers": vcs}})
h = {"Prefer": "return=minimal"} if minimal else {}
for i in range(n):
    call("PATCH", "/v1/sessions/w00/controllers/c0", {"title": f"t{i}"}, h)
p.send_signal(signal.SIGTERM)
p.wait(120)
shutil.rmtree(folder, ignore_errors=True)
print("done", out)
