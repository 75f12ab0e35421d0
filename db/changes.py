"""Announcements of game changes: every write to a game or its seats, as (game id, channel id).

The database announces them itself, so no code path that changes a game can forget to:

- PostgreSQL: triggers (migration 015) ``pg_notify('game_changes', '<game>:<channel>')``,
  delivered at commit to every process listening; :class:`PgListener` keeps one connection of
  its own LISTENing, and listens again on a new one if it is lost.
- SQLite (one process): temporary triggers on the store's connection call a function of that
  connection (:data:`SQLITE_TRIGGERS`), which hands the announcement to the event loop. They
  fire as the statement runs, before its commit: a reader told of one reads after that
  transaction (the connection runs its calls in order), and a rolled-back write announces a
  change that did not happen, which costs the listener one needless read.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from aio.tasks import cancel_and_wait

log = logging.getLogger(__name__)

# Told (game id, channel id) on the event loop; (0, 0): any game may have changed (the
# listening connection was lost for a while); (0, channel): a live table's page of the
# channel opened or closed (db/presence.py).
Changed = Callable[[int, int], None]
PG_CHANNEL = "game_changes"
SQLITE_FUNCTION = "announce_game_change"
RELISTEN_SECONDS = 1.0

_CHANNEL_OF_SEAT = "(SELECT channel_id FROM main.games WHERE id = {row}.game_id)"
_SEAT_FIELDS = ("user_id", "name", "accepted", "autopilot", "is_computer", "level")
SQLITE_TRIGGERS = (
    f"CREATE TEMP TRIGGER IF NOT EXISTS games_added AFTER INSERT ON main.games "
    f"BEGIN SELECT {SQLITE_FUNCTION}(NEW.id, NEW.channel_id); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS games_changed "
    f"AFTER UPDATE OF status, version, updated_at, host_id ON main.games "
    f"BEGIN SELECT {SQLITE_FUNCTION}(NEW.id, NEW.channel_id); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS seats_added AFTER INSERT ON main.seats "
    f"BEGIN SELECT {SQLITE_FUNCTION}(NEW.game_id, {_CHANNEL_OF_SEAT.format(row='NEW')}); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS seats_removed AFTER DELETE ON main.seats "
    f"BEGIN SELECT {SQLITE_FUNCTION}(OLD.game_id, {_CHANNEL_OF_SEAT.format(row='OLD')}); END",
    "CREATE TEMP TRIGGER IF NOT EXISTS seats_changed AFTER UPDATE ON main.seats WHEN "
    + " OR ".join(f"OLD.{f} IS NOT NEW.{f}" for f in _SEAT_FIELDS)
    + f" BEGIN SELECT {SQLITE_FUNCTION}(NEW.game_id, {_CHANNEL_OF_SEAT.format(row='NEW')}); END",
    # A live table's page opened or closed (db/presence.py): the channel, no game.
    f"CREATE TEMP TRIGGER IF NOT EXISTS presence_added AFTER INSERT ON main.live_presence "
    f"BEGIN SELECT {SQLITE_FUNCTION}(0, NEW.channel_id); END",
    f"CREATE TEMP TRIGGER IF NOT EXISTS presence_removed AFTER DELETE ON main.live_presence "
    f"BEGIN SELECT {SQLITE_FUNCTION}(0, OLD.channel_id); END",
)


def from_thread(loop: asyncio.AbstractEventLoop, told: Changed) -> Callable[[object, object], int]:
    """The SQLite function: runs on the driver's thread, tells ``told`` on ``loop``."""

    def announce(game_id: object, channel_id: object) -> int:
        try:
            game, channel = int(str(game_id)), int(str(channel_id or 0))
        except ValueError:
            return 0
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody listens any more
            loop.call_soon_threadsafe(told, game, channel)
        return 0

    return announce


def parse(payload: str) -> tuple[int, int] | None:
    game, _, channel = payload.partition(":")
    try:
        return int(game), int(channel or 0)
    except ValueError:
        return None


class PgListener:
    """One connection LISTENing on :data:`PG_CHANNEL`, replaced when it is lost."""

    def __init__(self, url: str, told: Changed) -> None:
        self._url = url
        self._told = told
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    async def start(self) -> None:
        """Returns once listening (or after the first attempt failed: it keeps trying)."""
        self._task = asyncio.get_running_loop().create_task(self._run(), name="pg-listen")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.connected.wait(), timeout=10)

    async def close(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)
            self._task = None

    def _heard(self, _conn: object, _pid: int, _channel: str, payload: object) -> None:
        parsed = parse(str(payload))
        if parsed is not None:
            self._told(*parsed)

    async def _run(self) -> None:
        first = True
        while True:
            lost = asyncio.Event()
            try:
                conn = await asyncpg.connect(self._url)
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("cannot listen for game changes: %s", exc)
                await asyncio.sleep(RELISTEN_SECONDS)
                continue
            try:
                conn.add_termination_listener(lambda _c, lost=lost: lost.set())
                await conn.add_listener(PG_CHANNEL, self._heard)
                self.connected.set()
                if not first:  # announcements made while nobody listened are lost
                    self._told(0, 0)
                first = False
                await lost.wait()
                log.warning("the connection listening for game changes was lost; listening again")
            except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
                log.warning("listening for game changes failed: %s", exc)
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await conn.close(timeout=2)
            await asyncio.sleep(RELISTEN_SECONDS)
