"""2-Player Hearts: the shape of ``view(state, seat)`` (``seat`` None is a spectator).

:class:`HeartsView` is what ``GAME.view`` returns: a plain JSON-serialisable dict, typed as a
``TypedDict`` so that a reader (a renderer, a test) can use these keys only. A
seat's view differs from the spectator's in ``seat``, ``hand`` and ``opponent_hand_size``.
"""

from __future__ import annotations

from typing import TypedDict

from engine.base import Seat, check_seat
from engine.hearts2p.cards import POINT_CARDS, card_points, points_of, sorted_cards
from engine.hearts2p.rules import PLAYERS, TRICKS_PER_HAND, seat_to_play
from engine.hearts2p.state import HandRecord, State, Trick


class HeartsPlay(TypedDict):
    """One card on the table or in the hand's history."""

    seat: Seat
    card: str


class HeartsTrick(TypedDict):
    """A completed trick."""

    leader: Seat
    cards: list[HeartsPlay]  # the leader's card, then the follower's
    winner: Seat
    points: int


class HeartsTaken(TypedDict):
    """What one seat has taken this hand."""

    points: int  # raw points of the cards taken
    cards: list[str]  # every card taken, sorted
    point_cards: list[str]  # the hearts and the queen of spades among them


class HeartsScored(TypedDict):
    """One scored hand, for the score sheet."""

    hand_no: int
    points: list[int]  # per seat, after a moon shot
    raw: list[int]  # per seat, before it
    moon: Seat | None  # the seat that shot the moon


class HeartsLastHand(TypedDict):
    """The last scored hand in full: the only place the dead cards ever appear."""

    hand_no: int
    dead: list[str]
    raw: list[int]
    points: list[int]
    moon: Seat | None
    totals: list[int]  # after this hand
    point_cards: list[list[str]]  # per seat
    last_trick: HeartsTrick


class HeartsOutcome(TypedDict):
    totals: list[int]
    winners: list[Seat]


class HeartsView(TypedDict):
    """Everything one seat (or a spectator) may see."""

    game: str  # "hearts"
    players: int  # 2
    seat: Seat | None  # the viewer; None for a spectator
    phase: str  # "play" or "over"
    to_act: list[Seat]
    hand_no: int  # 1-based
    dealer: Seat
    leader: Seat  # the seat leading the current trick
    trick_no: int  # 1-13
    hearts_broken: bool
    opening_card: str  # the card that opens trick 1
    hand: list[str]  # the viewer's cards by suit then rank ([] for a spectator)
    hand_sizes: list[int]
    opponent_hand_size: int | None  # None for a spectator
    trick: list[HeartsPlay]  # cards on the table this trick, in play order
    # The last completed trick of this hand (the previous hand's is in ``last_hand``).
    last_trick: HeartsTrick | None
    tricks: list[HeartsTrick]  # every completed trick of this hand
    played: list[HeartsPlay]  # every card played this hand, in order (public history)
    taken: list[HeartsTaken]  # per seat
    # Totals of every scored hand (once the game is over, the final hand included).
    totals: list[int]
    hands_history: list[HeartsScored]
    last_hand: HeartsLastHand | None
    outcome: HeartsOutcome | None  # None while the game runs


def _trick_view(trick: Trick) -> HeartsTrick:
    leader, led, followed, winner = trick
    return {
        "leader": leader,
        "cards": [{"seat": leader, "card": led}, {"seat": 1 - leader, "card": followed}],
        "winner": winner,
        "points": card_points(led) + card_points(followed),
    }


def build_view(state: State, seat: Seat | None) -> HeartsView:
    if seat is not None:
        check_seat(seat, PLAYERS)
    actor = seat_to_play(state)
    played: list[HeartsPlay] = []
    for leader, led, followed, _ in state.history:
        played.append({"seat": leader, "card": led})
        played.append({"seat": 1 - leader, "card": followed})
    played.extend({"seat": s, "card": c} for s, c in state.trick)
    tricks = [_trick_view(t) for t in state.history]
    last = state.records[-1] if state.records else None
    finished = state.winner is not None
    return {
        "game": "hearts",
        "players": PLAYERS,
        "seat": seat,
        "phase": "over" if finished else "play",
        "to_act": [] if actor is None else [actor],
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "leader": state.leader,
        "trick_no": state.trick_no,
        "hearts_broken": state.hearts_broken,
        "opening_card": state.opening_card,
        "hand": sorted_cards(state.hands[seat]) if seat is not None else [],
        "hand_sizes": [len(h) for h in state.hands],
        "opponent_hand_size": len(state.hands[1 - seat]) if seat is not None else None,
        "trick": [{"seat": s, "card": c} for s, c in state.trick],
        "last_trick": tricks[-1] if tricks else None,
        "tricks": tricks,
        "played": played,
        "taken": [
            {
                "points": points_of(pile),
                "cards": sorted_cards(pile),
                "point_cards": sorted_cards(c for c in pile if c in POINT_CARDS),
            }
            for pile in state.won
        ],
        # Totals of every scored hand (once the game is over, the final hand included).
        "totals": list(state.totals),
        "hands_history": [
            {"hand_no": r.hand_no, "points": list(r.points), "raw": list(r.raw), "moon": r.moon}
            for r in state.records
        ],
        "last_hand": None if last is None else _record_view(last),
        "outcome": (
            None
            if state.winner is None
            else {"totals": list(state.totals), "winners": [state.winner]}
        ),
    }


def _record_view(record: HandRecord) -> HeartsLastHand:
    return {
        "hand_no": record.hand_no,
        "dead": list(record.dead),
        "raw": list(record.raw),
        "points": list(record.points),
        "moon": record.moon,
        "totals": list(record.totals),
        "point_cards": [list(p) for p in record.point_cards],
        "last_trick": _trick_view(record.last_trick),
    }


def next_trick_view(view: HeartsView) -> HeartsView | None:
    """``view`` as the next trick begins, everything else as now: the trick after this one,
    or after the hand's last the next hand's first, where hearts are not broken yet; None
    once the game is over. A guess of what the seat is shown next (drawing ahead): mid-hand,
    hearts broken stays as now, though a heart played meanwhile may break them."""
    if view["phase"] == "over":
        return None
    later = view.copy()
    later["trick"] = []
    if view["trick_no"] < TRICKS_PER_HAND:
        later["trick_no"] = view["trick_no"] + 1
    else:
        later["hand_no"] = view["hand_no"] + 1
        later["trick_no"] = 1
        later["hearts_broken"] = False
    return later
