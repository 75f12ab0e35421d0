"""/history and replays: a channel's (or a player's) recent games, each replayed step by step
in a private message, and exported as a JSON file."""

from __future__ import annotations

import io
import json
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from discordkit import to_discord
from discordkit.clicks import EXPORT, REPLAY
from discordkit.client import CardBot
from discordkit.replies import answering_errors, within_budget
from discordkit.views import history_view, replay_view
from i18n import _
from presentation.replay import history_panel, replay_panels
from presentation.titles import game_title, game_titles
from service.replays import Replays

log = logging.getLogger(__name__)


class HistoryCog(commands.Cog, name="History"):
    def __init__(self, bot: CardBot, replays: Replays) -> None:
        self.bot = bot
        self.replays = replays

    async def cog_load(self) -> None:
        self.bot.controls.on(REPLAY, self.replay)
        self.bot.controls.on(EXPORT, self.export)

    @app_commands.command(name="history", description="Recent games here, to replay or export")
    @app_commands.describe(user="A player's recent games in this server (default: this channel's)")
    @app_commands.guild_only()
    async def history(
        self, interaction: discord.Interaction[CardBot], user: discord.User | None = None
    ) -> None:
        guild = interaction.guild_id or 0
        if user is None:
            work = self.replays.recent(guild, channel_id=interaction.channel_id or 0)
            whose = None  # the title says "this channel"
        else:
            work = self.replays.recent(guild, user_id=user.id)
            whose = user.display_name
        games = await within_budget(interaction, work, ephemeral=True, thinking=True)
        panel = history_panel(games, game_titles(), whose)
        kwargs: dict[str, Any] = {"embed": to_discord.embed(panel)}
        view = history_view([g.game_id for g in games])
        if view is not None:
            kwargs["view"] = view
        await _respond(interaction, new=True, **kwargs)

    async def replay(
        self, interaction: discord.Interaction[CardBot], game_id: int, step: int, way: str
    ) -> None:
        """Open (``way`` ``o``: a new private message) or step the open replay to ``step``."""
        new = way == "o"
        work = self.replays.frame(game_id, step, guild_id=interaction.guild_id or 0)
        async with answering_errors(interaction) as refused:
            frame = await within_budget(interaction, work, ephemeral=True, thinking=new)
        if refused:
            return
        await _respond(
            interaction,
            new=new,
            embeds=to_discord.embeds(replay_panels(frame)),
            view=replay_view(game_id, frame.step, frame.steps),
        )

    async def export(self, interaction: discord.Interaction[CardBot], game_id: int) -> None:
        work = self.replays.export(game_id, guild_id=interaction.guild_id or 0)
        async with answering_errors(interaction) as refused:
            data = await within_budget(interaction, work, ephemeral=True, thinking=True)
        if refused:
            return
        body = json.dumps(data, indent=1, ensure_ascii=False).encode("utf-8")
        file = discord.File(io.BytesIO(body), filename=f"{data['game']}-{game_id}.json")
        text = _(
            "{game} #{id}: seed, players, every action and the result.",
            game=game_title(data["game"]),
            id=game_id,
        )
        await _respond(interaction, new=True, content=text, attachments=[file])


async def _respond(interaction: discord.Interaction[CardBot], *, new: bool, **kwargs: Any) -> None:
    """A new private message (``new``), or an update of the clicked one; after a defer, an
    edit of the deferred response."""
    try:
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        elif new:
            files = kwargs.pop("attachments", None)
            if files:
                kwargs["files"] = files
            await interaction.response.send_message(ephemeral=True, **kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
    except discord.HTTPException as exc:
        log.warning("could not answer interaction %s: %s", interaction.id, exc)
