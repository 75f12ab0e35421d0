"""2-Player Hearts computer levels: legal choices, hidden cards unread, seeded determinism."""

from __future__ import annotations

import random
from dataclasses import replace
from math import comb

import pytest

from engine import policy_for
from engine.base import Level, Policy
from engine.hearts2p import GAME
from engine.hearts2p.actions import Play
from engine.hearts2p.ai import POLICIES, POLICY
from engine.hearts2p.ai.easy import EASY_POLICY, EasyPolicy
from engine.hearts2p.ai.hard import HARD_POLICY, HardPolicy, opponent_hands
from engine.hearts2p.ai.infer import read_view
from engine.hearts2p.ai.sim import mask_of
from engine.hearts2p.cards import DECK
from engine.hearts2p.rules import OPENING_CANDIDATES
from engine.hearts2p.state import State as GameState

# A hard player with a small budget: the same code as HARD_POLICY, quick enough for many
# positions; from a full hand its first search runs out and it falls back to play-outs.
SMALL_HARD = HardPolicy(nodes=1_500, deals=12, first_deal_nodes=3_000)


def _positions(count: int, seed: int, rate: float = 0.08) -> list[GameState]:
    """Positions from random games, spread over several hands and tricks."""
    rng = random.Random(seed)
    out: list[GameState] = []
    game_seed = seed * 1000
    while len(out) < count:
        state = GAME.new_game(2, game_seed)
        game_seed += 1
        while GAME.to_act(state) and len(out) < count:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            if len(legal) > 1 and rng.random() < rate:
                out.append(state)
            state = GAME.apply(state, seat, rng.choice(legal))
    return out


def test_every_level_is_registered() -> None:
    assert set(POLICIES) == set(Level)
    assert POLICIES[Level.NORMAL] is POLICY
    for level in Level:
        assert policy_for("hearts", level) is POLICIES[level]
    assert len({id(p) for p in POLICIES.values()}) == 3


@pytest.mark.parametrize("policy", [EASY_POLICY, SMALL_HARD], ids=["easy", "hard"])
def test_each_level_returns_a_legal_action_from_random_positions(policy: Policy) -> None:
    for i, state in enumerate(_positions(50, 3)):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert policy.choose(GAME.view(state, seat), legal, random.Random(i)) in legal


def test_the_full_levels_return_legal_actions() -> None:
    # Positions late in a hand, where the full hard and normal budgets are cheap, and two
    # from full hands.
    late = [s for s in _positions(40, 4) if s.trick_no >= 9][:5]
    early = [s for s in _positions(40, 6) if s.trick_no <= 2][:2]
    assert len(late) == 5 and len(early) == 2
    for i, state in enumerate(late + early):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        for level in Level:
            assert POLICIES[level].choose(view, legal, random.Random(i)) in legal


def test_easy_plays_whole_games_legally_and_the_same_for_a_seed() -> None:
    for seed in range(6):
        plays: list[list[str]] = []
        for _ in range(2):
            state = GAME.new_game(2, seed)
            rng = random.Random(seed)
            log: list[str] = []
            while GAME.to_act(state):
                (seat,) = GAME.to_act(state)
                legal = GAME.legal_actions(state, seat)
                action = EASY_POLICY.choose(GAME.view(state, seat), legal, rng)
                assert action in legal
                log.append(str(action))
                state = GAME.apply(state, seat, action)
            assert GAME.outcome(state) is not None
            plays.append(log)
        assert plays[0] == plays[1]


def test_easy_slips_sometimes_but_not_always() -> None:
    careful = EasyPolicy(slip=0.0)
    same = differ = 0
    for i, state in enumerate(_positions(150, 8)):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        choice = EASY_POLICY.choose(view, legal, random.Random(i))
        assert choice == EASY_POLICY.choose(view, legal, random.Random(i))
        if choice == careful.choose(view, legal, random.Random(i)):
            same += 1
        else:
            differ += 1
    # About SLIP_CHANCE of the choices are slips (seeded, so the count is fixed).
    assert 0.15 * (same + differ) < differ < 0.45 * (same + differ)


