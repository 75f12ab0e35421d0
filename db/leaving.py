"""Seats handed to computers when a person leaves a running game, a lobby's computers removed
or given another level, and idle lobbies closed (a Store mixin, the same SQL on both engines)."""

from __future__ import annotations

import time
from abc import abstractmethod
from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import ClassVar

from db.models import GameStatus
from db.outbox import Owed, owed_statement
from db.reads import Tx
from engine.base import Level


class Leaving:
    _row_lock: ClassVar[str] = ""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Tx]: ...

    @property
    @abstractmethod
    def holder(self) -> str:
        """The name of this store's claims on what it owes (db/outbox.py)."""

    async def hand_seat_to_computer(
        self,
        game_id: int,
        seat: int,
        *,
        name: str,
        new_host: int | None,
        resume_after: float | None = None,
        level: Level = Level.NORMAL,
        owed: Sequence[Owed] = (),
        left_total: int | None = None,
    ) -> bool:
        """The person in ``seat`` of a running game leaves it to a computer named ``name``
        playing at ``level`` (the seat keeps who left, and their name, the number of moves
        made so far and ``left_total``, their total now); ``new_host`` takes the host's
        powers.
        False if the game is not running or the seat has no person in it. ``resume_after``:
        the moment by which the computer should have moved if the seat is due (see
        ``Store.record_move``). ``owed``: the line the leave owes its channel, written with it
        (db/outbox.py)."""
        async with self._transaction() as tx:
            rows = await tx.fetch(f"SELECT status FROM games WHERE id = ?{self._row_lock}", game_id)
            if not rows or rows[0]["status"] != GameStatus.ACTIVE:
                return False
            changed = await tx.execute(
                "UPDATE seats SET left_user_id = user_id, left_name = name, user_id = NULL, "
                "is_computer = ?, name = ?, autopilot = ?, timeouts = 0, deadline = NULL, "
                "claimed_until = NULL, level = ?, left_total = ?, "
                "left_step = (SELECT COUNT(*) FROM actions a WHERE a.game_id = seats.game_id) "
                "WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL",
                True,
                name,
                False,
                str(level),
                left_total,
                game_id,
                seat,
            )
            if changed:
                await tx.execute(
                    "UPDATE games SET host_id = COALESCE(?, host_id), "
                    "resume_after = COALESCE(?, resume_after) WHERE id = ?",
                    new_host,
                    resume_after,
                    game_id,
                )
                if owed:
                    insert = owed_statement(owed, self.holder, time.time())
                    if insert.many:
                        await tx.executemany(insert.sql, insert.args)
                    else:
                        await tx.execute(insert.sql, *insert.args)
            return changed == 1

    async def leaver_dm_closed(self, game_id: int, seat: int, message_id: int) -> None:
        """The hand message ``message_id`` of the person who left ``seat`` no longer shows
        live buttons (or is gone): forget it, so that no repair looks at it again. A seat
        whose leaver still has a recorded hand message owes them its closing edit
        (``stale_games`` lists its game until then, a restart included)."""
        async with self._transaction() as tx:
            await tx.execute(
                "UPDATE seats SET dm_message_id = NULL WHERE game_id = ? AND seat = ? "
                "AND left_user_id IS NOT NULL AND dm_message_id = ?",
                game_id,
                seat,
                message_id,
            )

    async def idle_lobbies(self, idle_since: float) -> list[int]:
        """Lobbies where nothing happened since ``idle_since`` (no seat taken or given up)."""
        async with self._reading() as tx:
            rows = await tx.fetch(
                "SELECT id FROM games WHERE status = 'lobby' AND updated_at <= ? ORDER BY id",
                float(idle_since),
            )
        return [int(r["id"]) for r in rows]

    async def close_idle_lobby(self, game_id: int, idle_since: float) -> bool:
        """Cancel the lobby if it is still one and still idle; False if it moved meanwhile."""
        now = time.time()
        async with self._transaction() as tx:
            changed = await tx.execute(
                "UPDATE games SET status = 'cancelled', updated_at = ?, ended_at = ? "
                "WHERE id = ? AND status = 'lobby' AND updated_at <= ?",
                now,
                now,
                game_id,
                float(idle_since),
            )
        return changed == 1

    async def remove_lobby_computer(self, game_id: int, seat: int, name: str) -> bool:
        """Remove the computer named ``name`` in ``seat`` of a lobby and close the gap; False
        (nothing changed) if the game is no longer a lobby or that seat holds no such computer
        (removed already: a double click, an old menu)."""
        async with self._transaction() as tx:
            if not await _is_lobby(tx, game_id, self._row_lock):
                return False
            removed = await tx.execute(
                "DELETE FROM seats WHERE game_id = ? AND seat = ? AND name = ? AND is_computer = ?",
                game_id,
                seat,
                name,
                True,
            )
            if removed != 1:
                return False
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", time.time(), game_id)
            await close_gap(tx, game_id, seat)
        return True

    async def set_lobby_computer_level(
        self, game_id: int, seat: int, name: str, level: Level
    ) -> bool:
        """The computer named ``name`` in ``seat`` of a lobby now plays at ``level``; False if
        the game is no longer a lobby or that seat holds no such computer."""
        async with self._transaction() as tx:
            if not await _is_lobby(tx, game_id, self._row_lock):
                return False
            changed = await tx.execute(
                "UPDATE seats SET level = ? WHERE game_id = ? AND seat = ? AND name = ? "
                "AND is_computer = ?",
                str(level),
                game_id,
                seat,
                name,
                True,
            )
            if changed == 1:
                await tx.execute(
                    "UPDATE games SET updated_at = ? WHERE id = ?", time.time(), game_id
                )
        return changed == 1


async def _is_lobby(tx: Tx, game_id: int, row_lock: str) -> bool:
    """Whether the game is still a lobby (read under its row lock, where the engine has one)."""
    rows = await tx.fetch(f"SELECT status FROM games WHERE id = ?{row_lock}", game_id)
    return bool(rows) and rows[0]["status"] == GameStatus.LOBBY


async def close_gap(tx: Tx, game_id: int, seat: int) -> None:
    """After ``seat`` was deleted, move every later seat down one, so seats stay 0..n-1 in
    join order."""
    later = await tx.fetch(
        "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", game_id, seat
    )
    for row in later:  # ascending, so the seat below is always free
        number = int(row["seat"])
        await tx.execute(
            "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", number - 1, game_id, number
        )
