"""Who has the live table open (``store.presence``): a person's page in a channel, as each
process holding one of their sockets says, until a moment that process renews while the
socket stays open. A process that stops without a word leaves rows that simply run out.

A seat whose player is on the page gets no DM hand edits (delivery/hands.py): the page shows
the hand, and a DM edited on every move would be a second copy of it, costing one of Discord's
writes per move. When their last page closes, their hand is brought up to date once."""

from __future__ import annotations

from collections.abc import Iterable

from db.sql import Part, Statement

PRESENCE_SECONDS = 90.0  # a row lasts this long unless its process renews it
RENEW_SECONDS = 30.0  # how often a process renews the rows of its open sockets


class Presence(Part):
    """``store.presence``: open pages by channel and person."""

    async def here(self, pairs: Iterable[tuple[int, int]], until: float) -> None:
        """This process holds a page of each ``(user_id, channel_id)``, until ``until``."""
        rows = [(user, channel, self._sql.holder, until) for user, channel in set(pairs)]
        if not rows:
            return
        sql = (
            "INSERT INTO live_presence (user_id, channel_id, holder, until) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (channel_id, user_id, holder) DO UPDATE SET until = excluded.until"
        )
        await self._sql.write_all([Statement(sql, rows, many=True)])

    async def gone(self, user_id: int, channel_id: int) -> None:
        """This process holds no page of the user in the channel any more."""
        sql = "DELETE FROM live_presence WHERE channel_id = ? AND user_id = ? AND holder = ?"
        await self._sql.write_all([Statement(sql, (channel_id, user_id, self._sql.holder))])

    async def on_page(self, channel_id: int, now: float) -> set[int]:
        """The people with a page of the channel open (in any process) at ``now``."""
        rows = await self._sql.fetch(
            "SELECT DISTINCT user_id FROM live_presence WHERE channel_id = ? AND until > ?",
            channel_id,
            now,
        )
        return {int(r["user_id"]) for r in rows}

    async def prune(self, now: float) -> None:
        """Forget rows that ran out (a process that stopped without a word)."""
        await self._sql.write_all([Statement("DELETE FROM live_presence WHERE until <= ?", (now,))])
