"""Players' hands in their DMs: one message per player, edited only when they need it.

A new DM (which notifies) goes out once per turn of theirs, unless they are already looking
(clicked within the last minute and their hand is the newest message there): then the hand is
edited in place. An older hand message is marked out of date, so nobody plays from it. DM
channels are remembered (and read back from the database after a restart), never fetched per
message; a user whose DMs are closed is remembered too, and told once to use **My hand**.
A person who leaves a running game has their hand message closed: their hand as they left
it, without buttons, and who took their seat (the seat keeps that message's id until then).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import io
import logging
from collections.abc import Awaitable, Callable, Hashable
from typing import Any

import discord

import i18n
from db.models import GameStatus, SeatRow
from delivery.attachments import Attachments
from delivery.onpage import OnPage
from delivery.pacing import Pacer
from delivery.shown import (
    DmShown,
    GameShown,
    Note,
    People,
    PrivateKey,
    hand_header,
    private_key,
)
from discordkit import views
from discordkit.rest import edit_message
from i18n import N_, Later, _, later
from presentation import UIS
from presentation.viewing import Views, names_of
from service.games import GameService
from service.reports import Loaded

log = logging.getLogger(__name__)

DM_CLOSED = 50007
UNKNOWN_MESSAGE = 10008
TOO_OLD_TO_EDIT = 30046  # edits to messages older than an hour are capped
DM_OPEN = ("dm-open",)  # the pacer's window for opening DM channels (a bucket of its own)
# Seconds a hand message waits for its picture (a few ms in the drawing process, more behind
# other pictures): a click's answer must not wait long on a busy painter; a hand job, in the
# background, may.
ANSWER_PICTURE_WAIT = 0.15
PICTURE_WAIT = 5.0
LEFT = N_("🚪 You left this game; {computer} 🤖 (a computer player) took your seat.")
OUT_OF_DATE = N_("⬆️ This hand is out of date: your current hand is in a newer message below.")

Say = Callable[[Loaded, str | Later], Awaitable[None]]  # public: a Later is translated there


def cannot_edit(exc: discord.HTTPException) -> bool:
    """The message is gone or can no longer be edited: post a new one instead."""
    return isinstance(exc, discord.NotFound) or exc.code in (UNKNOWN_MESSAGE, TOO_OLD_TO_EDIT)


@dataclasses.dataclass(eq=False)
class Hands:
    """Draws each player's own hand message. ``catch_up`` is awaited when an edit's turn
    comes, before it is drawn: another process sharing the database may have moved the game
    on meanwhile (peers.py). ``on_page``: who has the live table open; their hands are left
    alone meanwhile (delivery/onpage.py)."""

    bot: discord.Client
    service: GameService
    pacer: Pacer
    people: People
    attachments: Attachments
    views: Views
    _: dataclasses.KW_ONLY
    catch_up: Callable[[GameShown], Awaitable[object]] | None = None
    on_page: OnPage | None = None

    def kwargs(
        self,
        loaded: Loaded,
        seat: SeatRow,
        table_message_id: int | None = None,
        *,
        edit: bool = False,
        note: Note | None = None,
    ) -> dict[str, Any]:
        """The send (or, with ``edit``, edit) arguments of a seat's private hand message,
        without its picture (see :meth:`with_picture`). An edit drops the picture it had: it
        would show cards the player no longer holds."""
        game = loaded.game
        view = self.views.of(game, loaded.state, seat.seat)
        live = loaded.row.status == GameStatus.ACTIVE
        legal = self.views.legal(game, loaded.state, seat.seat) if live else []
        screen = UIS[loaded.row.game].hand(view, legal, names_of(loaded))
        header = hand_header(loaded, seat, self._where(loaded), table_message_id, note)
        kwargs = views.hand_message(
            loaded.row.id, seat.step, screen, autopilot=seat.autopilot and live, header=header
        )
        if edit:
            kwargs["attachments"] = []
        return kwargs

    async def with_picture(
        self,
        loaded: Loaded,
        seat_no: int,
        kwargs: dict[str, Any],
        *,
        edit: bool,
        wait: float = PICTURE_WAIT,
        urgent: bool = False,
    ) -> dict[str, Any]:
        """``kwargs`` with the picture of the seat's hand as ``loaded`` holds it when the seat
        is to play there: a hand message that shows a turn of theirs (new, edited, a click's
        answer) carries one, in the same request as its text, so a player sees their cards
        drawn on each turn at no extra REST call. Between turns the hand is not drawn (an
        edit drops the old picture, see :meth:`kwargs`): one picture per turn, not per move.
        A picture that cannot be drawn, or not within ``wait`` seconds, is left out (the text
        is complete without it). ``urgent``: a click's answer waits for it
        (:meth:`Attachments.hand_png`)."""
        live = loaded.row.status == GameStatus.ACTIVE and loaded.state is not None
        if not live or seat_no not in loaded.game.to_act(loaded.state):
            return kwargs
        try:
            drawing = self.attachments.hand_png(loaded, seat_no, urgent=urgent)
            png = await asyncio.wait_for(drawing, timeout=wait)
        except TimeoutError:
            log.warning("hand picture of game %s not drawn in time: text only", loaded.row.id)
            png = None
        if png is None:
            return kwargs
        picture = discord.File(io.BytesIO(png), filename="hand.png")
        return {**kwargs, "attachments": [picture]} if edit else {**kwargs, "files": [picture]}

    def _where(self, loaded: Loaded) -> str:
        channel = self.bot.get_channel(loaded.row.channel_id)
        guild = getattr(channel, "guild", None)
        return f"**{guild.name}** › <#{loaded.row.channel_id}>" if guild else _("your server")

    async def draw(self, shown: GameShown, seat_no: int, say: Say, *, urgent: bool) -> None:
        """Bring one seat's DM up to date (the outbox runs this; it may run again)."""
        loaded = shown.loaded
        seat = loaded.seats[seat_no]
        if seat.user_id is None or seat.is_computer or loaded.state is None:
            return
        dm = shown.dm(seat_no)
        notify, dm.pending_notify = dm.pending_notify, False
        if seat.user_id in self.people.dm_closed or seat.dm_closed:
            dm.version = loaded.row.version  # no DM to draw: the hand is behind My hand
            if notify:
                await say(
                    loaded,
                    later(
                        "{mention}, it's your move — press **My hand** on the table.",
                        mention=f"<@{seat.user_id}>",
                    ),
                )
            return
        if self.on_page is not None and await self.on_page.has(loaded.row.channel_id, seat.user_id):
            # Their page shows the hand (and whose turn it is): the DM waits until it closes.
            dm.version = max(dm.version, loaded.row.version)
            return
        key = private_key(loaded, seat, self.views)
        if notify and not self.people.active(seat.user_id, dm):
            await self._send(shown, seat, key, say, notify=True, urgent=urgent)
        elif dm.message_id is None:
            await self._send(shown, seat, key, say, notify=False, urgent=urgent)
        elif key != dm.key:
            await self._edit(shown, seat, key, say, urgent=urgent)
        else:
            dm.version = max(dm.version, loaded.row.version)  # it shows this already

    async def _edit(
        self, shown: GameShown, seat: SeatRow, key: PrivateKey, say: Say, *, urgent: bool
    ) -> None:
        """Edit the hand in place. The message is drawn after the rate-limit slot, from the
        newest state then: a player's own click may have been answered meanwhile, and an
        edit drawn before it would put older buttons over their newer hand."""
        dm = shown.dm(seat.seat)
        assert dm.channel_id is not None and dm.message_id is not None
        await self.pacer.slot(("dm", seat.user_id), urgent=urgent)
        if self.catch_up is not None:
            await self.catch_up(shown)
        loaded = shown.loaded
        seat = loaded.seats[seat.seat]
        key = private_key(loaded, seat, self.views)
        if key == dm.key:
            dm.version = max(dm.version, loaded.row.version)
            return  # shown already (by the player's own click)
        note = dm.note
        kwargs = self.kwargs(loaded, seat, shown.table_message_id, edit=True, note=note)
        kwargs = await self.with_picture(loaded, seat.seat, kwargs, edit=True)
        try:
            await edit_message(self.bot, dm.channel_id, dm.message_id, **kwargs)
        except discord.HTTPException as exc:
            if not cannot_edit(exc):
                raise
            log.info("hand message %s can no longer be edited: posting a new one", dm.message_id)
            dm.message_id = None
            await self._send(shown, seat, key, say, notify=False, urgent=urgent)
            return
        _drew(dm, key, note)
        dm.version = max(dm.version, loaded.row.version)
        dm.writes += 1

    async def _send(
        self,
        shown: GameShown,
        seat: SeatRow,
        key: PrivateKey,
        say: Say,
        *,
        notify: bool,
        urgent: bool,
    ) -> None:
        assert seat.user_id is not None
        loaded = shown.loaded
        dm = shown.dm(seat.seat)
        note = dm.note
        kwargs = self.kwargs(loaded, seat, shown.table_message_id, note=note)
        kwargs = await self.with_picture(loaded, seat.seat, kwargs, edit=False)
        try:
            channel_id = await self.dm_channel(seat.user_id, dm.channel_id)
            channel = self.bot.get_partial_messageable(channel_id, type=discord.ChannelType.private)
            await self.pacer.slot(("dm", seat.user_id), urgent=urgent)
            sent = await channel.send(silent=not notify, **kwargs)
        except discord.Forbidden as exc:
            if exc.code != DM_CLOSED:
                log.warning("DM to %s refused: %s", seat.user_id, exc)
            await self._closed(shown, seat, say)
            return
        old = dm.message_id if dm.channel_id == channel_id else None
        dm.channel_id, dm.message_id = channel_id, sent.id
        _drew(dm, key, note)
        dm.version = max(dm.version, loaded.row.version)
        dm.writes += 1
        self.people.newest_message[channel_id] = sent.id
        await self.service.showing.set_dm(
            loaded.row.id, seat.seat, channel_id=channel_id, message_id=sent.id
        )
        if old is not None:
            await self._retire(seat.user_id, channel_id, old, urgent=urgent)

    async def _closed(self, shown: GameShown, seat: SeatRow, say: Say) -> None:
        assert seat.user_id is not None
        self.people.dm_closed.add(seat.user_id)
        await self.service.showing.set_dm_closed(shown.loaded.row.id, seat.seat, True)
        await say(
            shown.loaded,
            later(
                "{mention}, I can't send you direct messages, so your hand is behind the "
                "**My hand** button on the table. The game goes on.",
                mention=f"<@{seat.user_id}>",
            ),
        )

    async def _retire(
        self, user_id: int, channel_id: int, message_id: int, *, urgent: bool
    ) -> None:
        """The previous hand message loses its buttons and says where the current one is."""
        await self.pacer.slot(("dm", user_id), urgent=urgent)
        try:
            await edit_message(
                self.bot, channel_id, message_id, content=_(OUT_OF_DATE), view=None, attachments=[]
            )
        except discord.HTTPException as exc:
            log.info("could not retire old hand message %s: %s", message_id, exc)

    async def retire_for_good(self, shown: GameShown, seat_no: int, line: str) -> None:
        """A game that ended without a result (cancelled): the hand keeps no buttons."""
        dm = shown.dm(seat_no)
        user_id = shown.loaded.seats[seat_no].user_id
        if dm.channel_id is None or dm.message_id is None or user_id is None:
            return
        await self.pacer.slot(("dm", user_id))
        try:
            await edit_message(self.bot, dm.channel_id, dm.message_id, content=_(line), view=None)
        except discord.HTTPException as exc:
            if not cannot_edit(exc):
                raise
        dm.key = None
        dm.version = max(dm.version, shown.version)

    def leaver_jobs(
        self, shown: GameShown, drawn: Loaded, language: Callable[[Loaded, int], Awaitable[str]]
    ) -> list[tuple[Hashable, Hashable, Callable[[], Awaitable[None]]]]:
        """(lane, key, job) closing the hand message of each person who left a seat of the
        game and still has one recorded (drawn from ``drawn``, in ``language``)."""

        async def close(seat_no: int, user_id: int) -> None:
            with i18n.using(await language(drawn, user_id)):
                await self.close_for_leaver(shown, seat_no, drawn)

        jobs: list[tuple[Hashable, Hashable, Callable[[], Awaitable[None]]]] = []
        for seat in shown.loaded.seats:
            user_id = seat.left_user_id
            has_dm = shown.dm(seat.seat).message_id is not None
            if user_id is None or seat.user_id is not None or not has_dm:
                continue
            key = ("left", shown.loaded.row.id, seat.seat)
            jobs.append((("dm", user_id), key, functools.partial(close, seat.seat, user_id)))
        return jobs

    async def close_for_leaver(self, shown: GameShown, seat_no: int, drawn: Loaded) -> None:
        """The person who left ``seat_no`` sees their hand as ``drawn`` holds it (the game when
        they left), without buttons, and who took their seat; their message is then forgotten
        (``Showing.leaver_dm_closed``). A message gone or too old to edit is forgotten too:
        a click on it is answered that they left (``GameService.act``)."""
        seat = shown.seat(seat_no)
        dm = shown.dm(seat_no)
        user_id, channel_id, message_id = seat.left_user_id, dm.channel_id, dm.message_id
        if user_id is None or channel_id is None or message_id is None or drawn.state is None:
            return
        await self.pacer.slot(("dm", user_id))
        before = dataclasses.replace(drawn.seats[seat_no], deadline=None, autopilot=False)
        view = self.views.of(drawn.game, drawn.state, seat_no)
        screen = UIS[drawn.row.game].hand(view, [], names_of(drawn))
        note = _(LEFT, computer=seat.name)
        header = hand_header(drawn, before, self._where(drawn), shown.table_message_id, note)
        kwargs = views.hand_message(drawn.row.id, before.step, screen, header=header)
        try:
            await edit_message(self.bot, channel_id, message_id, attachments=[], **kwargs)
        except discord.HTTPException as exc:
            if not cannot_edit(exc) and not isinstance(exc, discord.Forbidden):
                raise  # tried again by the outbox (a server error) or by the next repair
            log.info("could not close the hand %s of a leaver: %s", message_id, exc)
        if dm.message_id == message_id:
            dm.message_id, dm.key = None, None
        await self.service.showing.leaver_dm_closed(drawn.row.id, seat_no, message_id)

    async def dm_channel(self, user_id: int, known: int | None) -> int:
        """The user's DM channel id: remembered, else from the database, else opened once."""
        channel_id = known or self.people.dm_channel.get(user_id)
        if channel_id is None:
            channel_id = await self.service.showing.dm_channel_of(user_id)
        if channel_id is None:
            await self.pacer.slot(DM_OPEN)  # Discord: 10 DM channel opens per 10 s per bot
            data = await self.bot.http.start_private_message(user_id)
            channel_id = int(data["id"])
        self.people.dm_channel[user_id] = channel_id
        return channel_id


def _drew(dm: DmShown, key: PrivateKey, note: Note | None) -> None:
    """A hand message now shows ``key`` with ``note`` on top. A note set while it was being
    drawn (the hand waits for its picture) is kept, and the key left unknown, so the next
    hand job draws that note instead of taking the hand for shown."""
    if dm.note is note:
        dm.key, dm.note = key, None  # what this message drew, even if a newer state came
    else:
        dm.key = None
