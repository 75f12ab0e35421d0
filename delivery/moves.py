"""The move desk: one path for a player's move, whether it came from a button in Discord or
from the live table's page.

An edge (the table cog for a click, web/live.py for the page) only translates: it turns what
came in into a :class:`Play` and gives an :class:`Answer`, its way back to the player. The
desk does the rest, the same way for both:

- the two-stage answer: the service saves the player's move, then plays the computers' moves
  after it (:class:`~service.reports.Acting`); the player is answered as soon as their own move
  is saved, with the computers' moves too when they follow within :data:`FOLLOW_WAIT`, and
  everything else the move changed is published once the computers are done;
- the moves that are not played, each answered the same way from either edge: a stale move (a
  control older than the seat's step), a replayed one (the move this desk just played for
  that seat, delivered again: a double click, a resent message), a move on a game that is
  over, and any other refusal; the answer to each is an :class:`Outcome`.

A click is answered on the hand message it was made on (:class:`Clicked`), its own
interaction's response: one call, exempt from Discord's rate limits, and the publisher is
told what it drew (:mod:`delivery.clicked`). The page's moves have no such message: the
table's frames show what they did, and a refusal is said in words.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from enum import StrEnum
from typing import Any, Protocol, TypeVar

import discord

from db.models import GameStatus, SeatRow
from delivery.answering import Answering
from delivery.clicked import ClickedHands
from delivery.hands import ANSWER_PICTURE_WAIT as ANSWER_PICTURE_WAIT  # noqa: PLC0414 (My hand)
from delivery.hands import OUT_OF_DATE
from delivery.pending import PendingClick, PendingClicks
from delivery.publisher import Publisher
from delivery.shown import Answered, Note, People, forced_notes
from discordkit.replies import SORRY, answer, refuse, reply, within_budget
from discordkit.waiting import first_done
from i18n import _
from service.errors import GameClosed, PlayError, StaleMove
from service.games import GameService
from service.reports import Acting, Loaded, Report

log = logging.getLogger(__name__)

T = TypeVar("T")

# Seconds the answer waits for the computers' moves after the player's. Most computer replies
# are saved within it (a Ten or Gnoming reply in a few ms); waiting 50 ms instead cost every
# slow reply's clicker 50 ms (the acknowledgement p99 of 10 games: 52 ms, then 27 ms) and saved
# no REST call measurably (2.13 and 2.14 calls per click).
FOLLOW_WAIT = 0.02
REMEMBERED = 10_000  # seats whose last move the desk remembers (to tell a replay)


@dataclass(frozen=True, slots=True)
class Play:
    """A move as a player made it: the seat's step the control carried and the action."""

    game_id: int
    user_id: int
    step: int
    action: str


class Verdict(StrEnum):
    """What became of a move."""

    PLAYED = "played"
    STALE = "stale"  # an old control: the seat has moved on
    REPLAYED = "replayed"  # the move just played, delivered again
    CLOSED = "closed"  # the game is over
    REFUSED = "refused"  # not the player's, or not allowed by the rules
    FAILED = "failed"  # the bot's own failure


@dataclass(frozen=True, slots=True)
class Outcome:
    """A move's verdict; ``error``: why it was not played; ``report``: what it did."""

    verdict: Verdict
    error: PlayError | None = None
    report: Report | None = None


@dataclass(frozen=True, slots=True)
class Clicked:
    """The hand message a move was clicked on: the seat's DM, or an ephemeral hand."""

    message_id: int
    channel_id: int | None
    ephemeral: bool


class Answer(Protocol):
    """The way back to the one who made a move (an edge's own)."""

    @property
    def clicked(self) -> Clicked | None:
        """The hand message the move was made on (None: the page)."""

    async def within_budget(self, work: Awaitable[T], deferring: Callable[[], None]) -> T:
        """``work``'s result; an edge that must answer within a time acknowledges first when
        it takes longer (calling ``deferring`` just before)."""

    async def show(self, **kwargs: Any) -> bool:
        """Redraw the clicked hand message with these arguments; False if that failed."""

    async def refuse(self, error: PlayError) -> None:
        """Say why the move was not played, in the player's language."""

    async def fail(self) -> None:
        """Say that something went wrong on the bot's side."""


