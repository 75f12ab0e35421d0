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
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord

import i18n
from db.models import Actor, GameStatus
from delivery.ahead import PicturesAhead
from delivery.answering import Answering
from delivery.attachments import Attachments
from delivery.hands import Hands
from delivery.marks import RenderedMarks
from delivery.outbox import Outbox
from delivery.owed import OwedPosts
from delivery.pacing import Pacer
from delivery.peers import SharedView
from delivery.pending import PendingClicks
from delivery.shown import (
    CANCELLED,
    Answered,
    GameShown,
    People,
    forced_notes,
    private_key,
)
from delivery.speaking import Speaking
from delivery.tables import TableMessages
from discordkit.rest import edit_message
from i18n import Later, later
from presentation.viewing import Views
from service.errors import NoGame
from service.games import GameService
from service.reports import Loaded, Report

log = logging.getLogger(__name__)

Text = str | Later  # public text: a Later is translated into the server's language when sent
# Redraws of a job overtaken by another process's move, before it queues itself once more.
OVERTAKEN_REDRAWS = 3
# A page closed within this many seconds of its game's end still brings the hand up to date.
CAUGHT_UP_AFTER_END = 600.0


@dataclass(frozen=True, slots=True)
class Parts:
    """What the publisher works with, built before it (delivery/assemble.py); the move desk
    shares some of them (the people, the clicks being answered, the deferred clicks)."""

    speaking: Speaking  # the language of each message
    pacer: Pacer
    attachments: Attachments
    people: People
    views: Views
    hands: Hands
    answering: Answering  # clicks being answered: queued edits wait for them
    marks: RenderedMarks
    shared: SharedView  # several processes on one database (PostgreSQL)
    pending: PendingClicks  # deferred clicks: the desk keeps them, and reads them at start-up


