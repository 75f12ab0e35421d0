"""The hard Hearts player's game-win model: the end rule, symmetry and the moon."""

from __future__ import annotations

from itertools import pairwise

import pytest

from engine.hearts2p.ai.equity import HAND_RESULTS, equity_utility, game_equity
from engine.hearts2p.scoring import MOON_PAYOUT, TARGET


def test_a_finished_game_is_won_by_the_lower_total_and_a_tie_plays_on() -> None:
    assert game_equity(40, TARGET) == 1.0
    assert game_equity(TARGET + 3, 90) == 0.0
    assert game_equity(TARGET, TARGET) == 0.5


@pytest.mark.parametrize(("mine", "theirs"), [(0, 0), (30, 45), (85, 95), (99, 98), (12, 70)])
def test_the_two_seats_chances_add_up_to_one(mine: int, theirs: int) -> None:
    assert game_equity(mine, theirs) + game_equity(theirs, mine) == pytest.approx(1.0)
    assert 0.0 < game_equity(mine, theirs) < 1.0


def test_fewer_points_never_lower_the_chance() -> None:
    for theirs in (0, 50, 95):
        chances = [game_equity(mine, theirs) for mine in range(TARGET)]
        assert all(a >= b - 1e-12 for a, b in pairwise(chances))
    assert game_equity(60, 85) > game_equity(85, 95) > 0.5


def test_the_hand_results_are_counted_from_both_seats() -> None:
    counts = {(x, y): n for x, y, n in HAND_RESULTS}
    assert all(counts.get((y, x)) == n for (x, y), n in counts.items())
    assert all(x + y >= 1 for x, y in counts)  # every hand moves the totals on


def test_a_moon_scores_as_the_rules_say() -> None:
    utility = equity_utility((80, 70))
    # I took every point card (the opponent took none): I score 0, the opponent 20.
    assert utility(20, 0, True, False) == game_equity(80, 70 + MOON_PAYOUT)
    assert utility(0, 20, False, True) == game_equity(80 + MOON_PAYOUT, 70)
    assert utility(5, 15, True, True) == game_equity(85, 85)
