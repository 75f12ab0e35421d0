"""The slash-command tree as Discord would receive it: /help, guild-only flags, permissions."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, cast
from unittest.mock import AsyncMock, MagicMock

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from cogs import Playing
from cogs.help import HelpCog, help_panel
from cogs.lobby import LobbyCog
from cogs.table import TableCog
from discordkit.client import CardBot
from engine import GAMES
from presentation import UIS


@pytest.fixture
async def bot() -> AsyncIterator[commands.Bot]:
    """The cogs' commands on a bot that never logs in (services are not needed to list them)."""
    client = CardBot(command_prefix="!", intents=discord.Intents.none())
    none = cast(Any, None)
    playing = Playing(client, none, none, none)
    table = TableCog(playing)
    await client.add_cog(table)
    await client.add_cog(LobbyCog(playing, table))
    await client.add_cog(HelpCog())
    yield client
    await client.close()


def _payload(client: commands.Bot, name: str) -> dict[str, Any]:
    command = client.tree.get_command(name)
    assert command is not None, f"/{name} is not registered"
    return command.to_dict(client.tree)


def test_help_lists_every_registered_game_from_the_registries() -> None:
    panel = help_panel()
    titles = [name for name, _, _ in panel.fields]
    assert titles == [GAMES[name].title for name in sorted(UIS)]
    values = dict((name, value) for name, value, _ in panel.fields)
    for name in UIS:
        assert f"`/{name} start`" in values[GAMES[name].title]
    assert "`/hearts start opponent:@someone`" in values["2-Player Hearts"]
    assert values["Ten"].startswith("1–5 players (solo too)")
    assert values["Grinch Grow Your Heart"].startswith("2–6 players")
    for words in ("How to play", "Join", "My hand", "/rules", "/scores", "cancel"):
        assert words in panel.description


def test_help_follows_the_registry_not_a_fixed_list() -> None:
    only = {"ten": UIS["ten"]}
    assert [name for name, _, _ in help_panel(GAMES, only).fields] == ["Ten"]


async def test_help_is_private_and_works_in_dms(bot: commands.Bot) -> None:
    payload = _payload(bot, "help")
    assert payload.get("dm_permission", True) is True  # useful anywhere
    assert payload.get("default_member_permissions") is None
    interaction = MagicMock()
    interaction.response.send_message = AsyncMock()
    command = bot.tree.get_command("help")
    assert isinstance(command, app_commands.Command)
    await command.callback(bot.get_cog("Help"), interaction)  # type: ignore[arg-type]  # mocks
    kwargs = interaction.response.send_message.await_args.kwargs
    assert kwargs["ephemeral"] is True
    embed: discord.Embed = kwargs["embed"]
    assert [f.name for f in embed.fields] == [GAMES[n].title for n in sorted(UIS)]


async def test_game_groups_are_guild_only_and_cancel_stays_open_to_hosts(
    bot: commands.Bot,
) -> None:
    for name in GAMES:
        payload = _payload(bot, name)
        assert payload["dm_permission"] is False
        # Discord would hide the whole group, `cancel` included, from a host without the
        # permission; the service lets the host (or Manage Server) cancel instead.
        assert payload.get("default_member_permissions") is None
        subcommands = {option["name"] for option in payload["options"]}
        assert {"start", "hand", "cancel"} <= subcommands


async def test_rules_works_in_dms(bot: commands.Bot) -> None:
    assert _payload(bot, "rules").get("dm_permission", True) is True


async def test_scores_is_guild_only(bot: commands.Bot) -> None:
    assert _payload(bot, "scores")["dm_permission"] is False
