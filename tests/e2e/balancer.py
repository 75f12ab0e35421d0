"""HAProxy in front of bot workers, for the tests: Debian's haproxy, run in the foreground.

The configuration is the shipped one (deploy/haproxy.cfg, as compose.yaml runs it) with the
workers' ports fixed instead of found by Docker's DNS, the front on 127.0.0.1, a header
``X-Served-By`` naming the worker that answered, a stats socket (:meth:`Balancer.up`), and by
default two changes: round robin instead of the hash by game or instance (one game's clicks on
different workers in turn is the harder case for exactly-once) and health checks every 300 ms.
``shipped=True`` keeps the shipped balancing and checks. Without a haproxy binary the test is
skipped with the reason; ``REQUIRE_HAPROXY=1`` (CI, which installs it) makes that a failure.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import pytest

SHIPPED = Path(__file__).resolve().parents[2] / "deploy" / "haproxy.cfg"


def _replace(text: str, old: str, new: str) -> str:
    assert text.count(old) == 1, f"deploy/haproxy.cfg no longer has {old!r} once"
    return text.replace(old, new)


def config(
    front: int, ports: list[int], *, shipped: bool = False, stats: Path | None = None
) -> str:
    """deploy/haproxy.cfg for workers on ``ports`` of 127.0.0.1, its front on ``front``;
    with ``stats``, a stats socket there (the tests ask it which workers are up)."""
    lines = [line for line in SHIPPED.read_text().splitlines() if not line.startswith("#")]
    text = "\n".join(lines) + "\n"
    if stats is not None:
        text = _replace(text, "global\n", f"global\n    stats socket {stats} level user\n")
    resolvers = text.index("resolvers docker")
    text = text[:resolvers] + text[text.index("frontend", resolvers) :]
    text = _replace(text, "    bind :8080\n", f"    bind 127.0.0.1:{front}\n")
    text = _replace(text, " resolvers docker init-addr none", "")
    servers = "".join(f"    server w{i} 127.0.0.1:{p} check\n" for i, p in enumerate(ports))
    text = _replace(
        text,
        "    server-template worker 16 worker:8080 check\n",
        "    http-response set-header X-Served-By %s\n" + servers,
    )
    if not shipped:
        text = _replace(text, "    balance hash var(txn.key)\n", "    balance roundrobin\n")
        text = _replace(text, "inter 2s fall 2", "inter 300ms fall 2")
    return text


def haproxy() -> str:
    """The haproxy binary; skips (or fails, with REQUIRE_HAPROXY=1) where there is none."""
    found = shutil.which("haproxy") or next(
        (p for p in ("/usr/sbin/haproxy",) if Path(p).exists()), None
    )
    if found is None:
        why = "no haproxy on this machine (Debian: apt-get install haproxy)"
        if os.environ.get("REQUIRE_HAPROXY") == "1":
            pytest.fail(f"this test needs HAProxy (REQUIRE_HAPROXY=1): {why}")
        pytest.skip(f"the balancer test is skipped: {why}")
    return found


class Balancer:
    """``haproxy`` on ``front`` over the workers' ``ports``; a context manager."""

    def __init__(
        self, folder: Path, front: int, ports: list[int], *, shipped: bool = False
    ) -> None:
        self.config = folder / "haproxy.cfg"
        self.stats = folder / "haproxy.sock"
        self.config.write_text(config(front, ports, shipped=shipped, stats=self.stats))
        self.workers = len(ports)
        self.log = folder / "haproxy.log"
        self.binary = haproxy()
        self.popen: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Balancer:
        check = subprocess.run(
            [self.binary, "-c", "-f", str(self.config)], capture_output=True, check=False
        )
        assert check.returncode == 0, check.stderr.decode(errors="replace")
        with self.log.open("wb") as log:
            self.popen = subprocess.Popen(
                [self.binary, "-db", "-f", str(self.config)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.terminate()
            self.popen.wait(timeout=10)

    def up(self) -> set[str]:
        """The workers the balancer holds to be up now (its stats socket's server states)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(5)
            try:
                conn.connect(str(self.stats))
            except (FileNotFoundError, ConnectionRefusedError):
                return set()  # haproxy is still starting
            conn.sendall(b"show servers state workers\n")
            answer = b""
            while chunk := conn.recv(65536):
                answer += chunk
        # "<be_id> <be_name> <srv_id> <srv_name> <srv_addr> <srv_op_state> ...": 2 is running
        rows = [line.split() for line in answer.decode().splitlines()[1:]]
        return {
            row[3] for row in rows if len(row) > 5 and not row[0].startswith("#") and row[5] == "2"
        }

    async def all_up(self, timeout: float = 15.0) -> None:
        """Waits until the balancer's health checks hold every worker up."""
        deadline = time.monotonic() + timeout
        while len(self.up()) < self.workers:
            assert time.monotonic() < deadline, f"workers up at the balancer: {self.up()}"
            await asyncio.sleep(0.1)
