"""The score sheet: one place for the totals, places and winners every screen shows."""

from __future__ import annotations

import random

from engine import GAMES
from engine.base import Outcome
from engine.sheet import ScoreSheet, ended_sheet, final_sheet, ranked, running_sheet, view_sheet


def test_places_put_the_winners_first_then_follow_the_games_direction() -> None:
    assert ranked([9, 9, 1], [1], lowest_wins=False) == (2, 1, 3)
    assert ranked([5, 9, 9, 2], lowest_wins=False) == (3, 1, 1, 4)
    assert ranked([5, 9, 9, 2], lowest_wins=True) == (2, 3, 3, 1)


def test_the_engines_own_places_win_over_the_totals() -> None:
    outcome = Outcome((10, 10), frozenset({1}), details={"places": [2, 1]})
    assert final_sheet(outcome, lowest_wins=False).places == (2, 1)


def test_a_finished_chart_ends_at_the_result_however_the_rounds_were_counted() -> None:
    sheet = ended_sheet([20, 7], [0], lowest_wins=False)
    assert sheet.with_rounds([[3, 2], [18, 7]]).rounds == ((3, 2), (20, 7))
    running = running_sheet([18, 7], lowest_wins=False)
    assert running.with_rounds([[3, 2], [17, 7]]).rounds == ((3, 2), (17, 7))
    assert sheet.with_rounds([]).rounds == ()


def test_every_game_view_and_outcome_give_the_same_sheet() -> None:
    for name, game in GAMES.items():
        players = max(2, game.min_players)
        state = game.new_game(players, 11)
        rng = random.Random(name)
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
        outcome = game.outcome(state)
        assert outcome is not None
        by_outcome = final_sheet(outcome, lowest_wins=game.lowest_wins)
        by_view = view_sheet(game.view(state, None), lowest_wins=game.lowest_wins)
        assert by_outcome == by_view, name
        assert isinstance(by_view, ScoreSheet) and by_view.finished
        assert by_view.totals == tuple(outcome.totals) and by_view.winners == outcome.winners


def test_a_finished_views_running_totals_are_the_results() -> None:
    """The pictures and the hands read the view's totals: at the end they are the result's."""
    for name, game in GAMES.items():
        for players in sorted({game.min_players, min(3, game.max_players)}):
            state = game.new_game(players, 5)
            rng = random.Random(f"{name}{players}")
            while game.outcome(state) is None:
                seat = min(game.to_act(state))
                state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
            outcome = game.outcome(state)
            assert outcome is not None
            assert list(game.view(state, None)["totals"]) == list(outcome.totals), name
