"""Every game's views hold exactly what its view type declares, along random games.

The type is read from the annotation of the game's ``view`` (``TenGame.view -> TenView``):
a game's view type is a ``TypedDict``, and every view of every seat and of a spectator, at
every step of seeded random games of every size, has its keys (no more, none missing) with
values of their declared types. A key added to a view without its type, or removed from a
view and not from its type, fails here.
"""

from __future__ import annotations

import random
from typing import Any, get_type_hints, is_typeddict

import pytest

from engine import GAMES
from engine.base import Game
from engine.grinch import GAME as GRINCH
from tests.engine.shapes import fields, mismatches

SEEDS = 2
CASES = [
    (name, players)
    for name, game in sorted(GAMES.items())
    for players in range(game.min_players, game.max_players + 1)
]


def view_type(game: Game[Any, Any]) -> Any:
    """The return annotation of the game's ``view``."""
    return get_type_hints(type(game).view)["return"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_game_declares_its_view_as_a_typeddict(name: str) -> None:
    typed = view_type(GAMES[name])
    assert is_typeddict(typed), f"{name}: view() returns {typed!r}, not a TypedDict"
    own = getattr(GAMES[name], "seat_view", None)
    if own is not None:  # the faster path gives the same type
        assert get_type_hints(own)["return"] is typed


@pytest.mark.parametrize("case", CASES, ids=lambda case: f"{case[0]}-{case[1]}p")
def test_every_view_of_random_games_fits_its_type(case: tuple[str, int]) -> None:
    name, players = case
    game: Game[Any, Any] = GAMES[name]
    typed = view_type(game)
    checked = 0
    for seed in range(SEEDS):
        rng = random.Random(seed * 7919 + players)
        state = game.new_game(players, seed)
        step = 0
        while True:
            # The spectator's view and one seat's in turn; every seat's once the game is over.
            seats = [None, step % players] if game.to_act(state) else [None, *range(players)]
            for seat in seats:
                wrong = mismatches(game.view(state, seat), typed)
                assert not wrong, f"{name}, seed {seed}, seat {seat}:\n" + "\n".join(wrong[:10])
            if not game.to_act(state):
                break
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            step += 1
        checked += step
    assert checked > 10 * SEEDS  # whole games, not a first step


def test_the_check_sees_a_key_added_removed_or_of_another_type() -> None:
    view = GRINCH.view(GRINCH.new_game(3, 1), 0)
    typed = view_type(GRINCH)
    assert mismatches(view, typed) == []
    assert mismatches({**view, "extra": 1}, typed) == ["view: key 'extra' is not in GrinchView"]
    fewer = {k: v for k, v in view.items() if k != "deck_size"}
    assert mismatches(fewer, typed) == ["view: GrinchView key 'deck_size' is missing"]
    assert mismatches({**view, "deck_size": "many"}, typed) == [
        "view['deck_size']: 'many' is not a int"
    ]
    assert mismatches({**view, "deck_size": True}, typed) == [
        "view['deck_size']: True is not a int"
    ]
    takes = [{"source": "pile", "owner": None, "card": "W1a"}]  # a pile take has an owner
    assert mismatches({**view, "takes": takes}, typed)[0].startswith("view['takes'][0]: ")
    assert set(fields(typed)) == set(view)
