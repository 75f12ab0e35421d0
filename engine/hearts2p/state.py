"""2-Player Hearts: the game state, the record of a scored hand and the JSON snapshot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.base import Seat

# A completed trick: (leader, leader's card, follower's card, winner).
Trick = tuple[Seat, str, str, Seat]


@dataclass(frozen=True, slots=True)
class HandRecord:
    """A scored hand, kept for the score sheet and the round summary."""

    hand_no: int
    dead: tuple[str, str]
    raw: tuple[int, int]
    points: tuple[int, int]
    moon: Seat | None
    totals: tuple[int, int]  # after this hand
    point_cards: tuple[tuple[str, ...], tuple[str, ...]]  # taken by each seat
    last_trick: Trick


@dataclass(frozen=True, slots=True)
class State:
    seed: int
    hand_no: int
    dealer: Seat
    hands: tuple[tuple[str, ...], tuple[str, ...]]
    dead: tuple[str, str]
    opening_card: str
    leader: Seat
    trick: tuple[tuple[Seat, str], ...]
    trick_no: int
    hearts_broken: bool
    won: tuple[tuple[str, ...], tuple[str, ...]]
    history: tuple[Trick, ...]
    totals: tuple[int, int]
    records: tuple[HandRecord, ...]
    winner: Seat | None  # set once the game is over


def pair(values: Any) -> tuple[Any, Any]:
    first, second = values
    return (first, second)


def state_to_dict(state: State) -> dict[str, Any]:
    return {
        "seed": state.seed,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "hands": [list(h) for h in state.hands],
        "dead": list(state.dead),
        "opening_card": state.opening_card,
        "leader": state.leader,
        "trick": [list(p) for p in state.trick],
        "trick_no": state.trick_no,
        "hearts_broken": state.hearts_broken,
        "won": [list(w) for w in state.won],
        "history": [list(t) for t in state.history],
        "totals": list(state.totals),
        "records": [
            {
                "hand_no": r.hand_no,
                "dead": list(r.dead),
                "raw": list(r.raw),
                "points": list(r.points),
                "moon": r.moon,
                "totals": list(r.totals),
                "point_cards": [list(p) for p in r.point_cards],
                "last_trick": list(r.last_trick),
            }
            for r in state.records
        ],
        "winner": state.winner,
    }


def _trick_from(values: list[Any]) -> Trick:
    leader, led, followed, winner = values
    return (int(leader), str(led), str(followed), int(winner))


def state_from_dict(data: dict[str, Any]) -> State:
    return State(
        seed=int(data["seed"]),
        hand_no=int(data["hand_no"]),
        dealer=int(data["dealer"]),
        hands=pair(tuple(h) for h in data["hands"]),
        dead=pair(data["dead"]),
        opening_card=str(data["opening_card"]),
        leader=int(data["leader"]),
        trick=tuple((int(s), str(c)) for s, c in data["trick"]),
        trick_no=int(data["trick_no"]),
        hearts_broken=bool(data["hearts_broken"]),
        won=pair(tuple(w) for w in data["won"]),
        history=tuple(_trick_from(t) for t in data["history"]),
        totals=pair(data["totals"]),
        records=tuple(
            HandRecord(
                hand_no=int(r["hand_no"]),
                dead=pair(r["dead"]),
                raw=pair(r["raw"]),
                points=pair(r["points"]),
                moon=r["moon"],
                totals=pair(r["totals"]),
                point_cards=pair(tuple(p) for p in r["point_cards"]),
                last_trick=_trick_from(r["last_trick"]),
            )
            for r in data["records"]
        ),
        winner=data["winner"],
    )
