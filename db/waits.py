"""Who waits for a seat in a channel's next game (``store.waits``): the live table's **Join
the next game**, asked by someone watching a running game. The channel's next lobby takes
the channel's asks and seats whoever asked (service/lobbies.py). Asks live in the database,
so they outlast a restart and any process may open the lobby that seats them. An ask older
than :data:`WAIT_SECONDS` is forgotten: never seated, and deleted by the channel's next ask or
lobby."""

from __future__ import annotations

from db.sql import Part, Statement

WAIT_SECONDS = 3 * 3600.0  # an ask is forgotten after this long without a next game


class Waits(Part):
    """``store.waits``: asks for a seat in a channel's next game."""

    async def ask(self, channel_id: int, user_id: int, name: str, now: float, most: int) -> bool:
        """Record the user's ask (asked again: its name and time renewed); False, and nothing
        recorded, when ``most`` others already wait in the channel."""
        forgotten = now - WAIT_SECONDS
        async with self._sql.transaction() as tx:
            await tx.execute(
                "DELETE FROM next_game_waits WHERE channel_id = ? AND asked_at <= ?",
                channel_id,
                forgotten,
            )
            rows = await tx.fetch(
                "SELECT user_id FROM next_game_waits WHERE channel_id = ?", channel_id
            )
            others = sum(1 for row in rows if int(row["user_id"]) != user_id)
            if others >= most:
                return False
            await tx.execute(
                "INSERT INTO next_game_waits (channel_id, user_id, name, asked_at) "
                "VALUES (?, ?, ?, ?) ON CONFLICT (channel_id, user_id) "
                "DO UPDATE SET name = excluded.name, asked_at = excluded.asked_at",
                channel_id,
                user_id,
                name,
                now,
            )
        return True

    async def drop(self, channel_id: int, user_id: int) -> None:
        """Forget the user's ask in the channel (none: nothing to do)."""
        sql = "DELETE FROM next_game_waits WHERE channel_id = ? AND user_id = ?"
        await self._sql.write_all([Statement(sql, (channel_id, user_id))])

    async def waiting(self, channel_id: int, user_id: int, now: float) -> bool:
        """Whether the user waits for the channel's next game."""
        rows = await self._sql.fetch(
            "SELECT 1 AS one FROM next_game_waits "
            "WHERE channel_id = ? AND user_id = ? AND asked_at > ?",
            channel_id,
            user_id,
            now - WAIT_SECONDS,
        )
        return bool(rows)

    async def take(self, channel_id: int, now: float) -> list[tuple[int, str]]:
        """The channel's asks, oldest first, as (user id, name); none wait afterwards. Two
        processes taking at once: the rows go to one of them."""
        async with self._sql.transaction() as tx:
            rows = await tx.fetch(
                "DELETE FROM next_game_waits WHERE channel_id = ? "
                "RETURNING user_id, name, asked_at",
                channel_id,
            )
        forgotten = now - WAIT_SECONDS
        kept = sorted(
            (float(row["asked_at"]), int(row["user_id"]), str(row["name"]))
            for row in rows
            if float(row["asked_at"]) > forgotten
        )
        return [(user_id, name) for _, user_id, name in kept]
