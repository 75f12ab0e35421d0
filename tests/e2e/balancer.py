"""HAProxy in front of bot workers, for the tests: Debian's haproxy, run in the foreground.

The same balancing as compose.yaml's (round robin, health checks on each worker's
``GET /health``, a request whose connection failed tried on another worker), with the workers'
ports fixed instead of found by Docker's DNS. Without a haproxy binary the test is skipped
with the reason; ``REQUIRE_HAPROXY=1`` (CI, which installs it) makes that a failure.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from types import TracebackType

import pytest

CONFIG = """\
global
    maxconn 512
defaults
    mode http
    timeout connect 1s
    timeout client 30s
    timeout server 30s
    retries 3
    option redispatch
    retry-on conn-failure
frontend interactions
    bind 127.0.0.1:{front}
    default_backend workers
backend workers
    balance roundrobin
    option httpchk GET /health
    http-check expect status 200
    default-server inter 300ms fall 2 rise 1
    http-response set-header X-Served-By %s
{servers}
"""


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

    def __init__(self, folder: Path, front: int, ports: list[int]) -> None:
        servers = "\n".join(f"    server w{i} 127.0.0.1:{p} check" for i, p in enumerate(ports))
        self.config = folder / "haproxy.cfg"
        self.config.write_text(CONFIG.format(front=front, servers=servers))
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
