"""Ten invariants over many random games of every size (plain seeded loops, no hypothesis).

Checked after every action: every card of the game is in exactly one zone; token counts stay
within the rules (0..10 currency each, at most 15 bust tokens out) and change exactly as the
action says (payments, gains recorded in the turn log, one bust token per bust); the view is
JSON and its scores are the engine's; ``legal_actions`` stays small and every listed action is
accepted. Rejected actions leave the state unchanged; a replay gives the identical state.
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.base import IllegalAction
from engine.ten import GAME
from engine.ten.actions import Bid, Buy, Draw, Pay, Take
from engine.ten.cards import deck_for
from engine.ten.payments import Payment
from engine.ten.scoring import score_collection
from engine.ten.state import OVER, TenState
from tests.engine.test_ten_rules import zones

GAMES_PER_SIZE = {1: 40, 2: 25, 3: 18, 4: 14, 5: 12}


def _token_step(before: TenState, after: TenState, seat: int, action: object) -> None:
    tokens = list(before.tokens)
    bust = list(before.bust)
    if isinstance(action, Pay | Buy):
        tokens[seat] -= action.payment.tokens
        bust[seat] -= action.payment.bust
    ended = after.turns > before.turns
    log = after.last_turn if ended else after.turn
    assert log is not None
    busted = isinstance(action, Draw) and ended
    if isinstance(action, Take) or busted:
        tokens = [t + g for t, g in zip(tokens, log.gains, strict=True)]
    if busted:
        assert log.result.startswith("bust") and log.bust_token == (sum(before.bust) < 15)
        bust[log.seat] += log.bust_token
    assert tuple(tokens) == after.tokens, (str(action), before.tokens, after.tokens)
    assert tuple(bust) == after.bust
    assert all(0 <= t <= 10 for t in after.tokens) and sum(after.bust) <= 15


def _illegal_probes(state: TenState, seat: int, rng: random.Random) -> None:
    """Actions that must be refused here; the state must not change."""
    before = GAME.to_json(state)
    probes: list[tuple[int, str]] = [(seat, "bid.999"), (seat, "pay.99.0"), (seat, "buy.R1a.0.0")]
    others = [s for s in range(state.players) if s != seat]
    if others:
        probes.append((rng.choice(others), str(rng.choice(GAME.legal_actions(state, seat)))))
    wrong_phase = {"draw": "nobuy", "bid": "draw", "pay": "take.n", "reward": "draw"}
    probes.append((seat, wrong_phase.get(state.phase, "stop")))
    for who, text in probes:
        with pytest.raises(IllegalAction):
            GAME.apply(state, who, GAME.parse_action(text))
    assert GAME.to_json(state) == before


def _play(players: int, seed: int) -> tuple[TenState, list[tuple[int, str]]]:
    rng = random.Random(seed * 31 + players)
    state = GAME.new_game(players, seed)
    full = Counter(deck_for(players))
    log: list[tuple[int, str]] = []
    steps = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        assert 0 < len(legal) < 200
        if steps % 23 == 0:
            _illegal_probes(state, seat, rng)
            view = GAME.view(state, seat)
            json.dumps(view)
            assert view["totals"] == [score_collection(c) for c in state.collections]
            assert view["me"] is not None and view["me"]["legal"] == [str(a) for a in legal]
        action = rng.choice(legal)
        if isinstance(action, Bid) and rng.random() < 0.7:
            action = legal[min(1, len(legal) - 1)]  # keep bids modest so payments vary
        after = GAME.apply(state, seat, action)
        assert zones(after) == full
        _token_step(state, after, seat, action)
        state = after
        log.append((seat, str(action)))
        steps += 1
    return state, log


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_random_games_keep_the_invariants(players: int) -> None:
    for seed in range(GAMES_PER_SIZE[players]):
        final, log = _play(players, seed)
        assert final.phase == OVER and final.deck == () and final.row == ()
        assert len(final.final_buys) == players
        outcome = GAME.outcome(final)
        assert outcome is not None and outcome.totals == tuple(
            score_collection(c) for c in final.collections
        )
        if seed < 4:
            again = GAME.new_game(players, seed)
            for seat, text in log:
                again = GAME.apply(again, seat, GAME.parse_action(text))
            assert GAME.to_json(again) == GAME.to_json(final)
            assert GAME.to_json(GAME.from_json(GAME.to_json(final))) == GAME.to_json(final)


def test_other_legal_payments_are_accepted() -> None:
    """apply takes payments beyond the listed ones: any card choice of a legal shape."""
    rng = random.Random(5)
    accepted = 0
    for seed in range(30):
        state = GAME.new_game(3, seed)
        while GAME.to_act(state) and accepted < 40:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            action = rng.choice(legal)
            if isinstance(action, Pay | Buy) and action.payment.cards:
                held = list(state.collections[seat])
                k = len(action.payment.cards)
                chosen = rng.sample(held, k)
                other = Payment(
                    action.payment.tokens, action.payment.bust, tuple(c[:2] for c in chosen)
                )
                variant = Pay(other) if isinstance(action, Pay) else Buy(action.card, other)
                after = GAME.apply(state, seat, GAME.parse_action(str(variant)))
                assert sorted(after.discard[len(after.discard) - k :]) == sorted(
                    _resolved(held, chosen)
                )
                accepted += 1
            state = GAME.apply(state, seat, action)
    assert accepted >= 10


def _resolved(held: list[str], chosen: list[str]) -> list[str]:
    """The copies the engine spends for the chosen types: lowest copy of each type first."""
    out: list[str] = []
    pool = sorted(held)
    for ctype in sorted(c[:2] for c in chosen):
        card = next(c for c in sorted(pool, key=_copy_key) if c[:2] == ctype)
        pool.remove(card)
        out.append(card)
    return out


def _copy_key(card: str) -> tuple[str, str]:
    return card[:2], card[2:]
