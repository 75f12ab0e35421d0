"""Grinch: the shape of ``view(state, seat)`` (``seat`` None is a spectator), key by key.

:class:`GrinchView` is what ``GAME.view`` returns: a plain JSON-serialisable dict, typed as a
``TypedDict`` so that a reader (a renderer, a test) can use these keys only. The
seat's own parts (:class:`GrinchSeatParts`) are the only keys in which a seat's view differs
from the spectator's.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from engine.base import Outcome, Seat
from engine.grinch.cards import ROWS
from engine.grinch.rules import DECK, GRINCH_TAKE, ROUNDS, SCORING, WHO_DISCARD, sheet_totals
from engine.grinch.scoring import row_values
from engine.grinch.state import GrinchState, RoundResult


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


def _result_view(last: RoundResult) -> GrinchRound:
    return {
        "round": last.round,
        "grinch": last.grinch,
        "hands": [list(h) for h in last.hands],
        "rows": list(last.rows),
        "points": list(last.points),
    }


def _take_view(owner: int, card: str, me_grinch: bool) -> GrinchTake:
    """One take as a viewer sees it: a card from the deck is the Grinch's secret."""
    if owner == DECK:
        return {"source": "deck", "owner": None, "card": card if me_grinch else None}
    return {"source": "pile", "owner": owner, "card": card}


def seat_parts(state: GrinchState, seat: Seat | None) -> GrinchSeatParts:
    """The parts of a view that differ from seat to seat: the seat's role, hand, pending card,
    row values and used rows, and the round's takes (see :func:`_take_view`)."""
    me_grinch = seat is not None and seat == state.grinch
    takes = [_take_view(owner, card, me_grinch) for owner, card in state.takes]
    simultaneous = state.phase in (WHO_DISCARD, SCORING)
    values = None
    if state.phase == SCORING and seat is not None and state.pending[seat] is None:
        values = row_values(state.hands[seat])
    return {
        "seat": seat,
        "role": None if seat is None else ("grinch" if me_grinch else "who"),
        "my_pending": state.pending[seat] if seat is not None and simultaneous else None,
        "hand": None if seat is None else list(state.hands[seat]),
        "takes": takes,
        "row_values": values,
        "used_rows": None
        if seat is None
        else [r for r, v in zip(ROWS, state.sheet[seat], strict=True) if v is not None],
    }


def build_view(
    state: GrinchState, seat: Seat | None, to_act: set[Seat], outcome: Outcome | None
) -> GrinchView:
    """What ``seat`` (None: a spectator) sees of ``state``; ``to_act`` and ``outcome`` are the
    game's answers for the same state."""
    n = state.players
    phase = state.phase
    simultaneous = phase in (WHO_DISCARD, SCORING)
    last = state.last_round
    return {
        "game": "grinch",
        "players": n,
        "round": state.round,
        "rounds": ROUNDS[n],
        "grinch": state.grinch,
        "turn": state.turn,
        "heart": state.turn + 2,
        "phase": phase,
        "takes_done": len(state.takes),
        "to_act": sorted(to_act),
        "submitted": [s for s in range(n) if state.pending[s] is not None] if simultaneous else [],
        "deck_size": len(state.deck),
        "piles": [list(p) for p in state.piles],
        "takeable": [s for s in range(n) if state.piles[s]] if phase == GRINCH_TAKE else [],
        "hand_sizes": [len(h) for h in state.hands],
        "rows": list(ROWS),
        "sheet": [dict(zip(ROWS, cells, strict=True)) for cells in state.sheet],
        "totals": list(sheet_totals(state)),
        "last_round": None if last is None else _result_view(last),
        "outcome": None
        if outcome is None
        else {"totals": list(outcome.totals), "winners": sorted(outcome.winners)},
        **seat_parts(state, seat),
    }
