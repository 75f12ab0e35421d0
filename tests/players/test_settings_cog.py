"""/settings is for Manage Server only; reminders go by DM once per deadline."""

from __future__ import annotations

from typing import Any
from unittest.mock import AsyncMock, MagicMock

import discord
from discord.ext import commands

from cogs.settings import SettingsCog
from db.store import Store
from service.games import GameService
from service.servers import HOUR, ServerSettings


async def test_settings_needs_manage_server_and_reminders_dm_once(store: Store) -> None:
    client = commands.Bot(command_prefix="!", intents=discord.Intents.none())
    publisher: Any = MagicMock()
    publisher.hands.dm_channel = AsyncMock(return_value=777)
    publisher.pacer.slot = AsyncMock()
    channel = MagicMock()
    channel.send = AsyncMock()
    client.get_partial_messageable = MagicMock(return_value=channel)  # type: ignore[method-assign]  # stub
    servers = ServerSettings(store, default_timeout=0)
    cog = SettingsCog(client, servers, publisher, remind_every=3600)
    await client.add_cog(cog)
    try:
        command = client.tree.get_command("settings")
        assert command is not None
        payload = command.to_dict(client.tree)
        assert payload["dm_permission"] is False
        assert (
            int(payload["default_member_permissions"])
            == discord.Permissions(manage_guild=True).value
        )

        service = GameService(store, turn_timeout=0)
        await servers.update(1, turn_timer="4h")
        lobby = await service.open_lobby(
            game="hearts", guild_id=1, channel_id=5, host_id=10, host_name="A"
        )
        await service.join(lobby.row.id, 11, "B")
        started = (await service.start(lobby.row.id, 10)).after
        deadline = next(s.deadline for s in started.seats if s.deadline is not None)
        assert deadline is not None
        assert await cog.remind_due(deadline - 2 * HOUR) == 0
        assert await cog.remind_due(deadline - HOUR + 1) == 1
        assert await cog.remind_due(deadline - 60) == 0  # once per deadline
        text = channel.send.await_args.args[0]
        assert "2-Player Hearts" in text and f"<t:{int(deadline)}:R>" in text
    finally:
        await client.close()
