"""A game's play (``store.play``): started, its moves recorded, ended.

A move is recorded by :meth:`Play.record_move` in one transaction of three statements: write
the snapshot if the version is still the expected one (which locks the game row), append the
action (unique ``(game_id, seq)``), write every seat's bookkeeping in one UPDATE; commit, all
before anyone answers Discord. The engine may send the three in one trip (Sql.write_all).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from db.errors import StaleVersion
from db.models import Actor, GameRow, GameStatus
from db.outbox import Owed, owed_statement
from db.sql import Part, Statement, Tx, seconds, shown_read

OPEN = "status IN ('lobby', 'active')"  # the games close_game closes unless told otherwise


@dataclass(frozen=True, slots=True)
class SeatUpdate:
    """Per-seat bookkeeping written together with a move."""

    seat: int
    deadline: float | None
    timeouts: int
    autopilot: bool
    keep: bool = False  # only the step moves on; the seat's timer and flags stay as they are


async def close_game(
    tx: Tx, game_id: int, status: GameStatus, where: str = OPEN, *args: Any
) -> bool:
    """Close the game as ``status`` now if it matches ``where`` (SQL over its row, with ``?``
    marks for ``args``); False if it did not."""
    now = time.time()
    changed = await tx.execute(
        "UPDATE games SET status = ?, updated_at = ?, ended_at = ?, resume_after = NULL "
        f"WHERE id = ? AND {where}",
        status,
        now,
        now,
        game_id,
        *args,
    )
    return changed == 1


class Play(Part):
    async def start(
        self,
        game_id: int,
        snapshot: str,
        deadlines: dict[int, float | None],
        resume_after: float | None = None,
    ) -> GameRow:
        """Lobby -> active with the engine's first snapshot (version 0); ``resume_after`` as
        in :meth:`record_move`."""
        async with self._sql.transaction() as tx:
            rows = await tx.fetch(
                "UPDATE games SET status = 'active', snapshot = ?, version = 0, updated_at = ?, "
                "resume_after = ? WHERE id = ? AND status = 'lobby' RETURNING *",
                snapshot,
                time.time(),
                seconds(resume_after),
                game_id,
            )
            if not rows:
                raise StaleVersion("the lobby has already started or closed")
            await tx.executemany(
                "UPDATE seats SET deadline = ?, claimed_until = NULL "
                "WHERE game_id = ? AND seat = ?",
                [(seconds(d), game_id, seat) for seat, d in deadlines.items()],
            )
        return GameRow.from_row(rows[0])

    async def end(self, game_id: int, status: GameStatus) -> bool:
        """Close an open game as cancelled (or finished); False if it was not open."""
        async with self._sql.transaction() as tx:
            ended = await close_game(tx, game_id, status)
            await tx.execute(
                "UPDATE seats SET deadline = NULL, claimed_until = NULL WHERE game_id = ?", game_id
            )
            return ended

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
        on_shown: Callable[[list[dict[str, Any]]], None] | None = None,
    ) -> int:
        """Append one action and its snapshot atomically; returns the new version.

        Raises StaleVersion if another move was recorded since ``expected_version`` (in this
        process or any other sharing the database). ``results`` (seat, user id, total, won)
        finishes the game in the same transaction. Every seat update also releases that
        seat's timer claim. ``resume_after``: when automatic moves (computers, autopilot,
        forced) follow this one, the moment by which they should have been played. ``owed``:
        the messages the move owes its channel (db/outbox.py), claimed by this store.
        ``on_shown``: told the rows of :func:`db.sql.shown_read` (what Discord shows of the
        game) where the engine reads them in the move's own round trip (PostgreSQL), as the
        game was when the move began (db/shown.py's ``shown_from`` reads them); not told
        elsewhere.
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
                    None if finished else seconds(resume_after),
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
            statements.append(owed_statement(owed, self._sql.holder, now))
        if on_shown is None:
            await self._sql.write_all(statements)
            return new_version
        rows = await self._sql.write_and_read(statements, shown_read(game_id))
        if rows is not None:
            on_shown(rows)
        return new_version


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
        deadline = None if finished else seconds(u.deadline)
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
