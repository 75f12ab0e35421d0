"""The Grinch computer player: legal, deterministic, view-only, and better than random."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from engine.base import Policy, RandomPolicy
from engine.grinch import GAME
from engine.grinch.actions import ChooseRow
from engine.grinch.ai import POLICY
from engine.grinch.ai.normal import GrinchPolicy, cells, row_costs
from engine.grinch.cards import CARD_INDEX, CARDS, ROWS
from engine.grinch.scoring import row_values
from engine.grinch.state import GrinchState


def play(players: int, seed: int, policies: list[Policy]) -> tuple[int, ...]:
    state: GrinchState = GAME.new_game(players, seed)
    rngs = [random.Random(seed * 10 + s) for s in range(players)]
    order = random.Random(seed)
    while GAME.to_act(state):
        seat = order.choice(sorted(GAME.to_act(state)))
        legal = GAME.legal_actions(state, seat)
        # The policy gets the view as the bot would store it: plain JSON.
        view = json.loads(json.dumps(GAME.view(state, seat)))
        action = policies[seat].choose(view, legal, rngs[seat])
        assert action in legal
        state = GAME.apply(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.totals


def test_cells_match_the_rules() -> None:
    rng = random.Random(5)
    for _ in range(300):
        hand = rng.sample(CARDS, 5)
        assert list(cells([CARD_INDEX[c] for c in hand])) == list(row_values(hand).values())


def test_row_costs_are_zero_in_the_last_round() -> None:
    costs = row_costs(POLICY.future, ["run", "match", "rainbow"], 0)
    assert [ROWS[i] for i, _ in costs] == ["wreaths", "noise", "ornaments", "presents"]
    assert all(cost == 0 for _, cost in costs)


def test_scoring_picks_best_row_in_last_round() -> None:
    state = GAME.new_game(2, 3)
    while state.phase != "SCORING":
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    state = replace(state, round=6, sheet=((1, 1, 1, 1, 1, None, None),) * 2)
    values = row_values(state.hands[0])
    choice = POLICY.choose(GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
    assert isinstance(choice, ChooseRow) and choice.row in ("match", "run")
    assert values[choice.row] == max(values["match"], values["run"])


def test_deterministic_and_better_than_random() -> None:
    ai = GrinchPolicy(samples=8)
    assert play(3, 1, [ai, RandomPolicy(), RandomPolicy()]) == play(
        3, 1, [ai, RandomPolicy(), RandomPolicy()]
    )
    ai_points = 0
    random_points = 0.0
    for seed in range(10):
        players = 2 + seed % 5
        seat = seed % players
        policies: list[Policy] = [RandomPolicy() for _ in range(players)]
        policies[seat] = ai
        totals = play(players, seed, policies)
        ai_points += totals[seat]
        random_points += (sum(totals) - totals[seat]) / (players - 1)
    assert ai_points > 1.8 * random_points
