"""The bot's heartbeat file and the health check that reads it (Docker's HEALTHCHECK).

While it runs, the bot rewrites ``<database>.health`` every ``HEARTBEAT_SECONDS``: the time,
whether the gateway connection is up, and whether the database can still be written (see
``db.probe``). ``python bot.py health`` reads that file: healthy means fresh, connected and
writable. No network is involved, and the file sits beside the database, so writing it also
proves the database's folder (the Docker volume) still takes writes. A stopped bot removes it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from db.probe import DatabaseUnusable, check_writable

log = logging.getLogger("heartbeat")

DATABASE_OK = "ok"
STOP_WAIT_SECONDS = 2.0


def heartbeat_path(database: Path) -> Path:
    return database.with_name(database.name + ".health")


@dataclass(frozen=True, slots=True)
class Beat:
    time: float
    connected: bool
    database: str  # DATABASE_OK, or why it cannot be written
    pid: int
    failure: str = ""  # why the bot could not start, while it waits to be stopped (lifecycle)

    @classmethod
    def from_json(cls, data: Any) -> Beat:
        if not isinstance(data, dict):
            raise ValueError("not an object")
        return cls(
            time=float(data["time"]),
            connected=bool(data["connected"]),
            database=str(data["database"]),
            pid=int(data["pid"]),
            failure=str(data.get("failure", "")),
        )


def write_beat(path: Path, beat: Beat) -> None:
    """Replace the heartbeat file atomically (a reader never sees half a file)."""
    partial = path.with_name(path.name + ".tmp")
    partial.write_text(json.dumps(asdict(beat)))
    partial.replace(path)


def check_health(path: Path, max_age: float, now: float | None = None) -> tuple[bool, str]:
    """(healthy, one line saying why) from the heartbeat file at ``path``."""
    try:
        beat = Beat.from_json(json.loads(path.read_text()))
    except FileNotFoundError:
        return False, f"no heartbeat at {path}: the bot is not running, or not started yet"
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return False, f"unreadable heartbeat at {path}: {exc}"
    if beat.failure:  # written once, by a bot that could not start and waits to be stopped
        return False, f"could not start: {beat.failure.removeprefix('Cannot start: ')}"
    age = (time.time() if now is None else now) - beat.time
    if age > max_age:
        return False, f"last heartbeat {age:.0f} s ago (limit {max_age:.0f} s): stuck or stopped"
    if not beat.connected:
        return False, "not connected to Discord"
    if beat.database != DATABASE_OK:
        return False, f"database not writable: {beat.database}"
    return True, f"connected, database writable (heartbeat {age:.0f} s ago, pid {beat.pid})"


class Heartbeat:
    """Writes a beat at once, then every ``interval`` seconds or when woken; stop() removes it."""

    def __init__(
        self,
        database: Path,
        interval: float,
        connected: Callable[[], bool],
        *,
        probe: Callable[[], Awaitable[None]] | None = None,
    ) -> None:
        """``probe`` raises DatabaseUnusable when the database takes no writes (default: the
        SQLite file at ``database``; on PostgreSQL the store asks the server)."""
        self.database = database
        self._probe = probe
        self.path = heartbeat_path(database)
        self.interval = interval
        self._connected = connected
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._last: tuple[bool, str] | None = None
        self._stopping = asyncio.Event()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="heartbeat")
        self._task.add_done_callback(self._finished)

    async def wake(self, *_: object) -> None:
        """Beat now (a listener for on_ready, on_resumed and on_disconnect)."""
        self._wake.set()

    async def stop(self) -> None:
        """End the loop after the beat in progress (its write must not outlive the removal)."""
        self._stopping.set()
        self._wake.set()
        if self._task is not None:
            try:
                await asyncio.wait_for(asyncio.shield(self._task), timeout=STOP_WAIT_SECONDS)
            except TimeoutError:
                self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(OSError):
            self.path.unlink(missing_ok=True)

    def _finished(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("heartbeat stopped", exc_info=task.exception())

    async def beat(self) -> Beat:
        try:
            if self._probe is not None:
                await self._probe()
            else:
                await asyncio.to_thread(check_writable, self.database)
            database = DATABASE_OK
        except DatabaseUnusable as exc:
            database = str(exc)
        beat = Beat(time.time(), self._connected(), database, os.getpid())
        state = (beat.connected, beat.database)
        if state != self._last and self._last is not None:
            level = logging.INFO if state == (True, DATABASE_OK) else logging.WARNING
            log.log(level, "health: connected=%s, database: %s", *state)
        self._last = state
        try:
            await asyncio.to_thread(write_beat, self.path, beat)
        except OSError as exc:
            log.warning("cannot write the heartbeat %s: %s", self.path, exc.strerror or exc)
        return beat

    async def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.clear()
            await self.beat()
            if self._stopping.is_set():
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), timeout=self.interval)
