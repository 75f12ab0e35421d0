"""2-Player Hearts: invariants over many seeded random games, and legal_cards vs the spec."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import View
from engine.hearts2p import GAME
from engine.hearts2p.cards import DECK, POINT_CARDS, points_of, sorted_cards, suit
from engine.hearts2p.rules import legal_cards
from engine.hearts2p.state import State
from tests.engine.conformance import replay

GAMES = 120


def _quoted(cards: set[str], text: str) -> set[str]:
    return {c for c in cards if f'"{c}"' in text}


def _check_views(state: State) -> None:
    """No view shows the other hand or a dead card of the hand being played."""
    for seat in (0, 1, None):
        view = GAME.view(state, seat)
        assert view["game"] == "hearts" and view["seat"] == seat
        assert view["to_act"] == sorted(GAME.to_act(state))
        hidden = set(state.dead)
        for other in (0, 1):
            if other != seat:
                hidden |= set(state.hands[other])
        # The opening card is public by the rules: its holder must lead it (section 3.5).
        hidden.discard(state.opening_card)
        current = {k: v for k, v in view.items() if k != "last_hand"}
        assert not _quoted(hidden, json.dumps(current)), (seat, hidden)
        if state.hand_no == 1:
            assert not _quoted(hidden, json.dumps(view))
        if seat is not None:
            assert view["hand"] == sorted_cards(state.hands[seat])
            assert view["opponent_hand_size"] == len(state.hands[1 - seat])
        else:
            assert view["hand"] == []
        assert "seed" not in view


def _check_state(state: State) -> None:
    on_table = [c for _, c in state.trick]
    every = [*state.hands[0], *state.hands[1], *state.dead, *state.won[0], *state.won[1]]
    every += on_table
    assert sorted_cards(every) == list(DECK), "the 28 cards are conserved"
    played = 2 * len(state.history) + len(state.trick)
    sizes = [len(h) for h in state.hands]
    if state.winner is None:
        assert len(state.history) == state.trick_no - 1
        assert sizes[state.leader] == 13 - len(state.history) - len(state.trick)
        assert sizes[1 - state.leader] == 13 - len(state.history)
    assert sum(sizes) == 26 - played
    assert len(state.won[0]) + len(state.won[1]) == 2 * len(state.history)
    broken = any(suit(c) == "H" for c in [*state.won[0], *state.won[1], *on_table])
    assert state.hearts_broken == broken


def _check_records(state: State) -> None:
    totals = [0, 0]
    for n, record in enumerate(state.records, start=1):
        assert record.hand_no == n
        live = 20 - points_of(record.dead)
        assert sum(record.raw) == live
        took_none = [not record.point_cards[s] for s in (0, 1)]
        assert (record.moon is not None) == any(took_none)
        if record.moon is None:
            assert record.points == record.raw
        else:
            assert took_none[1 - record.moon]
            assert sum(record.points) == 20 and record.points[record.moon] == 0
        assert [points_of(p) for p in record.point_cards] == list(record.raw)
        totals = [totals[0] + record.points[0], totals[1] + record.points[1]]
        assert list(record.totals) == totals
        if n < len(state.records):
            assert max(totals) < 100 or totals[0] == totals[1]
    assert list(state.totals) == totals


def _play_random(seed: int, rng: random.Random, deep: bool) -> tuple[State, list[tuple[int, str]]]:
    state = GAME.new_game(2, seed)
    log: list[tuple[int, str]] = []
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        assert GAME.legal_actions(state, 1 - seat) == []
        legal = GAME.legal_actions(state, seat)
        assert legal, "the seat to act always has a legal card"
        cards = {a.card for a in legal}
        assert cards <= set(state.hands[seat])
        trick = [c for _, c in state.trick]
        expected = legal_cards(
            state.hands[seat], trick, state.hearts_broken, state.trick_no, state.opening_card
        )
        assert cards == expected
        if deep:
            _check_state(state)
            _check_views(state)
        action = rng.choice(legal)
        state = GAME.apply(state, seat, action)
        log.append((seat, str(action)))
    return state, log


def test_random_games_invariants_and_replay() -> None:
    hands_played = 0
    for seed in range(GAMES):
        rng = random.Random(seed)
        final, log = _play_random(seed, rng, deep=seed < 40)
        _check_state(final)
        _check_records(final)
        outcome = GAME.outcome(final)
        assert outcome is not None
        assert max(outcome.totals) >= 100 and outcome.totals[0] != outcome.totals[1]
        (winner,) = outcome.winners
        assert outcome.totals[winner] == min(outcome.totals)
        assert len(final.records) == final.hand_no
        assert [r.hand_no % 2 for r in final.records] == [(n + 1) % 2 for n in range(final.hand_no)]
        hands_played += final.hand_no
        again = replay(GAME, 2, seed, log)
        assert GAME.to_json(again) == GAME.to_json(final)
        assert GAME.to_json(GAME.from_json(GAME.to_json(final))) == GAME.to_json(final)
        last = GAME.view(final, None)
        assert last["outcome"] is not None and last["last_hand"] is not None
        assert last["phase"] == "over" and last["outcome"]["winners"] == [winner]
        assert last["last_hand"]["dead"] == list(final.dead)
    assert hands_played > GAMES * 3


def test_dead_cards_appear_only_after_the_hand_is_scored() -> None:
    rng = random.Random(99)
    state = GAME.new_game(2, 99)
    dead = set(state.dead)
    while state.hand_no == 1:
        for seat in (0, 1, None):
            assert not _quoted(dead, json.dumps(GAME.view(state, seat)))
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    for seat in (0, 1, None):
        last_hand = GAME.view(state, seat)["last_hand"]
        assert last_hand is not None and set(last_hand["dead"]) == dead


def test_same_seed_same_deals_different_seeds_differ() -> None:
    deals = {json.dumps(GAME.new_game(2, seed).hands) for seed in range(50)}
    assert len(deals) == 50
    assert GAME.to_json(GAME.new_game(2, 5)) == GAME.to_json(GAME.new_game(2, 5))


def _spec_legal(
    hand: list[str], trick: list[str], broken: bool, trick_no: int, opening: str
) -> set[str]:
    """Section 4.2 restated independently, suit by suit."""
    if trick:
        follow = [c for c in hand if c[-1] == trick[0][-1]]
        return set(follow if follow else hand)
    if trick_no == 1:
        return {opening}
    if broken or all(c[-1] == "H" for c in hand):
        return set(hand)
    return {c for c in hand if c[-1] != "H"}


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=13, unique=True),
    st.sampled_from(DECK),
    st.booleans(),
    st.integers(min_value=2, max_value=13),
    st.booleans(),
)
def test_legal_cards_matches_spec(
    hand: list[str], led: str, broken: bool, trick_no: int, leading: bool
) -> None:
    trick = [] if leading or led in hand else [led]
    got = legal_cards(hand, trick, broken, trick_no, "2C")
    assert got == _spec_legal(hand, trick, broken, trick_no, "2C")
    assert got and got <= set(hand)
    if not trick and not broken and got & {c for c in hand if c[-1] == "H"}:
        assert all(c[-1] == "H" for c in hand)
    assert (POINT_CARDS & got) <= set(hand)


def _dump(view: View) -> str:
    return json.dumps(view, sort_keys=True)


def test_views_are_stable_json() -> None:
    state = GAME.new_game(2, 4)
    assert _dump(GAME.view(state, 0)) == _dump(GAME.view(GAME.from_json(GAME.to_json(state)), 0))
