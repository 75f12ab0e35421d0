"""A player's own hand, as the answer to what they clicked on it draws it (the move desk's part).

A click is answered on the message it was made on: the seat's DM, or an ephemeral hand from
**My hand**. What that answer shows depends on what the publisher has drawn of the game (the
shared :class:`~delivery.shown.GameShown` of each game): an old control is answered with the
hand as last drawn, a move on a finished game with the final hand, an older hand message is
marked out of date. What the answer drew is then told to the publisher, so that its own edits
of that DM neither repeat nor undo it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from db.models import GameStatus, SeatRow
from delivery.hands import ANSWER_PICTURE_WAIT, Hands
from delivery.marks import RenderedMarks
from delivery.publisher import Publisher
from delivery.shown import Answered, GameShown, Note
from service.reports import Loaded


@dataclass(frozen=True, slots=True)
class OldClick:
    """An old control's answer (:meth:`ClickedHands.old_click`): the response's arguments,
    and what the publisher is told once they are shown."""

    kwargs: dict[str, Any]
    answered: Answered


@dataclass(eq=False)
class ClickedHands:
    """Answers drawn on a player's own hand message, from what the publisher has drawn
    (``games``: the publisher's own record of each game it shows)."""

    games: dict[int, GameShown]
    hands: Hands
    marks: RenderedMarks
    publisher: Publisher

    def kwargs(
        self, loaded: Loaded, seat: SeatRow, *, edit: bool = False, note: Note | None = None
    ) -> dict[str, Any]:
        """The seat's hand message (its send or, with ``edit``, edit arguments), linking to
        the table as the publisher last drew it."""
        shown = self.games.get(loaded.row.id)
        table_id = shown.table_message_id if shown else loaded.row.table_message_id
        return self.hands.kwargs(loaded, seat, table_id, edit=edit, note=note)

    async def edit_with_picture(
        self, loaded: Loaded, seat_no: int, kwargs: dict[str, Any]
    ) -> dict[str, Any]:
        """A click's answer editing the hand (``kwargs``), with the hand's picture on the
        seat's turn if it is drawn within ANSWER_PICTURE_WAIT (a player is waiting on it)."""
        return await self.hands.with_picture(
            loaded, seat_no, kwargs, edit=True, wait=ANSWER_PICTURE_WAIT, urgent=True
        )

    async def picture(self, loaded: Loaded, seat_no: int) -> dict[str, Any]:
        """The picture of the seat's hand on its turn (``files``), else nothing."""
        return await self.hands.with_picture(loaded, seat_no, {}, edit=False, urgent=True)

    def writes(self, game_id: int, seat_no: int) -> int:
        """How many times hand jobs have written this seat's DM (see ``Publisher.publish``)."""
        shown = self.games.get(game_id)
        return shown.dm(seat_no).writes if shown is not None else 0

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
        kwargs = self.kwargs(loaded, seat, edit=True, note=note)
        return OldClick(kwargs, Answered(seat.seat, clicked_message, loaded, dm.writes))

    def old_click_shown(self, old: OldClick) -> None:
        """The response drew ``old``'s hand."""
        self.publisher.answered(old.answered)

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
        return seat.seat, self.kwargs(loaded, seat, edit=True, note=f"⚠️ {text}")

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
            self.publisher.resync(loaded)
