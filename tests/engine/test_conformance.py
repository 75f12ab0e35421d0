"""The contract every game must keep, checked over many random games of every size."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from engine import GAMES
from engine.base import Game, IllegalAction, seat_view
from tests.engine.conformance import assert_outcome_consistent, random_playout, replay

CASES = [
    (name, players)
    for name, game in sorted(GAMES.items())
    for players in range(game.min_players, game.max_players + 1)
]


def _ids(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_random_games_end_and_replay(case: tuple[str, int]) -> None:
    name, players = case
    game = GAMES[name]
    for seed in range(15):
        rng = random.Random(seed * 7919 + players)
        final, log = random_playout(game, players, seed, rng)
        outcome = game.outcome(final)
        assert outcome is not None, "to_act is empty but the game has no outcome"
        assert_outcome_consistent(outcome, players)
        assert game.to_act(final) == set()
        again = replay(game, players, seed, log)
        assert game.to_json(again) == game.to_json(final)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_codecs_purity_and_rejections(case: tuple[str, int]) -> None:
    name, players = case
    game: Game[Any, Any] = GAMES[name]
    rng = random.Random(players)
    state = game.new_game(players, 12345)
    assert game.to_json(state) == game.to_json(game.new_game(players, 12345))
    steps = 0
    while game.to_act(state) and steps < 400:
        steps += 1
        before = game.to_json(state)
        assert game.to_json(game.from_json(before)) == before
        for seat in [*range(players), None]:
            json.dumps(game.view(state, seat))
        actors = game.to_act(state)
        for seat in range(players):
            legal = game.legal_actions(state, seat)
            if seat not in actors:
                assert legal == []
                continue
            for action in legal:
                text = str(action)
                assert len(text) <= 40
                assert game.parse_action(text) == action
        idle = [s for s in range(players) if s not in actors]
        seat = rng.choice(sorted(actors))
        legal = game.legal_actions(state, seat)
        if idle:
            with pytest.raises(IllegalAction):
                game.apply(state, idle[0], legal[0])
            assert game.to_json(state) == before
        action = rng.choice(legal)
        new = game.apply(state, seat, action)
        assert game.to_json(state) == before, "apply modified the state it was given"
        state = new
    with pytest.raises(IllegalAction):
        game.parse_action("\u2603 not an action")


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_forced_moves_are_single_legal_moves_of_a_due_seat(case: tuple[str, int]) -> None:
    """``forced`` names a move only when it is the seat's one legal move (Hearts: its last
    card), and only for a seat that is due."""
    name, players = case
    game: Game[Any, Any] = GAMES[name]
    forced_seen = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while game.to_act(state):
            actors = game.to_act(state)
            for seat in range(players):
                forced = game.forced(state, seat)
                if forced is None:
                    continue
                forced_seen += 1
                assert seat in actors
                assert game.legal_actions(state, seat) == [forced]
            seat = rng.choice(sorted(actors))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    if name in ("hearts", "ten"):  # every Hearts hand ends on a forced card; Ten draws first
        assert forced_seen > 0


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_a_seat_view_made_from_the_public_one_is_the_seat_view(case: tuple[str, int]) -> None:
    """``engine.base.seat_view`` (a game's own ``seat_view`` where it has one) gives what
    ``view`` gives, along random games."""
    name, players = case
    game: Game[Any, Any] = GAMES[name]
    for seed in range(3):
        rng = random.Random(seed)
        state = game.new_game(players, seed)
        while True:
            public = game.view(state, None)
            for seat in range(players):
                assert seat_view(game, state, seat, public) == game.view(state, seat)
            if not game.to_act(state):
                break
            seat = rng.choice(sorted(game.to_act(state)))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
