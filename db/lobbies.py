"""Lobbies (``store.lobbies``): created, seats taken, given up and accepted, computers
removed or given another level, idle ones closed. Seats stay 0..n-1 in join order."""

from __future__ import annotations

import time

from db.errors import AlreadySeated, ChannelBusy, ConstraintViolation
from db.models import GameRow, GameStatus, SeatRow
from db.play import close_game
from db.sql import Part, Tx, locked_status, update_game, update_seat
from engine.base import Level


class Lobbies(Part):
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
            async with self._sql.transaction() as tx:
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
            async with self._sql.transaction() as tx:
                if await locked_status(self._sql, tx, game_id) != GameStatus.LOBBY:
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
        async with self._sql.transaction() as tx:
            await locked_status(self._sql, tx, game_id)  # the lock only
            await tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", game_id, seat)
            await tx.execute("UPDATE games SET updated_at = ? WHERE id = ?", time.time(), game_id)
            await close_gap(tx, game_id, seat)

    async def accept_seat(self, game_id: int, seat: int) -> None:
        await update_seat(self._sql, game_id, seat, accepted=True)

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await update_game(self._sql, game_id, lobby_message_id=message_id)

    async def idle_lobbies(self, idle_since: float) -> list[int]:
        """Lobbies where nothing happened since ``idle_since`` (no seat taken or given up)."""
        rows = await self._sql.fetch(
            "SELECT id FROM games WHERE status = 'lobby' AND updated_at <= ? ORDER BY id",
            float(idle_since),
        )
        return [int(r["id"]) for r in rows]

    async def close_idle_lobby(self, game_id: int, idle_since: float) -> bool:
        """Cancel the lobby if it is still one and still idle; False if it moved meanwhile."""
        idle = "status = 'lobby' AND updated_at <= ?"
        async with self._sql.transaction() as tx:
            return await close_game(tx, game_id, GameStatus.CANCELLED, idle, float(idle_since))

    async def remove_lobby_computer(self, game_id: int, seat: int, name: str) -> bool:
        """Remove the computer named ``name`` in ``seat`` of a lobby and close the gap; False
        (nothing changed) if the game is no longer a lobby or that seat holds no such computer
        (removed already: a double click, an old menu)."""
        async with self._sql.transaction() as tx:
            if await locked_status(self._sql, tx, game_id) != GameStatus.LOBBY:
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
        async with self._sql.transaction() as tx:
            if await locked_status(self._sql, tx, game_id) != GameStatus.LOBBY:
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
