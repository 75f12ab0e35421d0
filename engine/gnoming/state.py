"""Gnoming A Round: the game state, its copy for pure ``apply`` and its JSON snapshot."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Final, Literal, TypedDict

from engine.gnoming.actions import Source
from engine.gnoming.cards import CARD_IDS, IDX_OF_ID

Phase = Literal["opening", "draw", "play", "bounce", "discard", "hazard_flips", "finished"]
PHASES: Final[tuple[Phase, ...]] = (
    "opening",
    "draw",
    "play",
    "bounce",
    "discard",
    "hazard_flips",
    "finished",
)
ROUNDS: Final = 3
DEFAULT_MAX_TURNS: Final = 30  # R20
NO_PICK: Final = -1


class GnomeLine(TypedDict):
    """A matched line of a scored grid."""

    cells: list[int]  # its 3 cells
    value: int  # the card value the line is made of


class GnomeRoundSeat(TypedDict):
    """One seat's scored grid, revealed."""

    grid: list[str]  # 9 card ids, row by row
    lines: list[GnomeLine]
    hazards: int
    wild: int | None  # the cell of the mulligan played as the wild, if any
    raw: int
    adjust: int  # the first-out adjustment (-5, +5 or 0)
    score: int  # raw + adjust


class GnomeRound(TypedDict):
    """The summary of a scored round (kept in the state, shown in the views)."""

    round: int
    first_out: int | None
    stalled: bool  # the round ended on the turn cap with nobody out
    seats: list[GnomeRoundSeat]


@dataclass(slots=True)
class State:
    """Everything about a game. Cards are indexes 0-109. Treated as immutable outside the
    engine: ``apply`` works on a :meth:`copy`."""

    players: int
    seed: int
    max_turns: int  # max_turns_per_player; 0 = no cap
    round: int = 1
    phase: Phase = "opening"
    active: int = 0
    grid: list[list[int]] = field(default_factory=list)
    up: list[list[bool]] = field(default_factory=list)
    draw: list[int] = field(default_factory=list)  # index 0 is the top
    piles: list[list[int]] = field(default_factory=list)  # [A, B]; last element is the top
    removed: list[int] = field(default_factory=list)  # hazards out of play this round
    held: int | None = None
    held_from: Source | None = None
    pending: int | None = None  # the card bouncing (bounce) or waiting for a pile (discard)
    locked: list[int] = field(default_factory=list)
    opening: list[list[int] | None] = field(default_factory=list)  # per seat; None = not yet
    flip_wait: list[int] = field(default_factory=list)  # seats that still owe an answer
    flip_pick: list[int] = field(default_factory=list)  # per seat; NO_PICK = none chosen
    first_out: int | None = None
    lap: list[int] = field(default_factory=list)  # final-lap turns still to play, in order
    turns: int = 0  # completed turns this round
    shuffles: int = 0  # shuffles done this round (names the RNG stream of the next one)
    totals: list[int] = field(default_factory=list)
    round_scores: list[list[int]] = field(default_factory=list)  # adjusted, per round
    last_round: GnomeRound | None = None  # summary of the last scored round (never mutated)

    @property
    def start_seat(self) -> int:
        return (self.round - 1) % self.players

    def face_down(self, seat: int) -> list[int]:
        """The face-down cells of ``seat``'s grid."""
        return [cell for cell, is_up in enumerate(self.up[seat]) if not is_up]

    def copy(self) -> State:
        return State(
            players=self.players,
            seed=self.seed,
            max_turns=self.max_turns,
            round=self.round,
            phase=self.phase,
            active=self.active,
            grid=[list(row) for row in self.grid],
            up=[list(row) for row in self.up],
            draw=list(self.draw),
            piles=[list(pile) for pile in self.piles],
            removed=list(self.removed),
            held=self.held,
            held_from=self.held_from,
            pending=self.pending,
            locked=list(self.locked),
            opening=[None if pick is None else list(pick) for pick in self.opening],
            flip_wait=list(self.flip_wait),
            flip_pick=list(self.flip_pick),
            first_out=self.first_out,
            lap=list(self.lap),
            turns=self.turns,
            shuffles=self.shuffles,
            totals=list(self.totals),
            round_scores=[list(scores) for scores in self.round_scores],
            last_round=self.last_round,
        )

    def all_cards(self) -> list[int]:
        """Every card the state holds, wherever it is (for conservation checks)."""
        cards = [card for row in self.grid for card in row]
        cards += self.draw + self.piles[0] + self.piles[1] + self.removed
        cards += [card for card in (self.held, self.pending) if card is not None]
        return cards


def _ids(cards: list[int]) -> list[str]:
    return [CARD_IDS[card] for card in cards]


def _idxs(ids: list[str]) -> list[int]:
    return [IDX_OF_ID[card_id] for card_id in ids]


def _opt_id(card: int | None) -> str | None:
    return None if card is None else CARD_IDS[card]


def _opt_idx(card_id: str | None) -> int | None:
    return None if card_id is None else IDX_OF_ID[card_id]


def state_to_json(state: State) -> str:
    data = {
        "v": 1,
        "players": state.players,
        "seed": state.seed,
        "max_turns": state.max_turns,
        "round": state.round,
        "phase": state.phase,
        "active": state.active,
        "grid": [_ids(row) for row in state.grid],
        "up": [[int(is_up) for is_up in row] for row in state.up],
        "draw": _ids(state.draw),
        "piles": [_ids(pile) for pile in state.piles],
        "removed": _ids(state.removed),
        "held": _opt_id(state.held),
        "held_from": state.held_from,
        "pending": _opt_id(state.pending),
        "locked": state.locked,
        "opening": state.opening,
        "flip_wait": state.flip_wait,
        "flip_pick": state.flip_pick,
        "first_out": state.first_out,
        "lap": state.lap,
        "turns": state.turns,
        "shuffles": state.shuffles,
        "totals": state.totals,
        "round_scores": state.round_scores,
        "last_round": state.last_round,
    }
    return json.dumps(data, separators=(",", ":"))


def state_from_json(text: str) -> State:
    data = json.loads(text)
    if data.get("v") != 1:
        raise ValueError("Unknown Gnoming snapshot version.")
    phase = data["phase"]
    if phase not in PHASES:
        raise ValueError(f"Unknown phase {phase!r}.")
    return State(
        players=data["players"],
        seed=data["seed"],
        max_turns=data["max_turns"],
        round=data["round"],
        phase=phase,
        active=data["active"],
        grid=[_idxs(row) for row in data["grid"]],
        up=[[bool(is_up) for is_up in row] for row in data["up"]],
        draw=_idxs(data["draw"]),
        piles=[_idxs(pile) for pile in data["piles"]],
        removed=_idxs(data["removed"]),
        held=_opt_idx(data["held"]),
        held_from=data["held_from"],
        pending=_opt_idx(data["pending"]),
        locked=list(data["locked"]),
        opening=[None if pick is None else list(pick) for pick in data["opening"]],
        flip_wait=list(data["flip_wait"]),
        flip_pick=list(data["flip_pick"]),
        first_out=data["first_out"],
        lap=list(data["lap"]),
        turns=data["turns"],
        shuffles=data["shuffles"],
        totals=list(data["totals"]),
        round_scores=[list(scores) for scores in data["round_scores"]],
        last_round=data["last_round"],
    )
