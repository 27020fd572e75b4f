"""Shared by scripts/hostile.py and scripts/kill-loop.py: start and stop the release binary on
127.0.0.1, talk to it over HTTP/1.1, and read a process's CPU time and peak memory from /proc.

Python 3 standard library only. Every wait is bounded; nothing here listens on anything but the
loopback address.
"""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
# $NAVSIM_BIN stands in for the release binary: scripts/gates/check-gates.sh points it at a server
# that refuses every write, which every gate must fail against.
BINARY = Path(os.environ.get("NAVSIM_BIN", REPO / ".build" / "release" / "navsim"))
MIGRATIONS = REPO / "migrations"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """CPU time of a process and all its threads, in seconds: the process's CPU-time clock
    (clock_getcpuclockid's id, `MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_SCHED)`), precise to the
    nanosecond; /proc/<pid>/stat's user + system ticks (10 ms) where that clock cannot be read."""
    try:
        return time.clock_gettime(((~pid) << 3) | 2)
    except OSError:
        pass
    stat = Path(f"/proc/{pid}/stat").read_text()
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime (fields 14, 15)


def peak_rss_mb(pid: int) -> float:
    """The process's resident-set high-water mark (VmHWM), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float

    @property
    def json(self):
        try:
            return json.loads(self.body)
        except ValueError:
            return None

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    def __str__(self) -> str:
        text = self.body[:160].decode("utf-8", "replace").replace("\n", " ")
        return f"{self.status} {text}"


@dataclass
class Server:
    """One navsim process on 127.0.0.1:<free port> with its own database.

    `start()` waits (bounded) for /healthz; `kill()` is SIGKILL, `stop()` SIGTERM. Replies seen
    through `request` are kept in `seen` so a caller can look for 5xx or leaked text afterwards.
    """

    db: Path
    args: list[str] = field(default_factory=list)
    binary: Path = BINARY          # another copy, for a user who cannot reach the checkout
    migrations: Path = MIGRATIONS
    preexec: object = None
    log: Path | None = None
    port: int = 0
    proc: subprocess.Popen | None = None
    seen: list[tuple[str, str, Reply]] = field(default_factory=list)

    def start(self, timeout: float = 15.0, expect_up: bool = True) -> bool:
        # Port 0, read back from the `listening` log line: a port probed free and bound later
        # could be taken by another process in between, and /healthz would then reach that one.
        env = dict(os.environ, NAVSIM_MIGRATIONS=str(self.migrations))
        env.pop("NAVSIM_TOKEN", None)
        if self.log is None:
            self.log = Path(tempfile.mkstemp(prefix="navsim-", suffix=".log")[1])
        offset = self.log.stat().st_size if self.log.exists() else 0
        out = open(self.log, "ab")
        self.proc = subprocess.Popen(
            [str(self.binary), "--host", "127.0.0.1", "--port", "0", "--db", str(self.db), *self.args],
            stdout=out, stderr=out, stdin=subprocess.DEVNULL, env=env, preexec_fn=self.preexec)
        out.close()
        self.port = 0
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            if not self.port:
                self.port = self.listening_port(offset)
            if self.port:
                try:
                    r = self.request("GET", "/healthz", timeout=1.0, record=False)
                    if r.status == 200:
                        return True
                except OSError:
                    pass
            time.sleep(0.05)
        if not expect_up:
            return False
        if self.proc.poll() is None:
            raise RuntimeError(f"navsim did not answer /healthz within {timeout}s (log {self.log})")
        raise RuntimeError(f"navsim exited with {self.proc.returncode}: {self.log_text()[-400:]}")

    def listening_port(self, offset: int) -> int:
        """The port of this start's `listening` line (the log from `offset` on); 0 before it."""
        with open(self.log, "rb") as f:
            f.seek(offset)
            text = f.read().decode(errors="replace")
        for line in text.splitlines():
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("message") == "listening":
                return int(str(event.get("url", "")).rsplit(":", 1)[-1] or 0)
        return 0

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log and self.log.exists() else ""

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc:
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def request(self, method: str, path: str, body: bytes | str | dict | list | None = None,
                headers: dict[str, str] | None = None, timeout: float = 10.0, record: bool = True,
                content_type: str | None = "application/json") -> Reply:
        """One request on a fresh connection. A dict or list body is sent as JSON."""
        hdrs = dict(headers or {})
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        if body is not None and content_type and "Content-Type" not in hdrs:
            hdrs["Content-Type"] = content_type
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        started = time.monotonic()
        try:
            conn.request(method, path, body=body, headers=hdrs)
            resp = conn.getresponse()
            data = resp.read()
            reply = Reply(resp.status, {k.lower(): v for k, v in resp.getheaders()}, data,
                          time.monotonic() - started)
        finally:
            conn.close()
        if record:
            self.seen.append((method, path, reply))
        return reply
