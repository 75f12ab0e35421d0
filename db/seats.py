"""Who sits where once a game runs (``store.seats``): a seat's hand message, a person
leaving their seat to a computer."""

from __future__ import annotations

import time
from collections.abc import Sequence

from db.models import GameStatus
from db.outbox import Owed, owed_statement
from db.sql import Part, locked_status, update_seat
from engine.base import Level


class Seats(Part):
    async def set_dm(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        await update_seat(
            self._sql,
            game_id,
            seat,
            dm_channel_id=channel_id,
            dm_message_id=message_id,
            dm_closed=False,
        )

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        await update_seat(self._sql, game_id, seat, dm_closed=bool(closed))

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
        ``Play.record_move``). ``owed``: the line the leave owes its channel, written with it
        (db/outbox.py)."""
        async with self._sql.transaction() as tx:
            if await locked_status(self._sql, tx, game_id) != GameStatus.ACTIVE:
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
                    insert = owed_statement(owed, self._sql.holder, time.time())
                    if insert.many:
                        await tx.executemany(insert.sql, insert.args)
                    else:
                        await tx.execute(insert.sql, *insert.args)
            return changed == 1

    async def leaver_dm_closed(self, game_id: int, seat: int, message_id: int) -> None:
        """The hand message ``message_id`` of the person who left ``seat`` no longer shows
        live buttons (or is gone): forget it, so that no repair looks at it again. A seat
        whose leaver still has a recorded hand message owes them its closing edit
        (``store.shown.stale_games`` lists its game until then, a restart included)."""
        async with self._sql.transaction() as tx:
            await tx.execute(
                "UPDATE seats SET dm_message_id = NULL WHERE game_id = ? AND seat = ? "
                "AND left_user_id IS NOT NULL AND dm_message_id = ?",
                game_id,
                seat,
                message_id,
            )
