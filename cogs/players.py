"""The players' layer in Discord: /leaderboard and /stats (ratings are the service's).

The leaderboard is public (it is the server's) and turns pages in place; /stats is private.
Both acknowledge within the budget before the database work can hold them up.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from discordkit import to_discord
from discordkit.clicks import BOARD_PAGE
from discordkit.client import CardBot
from discordkit.locale import public_language
from discordkit.replies import answering_errors, within_budget
from discordkit.views import board_view
from engine import GAMES
from presentation.players import board_panel, stats_panel
from presentation.titles import game_titles
from service.boards import Boards
from service.ratings import NEW_PLAYER, Ratings

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=g.title, value=n) for n, g in sorted(GAMES.items())]


async def _send(interaction: discord.Interaction[CardBot], *, private: bool, **kwargs: Any) -> None:
    """The command's answer: its response, or an edit of the deferred one."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.send_message(ephemeral=private, **kwargs)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)


class PlayersCog(commands.Cog, name="Players"):
    def __init__(self, bot: CardBot, boards: Boards, ratings: Ratings) -> None:
        self.bot = bot
        self.boards = boards
        self.ratings = ratings

    async def cog_load(self) -> None:
        self.bot.controls.on(BOARD_PAGE, self.board_page)
        try:
            caught = await self.ratings.catch_up()
        except Exception:  # ratings can be rebuilt; never keep the bot from starting
            log.exception("could not catch up on unrated games")
        else:
            if caught:
                log.info("rated %d games finished before the last stop", caught)

    @app_commands.command(name="leaderboard", description="This server's best players of a game")
    @app_commands.describe(game="Which game (default: the most played one)")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction[CardBot], game: str | None = None
    ) -> None:
        guild = interaction.guild_id or 0
        async with answering_errors(interaction) as refused:
            page = await within_budget(
                interaction, self.boards.leaderboard(guild, game), thinking=True
            )
        if refused:
            return
        i18n.set_language(await public_language(interaction))  # the board is shown to all
        view = board_view(page.game, page.page, page.pages)
        extra: dict[str, Any] = {} if view is None else {"view": view}
        await _send(
            interaction,
            private=False,
            embed=to_discord.embed(board_panel(page, game_titles(), start=NEW_PLAYER)),
            **extra,
        )

    async def board_page(
        self, interaction: discord.Interaction[CardBot], game: str, page: int, _way: str
    ) -> None:
        """Previous or next (``_way``) was pressed: show ``page``."""
        guild = interaction.guild_id or 0
        async with answering_errors(interaction) as refused:
            found = await within_budget(interaction, self.boards.leaderboard(guild, game, page))
        if refused:
            return
        i18n.set_language(await public_language(interaction))  # the board is shown to all
        kwargs: dict[str, Any] = {
            "embed": to_discord.embed(board_panel(found, game_titles(), start=NEW_PLAYER)),
            "view": board_view(found.game, found.page, found.pages),
        }
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
        except discord.HTTPException as exc:
            log.warning("could not turn leaderboard page %s: %s", interaction.id, exc)

    @app_commands.command(name="stats", description="A player's games, scores and ratings here")
    @app_commands.describe(user="Whose stats (default: yours)", game="Only this game")
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def stats(
        self,
        interaction: discord.Interaction[CardBot],
        user: discord.User | None = None,
        game: str | None = None,
    ) -> None:
        who = user.id if user is not None else interaction.user.id
        found = await within_budget(
            interaction,
            self.boards.stats(interaction.guild_id or 0, who, game),
            ephemeral=True,
            thinking=True,
        )
        await _send(
            interaction,
            private=True,
            embed=to_discord.embed(stats_panel(found, game_titles(), start=NEW_PLAYER)),
        )
