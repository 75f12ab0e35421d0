"""`/help`: the games this bot hosts and how to play, as a private (ephemeral) answer.

The list of games comes from the registries (``engine.GAMES`` for titles and player counts,
``presentation.UIS`` for the games that have a renderer and a /rules text), so a fifth game shows
up here without a line in this file.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from discordkit import to_discord
from discordkit.client import CardBot
from engine import GAMES
from engine.base import Game
from i18n import _, ngettext, pgettext
from presentation import UIS
from presentation.base import BLUE, GameUI, Panel
from presentation.lobby import players_needed
from presentation.titles import title_of


def how_to_play() -> str:
    """The steps of a game and the commands, in the current language."""
    steps = (
        _(
            "1. Type `/<game> start` in a server channel: a lobby opens. Friends press "
            "**Join**, anyone seated may add a computer player (easy, normal or hard) from "
            "the menu, and the host presses **Start**."
        ),
        _(
            "2. Your cards come to you by DM, with a button or menu for every move you may "
            "make; a new DM pings you when it is your turn. DMs closed? Press **My hand** on "
            "the table or type `/<game> hand`."
        ),
        _(
            "3. The channel keeps one table message up to date. When a turn timer runs out, "
            "the computer makes that move for you; twice in a row and it keeps playing for "
            "you until you press **I'm back**."
        ),
    )
    commands_ = (
        _("`/rules` a game's short rules"),
        _("`/scores` this channel's score sheet"),
        _("`/leaderboard` the server's best players"),
        _("`/stats` your games and rating"),
        _("`/history` recent games to replay"),
        _("`/language` the language I write to you in"),
        _("`/<game> leave` hands your seat to a computer"),
        _("`/<game> cancel` ends the channel's game (its host, or a member with Manage Server)."),
    )
    return (
        _("**How to play**")
        + "\n"
        + "\n".join(steps)
        + "\n\n"
        + _("**Commands**")
        + "\n"
        + " · ".join(commands_)
    )


def _players(game: Game[Any, Any]) -> str:
    if game.min_players == 1 < game.max_players:
        return ngettext("1–{n} player (solo too)", "1–{n} players (solo too)", game.max_players)
    return players_needed(game)


def help_panel(
    games: Mapping[str, Game[Any, Any]] = GAMES, uis: Mapping[str, GameUI[Any]] = UIS
) -> Panel:
    """One field per registered game that has a renderer, then how to play."""
    fields = []
    for name in sorted(uis):
        game = games[name]
        # The command as the reader's Discord shows it (Romanian and Lithuanian have their own
        # command names; Estonian and English the source ones).
        command = pgettext("command name", name)
        start = _("`/{game} start`", game=command)
        if game.max_players == 2:  # the lobby offers a direct challenge (see cogs.lobby)
            start = _("`/{game} start` or `/{game} start opponent:@someone`", game=command)
        fields.append((title_of(game), f"{_players(game)} · {start}", False))
    return Panel(
        title=_("🃏 Card games in this server"),
        description=how_to_play(),
        fields=tuple(fields),
        colour=BLUE,
    )


class HelpCog(commands.Cog, name="Help"):
    """Usable anywhere, DMs included: it only explains."""

    @app_commands.command(name="help", description="The games I host and how to play them")
    async def help_command(self, interaction: discord.Interaction[CardBot]) -> None:
        await interaction.response.send_message(
            embed=to_discord.embed(help_panel()), ephemeral=True
        )
