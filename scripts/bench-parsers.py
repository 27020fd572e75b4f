#!/usr/bin/env python3
"""Worst-case requests against the release binary: server CPU per request, read from
/proc/<pid>/stat (utime + stime) around a batch of identical requests, so the 10 ms clock tick
is divided by the batch size. The bound: no request of 1 MiB takes more than 50 ms of CPU.

Usage: scripts/bench-parsers.py [--binary .build/release/navsim] [--repeat 10] [--no-reference]
                                [--max-ms 50]
Starts the binary on 127.0.0.1 with a fresh database in a temporary folder, runs every case,
prints one line per case (bytes, status, CPU ms per request, wall ms per request) and exits 1
when a case exceeds --max-ms. Unless --no-reference, the 1 MiB object is also parsed by
Foundation's JSONSerialization (a small Swift script run with `swift`) for the ratio.
Needs nothing from ../shared.
"""
import argparse, http.client, json, os, re, shutil, subprocess, sys, tempfile, threading, time

TICK = os.sysconf("SC_CLK_TCK")
MIB = 1 << 20


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK  # utime, stime (fields 14 and 15)


class Server:
    def __init__(self, binary, env_extra):
        self.dir = tempfile.mkdtemp(prefix="bench-parsers-")
        env = dict(os.environ, NAVSIM_DB=os.path.join(self.dir, "navsim.sqlite"), NAVSIM_PORT="0",
                   NAVSIM_HOST="127.0.0.1", **env_extra)
        self.proc = subprocess.Popen([binary, "serve"], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.time() + 30
        self.port = None
        while time.time() < deadline and self.port is None:
            line = self.proc.stdout.readline()
            if not line:
                break
            m = re.search(r'http://127\.0\.0\.1:(\d+)', line)
            if m:
                self.port = int(m.group(1))
        if self.port is None:
            self.stop()
            sys.exit("the server did not say where it listens")
        # Keep reading the request log, or the server blocks once the pipe is full.
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()

    def request(self, method, path, body=None, content_type="application/json"):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        headers = {"Content-Type": content_type} if body is not None else {}
        try:
            conn.request(method, path, body=body, headers=headers)
        except (BrokenPipeError, ConnectionResetError):
            pass  # refused before the body was read (413); the status may still be readable
        try:
            resp = conn.getresponse()
        except (http.client.HTTPException, OSError):
            conn.close()
            return 0, b""
        data = resp.read()
        conn.close()
        return resp.status, data

    def stop(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)


def base36(n):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def object_with_members(target):
    parts, size, i = [], 2, 0
    while True:
        member = f'"{base36(i)}":{i % 10}'
        if size + len(member) + 1 > target:
            break
        parts.append(member)
        size += len(member) + 1
        i += 1
    return ("{" + ",".join(parts) + "}").encode(), i


def storyboard(scenes):
    """A storyboard shaped like Xcode's output: `scenes` view controllers, each with labels,
    constraints and a show segue to the next, all reachable from a navigation controller."""
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" '
           'version="3.0" toolsVersion="22505" targetRuntime="iOS.CocoaTouch" propertyAccessControl="none" '
           'useAutolayout="YES" initialViewController="nav">\n<scenes>\n'
           '<scene sceneID="nav-s"><objects><navigationController id="nav" sceneMemberID="viewController">'
           '<navigationBar key="navigationBar" contentMode="scaleToFill" id="nav-bar"/><connections>'
           '<segue destination="vc0" kind="relationship" relationship="rootViewController" id="nav-root"/>'
           '</connections></navigationController></objects></scene>\n']
    for i in range(scenes):
        labels = "".join(
            f'<label opaque="NO" userInteractionEnabled="NO" contentMode="left" text="Label {i}.{k}" '
            f'textAlignment="natural" lineBreakMode="tailTruncation" translatesAutoresizingMaskIntoConstraints="NO" '
            f'id="vc{i}-l{k}"><rect key="frame" x="16" y="{100 + 30 * k}" width="343" height="21"/>'
            f'<fontDescription key="fontDescription" type="system" pointSize="17"/><nil key="textColor"/></label>'
            for k in range(8))
        nxt = f'<connections><segue destination="vc{i + 1}" kind="show" identifier="next" id="vc{i}-next"/></connections>' if i + 1 < scenes else ""
        out.append(
            f'<scene sceneID="vc{i}-s"><objects><viewController storyboardIdentifier="Screen{i}" id="vc{i}" '
            f'customClass="Screen{i}ViewController" customModule="App" sceneMemberID="viewController">'
            f'<view key="view" contentMode="scaleToFill" id="vc{i}-v"><rect key="frame" x="0" y="0" width="375" height="667"/>'
            f'<autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>'
            f'<subviews>{labels}</subviews><color key="backgroundColor" systemColor="systemBackgroundColor"/></view>'
            f'<navigationItem key="navigationItem" title="Screen {i}" id="vc{i}-ni"/>{nxt}</viewController>'
            f'<placeholder placeholderIdentifier="IBFirstResponder" id="vc{i}-fr" sceneMemberID="firstResponder"/>'
            f'</objects><point key="canvasLocation" x="{i * 400}" y="0"/></scene>\n')
    out.append("</scenes>\n</document>\n")
    return "".join(out).encode()


