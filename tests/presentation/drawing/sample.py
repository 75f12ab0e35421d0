"""Reproducible game positions for picture tests, goldens and the benchmark.

A position is a seeded game advanced by a seeded random choice among the legal actions, so
the same (game, players, seed, moves) always gives the same state and views.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine import GAMES
from engine.base import View

MAX_MOVES = 50_000


@dataclass(frozen=True, slots=True)
class Position:
    game: str
    players: int
    seed: int
    moves: int  # random moves to play; -1 = to the end of the game

    @property
    def names(self) -> list[str]:
        return [f"Player {chr(65 + s)}" for s in range(self.players)]


def advance(position: Position) -> tuple[Any, list[View]]:
    """The state after the position's moves, and the spectator view after every move."""
    game = GAMES[position.game]
    state = game.new_game(position.players, position.seed)
    rng = random.Random(position.seed)
    history = [game.view(state, None)]
    limit = MAX_MOVES if position.moves < 0 else position.moves
    for _ in range(limit):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        seat = rng.choice(seats)
        actions = game.legal_actions(state, seat)
        state = game.apply(state, seat, rng.choice(actions))
        history.append(game.view(state, None))
    return state, history


def turns(game_name: str, players: int, seed: int, moves: int) -> list[tuple[View, list[str]]]:
    """The view of the seat to act (and the players' names) before each of ``moves`` seeded
    random moves of a game: the hands a running bot draws, one a turn."""
    game = GAMES[game_name]
    names = Position(game_name, players, seed, moves).names
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    hands: list[tuple[View, list[str]]] = []
    for _ in range(moves):
        seats = sorted(game.to_act(state))
        if not seats:
            break
        seat = rng.choice(seats)
        hands.append((game.view(state, seat), names))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    return hands


def views(position: Position) -> tuple[Any, View | None, View]:
    """The state, the view of the first seat that may act (None if nobody) and the spectator's."""
    game = GAMES[position.game]
    state, _ = advance(position)
    seats = sorted(game.to_act(state))
    own = game.view(state, seats[0]) if seats else None
    return state, own, game.view(state, None)


MID_GAME: dict[str, Position] = {
    "grinch": Position("grinch", 4, 7, 30),
    "gnome": Position("gnome", 4, 11, 40),
    "hearts": Position("hearts", 2, 5, 9),
    "ten": Position("ten", 3, 3, 60),
}
WHOLE_GAME: dict[str, Position] = {
    "grinch": Position("grinch", 4, 7, -1),
    "gnome": Position("gnome", 4, 11, -1),
    "hearts": Position("hearts", 2, 5, -1),
    "ten": Position("ten", 3, 3, -1),
}


_HEARTS = GAMES["hearts"]


def hearts_follower(state: Any, rng: random.Random, *, trick_no: int | None = None) -> Any:
    """Play on (random legal cards) until a trick's second card is due, in trick
    ``trick_no`` if given."""
    while True:
        (seat,) = _HEARTS.to_act(state)
        view = _HEARTS.view(state, seat)
        if len(view["trick"]) == 1 and trick_no in (None, view["trick_no"]):
            return state
        state = _HEARTS.apply(state, seat, rng.choice(_HEARTS.legal_actions(state, seat)))


def hearts_trick_ended(state: Any, rng: random.Random) -> tuple[View, View]:
    """The follower's view, and the view of whoever leads after the follower's card."""
    (follower,) = _HEARTS.to_act(state)
    before = _HEARTS.view(state, follower)
    state = _HEARTS.apply(state, follower, rng.choice(_HEARTS.legal_actions(state, follower)))
    (leader,) = _HEARTS.to_act(state)
    return before, _HEARTS.view(state, leader)
