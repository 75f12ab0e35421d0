"""Ten solo variant (rules §6) and the card set per player count (§2, rulings 1-3)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from engine.base import IllegalAction
from engine.ten import GAME
from engine.ten.cards import deck_for, kind, value
from engine.ten.state import DRAW, FINAL_BUY, OVER, SOLO_WILD
from tests.engine.test_ten_rules import act, rig, zones


@pytest.mark.parametrize(
    ("players", "numbers", "colour_wilds", "wilds", "currency", "currency_sum", "total"),
    [
        (1, 36, 4, 10, 15, 45, 65),
        (2, 36, 4, 10, 15, 45, 65),
        (3, 60, 8, 10, 21, 59, 99),
        (4, 84, 8, 10, 27, 76, 129),
        (5, 84, 8, 10, 27, 76, 129),
    ],
)
def test_deck_per_player_count(
    players: int,
    numbers: int,
    colour_wilds: int,
    wilds: int,
    currency: int,
    currency_sum: int,
    total: int,
) -> None:
    deck = deck_for(players)
    kinds = Counter(kind(c) for c in deck)
    assert len(set(deck)) == len(deck) == total
    assert kinds["number"] == numbers and kinds["colour_wild"] == colour_wilds
    assert kinds["number_wild"] + kinds["super_wild"] == wilds
    assert kinds["currency"] == currency
    assert sum(value(c) for c in deck if kind(c) == "currency") == currency_sum
    state = GAME.new_game(players, 7)
    assert Counter(state.deck) == Counter(deck) and state.tokens == (5,) * players


def test_full_box_ids_and_currency_split() -> None:
    deck = deck_for(5)
    assert {"R1a", "R1c", "G6c", "G7a", "R#a", "B#b", "W1", "W9", "W#", "C3d", "C5d"} <= set(deck)
    assert "R7b" not in deck and "C5e" not in deck
    per_value = Counter(value(c) for c in deck if c[0] == "C")
    assert per_value == {1: 6, 2: 6, 3: 6, 4: 5, 5: 4}
    assert {c[:2] for c in deck if c[0] in "RBOG" and c[1] != "#"} == {
        f"{col}{n}" for col in "RBOG" for n in range(1, 10)
    }
    three = set(deck_for(3))
    assert "R1b" in three and "R1c" not in three and "R#b" in three and "C5d" not in three


def test_start_player_and_shuffle_come_from_the_seed() -> None:
    starts = {GAME.new_game(5, seed).start for seed in range(40)}
    assert starts == set(range(5))
    assert GAME.new_game(3, 11).deck == GAME.new_game(3, 11).deck
    assert GAME.new_game(3, 11).deck != GAME.new_game(3, 12).deck


def test_solo_wild_offer_pay_or_decline() -> None:
    state = act(rig(1, ["W4", "W#", "R1a", "R2a", "R3a"]), "draw")
    assert state.phase == SOLO_WILD
    legal = [str(a) for a in GAME.legal_actions(state, 0)]
    assert legal == ["pay.3.0", "decline"]
    with pytest.raises(IllegalAction):
        act(state, "pay.2.0")
    state = act(state, "pay.3.0", "draw")
    assert state.collections[0] == ("W4",) and state.tokens == (2,)
    auction = GAME.view(state, 0)["auction"]
    assert auction is not None and auction["solo"] and auction["price"] == 5
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["decline"]  # 2 + 1 card < 5
    state = act(state, "decline")
    assert state.discard == ("W#",) and state.phase == DRAW and state.drawn == 2


def test_solo_rival_step_and_end() -> None:
    state = rig(1, ["R1a", "C2a", "B3a", "W1", "G4a"], only=True)
    before = zones(state)
    state = act(state, "draw", "stop", "take.c")
    assert state.last_turn is not None and state.last_turn.rival == ("C2a", "B3a")
    assert state.market == ("R1a", "B3a") and state.discard[-1] == "C2a"
    assert state.tokens == (5,) and state.phase == DRAW
    state = act(state, "draw", "decline")  # W1 offered and declined
    state = act(state, "draw")  # G4a, the last card
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["stop"]
    state = act(state, "stop", "take.n", "nobuy")
    assert state.phase == FINAL_BUY and state.last_turn is not None
    assert state.last_turn.rival == ()  # the turn emptied the pile: no rival step
    state = act(state, "buy.B3a.3.0")
    assert state.phase == OVER and zones(state) == before
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.totals == (2,)
    assert outcome.reason == "target_missed" and outcome.details["won"] is False
    assert outcome.winners == frozenset()  # a missed target is a loss


def test_rival_step_emptying_the_pile_ends_the_game() -> None:
    state = act(rig(1, ["R1a", "R2a"], only=True), "draw", "stop", "take.c")
    assert state.deck == () and state.phase == FINAL_BUY and state.market == ("R1a", "R2a")


def test_solo_target_reached() -> None:
    full = [f"{c}{n}a" for c in "RG" for n in range(1, 10)]
    state = rig(1, [], collections=[full])
    state = replace(state, phase=OVER, deck=())
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.totals == (20,) and outcome.reason == "target_reached"
    assert outcome.winners == frozenset({0})
    solo = GAME.view(state, 0)["solo"]
    assert solo is not None and solo["reached"] is True


def test_solo_currency_gains_for_others_do_nothing() -> None:
    state = act(rig(1, ["C3a", "R9a", "B5a"]), "draw", "draw", "draw")
    assert state.last_turn is not None and state.last_turn.result == "bust_number"
    assert state.tokens == (5,) and state.bust == (1,)
