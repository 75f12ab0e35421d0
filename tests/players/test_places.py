"""Finishing places from each game's outcome, and rating maths from openskill."""

from __future__ import annotations

import random

import pytest

from engine import GAMES
from engine.base import Outcome
from service.ratings import (
    COMPUTER_SKILL,
    DEFAULT_SKILL,
    LOWEST_WINS,
    leavers_last,
    places,
    rate_match,
)


def test_highest_total_wins_unless_the_game_says_lowest() -> None:
    outcome = Outcome(totals=(10, 30, 20, 30), winners=frozenset({1, 3}))
    assert places("grinch", outcome) == [4, 1, 3, 1]
    low = Outcome(totals=(10, 30, 20, 10), winners=frozenset({0}))  # a tie-break chose seat 0
    assert places("gnome", low) == [1, 4, 3, 2]
    assert places("hearts", Outcome(totals=(5, 21), winners=frozenset({0}))) == [1, 2]


def test_the_engines_own_places_win() -> None:
    outcome = Outcome((7, 7, 3), frozenset({1}), details={"places": [2, 1, 3]})
    assert places("ten", outcome) == [2, 1, 3]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_games_winners_come_first(name: str) -> None:
    """A random game of every registered game: its winners get place 1 and, when the totals
    differ, the direction of LOWEST_WINS agrees with the engine's choice of winners."""
    game = GAMES[name]
    players = max(game.min_players, 2)
    rng = random.Random(7)
    state = game.new_game(players, 11)
    while (outcome := game.outcome(state)) is None:
        seat = min(game.to_act(state))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    found = places(name, outcome)
    assert {s for s, p in enumerate(found) if p == 1} == set(outcome.winners)
    best = min(outcome.totals) if name in LOWEST_WINS else max(outcome.totals)
    assert all(outcome.totals[s] == best for s in outcome.winners)


def test_beating_a_fixed_computer_moves_only_the_humans() -> None:
    new = rate_match([(0, 1, 1), (1, None, 2), (2, 2, 3)], {})
    assert set(new) == {1, 2}
    assert new[1][0] > DEFAULT_SKILL[0] > new[2][0]
    assert COMPUTER_SKILL[1] < DEFAULT_SKILL[1]


def test_a_tie_moves_equal_players_equally() -> None:
    new = rate_match([(0, 1, 1), (1, 2, 1)], {})
    assert new[1] == pytest.approx(new[2])


def test_people_who_left_come_last_tied() -> None:
    assert leavers_last([1, 2, 3, 4], {0, 2}) == [3, 1, 3, 2]
    assert leavers_last([1, 1, 3], {2}) == [1, 1, 3]