def test_easy_dumps_the_queen_when_void_and_ducks_when_it_can() -> None:
    careful = EasyPolicy(slip=0.0)
    view = {"trick": [{"seat": 1, "card": "AD"}]}
    legal = [Play("2C"), Play("AH"), Play("QS")]
    assert careful.choose(view, legal, random.Random(0)) == Play("QS")
    view = {"trick": [{"seat": 1, "card": "10C"}]}
    legal = [Play("2C"), Play("8C"), Play("AC")]
    assert careful.choose(view, legal, random.Random(0)) == Play("8C")


def _hidden_twin(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """The same position for ``seat`` with different hidden cards: the opponent's hand and
    the dead cards swapped within a suit (so every void shown stays true), the next deals
    changed by another seed."""
    other = 1 - seat
    theirs = list(state.hands[other])
    dead = list(state.dead)
    swaps = [
        (i, j)
        for i, c in enumerate(theirs)
        for j, d in enumerate(dead)
        if c[-1] == d[-1] and d not in OPENING_CANDIDATES and c not in OPENING_CANDIDATES
    ]
    if not swaps:
        return None
    i, j = rng.choice(swaps)
    theirs[i], dead[j] = dead[j], theirs[i]
    rng.shuffle(theirs)
    hands = list(state.hands)
    hands[other] = tuple(sorted(theirs, key=DECK.index))
    return replace(
        state,
        seed=state.seed + 1,
        hands=(hands[0], hands[1]),
        dead=(dead[0], dead[1]),
    )


def test_hard_reads_nothing_it_cannot_see() -> None:
    rng = random.Random(11)
    tried = 0
    for state in _positions(300, 12, rate=0.2):
        (seat,) = GAME.to_act(state)
        if state.trick_no < 6:  # keep the searches small
            continue
        twin = _hidden_twin(state, seat, rng)
        if twin is None:
            continue
        assert twin.hands[1 - seat] != state.hands[1 - seat] or twin.dead != state.dead
        view = GAME.view(state, seat)
        assert GAME.view(twin, seat) == view
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(twin, seat) == legal
        first = HARD_POLICY.choose(view, legal, random.Random(tried))
        again = HARD_POLICY.choose(GAME.view(twin, seat), legal, random.Random(tried))
        assert first == again
        tried += 1
        if tried == 6:
            break
    assert tried == 6


def test_hard_is_deterministic_for_a_seed() -> None:
    for i, state in enumerate(_positions(40, 13)[:12]):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        view = GAME.view(state, seat)
        choices = {SMALL_HARD.choose(view, legal, random.Random(i)) for _ in range(3)}
        assert len(choices) == 1


def test_opponent_hands_are_consistent_distinct_and_spread() -> None:
    for state in _positions(80, 14, rate=0.2):
        (seat,) = GAME.to_act(state)
        k = read_view(GAME.view(state, seat))
        truth = mask_of(state.hands[1 - seat])
        hands = opponent_hands(k, 30, random.Random(1))
        masks = [h for h, _ in hands]
        assert len(set(masks)) == len(masks)
        for h in masks:
            assert h.bit_count() == k.opponent_size
            assert h & ~k.unseen == 0 and h & k.opponent_cannot_hold == 0
        free = (k.unseen & ~k.opponent_cannot_hold).bit_count()
        extra = free - k.opponent_size
        if comb(free, extra) <= 30:  # every consistent deal, the true one among them
            assert truth in masks and len(masks) == comb(free, extra)
            assert all(w == 1 for _, w in hands)
        else:
            assert sum(w for _, w in hands) == 30
            # Each candidate is left out (dead) about equally often.
            dead_counts = [
                sum(w for h, w in hands if not h >> c & 1)
                for c in range(28)
                if (k.unseen & ~k.opponent_cannot_hold) >> c & 1
            ]
            assert max(dead_counts) - min(dead_counts) <= 1
