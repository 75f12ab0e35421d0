"""Grinch: the shape of ``view(state, seat)`` (``seat`` None is a spectator), key by key.

:class:`GrinchView` is what ``GAME.view`` returns: a plain JSON-serialisable dict, typed as a
``TypedDict`` so that a reader (a renderer, a test) can use these keys only. The
seat's own parts (:class:`GrinchSeatParts`) are the only keys in which a seat's view differs
from the spectator's.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from engine.base import Seat


class GrinchDeckTake(TypedDict):
    """A Grinch take from the deck: its card is shown to the Grinch only."""

    source: Literal["deck"]
    owner: None
    card: str | None  # None for everyone but the Grinch


class GrinchPileTake(TypedDict):
    """A Grinch take from a seat's pile: public."""

    source: Literal["pile"]
    owner: Seat
    card: str


# One of this turn's Grinch takes; ``take["source"]`` tells which.
GrinchTake = GrinchDeckTake | GrinchPileTake


class GrinchRound(TypedDict):
    """The last scored round, revealed: every seat's hand, chosen row and points."""

    round: int
    grinch: Seat
    hands: list[list[str]]  # 5 card ids per seat
    rows: list[str]  # the row each seat chose
    points: list[int]


class GrinchOutcome(TypedDict):
    totals: list[int]
    winners: list[Seat]  # sorted


class GrinchSeatParts(TypedDict):
    """The keys that depend on the viewer."""

    seat: Seat | None  # the viewer; None for a spectator
    role: str | None  # "grinch" or "who"; None for a spectator
    my_pending: str | None  # the viewer's locked-in discard (card id) or row, else None
    hand: list[str] | None  # the viewer's hand in canonical order; None for a spectator
    # This turn's takes; cleared when the next turn's Whos draw (SCORING still shows the
    # third turn's takes).
    takes: list[GrinchTake]
    # During SCORING, for a viewer who has not chosen yet, {row: cell value} of their hand for
    # every row (used ones included); else None.
    row_values: dict[str, int] | None
    used_rows: list[str] | None  # the viewer's filled rows in row order; None for a spectator


class GrinchView(GrinchSeatParts):
    """Everything one seat (or a spectator) may see."""

    game: str  # "grinch"
    players: int
    round: int  # 1..rounds
    rounds: int
    grinch: Seat  # this round's Grinch
    turn: int  # 1..3
    heart: int  # turn + 2: the hand size the Grinch tile asks for
    phase: str  # "WHO_DISCARD", "GRINCH_TAKE", "GRINCH_DISCARD", "SCORING" or "GAME_END"
    takes_done: int  # Grinch takes made this turn (0, 1 or 2, = len(takes))
    to_act: list[Seat]  # sorted seats that may act now
    submitted: list[Seat]  # seats already locked in this simultaneous phase; [] otherwise
    deck_size: int
    piles: list[list[str]]  # per seat the whole pile, bottom first (last = top, takeable)
    takeable: list[Seat]  # seats whose pile the Grinch may take from now ([] otherwise)
    hand_sizes: list[int]
    rows: list[str]  # row ids in sheet order
    sheet: list[dict[str, int | None]]  # per seat {row: points, None while empty}
    totals: list[int]  # per seat, the sum of filled cells
    last_round: GrinchRound | None  # None until the first scoring
    outcome: GrinchOutcome | None  # None while the game runs