class Publisher:
    """The write path's face: reports in, jobs queued. Its parts are given (:class:`Parts`);
    the ones it builds are those that call back into it: its outbox (a game has nothing
    left to draw), what moves owe the channel (a summary waits for the table) and its table
    messages (a channel allows the bot again)."""

    def __init__(
        self,
        bot: discord.Client,
        service: GameService,
        parts: Parts,
        *,
        result_view: Callable[[Loaded], discord.ui.View | None] | None = None,
        live_button: bool = False,
    ) -> None:
        self.bot = bot
        self.service = service
        self.speaking = parts.speaking
        self.pacer = parts.pacer
        self.attachments = parts.attachments
        self.people = parts.people
        self.views = parts.views
        self.hands = parts.hands
        self.answering = parts.answering
        self.marks = parts.marks
        self.shared = parts.shared
        self.outbox = Outbox(
            settled=self._settled, before=self.answering.first, drawing=self.marks.drawing
        )
        self.games: dict[int, GameShown] = {}
        # What moves owe the channel (summaries, the result, timeouts' and leaves' lines):
        # recorded with the moves, posted once (see delivery.owed); a round's summary in a game
        # that goes on is posted above the next round's table, by the table's job.
        self.owed = OwedPosts(
            bot,
            service,
            self.outbox,
            self.pacer,
            self.attachments,
            self.speaking,
            self.views,
            self._owed_game,
            result_view=result_view,
            fold=self._fold,
        )
        self.tables = TableMessages(
            bot,
            service,
            self.pacer,
            self.views,
            self.outbox,
            self.attachments,
            owed=self.owed,
            sole=lambda: not self.shared.enabled,
            retry=self._retry_tables,
            catch_up=self.shared.refresh,
            live_button=live_button,
        )
        self.shared.posting = lambda game_id: bool(self.owed.folds(game_id))
        service.round_ended = self.owed.round_ended
        # The turn's hand pictures, started as the move that makes the turn is saved.
        self.ahead = PicturesAhead(self.attachments, self.speaking, self.people, self.hands.on_page)
        service.on_waiting.add(self.ahead.saved)
        self._serial = itertools.count()
        # Told after each table draw (spectators' private views follow the table).
        self.table_drawn: list[Callable[[Loaded], None]] = []

    # -- entry points --------------------------------------------------------------------

    def publish(self, report: Report, *, answered: Answered | None = None) -> None:
        """Queue everything a report changed: summaries, notices, the table, hands.

        ``answered``: the mover's own hand message was already updated by the response to
        their click, showing ``answered.saw`` (the report's end, or earlier when the
        response went out before the computers answered): their hand is only checked again
        (edited if the moves since changed it; no notification). If a hand job wrote that
        DM since ``answered.writes`` was read, it may have landed after the response, which
        then no longer shows; the hand is drawn again.
        """
        shown = self._track(report.after)
        if report.shown is not None:  # read with the move: the jobs below need not read it
            self.shared.read_with_move(shown, report.shown)
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
            clicked = answered is not None and seat.seat == answered.seat
            if answered is not None and clicked and shown.version == report.after.row.version:
                # Their DM was the clicked message, or they played from an ephemeral hand,
                # which the response updated: the DM (if any) follows quietly.
                self._answered(shown, answered)
                continue
            if seat.seat in newly_due:
                dm.pending_notify = True
            self._hand_later(shown, seat.seat)

    def answered(self, answered: Answered) -> None:
        """A response to a click drew the seat's hand as the publisher last drew it (an old
        control's answer; see :meth:`publish`)."""
        shown = self.games.get(answered.saw.row.id)
        if shown is not None and shown.loaded is answered.saw:
            self._answered(shown, answered)

    def _answered(self, shown: GameShown, answered: Answered) -> None:
        dm = shown.dm(answered.seat)
        if answered.message_id == dm.message_id:
            # The response showed it. A hand job of theirs already queued or under way may
            # still land after the response: a check behind it redraws the hand then (it
            # edits nothing when the hand is as shown).
            saw = answered.saw
            if dm.writes != answered.writes:
                dm.key = None  # a job's older edit may have landed over the response
            else:
                dm.key = private_key(saw, saw.seats[answered.seat], self.views)
            if saw is shown.loaded:
                dm.note = None
        self._hand_later(shown, answered.seat)

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

    async def page_closed(self, channel_id: int, user_id: int) -> None:
        """The person's last page of the channel's live table closed: their DM hand, left
        alone while the page showed it (delivery/onpage.py), is brought up to date, with a
        new, notifying one if it is their turn. A game that ended long ago is left as it is."""
        try:
            loaded = await self.service.channel_game(channel_id, finished_too=True)
        except NoGame:
            return
        seat = loaded.seat_of(user_id)
        ended = loaded.row.ended_at
        if seat is None or seat.is_computer or loaded.state is None:
            return
        if loaded.row.status != GameStatus.ACTIVE and (
            ended is None or time.time() - ended > CAUGHT_UP_AFTER_END
        ):
            return
        shown = self._track(loaded)
        due = loaded.game.to_act(loaded.state) if loaded.row.status == GameStatus.ACTIVE else ()
        shown.dm(seat.seat).pending_notify = seat.seat in due
        self._hand_later(shown, seat.seat, urgent=False)

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

    def _fold(self, loaded: Loaded) -> None:
        """A round's summary waits for the game's table: its job posts both."""
        self._table_later(self._track(loaded))

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
            await self.hands.retire_for_good(shown, seat_no, CANCELLED)
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

    def busy(self, game_id: int) -> bool:
        """Being drawn, or drawn and its mark not written yet: no repair needed."""
        return self.outbox.busy(game_id) or self.marks.waiting(game_id)

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
        await self.ahead.close()
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
        except discord.HTTPException as exc:  # Discord's answer (a channel that refuses the
            # bot): what it said is the whole story, no traceback
            log.warning("could not post to channel %s: %s", loaded.row.channel_id, exc)

    async def _send_to_channel(self, channel_id: int, text: str, **kwargs: Any) -> None:
        channel = self.bot.get_partial_messageable(channel_id)
        await self.pacer.slot(("ch", channel_id))
        await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True), **kwargs)
