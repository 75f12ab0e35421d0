"""The table in a game's channel: one message per game, edited as the game goes.

The table shows what everyone may see (piles, scores, whose turn, timers) and its buttons
(**My hand** for the players, **Watch** for anyone). Each draw takes its slot from the pacer
first; a draw that waited for its slot shows the newest state by then. A new round's layout
(its key differs) is a new message below, the old one saying the table continues there.

A channel that refuses the bot (Missing Access, Missing Permissions) is left alone for a short
while that doubles with each refusal in a row (:data:`BACKOFF`); then its tables that are
behind are drawn again (``retry``). The wait ends at once when Discord says the permission is
back (:meth:`TableMessages.permitted`: an interaction's ``app_permissions``, a channel or role
update), so a moderator's fix brings the table back within moments.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from db.models import GameStatus
from delivery.hands import cannot_edit
from delivery.pacing import Pacer
from delivery.shown import CANCELLED, GameShown
from discordkit import to_discord, views
from discordkit.rest import edit_message
from discordkit.to_discord import table_timers
from i18n import N_, _
from presentation import UIS
from presentation.base import Panel, with_timers
from presentation.viewing import Views, names_of
from service.games import GameService
from service.reports import Loaded

log = logging.getLogger(__name__)

NO_ACCESS = (50001, 50013)  # Missing Access, Missing Permissions
# Seconds a refusing channel is left alone after its 1st, 2nd, ... refusal in a row (the last
# one from then on): each retry costs one refused request, and a fix is usually heard of at
# once (permitted()).
BACKOFF = (15.0, 30.0, 60.0, 120.0, 240.0)
# What drawing a table needs in its channel: seeing it, posting, and the table's embed.
TABLE_NEEDS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
RETIRED_TABLE = N_("⬇️ This part is over; the table continues below.")


@dataclass(slots=True)
class Refused:
    """A channel that refused the bot: refusals in a row, until when it is left alone, and
    the timer that retries it then."""

    times: int = 0
    until: float = 0.0
    timer: asyncio.TimerHandle | None = None


class TableMessages:
    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        pacer: Pacer,
        views: Views,
        *,
        retry: Callable[[int], None] | None = None,
        catch_up: Callable[[GameShown], Awaitable[object]] | None = None,
        live_button: bool = False,
    ) -> None:
        """``retry`` is told a channel's id when its tables that are behind should be drawn
        again; ``catch_up`` is awaited when an edit's turn comes (as ``Hands``'s);
        ``live_button``: tables offer "Open the table" (the Activity is served)."""
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self.views = views
        self.refused: dict[int, Refused] = {}  # channel id -> its refusals
        self.retry = retry
        self.live_button = live_button
        self.catch_up = catch_up

    def blocked(self, channel_id: int) -> bool:
        refused = self.refused.get(channel_id)
        return refused is not None and time.monotonic() < refused.until

    def permitted(self, channel_id: int, permissions: discord.Permissions | None) -> bool:
        """Discord says what the bot may do in a channel (None: not known, worth a try): a
        channel that refused the bot and now allows the table is no longer left alone. True
        when that ended a wait (the caller draws the channel's tables again)."""
        refused = self.refused.get(channel_id)
        if refused is None or (permissions is not None and not permissions >= TABLE_NEEDS):
            return False
        self._forget(channel_id)
        log.info("channel %s: the bot may post again; drawing its tables", channel_id)
        return True

    def _refuse(self, channel_id: int) -> float:
        refused = self.refused.setdefault(channel_id, Refused())
        delay = BACKOFF[min(refused.times, len(BACKOFF) - 1)]
        refused.times += 1
        refused.until = time.monotonic() + delay
        if refused.timer is not None:
            refused.timer.cancel()
        refused.timer = asyncio.get_running_loop().call_later(delay, self._wait_over, channel_id)
        return delay

    def _wait_over(self, channel_id: int) -> None:
        refused = self.refused.get(channel_id)
        if refused is not None:
            refused.timer = None
            # The wait is over when its timer says so: the loop's clock (libuv's, cached per
            # iteration and in whole milliseconds) may fire it a little before
            # ``time.monotonic()`` reaches ``until``, and a retry found still blocked would
            # leave the table behind until the next repair.
            refused.until = min(refused.until, time.monotonic())
        if self.retry is not None:
            self.retry(channel_id)

    def _forget(self, channel_id: int) -> None:
        refused = self.refused.pop(channel_id, None)
        if refused is not None and refused.timer is not None:
            refused.timer.cancel()

    def kwargs(self, loaded: Loaded) -> tuple[str, dict[str, Any]]:
        """The table's layout key (a new round or layout posts a new message) and its message
        arguments, in the current language."""
        ui = UIS[loaded.row.game]
        view = self.views.of(loaded.game, loaded.state, None)
        panel = ui.table(view, names_of(loaded))
        timers = table_timers(loaded)
        if loaded.row.status == GameStatus.CANCELLED:
            panel = Panel(panel.title, _(CANCELLED), colour=panel.colour)
        elif timers and loaded.row.status == GameStatus.ACTIVE:
            panel = with_timers(panel, timers)
        live = loaded.row.status == GameStatus.ACTIVE
        table_view = views.table_view(loaded.row.id, live=self.live_button) if live else None
        return ui.table_key(view), {"embed": to_discord.embed(panel), "view": table_view}

    async def draw(self, shown: GameShown, *, urgent: bool) -> bool:
        """Show ``shown``'s newest state: edit the table message, or post a new one when the
        layout changed (the old one says the table continues below), when it is gone or too
        old to edit, or when there is none yet. False when the table was left behind: its
        channel refuses the bot and is left alone for now (the players keep their DMs)."""
        loaded = shown.loaded
        if loaded.state is None:
            return True
        channel_id = loaded.row.channel_id
        if self.blocked(channel_id):
            shown.table_behind = True
            return False
        if shown.table_drawn is loaded and shown.table_message_id is not None:
            return True  # an earlier job already showed this state (it waited for its slot)
        try:
            await self._draw(shown, loaded, urgent=urgent)
        except discord.Forbidden as exc:
            if exc.code in NO_ACCESS:
                shown.table_behind = True
                delay = self._refuse(channel_id)
                log.warning(
                    "no permission to post the table of game %s in channel %s; players keep "
                    "their DMs; trying again in %.0f s or when the permission is back",
                    loaded.row.id,
                    channel_id,
                    delay,
                )
            raise
        shown.table_behind = False
        self._forget(channel_id)  # the channel works: the next refusal waits the least
        return True

    async def _draw(self, shown: GameShown, loaded: Loaded, *, urgent: bool) -> None:
        key, kwargs = self.kwargs(loaded)
        channel_id = loaded.row.channel_id
        lane = ("ch", channel_id)
        channel = self.bot.get_partial_messageable(channel_id)
        if shown.table_message_id is not None and shown.table_key == key:
            await self.pacer.slot(lane, urgent=urgent)
            if self.catch_up is not None:
                await self.catch_up(shown)
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
                log.info("table of game %s can no longer be edited; posting anew", loaded.row.id)
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
        shown.table_message_id, shown.table_key = sent.id, key
        shown.table_drawn = loaded
        await self.service.showing.set_table_message(loaded.row.id, sent.id, key)
