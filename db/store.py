"""The store: one face over small parts, each with one job, on either engine.

:class:`Store` is what the service sees. It is an engine's connection (a :class:`db.sql.Sql`:
transactions, reads, batched writes; ``db/sqlite.py``, the embedded default, and
``db/postgres.py``, a pool shared by several processes) and the parts that hold the SQL,
written once for both engines:

- ``games``: reads of games, seats, actions and results (db/games.py)
- ``lobbies``: lobbies created, joined, left and closed (db/lobbies.py)
- ``play``: a game started, its moves recorded, ended (db/play.py)
- ``timers``: turn timers claimed, automatic moves due (db/timers.py)
- ``seats``: a seat's hand message, a person leaving to a computer (db/seats.py)
- ``shown``: what Discord shows of each game (db/shown.py)
- ``players``: ratings and statistics (db/players.py)
- ``servers``: a server's settings and reminders (db/servers.py)
- ``languages``: who reads which language (db/languages.py)
- ``outbox``: what moves owe their channel, until it is posted (db/outbox.py)
- ``presence``: who has the live table open, by channel (db/presence.py)
- ``waits``: who waits for a seat in a channel's next game (db/waits.py)

Each part holds the store as its :class:`db.sql.Sql` and nothing else, so an engine changes
how a transaction runs and no part changes. Open a store with ``db.open_store``: a
``postgresql://`` URL selects PostgreSQL, anything else is a SQLite file path.

The action log is the source of truth; the snapshot beside it is a cache that lets a game
load without replaying.
"""

from __future__ import annotations

import os
import secrets
from abc import ABC, abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, ClassVar

from db.changes import Changed
from db.errors import ConstraintViolation, StoreError
from db.games import Games
from db.languages import Languages
from db.lobbies import Lobbies
from db.migrations import Dialect
from db.outbox import Outbox
from db.play import Play
from db.players import Players
from db.presence import Presence
from db.probe import DatabaseUnusable
from db.seats import Seats
from db.servers import Servers
from db.shown import Shown
from db.sql import Statement, Tx
from db.timers import Timers
from db.waits import Waits

__all__ = ["Store", "is_postgres_url"]

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


class Store(ABC):
    """Repository over one database. Create with :func:`db.open_store`; close with :meth:`close`."""

    dialect: ClassVar[Dialect]
    row_lock: ClassVar[str] = ""  # see db.sql.Sql
    claim_lock: ClassVar[str] = ""
    owed_lock: ClassVar[str] = ""
    claims_shared: ClassVar[bool] = False
    # One row, one column: true when the database takes writes.
    _writable_sql: ClassVar[str] = "SELECT 1 AS writable"

    def __init__(self) -> None:
        self.holder = f"{os.getpid()}:{secrets.token_hex(4)}"  # see db.sql.Sql
        self.games = Games(self)
        self.lobbies = Lobbies(self)
        self.play = Play(self)
        self.timers = Timers(self)
        self.seats = Seats(self)
        self.shown = Shown(self)
        self.players = Players(self)
        self.servers = Servers(self)
        self.languages = Languages(self)
        self.outbox = Outbox(self)
        self.presence = Presence(self)
        self.waits = Waits(self)

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed on a clean exit, rolled back on any exception."""

    @abstractmethod
    def reading(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for reads outside any write transaction."""

    async def fetch(self, sql: str, *args: Any) -> list[dict[str, Any]]:
        """One read on its own."""
        async with self.reading() as tx:
            return await tx.fetch(sql, *args)

    async def write_and_read(
        self, statements: Sequence[Statement], read: Statement
    ) -> list[dict[str, Any]] | None:
        """:meth:`write_all`, and ``read``'s rows as the write began where the engine can
        answer both in one round trip (PostgreSQL); elsewhere nothing is read (None): the
        caller reads when it needs to."""
        await self.write_all(statements)
        return None

    async def write_all(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` in order in one write transaction; a statement whose ``expect``
        differs from the rows it changed rolls everything back with StaleVersion. Engines that
        can send a whole transaction in one trip override this."""
        async with self.transaction() as tx:
            for statement in statements:
                try:
                    if statement.many:
                        await tx.executemany(statement.sql, statement.args)
                        continue
                    statement.check(await tx.execute(statement.sql, *statement.args))
                except ConstraintViolation as exc:
                    statement.on_conflict(exc)
                    raise

    async def watch_changes(self, told: Changed) -> None:  # one per store: db/changes.py
        raise NotImplementedError  # the engines tell ``told`` of every process's game writes

    async def check_writable(self) -> None:
        """Raise DatabaseUnusable unless a write transaction can start (the health check)."""
        try:
            async with self.transaction() as tx:
                rows = await tx.fetch(self._writable_sql)
        except (OSError, StoreError) as exc:
            raise DatabaseUnusable(str(exc)) from exc
        if not rows or not rows[0]["writable"]:
            raise DatabaseUnusable("the database takes no writes (read-only)")
