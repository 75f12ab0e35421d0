"""2-Player Hearts: the shape of ``view(state, seat)`` (``seat`` None is a spectator).

:class:`HeartsView` is what ``GAME.view`` returns: a plain JSON-serialisable dict, typed as a
``TypedDict`` so that a reader (a renderer, a test) can use these keys only. A
seat's view differs from the spectator's in ``seat``, ``hand`` and ``opponent_hand_size``.
"""

from __future__ import annotations

from typing import TypedDict

from engine.base import Seat


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
