"""Ten action texts, the payment encoding and the UI payment helpers."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.base import BadActionText
from engine.ten import GAME
from engine.ten.actions import Bid, Buy, Decline, Draw, NoBuy, Pass, Pay, Stop, Take
from engine.ten.cards import (
    ALL_CARDS,
    CARD_INDEX,
    COLLECTION_TYPES,
    TYPE_MAX,
    card_colour,
    card_label,
    is_currency,
    is_number,
    is_wild,
    sort_cards,
)
from engine.ten.game import payment_options, payment_with_cards
from engine.ten.payments import Payment, cheapest_cards, decode_cards, encode_cards, payment_problem
from engine.ten.scoring import score_collection, score_detail
from engine.ten.state import TenState
from tests.engine.test_ten_rules import act, rig

TEXT = re.compile(r"^[A-Za-z0-9._-]{1,40}$")


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Draw(), "draw"),
        (Stop(), "stop"),
        (Take(True), "take.n"),
        (Take(False), "take.c"),
        (Bid(12), "bid.12"),
        (Pass(), "pass"),
        (NoBuy(), "nobuy"),
        (Decline(), "decline"),
        (Pay(Payment(2, 1)), "pay.2.1"),
        (Pay(Payment(3, 0, ("B2", "R1"))), "pay.3.0.R1B2"),
        (Pay(Payment(0, 0, ("W#", "R#", "R1", "R1", "B2", "W3"))), "pay.0.0.R11xB2W3x"),
        (Buy("R5b", Payment(4, 0, ("G#",))), "buy.R5b.4.0.Gx"),
        (Buy("O9a", Payment(0, 3)), "buy.O9a.0.3"),
    ],
)
def test_action_texts_round_trip(action: object, text: str) -> None:
    assert str(action) == text
    assert GAME.parse_action(text) == action
    assert TEXT.match(text)


def test_long_card_lists_are_packed_and_fit() -> None:
    every = tuple(t for t in COLLECTION_TYPES for _ in range(TYPE_MAX[t]))
    assert len(every) == 102
    for cards in (every, every[:30], ("R1", "R1", "R1") * 1 + tuple(f"B{n}" for n in range(1, 10))):
        for text in (str(Pay(Payment(10, 15, cards))), str(Buy("R5b", Payment(10, 15, cards)))):
            assert TEXT.match(text), text
            parsed = GAME.parse_action(text)
            assert isinstance(parsed, Pay | Buy) and sorted(parsed.payment.cards) == sorted(cards)
    assert encode_cards(every).startswith("z")
    assert decode_cards(encode_cards(every)) == every


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Draw",
        "draw.",
        "bid.01",
        "bid.",
        "bid.-1",
        "bid.x",
        "pay.1",
        "pay.1.0.",
        "pay.01.0",
        "pay.1.0.Q1",
        "pay.1.0.R0",
        "pay.1.0.B2R1",
        "pay.1.0.R1111",
        "pay.1.0.z0",
        "pay.1.0.zZZ",
        "buy.R#a.1.0",
        "buy.C1a.1.0",
        "buy.R5z.1.0",
        "buy.R5a",
        "take.x",
        "x" * 41,
        "\u2603",
    ],
)
def test_garbage_is_rejected(text: str) -> None:
    with pytest.raises(BadActionText):
        GAME.parse_action(text)


def test_payment_options_from_state_and_view() -> None:
    state = rig(3, ["C1a"], tokens=(4, 5, 5), bust=(2, 0, 0), collections=[["R1a", "B2a"], [], []])
    view = GAME.view(state, 0)
    options = payment_options(state, 0, 5)
    assert options == payment_options(view, 0, 5)
    shapes = [(o["tokens"], o["bust"], o["cards"]) for o in options]
    # currency first, no cards first; then adding cards.
    assert shapes[:2] == [(2, 1, 0), (0, 2, 0)]  # currency first, no cards first
    assert set(shapes[2:]) == {(4, 0, 1), (3, 0, 2), (1, 1, 1), (0, 1, 2)}
    assert [s[2] for s in shapes[2:]] == sorted(s[2] for s in shapes[2:])
    for option in options:
        payment = GAME.parse_action(f"pay.{option['text']}")
        assert isinstance(payment, Pay)
        assert payment_problem(payment.payment, 5, 4, 2, ["R1a", "B2a"]) is None
        assert option["value"] - option["excess"] == 5
    assert payment_with_cards(state, 0, 5, ["B2a"]) == Payment(4, 0, ("B2",))
    assert payment_with_cards(state, 0, 5, ["R1a", "B2a"]) == Payment(3, 0, ("R1", "B2"))
    assert payment_with_cards(state, 0, 5, []) == Payment(2, 1)
    assert payment_with_cards(state, 0, 1, ["R1a", "B2a"]) is None  # a needless card
    assert payment_with_cards(state, 0, 5, ["G9a"]) is None  # not held
    assert payment_with_cards(rig(3, [], tokens=(0, 5, 5), bust=(2, 0, 0)), 0, 4, []) == Payment(
        0, 2
    )


def test_cheapest_cards_are_suggested_first() -> None:
    state = rig(
        3,
        [],
        tokens=(0, 5, 5),
        collections=[["R1a", "R2a", "R3a", "R3b", "G7a"], [], []],
    )
    options = payment_options(state, 0, 2)
    assert options[0]["cards"] == 2
    assert options[0]["suggested"] == ["R3a", "G7a"]  # the spare copy, then a lone card
    pay = act(replace_phase_pay(state), f"pay.{options[0]['text']}")
    assert sorted(pay.collections[0]) == ["R1a", "R2a", "R3b", "W5"]


def replace_phase_pay(state: TenState) -> TenState:
    """Seat 0 wins a W5 for 2 (the next card of the rigged pile is drawn by seat 0)."""
    deck = ("W5", *[c for c in state.deck if c != "W5"])
    started = replace(state, deck=deck)
    return act(started, "draw", "pass", "pass", "bid.2")


def test_labels_and_colours() -> None:
    assert card_label("R5a") == "Red 5" and card_label("G#b") == "Green wild"
    assert card_label("W3") == "Wild 3" and card_label("W#") == "Super wild"
    assert card_label("C1a") == "1 coin" and card_label("C4d") == "4 coins"
    assert card_colour("O2a") == "orange" and card_colour("W1") == "wild"


# -- cheapest_cards scores again only the cards the best scoring uses --------------------

_COLLECTABLE = [c for c in ALL_CARDS if not is_currency(c)]


def _cheapest_by_scoring_every_type(collection: list[str]) -> list[str]:
    """The order as defined, every type scored again without it (no shortcut)."""
    detail = score_detail(collection)
    by_type: dict[str, list[str]] = {}
    for card in sort_cards(collection):
        by_type.setdefault(card[:2], []).append(card)
    spare: list[str] = []
    rest: list[tuple[int, int, int, str]] = []
    for copies in by_type.values():
        kept = copies
        if is_number(copies[0]) and len(copies) > 1:
            spare.extend(copies[:-1])
            kept = copies[-1:]
        without = list(collection)
        for card in copies[: len(copies) - len(kept) + 1]:
            without.remove(card)
        loss = detail.total - score_collection(without)
        strength = detail.colours.get(kept[0][0], 0)
        rest.extend((loss, strength, CARD_INDEX[card], card) for card in kept)
    rest.sort()
    return spare + [card for *_, card in rest]


@settings(max_examples=600, deadline=None)
@given(
    st.lists(st.sampled_from(_COLLECTABLE), max_size=30, unique=True),
    st.lists(st.sampled_from([c for c in _COLLECTABLE if is_wild(c)]), max_size=6, unique=True),
)
def test_cheapest_cards_skips_only_cards_not_in_use(cards: list[str], wilds: list[str]) -> None:
    collection = list(dict.fromkeys([*cards, *wilds]))  # wild-heavy collections too
    assert cheapest_cards(collection) == _cheapest_by_scoring_every_type(collection)
