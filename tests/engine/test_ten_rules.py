"""Ten: the draw-phase and auction/payment vectors of rules §9.2-§9.3, and the turn structure."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import pytest

from engine.base import IllegalAction
from engine.ten import GAME
from engine.ten.cards import deck_for
from engine.ten.rules import spending_power
from engine.ten.state import BID, BUY, DRAW, FINAL_BUY, OVER, PAY, REWARD, TenState, TurnLog


def rig(
    players: int,
    draws: Sequence[str],
    *,
    active: int = 0,
    tokens: Sequence[int] | None = None,
    bust: Sequence[int] | None = None,
    collections: Sequence[Sequence[str]] | None = None,
    market: Sequence[str] = (),
    only: bool = False,
) -> TenState:
    """A game whose draw pile starts with ``draws`` (``only``: holds nothing else; the other
    cards then sit in the discard pile so that every card stays in one zone)."""
    state = GAME.new_game(players, 0)
    colls = [tuple(c) for c in collections] if collections else [()] * players
    rest = list(deck_for(players))
    for card in [*draws, *market, *(c for coll in colls for c in coll)]:
        rest.remove(card)
    return replace(
        state,
        deck=tuple(draws) if only else (*draws, *rest),
        discard=tuple(rest) if only else (),
        active=active,
        turn=TurnLog(seat=active),
        tokens=tuple(tokens) if tokens else state.tokens,
        bust=tuple(bust) if bust else state.bust,
        collections=tuple(colls),
        market=tuple(market),
    )


def act(state: TenState, *texts: str) -> TenState:
    """Apply action texts, each by the seat to act."""
    for text in texts:
        (seat,) = GAME.to_act(state)
        state = GAME.apply(state, seat, GAME.parse_action(text))
    return state


def zones(state: TenState) -> Counter[str]:
    cards = [*state.deck, *state.row, *state.market, *state.discard]
    cards += [c for coll in state.collections for c in coll]
    if state.auction:
        cards.append(state.auction)
    return Counter(cards)


def draw_all(state: TenState, cards: Sequence[str]) -> tuple[TenState, list[int], int | None]:
    """Draw ``cards`` (every auction passed by all); return the state, the nets seen, and the
    1-based position of the card that ended the turn (None if the turn goes on)."""
    nets: list[int] = []
    for i, card in enumerate(cards, 1):
        assert state.phase == DRAW
        state = act(state, "draw")
        if card[0] == "W" or card[1] == "#":
            assert state.phase == BID and state.auction == card
            state = act(state, *["pass"] * state.players)
            continue
        if state.turn.seat != 0 or state.phase != DRAW:
            return state, nets, i
        nets.append(GAME.view(state, None)["net"])
    return state, nets, None


# ---- §9.2 draw phase (3 players; A = seat 0 active, X = seat 1 holds 8, Y = seat 2 holds 2) ---
# id, cards, nets before the end, position of the bust, result, market, discard, tokens A X Y
BUSTS = [
    ("D1", "R5a B6a", [5], 2, "bust_number", "R5a B6a", "", (5, 8, 2)),
    ("D3", "C5a C4a C2a", [-5, -9], 3, "bust_currency", "", "C5a C4a C2a", (5, 8, 2)),
    ("D4", "C5a C5b R9a C1a", [-5, -10, -1], 4, "bust_currency", "R9a", "C5a C5b C1a", (5, 8, 2)),
    ("D5", "R9a W3 B2a", [9], 3, "bust_number", "R9a B2a", "W3", (5, 8, 2)),
    ("D6", "C4a R7a B8a", [-4, 3], 3, "bust_number", "R7a B8a", "C4a", (5, 10, 6)),
    (
        "D9",
        "C5a C5b R9a B9a G2a O1a",
        [-5, -10, -1, 8, 10],
        6,
        "bust_number",
        "R9a B9a G2a O1a",
        "C5a C5b",
        (5, 10, 10),
    ),
    ("D10", "R9a C1a C2a G5a", [9, 8, 6], 4, "bust_number", "R9a G5a", "C1a C2a", (5, 10, 5)),
    (
        "D11",
        "C2a C3a R6a R9a B1a",
        [-2, -5, 1, 10],
        5,
        "bust_number",
        "R6a R9a B1a",
        "C2a C3a",
        (5, 10, 7),
    ),
]


@pytest.mark.parametrize(
    ("vid", "cards", "nets", "at", "result", "market", "discard", "tokens"),
    BUSTS,
    ids=[b[0] for b in BUSTS],
)
def test_draw_vector_busts(
    vid: str,
    cards: str,
    nets: list[int],
    at: int,
    result: str,
    market: str,
    discard: str,
    tokens: tuple[int, int, int],
) -> None:
    drawn = cards.split()
    state = rig(3, drawn, tokens=(5, 8, 2))
    before = zones(state)
    state, seen, ended = draw_all(state, drawn)
    assert (seen, ended) == (nets, at)
    last = state.last_turn
    assert last is not None and last.result == result and last.seat == 0
    assert state.market == tuple(market.split())
    assert state.discard == tuple(discard.split())
    assert state.tokens == tokens
    assert state.bust == (1, 0, 0) and last.bust_token
    assert state.row == () and state.active == 1 and state.phase == DRAW
    assert zones(state) == before


@pytest.mark.parametrize(
    ("vid", "cards", "nets", "currency"),
    [
        ("D2", "R5a C3a B6a G2a", [5, 2, 8, 10], 3),
        ("D7", "R3a R3b R4a", [3, 6, 10], 0),
        ("D8", "C5a C5b R9a B9a G2a", [-5, -10, -1, 8, 10], 10),
    ],
)
def test_draw_vector_no_bust(vid: str, cards: str, nets: list[int], currency: int) -> None:
    drawn = cards.split()
    state, seen, ended = draw_all(rig(3, drawn, tokens=(5, 8, 2)), drawn)
    assert ended is None and seen == nets
    view = GAME.view(state, 0)
    assert view["net"] == 10 and view["row_currency"] == currency and view["net_room"] == 0
    assert view["row"] == drawn


def test_d2_take_numbers_pays_the_others_and_opens_the_buy_phase() -> None:
    drawn = ["R5a", "C3a", "B6a", "G2a"]
    state, _, _ = draw_all(rig(3, drawn, tokens=(5, 8, 2)), drawn)
    state = act(state, "stop", "take.n")
    assert state.phase == BUY and state.collections[0] == ("R5a", "B6a", "G2a")
    assert state.tokens == (5, 10, 5)
    assert state.turn.gains == (0, 2, 3) and state.turn.lost == (0, 1, 0)
    assert state.discard == ("C3a",)  # ruling 11


def test_d8_take_currency_is_capped_and_sends_numbers_to_the_market() -> None:
    drawn = ["C5a", "C5b", "R9a", "B9a", "G2a"]
    state, _, _ = draw_all(rig(3, drawn, tokens=(4, 8, 2)), drawn)
    state = act(state, "stop", "take.c")
    assert state.tokens == (10, 8, 2)
    assert state.last_turn is not None and state.last_turn.lost == (4, 0, 0)
    assert state.market == ("R9a", "B9a", "G2a") and state.discard == ("C5a", "C5b")
    assert state.active == 1 and state.phase == DRAW  # no buy phase after take.c


# ---- §9.3 auction and payment ----------------------------------------------------------------
def test_p1_auction_order_and_bust_token_payment() -> None:
    state = rig(4, ["W3"], tokens=(2, 5, 5, 5), bust=(1, 0, 0, 0))
    state = act(state, "draw")
    assert state.phase == BID
    order = []
    for text in ("pass", "bid.2", "bid.3", "bid.5"):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state = GAME.apply(state, seat, GAME.parse_action(text))
    assert order == [1, 2, 3, 0]
    assert state.phase == PAY and GAME.to_act(state) == {0}
    assert "pay.2.1" in [str(a) for a in GAME.legal_actions(state, 0)]
    state = act(state, "pay.2.1")
    assert state.collections[0] == ("W3",) and state.tokens[0] == 0 and state.bust[0] == 0
    assert state.phase == DRAW and state.active == 0
    record = state.turn.auctions[0]
    assert (record.winner, record.price, record.payment) == (0, 5, "pay.2.1"[4:])


def _auction_won(price: int) -> TenState:
    """Seat 0 active and holding 4 tokens, 2 bust tokens, R1a and B2a, has won a wild for
    ``price`` (everybody else passed)."""
    state = rig(3, ["W#"], tokens=(4, 5, 5), bust=(2, 0, 0), collections=[["R1a", "B2a"], [], []])
    return act(state, "draw", "pass", "pass", f"bid.{price}")


def _buying(price: int) -> TenState:
    """Seat 0 (same holdings) in its buy phase, with a green card of number ``price`` on sale."""
    card = f"G{price}a"
    state = rig(
        3,
        ["C1a"],
        tokens=(4, 5, 5),
        bust=(2, 0, 0),
        collections=[["R1a", "B2a"], [], []],
        market=[card],
    )
    return act(state, "draw", "stop", "take.n")


PAYMENTS = [
    ("P2", 5, "0.2", True),
    ("P2", 5, "1.2", False),
    ("P2", 5, "3.0.R1B2", True),
    ("P2", 5, "4.0", False),
    ("P3", 3, "0.2", False),
    ("P3", 3, "0.1", True),
]


@pytest.mark.parametrize("context", ["pay", "buy"])
@pytest.mark.parametrize(("vid", "price", "payment", "ok"), PAYMENTS)
def test_payment_vectors(vid: str, price: int, payment: str, ok: bool, context: str) -> None:
    if context == "pay":
        state = _auction_won(price)
        text = f"pay.{payment}"
    else:
        state = _buying(price)
        text = f"buy.G{price}a.{payment}"
    before = GAME.to_json(state)
    if not ok:
        with pytest.raises(IllegalAction):
            GAME.apply(state, 0, GAME.parse_action(text))
        assert GAME.to_json(state) == before
        return
    after = GAME.apply(state, 0, GAME.parse_action(text))
    bust_used = int(payment.split(".")[1])
    assert after.bust[0] == 2 - bust_used
    if payment.endswith("R1B2"):
        assert "R1a" not in after.collections[0] and "B2a" not in after.collections[0]
        assert after.discard[-2:] == ("R1a", "B2a")  # ruling 16


def test_p4_duplicate_ban_looks_at_number_cards_only() -> None:
    state = rig(3, ["C1a"], tokens=(4, 5, 5), collections=[["R5a"], [], []], market=["R5b"])
    state = act(state, "draw", "stop", "take.n")
    assert not any(str(a).startswith("buy.R5b") for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalAction, match="already have"):
        act(state, "buy.R5b.4.0.R5")
    wild = rig(3, ["C1a"], tokens=(5, 5, 5), collections=[["R#a"], [], []], market=["R5b"])
    wild = act(wild, "draw", "stop", "take.n")
    assert "buy.R5b.5.0" in [str(a) for a in GAME.legal_actions(wild, 0)]
    wild = act(wild, "buy.R5b.5.0")
    assert set(wild.collections[0]) == {"R#a", "R5b"} and wild.tokens[0] == 0


# ---- auction bounds (ruling 12), no bidder (13), cards pay bids (14) --------------------------
def test_bid_bounds_and_order() -> None:
    state = act(rig(3, ["W5"], tokens=(1, 2, 3), collections=[[], ["R1a"], []]), "draw")
    assert GAME.to_act(state) == {1}
    legal = [str(a) for a in GAME.legal_actions(state, 1)]
    assert legal == ["pass", "bid.1", "bid.2", "bid.3"]  # 2 tokens + 1 card
    before = GAME.to_json(state)
    for bad in ("bid.0", "bid.4"):
        with pytest.raises(IllegalAction):
            GAME.apply(state, 1, GAME.parse_action(bad))
    with pytest.raises(IllegalAction, match="not your turn"):
        GAME.apply(state, 0, GAME.parse_action("pass"))
    assert GAME.to_json(state) == before
    state = act(state, "bid.2")
    with pytest.raises(IllegalAction, match="more than 2"):
        act(state, "bid.2")
    state = act(state, "pass", "pass")  # seat 2, then the active seat 0 last
    assert state.phase == PAY and GAME.to_act(state) == {1}
    state = act(state, "pay.1.0.R1")  # a collected card pays for a bid
    assert state.collections[1] == ("W5",) and state.discard == ("R1a",)


def test_nobody_bids_discards_the_wild() -> None:
    state = act(rig(2, ["O#a"]), "draw", "pass", "pass")
    assert state.phase == DRAW and state.discard == ("O#a",) and state.auction is None
    assert state.row == () and GAME.view(state, None)["net"] == 0  # ruling 6


# ---- stopping (rulings 7, 8) -------------------------------------------------------------------
def test_first_card_is_compulsory_and_an_empty_row_may_stop() -> None:
    state = rig(3, ["W1", "R1a"])
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["draw"]
    with pytest.raises(IllegalAction):
        act(state, "stop")
    state = act(state, "draw", "pass", "pass", "pass")
    assert [str(a) for a in GAME.legal_actions(state, 0)] == ["draw", "stop"]
    state = act(state, "stop")
    assert state.phase == REWARD
    state = act(state, "take.n")  # no number cards, still a buy phase
    assert state.phase == BUY


# ---- bust tokens (ruling 18) ---------------------------------------------------------------------
def test_bust_tokens_run_out() -> None:
    state = rig(3, ["R9a", "B9a"], bust=(0, 15, 0))
    state = act(state, "draw", "draw")
    assert state.last_turn is not None and state.last_turn.result == "bust_number"
    assert not state.last_turn.bust_token and state.bust == (0, 15, 0)


# ---- the end (rules §4.8, ruling 19) -------------------------------------------------------------
def test_last_card_forces_stop_and_everyone_buys_once_last_player_last() -> None:
    state = rig(3, ["R1a"], active=1, market=["B2a", "G3a"], only=True)
    state = act(state, "draw")
    assert [str(a) for a in GAME.legal_actions(state, 1)] == ["stop"]
    state = act(state, "stop", "take.n", "nobuy")
    assert state.phase == FINAL_BUY
    order = []
    for text in ("buy.B2a.2.0", "nobuy", "buy.G3a.3.0"):
        (seat,) = GAME.to_act(state)
        order.append(seat)
        state = GAME.apply(state, seat, GAME.parse_action(text))
    assert order == [2, 0, 1]
    assert state.phase == OVER and GAME.to_act(state) == set()
    assert state.final_buys == ((2, "B2a"), (0, "nobuy"), (1, "G3a"))
    assert GAME.outcome(state) is not None
    with pytest.raises(IllegalAction, match="over"):
        GAME.apply(state, 0, GAME.parse_action("nobuy"))


def test_wild_as_last_card_is_auctioned_then_stop() -> None:
    state = rig(2, ["R2a", "W#"], only=True)
    state = act(state, "draw", "draw", "bid.1", "pass", "pay.1.0")
    assert state.deck == () and [str(a) for a in GAME.legal_actions(state, 0)] == ["stop"]
    state = act(state, "stop", "take.c")
    assert state.phase == FINAL_BUY


def test_bust_on_last_card_goes_to_final_buys() -> None:
    state = act(rig(2, ["R9a", "B9a"], only=True), "draw", "draw")
    assert state.phase == FINAL_BUY and state.market == ("R9a", "B9a")


# ---- tie-breaks (ruling 22) ----------------------------------------------------------------------
def _finished(collections: list[list[str]], tokens: list[int]) -> TenState:
    state = rig(len(collections), [], collections=collections)
    return replace(state, tokens=tuple(tokens), phase=OVER, deck=())


def test_tie_breaks() -> None:
    outcome = GAME.outcome(_finished([["R1a", "R2a"], ["B1a", "B2a"], ["G1a"]], [3, 4, 9]))
    assert outcome is not None and outcome.winners == {1} and outcome.totals == (2, 2, 1)
    outcome = GAME.outcome(_finished([["R1a", "R2a"], ["B1a", "B2a", "B2b"], []], [4, 4, 9]))
    assert outcome is not None and outcome.winners == {0}
    assert outcome.details["places"] == [1, 2, 3]
    outcome = GAME.outcome(_finished([["R1a", "R2a"], ["B1a", "B2a"], []], [4, 4, 9]))
    assert outcome is not None and outcome.winners == {0, 1}
    assert outcome.details["places"] == [1, 1, 3]


def test_spending_power_counts_every_item() -> None:
    state = rig(3, [], tokens=(4, 5, 5), bust=(2, 0, 0), collections=[["R1a", "W#"], [], []])
    assert spending_power(state, 0) == 4 + 6 + 2
