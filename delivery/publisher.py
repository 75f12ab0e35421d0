"""Shows the games in Discord: the table message, each player's DM, summaries and notices.

Nothing here waits on Discord inside a move: :meth:`Publisher.publish` turns a service report
into jobs for the outbox (one lane per channel, see :mod:`delivery.outbox`) and returns. Each
job draws from the newest state the publisher knows, so a burst of computer moves becomes one
table edit, and a slow channel holds up only itself. Every REST call takes a slot from the
pacer first (:mod:`delivery.pacing`), so a game of friends never meets a 429.

When every job of a game has gone through, the game's ``rendered_version`` is recorded, and
after each hand job the version that player's DM shows: after a restart only games with a move
committed after those (finished ones too: a DM left with live buttons) are redrawn (in the
background, behind moves), and a periodic check repairs any game whose messages fell behind.
"""

from __future__ import annotations

import functools
import itertools
import logging
from collections.abc import Callable
from typing import Any

import discord

import i18n
from cogs.utils.rest import edit_message
from db.models import Actor, GameStatus, SeatRow
from delivery.answering import Answering
from delivery.attachments import Attachments, always
from delivery.hands import Hands
from delivery.marks import RenderedMarks
from delivery.outbox import Outbox
from delivery.owed import OwedPosts
from delivery.pacing import Pacer
from delivery.peers import SharedView
from delivery.pending import PendingClicks
from delivery.shown import (
    GameShown,
    Note,
    OldClick,
    People,
    Views,
    forced_notes,
    private_key,
)
from delivery.speaking import Speaking
from delivery.tables import TableMessages
from i18n import N_, Later, later
from presentation.drawing.painters import InThread
from service.games import GameService
from service.languages import Languages
from service.reports import Loaded, Report

log = logging.getLogger(__name__)

Text = str | Later  # public text: a Later is translated into the server's language when sent
CANCELLED_HAND = N_("🛑 This game was cancelled.")  # translated in each hand
# Redraws of a job overtaken by another process's move, before it queues itself once more.
OVERTAKEN_REDRAWS = 3


