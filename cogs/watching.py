"""**Watch** on the table: the spectator's view of a game, privately, following the table.

Anyone in the channel may press it. The answer is an ephemeral message drawn by the game's
own table renderer from the spectator's view (``view(state, None)``), so it shows exactly
what the public table shows and never a hidden card. After each table draw the open
spectator messages are edited too (coalesced, paced like every other call), for as long as
their interaction token lasts; **Refresh** redraws one at once and renews it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import Any

import discord
from discord.ext import commands

import i18n
from aio.tasks import cancel_and_wait
from cogs import Playing, PlayingCog
from db.models import GameStatus
from discordkit import to_discord
from discordkit.clicks import WATCH
from discordkit.client import CardBot
from discordkit.replies import answering_errors, within_budget
from discordkit.to_discord import table_timers
from discordkit.views import watch_view
from i18n import N_, _
from presentation import UIS
from presentation.base import onlookers, with_timers
from presentation.viewing import names_of
from service.errors import NoGame
from service.reports import Loaded

log = logging.getLogger(__name__)

FOLLOW_SECONDS = 14 * 60.0  # an interaction's token lasts 15 minutes
COALESCE_SECONDS = 1.0  # table draws within this time become one edit per spectator
HEADER = N_("👀 The table as a spectator sees it (only you see this message).")


@dataclass(slots=True)
class Watcher:
    interaction: discord.Interaction[CardBot]
    since: float
    language: str = i18n.DEFAULT  # the spectator's own (the view is private to them)


def watch_kwargs(loaded: Loaded) -> dict[str, Any]:
    """The spectator's message: the public table of the game's latest state."""
    if loaded.state is None:
        raise NoGame("This game has not started yet.")
    view = loaded.game.view(loaded.state, None)
    panel = onlookers(UIS[loaded.row.game].table(view, names_of(loaded)))
    timers = table_timers(loaded)
    if timers and loaded.row.status == GameStatus.ACTIVE:  # as the table shows them
        panel = with_timers(panel, timers)
    buttons = watch_view(loaded.row.id, live=loaded.row.status == GameStatus.ACTIVE)
    return {"content": _(HEADER), "embed": to_discord.embed(panel), "view": buttons}


class WatchCog(PlayingCog, commands.Cog, name="Watch"):
    def __init__(self, playing: Playing, *, coalesce: float = COALESCE_SECONDS) -> None:
        super().__init__(playing)
        self.coalesce = coalesce
        self.watchers: dict[int, dict[int, Watcher]] = {}
        self._latest: dict[int, Loaded] = {}
        self._tasks: dict[int, asyncio.Task[None]] = {}

    async def cog_load(self) -> None:
        self.bot.controls.on(WATCH, self.watch)
        self.publisher.table_drawn.append(self.table_drawn)

    async def cog_unload(self) -> None:
        with contextlib.suppress(ValueError):
            self.publisher.table_drawn.remove(self.table_drawn)
        await cancel_and_wait(*self._tasks.values())

    async def watch(
        self, interaction: discord.Interaction[CardBot], game_id: int, way: str
    ) -> None:
        """Watch (``way`` ``n``: a new private message) or Refresh (the open one)."""
        new = way == "n"
        work = self.service.load(game_id)
        async with answering_errors(interaction) as refused:
            loaded = await within_budget(interaction, work, ephemeral=True, thinking=new)
            kwargs = watch_kwargs(loaded)
        if refused:
            return
        try:
            if interaction.response.is_done():
                await interaction.edit_original_response(**kwargs)
            elif new:
                await interaction.response.send_message(ephemeral=True, **kwargs)
            else:
                await interaction.response.edit_message(**kwargs)
        except discord.HTTPException as exc:
            log.warning("could not show game %s to a spectator: %s", game_id, exc)
            return
        if loaded.row.status == GameStatus.ACTIVE:
            followers = self.watchers.setdefault(game_id, {})
            followers[interaction.user.id] = Watcher(interaction, time.monotonic(), i18n.current())

    def table_drawn(self, loaded: Loaded) -> None:
        """The publisher drew a table: the game's spectators follow (one edit per burst)."""
        game_id = loaded.row.id
        if game_id not in self.watchers:
            return
        self._latest[game_id] = loaded
        if game_id not in self._tasks:
            self._tasks[game_id] = asyncio.create_task(self._follow(game_id))

    async def _follow(self, game_id: int) -> None:
        try:
            while game_id in self._latest:
                await asyncio.sleep(self.coalesce)
                loaded = self._latest.pop(game_id)
                await self._redraw(loaded)
        except Exception:  # a spectator's message must never disturb the game
            log.exception("spectators of game %s not updated", game_id)
        finally:
            self._tasks.pop(game_id, None)

    async def _redraw(self, loaded: Loaded) -> None:
        game_id = loaded.row.id
        followers = self.watchers.get(game_id, {})
        drawn: dict[str, dict[str, Any]] = {}  # per language
        now = time.monotonic()
        for user_id, watcher in list(followers.items()):
            if now - watcher.since > FOLLOW_SECONDS:
                followers.pop(user_id, None)
                continue
            try:
                if watcher.language not in drawn:
                    with i18n.using(watcher.language):
                        drawn[watcher.language] = watch_kwargs(loaded)
                await self.publisher.pacer.slot(None, urgent=False)
                await watcher.interaction.edit_original_response(**drawn[watcher.language])
            except discord.HTTPException:
                log.info("spectator %s of game %s no longer followed", user_id, game_id)
                followers.pop(user_id, None)
        if loaded.row.status != GameStatus.ACTIVE or not followers:
            self.watchers.pop(game_id, None)
