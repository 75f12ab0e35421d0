"""What Discord shows of each game, as the store keeps it: the delivery layer's one port to it.

The publisher and the cogs record here which messages show a game (the lobby, the table, each
player's DM), which DM channels and closed DMs they met, and which version of a game its messages
show; with several processes on one database, they read the other processes' message ids and
take a game's table claim here too. Nothing above the service reaches the store itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Mapping
from contextlib import AbstractAsyncContextManager
from pathlib import Path

from db.generation import keep, last_seen, new_token
from db.presence import PRESENCE_SECONDS, RENEW_SECONDS
from db.shown import ShownIds, TableIds
from db.store import Store

__all__ = ["RENEW_SECONDS", "Showing", "ShownIds", "TableIds"]


class Showing:
    """The message ids and shown versions of every game (one per bot, over its store)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    @property
    def shared(self) -> bool:
        """Other processes may show the same games (the store is PostgreSQL)."""
        return self._store.dialect == "postgres"

    async def set_lobby_message(self, game_id: int, message_id: int) -> None:
        await self._store.lobbies.set_lobby_message(game_id, message_id)

    async def set_table_message(
        self,
        game_id: int,
        message_id: int,
        key: str,
        head: str | None = None,
        retiring: str | None = None,
    ) -> None:
        await self._store.shown.set_table_message(game_id, message_id, key, head, retiring)

    async def set_retiring_tables(self, game_id: int, retiring: str | None) -> None:
        await self._store.shown.set_retiring_tables(game_id, retiring)

    async def set_dm(
        self, game_id: int, seat: int, *, channel_id: int | None, message_id: int | None
    ) -> None:
        await self._store.seats.set_dm(game_id, seat, channel_id=channel_id, message_id=message_id)

    async def set_dm_closed(self, game_id: int, seat: int, closed: bool) -> None:
        await self._store.seats.set_dm_closed(game_id, seat, closed)

    async def leaver_dm_closed(self, game_id: int, seat: int, message_id: int) -> None:
        """The leaver of ``seat`` was shown their hand closed in ``message_id`` (or it is gone)."""
        await self._store.seats.leaver_dm_closed(game_id, seat, message_id)

    async def dm_channel_of(self, user_id: int) -> int | None:
        """The DM channel last used with this user, if any game recorded one."""
        return await self._store.games.dm_channel_of(user_id)

    async def set_rendered_versions(self, versions: Mapping[int, int]) -> None:
        """Record the version each game's messages show (game id -> version), in one write."""
        await self._store.shown.set_rendered_versions(versions)

    async def set_shown_versions(
        self, tables: Mapping[int, int], dms: Mapping[tuple[int, int], int]
    ) -> None:
        """Record the version each game's table (game id -> version) and each player's DM
        ((game id, seat) -> version) shows, in one write."""
        await self._store.shown.set_shown_versions(tables, dms)

    async def restored(self, kept: Path) -> bool:
        """Whether this database is another copy than the one the bot last ran on, as the
        token kept in ``kept`` says (a restored backup: see db.generation); a new token is
        set either way."""
        found = await self._store.shown.generation()
        seen = await asyncio.to_thread(last_seen, kept)
        if seen != found:  # recorded before the new token: a crash still redraws them
            await self._store.shown.forget_shown()
        token = new_token()
        await self._store.shown.set_generation(token)
        await asyncio.to_thread(keep, kept, token)
        return seen != found

    async def shown_ids(self, game_id: int) -> ShownIds | None:
        return await self._store.shown.shown_ids(game_id)

    def table_claim(self, game_id: int) -> AbstractAsyncContextManager[TableIds]:
        """Hold the game's table for one process at a time (shared store; SQLite: no-op)."""
        return self._store.shown.table_claim(game_id)

    # -- the live table's open pages (db/presence.py) --------------------------------------

    async def on_page(self, channel_id: int, now: float) -> set[int]:
        """The people with the channel's live table open at ``now`` (unix seconds)."""
        return await self._store.presence.on_page(channel_id, now)

    async def page_open(self, pairs: Iterable[tuple[int, int]], now: float) -> None:
        """This process holds an open page of each ``(user_id, channel_id)`` at ``now`` (unix
        seconds): recorded for ``PRESENCE_SECONDS``, renewed every ``RENEW_SECONDS``."""
        await self._store.presence.here(pairs, now + PRESENCE_SECONDS)

    async def page_closed(self, user_id: int, channel_id: int) -> None:
        await self._store.presence.gone(user_id, channel_id)
