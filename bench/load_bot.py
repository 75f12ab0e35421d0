"""A bot ready for ``bench.discord_load``'s players: a fresh fake Discord enforcing Discord's
limits, a fresh bot process on its own SQLite file, its games opened through slash commands and
lobby buttons, and (unless ``settled`` is False) the bot idle after the openings: its drawing
process has drawn the games' faces ahead, as a bot running for a while has. Used by
``bench.discord_load`` and by ``bench.workers_sqlite``."""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bench import discord_players as dp
from tests.e2e.driver import quiet
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

# Before the clicking: the bot is idle once it uses less than SETTLED_SHARE of a core over
# SETTLE_WINDOW seconds (at most SETTLE_TIMEOUT seconds of waiting).
SETTLE_WINDOW = 1.0
SETTLED_SHARE = 0.03
SETTLE_TIMEOUT = 60.0


@dataclass(frozen=True, slots=True)
class Prepared:
    """A bot process with its games opened and settled, and the fake Discord it talks to."""

    fake: FakeDiscord
    pid: int
    db: Path
    tables: list[dp.Table]
    setup: str


@asynccontextmanager
async def prepared(
    games: int,
    folder: Path,
    *,
    scale: float = 1.0,
    script: str = "bot.py",
    pictures: bool = True,
    mix: str = "even",
    settled: bool = True,
) -> AsyncIterator[Prepared]:
    """A fresh fake Discord and bot process with ``games`` games opened, the bot idle after
    the openings (``settled`` False: as soon as Discord is quiet, as ``bench.workers``' own
    runs start); both stopped on leaving, the bot's log printed if anything failed."""
    fake = FakeDiscord()
    fake.click_settle = 0.0  # players read and click at their own pace (think time)
    if scale != 1.0:
        fake.scale_time(scale)
    await fake.start()
    # a folder of the run's own: runs with the same number of games never share a database
    own = Path(tempfile.mkdtemp(dir=folder, prefix=f"run-{games}-"))
    db = own / "load.db"
    bot = BotProcess(
        fake,
        own / "bot.log",
        env={
            "DATABASE_PATH": str(db),
            "TURN_TIMEOUT_SECONDS": "300",
            "LOG_LEVEL": "WARNING",
            "PICTURES": "on" if pictures else "off",
        },
    )
    try:
        tables = dp.world(fake, games, mix=mix)
        await dp.known_dm_channels(fake, db, [u for t in tables for u in t.humans])
        await bot.start(script, timeout=60)
        assert bot.popen is not None
        await asyncio.gather(*(dp.open_table(fake, t) for t in tables))
        await quiet(fake, idle=0.5, timeout=180)
        if settled:
            await settle(bot.popen.pid)
        setup = f"pictures {'on' if pictures else 'off'}, mix {mix}"
        yield Prepared(fake, bot.popen.pid, db, tables, setup)
    except BaseException:
        print(f"---- {bot.log_path.name} ----\n{bot.log_text()[-3000:]}", file=sys.stderr)
        raise
    finally:
        await bot.stop()
        await fake.stop()


async def settle(pid: int, *, timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until the bot and its processes are idle (or ``timeout`` s): after the games'
    openings the drawing process draws their faces ahead, once per game kind, size and
    language, which a running bot has long done."""
    ends = time.monotonic() + timeout
    before = dp.cpu_seconds(pid)
    while time.monotonic() < ends:
        await asyncio.sleep(SETTLE_WINDOW)
        now = dp.cpu_seconds(pid)
        if now - before < SETTLE_WINDOW * SETTLED_SHARE:
            return
        before = now
