"""What the store's parts write their SQL against: one engine's connection, seen through
:class:`Sql` (SQLite in db/sqlite.py, PostgreSQL in db/postgres.py).

SQL uses ``?`` marks (PostgreSQL's engine turns them into ``$n``) and only what both engines
accept. A part never holds a connection: it asks its :class:`Sql` for a transaction, a read,
or a batch of :class:`Statement` that the engine may send in one trip.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from db.errors import StaleVersion
from db.migrations import Dialect

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
    "outbox": "id",
}


@dataclass(frozen=True, slots=True)
class Statement:
    """One statement of :meth:`Sql.write_all`: its parameters (with ``many``, a row of
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


def shown_read(game_id: int) -> Statement:
    """The read of what Discord shows of a game (db/shown.py's ``shown_ids``), a row per
    seat; a move on PostgreSQL carries it (db/play.py ``on_shown``)."""
    return Statement(
        "SELECT g.version, g.status, g.table_message_id, g.table_key, g.table_head, "
        "s.seat, s.dm_channel_id, s.dm_message_id FROM games g "
        "LEFT JOIN seats s ON s.game_id = g.id WHERE g.id = ? ORDER BY s.seat",
        (game_id,),
    )


class Tx(Protocol):
    """One connection inside a transaction (or a plain read); SQL uses ``?`` marks."""

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]: ...

    async def execute(self, sql: str, *args: Any) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...


class Sql(Protocol):
    """One engine's connection, as the store's parts use it (:class:`db.store.Store` is one)."""

    @property
    def dialect(self) -> Dialect: ...

    @property
    def row_lock(self) -> str:
        """Appended to a SELECT that reads a row before writing it (PostgreSQL: FOR UPDATE;
        SQLite needs none, its writers are serialised by BEGIN IMMEDIATE)."""
        ...

    @property
    def claim_lock(self) -> str:
        """Appended to the SELECT of due seats (PostgreSQL: rows being claimed are skipped)."""
        ...

    @property
    def owed_lock(self) -> str:
        """Appended to the SELECT of owed messages to claim (PostgreSQL: rows another process
        is claiming are skipped, not waited for)."""
        ...

    @property
    def claims_shared(self) -> bool:
        """Whether a claim of another holder is respected (PostgreSQL: several live
        processes); on SQLite the file has one process, so another holder's claim is a
        stopped process's."""
        ...

    @property
    def holder(self) -> str:
        """This store's name on the claims it takes (one per store: a process has one)."""
        ...

    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed on a clean exit, rolled back on any exception."""
        ...

    def reading(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for reads outside any write transaction."""
        ...

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        """One read on its own."""
        ...

    async def write_all(self, statements: Sequence[Statement]) -> None:
        """``statements`` in order in one write transaction (see Store.write_all)."""
        ...

    async def write_and_read(
        self, statements: Sequence[Statement], read: Statement
    ) -> list[dict[str, Any]] | None:
        """:meth:`write_all`, with ``read``'s rows where one round trip answers both (see
        Store.write_and_read)."""
        ...


class Part:
    """One of the store's parts (``store.games``, ``store.lobbies``, ...): it holds the
    engine's connection and nothing else."""

    def __init__(self, sql: Sql) -> None:
        self._sql = sql


async def locked_status(sql: Sql, tx: Tx, game_id: int) -> str | None:
    """A game's status, read in ``tx`` under the game's row lock (where the engine has one),
    before writing it; None if there is no such game."""
    rows = await tx.fetch(f"SELECT status FROM games WHERE id = ?{sql.row_lock}", game_id)
    return str(rows[0]["status"]) if rows else None


async def update_game(sql: Sql, game_id: int, **fields: Any) -> None:
    """Set ``fields`` (column = value) of one game."""
    sets = ", ".join(f"{name} = ?" for name in fields)
    await sql.write_all(
        [Statement(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))]
    )


async def update_seat(sql: Sql, game_id: int, seat: int, **fields: Any) -> None:
    """Set ``fields`` (column = value) of one seat; nothing when there are none."""
    if not fields:
        return
    sets = ", ".join(f"{name} = ?" for name in fields)
    statement = f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?"
    await sql.write_all([Statement(statement, (*fields.values(), game_id, seat))])


def seconds(value: float | None) -> float | None:
    """A moment or a duration as the float both engines store (None stays None)."""
    return None if value is None else float(value)


def text_array(values: Iterable[float]) -> list[str]:
    """Numbers as a PostgreSQL ``text[]`` parameter, which the SQL casts (``?::text[]::int[]``).

    asyncpg knows ``text[]`` without asking the server, but looks up any other array type
    (``int[]``, ``bigint[]``, ``float8[]``) on each new connection with a catalogue query that
    the server plans afresh each time, milliseconds of its CPU on the path of the statement
    that needed it; and its pool closes a connection idle for 5 minutes, so a quiet bot would
    pay that again with each burst of play. ``str`` of an int or a float is read back exactly.
    """
    return [str(value) for value in values]
