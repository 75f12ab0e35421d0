"""The game store: one aiosqlite connection, every write one transaction under a lock.

The action log is the source of truth; the snapshot beside it is a cache that lets a game load
without replaying. A move is recorded by :meth:`Store.record_move`, which checks the version,
appends the action, writes the snapshot and the seat's step in one ``BEGIN IMMEDIATE``
transaction, and commits before anyone answers Discord.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiosqlite

from db.errors import AlreadySeated, ChannelBusy, NotFound, StaleVersion
from db.migrations import apply_migrations
from db.models import ActionRow, GameRow, SeatRow

OPEN_STATUSES = ("lobby", "active")


@dataclass(frozen=True, slots=True)
class SeatUpdate:
    """Per-seat bookkeeping written together with a move."""

    seat: int
    deadline: float | None
    timeouts: int
    autopilot: bool


class Store:
    """Repository over the SQLite file. Create with :meth:`open`; close with :meth:`close`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        """Open (creating folders and file as needed), set WAL and migrate."""
        target = Path(path)
        if str(path) != ":memory:":
            target.parent.mkdir(parents=True, exist_ok=True)
        conn = await aiosqlite.connect(str(target), isolation_level=None)
        try:
            conn.row_factory = sqlite3.Row
            await conn.execute("PRAGMA journal_mode = WAL")
            await conn.execute("PRAGMA synchronous = FULL")
            await conn.execute("PRAGMA foreign_keys = ON")
            await conn.execute("PRAGMA busy_timeout = 5000")
            await apply_migrations(conn)
        except BaseException:
            await conn.close()
            raise
        return cls(conn)

    async def close(self) -> None:
        async with self._lock:
            await self._conn.close()

    async def schema_version(self) -> int:
        rows = await self._fetch("PRAGMA user_version")
        return int(rows[0][0])

    # -- low level -------------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                await self._conn.execute("ROLLBACK")
                raise
            await self._conn.execute("COMMIT")

    async def _fetch(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock, self._conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # -- reads -------------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow:
        rows = await self._fetch("SELECT * FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise NotFound(f"no game {game_id}")
        return GameRow.from_row(rows[0])

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        rows = await self._fetch(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def latest_game_in_channel(
        self, channel_id: int, statuses: Iterable[str] = ("active", "finished")
    ) -> GameRow | None:
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        rows = await self._fetch(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT 1",
            (channel_id, *wanted),
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def games_with_status(self, status: str) -> list[GameRow]:
        rows = await self._fetch("SELECT * FROM games WHERE status = ? ORDER BY id", (status,))
        return [GameRow.from_row(r) for r in rows]

    async def stale_games(self) -> list[int]:
        """Active games with a move committed after their last complete render."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE status = 'active' AND version > rendered_version "
            "ORDER BY id"
        )
        return [int(r[0]) for r in rows]

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The user's DM channel as last recorded in any game (Discord keeps it for good)."""
        rows = await self._fetch(
            "SELECT dm_channel_id FROM seats WHERE user_id = ? AND dm_channel_id IS NOT NULL "
            "ORDER BY game_id DESC LIMIT 1",
            (user_id,),
        )
        return int(rows[0][0]) if rows else None

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow.from_row(r) for r in rows]

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._fetch("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [ActionRow.from_row(r) for r in rows]

    async def earliest_deadline(self) -> tuple[int, int, float] | None:
        """(game id, seat, deadline) of the soonest running turn timer, if any."""
        rows = await self._fetch(
            "SELECT s.game_id, s.seat, s.deadline FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.deadline IS NOT NULL AND g.status = 'active' ORDER BY s.deadline LIMIT 1"
        )
        if not rows:
            return None
        return int(rows[0][0]), int(rows[0][1]), float(rows[0][2])

    # -- lobby -------------------------------------------------------------------------------

    async def create_lobby(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        host_id: int,
        host_name: str,
        seed: int,
        options: str = "{}",
    ) -> GameRow:
        """A new lobby with the host in seat 0; ChannelBusy if the channel has an open game."""
        now = time.time()
        try:
            async with self._transaction() as conn:
                cursor = await conn.execute(
                    "INSERT INTO games (guild_id, channel_id, game, status, host_id, seed, "
                    "options, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game, host_id, seed, options, now, now),
                )
                game_id = cursor.lastrowid
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    (game_id, host_id, host_name),
                )
        except sqlite3.IntegrityError as exc:
            raise ChannelBusy("this channel already has an open game") from exc
        assert game_id is not None
        return await self.game(game_id)

    async def add_seat(
        self,
        game_id: int,
        *,
        user_id: int | None,
        name: str,
        max_seats: int,
        is_computer: bool = False,
        accepted: bool = True,
    ) -> SeatRow | None:
        """Append a seat to a lobby; None when the lobby is full or no longer a lobby."""
        try:
            async with self._transaction() as conn:
                async with conn.execute("SELECT status FROM games WHERE id = ?", (game_id,)) as cur:
                    row = await cur.fetchone()
                if row is None or row[0] != "lobby":
                    return None
                async with conn.execute(
                    "SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)
                ) as cur:
                    count_row = await cur.fetchone()
                count = int(count_row[0]) if count_row else 0
                if count >= max_seats:
                    return None
                await conn.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, is_computer, accepted) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, count, user_id, name, int(is_computer), int(accepted)),
                )
        except sqlite3.IntegrityError as exc:
            raise AlreadySeated("already seated") from exc
        seats = await self.seats(game_id)
        return seats[count]

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Remove a lobby seat and close the gap so seats stay 0..n-1 in join order."""
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            async with conn.execute(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat",
                (game_id, seat),
            ) as cur:
                later = [int(r[0]) for r in await cur.fetchall()]
            for number in later:  # ascending, so the seat below is always free
                await conn.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?",
                    (number - 1, game_id, number),
                )

    async def accept_seat(self, game_id: int, seat: int) -> None:
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE seats SET accepted = 1 WHERE game_id = ? AND seat = ?", (game_id, seat)
            )

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._update_game(game_id, lobby_message_id=message_id)

    async def set_table_message(self, game_id: int, message_id: int, key: str) -> None:
        await self._update_game(game_id, table_message_id=message_id, table_key=key)

    async def set_rendered_version(self, game_id: int, version: int) -> None:
        """Record that Discord shows ``version`` (never moves backwards)."""
        async with self._transaction() as conn:
            await conn.execute(
                "UPDATE games SET rendered_version = ? WHERE id = ? AND rendered_version < ?",
                (version, game_id, version),
            )

    async def start(
        self, game_id: int, snapshot: str, deadlines: dict[int, float | None]
    ) -> GameRow:
        """Lobby -> active with the engine's first snapshot (version 0)."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET status = 'active', snapshot = ?, version = 0, updated_at = ? "
                "WHERE id = ? AND status = 'lobby'",
                (snapshot, time.time(), game_id),
            )
            if cur.rowcount != 1:
                raise StaleVersion("the lobby has already started or closed")
            for seat, deadline in deadlines.items():
                await conn.execute(
                    "UPDATE seats SET deadline = ? WHERE game_id = ? AND seat = ?",
                    (deadline, game_id, seat),
                )
        return await self.game(game_id)

    async def end(self, game_id: int, status: str) -> bool:
        """Close an open game as cancelled (or finished); False if it was not open."""
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET status = ?, updated_at = ?, ended_at = ? "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                (status, time.time(), time.time(), game_id),
            )
            await conn.execute("UPDATE seats SET deadline = NULL WHERE game_id = ?", (game_id,))
            return cur.rowcount == 1

    # -- play --------------------------------------------------------------------------------

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        actor: str,
        snapshot: str,
        seat_updates: Iterable[SeatUpdate],
        results: Sequence[tuple[int, int | None, int, bool]] | None = None,
    ) -> int:
        """Append one action and its snapshot atomically; returns the new version.

        Raises StaleVersion if another move was recorded since ``expected_version``.
        ``results`` (seat, user id, total, won) finishes the game in the same transaction.
        """
        now = time.time()
        new_version = expected_version + 1
        async with self._transaction() as conn:
            cur = await conn.execute(
                "UPDATE games SET snapshot = ?, version = ?, updated_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (snapshot, new_version, now, game_id, expected_version),
            )
            if cur.rowcount != 1:
                raise StaleVersion("the game moved on")
            await conn.execute(
                "INSERT INTO actions (game_id, seq, seat, action, actor, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, action, actor, now),
            )
            await conn.execute(
                "UPDATE seats SET step = step + 1 WHERE game_id = ? AND seat = ?",
                (game_id, seat),
            )
            for update in seat_updates:
                await conn.execute(
                    "UPDATE seats SET deadline = ?, timeouts = ?, autopilot = ? "
                    "WHERE game_id = ? AND seat = ?",
                    (
                        update.deadline,
                        update.timeouts,
                        int(update.autopilot),
                        game_id,
                        update.seat,
                    ),
                )
            if results is not None:
                await conn.execute(
                    "UPDATE games SET status = 'finished', ended_at = ? WHERE id = ?",
                    (now, game_id),
                )
                await conn.execute("UPDATE seats SET deadline = NULL WHERE game_id = ?", (game_id,))
                await conn.executemany(
                    "INSERT INTO results (game_id, seat, user_id, total, won) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(game_id, s, u, t, int(w)) for s, u, t, w in results],
                )
        return new_version

    async def set_seat_flags(
        self, game_id: int, seat: int, *, autopilot: bool | None = None, timeouts: int | None = None
    ) -> None:
        fields: dict[str, Any] = {}
        if autopilot is not None:
            fields["autopilot"] = int(autopilot)
        if timeouts is not None:
            fields["timeouts"] = timeouts
        await self._update_seat(game_id, seat, **fields)

    async def clear_deadline(self, game_id: int, seat: int) -> None:
        await self._update_seat(game_id, seat, deadline=None)

    async def set_dm(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        await self._update_seat(
            game_id, seat, dm_channel_id=channel_id, dm_message_id=message_id, dm_closed=0
        )

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        await self._update_seat(game_id, seat, dm_closed=int(closed))

    async def results(self, game_id: int) -> list[tuple[int, int | None, int, bool]]:
        rows = await self._fetch(
            "SELECT seat, user_id, total, won FROM results WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return [(int(r[0]), r[1], int(r[2]), bool(r[3])) for r in rows]

    # -- helpers -----------------------------------------------------------------------------

    async def _update_game(self, game_id: int, **fields: Any) -> None:
        sets = ", ".join(f"{name} = ?" for name in fields)
        async with self._transaction() as conn:
            await conn.execute(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))

    async def _update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        if not fields:
            return
        sets = ", ".join(f"{name} = ?" for name in fields)
        async with self._transaction() as conn:
            await conn.execute(
                f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?",
                (*fields.values(), game_id, seat),
            )
