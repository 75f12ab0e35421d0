"""What Discord shows of a game, as recorded in the database, for several processes at once.

With one process (SQLite) the publisher's memory is the truth and none of this is used. On
PostgreSQL another process may have posted a newer table or DM for a game since this process
last saw it, so the publisher reads the game's message ids back (:meth:`Shown.shown_ids`,
one query) before each table or DM job, and posts a *new* table only inside
:meth:`Shown.table_claim`: an advisory lock per game held by one process at a time, under
which the table's id and key are read again. A second process waiting for the lock then finds
the table the first one posted and edits it instead of posting another. The lock belongs to
the claim's transaction, so it is released by the commit, or by PostgreSQL when the process
dies mid-post: no lease to expire, nothing to clean up.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from db.models import GameStatus
from db.sql import Part, Statement, shown_read, text_array, update_game

# The first key of the two-key advisory lock a table claim takes; the second is the game id.
# (Two-key locks never collide with the one-key migration lock.)
TABLE_LOCK_CLASS = 0x63617264  # "card"


@dataclass(frozen=True, slots=True)
class TableIds:
    message_id: int | None
    key: str | None
    head: str | None = None  # the summaries' embeds above the table (JSON; see migration 021)


@dataclass(frozen=True, slots=True)
class ShownIds:
    """A game's version and the messages that show it: the table, and each seat's DM."""

    version: int
    status: GameStatus
    table: TableIds
    dms: dict[int, tuple[int | None, int | None]] = field(default_factory=dict)  # seat: ids


def shown_from(
    rows: Sequence[Mapping[str, Any]],
    *,
    version: int | None = None,
    status: GameStatus | None = None,
) -> ShownIds | None:
    """:func:`db.sql.shown_read`'s rows as ids (None: no such game; a row of NULLs is none),
    with ``version`` and ``status`` in place of the rows' where given (a move's: its read
    saw the game as the move began)."""
    if not rows or rows[0]["version"] is None:
        return None
    first = rows[0]
    dms = {
        int(row["seat"]): (row["dm_channel_id"], row["dm_message_id"])
        for row in rows
        if row["seat"] is not None
    }
    table = TableIds(first["table_message_id"], first["table_key"], first["table_head"])
    version = int(first["version"]) if version is None else version
    status = GameStatus(first["status"]) if status is None else status
    return ShownIds(version, status, table, dms)


class Shown(Part):
    """``store.shown``: what Discord shows of each game, as recorded (see above)."""

    async def set_table_message(
        self,
        game_id: int,
        message_id: int,
        key: str,
        head: str | None = None,
        retiring: str | None = None,
    ) -> None:
        """Record the game's table message, its layout key, the summaries it carries above
        the table (``head``, JSON; None: none) and the tables it replaced that are not retired
        yet (``retiring``, JSON; None: none)."""
        await update_game(
            self._sql,
            game_id,
            table_message_id=message_id,
            table_key=key,
            table_head=head,
            retiring_tables=retiring,
        )

    async def set_retiring_tables(self, game_id: int, retiring: str | None) -> None:
        """Record the replaced tables of a game not retired yet (JSON; None: none)."""
        await update_game(self._sql, game_id, retiring_tables=retiring)

    async def set_rendered_version(self, game_id: int, version: int) -> None:
        """Record that Discord shows ``version`` (never moves backwards)."""
        await self.set_shown_versions({game_id: version}, {})

    async def set_rendered_versions(self, versions: Mapping[int, int]) -> None:
        """Record, for many games in one transaction, the version Discord shows (game id ->
        version; never moves backwards)."""
        await self.set_shown_versions(versions, {})

    async def set_shown_versions(
        self, tables: Mapping[int, int], dms: Mapping[tuple[int, int], int]
    ) -> None:
        """Record in one transaction the version each game's table shows (game id -> version)
        and each player's DM ((game id, seat) -> version); neither ever moves backwards.
        PostgreSQL: one statement (both UPDATEs over arrays), one round trip."""
        if self._sql.dialect == "postgres":
            if tables or dms:
                await self._sql.write_all([_shown_versions(tables, dms)])
            return
        statements = []
        if tables:
            games = [(v, game_id, v) for game_id, v in sorted(tables.items())]
            sql = "UPDATE games SET rendered_version = ? WHERE id = ? AND rendered_version < ?"
            statements.append(Statement(sql, games, many=True))
        if dms:
            seats = [(v, game_id, seat, v) for (game_id, seat), v in sorted(dms.items())]
            sql = (
                "UPDATE seats SET shown_version = ? WHERE game_id = ? AND seat = ? "
                "AND shown_version < ?"
            )
            statements.append(Statement(sql, seats, many=True))
        if statements:
            await self._sql.write_all(statements)

    async def generation(self) -> str:
        """Which copy of the database this is (see migration 010): '' until a start set it."""
        rows = await self._sql.fetch("SELECT token FROM generation WHERE id = 1")
        return str(rows[0]["token"]) if rows else ""

    async def set_generation(self, token: str) -> None:
        await self._sql.write_all(
            [Statement("UPDATE generation SET token = ? WHERE id = 1", [token])]
        )

    async def forget_shown(self) -> None:
        """Mark every open game's table and DMs as showing nothing (a restored database: what
        Discord shows is not what it records), so that a start redraws them until done."""
        active = "SELECT id FROM games WHERE status = 'active'"
        await self._sql.write_all(
            [
                Statement(f"UPDATE games SET rendered_version = -1 WHERE id IN ({active})"),
                Statement(f"UPDATE seats SET shown_version = -1 WHERE game_id IN ({active})"),
            ]
        )

    async def stale_games(self) -> list[int]:
        """Started games whose table or a player's DM shows less than their latest move:
        active ones, and finished or cancelled ones whose DMs may still carry live buttons;
        and games whose leavers' hand messages are not closed yet
        (see ``store.seats.leaver_dm_closed``)."""
        rows = await self._sql.fetch(
            "SELECT g.id FROM games g WHERE g.status <> 'lobby' AND (("
            "g.status = 'active' AND g.version > g.rendered_version) OR EXISTS ("
            "SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.dm_message_id IS NOT NULL "
            "AND NOT s.dm_closed AND (s.shown_version < g.version "
            "OR s.left_user_id IS NOT NULL))) ORDER BY g.id"
        )
        return [int(r["id"]) for r in rows]

    async def shown_ids(self, game_id: int) -> ShownIds | None:
        """One query: the game's version, status, table message and DM messages (None if the
        game does not exist)."""
        read = shown_read(game_id)
        async with self._sql.reading() as tx:
            rows = await tx.fetch(read.sql, *read.args)
        return shown_from(rows)

    @asynccontextmanager
    async def table_claim(self, game_id: int) -> AsyncIterator[TableIds]:
        """Hold the right to post a new table for ``game_id``; yields the table recorded now.

        PostgreSQL: a transaction-scoped advisory lock (waits for another process's claim on
        the same game). SQLite has one process only: the recorded ids, no lock (its write
        transaction would stall every move while Discord answers).
        """
        if self._sql.dialect != "postgres":
            yield await self._table_ids(game_id)
            return
        async with self._sql.transaction() as tx:
            await tx.fetch(
                "SELECT pg_advisory_xact_lock(?, ?)", TABLE_LOCK_CLASS, game_id & 0x7FFFFFFF
            )
            rows = await tx.fetch(
                "SELECT table_message_id, table_key, table_head FROM games WHERE id = ?", game_id
            )
            yield _table(rows)

    async def _table_ids(self, game_id: int) -> TableIds:
        async with self._sql.reading() as tx:
            rows = await tx.fetch(
                "SELECT table_message_id, table_key, table_head FROM games WHERE id = ?", game_id
            )
        return _table(rows)


def _table(rows: list[dict[str, Any]]) -> TableIds:
    if not rows:
        return TableIds(None, None)
    row = rows[0]
    return TableIds(row["table_message_id"], row["table_key"], row["table_head"])


def _shown_versions(tables: Mapping[int, int], dms: Mapping[tuple[int, int], int]) -> Statement:
    """PostgreSQL: :meth:`SharedShown.set_shown_versions` as one statement of two UPDATEs,
    each over its arrays (each game, each seat at most once: no row is changed twice)."""
    sql = (
        "WITH t AS (UPDATE games g SET rendered_version = v.version "
        "FROM unnest(?::text[]::bigint[], ?::text[]::bigint[]) AS v(id, version) "
        "WHERE g.id = v.id AND g.rendered_version < v.version RETURNING 1), "
        "d AS (UPDATE seats s SET shown_version = v.version "
        "FROM unnest(?::text[]::bigint[], ?::text[]::int[], ?::text[]::int[]) "
        "AS v(game_id, seat, version) "
        "WHERE s.game_id = v.game_id AND s.seat = v.seat AND s.shown_version < v.version "
        "RETURNING 1) "
        "SELECT (SELECT count(*) FROM t) + (SELECT count(*) FROM d) AS changed"
    )
    games = sorted(tables.items())
    seats = sorted(dms.items())
    args = [  # as text: no array type for asyncpg to look up (db/sql.py text_array)
        text_array(game_id for game_id, _ in games),
        text_array(version for _, version in games),
        text_array(game_id for (game_id, _), _ in seats),
        text_array(seat for (_, seat), _ in seats),
        text_array(version for _, version in seats),
    ]
    return Statement(sql, args)
