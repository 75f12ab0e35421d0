"""Running a bot entry script as a real subprocess wired to a FakeDiscord."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import IO

from .server import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[2]
SITE_DIR = REPO_ROOT / "tests" / "fakediscord" / "site"


def _games_where(db: Path, condition: str) -> int | None:
    """How many games of the bot's database match ``condition``; None if it cannot be read.
    The read-only connection is closed at once (a lingering one keeps SQLite's WAL file)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1)) as conn:
            row = conn.execute(f"SELECT COUNT(*) FROM games WHERE {condition}").fetchone()
    except sqlite3.Error:
        return None
    return int(row[0])


# Conditions on ``games`` (SQLite and PostgreSQL alike) for the tests' waits: a started game
# whose table shows less than its latest move, or with a message owed to its channel and not
# posted yet (db/outbox.py); an active game with a hand behind it, or an automatic move still
# to come.
TABLE_BEHIND = (
    "snapshot IS NOT NULL AND (rendered_version < version OR EXISTS (SELECT 1 FROM outbox o "
    "WHERE o.game_id = games.id AND o.sent_at IS NULL))"
)
HANDS_UNSETTLED = (
    "status = 'active' AND (resume_after IS NOT NULL OR EXISTS (SELECT 1 FROM seats s "
    "WHERE s.game_id = games.id AND s.dm_message_id IS NOT NULL AND NOT s.dm_closed "
    "AND s.shown_version < games.version))"
)


def all_games_shown(db: Path) -> bool:
    """The bot has shown every committed move of every started game (see rendered_version)."""
    if not db.exists():
        return True
    return _games_where(db, TABLE_BEHIND) == 0


def hands_settled(db: Path) -> bool:
    """Every hand of every active game shows its latest move (seats' shown_version; the
    table may still be on its way) and no automatic move is due; False when unknown."""
    return db.exists() and _games_where(db, HANDS_UNSETTLED) == 0


def no_automatic_move_due(db: Path) -> bool:
    """No started game waits for a computer's, autopilot's or forced move (``resume_after``
    is set from the move that makes one due until it is saved); False when unknown."""
    if not db.exists():
        return False
    return _games_where(db, "status = 'active' AND resume_after IS NOT NULL") == 0


class BotProcess:
    """Runs a Python entry script as a real subprocess wired to a FakeDiscord.

    The environment is the test's, plus DISCORD_TOKEN, FAKE_DISCORD_URL,
    PYTHONPATH=<site dir>:<repo> and whatever ``env`` adds (e.g. DATABASE_PATH).
    stdout and stderr go to ``log_path``; each start appends to it.
    """

    def __init__(
        self,
        fake: FakeDiscord,
        log_path: Path,
        *,
        env: dict[str, str] | None = None,
        cwd: Path = REPO_ROOT,
    ) -> None:
        self.fake = fake
        self.log_path = log_path
        self.env = dict(env or {})
        self.cwd = cwd
        self.popen: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._log_file: IO[bytes] | None = None
        self._checked: set[str] = set()  # databases whose checks the fake has

    def _environment(self, extra: dict[str, str] | None) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("FAKE_DISCORD")}
        env.update(
            {
                "DISCORD_TOKEN": self.fake.token,
                "FAKE_DISCORD_URL": self.fake.url,
                "PYTHONPATH": os.pathsep.join([str(SITE_DIR), str(REPO_ROOT)]),
                "PYTHONUNBUFFERED": "1",
                "PYTHONDONTWRITEBYTECODE": "1",
                # the bot paces itself on the same time scale as the fake's rate limits
                "RATE_LIMIT_SCALE": str(self.fake.time_scale),
            }
        )
        if self.fake.endpoint is not None:
            env.update(self.fake.endpoint.bot_environment())
        env.update(self.env)
        env.update(extra or {})
        return env

    async def start(
        self,
        script: str = "bot.py",
        *,
        env: dict[str, str] | None = None,
        wait: bool = True,
        commands: bool = True,
        timeout: float = 20.0,
        shards: int = 1,
        args: tuple[str, ...] = (),
    ) -> None:
        """Launch ``script`` (path relative to the repo, or absolute) with ``sys.executable``
        and ``args``.

        ``wait``: return only once the bot identified on the fake gateway (``shards``
        connections; and, with ``commands``, registered its application commands) and
        on_ready had time to run.
        Fails at once, with the log, if the process exits meanwhile.
        """
        if self.running:
            raise RuntimeError("bot process already running")
        mark = self.fake.ready_count
        path = Path(script)
        if not path.is_absolute():
            path = REPO_ROOT / path
        self._log_file = self.log_path.open("ab")
        self._log_file.write(f"==== start #{self.starts + 1}: {path.name} ====\n".encode())
        self._log_file.flush()
        self.popen = subprocess.Popen(
            [sys.executable, str(path), *args],
            cwd=self.cwd,
            env=self._environment(env),
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
        self.starts += 1
        environment = self._environment(env)
        database = environment.get("DATABASE_PATH")
        if database and database not in self._checked:  # once per database, not per start
            self._checked.add(database)
            self.fake.settle_checks.append(lambda: all_games_shown(Path(database)))
            self.fake.idle_checks.append(lambda: no_automatic_move_due(Path(database)))
            if not environment.get("DATABASE_URL"):  # else that file is not where games are
                self.fake.hand_checks.append(lambda: hands_settled(Path(database)))
        if not wait:
            return
        ready = asyncio.ensure_future(
            self.fake.wait_ready(timeout, after=mark, commands=commands, shards=shards)
        )
        try:
            while not ready.done():
                if self.popen.poll() is not None:
                    raise RuntimeError(
                        f"bot exited with {self.popen.returncode} before it was ready:\n"
                        + self.log_text()[-4000:]
                    )
                await asyncio.wait({ready}, timeout=0.05)
            ready.result()
        finally:
            if not ready.done():
                ready.cancel()

    @property
    def running(self) -> bool:
        return self.popen is not None and self.popen.poll() is None

    @property
    def returncode(self) -> int | None:
        return None if self.popen is None else self.popen.poll()

    def kill(self) -> None:
        """SIGKILL the process (no cleanup runs in it) and reap it."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGKILL)
            self.popen.wait(timeout=10)
        self._close_log()

    async def stop(self, timeout: float = 5.0) -> None:
        """SIGTERM, wait up to ``timeout`` seconds, then SIGKILL."""
        if self.popen is not None and self.popen.poll() is None:
            self.popen.send_signal(signal.SIGTERM)
            deadline = time.monotonic() + timeout
            while self.popen.poll() is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
        self.kill()

    def _close_log(self) -> None:
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def log_text(self) -> str:
        """Everything the process printed so far."""
        if not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")
