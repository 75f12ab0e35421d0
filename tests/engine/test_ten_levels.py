"""Ten's computer players by level: legal through whole games, blind to the pile's order,
deterministic for a seed, and ordered by strength."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import replace

import pytest

from engine import policy_for
from engine.base import Level, Policy, RandomPolicy
from engine.ten import GAME
from engine.ten.actions import Draw, Stop
from engine.ten.ai import POLICIES, POLICY
from engine.ten.ai.easy import EasyPolicy
from engine.ten.ai.hard import HardPolicy, _StopSearch
from engine.ten.ai.normal import TenPolicy, _Context
from engine.ten.state import TenState
from tests.engine.test_ten_rules import act, rig

HARD = POLICIES[Level.HARD]
EASY = POLICIES[Level.EASY]


def play(seed: int, policies: Sequence[Policy], check: bool = True) -> TenState:
    """One game with ``policies[s]`` in seat ``s``; every choice checked against the legal
    actions."""
    state = GAME.new_game(len(policies), seed)
    step = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        rng = random.Random(seed * 1000 + step)
        action = policies[seat].choose(GAME.view(state, seat), legal, rng)
        if check:
            assert action in legal, (seat, state.phase, str(action))
        state = GAME.apply(state, seat, action)
        step += 1
    return state


def test_each_level_is_registered_and_normal_is_todays_player() -> None:
    assert POLICIES[Level.NORMAL] is POLICY
    assert type(POLICY) is TenPolicy
    assert isinstance(EASY, EasyPolicy)
    assert isinstance(HARD, HardPolicy)
    for level in Level:
        assert policy_for("ten", level) is POLICIES[level]


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_every_level_plays_whole_games_legally(players: int) -> None:
    levels = [Level.HARD, Level.EASY, Level.NORMAL, Level.HARD, Level.EASY]
    rounds = 3 if players == 1 else 1  # solo: each level plays its own game
    for k in range(rounds):
        seats = [POLICIES[levels[(k + s) % 3]] for s in range(players)]
        final = play(40 + players + k, seats)
        assert GAME.outcome(final) is not None


def decision_points(players: int, seed: int) -> Iterator[tuple[TenState, int]]:
    """Every position with a real choice in a game between normal players."""
    state = GAME.new_game(players, seed)
    rng = random.Random(seed)
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        if len(legal) > 1:
            yield state, seat
        state = GAME.apply(state, seat, POLICY.choose(GAME.view(state, seat), legal, rng))


def reordered(state: TenState, rng: random.Random) -> TenState:
    """The same position with the draw pile in another order: nothing any seat sees changes."""
    deck = list(state.deck)
    while len(deck) > 1 and tuple(deck) == state.deck:
        rng.shuffle(deck)
    return replace(state, deck=tuple(deck))


@pytest.mark.parametrize("players", [2, 4])
def test_hard_cannot_read_the_order_of_the_draw_pile(players: int) -> None:
    rng = random.Random(players)
    checked = 0
    phases: set[str] = set()
    for step, (state, seat) in enumerate(decision_points(players, 11)):
        if step % 3 or len(state.deck) < 2:
            continue
        other = reordered(state, rng)
        assert other.deck != state.deck and sorted(other.deck) == sorted(state.deck)
        view = GAME.view(state, seat)
        assert GAME.view(other, seat) == view
        legal = GAME.legal_actions(state, seat)
        assert GAME.legal_actions(other, seat) == legal
        mine = HARD.choose(view, legal, random.Random(step))
        again = HARD.choose(GAME.view(other, seat), legal, random.Random(step))
        assert mine == again, (state.phase, str(mine), str(again))
        checked += 1
        phases.add(state.phase)
    assert checked >= 15
    assert {"draw", "bid", "reward"} <= phases


@pytest.mark.parametrize("level", list(Level))
def test_a_level_is_deterministic_for_a_seed(level: Level) -> None:
    policy = POLICIES[level]
    points = [p for i, p in enumerate(decision_points(3, 5)) if i % 2 == 0]
    assert len(points) > 30
    for step, (state, seat) in enumerate(points):
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        first = policy.choose(view, legal, random.Random(step))
        assert policy.choose(view, legal, random.Random(step)) == first


def test_easy_slips_sometimes_but_not_always() -> None:
    careful = EasyPolicy(slip=0.0)
    differ = total = 0
    for step, (state, seat) in enumerate(decision_points(2, 8)):
        if state.phase not in ("bid", "buy", "final_buy"):
            continue
        view, legal = GAME.view(state, seat), GAME.legal_actions(state, seat)
        total += 1
        differ += EASY.choose(view, legal, random.Random(step)) != careful.choose(
            view, legal, random.Random(step)
        )
    assert 0 < differ < total


def _decide(policy: Policy, state: TenState) -> object:
    (seat,) = GAME.to_act(state)
    legal = GAME.legal_actions(state, seat)
    return policy.choose(GAME.view(state, seat), legal, random.Random(0))


def test_easy_draws_by_its_line_without_counting_the_pile() -> None:
    # Net 8: every level-headed count says stop, unless every card left is low.
    low = [f"{c}1a" for c in "RBOG"] + [f"{c}2a" for c in "RBOG"]
    counted = act(rig(2, ["R8a", *low], only=True), "draw")
    assert isinstance(_decide(POLICY, counted), Draw)  # normal counts: nothing can bust
    assert isinstance(_decide(EASY, counted), Stop)  # easy stops at its line anyway
    assert isinstance(_decide(HARD, counted), Draw)
    early = act(rig(2, ["R2a", "B9a"]), "draw")
    assert isinstance(_decide(EASY, early), Draw)


def test_hard_searches_a_short_pile_to_its_end() -> None:
    state = act(rig(2, ["R3a", "C2a", "B4a", "G5a", "O1a"], only=True), "draw")
    (seat,) = GAME.to_act(state)
    search = _StopSearch(HARD, _Context(GAME.view(state, seat), random.Random(0)))  # type: ignore[arg-type]
    stop_now, draw_on = search.best(6)
    assert search.complete
    assert draw_on > stop_now  # net 3 with 1-5 left: drawing cannot bust for two cards
    assert isinstance(_decide(HARD, state), Draw)


def _auction(bidder: Policy) -> TenState:
    """A super wild drawn by seat 0: seat 1 (``bidder``) bids first, seat 0 (normal) last.
    It completes a run of seven for seat 1 and a run of six for seat 0, who has 6 tokens."""
    reds = ["R1a", "R2a", "R3a", "R5a", "R6a", "R7a"]
    blues = ["B1a", "B2a", "B3a", "B5a", "B6a"]
    state = act(rig(2, ["W#"], tokens=(6, 8), collections=[blues, reds]), "draw")
    assert GAME.to_act(state) == {1}
    for policy in (bidder, POLICY):
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, _decide(policy, state))  # type: ignore[arg-type]
    return state


def test_hard_shuts_out_a_later_bidder_it_can_read() -> None:
    """Normal bids part of its worth and is outbid by the last bidder; hard reads seat 0's
    purse and worth and bids what seat 0 could pay at most, so it takes the wild."""
    assert GAME.to_act(_auction(POLICY)) == {0}  # seat 0 outbid normal and pays
    won = _auction(HARD)
    assert GAME.to_act(won) == {1}  # seat 0 passed: hard pays for the wild
    assert max(amount for _, amount in won.bids) == 6


def _score(seed: int, strong: Policy, weak: Policy) -> float:
    """The strong side's result over one deal played twice, the seats swapped (a win 1, a
    shared win 1/2 per game): two equal players score exactly 1, so only skill moves it."""
    total = 0.0
    for mine in (0, 1):
        seats = [strong, weak] if mine == 0 else [weak, strong]
        outcome = GAME.outcome(play(seed, seats, check=False))
        assert outcome is not None
        won = [s in outcome.winners for s in (mine, 1 - mine)]
        total += 0.5 if won[0] == won[1] else float(won[0])
    return total


def test_the_levels_are_ordered_by_strength() -> None:
    random_player = RandomPolicy()
    assert sum(_score(100 + i, EASY, random_player) for i in range(3)) >= 5  # of 6 games
    assert sum(_score(200 + i, POLICY, EASY) for i in range(5)) > 5  # of 10 games
    assert sum(_score(300 + i, HARD, POLICY) for i in range(3)) > 3  # of 6 games
