"""``bench.levels``: the interval it prints and the games it plays for a pairing."""

from __future__ import annotations

import argparse

import pytest

from bench import levels


def test_wilson_interval_matches_the_formula_at_known_points() -> None:
    low, high = levels.wilson(0.5, 100)
    assert (round(low, 3), round(high, 3)) == (0.404, 0.596)
    low, high = levels.wilson(1.0, 20)
    assert high == 1.0
    assert round(low, 3) == 0.839


def test_percentile_picks_the_value_at_the_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert levels.percentile(values, 0.5) == 51.0
    assert levels.percentile(values, 0.95) == 96.0
    assert levels.percentile([], 0.5) == 0.0


@pytest.mark.parametrize("game", ["grinch", "ten", "gnome"])
def test_a_pairing_scores_each_game_from_its_outcome(game: str) -> None:
    played = [levels.head_to_head(game, "random", "random", i, 7) for i in range(3)]
    assert all(p.score in (0.0, 0.5, 1.0) for p in played)
    assert all(p.times["random"] for p in played)  # every non-forced decision was timed
    share = levels.multi(game, "random", "random", 4, 1, 7)
    assert 0.0 <= share.score <= 1.0


def test_the_same_seed_plays_the_same_game() -> None:
    first = levels.play("grinch", ["random", "random"], 11)[0]
    again = levels.play("grinch", ["random", "random"], 11)[0]
    assert first.totals == again.totals


def test_no_head_to_head_games_plays_the_multi_player_pairing_only() -> None:
    args = argparse.Namespace(
        game="grinch", pair=["random:random"], games=0, multi_games=2, seats=3, seed=5, jobs=1
    )
    summaries = levels.run(args)
    assert [s.label for s in summaries] == ["grinch random vs 2 random, win share"]
    assert summaries[0].games == 2


def test_no_games_at_all_plays_nothing_instead_of_failing() -> None:
    args = argparse.Namespace(
        game="grinch", pair=["random:random"], games=0, multi_games=None, seats=3, seed=5, jobs=1
    )
    assert levels.run(args) == []
