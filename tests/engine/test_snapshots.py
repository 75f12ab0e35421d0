"""Snapshots keep their stored form: Grinch and Ten write a state as ``dataclasses.asdict``
of it would be written (as every snapshot saved so far was), field for field and byte for byte,
without asdict's deep copy; reading it back gives the same state."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from typing import Any

import pytest

from engine import GAMES


def _reference(name: str, state: Any) -> str:
    data = asdict(state)
    if name == "grinch":
        data = {"game": "grinch", **data}
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(
    ("name", "players"), [("grinch", 3), ("grinch", 6), ("ten", 1), ("ten", 4)]
)
def test_snapshots_are_written_as_before(name: str, players: int) -> None:
    game, rng, checked = GAMES[name], random.Random(players), 0
    for seed in range(4):
        state = game.new_game(players, seed)
        while True:
            text = game.to_json(state)
            assert text == _reference(name, state)
            assert game.from_json(text) == state
            checked += 1
            if game.outcome(state) is not None:
                break
            seat = min(game.to_act(state))
            state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))
    assert checked > 100  # whole games: every phase, the round and turn logs filled in
