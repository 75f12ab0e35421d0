"""Every game's command group gets `leave`; the sweep closes idle lobbies in Discord too."""

from __future__ import annotations

import time
from typing import Any, cast
from unittest.mock import MagicMock

import discord
from discord import app_commands

from cogs import Playing
from cogs.leaving import IDLE_CLOSED, LeavingCog
from cogs.lobby import LobbyCog
from cogs.table import TableCog
from db.store import Store
from discordkit.client import CardBot
from engine import GAMES
from service.games import GameService


async def test_leave_in_every_group_and_idle_lobbies_closed(store: Store) -> None:
    client = CardBot(command_prefix="!", intents=discord.Intents.none())
    none = cast(Any, None)
    service = GameService(store, turn_timeout=0)
    publisher: Any = MagicMock()
    table = TableCog(Playing(client, none, none, none))
    await client.add_cog(table)
    await client.add_cog(LobbyCog(Playing(client, none, none, none), table))
    cog = LeavingCog(Playing(client, service, publisher, none), sweep_every=3600)
    await client.add_cog(cog)
    try:
        for name in GAMES:
            group = client.tree.get_command(name)
            assert isinstance(group, app_commands.Group) and group.get_command("leave")
        lobby = await service.open_lobby(
            game="hearts", guild_id=1, channel_id=5, host_id=1, host_name="A"
        )
        assert await cog.sweep(time.time()) == 0
        assert await cog.sweep(time.time() + 16 * 60) == 1
        closed, text = publisher.close_lobby_message.call_args.args
        assert closed.row.id == lobby.row.id and str(text) == IDLE_CLOSED
        assert (await store.games.game(lobby.row.id)).status == "cancelled"
    finally:
        await client.close()