class ClickAnswer:
    """A Discord click's answer: its interaction's response (see discordkit.replies)."""

    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction
        message = interaction.message
        self.clicked = (
            None
            if message is None
            else Clicked(message.id, interaction.channel_id, message.flags.ephemeral)
        )

    async def within_budget(self, work: Awaitable[T], deferring: Callable[[], None]) -> T:
        return await within_budget(self.interaction, work, deferring=deferring)

    async def show(self, **kwargs: Any) -> bool:
        return await answer(self.interaction, update=True, **kwargs)

    async def refuse(self, error: PlayError) -> None:
        await refuse(self.interaction, error)

    async def fail(self) -> None:
        await reply(self.interaction, _(SORRY))


class _Unanswered:
    """No one to answer (a move made without an edge's answer)."""

    clicked = None

    async def within_budget(self, work: Awaitable[T], deferring: Callable[[], None]) -> T:
        return await work

    async def show(self, **kwargs: Any) -> bool:
        return False

    async def refuse(self, error: PlayError) -> None:
        return None

    async def fail(self) -> None:
        return None


async def first_answer(acting: Acting) -> Report:
    """What the answer shows: the game after the computers' moves if they come within
    FOLLOW_WAIT of the player's move being saved, else after the player's move (the
    computers' moves then reach the table and the DMs as they come). Raises what ``act``
    raised if the move was not saved."""
    own = await acting.saved
    settled = acting.settled
    await first_done(settled, timeout=FOLLOW_WAIT)
    if settled.done() and not settled.cancelled() and settled.exception() is None:
        return settled.result()
    return own


