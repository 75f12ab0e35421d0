"""The store's reads: every query that changes nothing, on either engine.

SQL uses ``?`` marks (PostgreSQL's engine turns them into ``$n``); rows come back as the
dataclasses of :mod:`db.models`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, fields
from typing import Any, Protocol

from db.errors import NotFound, StaleVersion
from db.models import ActionRow, GameRow, GameStatus, ResultRow, SeatRow

# The store's tables in the order a copy fills them, with the key that orders their rows.
TABLE_KEYS = {
    "games": "id",
    "seats": "game_id, seat",
    "actions": "game_id, seq",
    "results": "game_id, seat",
    "ratings": "guild_id, game, user_id",
    "rating_history": "game_id, user_id",
    "guild_settings": "guild_id",
    "user_languages": "user_id",
    "server_languages": "guild_id",
}


# Every seat column, prefixed, so one joined row carries a game and one of its seats.
_SEAT_COLUMNS = tuple(f.name for f in fields(SeatRow))
_SEAT_KEYS = tuple((name, f"s__{name}") for name in _SEAT_COLUMNS)  # (field, joined column)
_GAME_AND_SEATS = (
    "SELECT g.*, "
    + ", ".join(f"s.{name} AS s__{name}" for name in _SEAT_COLUMNS)
    + " FROM games g LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat"
)


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of :meth:`Store._write_all`: its parameters (with ``many``, a row of
    parameters per execution), the rows it must change if that is checked, and whether a
    constraint it breaks means another writer came first (StaleVersion)."""

    sql: str
    args: Sequence[Any] = ()
    expect: int | None = None
    many: bool = False
    conflict_is_stale: bool = False

    def check(self, changed: int) -> None:
        """Raise StaleVersion if the statement changed other than the rows it must."""
        if self.expect is not None and changed != self.expect:
            raise StaleVersion("the game moved on")

    def on_conflict(self, exc: Exception) -> None:
        """Raise StaleVersion if a constraint this statement broke (``exc``) means another
        writer came first; otherwise the caller re-raises ``exc``."""
        if self.conflict_is_stale:
            raise StaleVersion("the game moved on") from exc


class Tx(Protocol):
    """One connection inside a transaction (or a plain read); SQL uses ``?`` marks."""

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class Reads(ABC):
    """Reads shared by both engines; :class:`db.store.Store` adds the writes."""

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for reads outside any write transaction."""

    async def _fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        async with self._reading() as tx:
            return await tx.fetch(sql, *args)

    # -- reads -------------------------------------------------------------------------------

    async def game(self, game_id: int) -> GameRow:
        rows = await self._fetch("SELECT * FROM games WHERE id = ?", game_id)
        if not rows:
            raise NotFound(f"no game {game_id}")
        return GameRow.from_row(rows[0])

    async def game_and_seats(self, game_id: int) -> tuple[GameRow, list[SeatRow]]:
        """A game and its seats (in seat order) in one query: what a move loads."""
        rows = await self._fetch(_GAME_AND_SEATS, game_id)
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
        rows = await self._fetch(
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
        rows = await self._fetch(
            f"SELECT * FROM games WHERE channel_id = ? AND status IN ({marks}) "
            "ORDER BY id DESC LIMIT 1",
            channel_id,
            *wanted,
        )
        return GameRow.from_row(rows[0]) if rows else None

    async def games_with_status(self, status: GameStatus) -> list[GameRow]:
        rows = await self._fetch("SELECT * FROM games WHERE status = ? ORDER BY id", status)
        return [GameRow.from_row(r) for r in rows]

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The user's DM channel as last recorded in any game (Discord keeps it for good)."""
        rows = await self._fetch(
            "SELECT dm_channel_id FROM seats WHERE user_id = ? AND dm_channel_id IS NOT NULL "
            "ORDER BY game_id DESC LIMIT 1",
            user_id,
        )
        return int(rows[0]["dm_channel_id"]) if rows else None

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetch("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", game_id)
        return [SeatRow.from_row(r) for r in rows]

    async def actions(self, game_id: int) -> list[ActionRow]:
        rows = await self._fetch("SELECT * FROM actions WHERE game_id = ? ORDER BY seq", game_id)
        return [ActionRow.from_row(r) for r in rows]

    async def earliest_deadline(self) -> tuple[int, int, float] | None:
        """(game id, seat, deadline) of the soonest running turn timer, if any."""
        rows = await self._fetch(
            "SELECT s.game_id, s.seat, s.deadline FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.deadline IS NOT NULL AND g.status = 'active' ORDER BY s.deadline LIMIT 1"
        )
        if not rows:
            return None
        return int(rows[0]["game_id"]), int(rows[0]["seat"]), float(rows[0]["deadline"])

    async def next_claimable_at(self) -> float | None:
        """When the next timer can be claimed: its deadline, or the end of a running claim."""
        rows = await self._fetch(
            "SELECT MIN(CASE WHEN s.claimed_until IS NOT NULL AND s.claimed_until > s.deadline "
            "THEN s.claimed_until ELSE s.deadline END) AS due "
            "FROM seats s JOIN games g ON g.id = s.game_id "
            "WHERE s.deadline IS NOT NULL AND g.status = 'active'"
        )
        due = rows[0]["due"] if rows else None
        return None if due is None else float(due)

    async def stalled_games(self, now: float, limit: int = 50) -> list[int]:
        """Running games whose automatic moves were due by ``now`` and not played (the process
        playing them stopped, or they failed), longest waiting first."""
        rows = await self._fetch(
            "SELECT id FROM games WHERE resume_after IS NOT NULL AND resume_after <= ? "
            "AND status = 'active' ORDER BY resume_after LIMIT ?",
            now,
            limit,
        )
        return [int(r["id"]) for r in rows]

    async def results(self, game_id: int) -> list[tuple[int, int | None, int, bool]]:
        return [(r.seat, r.user_id, r.total, r.won) for r in await self.result_rows(game_id)]

    async def result_rows(self, game_id: int) -> list[ResultRow]:
        rows = await self._fetch("SELECT * FROM results WHERE game_id = ? ORDER BY seat", game_id)
        return [ResultRow.from_row(r) for r in rows]

    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of the store's tables in key order, as the engine returns it."""
        if table not in TABLE_KEYS:
            raise ValueError(f"not a table of the store: {table}")
        return await self._fetch(f"SELECT * FROM {table} ORDER BY {TABLE_KEYS[table]}")
