"""The Grinch computer players by level: legal, deterministic, blind to hidden cards, ordered."""

from __future__ import annotations

import random
from dataclasses import replace

from engine import policy_for
from engine.base import Level, Policy, RandomPolicy
from engine.grinch import GAME
from engine.grinch.actions import ChooseRow
from engine.grinch.ai import POLICIES, POLICY
from engine.grinch.ai.easy import EasyPolicy
from engine.grinch.ai.hard import HardPolicy
from engine.grinch.ai.roles import RoleModel, free_mask, roles_after
from engine.grinch.cards import CARD_INDEX, ROWS, canonical
from engine.grinch.scoring import row_values
from engine.grinch.state import GrinchState

HARD = POLICIES[Level.HARD]
EASY = POLICIES[Level.EASY]


def positions(seed: int, count: int) -> list[tuple[GrinchState, int]]:
    """(state, seat to act) at random points of random games of 2 to 6 players."""
    rng = random.Random(seed)
    found: list[tuple[GrinchState, int]] = []
    while len(found) < count:
        state = GAME.new_game(rng.randint(2, 6), rng.randrange(10**6))
        stop = rng.randrange(120)
        for _ in range(stop):
            if not GAME.to_act(state):
                break
            seat = rng.choice(sorted(GAME.to_act(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if GAME.to_act(state):
            found.append((state, rng.choice(sorted(GAME.to_act(state)))))
    return found


def shuffled_hidden(state: GrinchState, seat: int, rng: random.Random) -> GrinchState:
    """The same position for ``seat`` with the cards it cannot see dealt again: the other
    players' hands (less their locked-in discards and this turn's takes) and the deck."""
    fixed = {card for _, card in state.takes} | {c for c in state.pending if c in CARD_INDEX}
    hidden = [c for s, h in enumerate(state.hands) if s != seat for c in h if c not in fixed]
    hidden += state.deck
    rng.shuffle(hidden)
    hands = []
    at = 0
    for s, hand in enumerate(state.hands):
        if s == seat:
            hands.append(hand)
            continue
        keep = [c for c in hand if c in fixed]
        size = len(hand) - len(keep)
        hands.append(tuple(canonical([*keep, *hidden[at : at + size]])))
        at += size
    return replace(state, hands=tuple(hands), deck=tuple(hidden[at:]))


def test_the_levels_are_registered() -> None:
    assert policy_for("grinch", Level.NORMAL) is POLICY
    assert isinstance(policy_for("grinch", Level.EASY), EasyPolicy)
    assert isinstance(policy_for("grinch", Level.HARD), HardPolicy)


def test_every_level_plays_legal_moves_everywhere() -> None:
    for i, (state, seat) in enumerate(positions(1, 45)):
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        for level, policy in POLICIES.items():
            action = policy.choose(view, legal, random.Random(i))
            assert action in legal, (level, str(action), state.phase)


def test_hard_cannot_read_hidden_cards() -> None:
    rng = random.Random(7)
    checked = 0
    for i, (state, seat) in enumerate(positions(2, 30)):
        other = shuffled_hidden(state, seat, rng)
        if other.deck == state.deck:
            continue
        assert GAME.view(other, seat) == GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(other, seat) == legal
        first = HARD.choose(GAME.view(state, seat), legal, random.Random(i))
        second = HARD.choose(GAME.view(other, seat), legal, random.Random(i))
        assert first == second, (state.phase, state.turn)
        checked += 1
    assert checked >= 20


def test_easy_is_deterministic_per_seed_and_slips_sometimes() -> None:
    greedy = EasyPolicy(slip=0.0)
    differ = 0
    for i, (state, seat) in enumerate(positions(3, 40)):
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        action = EASY.choose(view, legal, random.Random(i))
        assert EASY.choose(view, legal, random.Random(i)) == action
        differ += action != greedy.choose(view, legal, random.Random(i))
    assert 0 < differ < 40


def test_hard_scores_the_best_row_in_the_last_round() -> None:
    state = GAME.new_game(2, 3)
    while state.phase != "SCORING":
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    state = replace(state, round=6, sheet=((1, 1, 1, 1, None, None, 1),) * 2)
    values = row_values(state.hands[0])
    choice = HARD.choose(GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(0))
    assert isinstance(choice, ChooseRow) and choice.row in ROWS
    assert values[choice.row] == max(values["rainbow"], values["match"])


def play(seed: int, policies: list[Policy]) -> tuple[int, ...]:
    state = GAME.new_game(len(policies), seed)
    rngs = [random.Random(seed * 10 + s) for s in range(len(policies))]
    order = random.Random(seed)
    while GAME.to_act(state):
        seat = order.choice(sorted(GAME.to_act(state)))
        action = policies[seat].choose(
            GAME.view(state, seat), GAME.legal_actions(state, seat), rngs[seat]
        )
        state = GAME.apply(state, seat, action)
    outcome = GAME.outcome(state)
    assert outcome is not None
    return outcome.totals


def test_easy_beats_random_and_normal_beats_easy_on_points() -> None:
    easy: Policy = EasyPolicy()
    random_player: Policy = RandomPolicy()
    normal: Policy = POLICY
    margin_random = margin_easy = 0
    for seed in range(6):
        swap = seed % 2
        totals = play(seed, [easy, random_player][:: 1 - 2 * swap])
        margin_random += (totals[0] - totals[1]) * (1 - 2 * swap)
        totals = play(seed, [normal, easy][:: 1 - 2 * swap])
        margin_easy += (totals[0] - totals[1]) * (1 - 2 * swap)
    assert margin_random > 0
    assert margin_easy > 0


def test_the_role_model_knows_who_will_be_the_grinch() -> None:
    # Two players: seat 0 is the Grinch of rounds 1, 3 and 5; seat 1 of rounds 2, 4 and 6.
    assert roles_after(0, 2, 1, 6) == (False, True, False, True, False)
    assert roles_after(1, 4, 0, 4) == (False, True, False, False)
    model = RoleModel(hands=60)
    free = free_mask(["wreaths", "noise"])
    # The Grinch chooses from more cards, so a round as the Grinch is worth more.
    assert model.value(free, (True,)) > model.value(free, (False,))
    costs = dict(model.costs(free, (True, False)))
    assert set(costs) == {i for i, row in enumerate(ROWS) if row not in ("wreaths", "noise")}
    assert min(costs.values()) == 0.0
