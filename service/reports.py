"""What the service hands to the Discord layer: a loaded game and the report of a call."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Generator, Iterable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from db.models import Actor, GameRow, GameStatus, SeatRow
from db.outbox import Owed
from db.shown import ShownIds
from engine import GAMES
from engine.base import Game
from i18n import N_, Later
from service.errors import NotAllowed

if TYPE_CHECKING:
    from db.play import SeatUpdate

log = logging.getLogger(__name__)

OTHER_CHANNEL = N_("That button belongs to a game in another channel.")
GAME_HERE = N_("The game in this channel is {game}.")  # {game}: its title


@dataclass(frozen=True, slots=True)
class Loaded:
    """A game as read from the store: its row, seats and engine state (None in a lobby)."""

    row: GameRow
    seats: list[SeatRow]
    state: Any

    @property
    def game(self) -> Game[Any, Any]:
        return GAMES[self.row.game]

    def seat_of(self, user_id: int) -> SeatRow | None:
        return next((s for s in self.seats if s.user_id == user_id), None)

    def left_by(self, user_id: int) -> bool:
        """Whether ``user_id`` left a seat of this game to a computer."""
        return any(s.left_user_id == user_id and s.user_id is None for s in self.seats)

    def names(self) -> list[str]:
        return [s.name for s in self.seats]


@dataclass(frozen=True, slots=True)
class Move:
    seat: int
    action: str
    actor: Actor


@dataclass(frozen=True, slots=True)
class Upcoming:
    """The automatic move due at one version of a game (the service's bookkeeping: found
    when the version is recorded, played right after)."""

    version: int
    seat: int | None  # None: people decide
    actor: Actor | None = None  # computer, autopilot or forced, with the seat
    action: Any = None  # a forced move's action


def turn_deadlines(
    seats: Iterable[SeatRow],
    to_act: set[int],
    previous: dict[int, float | None],
    was_to_act: set[int],
    timeout: float,
    now: float,
) -> dict[int, float | None]:
    """Each seat's turn timer after a move: a person newly due gets ``timeout`` seconds from
    ``now``, one still due keeps the timer it had (``previous``); computers, autopilot and
    seats not due get none, and none at all when ``timeout`` is 0."""
    out: dict[int, float | None] = {}
    for seat in seats:
        human = not seat.is_computer and not seat.autopilot
        if timeout <= 0 or not human or seat.seat not in to_act:
            out[seat.seat] = None
        elif seat.seat in was_to_act and previous.get(seat.seat) is not None:
            out[seat.seat] = previous[seat.seat]
        else:
            out[seat.seat] = now + timeout
    return out


def upcoming_at(
    game: Game[Any, Any], state: Any, seats: Iterable[SeatRow], version: int
) -> Upcoming:
    """The automatic move due at ``version``: the first due computer or player on autopilot,
    else the first due player whose only move is played for them.

    Found once, when the version is recorded: it is saved as the game's ``resume_after`` (so
    any process can finish the job if this one stops) and played right after."""
    to_act = game.to_act(state)
    for seat in seats:
        if seat.seat in to_act and (seat.is_computer or seat.autopilot):
            actor = Actor.COMPUTER if seat.is_computer else Actor.AUTOPILOT
            return Upcoming(version, seat.seat, actor)
    for seat_no in sorted(to_act):
        if (action := game.forced(state, seat_no)) is not None:
            return Upcoming(version, seat_no, Actor.FORCED, action)
    return Upcoming(version, None)


@dataclass(frozen=True, slots=True)
class Said:
    """A message a call of the service owes the channel (see service.owed), recorded with
    the move that owes it, and the states a summary is drawn from (``before`` and ``after``
    the move; None for a line) or the line's ``text``."""

    owed: Owed
    before: Any = None
    after: Any = None
    text: Later | None = None


@dataclass(slots=True)
class Report:
    """What a call changed, for the Discord layer to show."""

    before: Loaded
    after: Loaded
    moves: list[Move] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)  # the engine state after each move
    # Public lines for the game's channel: a Later is translated where it is posted.
    notices: list[Later | str] = field(default_factory=list)
    deadlines_changed: bool = False  # a turn timer was set or cleared
    started: Any = None  # a game that started in this call: its first state
    upcoming: Upcoming | None = None  # the automatic move due after ``after``, if known
    # What the call's moves owe the channel, recorded with them: posted, then marked sent.
    # A notice among ``notices`` that is also here is posted from here alone.
    said: list[Said] = field(default_factory=list)
    # The waiting hooks were told of ``after`` as its move was saved (GameService._record).
    waiting_told: bool = False
    # The game's messages as the last move's commit read them (a shared store whose move is
    # one statement: db/play.py ``on_shown``), for the publisher's first read of the game.
    shown: ShownIds | None = None

    def copy(self) -> Report:
        """This report as it is now (later moves of the call do not change the copy)."""
        return replace(
            self,
            moves=list(self.moves),
            states=list(self.states),
            notices=list(self.notices),
            said=list(self.said),
        )

    def followed_by(self, move: Move, state: Any, after: Loaded) -> Report:
        """A copy of this report with one more move, made in ``state``'s stead: the report
        the call will have once that move is saved."""
        report = self.copy()
        report.moves.append(move)
        report.states.append(state)
        report.after = after
        return report

    def state_before(self, index: int) -> Any:
        """The state move ``index`` of this report was made in."""
        if index > 0:
            return self.states[index - 1]
        return self.before.state if self.before.state is not None else self.started

    @property
    def finished(self) -> bool:
        return self.after.row.status == GameStatus.FINISHED

    def newly_due(self) -> set[int]:
        """Seats due now that were not due at some point of this report: a new turn of theirs.

        A seat that stays due throughout (a simultaneous phase where others act) is not newly
        due; a seat that acted and is due again after the others moved is.
        """
        after = self.after
        if after.row.status != GameStatus.ACTIVE or after.state is None:
            return set()
        game = after.game
        due = game.to_act(after.state)
        history = [self.before.state, *self.states[:-1]] if self.states else [self.before.state]
        out = set()
        for seat in due:
            if any(s is None or seat not in game.to_act(s) for s in history):
                out.add(seat)
        return out


