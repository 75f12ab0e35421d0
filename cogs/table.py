"""In-game flow shared by every game: moves, hands, scores and rules.

A move's click goes to the move desk (delivery/moves.py), which answers it by its own
interaction response, carrying the clicker's updated hand (one call, exempt from Discord's
rate limits), and queues everything else the move changed with the publisher.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands
from discord.ext import commands

import i18n
from cogs import PlayingCog
from delivery.moves import ANSWER_PICTURE_WAIT, ClickAnswer, Play
from discordkit import to_discord
from discordkit.clicks import BACK, HAND, MOVE
from discordkit.client import CardBot
from discordkit.locale import public_language
from discordkit.replies import answer, answering_errors, reply, within_budget
from discordkit.waiting import first_done
from engine import GAMES
from i18n import _
from presentation import UIS
from presentation.titles import game_title
from presentation.viewing import names_of
from service.errors import NoGame
from service.reports import GAME_HERE, OTHER_CHANNEL, Loaded

log = logging.getLogger(__name__)


class TableCog(PlayingCog, commands.Cog, name="Table"):
    async def cog_load(self) -> None:
        self.bot.controls.on(MOVE, self.on_move)
        self.bot.controls.on(HAND, self.send_hand)
        self.bot.controls.on(BACK, self.on_back)

    # -- buttons -------------------------------------------------------------------------

    async def on_move(
        self, interaction: discord.Interaction[CardBot], game_id: int, step: int, action: str
    ) -> None:
        """A move's button or select: played and answered by the move desk."""
        move = Play(game_id, interaction.user.id, step, action)
        await self.desk.play(move, ClickAnswer(interaction))

    async def on_back(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        async with answering_errors(interaction) as refused:
            report = await within_budget(
                interaction,
                self.service.come_back(game_id, interaction.user.id),
                ephemeral=True,
                thinking=True,
            )
        if refused:
            return
        await reply(interaction, _("Welcome back! Autopilot is off."))  # for the clicker alone
        if report.after is not report.before:
            self.publisher.publish(report)

    async def send_hand(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        """The player's hand and buttons as an ephemeral message."""
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(
                interaction, self.service.load(game_id), ephemeral=True, thinking=True
            )
        if refused:
            return
        if interaction.channel_id != loaded.row.channel_id:
            await reply(interaction, _(OTHER_CHANNEL))
            return
        seat = loaded.seat_of(interaction.user.id)
        if seat is None and loaded.left_by(interaction.user.id):
            left = _("You left this game; a computer player plays your seat now.")
            await reply(interaction, left)
            return
        if seat is None:
            await reply(interaction, _("You are not playing in this game."))
            return
        if loaded.state is None:
            await reply(interaction, _("The game has not started yet."))
            return
        kwargs = self.desk.hand(loaded, seat)
        # On the seat's turn the answer carries the hand's picture, as the turn's DM would (for
        # a player whose DMs are closed it is the only hand they have). It rides on the answer
        # when drawn within ANSWER_PICTURE_WAIT; otherwise the text goes first (Discord's 3 s)
        # and the picture is edited in once drawn.
        drawing = asyncio.ensure_future(self.desk.hand_picture(loaded, seat.seat))
        await first_done(drawing, timeout=ANSWER_PICTURE_WAIT)
        late = not drawing.done()
        if not late:
            kwargs = {**kwargs, **drawing.result()}
        if interaction.response.is_done():
            sent = await interaction.followup.send(ephemeral=True, wait=True, **kwargs)
            edit: Callable[..., Awaitable[object]] = sent.edit
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)
            edit = interaction.edit_original_response
        if late:
            files = (await drawing).get("files")
            if files:
                try:
                    await edit(attachments=files)
                except discord.HTTPException as exc:
                    log.warning("could not add the hand picture to %s: %s", interaction.id, exc)

    # -- commands ------------------------------------------------------------------------

    async def channel_game_named(
        self, interaction: discord.Interaction[CardBot], game_name: str
    ) -> Loaded | None:
        """The channel's open game if it is ``game_name``; otherwise say why and return None."""
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(
                interaction,
                self.service.channel_game(interaction.channel_id or 0),
                ephemeral=True,
                thinking=True,
            )
        if refused:
            return None
        if loaded.row.game != game_name:
            await reply(
                interaction,
                _(GAME_HERE, game=game_title(loaded.row.game)),
            )
            return None
        return loaded

    async def hand_command(self, interaction: discord.Interaction[CardBot], game_name: str) -> None:
        loaded = await self.channel_game_named(interaction, game_name)
        if loaded is not None:
            await self.send_hand(interaction, loaded.row.id)

    @app_commands.command(name="scores", description="Show the score sheet of this channel's game")
    @app_commands.guild_only()
    async def scores(self, interaction: discord.Interaction[CardBot]) -> None:
        try:
            loaded = await within_budget(
                interaction,
                self.service.channel_game(interaction.channel_id or 0, finished_too=True),
                thinking=True,
            )
        except NoGame:
            await reply(interaction, _("No game has been played in this channel yet."))
            return
        if loaded.state is None:
            await reply(interaction, _("The game in this channel has not started yet."))
            return
        i18n.set_language(await public_language(interaction))  # the sheet is shown to all
        view = loaded.game.view(loaded.state, None)
        panel = UIS[loaded.row.game].scores(view, names_of(loaded))
        await answer(interaction, update=False, embed=to_discord.embed(panel))

    @app_commands.command(name="rules", description="A short summary of a game's rules")
    @app_commands.describe(game="Which game")
    @app_commands.choices(
        game=[app_commands.Choice(name=g.title, value=n) for n, g in sorted(GAMES.items())]
    )
    async def rules(self, interaction: discord.Interaction[CardBot], game: str) -> None:
        ui = UIS.get(game)
        if ui is None:
            await reply(interaction, _("I don't know that game."))
            return
        await interaction.response.send_message(embed=to_discord.embed(ui.rules()), ephemeral=True)
