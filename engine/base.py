"""The contract every game module follows, and the vocabulary they share.

A game module exposes one object ``GAME`` satisfying :class:`Game`. Everything is pure:
``apply`` returns a new state and never touches the one it was given; all randomness comes
from the seed stored in (or derived from) the state; no I/O, no asyncio, no Discord.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

Seat = int
# What the contract says of any game's view: JSON-serialisable, keyed by name, read only.
# Each game's ``view`` returns its own TypedDict (``engine/<package>/view.py``), which fits
# this type; tests/engine/test_view_shapes.py holds every game to it.
View = Mapping[str, Any]


class EngineError(Exception):
    """Root of every error the engine raises."""


class IllegalAction(EngineError, ValueError):
    """An action that the rules do not allow now, by this seat, or at all.

    ``str(error)`` is a short sentence a player can read ("It is not your turn."), in English.
    ``reason`` and ``values`` are its parts for a translation: ``reason`` is the English text
    with ``{name}`` placeholders (the catalogs list it), ``values`` fill them in.
    """

    def __init__(self, reason: str, /, **values: object) -> None:
        self.reason = reason
        self.values = values
        super().__init__(reason.format(**values) if values else reason)


class BadActionText(IllegalAction):
    """Action text that does not parse (an old or forged custom_id, a typo in a log)."""


@runtime_checkable
class Action(Protocol):
    """A small frozen value; ``str(action)`` is its stable text form (at most 40 characters)."""

    def __str__(self) -> str: ...


@dataclass(frozen=True, slots=True)
class CodedAction:
    """An action whose text form is its ``code`` and its fields, joined with dots.

    ``Open(3, 5)`` with ``code = "op"`` is ``op.3.5``; a field that is None is left out
    (``Discard(None)`` with ``code = "x"`` is ``x``), an action without fields is its code.
    A game whose text form reads otherwise writes its own ``__str__``.
    """

    code: ClassVar[str]

    def __str__(self) -> str:
        parts = (getattr(self, f.name) for f in fields(self))
        return ".".join([self.code, *(str(part) for part in parts if part is not None)])


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game as a value: per-seat totals and the winning seats.

    ``winners`` is never empty in a game of two or more; in a solo game it is empty when the
    player lost (missed the target).
    """

    totals: tuple[int, ...]
    winners: frozenset[Seat]
    reason: str = "complete"
    details: dict[str, Any] = field(default_factory=dict, compare=False)


S = TypeVar("S")
A = TypeVar("A", bound=Action)


class Game(Protocol[S, A]):
    """What every game module's ``GAME`` object provides."""

    name: str  # command and registry key: "grinch", "gnome", "hearts", "ten"
    title: str  # display name
    lowest_wins: bool  # the lowest total wins (Gnoming, Hearts) instead of the highest
    min_players: int
    max_players: int

    def new_game(self, players: int, seed: int, options: dict[str, Any] | None = None) -> S:
        """A fresh game, fully determined by ``players``, ``seed`` and ``options``."""
        ...

    def to_act(self, state: S) -> set[Seat]:
        """Seats that may act now; several in simultaneous phases; empty once finished."""
        ...

    def legal_actions(self, state: S, seat: Seat) -> list[A]:
        """Every action ``seat`` may take now (empty when it is not to act)."""
        ...

    def forced(self, state: S, seat: Seat) -> A | None:
        """The seat's only move when the rules leave it no choice and playing it for them
        tells the others nothing they could not see; None when the player decides."""
        ...

    def apply(self, state: S, seat: Seat, action: A) -> S:
        """The state after ``seat`` takes ``action``; raises :class:`IllegalAction`."""
        ...

    def parse_action(self, text: str) -> A:
        """Inverse of ``str(action)``; raises :class:`BadActionText`."""
        ...

    def view(self, state: S, seat: Seat | None) -> View:
        """JSON-serialisable: exactly what ``seat`` (a spectator for None) may see."""
        ...

    def to_json(self, state: S) -> str: ...

    def from_json(self, text: str) -> S: ...

    def outcome(self, state: S) -> Outcome | None:
        """None while the game runs; the totals and winners once it is over."""
        ...


class Level(StrEnum):
    """A computer player's strength, chosen per seat (docs/computer-players.md)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


class Policy(Protocol):
    """A computer player: it decides from the seat's own view and the legal actions only."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any: ...


class RandomPolicy:
    """The baseline every computer player is measured against: uniform among the legal actions."""

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        return rng.choice(legal)


def seat_view(game: Game[Any, Any], state: Any, seat: Seat, public: View) -> View:
    """``game.view(state, seat)``, made from the state's public view (``game.view(state,
    None)``, handed in) where the game can: a game whose seat views are the public one plus
    a part of the seat's own has a method ``seat_view(state, seat, public)`` returning the
    same view for less work (Ten: every seat's view weighs every collection again)."""
    own = getattr(game, "seat_view", None)
    if own is None:
        return game.view(state, seat)
    made: View = own(state, seat, public)
    return made


def check_seat(seat: Seat, players: int) -> None:
    """Raise IllegalAction unless ``seat`` is a seat of a ``players``-seat game."""
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalAction("That seat is not in this game.")


def winners_of(totals: tuple[int, ...], *, lowest: bool = False) -> frozenset[Seat]:
    """Seats sharing the best total (highest by default, lowest for games like Hearts)."""
    best = min(totals) if lowest else max(totals)
    return frozenset(s for s, t in enumerate(totals) if t == best)
