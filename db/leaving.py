"""Seats handed to computers when a person leaves a running game, and idle lobbies closed
(a Store mixin, the same SQL on both engines)."""

from __future__ import annotations

import time
from abc import abstractmethod
from contextlib import AbstractAsyncContextManager
from typing import ClassVar

from db.models import GameStatus
from db.reads import Tx
from engine.base import Level


class Leaving:
    _row_lock: ClassVar[str] = ""

    @abstractmethod
    def _transaction(self) -> AbstractAsyncContextManager[Tx]: ...

    @abstractmethod
    def _reading(self) -> AbstractAsyncContextManager[Tx]: ...

    async def hand_seat_to_computer(
        self,
        game_id: int,
        seat: int,
        *,
        name: str,
        new_host: int | None,
        resume_after: float | None = None,
        level: Level = Level.NORMAL,
    ) -> bool:
        """The person in ``seat`` of a running game leaves it to a computer named ``name``
        playing at ``level`` (the seat keeps who left, and their name); ``new_host`` takes
        the host's powers.
        False if the game is not running or the seat has no person in it. ``resume_after``:
        the moment by which the computer should have moved if the seat is due (see
        ``Store.record_move``)."""
        async with self._transaction() as tx:
            rows = await tx.fetch(f"SELECT status FROM games WHERE id = ?{self._row_lock}", game_id)
            if not rows or rows[0]["status"] != GameStatus.ACTIVE:
                return False
            changed = await tx.execute(
                "UPDATE seats SET left_user_id = user_id, left_name = name, user_id = NULL, "
                "is_computer = ?, name = ?, autopilot = ?, timeouts = 0, deadline = NULL, "
                "claimed_until = NULL, level = ? "
                "WHERE game_id = ? AND seat = ? AND user_id IS NOT NULL",
                True,
                name,
                False,
                str(level),
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
