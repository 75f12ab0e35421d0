"""The store's reads of games, their seats, actions and results (``store.games``).

Rows come back as the dataclasses of :mod:`db.models`; the turn timers' reads are in
db/timers.py, what Discord shows in db/shown.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields
from typing import Any

from db.errors import NotFound
from db.models import ActionRow, GameRow, GameStatus, ResultRow, SeatRow
from db.sql import TABLE_KEYS, Part

# Every seat column, prefixed, so one joined row carries a game and one of its seats.
_SEAT_COLUMNS = tuple(f.name for f in fields(SeatRow))
_SEAT_KEYS = tuple((name, f"s__{name}") for name in _SEAT_COLUMNS)  # (field, joined column)
_GAME_AND_SEATS = (
    "SELECT g.*, "
    + ", ".join(f"s.{name} AS s__{name}" for name in _SEAT_COLUMNS)
    + " FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat"
)


class Games(Part):
    """Reads of games and what belongs to them, on either engine."""

    async def game(self, game_id: int) -> GameRow:
        rows = await self._sql.fetch("SELECT * FROM games WHERE id = ?", game_id)
        if not rows:
            raise NotFound(f"no game {game_id}")
        return GameRow.from_row(rows[0])

    async def game_and_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        """A game and its seats (in seat order) in one query: what a move loads."""
        rows = await self._sql.fetch(_GAME_AND_SEATS, game_id)
        if not rows:
            raise NotFound(f"no game {game_id}")
        game = GameRow.from_row({k: v for k, v in rows[0].items() if not k.startswith("s__")})
        seats = [
            SeatRow.from_row({name: row[column] for name, column in _SEAT_KEYS})
            for row in rows
            if row["s__seat"] is not None
        ]
        return game, seats

    async def open_game_in_channel(self, channel_id: int) -> GameRow | None:
        rows = await self._sql.fetch(
            "SELECT * FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')",
            channel_id,
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def latest_game_in_channel(
        self,
        channel_id: int,
        statuses: Iterable[GameStatus] = (GameStatus.ACTIVE, GameStatus.FINISHED),
    ) -> GameRow | None:
        wanted = tuple(statuses)
        marks = ",".join("?" * len(wanted))
        rows = await self._sql.fetch(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT 1",
            channel_id,
            *wanted,
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def games_with_status(self, status: GameStatus) -> list[GameRow]:
        rows = await self._sql.fetch("SELECT * FROM games WHERE status = ? ORDER BY id", status)
        return [GameRow.from_row(r) for r in rows]

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The user's DM channel as last recorded in any game (Discord keeps it for good)."""
        rows = await self._sql.fetch(
            "SELECT dm_channel_id FROM seats WHERE user_id = ? AND dm_channel_id IS NOT NULL "
            "ORDER BY game_id DESC LIMIT 1",
            user_id,
        )
        return int(rows[0]["dm_channel_id"]) if rows else None

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._sql.fetch("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [SeatRow.from_row(r) for r in rows]

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._sql.fetch(
            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", game_id
        )
        return [ActionRow.from_row(r) for r in rows]

    async def results(self, game_id: int) -> list[tuple[int, int | None, int, bool]]:
        return [(r.seat, r.user_id, r.total, r.won) for r in await self.result_rows(game_id)]

    async def result_rows(self, game_id: int) -> list[ResultRow]:
        rows = await self._sql.fetch(
            "SELECT * FROM results WHERE game_id = ? ORDER BY seat", game_id
        )
        return [ResultRow.from_row(r) for r in rows]

    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the store's tables in key order, as the engine returns it."""
        if table not in TABLE_KEYS:
            raise ValueError(f"not a table of the store: {table}")
        return await self._sql.fetch(f"SELECT * FROM {table} ORDER BY {TABLE_KEYS[table]}")
