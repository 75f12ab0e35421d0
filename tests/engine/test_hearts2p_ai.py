"""2-Player Hearts computer players: legal choices, sound deductions, an exact endgame search."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache

import pytest

from engine.base import Policy, RandomPolicy
from engine.hearts2p import GAME
from engine.hearts2p.actions import Play
from engine.hearts2p.ai import POLICY
from engine.hearts2p.ai.infer import read_view, sample_opponent_hand
from engine.hearts2p.ai.normal import RULE_POLICY, MonteCarloPolicy, hand_utility, win_chance
from engine.hearts2p.ai.sim import (
    State,
    follower_wins,
    heuristic_follow,
    heuristic_lead,
    legal_mask,
    mask_of,
    play,
    rollout_state,
    to_act,
)
from engine.hearts2p.ai.solve import OutOfTime, solve_moves
from engine.hearts2p.cards import DECK, POINT_CARDS
from engine.hearts2p.state import State as GameState


def _positions(count: int, seed: int) -> list[GameState]:
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
            if len(legal) > 1 and rng.random() < 0.08:
                out.append(state)
            state = GAME.apply(state, seat, rng.choice(legal))
    return out


def test_policy_returns_a_legal_action_from_random_positions() -> None:
    fast = MonteCarloPolicy(time_limit=0.03)
    for i, state in enumerate(_positions(40, 1)):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        policy = POLICY if i < 8 else fast
        action = policy.choose(GAME.view(state, seat), legal, random.Random(i))
        assert action in legal


def test_rule_policy_plays_whole_games_legally() -> None:
    for seed in range(30):
        state = GAME.new_game(2, seed)
        rng = random.Random(seed)
        policies: list[Policy] = (
            [RULE_POLICY, RandomPolicy()] if seed % 2 else [RandomPolicy(), RULE_POLICY]
        )
        while GAME.to_act(state):
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            action = policies[seat].choose(GAME.view(state, seat), legal, rng)
            assert action in legal
            state = GAME.apply(state, seat, action)
        assert GAME.outcome(state) is not None


def test_deductions_are_sound_and_samples_consistent() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(25):
        state = GAME.new_game(2, 500 + seed)
        while GAME.to_act(state):
            (seat,) = GAME.to_act(state)
            k = read_view(GAME.view(state, seat))
            other = mask_of(state.hands[1 - seat])
            dead = mask_of(state.dead)
            assert k.hand == mask_of(state.hands[seat])
            assert k.opponent_cannot_hold & other == 0, "a deduction excluded a held card"
            assert other & ~k.unseen == 0
            assert k.unseen == other | (dead & k.unseen)
            assert (dead & ~k.unseen).bit_count() == 2 - k.unknown_dead
            for _ in range(3):
                sample = sample_opponent_hand(k, rng)
                assert sample.bit_count() == len(state.hands[1 - seat])
                assert sample & ~k.unseen == 0
                assert sample & k.opponent_cannot_hold == 0
            checked += 1
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
            if state.hand_no > 2:
                break
    assert checked > 1000


def test_deductions_see_voids_dead_cards_and_forced_heart_leads() -> None:
    base = GAME.new_game(2, 1)
    state = replace(
        base,
        hands=(("8C", "4D", "QS"), ("2H", "6H", "AD")),
        dead=("2C", "4C"),
        opening_card="6C",
        leader=1,
        trick_no=11,
        hearts_broken=False,
        history=((0, "6C", "10S", 0), (0, "AC", "8S", 0)),
        won=(("6C", "10S", "AC", "8S"), ()),
    )
    state = GAME.apply(state, 1, Play("AD"))
    state = GAME.apply(state, 0, Play("4D"))  # seat 1 wins and leads again
    k = read_view(GAME.view(state, 0))
    assert k.unknown_dead == 0  # 6C opened: 2C and 4C are dead
    assert k.unseen & mask_of(["2C", "4C"]) == 0
    clubs = mask_of([c for c in DECK if c.endswith("C")])
    assert k.opponent_cannot_hold & clubs == k.unseen & clubs != 0  # seat 1 showed a club void
    state = GAME.apply(state, 1, Play("2H"))  # a heart led before hearts broke: only hearts
    k = read_view(GAME.view(state, 0))
    non_hearts = mask_of([c for c in DECK if not c.endswith("H")])
    assert k.opponent_cannot_hold == k.unseen & non_hearts


def _random_endgame(rng: random.Random, n: int) -> State:
    cards = list(range(28))
    rng.shuffle(cards)
    h0 = sum(1 << c for c in cards[:n])
    h1 = sum(1 << c for c in cards[n : 2 * n])
    points = rng.choice([(0, 0), (0, 4), (13, 1), (2, 0)])
    took = (points[0] > 0, points[1] > 0)
    if rng.random() < 0.5:  # seat 1 has led one of its cards: seat 0 follows
        return play((h0, h1, 1, -1, rng.random() < 0.5, *points, *took), cards[n])
    return (h0, h1, 0, -1, rng.random() < 0.5, *points, *took)


def _brute_force(state: State, utility: object) -> float:
    assert callable(utility)

    @cache
    def value(node: State) -> float:
        h0, h1, _, lead, broken, p0, p1, t0, t1 = node
        if lead < 0 and not (h0 or h1):
            return float(utility(p0, p1, t0, t1))
        actor = to_act(node)
        moves = legal_mask(h0 if actor == 0 else h1, lead, broken)
        values = [value(play(node, c)) for c in range(28) if moves >> c & 1]
        return max(values) if actor == 0 else min(values)

    return value(state)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_exact_search_matches_brute_force(n: int) -> None:
    rng = random.Random(n)
    for totals in ((0, 0), (90, 85), (60, 99)):
        utility = hand_utility(totals)
        for _ in range(12):
            state = _random_endgame(rng, n)
            values = solve_moves(state, utility)
            moves = legal_mask(state[0], state[3], state[4])
            assert set(values) == {c for c in range(28) if moves >> c & 1}
            for card, v in values.items():
                assert v == pytest.approx(_brute_force(play(state, card), utility))


def test_exact_search_gives_up_at_its_deadline() -> None:
    state = _random_endgame(random.Random(3), 13)
    with pytest.raises(OutOfTime):
        solve_moves(state, hand_utility((0, 0)), deadline=0.0)


def test_heuristics_play_legal_cards_and_rollouts_finish() -> None:
    rng = random.Random(9)
    for _ in range(300):
        state = _random_endgame(rng, rng.randint(1, 13))
        h0, h1, _, lead, broken = state[:5]
        hand = h0 if to_act(state) == 0 else h1
        legal = legal_mask(hand, lead, broken)
        card = heuristic_follow(hand, lead) if lead >= 0 else heuristic_lead(hand, broken)
        assert legal >> card & 1
        p0, p1, *_ = rollout_state(state)
        left = h0 | h1 | (1 << lead if lead >= 0 else 0)
        in_play = sum(
            13 if DECK[c] == "QS" else 1
            for c in range(28)
            if left >> c & 1 and DECK[c] in POINT_CARDS
        )
        assert p0 + p1 == state[5] + state[6] + in_play


def test_follower_wins_matches_rules() -> None:
    from engine.hearts2p.rules import trick_winner

    for led in range(28):
        for card in range(28):
            if led != card:
                assert follower_wins(led, card) == (trick_winner(DECK[led], DECK[card]) == 1)


def test_win_chance_is_sensible() -> None:
    assert win_chance(50, 50) == pytest.approx(0.5)
    assert win_chance(40, 60) > 0.5 > win_chance(60, 40)
    assert win_chance(99, 100) == 1.0 and win_chance(101, 100) == 0.0
    assert win_chance(100, 100) == pytest.approx(0.5)
    diffs = [win_chance(80 - d, 80 + d) for d in range(10)]
    assert diffs == sorted(diffs)


def test_policy_dumps_the_queen_when_void() -> None:
    # Trick 12: seat 1 (holding AD, 2S) leads AD; seat 0 holds QS and AH, no diamond.
    # Dumping QS gives it to seat 1; keeping it means eating it on the 2S lead of trick 13.
    # The 22 cards already played (2C and 4C are dead: 6C opened); only the 8C trick shows
    # a void (clubs), which neither remaining hand contradicts.
    pairs = [
        ("6C", "10C"),
        ("QC", "AC"),
        ("8C", "AS"),
        ("2D", "4D"),
        ("6D", "8D"),
        ("10D", "QD"),
        ("2H", "4H"),
        ("6H", "8H"),
        ("10H", "QH"),
        ("4S", "6S"),
        ("8S", "10S"),
    ]
    played = []
    for i, (lead, follow) in enumerate(pairs):
        leader = i % 2
        played += [{"seat": leader, "card": lead}, {"seat": 1 - leader, "card": follow}]
    played.append({"seat": 1, "card": "AD"})
    view = {
        "seat": 0,
        "hand": ["AH", "QS"],
        "played": played,
        "opening_card": "6C",
        "trick": [{"seat": 1, "card": "AD"}],
        "leader": 1,
        "trick_no": 12,
        "hearts_broken": True,
        "opponent_hand_size": 1,
        "taken": [
            {"points": 3, "point_cards": ["2H", "4H", "6H"]},
            {"points": 3, "point_cards": ["8H", "10H", "QH"]},
        ],
        "totals": [10, 20],
    }
    legal = [Play("AH"), Play("QS")]
    for policy in (POLICY, RULE_POLICY):
        assert policy.choose(view, legal, random.Random(1)) == Play("QS")
