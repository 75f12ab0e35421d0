"""The store contract and its logic, shared by both engines.

:class:`Store` is what the service sees. Every method is written once here, in SQL both
engines accept, over a small :class:`Tx` (fetch / execute / executemany with ``?`` marks);
``db/sqlite.py`` (the embedded default: one connection shared through ``db/gate.py``,
writes committed in groups by ``db/group_commit.py``, an OS lock on the file) and
``db/postgres.py`` (a pool shared by several processes: row locks, ``SKIP LOCKED``)
provide the transactions and map driver errors onto ``db.errors``. Open one with
:meth:`Store.open` (or ``db.open_store``): a ``postgresql://`` URL selects PostgreSQL,
anything else is a SQLite file path.

The action log is the source of truth; the snapshot beside it is a cache that lets a game
load without replaying. A move is recorded by :meth:`Store.record_move` in one transaction
of three statements: write the snapshot if the version is still the expected one (which locks
the game row), append the action (unique ``(game_id, seq)``), write every seat's bookkeeping
in one UPDATE; commit — all before anyone answers Discord. Such transactions of statements
known in advance go through :meth:`Store._write_all`, which an engine may send in one call.
"""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from db.changes import Changed
from db.errors import (
    AlreadySeated,
    ChannelBusy,
    ConstraintViolation,
    StaleVersion,
    StoreError,
)
from db.languages import Languages
from db.leaving import Leaving, close_gap
from db.migrations import Dialect
from db.models import Actor, GameRow, GameStatus, SeatRow
from db.outbox import Outbox, Owed, owed_statement
from db.players import Players
from db.probe import DatabaseUnusable
from db.reads import TABLE_KEYS, Reads, Statement, Tx
from db.servers import Servers
from db.shown import SharedShown
from engine.base import Level

__all__ = ["TABLE_KEYS", "Reads", "SeatUpdate", "Store", "Tx", "is_postgres_url"]

OPEN_STATUSES = (GameStatus.LOBBY, GameStatus.ACTIVE)
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
# Seconds a claimed timer stays with its claimer. Playing a timeout takes milliseconds; a
# claimer that died holds the timer this long. A claimer still at work when its lease ends
# loses nothing: the second claimer's move fails its version check.
DEFAULT_CLAIM_LEASE = 10.0


def is_postgres_url(target: str | Path) -> bool:
    return str(target).startswith(POSTGRES_SCHEMES)


@dataclass(frozen=True, slots=True)
class SeatUpdate:
    """Per-seat bookkeeping written together with a move."""

    seat: int
    deadline: float | None
    timeouts: int
    autopilot: bool
    keep: bool = False  # only the step moves on; the seat's timer and flags stay as they are


