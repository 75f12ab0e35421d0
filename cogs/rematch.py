"""**Play again** under a finished game's result: a new lobby for the same players.

The result message is posted by the publisher; bot.py gives it :func:`result_view`, so the
button rides on that one message (no extra message per game). A click by one of the game's
people opens the lobby in the same channel, with the computers already seated, and mentions
the others so each can join with one click.
"""

from __future__ import annotations

import logging

import discord
from discord.ext import commands

import i18n
from cogs import PlayingCog
from discordkit import to_discord
from discordkit.clicks import PLAY_AGAIN
from discordkit.client import CardBot
from discordkit.locale import public_language
from discordkit.replies import answer, answering_errors, within_budget
from discordkit.views import lobby_view
from i18n import _
from presentation.lobby import lobby_panel
from service.rematch import rematch

log = logging.getLogger(__name__)


class RematchCog(PlayingCog, commands.Cog, name="Rematch"):
    async def cog_load(self) -> None:
        self.bot.controls.on(PLAY_AGAIN, self.play_again)

    async def play_again(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        user = interaction.user
        work = rematch(
            self.service,
            game_id,
            user.id,
            user.display_name,
            channel_id=interaction.channel_id or 0,
        )
        async with answering_errors(interaction) as refused:
            made = await within_budget(interaction, work, thinking=True)
        if refused:
            return
        i18n.set_language(await public_language(interaction))  # the new lobby is public
        mentions = " ".join(f"<@{u}>" for u in made.invited)
        content = (
            _(
                "🔁 {name} wants a rematch! {mentions}: press **Join** to play again.",
                name=user.display_name,
                mentions=mentions,
            )
            if mentions
            else _("🔁 {name} wants a rematch!", name=user.display_name)
        )
        await answer(
            interaction,
            update=False,
            content=content,
            embed=to_discord.embed(
                lobby_panel(made.lobby.game, made.lobby.seats, made.lobby.row.host_id)
            ),
            view=lobby_view(
                made.lobby, computers=await self.service.computers_allowed(made.lobby.row.guild_id)
            ),
            allowed_mentions=discord.AllowedMentions(users=True),
        )
        try:
            message = await interaction.original_response()
        except discord.HTTPException:
            log.warning("could not read back the rematch lobby of game %s", made.lobby.row.id)
            return
        await self.service.showing.set_lobby_message(made.lobby.row.id, message.id)
