"""The table in a game's channel: one message per game, edited as the game goes.

The table shows what everyone may see (piles, scores, whose turn, timers) and its buttons
(**My hand** for the players, **Watch** for anyone). Each draw takes its slot from the pacer
first; a draw that waited for its slot shows the newest state by then. A new round's layout
(its key differs) is a new message below, the old one saying the table continues there; a
channel that refuses the bot is left alone for :data:`BLOCKED_SECONDS`.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

from cogs.utils import controls, to_discord
from cogs.utils.rest import edit_message
from db.models import GameStatus
from delivery.hands import cannot_edit
from delivery.pacing import Pacer
from delivery.shown import GameShown, Views, names_of, table_timers
from i18n import N_, _
from presentation import UIS
from presentation.base import Panel, with_timers
from service.games import GameService
from service.reports import Loaded

log = logging.getLogger(__name__)

NO_ACCESS = (50001, 50013)  # Missing Access, Missing Permissions
BLOCKED_SECONDS = 600.0  # after a refusal, leave the channel alone this long
RETIRED_TABLE = N_("⬇️ This part is over; the table continues below.")


class TableMessages:
    def __init__(
        self, bot: discord.Client, service: GameService, pacer: Pacer, views: Views
    ) -> None:
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self.views = views

    def kwargs(self, loaded: Loaded) -> tuple[str, dict[str, Any]]:
        """The table's layout key (a new round or layout posts a new message) and its message
        arguments, in the current language."""
        ui = UIS[loaded.row.game]
        view = self.views.of(loaded.game, loaded.state, None)
        panel = ui.table(view, names_of(loaded))
        timers = table_timers(loaded)
        if loaded.row.status == GameStatus.CANCELLED:
            panel = Panel(panel.title, _("🛑 This game was cancelled."), colour=panel.colour)
        elif timers and loaded.row.status == GameStatus.ACTIVE:
            panel = with_timers(panel, timers)
        live = loaded.row.status == GameStatus.ACTIVE
        table_view = controls.table_view(loaded.row.id) if live else None
        return ui.table_key(view), {"embed": to_discord.embed(panel), "view": table_view}

    async def draw(self, shown: GameShown, *, urgent: bool) -> None:
        """Show ``shown``'s newest state: edit the table message, or post a new one when the
        layout changed (the old one says the table continues below), when it is gone or too
        old to edit, or when there is none yet. A channel that refuses the bot is left alone
        for a while; the players keep their DMs."""
        loaded = shown.loaded
        if loaded.state is None or time.monotonic() < shown.table_blocked_until:
            return
        if shown.table_drawn is loaded and shown.table_message_id is not None:
            return  # an earlier job already showed this state (it waited for its slot)
        key, kwargs = self.kwargs(loaded)
        channel_id = loaded.row.channel_id
        lane = ("ch", channel_id)
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            if shown.table_message_id is not None and shown.table_key == key:
                await self.pacer.slot(lane, urgent=urgent)
                if shown.loaded is not loaded:  # moves came while this edit waited
                    newer = self.kwargs(shown.loaded)
                    if newer[0] == key:
                        loaded, kwargs = shown.loaded, newer[1]
                try:
                    await edit_message(self.bot, channel_id, shown.table_message_id, **kwargs)
                    shown.table_drawn = loaded
                    return
                except discord.HTTPException as exc:
                    if not cannot_edit(exc):
                        raise
                    log.info(
                        "table of game %s can no longer be edited; posting anew", loaded.row.id
                    )
                    shown.table_message_id = None
            elif shown.table_message_id is not None:
                if loaded.row.status != GameStatus.ACTIVE:
                    return  # the final state is shown by the result message
                await self.pacer.slot(lane, urgent=urgent)
                try:  # a new round: the old table gives way
                    await edit_message(
                        self.bot,
                        channel_id,
                        shown.table_message_id,
                        content=_(RETIRED_TABLE),
                        view=None,
                    )
                except discord.HTTPException:
                    log.info("could not retire the old table of game %s", loaded.row.id)
            await self.pacer.slot(lane, urgent=urgent)
            sent = await channel.send(**kwargs)
        except discord.Forbidden as exc:
            if exc.code in NO_ACCESS:
                shown.table_blocked_until = time.monotonic() + BLOCKED_SECONDS
                log.warning(
                    "no permission to post the table of game %s in channel %s; players keep "
                    "their DMs",
                    loaded.row.id,
                    loaded.row.channel_id,
                )
            raise
        shown.table_message_id, shown.table_key = sent.id, key
        shown.table_drawn = loaded
        await self.service.showing.set_table_message(loaded.row.id, sent.id, key)