def storyboard_of_size(target):
    per_scene = len(storyboard(2)) - len(storyboard(1))
    scenes = max(1, target // per_scene)
    xml = storyboard(scenes)
    while len(xml) > target and scenes > 1:  # ids grow longer with the scene number
        scenes -= max(1, (len(xml) - target) // per_scene)
        xml = storyboard(scenes)
    return xml


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--binary", default=os.path.join(here, "..", ".build", "release", "navsim"))
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--max-ms", type=float, default=50.0)
    ap.add_argument("--no-reference", action="store_true")
    ap.add_argument("--controllers", type=int, default=1000, help="controllersPerSession of the binary")
    ap.add_argument("--turn", type=int, default=100, help="operationsPerTurn of the binary")
    a = ap.parse_args()
    env = {"NAVSIM_MIGRATIONS": os.path.join(here, "..", "migrations")}
    server = Server(a.binary, env)
    over = []

    def case(name, method, path, body, content_type="application/json", repeat=None, setup=None, limit=True):
        n = repeat or a.repeat
        statuses = set()
        cpu = wall = 0.0
        for k in range(n):
            target = path(k) if callable(path) else path
            if setup:
                setup(k)
            c0, w0 = cpu_seconds(server.proc.pid), time.perf_counter()
            status, _ = server.request(method, target, body(k) if callable(body) else body, content_type)
            wall += time.perf_counter() - w0
            cpu += cpu_seconds(server.proc.pid) - c0
            statuses.add(status)
        size = len(body(0) if callable(body) else body or b"")
        cpu_ms, wall_ms = cpu / n * 1000, wall / n * 1000
        flag = ""
        if limit and size <= MIB and cpu_ms > a.max_ms:
            over.append(name)
            flag = "  OVER"
        print(f"{name:<58} {size / MIB:7.2f} MiB  {','.join(map(str, sorted(statuses))):>8}  "
              f"cpu {cpu_ms:8.2f} ms  wall {wall_ms:8.2f} ms{flag}", flush=True)
        return cpu_ms

    try:
        ok, _ = server.request("POST", "/v1/sessions", json.dumps({
            "id": "s", "options": {"transitions": "immediate"},
            "root": {"id": "nav", "kind": "navigationController", "viewControllers": [{"id": "home"}]}}).encode())
        assert ok == 201, ok

        wide_object, members = object_with_members(MIB - 64)
        ms = case(f"JSON object, {members} members (PATCH, refused 422)", "PATCH", "/v1/sessions/s", wide_object)
        if not a.no_reference and shutil.which("swift"):
            ref = reference_ms(wide_object)
            if ref:
                print(f"{'  JSONSerialization on the same bytes':<58} {'':>11}  {'':>8}  cpu {ref:8.2f} ms  "
                      f"(navsim request / JSONSerialization parse: {ms / ref:.2f})")
        duplicate = wide_object[:-9] + b',"7":0}'
        case("JSON object with a duplicate at the end (400)", "PATCH", "/v1/sessions/s", duplicate)
        deep = b"[" + b",".join([b"[" * 62 + b"]" * 62] * (MIB // 126 - 1)) + b"]"
        case("JSON arrays 63 deep, side by side (422 jsonContainers)", "POST", "/v1/sessions/s/turns", b'{"operations":' + deep + b"}")
        numbers = b'{"operations":[' + b",".join([b"1.5e308"] * (MIB // 8 - 4)) + b"]}"
        case("JSON array of 131k floats", "POST", "/v1/sessions/s/turns", numbers)
        zeros = b'{"operations":[' + b",".join([b"0"] * (MIB // 2 - 16)) + b"]}"
        case("JSON array of 524k zeros", "POST", "/v1/sessions/s/turns", zeros)
        trues = b'{"operations":[' + b",".join([b"true"] * (MIB // 5 - 8)) + b"]}"
        case("JSON array of 210k true", "POST", "/v1/sessions/s/turns", trues)
        small = b'{"operations":[' + b",".join([b"[0]"] * (MIB // 4 - 8)) + b"]}"
        under = b'{"operations":[' + b",".join([b"[0]"] * 99_990) + b"]}"
        case("JSON array of 99,990 one-element arrays (422 operationsPerTurn)", "POST", "/v1/sessions/s/turns", under)
        case("JSON array of 262k one-element arrays (422 jsonContainers)", "POST", "/v1/sessions/s/turns", small)
        escapes = b'{"traits":"' + b"\\u00e9" * (MIB // 6 - 4) + b'"}'
        case("JSON string of 174k \\u escapes", "PATCH", "/v1/sessions/s", escapes)
        pairs = b'{"traits":"' + b"\\ud83d\\ude00" * (MIB // 12 - 2) + b'"}'
        case("JSON string of 87k surrogate pairs", "PATCH", "/v1/sessions/s", pairs)
        plain = b'{"traits":"' + b"x" * (MIB - 16) + b'"}'
        case("JSON string of 1 MiB plain bytes", "PATCH", "/v1/sessions/s", plain)
        children = json.dumps({"id": "w", "children": [{}] * 50_000}, separators=(",", ":")).encode()
        case("ControllerSpec with 50,000 {} children (422 specWidth)", "POST", "/v1/sessions/s/controllers", children)
        nested = b'{"id":"n0","children":[' * 31 + b"{}" + b"]}" * 31
        case("ControllerSpecs nested 32 deep", "POST", "/v1/sessions/s/controllers", lambda k: nested.replace(b'"n0"', f'"n{k}"'.encode(), 1))
        ops = json.dumps({"operations": [{"controller": "nav", "operation": "push", "viewController": {}} for _ in range(1000)]}).encode()
        case("turn of 1,000 pushes (422 operationsPerTurn)", "POST", "/v1/sessions/s/turns", ops)
        ops = json.dumps({"operations": [{"controller": "nav", "operation": "push", "viewController": {}} for _ in range(a.turn)]}).encode()
        case(f"turn of {a.turn} pushes (422 navigationStackDepth)", "POST", "/v1/sessions/s/turns", ops)
        ops = json.dumps({"operations": [{"controller": "nav", "operation": "push", "viewController": {}} if j % 2 == 0
                                         else {"controller": "nav", "operation": "pop"} for j in range(a.turn)]}).encode()
        case(f"turn of {a.turn} pushes and pops (200)", "POST", "/v1/sessions/s/turns", ops)

        # A session at the controller limit: every reply encodes it whole.
        ok, _ = server.request("POST", "/v1/sessions", json.dumps({"id": "big", "options": {"transitions": "immediate"},
            "root": {"id": "bnav", "kind": "navigationController", "viewControllers": [{"id": "bhome"}]}}).encode())
        made = 2
        batch = 0
        room = a.controllers - min(a.repeat, 20) - 1  # leave room for the pushes below
        while made < room:
            width = min(255, room - made - 1)
            spec = {"id": f"b{batch}", "children": [{"id": f"b{batch}-{j}"} for j in range(width)]}
            status, _ = server.request("POST", "/v1/sessions/big/controllers", json.dumps(spec).encode())
            assert status == 201, status
            made += width + 1
            batch += 1
        case(f"push on a session of {made} controllers", "POST", "/v1/sessions/big/controllers/bnav/push",
             lambda k: json.dumps({"viewController": {"id": f"p{k}"}}).encode(), repeat=min(a.repeat, 20))
        case(f"GET a session of {made + min(a.repeat, 20)} controllers", "GET", "/v1/sessions/big", None)

        attributes = " ".join(f'a{i}="1"' for i in range(80_000))
        xml = storyboard(1).replace(b'id="vc0" ', f'id="vc0" {attributes} '.encode())
        case("storyboard element with 80,000 attributes (422)", "PUT", "/v1/storyboards/Attrs", xml, "application/xml")
        trailing = storyboard(1) + b"<extra/>"
        case("storyboard with an element after </document> (422)", "PUT", "/v1/storyboards/Tail", trailing, "application/xml")
        for size, label in [(MIB - 4096, "1 MiB"), (2_500_000, "2.5 MB"), (16 * MIB - 4096, "16 MiB")]:
            xml = storyboard_of_size(size)
            case(f"storyboard of {label}, {xml.count(b'<scene ')} scenes", "PUT", lambda k, label=label: f"/v1/storyboards/Big{label.replace(' ', '').replace('.', '_')}-{k}",
                 xml, "application/xml", repeat=3 if size > MIB else None)
    finally:
        server.stop()
    if over:
        print(f"over {a.max_ms} ms of CPU: {', '.join(over)}")
        sys.exit(1)


def reference_ms(body):
    """Foundation's JSONSerialization on the same bytes, best of 5, in a `swift` script."""
    d = tempfile.mkdtemp(prefix="bench-ref-")
    try:
        path = os.path.join(d, "body.json")
        with open(path, "wb") as f:
            f.write(body)
        script = os.path.join(d, "ref.swift")
        with open(script, "w") as f:
            f.write(f"""import Foundation
let data = FileManager.default.contents(atPath: "{path}")!
var best = Double.infinity
for _ in 0..<5 {{
    let t0 = Date()
    _ = try! JSONSerialization.jsonObject(with: data)
    best = min(best, Date().timeIntervalSince(t0))
}}
print(best * 1000)
""")
        out = subprocess.run(["swift", script], capture_output=True, text=True, timeout=300)
        return float(out.stdout.strip().splitlines()[-1]) if out.returncode == 0 else None
    except (subprocess.SubprocessError, ValueError, IndexError):
        return None
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
