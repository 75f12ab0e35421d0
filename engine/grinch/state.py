"""Grinch game state (rules/grinch.md section 3.1) and its decoding from a snapshot."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from engine.base import Seat


@dataclass(frozen=True, slots=True)
class RoundResult:
    """The revealed end of a round: hands, chosen rows and points per seat."""

    round: int
    grinch: Seat
    hands: tuple[tuple[str, ...], ...]
    rows: tuple[str, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GrinchState:
    """The whole game (section 3.1); hidden parts leave the engine only through ``view``.

    A Who's locked-in discard stays in ``hands`` (and in ``pending``) until every Who is in.
    """

    players: int
    key: int
    round: int
    grinch: Seat
    turn: int
    phase: str
    deck: tuple[str, ...]  # index 0 = top
    hands: tuple[tuple[str, ...], ...]  # each in canonical order
    piles: tuple[tuple[str, ...], ...]  # last = top
    sheet: tuple[tuple[int | None, ...], ...]  # per seat, per row in ROWS order
    pending: tuple[str | None, ...]  # secret choices of the current simultaneous phase
    takes: tuple[tuple[int, str], ...]  # this turn's Grinch takes: (owner or DECK, card)
    last_round: RoundResult | None = None


def state_to_dict(state: GrinchState) -> dict[str, Any]:
    """The state's fields by name, as ``dataclasses.asdict`` gives them (tuples stay tuples:
    JSON writes them as lists) without its deep copy of every value (a move saves one)."""
    data: dict[str, Any] = {f.name: getattr(state, f.name) for f in fields(state)}
    last = state.last_round
    if last is not None:
        data["last_round"] = {f.name: getattr(last, f.name) for f in fields(last)}
    return data


def _tuples(rows: list[list[Any]]) -> tuple[tuple[Any, ...], ...]:
    return tuple(tuple(row) for row in rows)


def state_from_dict(data: dict[str, Any]) -> GrinchState:
    """Inverse of ``dataclasses.asdict`` for a state (lists become tuples again)."""
    last = data["last_round"]
    return GrinchState(
        players=data["players"],
        key=data["key"],
        round=data["round"],
        grinch=data["grinch"],
        turn=data["turn"],
        phase=data["phase"],
        deck=tuple(data["deck"]),
        hands=_tuples(data["hands"]),
        piles=_tuples(data["piles"]),
        sheet=_tuples(data["sheet"]),
        pending=tuple(data["pending"]),
        takes=tuple((o, c) for o, c in data["takes"]),
        last_round=None
        if last is None
        else RoundResult(
            last["round"],
            last["grinch"],
            _tuples(last["hands"]),
            tuple(last["rows"]),
            tuple(last["points"]),
        ),
    )