class Waiting:
    """Hooks told of a call's report as soon as a move that leaves the game waiting for
    people (no automatic move follows) is being saved: while its commit runs, so the delivery
    layer draws the turn's pictures meanwhile. Should the commit fail, the hooks were told of
    a move that is not saved: what a hook starts must not depend on it (a picture keyed by
    the state it shows). A game waiting for people after a call without such a move (a game
    just started) is told before the call returns. A hook must not block; one that raises is
    logged."""

    def __init__(self) -> None:
        self.hooks: list[Callable[[Report], None]] = []

    def add(self, hook: Callable[[Report], None]) -> None:
        self.hooks.append(hook)

    def tell(self, report: Report) -> None:
        for hook in self.hooks:
            try:
                hook(report)
            except Exception:  # the move is saved; what a hook starts is an extra
                log.exception("game %s: waiting hook %r failed", report.after.row.id, hook)


def here(loaded: Loaded, channel_id: int | None) -> Loaded:
    """The game, if the click came from its own channel (None: not checked, e.g. a DM)."""
    if channel_id is not None and loaded.row.channel_id != channel_id:
        raise NotAllowed(OTHER_CHANNEL)
    return loaded


def with_seat(loaded: Loaded, seat: SeatRow) -> Loaded:
    seats = [seat if s.seat == seat.seat else s for s in loaded.seats]
    return Loaded(loaded.row, seats, loaded.state)


class Acting:
    """One player's move under way (``GameService.act``), in its two stages.

    ``saved``: the report as soon as the player's own move is saved, before the computers
    think (the one who moved can be answered then); ``settled``: the report once the
    computers' moves after it are saved too. A refused move fails both with the same error;
    a failure after the player's move was saved fails ``settled`` alone. Awaiting the
    ``Acting`` itself awaits ``settled``.
    """

    __slots__ = ("saved", "settled")

    def __init__(self, saved: asyncio.Future[Report], settled: asyncio.Future[Report]) -> None:
        self.saved = saved
        self.settled = settled

    @classmethod
    def start(cls, play: Callable[[asyncio.Future[Report]], Awaitable[Report]]) -> Acting:
        """Run ``play``, which sets the future it is given once the player's move is saved
        (and may return without setting it: no move of the player's was saved)."""
        saved: asyncio.Future[Report] = asyncio.get_running_loop().create_future()
        # Whoever awaits ``settled`` reads a refusal there: ``saved`` does not log it again.
        saved.add_done_callback(lambda f: f.cancelled() or f.exception())
        return cls(saved, asyncio.ensure_future(_staged(play, saved)))

    def __await__(self) -> Generator[Any, None, Report]:
        return self.settled.__await__()


async def _staged(
    play: Callable[[asyncio.Future[Report]], Awaitable[Report]], saved: asyncio.Future[Report]
) -> Report:
    try:
        report = await play(saved)
    except BaseException as exc:
        if not saved.done():
            if isinstance(exc, Exception):
                saved.set_exception(exc)
            else:
                saved.cancel()
        raise
    if not saved.done():  # no move of the player's (it only took them off autopilot)
        saved.set_result(report.copy())
    return report


def seats_after(
    seats: list[SeatRow], updates: list[SeatUpdate], acting: int, finished: bool
) -> list[SeatRow]:
    """The seats as a move's bookkeeping left them (the rows the store now holds); a seat the
    move left as it was is the same object."""
    after = []
    for s, u in zip(seats, updates, strict=True):
        step = s.step + (s.seat == acting)
        deadline = None if finished else u.deadline
        if (step, deadline, u.timeouts, u.autopilot) == (
            s.step,
            s.deadline,
            s.timeouts,
            s.autopilot,
        ):
            after.append(s)
        else:
            after.append(
                replace(s, step=step, deadline=deadline, timeouts=u.timeouts, autopilot=u.autopilot)
            )
    return after