@dataclass(eq=False)
class MoveDesk:
    """Plays moves for both edges and answers them (see the module's docstring)."""

    service: GameService
    publisher: Publisher
    hands: ClickedHands
    _: KW_ONLY
    people: People
    answering: Answering
    pending: PendingClicks
    _serial: itertools.count[int] = field(default_factory=itertools.count, init=False, repr=False)
    # (game, user) -> (step, action) of the last move played here for that seat
    _last: OrderedDict[tuple[int, int], tuple[int, str]] = field(
        default_factory=OrderedDict, init=False, repr=False
    )

    async def recover_lost_clicks(self) -> None:
        """At start-up: each click deferred before the last stop and never answered. If its
        seat is still at the clicked step, the move was not saved, and the player's hand says
        so."""
        for click in self.pending.take_left():
            try:
                loaded = await self.service.load(click.game_id)
            except Exception:
                log.exception("could not look at game %s", click.game_id)
                continue
            seat = loaded.seat_of(click.user_id)
            active = loaded.row.status == GameStatus.ACTIVE
            if active and seat is not None and seat.step == click.step:
                log.info(
                    "game %s: a deferred move of seat %s was never saved", click.game_id, seat.seat
                )
                self.publisher.lost_click(loaded, seat.seat)

    async def play(self, move: Play, answer: Answer | None = None) -> Outcome:
        """Play ``move``, answer it through ``answer`` and publish what it changed."""
        answer = answer or _Unanswered()
        if answer.clicked is not None:
            self.people.clicked(move.user_id)  # looking at their DMs
        acting = self.service.act(move.game_id, move.user_id, move.step, move.action)
        serial = next(self._serial)
        try:
            with self.answering.answering():  # queued edits wait for this answer
                outcome, answered = await self._answer(move, acting, answer, serial)
        finally:
            self.pending.done(serial)  # answered (or refused): a restart owes it nothing
        if outcome.report is None:
            await _settled(acting)
            return outcome
        try:  # done already, or the computers are still answering: show what they did
            report = await acting.settled
        except Exception:  # after the player's move was saved: show that much
            log.exception("game %s: the moves after %r failed", move.game_id, move.action)
            report = outcome.report
        self.publisher.publish(report, answered=answered)
        return Outcome(Verdict.PLAYED, report=report)

    async def _answer(
        self, move: Play, acting: Acting, answer: Answer, serial: int
    ) -> tuple[Outcome, Answered | None]:
        click = PendingClick(move.game_id, move.user_id, move.step)
        try:
            shown = await answer.within_budget(
                first_answer(acting), lambda: self.pending.add(serial, click)
            )
        except StaleMove as exc:
            replayed = self._last.get((move.game_id, move.user_id)) == (move.step, move.action)
            verdict = Verdict.REPLAYED if replayed else Verdict.STALE
            log.info("%s move %r in game %s", verdict, move.action, move.game_id)
            await self._old_control(move, answer, exc)
            return Outcome(verdict, exc), None
        except GameClosed as exc:
            await self._closed_game(move, answer, exc)
            return Outcome(Verdict.CLOSED, exc), None
        except PlayError as exc:
            log.info("move %r in game %s refused: %s", move.action, move.game_id, exc)
            await answer.refuse(exc)
            return Outcome(Verdict.REFUSED, exc), None
        except Exception:
            log.exception("move %r in game %s failed", move.action, move.game_id)
            await answer.fail()
            return Outcome(Verdict.FAILED), None
        if shown.moves:
            self._remember(move)
        played = Outcome(Verdict.PLAYED, report=shown)
        seat = shown.after.seat_of(move.user_id)
        clicked = answer.clicked
        if clicked is None:  # the page: its frames show the move
            return played, None
        if seat is None:  # pragma: no cover - act() checked the seat
            await answer.show()
            return played, None
        return played, await self._show_move(shown, seat, clicked, answer)

    async def _show_move(
        self, shown: Report, seat: SeatRow, clicked: Clicked, answer: Answer
    ) -> Answered:
        """The clicked hand redrawn after the move (and the computers' moves that followed
        within FOLLOW_WAIT)."""
        note: Note | None = forced_notes(shown).get(seat.seat)
        if not shown.moves:  # the click only took its player off autopilot, on an old step
            note = f"⚠️ {_(StaleMove.NO_LONGER)}"
        kwargs = self.hands.kwargs(shown.after, seat, edit=True, note=note)
        kwargs = await self.hands.edit_with_picture(shown.after, seat.seat, kwargs)
        writes = self.hands.writes(shown.after.row.id, seat.seat)
        await answer.show(**kwargs)
        return Answered(seat.seat, clicked.message_id, shown.after, writes)

    def _remember(self, move: Play) -> None:
        key = (move.game_id, move.user_id)
        self._last.pop(key, None)
        self._last[key] = (move.step, move.action)
        if len(self._last) > REMEMBERED:
            self._last.popitem(last=False)

    async def _old_control(self, move: Play, answer: Answer, exc: StaleMove) -> None:
        """Say so, on the player's hand redrawn as it is now where possible: the response is
        exempt from the bot's REST budget, while the hand's own edit may wait seconds behind
        it on a busy bot, and a player seeing the same old buttons would click old ones
        again."""
        clicked = answer.clicked
        old = None
        if clicked is not None and exc.version is not None:
            old = self.hands.old_click(
                move.game_id,
                exc.version,
                move.user_id,
                clicked.message_id,
                ephemeral=clicked.ephemeral,
                text=exc.translated(),
            )
        if old is None:
            # An older hand DM that kept its buttons (Discord refused the edit retiring it):
            # the answer retires it, as the bot does when it sends a newer hand.
            marked = (
                clicked is not None
                and self.hands.is_old_hand(
                    move.game_id, move.user_id, clicked.channel_id, clicked.message_id
                )
                and await answer.show(content=_(OUT_OF_DATE), view=None)
            )
            if not marked:
                await answer.refuse(exc)
            return
        saw = old.answered.saw
        kwargs = await self.hands.edit_with_picture(saw, old.answered.seat, old.kwargs)
        await answer.show(**kwargs)
        self.hands.old_click_shown(old)

    async def _closed_game(self, move: Play, answer: Answer, exc: GameClosed) -> None:
        """A move on a game that is over: say so on the player's hand redrawn in its final
        state, without buttons (a crash may have left their DM behind, buttons and all)."""
        clicked = answer.clicked
        loaded: Loaded | None = None
        if clicked is not None:
            try:
                loaded = await self.service.load(move.game_id)
            except Exception:
                log.exception("could not load finished game %s", move.game_id)
        closed = None
        if loaded is not None and clicked is not None:
            closed = self.hands.closed_hand(
                loaded,
                move.user_id,
                clicked.message_id,
                ephemeral=clicked.ephemeral,
                text=exc.translated(),
            )
        if loaded is None or clicked is None or closed is None:
            await answer.refuse(exc)
            return
        seat_no, kwargs = closed
        if await answer.show(**kwargs) and not clicked.ephemeral:
            self.hands.closed_hand_shown(loaded, seat_no)

    # -- a player's own hand, outside a move ("My hand") --------------------------------

    def hand(self, loaded: Loaded, seat: SeatRow) -> dict[str, Any]:
        """The seat's hand message, to send (its picture apart: :meth:`hand_picture`)."""
        return self.hands.kwargs(loaded, seat)

    async def hand_picture(self, loaded: Loaded, seat_no: int) -> dict[str, Any]:
        """The picture of the seat's hand on its turn (``files``), else nothing."""
        return await self.hands.picture(loaded, seat_no)


async def _settled(acting: Acting) -> None:
    """Wait for a move that was not played to end (it ends with the refusal it was answered
    with: read here, so that it is not reported as never retrieved)."""
    await asyncio.gather(acting.settled, return_exceptions=True)