class Publisher:
    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        pacer: Pacer | None = None,
        attachments: Attachments | None = None,
        languages: Languages | None = None,
    ) -> None:
        self.bot = bot
        self.speaking = Speaking(bot, languages)  # the language of each message
        self.service = service
        self.pacer = pacer or Pacer()
        self.attachments = attachments or Attachments(InThread(), always)
        self.people = People()
        self.views = Views()
        self.hands = Hands(bot, service, self.pacer, self.people, self.attachments, self.views)
        self.tables = TableMessages(bot, service, self.pacer, self.views)
        self.tables.retry = self._retry_tables
        self.answering = Answering()
        self.outbox = Outbox(settled=self._settled, before=self.answering.first)
        self.marks = RenderedMarks(service.showing)
        self.shared = SharedView(service)  # several processes on one database (PostgreSQL)
        self.hands.catch_up = self.tables.catch_up = self.shared.refresh
        self.games: dict[int, GameShown] = {}
        # What moves owe the channel (summaries, the result, timeouts' and leaves' lines):
        # recorded with the moves, posted once (see delivery.owed).
        self.owed = OwedPosts(
            bot,
            service,
            self.outbox,
            self.pacer,
            self.attachments,
            self.speaking,
            self.views,
            self._owed_game,
        )
        service.round_ended = self.owed.round_ended
        self.pending = PendingClicks()  # deferred clicks (bot.py gives it its file)
        self._serial = itertools.count()
        # Told after each table draw (spectators' private views follow the table).
        self.table_drawn: list[Callable[[Loaded], None]] = []

    @property
    def result_view(self) -> Callable[[Loaded], discord.ui.View | None] | None:
        """Buttons for the message showing a finished game's result (set by bot.py)."""
        return self.owed.result_view

    @result_view.setter
    def result_view(self, view: Callable[[Loaded], discord.ui.View | None] | None) -> None:
        self.owed.result_view = view

    # -- entry points --------------------------------------------------------------------

    def publish(
        self,
        report: Report,
        *,
        clicker: SeatRow | None = None,
        clicked_message: int | None = None,
        clicker_saw: Loaded | None = None,
        clicker_writes: int | None = None,
    ) -> None:
        """Queue everything a report changed: summaries, notices, the table, hands.

        ``clicker`` is the seat whose own message (``clicked_message``) was already updated
        by the interaction's response, showing ``clicker_saw`` (default: the report's end;
        earlier when the response went out before the computers answered): its hand is only
        checked again (edited if the moves since changed it; no notification).
        ``clicker_writes`` is :meth:`dm_writes` just before the response was sent: if a hand
        job wrote that DM since, it may have landed after the response, which then no longer
        shows; the hand is drawn again.
        """
        shown = self._track(report.after)
        loaded = shown.loaded
        for said in report.said:  # recorded with the moves: posted once (delivery.owed)
            self.owed.put(loaded, said)
        owed = {id(said.text) for said in report.said if said.text is not None}
        for notice in report.notices:
            if id(notice) not in owed:
                self._say_later(loaded, notice)
        self._table_later(shown)
        self._leavers_later(shown, report.before)  # as the game was when they left
        newly_due = report.newly_due()
        notes = forced_notes(report) if any(m.actor == Actor.FORCED for m in report.moves) else {}
        for seat in loaded.seats:
            if seat.is_computer or seat.user_id is None:
                continue
            dm = shown.dm(seat.seat)
            dm.note = notes.get(seat.seat, dm.note)
            clicked = clicker is not None and seat.seat == clicker.seat
            if clicked and shown.version == report.after.row.version:
                # Their DM was the clicked message, or they played from an ephemeral hand,
                # which the response updated: the DM (if any) follows quietly.
                self._answered(shown, seat.seat, clicked_message, clicker_saw, clicker_writes)
                continue
            if seat.seat in newly_due:
                dm.pending_notify = True
            self._hand_later(shown, seat.seat)

    def _answered(
        self,
        shown: GameShown,
        seat_no: int,
        clicked_message: int | None,
        saw: Loaded | None,
        writes: int | None,
    ) -> None:
        """A click's response drew the seat's hand as of ``saw`` (default: the newest state)
        on ``clicked_message``; ``writes``: :meth:`dm_writes` just before it was sent."""
        dm = shown.dm(seat_no)
        if clicked_message is not None and clicked_message == dm.message_id:
            # The response showed it. A hand job of theirs already queued or under way may
            # still land after the response: a check behind it redraws the hand then (it
            # edits nothing when the hand is as shown).
            saw = saw or shown.loaded
            if writes is not None and dm.writes != writes:
                dm.key = None  # a job's older edit may have landed over the response
            else:
                dm.key = private_key(saw, saw.seats[seat_no], self.views)
            if saw is shown.loaded:
                dm.note = None
        self._hand_later(shown, seat_no)

    def old_click(
        self,
        game_id: int,
        version: int,
        user_id: int,
        clicked_message: int,
        *,
        ephemeral: bool,
        text: str,
    ) -> OldClick | None:
        """The answer to an old control (a double click; a hand whose edit waits behind
        Discord's limits): the player's hand, drawn from the game as the publisher last drew
        it if that is ``version`` (the state the move was refused on), with ``text`` on top
        (and the note waiting for their next hand: a move played for them, the likely reason).
        Only for the seat's own hand message (its DM or an ephemeral hand); None otherwise:
        an older hand message says it is out of date, and a game still being drawn is
        redrawn shortly anyway."""
        shown = self.games.get(game_id)
        if shown is None or shown.version != version:
            return None
        if shown.loaded.row.status != GameStatus.ACTIVE:
            return None
        loaded = shown.loaded
        seat = loaded.seat_of(user_id)
        if seat is None:
            return None
        dm = shown.dm(seat.seat)
        if not ephemeral and clicked_message != dm.message_id:
            return None
        note = f"⚠️ {text}" if dm.note is None else f"⚠️ {text}\n{dm.note}"
        kwargs = self.hand_kwargs(loaded, seat, edit=True, note=note)
        return OldClick(loaded, seat.seat, clicked_message, kwargs, dm.writes)

    def closed_hand(
        self, loaded: Loaded, user_id: int, clicked_message: int, *, ephemeral: bool, text: str
    ) -> tuple[int, dict[str, Any]] | None:
        """The answer to a move on a game that is over (``loaded``, fresh from the database):
        (the seat, the response's arguments) drawing the seat's hand in its final state, no
        buttons, with ``text`` on top. Only for the seat's own hand message (its DM as recorded,
        or an ephemeral hand); None otherwise."""
        seat = loaded.seat_of(user_id)
        if seat is None or loaded.state is None:
            return None
        shown = self.games.get(loaded.row.id)
        message_id = shown.dm(seat.seat).message_id if shown else seat.dm_message_id
        if not ephemeral and clicked_message != message_id:
            return None
        return seat.seat, self.hand_kwargs(loaded, seat, edit=True, note=f"⚠️ {text}")

    def closed_hand_shown(self, loaded: Loaded, seat_no: int) -> None:
        """The response drew the seat's DM in the final state of ``loaded``: record it. A game
        this process is not drawing and the store says is not fully shown (a crash before its
        last messages, and the start-up repair passed it over while this mark was waiting) is
        redrawn: once this DM's mark is written, its table may be behind with nothing left to
        say so, as the repairs look at a finished game's DMs alone."""
        shown = self.games.get(loaded.row.id)
        if shown is not None:
            shown.dm(seat_no).version = max(shown.dm(seat_no).version, loaded.row.version)
        self.marks.mark_dm(loaded.row.id, seat_no, loaded.row.version)
        if shown is None and loaded.row.rendered_version < loaded.row.version:
            self.resync(loaded)

    def is_old_hand(
        self, game_id: int, user_id: int, channel_id: int | None, message_id: int
    ) -> bool:
        """Whether a message in a player's DM channel is an older hand of theirs in this game:
        the seat's current hand is another message (the older one could not be marked out of
        date: its edits refused, e.g. capped an hour after it was sent)."""
        shown = self.games.get(game_id)
        seat = shown.loaded.seat_of(user_id) if shown is not None else None
        if shown is None or seat is None:
            return False
        dm = shown.dm(seat.seat)
        return (
            dm.channel_id is not None
            and dm.channel_id == channel_id
            and dm.message_id is not None
            and dm.message_id != message_id
        )

    def old_click_answered(self, old: OldClick) -> None:
        """The response drew ``old``'s hand (see :meth:`publish`'s ``clicker``)."""
        shown = self.games.get(old.loaded.row.id)
        if shown is not None and shown.loaded is old.loaded:
            self._answered(shown, old.seat, old.clicked_message, old.loaded, old.writes)

    def resync(self, loaded: Loaded, *, urgent: bool = False) -> None:
        """Redraw a game's table and every hand from ``loaded`` (fresh from the database)."""
        shown = self._track(loaded)
        self._table_later(shown, urgent=urgent)
        self._leavers_later(shown, loaded)
        due = loaded.game.to_act(loaded.state) if loaded.row.status == GameStatus.ACTIVE else set()
        for seat in loaded.seats:
            if seat.is_computer or seat.user_id is None:
                continue
            dm = shown.dm(seat.seat)
            dm.key = None  # unknown after a restart: draw once
            if seat.seat in due:
                # A due player gets a new hand rather than an edit: a crash between sending a
                # hand and recording its id leaves a newer, stale message below the recorded one.
                dm.pending_notify = True
            self._hand_later(shown, seat.seat, urgent=urgent)

    def repair(self, loaded: Loaded, *, urgent: bool = False) -> None:
        """A game whose messages are behind (the periodic check): its table alone if that is
        what waits (its channel refused the bot; the hands were drawn, and drawing them anew
        would send due players a new DM per check), else everything (:meth:`resync`)."""
        shown = self.games.get(loaded.row.id)
        if shown is not None and shown.table_behind:
            self._table_later(self._track(loaded), urgent=urgent)
        else:
            self.resync(loaded, urgent=urgent)

    def permissions(self, channel_id: int, permissions: discord.Permissions | None) -> None:
        """Discord says what the bot may do in a channel (an interaction's
        ``app_permissions``, a channel or role update; None: unknown): a channel whose tables
        wait for a permission gets them drawn now if it is back."""
        if self.tables.permitted(channel_id, permissions):
            self._retry_tables(channel_id)

    def refused_channels(self) -> list[int]:
        """Channels that refused the bot and have not allowed it since."""
        return list(self.tables.refused)

    def _retry_tables(self, channel_id: int) -> None:
        for shown in list(self.games.values()):
            if shown.table_behind and shown.loaded.row.channel_id == channel_id:
                self._table_later(shown, urgent=False)

    def lost_click(self, loaded: Loaded, seat_no: int) -> None:
        """A deferred click of this seat was never saved (the bot stopped first): its hand is
        drawn again (``loaded``, fresh from the database) saying so."""
        shown = self._track(loaded)
        dm = shown.dm(seat_no)
        dm.key = None
        dm.note = later("⚠️ Your last move was not saved: the bot restarted first. Play it again.")
        self._hand_later(shown, seat_no)

    def _owed_game(self, loaded: Loaded) -> None:
        """A game with messages owed that a stopped process did not post: a finished one is
        redrawn too if its messages are behind (the repairs of stale games look only at a
        finished game's DMs, and its final table was queued behind what is owed)."""
        behind = loaded.row.rendered_version < loaded.row.version
        if loaded.row.status != GameStatus.ACTIVE and behind and loaded.row.id not in self.games:
            self.resync(loaded)

    def redraw_table(self, loaded: Loaded) -> None:
        """Draw a game's table again (e.g. after someone deleted it); hands are left alone."""
        self._table_later(self._track(loaded))

    def cancelled(self, loaded: Loaded) -> None:
        """A running game was cancelled: the table says so and every hand loses its buttons."""
        shown = self._track(loaded)
        self._table_later(shown)
        for seat in loaded.seats:
            if seat.user_id is None or seat.is_computer:
                continue
            self.outbox.put(
                ("dm", seat.user_id),
                ("hand", loaded.row.id, seat.seat),
                functools.partial(self._retire_hand, shown, seat.seat),
                game_id=loaded.row.id,
            )

    async def _retire_hand(self, shown: GameShown, seat_no: int) -> None:
        user_id = shown.loaded.seats[seat_no].user_id
        with i18n.using(await self.speaking.private(shown.loaded, user_id)):
            await self.hands.retire_for_good(shown, seat_no, CANCELLED_HAND)
        self._dm_shown(shown, seat_no)

    def _dm_shown(self, shown: GameShown, seat_no: int) -> None:
        """Record the version the seat's DM shows (a restart redraws it if behind)."""
        dm = shown.dm(seat_no)
        if dm.version > dm.marked:
            dm.marked = dm.version
            self.marks.mark_dm(shown.loaded.row.id, seat_no, dm.version)

    def announce(self, loaded: Loaded, text: Text) -> None:
        """A public line in the game's channel, in turn with its other messages."""
        self._say_later(loaded, text)

    def dm_writes(self, game_id: int, seat_no: int) -> int:
        """How many times hand jobs have written this seat's DM (see :meth:`publish`)."""
        shown = self.games.get(game_id)
        return shown.dm(seat_no).writes if shown is not None else 0

    def busy(self, game_id: int) -> bool:
        """Being drawn, or drawn and its mark not written yet: no repair needed."""
        return self.outbox.busy(game_id) or self.marks.waiting(game_id)

    def hand_kwargs(
        self, loaded: Loaded, seat: SeatRow, *, edit: bool = False, note: Note | None = None
    ) -> dict[str, Any]:
        shown = self.games.get(loaded.row.id)
        table_id = shown.table_message_id if shown else loaded.row.table_message_id
        return self.hands.kwargs(loaded, seat, table_id, edit=edit, note=note)

    def close_lobby_message(self, loaded: Loaded, text: Text) -> None:
        message_id = loaded.row.lobby_message_id
        if message_id is None:
            return
        channel_id = loaded.row.channel_id

        async def job() -> None:
            with i18n.using(await self.speaking.public(loaded)):
                content = str(text)
            await self.pacer.slot(("ch", channel_id))
            await edit_message(self.bot, channel_id, message_id, content=content, view=None)

        self.outbox.put(("ch", channel_id), ("lobby", loaded.row.id), job)

    async def close(self, timeout: float) -> None:
        await self.outbox.close(timeout)
        await self.owed.close()
        await self.marks.flush()

    # -- bookkeeping ---------------------------------------------------------------------

    def _track(self, loaded: Loaded) -> GameShown:
        shown = self.games.get(loaded.row.id)
        if shown is None:
            shown = self.games[loaded.row.id] = GameShown.seed(loaded)
            for seat in loaded.seats:
                if seat.user_id is not None and seat.dm_channel_id is not None:
                    self.people.dm_channel.setdefault(seat.user_id, seat.dm_channel_id)
                if seat.user_id is not None and seat.dm_closed:
                    self.people.dm_closed.add(seat.user_id)
        else:
            shown.update(loaded)
        return shown

    async def _settled(self, game_id: int, ok: bool) -> None:
        shown = self.games.get(game_id)
        if shown is None:
            return
        if ok and shown.version > shown.rendered_version:
            shown.rendered_version = shown.version
            self.marks.mark(game_id, shown.version)  # written with others, shortly
        if shown.loaded.row.status != GameStatus.ACTIVE and not self.outbox.busy(game_id):
            del self.games[game_id]  # the game is over and fully shown

    # -- jobs ----------------------------------------------------------------------------

    def _hand_later(self, shown: GameShown, seat_no: int, *, urgent: bool = True) -> None:
        user_id = shown.loaded.seats[seat_no].user_id
        game_id = shown.loaded.row.id

        async def job() -> None:
            await self.shared.refresh(shown)
            for _ in range(OVERTAKEN_REDRAWS):
                before = shown.version  # the draw shows this state or a newer one
                with i18n.using(await self.speaking.private(shown.loaded, user_id)):
                    await self.hands.draw(shown, seat_no, self._say, urgent=urgent)
                self._dm_shown(shown, seat_no)
                drawn = max(before, shown.dm(seat_no).version)
                if not await self.shared.overtaken(shown, drawn):
                    return
            self._hand_later(shown, seat_no, urgent=urgent)  # overtaken again: once more, later

        self.outbox.put(("dm", user_id), ("hand", game_id, seat_no), job, game_id=game_id)

    def _leavers_later(self, shown: GameShown, drawn: Loaded) -> None:
        for lane, key, job in self.hands.leaver_jobs(shown, drawn, self.speaking.private):
            self.outbox.put(lane, key, job, game_id=shown.loaded.row.id)

    def _table_later(self, shown: GameShown, *, urgent: bool = True) -> None:
        game_id, channel_id = shown.loaded.row.id, shown.loaded.row.channel_id

        async def job() -> bool:
            for _ in range(OVERTAKEN_REDRAWS):
                async with self.shared.table_turn(shown):
                    before = shown.version  # the draw shows this state, a newer one, or none
                    with i18n.using(await self.speaking.public(shown.loaded)):
                        drawn = await self.tables.draw(shown, urgent=urgent)
                for told in self.table_drawn:
                    told(shown.loaded)
                last = shown.table_drawn
                at = before if last is None else max(before, last.row.version)
                if not drawn or not await self.shared.overtaken(shown, at):
                    return drawn
            self._table_later(shown, urgent=urgent)  # overtaken again: once more, later
            return True

        self.outbox.put(("ch", channel_id), ("table", game_id), job, game_id=game_id)

    def _say_later(self, loaded: Loaded, text: Text, **kwargs: Any) -> None:
        channel_id = loaded.row.channel_id

        async def job() -> None:
            with i18n.using(await self.speaking.public(loaded)):
                content = str(text)
            await self._send_to_channel(channel_id, content, **kwargs)

        key = ("say", loaded.row.id, next(self._serial))
        self.outbox.put(("ch", channel_id), key, job, game_id=loaded.row.id)

    async def _say(self, loaded: Loaded, text: Text) -> None:
        """Post now, from inside a job (a job runs in its own lane already), in the server's
        language (a hand's job runs in its player's)."""
        with i18n.using(await self.speaking.public(loaded)):
            content = str(text)
        try:
            await self._send_to_channel(loaded.row.channel_id, content)
        except discord.HTTPException:
            log.warning("could not post to channel %s", loaded.row.channel_id, exc_info=True)

    async def _send_to_channel(self, channel_id: int, text: str, **kwargs: Any) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        await self.pacer.slot(("ch", channel_id))
        await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
