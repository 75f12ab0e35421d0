"""`/<game> leave` (with a confirm button) and the closing of idle lobbies.

The leave subcommand is added to each game's command group (made by the lobby cog) when this
cog loads. Confirming hands the seat to a computer player, which plays on; the table, the
other hands and a public line follow through the publisher.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from cogs import Playing, PlayingCog
from db.models import GameStatus
from discordkit.clicks import LEAVE
from discordkit.client import CardBot
from discordkit.every import Every
from discordkit.replies import answering_errors, reply, within_budget
from discordkit.views import leave_view
from engine import GAMES
from i18n import N_, _, later
from presentation.base import level_word
from presentation.titles import game_title
from service.errors import GameClosed, NotSeated
from service.leaving import close_idle_lobbies, leave_game
from service.reports import GAME_HERE

log = logging.getLogger(__name__)

SWEEP_EVERY = 60.0  # seconds between looks for idle lobbies
IDLE_CLOSED = N_("⌛ This lobby closed after 15 minutes without anyone joining or leaving.")
CONFIRM = N_(
    "Leave this game? A computer player takes your seat and plays it to the end, and the "
    "result will show that you left. This cannot be undone."
)


class LeavingCog(PlayingCog, commands.Cog, name="Leaving"):
    def __init__(self, playing: Playing, *, sweep_every: float = SWEEP_EVERY) -> None:
        super().__init__(playing)
        self._sweeps = Every(sweep_every, self.sweep, name="closing idle lobbies")

    async def cog_load(self) -> None:
        self.bot.controls.on(LEAVE, self.confirmed)
        for name in GAMES:
            group = self.bot.tree.get_command(name)
            if isinstance(group, app_commands.Group) and group.get_command("leave") is None:
                group.add_command(self._leave_command(name))
        self._sweeps.start()

    async def cog_unload(self) -> None:
        await self._sweeps.stop()

    def _leave_command(self, game_name: str) -> app_commands.Command[Any, Any, None]:
        async def leave(interaction: discord.Interaction[CardBot]) -> None:
            await self.leave_command(interaction, game_name)

        return app_commands.Command(
            name="leave",
            description="Leave this channel's running game; a computer takes your seat",
            callback=leave,
        )

    async def leave_command(
        self, interaction: discord.Interaction[CardBot], game_name: str
    ) -> None:
        work = self.service.channel_game(interaction.channel_id or 0)
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(interaction, work, ephemeral=True, thinking=True)
        if refused:
            return
        if loaded.row.game != game_name:
            await reply(
                interaction,
                _(GAME_HERE, game=game_title(loaded.row.game)),
            )
        elif loaded.row.status == GameStatus.LOBBY:
            await reply(interaction, _(GameClosed.NOT_STARTED))
        elif loaded.seat_of(interaction.user.id) is None:
            await reply(interaction, _(NotSeated.NOT_A_PLAYER))
        else:
            try:
                kwargs: dict[str, Any] = {"content": _(CONFIRM), "view": leave_view(loaded.row.id)}
                if interaction.response.is_done():
                    await interaction.edit_original_response(**kwargs)
                else:
                    await interaction.response.send_message(ephemeral=True, **kwargs)
            except discord.HTTPException as exc:
                log.warning("could not ask %s to confirm: %s", interaction.user.id, exc)

    async def confirmed(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        work = leave_game(
            self.service, game_id, interaction.user.id, channel_id=interaction.channel_id
        )
        async with answering_errors(interaction, failure=f"leaving game {game_id}") as refused:
            left = await within_budget(interaction, work)
        if refused:
            return
        text = _(
            "You left the game; {computer} 🤖 {level} plays your seat.",
            computer=left.computer,
            level=level_word(left.level),
        )
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(content=text, view=None)
            else:
                await interaction.response.edit_message(content=text, view=None)
        except discord.HTTPException as exc:
            log.warning("could not confirm the leave of %s: %s", interaction.user.id, exc)
        self.publisher.publish(left.report)

    async def sweep(self, now: float) -> int:
        """Close the idle lobbies; how many were."""
        closed = await close_idle_lobbies(self.service, now)
        for loaded in closed:
            self.publisher.close_lobby_message(loaded, later(IDLE_CLOSED))  # the server's language
        return len(closed)
