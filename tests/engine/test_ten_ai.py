"""The Ten computer player: legal, view-only, sensible at the push-your-luck decision."""

from __future__ import annotations

import random
from dataclasses import replace

from engine.base import Policy, RandomPolicy
from engine.ten import GAME
from engine.ten.actions import Draw, Stop
from engine.ten.ai import POLICY
from engine.ten.state import TenState
from tests.engine.test_ten_rules import act, rig


def _play(players: int, seed: int, policies: list[Policy]) -> TenState:
    rng = random.Random(seed)
    state = GAME.new_game(players, seed)
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = policies[seat].choose(GAME.view(state, seat), legal, rng)
        assert action in legal
        state = GAME.apply(state, seat, action)
    return state


def test_policy_plays_every_table_size_legally() -> None:
    for players in range(1, 6):
        computers = 2 if players == 2 else 1  # two computers meet in the 2-player game
        policies: list[Policy] = [POLICY] * computers + [RandomPolicy()] * (players - computers)
        final = _play(players, players, policies)
        assert GAME.outcome(final) is not None


def test_policy_beats_random_players() -> None:
    wins = 0
    for seed in range(4):
        seat = seed % 3
        policies: list[Policy] = [RandomPolicy(), RandomPolicy(), RandomPolicy()]
        policies[seat] = POLICY
        outcome = GAME.outcome(_play(3, 100 + seed, policies))
        assert outcome is not None
        wins += seat in outcome.winners
    assert wins >= 3


def _decide(state: TenState) -> object:
    (seat,) = GAME.to_act(state)
    return POLICY.choose(GAME.view(state, seat), GAME.legal_actions(state, seat), random.Random(0))


def test_draws_when_no_card_can_bust_and_stops_when_most_would() -> None:
    safe = act(rig(3, ["R1a", "B9a", "G9a"]), "draw")  # net 1: nothing left can bust
    assert isinstance(_decide(safe), Draw)
    risky = act(rig(3, ["R9a", "B1a"]), "draw", "draw")  # net 10: every number card busts
    assert isinstance(_decide(risky), Stop)


def test_bust_risk_is_counted_from_the_public_cards() -> None:
    """At net 8 a 3+ busts. With every 3-9 already public the pile holds no bust risk."""
    high = [f"{c}{n}{k}" for c in "RBOG" for n in range(3, 10) for k in "ab" if n <= 6 or k == "a"]
    high.remove("R8a")
    state = rig(3, ["R8a"], market=high)
    state = act(state, "draw")
    assert isinstance(_decide(state), Draw)
    plain = act(rig(3, ["R8a"]), "draw")
    assert isinstance(_decide(plain), Stop)


def test_bids_only_what_a_wild_is_worth_and_can_pay() -> None:
    runs = [["R1a", "R2a", "R3a", "R5a", "R6a", "R7a"], [], []]
    state = act(rig(3, ["R#a"], active=2, collections=runs, tokens=(5, 5, 5)), "draw")
    assert GAME.to_act(state) == {0}
    decision = _decide(state)
    assert str(decision).startswith("bid.")  # the red wild joins two runs of three: worth 4+
    broke = replace(state, tokens=(0, 5, 5))
    assert str(_decide(broke)) == "pass"  # no tokens: it does not bid with its cards


def test_decisions_are_deterministic() -> None:
    state = GAME.new_game(4, 9)
    for _ in range(60):
        if not GAME.to_act(state):
            break
        first, second = _decide(state), _decide(state)
        assert first == second
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, first)  # type: ignore[arg-type]  # the AI's choice, checked
