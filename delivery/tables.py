"""The table in a game's channel: one message per game, edited as the game goes.

The table shows what everyone may see (piles, scores, whose turn, timers) and its buttons
(**My hand** for the players, **Watch** for anyone). Each draw takes its slot from the pacer
first; a draw that waited for its slot shows the newest state by then.

A round that ends moves the table to a new message below, which carries the round's summary
(delivery/owed.py) above the table: one write where a summary and a new table would be two,
in a channel that allows about one a second. Every edit of it sends the summary again (Discord
replaces a message's embeds whole; they are recorded with the table's id, for a restart and
for the other processes), and its picture stays (an edit without attachments keeps them). The
message it replaces is retired when its channel has nothing else to send: it loses its buttons
and keeps the summary it carried, so the channel reads as one summary per round with the live
table under the last. A new layout without a summary (a new message, too) retires the old one
the same way (delivery/retiring.py).

A channel that refuses the bot (Missing Access, Missing Permissions) is left alone for a short
while that doubles with each refusal in a row (:data:`BACKOFF`); then its tables that are
behind are drawn again (``retry``). The wait ends at once when Discord says the permission is
back (:meth:`TableMessages.permitted`: an interaction's ``app_permissions``, a channel or role
update), so a moderator's fix brings the table back within moments.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

import discord

from db.models import GameStatus
from delivery.attachments import Attachments
from delivery.hands import cannot_edit
from delivery.outbox import Outbox
from delivery.owed import OwedPosts
from delivery.pacing import Pacer
from delivery.retiring import Retirements, recorded
from delivery.shown import CANCELLED, GameShown
from discordkit import to_discord, views
from discordkit.rest import edit_message
from discordkit.to_discord import table_timers
from i18n import _
from presentation import UIS
from presentation.base import Panel, with_timers
from presentation.viewing import Views, names_of
from service.games import GameService
from service.reports import Loaded, Said

log = logging.getLogger(__name__)

NO_ACCESS = (50001, 50013)  # Missing Access, Missing Permissions
# Seconds a refusing channel is left alone after its 1st, 2nd, ... refusal in a row (the last
# one from then on): each retry costs one refused request, and a fix is usually heard of at
# once (permitted()).
BACKOFF = (15.0, 30.0, 60.0, 120.0, 240.0)
# What drawing a table needs in its channel: seeing it, posting, and the table's embed.
TABLE_NEEDS = discord.Permissions(view_channel=True, send_messages=True, embed_links=True)
MAX_EMBEDS = 10  # Discord: embeds in one message
MAX_EMBED_CHARS = 6000  # Discord: characters in all of a message's embeds
MARGIN = 500  # characters kept free for the table's later edits (names, scores, timers)
# The summaries' embeds above the table, as sent (JSON objects).
Head = Sequence[Mapping[str, Any]]


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
        outbox: Outbox,
        attachments: Attachments,
        *,
        owed: OwedPosts | None = None,
        sole: Callable[[], bool] = lambda: True,
        retry: Callable[[int], None] | None = None,
        catch_up: Callable[[GameShown], Awaitable[object]] | None = None,
        live_button: bool = False,
    ) -> None:
        """``outbox``: where a replaced table's retirement is queued; ``owed``: the round
        summaries waiting to be posted above the table; ``sole``: whether this process is the
        only one drawing tables (SQLite), so that an edit may post a new table without the
        store's table claim (delivery/peers.py); ``retry`` is told a channel's id when
        its tables that are behind should be drawn again; ``catch_up`` is awaited when an
        edit's turn comes (as ``Hands``'s); ``live_button``: tables offer "Open the table"
        (the Activity is served)."""
        self.bot = bot
        self.service = service
        self.pacer = pacer
        self.views = views
        self.outbox = outbox
        self.attachments = attachments
        self.owed = owed
        self.sole = sole
        self.retirements = Retirements(bot, service, pacer, outbox)
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

    def kwargs(self, loaded: Loaded, head: Head = ()) -> tuple[str, dict[str, Any]]:
        """The table's layout key (a new round or layout posts a new message) and its message
        arguments, in the current language; ``head``: the summaries' embeds above the table
        (as sent: Discord replaces a message's embeds whole, so every edit sends them)."""
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
        embeds = [discord.Embed.from_dict(dict(e)) for e in head] + [to_discord.embed(panel)]
        return ui.table_key(view), {"embeds": embeds, "view": table_view}

    async def draw(self, shown: GameShown, *, urgent: bool) -> bool:
        """Show ``shown``'s newest state: edit the table message, or post a new one when a
        round's summary waits to be folded above it, when the layout changed, when it is gone
        or too old to edit, or when there is none yet (a replaced table is retired when its
        channel has a quiet moment). False when the table was left behind: its channel
        refuses the bot and is left alone for now (the players keep their DMs)."""
        loaded = shown.loaded
        if loaded.state is None:
            return True
        channel_id = loaded.row.channel_id
        if self.blocked(channel_id):
            shown.table_behind = True
            return False
        drawn = shown.table_drawn is loaded and shown.table_message_id is not None
        if drawn and not self._folds(shown):
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
        self.retirements.resume(shown)  # what a restart left to retire
        return True

    def _folds(self, shown: GameShown) -> list[Said]:
        """The round summaries waiting to be posted above the table (none once the game is
        over: its summaries then go as messages of their own, before the result)."""
        loaded = shown.loaded
        if self.owed is None:
            return []
        if loaded.row.status != GameStatus.ACTIVE:
            self.owed.unfold(loaded)
            return []
        return self.owed.folds(loaded.row.id)

    async def _draw(self, shown: GameShown, loaded: Loaded, *, urgent: bool) -> None:
        channel_id = loaded.row.channel_id
        lane = ("ch", channel_id)
        if self._folds(shown) and await self._fold(shown, urgent=urgent):
            return
        head = shown.table_head
        key, kwargs = self.kwargs(loaded, head)
        if shown.table_message_id is not None and shown.table_key == key:
            await self.pacer.slot(lane, urgent=urgent)
            if self.catch_up is not None:
                await self.catch_up(shown)
            # A round that ended while this edit waited: its slot posts the summary and table.
            folded = self.sole() and self._folds(shown)
            if folded and await self._fold(shown, urgent=urgent, slot_taken=True):
                return
            if shown.loaded is not loaded:  # moves came while this edit waited
                newer = self.kwargs(shown.loaded, shown.table_head)
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
            head = []  # a new layout: the summaries stay above the old one
            key, kwargs = self.kwargs(loaded)
        await self.pacer.slot(lane, urgent=urgent)
        if self._folds(shown) and await self._fold(shown, urgent=urgent, slot_taken=True):
            return  # a round's summary came while this post waited: posted with it
        sent = await self.bot.get_partial_messageable(channel_id).send(**kwargs)
        await self._posted(shown, loaded, sent.id, key, head)

    async def _fold(self, shown: GameShown, *, urgent: bool, slot_taken: bool = False) -> bool:
        """Post the round summaries waiting for the table (:meth:`OwedPosts.folds`) and the
        newest table below them as one message, with the first summary's nonce: Discord
        creates it once however often it is sent. False when they do not fit in one message
        or Discord refused them as a message (they are then posted as messages of their own)."""
        assert self.owed is not None
        loaded = shown.loaded
        channel_id = loaded.row.channel_id
        saids = self.owed.folds(loaded.row.id)
        head: list[discord.Embed] = []
        files: list[discord.File] = []
        for said in saids:
            embeds, pictures = await self.owed.summary(loaded, said)
            head += embeds
            files += pictures
        if not slot_taken:
            await self.pacer.slot(("ch", channel_id), urgent=urgent)
            if self.catch_up is not None:
                await self.catch_up(shown)
        loaded = shown.loaded
        nonces = [said.owed.nonce for said in saids]
        if [said.owed.nonce for said in self._folds(shown)][: len(saids)] != nonces:
            return False  # the game ended, or they went on their own meanwhile
        dicts = [_as_dict(e) for e in head]
        key, kwargs = self.kwargs(loaded, dicts)
        if not _fits(kwargs["embeds"]):
            log.info("game %s: summaries too long to share the table's message", loaded.row.id)
            self.owed.unfold(loaded)
            return False
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            sent = await self.attachments.send(
                channel, channel_id, files, nonce=nonces[0], **kwargs
            )
        except (discord.Forbidden, discord.NotFound):
            await self.owed.folded(loaded, saids, None)  # refused for good, as alone
            raise
        except discord.HTTPException as exc:
            if exc.status != 400:
                raise
            log.warning("game %s: Discord refused a summary with the table: %s", loaded.row.id, exc)
            self.owed.unfold(loaded)
            return False
        if shown.table_message_id is not None and sent.id < shown.table_message_id:
            # Discord answered a post repeated after a restart with the message it created
            # before, and a table was posted below it since: that one stays the table, and
            # this one keeps only the summaries, above it.
            self.retirements.add(shown, sent.id, dicts)
            await self.service.showing.set_retiring_tables(loaded.row.id, recorded(shown))
            self.retirements.resume(shown)
            await self.owed.folded(loaded, saids, sent.id)
            return False
        await self._posted(shown, loaded, sent.id, key, dicts)
        await self.owed.folded(loaded, saids, sent.id)
        return True

    async def _posted(
        self,
        shown: GameShown,
        loaded: Loaded,
        message_id: int,
        key: str,
        head: list[dict[str, Any]],
    ) -> None:
        """A new table message went out (``head``: the summaries above its table): recorded,
        and the one it replaces retired."""
        old_id, old_head = shown.table_message_id, shown.table_head
        if old_id is not None and old_id != message_id:
            self.retirements.add(shown, old_id, old_head)
        shown.table_message_id, shown.table_key = message_id, key
        shown.table_head = head
        shown.table_drawn = loaded
        text = json.dumps(head) if head else None
        await self.service.showing.set_table_message(
            loaded.row.id, message_id, key, text, recorded(shown)
        )
        self.retirements.resume(shown)


def _fits(embeds: Sequence[discord.Embed]) -> bool:
    """Whether the embeds fit in one message (Discord: at most 10, 6,000 characters in all),
    with room for the table to grow a little before its edits."""
    return len(embeds) <= MAX_EMBEDS and sum(len(e) for e in embeds) <= MAX_EMBED_CHARS - MARGIN


def _as_dict(embed: discord.Embed) -> dict[str, Any]:
    return cast(dict[str, Any], embed.to_dict())
