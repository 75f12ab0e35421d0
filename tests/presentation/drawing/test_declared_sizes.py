"""The card sizes a game's pictures declare (``CARD_SIZES``, presentation.drawing.api.card_sizes)
are exactly those its hands and round summaries draw, and they are drawn ahead with the game's
first picture, so its first round summary draws no face in the middle of play."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

from engine import GAMES
from presentation.drawing.api import Pictures, card_sizes, picture_of
from presentation.drawing.faces import FaceCache
from presentation.drawing.looks import looks
from presentation.drawing.parts import Parts
from presentation.drawing.warm import Warming
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, Position, views

# Each game at two table sizes; every move's hand and each round's summary are drawn.
PLAYED = [
    ("grinch", 2, 40),
    ("grinch", 5, 20),
    ("gnome", 3, 90),
    ("gnome", 6, 40),
    ("hearts", 2, 60),
    ("ten", 1, 60),
    ("ten", 4, 40),
]
ROUNDS = 2  # rounds (hands, turns) scored before a game's pictures are counted done


def _kit() -> tuple[Pictures, Parts]:
    parts = Parts(FaceCache(looks()))
    return Pictures(parts), parts


@pytest.mark.parametrize(("game_name", "players", "seed"), PLAYED)
def test_a_game_declares_the_sizes_its_hands_and_summaries_draw(
    game_name: str, players: int, seed: int
) -> None:
    pictures, parts = _kit()
    game, module = GAMES[game_name], picture_of(game_name)
    names = [f"P{seat}" for seat in range(players)]
    state = game.new_game(players, seed)
    rng = random.Random(seed)
    scored = 0
    while scored < ROUNDS and game.outcome(state) is None:
        seat = min(game.to_act(state))
        pictures.hand(game.view(state, seat), names)
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        public = game.view(state, None)
        if module.progress(public) > scored:
            scored = module.progress(public)
            assert pictures.summary(public, names) is not None
    assert scored == ROUNDS
    drawn = {(width, back) for name, width, back in parts.cards.sizes if name == game_name}
    assert drawn == set(card_sizes(game_name))


def _first_hand_warmed(
    declared: Callable[[str], Iterable[tuple[int, bool]]],
) -> tuple[Pictures, Parts]:
    """A kit after a Hearts game's first hand and all the drawing ahead it brings."""
    pictures, parts = _kit()
    warming = Warming(parts, declared)
    _, own, _ = views(MID_GAME["hearts"])
    assert own is not None
    pictures.hand(own, MID_GAME["hearts"].names)
    warming.plan()
    while warming.step():
        pass
    return pictures, parts


def test_the_declared_sizes_are_drawn_ahead_with_the_first_hand() -> None:
    pictures, parts = _first_hand_warmed(card_sizes)
    first = MID_GAME["hearts"]
    keys = parts.cards.keys("hearts")
    assert len(parts.cards) == len(keys) * len(card_sizes("hearts"))
    assert not parts.requested("ten")
    _, _, public = views(Position("hearts", 2, 5, 60))  # a hand scored: a summary to show
    misses = parts.cards.misses
    summary = pictures.summary(public, first.names)
    assert summary is not None
    assert parts.cards.misses == misses  # every face it shows was drawn ahead
    again = Pictures().summary(public, first.names)
    assert again is not None
    assert shown(summary) == shown(again)  # and it is the same picture


def test_a_game_that_declares_no_sizes_has_only_the_asked_ones_drawn_ahead() -> None:
    _, parts = _first_hand_warmed(lambda game: ())
    asked = {width for game, width, back in parts.cards.sizes if game == "hearts"}
    assert len(parts.cards) == len(parts.cards.keys("hearts")) * len(asked)
    assert len(asked) < len(card_sizes("hearts"))
