"""The publisher's views of a state: what a move's table and DMs ask of the engine.

For each state the publisher takes the spectator's view (the table) and, for every seat, the
private part of its view and its legal actions (whether its DM must change), all through
``delivery.shown.Views``. A game with ``seat_view`` makes a seat's view from the public one; here
the same states are also viewed with that method hidden, every view built on its own, as
before games had it. Printed per game: CPU microseconds per state both ways.

Run: ``python -m bench.views`` (``--states`` per game; ``--rounds``: the best of that many
alternating rounds counts, after one round that warms the engines' own memos).
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from engine import GAMES
from engine.base import Game
from presentation.viewing import Views

PLAYERS = {"grinch": 4, "gnome": 4, "hearts": 2, "ten": 3}


class Plain:
    """A game with its ``seat_view`` hidden: every view is built from the state alone."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self._game = game

    def view(self, state: Any, seat: int | None) -> Any:
        return self._game.view(state, seat)

    def legal_actions(self, state: Any, seat: int) -> list[Any]:
        return self._game.legal_actions(state, seat)


def states_of(game: Game[Any, Any], players: int, count: int) -> list[Any]:
    """``count`` states along seeded random games."""
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        rng, state = random.Random(seed), game.new_game(players, seed)
        while game.to_act(state) and len(found) < count:
            found.append(state)
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        seed += 1
    return found


def per_state(game: Any, states: list[Any], players: int) -> float:
    """CPU microseconds per state for the table's view and every seat's private part."""
    views = Views()
    started = time.process_time()
    for state in states:
        views.of(game, state, None)
        for seat in range(players):
            views.private(game, state, seat)
    return (time.process_time() - started) / len(states) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--states", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    for name, players in PLAYERS.items():
        game = GAMES[name]
        states = states_of(game, players, args.states)
        per_state(game, states, players)  # the engines' own memos (Ten's scoring) warmed
        shared: list[float] = []
        alone: list[float] = []
        for _ in range(args.rounds):  # alternating, so that both see the machine alike
            shared.append(per_state(game, states, players))
            alone.append(per_state(Plain(game), states, players))
        how = "seat_view" if hasattr(game, "seat_view") else "no seat_view"
        print(
            f"{name:7} {players} players ({how}): {min(shared):5.0f} us per state "
            f"(every view built on its own: {min(alone):5.0f} us, "
            f"{min(shared) / min(alone):.2f}x)"
        )


if __name__ == "__main__":
    main()
