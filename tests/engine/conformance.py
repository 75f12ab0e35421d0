"""Helpers shared by the conformance suite and the per-game tests."""

from __future__ import annotations

import json
import random
from typing import Any

from engine.base import Game, Outcome

MAX_STEPS = 20_000


def random_playout(
    game: Game[Any, Any], players: int, seed: int, rng: random.Random
) -> tuple[Any, list[tuple[int, str]]]:
    """Play one game with uniformly random legal actions; return final state and log."""
    state = game.new_game(players, seed)
    log: list[tuple[int, str]] = []
    for _ in range(MAX_STEPS):
        seats = sorted(game.to_act(state))
        if not seats:
            return state, log
        seat = rng.choice(seats)
        legal = game.legal_actions(state, seat)
        assert legal, f"seat {seat} is to act but has no legal action"
        action = rng.choice(legal)
        state = game.apply(state, seat, action)
        log.append((seat, str(action)))
    raise AssertionError(f"game did not end within {MAX_STEPS} steps")


def replay(game: Game[Any, Any], players: int, seed: int, log: list[tuple[int, str]]) -> Any:
    state = game.new_game(players, seed)
    for seat, text in log:
        state = game.apply(state, seat, game.parse_action(text))
    return state


def assert_outcome_consistent(outcome: Outcome, players: int) -> None:
    assert len(outcome.totals) == players
    if players > 1:
        assert outcome.winners, "a finished game of several players has a winner"
    assert all(0 <= s < players for s in outcome.winners)
    json.dumps(outcome.details)
