"""Turn pictures drawn ahead: as soon as a move that leaves its player to go on (a turn of
several steps) is being saved, the picture of their hand is asked of the painter, in their
language, so the answer to their click, which shows their next step, finds it drawn or under
way.

The service tells (``GameService.on_waiting``) when a move that leaves the game waiting for
people is being saved: the drawing runs while the move's commit does. The picture is
:meth:`Attachments.hand_png`'s, which draws a picture once however many ask for it, so the
later ask waits for this drawing instead of starting another; it is found by the state it
shows, so a picture drawn for a move whose commit failed is never shown. Only the pictures
a click's answer shows are drawn ahead: a seat whose turn began with the move is shown it by
a paced DM edit, which draws its picture once the move is answered and published. Drawn
ahead, that picture would take the CPU the click's answer needs at the moment it is made.
Never for a player whose DM shows no hand: DMs closed, or the channel's live table open (its
page shows the hand; delivery.onpage, as the hand's DM asks before it is drawn). Nothing a
player sees depends on this: a picture not drawn ahead is drawn when asked.
"""

from __future__ import annotations

import asyncio
import logging

import i18n
from db.models import Actor, GameStatus
from delivery.attachments import Attachments
from delivery.onpage import OnPage
from delivery.shown import People
from delivery.speaking import Speaking
from service.reports import Loaded, Report

log = logging.getLogger(__name__)

# Pictures drawn ahead at once: past it (a busy bot, a restart resuming many games) a picture
# is drawn when its message asks for it, as it would be without drawing ahead.
AHEAD_AT_ONCE = 8


def going_on(report: Report) -> set[int]:
    """Seats whose person chose a move in ``report`` (a click, or the live table's page) and
    who are still to play (a turn of several steps): the answer to the click shows their
    next step, with its picture. Moves played for a person (forced, timeout, autopilot)
    answer no click of theirs."""
    after = report.after
    if after.row.status != GameStatus.ACTIVE or after.state is None:
        return set()
    chose = {move.seat for move in report.moves if move.actor == Actor.PLAYER}
    return after.game.to_act(after.state) & chose


class PicturesAhead:
    """Starts the movers' hand pictures when a move is saved (see the module's docstring)."""

    def __init__(
        self,
        attachments: Attachments,
        speaking: Speaking,
        people: People,
        on_page: OnPage | None = None,
    ) -> None:
        """``on_page``: who has a channel's live table open (None: no live table)."""
        self.attachments = attachments
        self.speaking = speaking
        self.people = people
        self.on_page = on_page
        self._under_way: set[asyncio.Task[None]] = set()

    def saved(self, report: Report) -> None:
        """A move that leaves the game waiting for people is being saved
        (``GameService.on_waiting``)."""
        loaded = report.after
        for seat_no in sorted(going_on(report)):
            seat = loaded.seats[seat_no]
            user_id = seat.user_id
            if user_id is None or seat.is_computer or seat.autopilot:
                continue
            if seat.dm_closed or user_id in self.people.dm_closed:
                continue  # no DM to show it: My hand draws it if pressed
            if len(self._under_way) >= AHEAD_AT_ONCE:
                log.debug("game %s: pictures ahead at their bound", loaded.row.id)
                return
            task = asyncio.get_running_loop().create_task(self._draw(loaded, seat_no, user_id))
            self._under_way.add(task)
            task.add_done_callback(self._under_way.discard)

    async def _draw(self, loaded: Loaded, seat_no: int, user_id: int) -> None:
        """The picture, in the language the seat's DM is written in (the drawing keeps it);
        none for a player on the live table's page: their DM is left alone meanwhile."""
        try:
            if self.on_page is not None and await self.on_page.has(loaded.row.channel_id, user_id):
                return
            with i18n.using(await self.speaking.private(loaded, user_id)):
                await self.attachments.hand_png(loaded, seat_no, urgent=True)
        except Exception:  # a picture drawn ahead is an extra: its message draws it again
            log.exception("game %s: could not draw seat %s's hand ahead", loaded.row.id, seat_no)

    async def close(self) -> None:
        """Stop waiting for the pictures under way (the bot is stopping)."""
        tasks = list(self._under_way)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
