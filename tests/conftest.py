"""Every test runs sealed off from the developer's set-up and from the network.

- The settings the bot reads are removed from the environment, so a DISCORD_TOKEN exported in
  the shell (or a DATABASE_PATH) never reaches a test or a bot process a test starts.
- ``CARDTABLE_ENV_FILE`` is set empty: no bot process started by a test reads a ``.env``,
  not even the one beside ``bot.py`` in this checkout (see settings.py).
- Proxy variables are removed and, inside the test processes, a socket may connect only to
  this machine (loopback or a Unix socket): a test that tries the internet fails at once.

This runs when pytest imports this file, before any test module, and xdist workers inherit it.
"""

from __future__ import annotations

import _socket
import ipaddress
import logging
import os
import socket
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from db.opening import open_store
from db.store import Store
from tests import scheduling
from tests.failed_jobs import MARKER, OUTBOX_LOG, FailedJobs, verdict

ENV_FILE_VARIABLE = "CARDTABLE_ENV_FILE"  # settings.ENV_FILE_VARIABLE; kept literal on purpose
BOT_SETTINGS = (
    "DISCORD_TOKEN",
    "DATABASE_PATH",
    "DEV_GUILD_ID",
    "TURN_TIMEOUT_SECONDS",
    "LOG_LEVEL",
    "HEARTBEAT_SECONDS",
    "ON_CANNOT_START",
    "DATABASE_PASSWORD",
)
PROXIES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "WS_PROXY", "WSS_PROXY")


def seal_environment(environ: dict[str, str] | os._Environ[str]) -> None:
    for name in list(environ):
        if name in BOT_SETTINGS or name.upper() in PROXIES or name.startswith("FAKE_DISCORD"):
            del environ[name]
    environ[ENV_FILE_VARIABLE] = ""


class NetworkBlocked(OSError):
    """A test tried to connect somewhere other than this machine."""


def _is_local(address: Any) -> bool:
    """A Unix socket, localhost, a loopback address or 0.0.0.0/:: (this machine on Linux)."""
    if isinstance(address, str | bytes):
        return True
    host = str(address[0])
    if host == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host.split("%", maxsplit=1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_unspecified


_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _guarded_connect(self: _socket.socket, address: Any) -> None:
    if not _is_local(address):
        raise NetworkBlocked(f"tests may not reach the network (tried {address!r})")
    _real_connect(self, address)


def _guarded_connect_ex(self: _socket.socket, address: Any) -> int:
    if not _is_local(address):
        raise NetworkBlocked(f"tests may not reach the network (tried {address!r})")
    return _real_connect_ex(self, address)


seal_environment(os.environ)
# Patching the class's methods on purpose: every socket of the test process is guarded.
socket.socket.connect = _guarded_connect  # type: ignore[method-assign]  # see above
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]  # see above


@pytest.fixture
def sealed_env() -> dict[str, str]:
    """A copy of the (sealed) environment for a subprocess."""
    return dict(os.environ)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    """A fresh SQLite store in the test's own folder, closed afterwards."""
    opened = await open_store(tmp_path / "bot.db")
    yield opened
    await opened.close()


@pytest.fixture(autouse=True)
def _outbox_jobs_succeed(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test in which an outbox job raised (tests/failed_jobs.py)."""
    watch = FailedJobs()
    logger = logging.getLogger(OUTBOX_LOG)
    logger.addHandler(watch)
    try:
        yield
    finally:
        logger.removeHandler(watch)
    why = verdict(watch.failed(), on_purpose=request.node.get_closest_marker(MARKER) is not None)
    if why is not None:
        pytest.fail(why, pytrace=False)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Every end-to-end test starts the bot: it is marked ``process`` (``make check`` leaves
    those out); then the suite's order (tests/scheduling.py)."""
    for item in items:
        if item.nodeid.startswith("tests/e2e/"):
            item.add_marker(pytest.mark.process)
    scheduling.pytest_collection_modifyitems(config, items)
