"""Grinch property tests: invariants checked at every step of many seeded random games."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace

import pytest

from engine.base import IllegalAction
from engine.grinch import GAME
from engine.grinch.actions import Action, ChooseRow, Discard, Take
from engine.grinch.cards import CARD_INDEX, CARDS, ROWS
from engine.grinch.rules import ROUNDS
from engine.grinch.scoring import score
from engine.grinch.state import GrinchState
from tests.engine.conformance import replay

PLAYER_COUNTS = [2, 3, 4, 5, 6]
EVERY_ACTION: list[Action] = [
    *(Discard(c) for c in CARDS),
    Take(None),
    *(Take(s) for s in range(6)),
    *(ChooseRow(r) for r in ROWS),
]


def random_step(state: GrinchState, rng: random.Random) -> tuple[GrinchState, int, Action]:
    seat = rng.choice(sorted(GAME.to_act(state)))
    action = rng.choice(GAME.legal_actions(state, seat))
    return GAME.apply(state, seat, action), seat, action


def expected_hand_size(state: GrinchState, seat: int) -> int:
    """Section 3.3 (a Who's locked-in discard stays in the hand until every Who is in)."""
    t, phase = state.turn, state.phase
    if phase in ("SCORING", "GAME_END"):
        return 5
    if seat == state.grinch:
        return t + 1 + len(state.takes)
    return t + 3 if phase == "WHO_DISCARD" else t + 2


def check_invariants(state: GrinchState, deck_takes: int) -> None:
    n = state.players
    cards = [
        *state.deck,
        *(c for h in state.hands for c in h),
        *(c for p in state.piles for c in p),
    ]
    assert len(cards) == 48 and set(cards) == set(CARDS)
    for seat in range(n):
        hand = state.hands[seat]
        assert len(hand) == expected_hand_size(state, seat)
        assert list(hand) == sorted(hand, key=CARD_INDEX.__getitem__)
        pending = state.pending[seat]
        if state.phase == "WHO_DISCARD" and pending is not None:
            assert pending in hand and seat != state.grinch
        elif state.phase == "SCORING" and pending is not None:
            assert pending in ROWS
        else:
            assert pending is None
    # Section 3.3: 48 - 2n after the deal, minus 2(n-1) per WHO_DRAW and 1 per deck take.
    assert len(state.deck) == 48 - 2 * n - 2 * (n - 1) * state.turn - deck_takes
    assert state.grinch == (state.round - 1) % n
    filled = state.round if state.phase == "GAME_END" else state.round - 1
    for cells in state.sheet:
        assert sum(v is not None for v in cells) == filled  # each row at most once


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_invariants_over_many_games(players: int) -> None:
    for seed in range(400):
        rng = random.Random(seed * 31 + players)
        state = GAME.new_game(players, seed)
        grinches: list[int] = []
        points = [0] * players
        deck_takes = 0
        while GAME.to_act(state):
            check_invariants(state, deck_takes)
            if state.round > len(grinches):
                grinches.append(state.grinch)
            before = state.last_round
            state, _, action = random_step(state, rng)
            deck_takes += action == Take(None)
            if state.round > len(grinches):
                deck_takes = 0
            result = state.last_round
            if result is not before and result is not None:
                for seat in range(players):
                    cell = score(result.hands[seat], result.rows[seat])
                    assert result.points[seat] == cell
                    assert state.sheet[seat][ROWS.index(result.rows[seat])] == cell
                    points[seat] += cell
        check_invariants(state, deck_takes)
        assert state.phase == "GAME_END" and state.round == ROUNDS[players]
        counts = Counter(grinches)
        assert len(grinches) == ROUNDS[players]
        assert set(counts.values()) == {ROUNDS[players] // players} and len(counts) == players
        outcome = GAME.outcome(state)
        assert outcome is not None
        assert list(outcome.totals) == points
        assert list(outcome.totals) == [sum(v or 0 for v in cells) for cells in state.sheet]
        assert outcome.winners == {s for s in range(players) if points[s] == max(points)}


def hidden_cards(state: GrinchState, seat: int | None) -> set[str]:
    """Cards ``seat`` may not see now (section 6), apart from the last round's reveal."""
    hidden = set(state.deck)
    for other in range(state.players):
        if other != seat:
            hidden |= set(state.hands[other])
    public_takes = {card for owner, card in state.takes if owner != -1}
    if state.phase == "GAME_END":
        return set(state.deck)
    return hidden - public_takes


def other_secrets(state: GrinchState, seat: int | None) -> GrinchState:
    """The same state with every other seat's locked-in secret choice changed."""
    pending = list(state.pending)
    for other, choice in enumerate(state.pending):
        if other == seat or choice is None:
            continue
        if state.phase == "WHO_DISCARD":
            options = list(state.hands[other])
        else:
            options = [r for r, v in zip(ROWS, state.sheet[other], strict=True) if v is None]
        pending[other] = options[(options.index(choice) + 1) % len(options)]
        assert pending[other] != choice
    return replace(state, pending=tuple(pending))


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_views_never_leak(players: int) -> None:
    for seed in range(12):
        rng = random.Random(seed + 1000 * players)
        state = GAME.new_game(players, seed * 7 + 3)
        reveal = None
        while True:
            for seat in [None, *range(players)]:
                view = GAME.view(state, seat)
                assert view["last_round"] == reveal
                rest = {k: v for k, v in view.items() if k != "last_round"}
                text = json.dumps(rest)
                for card in hidden_cards(state, seat):
                    assert f'"{card}"' not in text, (seat, card, state.phase)
                if seat is not None:
                    assert view["hand"] == list(state.hands[seat])
                    own = state.pending[seat]
                    assert view["my_pending"] == own
                assert GAME.view(other_secrets(state, seat), seat) == view
                assert view["hand_sizes"] == [len(h) for h in state.hands]
                assert view["deck_size"] == len(state.deck)
            if not GAME.to_act(state):
                break
            state, _, _ = random_step(state, rng)
            if state.last_round is not None:
                last = state.last_round
                reveal = {
                    "round": last.round,
                    "grinch": last.grinch,
                    "hands": [list(h) for h in last.hands],
                    "rows": list(last.rows),
                    "points": list(last.points),
                }


@pytest.mark.parametrize("players", PLAYER_COUNTS)
def test_replay_and_illegal_actions_change_nothing(players: int) -> None:
    for seed in range(3):
        rng = random.Random(seed + 77 * players)
        state = GAME.new_game(players, 500 + seed)
        log: list[tuple[int, str]] = []
        while GAME.to_act(state):
            before = GAME.to_json(state)
            actors = GAME.to_act(state)
            for seat in range(players):
                legal = set(GAME.legal_actions(state, seat))
                assert bool(legal) == (seat in actors)
                for action in EVERY_ACTION:
                    if action in legal:
                        continue
                    with pytest.raises(IllegalAction):
                        GAME.apply(state, seat, action)
                assert GAME.to_json(state) == before
            state, seat, action = random_step(state, rng)
            assert GAME.to_json(GAME.from_json(before)) == before
            log.append((seat, str(action)))
        final = GAME.to_json(state)
        assert GAME.to_json(replay(GAME, players, 500 + seed, log)) == final
        assert GAME.to_json(replay(GAME, players, 500 + seed, log)) == final
        for action in EVERY_ACTION:
            with pytest.raises(IllegalAction):
                GAME.apply(state, 0, action)