class Store(Players, Servers, Languages, Outbox, Leaving, Reads, SharedShown):
    """Repository over one database. Create with :func:`db.open_store`; close with :meth:`close`."""

    dialect: ClassVar[Dialect]
    # Appended to the SELECT that reads a game before writing it (PostgreSQL: a row lock;
    # SQLite needs none, its writers are serialised by BEGIN IMMEDIATE).
    _row_lock: ClassVar[str] = ""
    # Appended to the SELECT of due seats in claim_due_seats.
    _claim_lock: ClassVar[str] = ""
    # One row, one column: true when the database takes writes.
    _writable_sql: ClassVar[str] = "SELECT 1 AS writable"

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Tx]:
        """A write transaction: committed on a clean exit, rolled back on any exception."""

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for reads outside any write transaction."""

    async def _write_all(self, statements: Sequence[Statement]) -> None:
        """Run ``statements`` in order in one write transaction; a statement whose ``expect``
        differs from the rows it changed rolls everything back with StaleVersion. Engines that
        can send a whole transaction in one trip override this (SQLite)."""
        async with self._transaction() as tx:
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
            async with self._transaction() as tx:
                rows = await tx.fetch(self._writable_sql)
        except (OSError, StoreError) as exc:
            raise DatabaseUnusable(str(exc)) from exc
        if not rows or not rows[0]["writable"]:
            raise DatabaseUnusable("the database takes no writes (read-only)")

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
        """A new lobby with the host in seat 0; ChannelBusy if the channel has an open game.
        The game keeps its server's turn timer setting of this moment (/settings)."""
        now = time.time()
        try:
            async with self._transaction() as tx:
                rows = await tx.fetch(
                    "INSERT INTO games (guild_id, channel_id, game, status, host_id, seed, "
                    "options, created_at, updated_at, turn_timeout) VALUES (?, ?, ?, 'lobby', "
                    "?, ?, ?, ?, ?, (SELECT turn_timeout FROM guild_settings WHERE guild_id = ?)) "
                    "RETURNING *",
                    guild_id,
                    channel_id,
                    game,
                    host_id,
                    seed,
                    options,
                    now,
                    now,
                    guild_id,
                )
                created = GameRow.from_row(rows[0])
                await tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name) VALUES (?, 0, ?, ?)",
                    created.id,
                    host_id,
                    host_name,
                )
        except ConstraintViolation as exc:
            raise ChannelBusy("this channel already has an open game") from exc
        return created

    async def add_seat(
        self,
        game_id: int,
        *,
        user_id: int | None,
        name: str,
        max_seats: int,
        is_computer: bool = False,
        accepted: bool = True,
        level: Level = Level.NORMAL,
    ) -> SeatRow | None:
        """Append a seat to a lobby (``level``: a computer's); None when the lobby is full or
        no longer a lobby."""
        try:
            async with self._transaction() as tx:
                rows = await tx.fetch(
                    f"SELECT status FROM games WHERE id = ?{self._row_lock}", game_id
                )
                if not rows or rows[0]["status"] != GameStatus.LOBBY:
                    return None
                counted = await tx.fetch(
                    "SELECT COUNT(*) AS n FROM seats WHERE game_id = ?", game_id
                )
                count = int(counted[0]["n"])
                if count >= max_seats:
                    return None
                await tx.execute(  # the lobby's last activity (idle lobbies close)
                    "UPDATE games SET updated_at = ? WHERE id = ?", time.time(), game_id
                )
                added = await tx.fetch(
                    "INSERT INTO seats (game_id, seat, user_id, name, is_computer, accepted, "
                    "level) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                    game_id,
                    count,
                    user_id,
                    name,
                    bool(is_computer),
                    bool(accepted),
                    str(level),
                )
        except ConstraintViolation as exc:
            raise AlreadySeated("already seated") from exc
        return SeatRow.from_row(added[0])

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Remove a lobby seat and close the gap so seats stay 0..n-1 in join order."""
        async with self._transaction() as tx:
            await tx.fetch(f"SELECT id FROM games WHERE id = ?{self._row_lock}", game_id)
            await tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", game_id, seat)
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", time.time(), game_id)
            await close_gap(tx, game_id, seat)

    async def accept_seat(self, game_id: int, seat: int) -> None:
        await self._update_seat(game_id, seat, accepted=True)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._update_game(game_id, lobby_message_id=message_id)

    async def set_table_message(self, game_id: int, message_id: int, key: str) -> None:
        await self._update_game(game_id, table_message_id=message_id, table_key=key)

    async def set_rendered_version(self, game_id: int, version: int) -> None:
        """Record that Discord shows ``version`` (never moves backwards)."""
        await self.set_rendered_versions({game_id: version})

    async def set_rendered_versions(self, versions: Mapping[int, int]) -> None:
        """Record, for many games in one transaction, the version Discord shows (game id ->
        version; never moves backwards)."""
        if not versions:
            return
        rows = [(version, game_id, version) for game_id, version in sorted(versions.items())]
        await self._write_all(
            [
                Statement(
                    "UPDATE games SET rendered_version = ? WHERE id = ? AND rendered_version < ?",
                    rows,
                    many=True,
                )
            ]
        )

    async def start(
        self,
        game_id: int,
        snapshot: str,
        deadlines: dict[int, float | None],
        resume_after: float | None = None,
    ) -> GameRow:
        """Lobby -> active with the engine's first snapshot (version 0); ``resume_after`` as
        in :meth:`record_move`."""
        async with self._transaction() as tx:
            rows = await tx.fetch(
                "UPDATE games SET status = 'active', snapshot = ?, version = 0, updated_at = ?, "
                "resume_after = ? WHERE id = ? AND status = 'lobby' RETURNING *",
                snapshot,
                time.time(),
                _seconds(resume_after),
                game_id,
            )
            if not rows:
                raise StaleVersion("the lobby has already started or closed")
            await tx.executemany(
                "UPDATE seats SET deadline = ?, claimed_until = NULL "
                "WHERE game_id = ? AND seat = ?",
                [(_seconds(d), game_id, seat) for seat, d in deadlines.items()],
            )
        return GameRow.from_row(rows[0])

    async def end(self, game_id: int, status: GameStatus) -> bool:
        """Close an open game as cancelled (or finished); False if it was not open."""
        now = time.time()
        async with self._transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET status = ?, updated_at = ?, ended_at = ?, resume_after = NULL "
                "WHERE id = ? AND status IN ('lobby', 'active')",
                status,
                now,
                now,
                game_id,
            )
            await tx.execute(
                "UPDATE seats SET deadline = NULL, claimed_until = NULL WHERE game_id = ?", game_id
            )
            return changed == 1

    # -- play --------------------------------------------------------------------------------

    async def record_move(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: str,
        actor: Actor,
        snapshot: str,
        seat_updates: Iterable[SeatUpdate],
        results: Sequence[tuple[int, int | None, int, bool]] | None = None,
        resume_after: float | None = None,
        owed: Sequence[Owed] = (),
    ) -> int:
        """Append one action and its snapshot atomically; returns the new version.

        Raises StaleVersion if another move was recorded since ``expected_version`` (in this
        process or any other sharing the database). ``results`` (seat, user id, total, won)
        finishes the game in the same transaction. Every seat update also releases that
        seat's timer claim. ``resume_after``: when automatic moves (computers, autopilot,
        forced) follow this one, the moment by which they should have been played. ``owed``:
        the messages the move owes its channel (db/outbox.py), claimed by this store.
        """
        now = time.time()
        new_version = expected_version + 1
        finished = results is not None
        updates = list(seat_updates)
        if seat not in {u.seat for u in updates}:  # the acting seat's step moves on regardless
            updates.append(SeatUpdate(seat, None, 0, False, keep=True))
        # The version check is the UPDATE's own condition (on PostgreSQL it takes the row
        # lock; a concurrent writer waits, then finds the version moved on).
        statements = [
            Statement(
                "UPDATE games SET snapshot = ?, version = ?, updated_at = ?, status = ?, "
                "ended_at = ?, resume_after = ? WHERE id = ? AND status = 'active' AND version = ?",
                (
                    snapshot,
                    new_version,
                    now,
                    GameStatus.FINISHED if finished else GameStatus.ACTIVE,
                    now if finished else None,
                    None if finished else _seconds(resume_after),
                    game_id,
                    expected_version,
                ),
                expect=1,
            ),
            Statement(
                "INSERT INTO actions (game_id, seq, seat, action, actor, at) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (game_id, new_version, seat, action, actor, now),
                conflict_is_stale=True,  # (game_id, seq) taken: someone else's move
            ),
            Statement(*_seat_batch(game_id, seat, updates, finished)),
        ]
        if results is not None:
            statements += [
                Statement(
                    "UPDATE seats SET deadline = NULL, claimed_until = NULL WHERE game_id = ?",
                    (game_id,),
                ),
                Statement(
                    "INSERT INTO results (game_id, seat, user_id, total, won) "
                    "VALUES (?, ?, ?, ?, ?)",
                    [(game_id, s, u, t, bool(w)) for s, u, t, w in results],
                    many=True,
                ),
            ]
        if owed:
            statements.append(owed_statement(owed, self.holder, now))
        await self._write_all(statements)
        return new_version

    async def stop_resuming(self, game_id: int, version: int) -> None:
        """The game at ``version`` has no automatic move due after all: stop looking at it."""
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE games SET resume_after = NULL WHERE id = ? AND version = ?",
                game_id,
                version,
            )

    async def claim_due_seats(
        self, now: float, limit: int = 10, *, lease: float = DEFAULT_CLAIM_LEASE
    ) -> list[SeatRow]:
        """Take up to ``limit`` seats of active games whose turn timer ran out by ``now``.

        Each seat is handed to exactly one caller, whatever the number of processes: it is
        marked ``claimed_until = now + lease`` in the same transaction that found it (rows
        another process is claiming are skipped, not waited for). The claim ends when a move
        rewrites the seat's timer (``record_move``), on ``clear_deadline`` or
        ``release_claim``; if the claimer dies, the seat is due again once the lease is over.
        """
        if limit <= 0:
            return []
        claimed: list[SeatRow] = []
        async with self._transaction() as tx:
            due = await tx.fetch(
                "SELECT s.game_id, s.seat FROM seats s JOIN games g ON g.id = s.game_id "
                "WHERE s.deadline IS NOT NULL AND s.deadline <= ? AND g.status = 'active' "
                "AND (s.claimed_until IS NULL OR s.claimed_until <= ?) "
                f"ORDER BY s.deadline, s.game_id, s.seat LIMIT ?{self._claim_lock}",
                float(now),
                float(now),
                limit,
            )
            for row in due:
                taken = await tx.fetch(
                    "UPDATE seats SET claimed_until = ? WHERE game_id = ? AND seat = ? RETURNING *",
                    float(now + lease),
                    row["game_id"],
                    row["seat"],
                )
                claimed.extend(SeatRow.from_row(r) for r in taken)
        return claimed

    async def release_claim(self, game_id: int, seat: int) -> None:
        """Give a claimed timer back without moving (it is due again at once)."""
        await self._update_seat(game_id, seat, claimed_until=None)

    async def set_seat_flags(
        self, game_id: int, seat: int, *, autopilot: bool | None = None, timeouts: int | None = None
    ) -> None:
        fields: dict[str, Any] = {}
        if autopilot is not None:
            fields["autopilot"] = bool(autopilot)
        if timeouts is not None:
            fields["timeouts"] = timeouts
        await self._update_seat(game_id, seat, **fields)

    async def clear_deadline(self, game_id: int, seat: int) -> None:
        await self._update_seat(game_id, seat, deadline=None, claimed_until=None)

    async def set_dm(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        await self._update_seat(
            game_id, seat, dm_channel_id=channel_id, dm_message_id=message_id, dm_closed=False
        )

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        await self._update_seat(game_id, seat, dm_closed=bool(closed))

    # -- helpers -----------------------------------------------------------------------------

    async def _update_game(self, game_id: int, **fields: Any) -> None:
        sets = ", ".join(f"{name} = ?" for name in fields)
        await self._write_all(
            [Statement(f"UPDATE games SET {sets} WHERE id = ?", (*fields.values(), game_id))]
        )

    async def _update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        if not fields:
            return
        sets = ", ".join(f"{name} = ?" for name in fields)
        sql = f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?"
        await self._write_all([Statement(sql, (*fields.values(), game_id, seat))])


# One row of the seats' batch: seat, deadline, timeouts, autopilot, step increment, keep.
# The casts give PostgreSQL the types (a VALUES list of bare parameters would be text);
# both engines name the columns of an unaliased VALUES list column1, column2, ...
_SEAT_ROW = (
    "(CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION), CAST(? AS INTEGER), "
    "CAST(? AS BOOLEAN), CAST(? AS INTEGER), CAST(? AS BOOLEAN))"
)


def _seat_batch(
    game_id: int, acting: int, updates: Sequence[SeatUpdate], finished: bool
) -> tuple[str, list[Any]]:
    """Every seat's bookkeeping of a move as ONE statement (UPDATE ... FROM VALUES; SQLite
    3.33+ and PostgreSQL): timers, timeouts, autopilot, the claim released, and the acting
    seat's step counter moved on."""
    args: list[Any] = []
    for u in updates:
        deadline = None if finished else _seconds(u.deadline)
        args += [u.seat, deadline, u.timeouts, bool(u.autopilot), int(u.seat == acting), u.keep]
    keep = "v.column6"
    sql = (
        "UPDATE seats SET "
        f"deadline = CASE WHEN {keep} THEN seats.deadline ELSE v.column2 END, "
        f"timeouts = CASE WHEN {keep} THEN seats.timeouts ELSE v.column3 END, "
        f"autopilot = CASE WHEN {keep} THEN seats.autopilot ELSE v.column4 END, "
        f"claimed_until = CASE WHEN {keep} THEN seats.claimed_until ELSE NULL END, "
        "step = seats.step + v.column5 "
        f"FROM (VALUES {', '.join([_SEAT_ROW] * len(updates))}) AS v "
        "WHERE seats.game_id = ? AND seats.seat = v.column1"
    )
    return sql, [*args, game_id]


def _seconds(value: float | None) -> float | None:
    return None if value is None else float(value)
