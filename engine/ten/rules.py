"""Ten: the turn structure (rules §3-§6): drawing, busts, rewards, auctions, buying, the end.

``legal_actions`` lists every legal action, except that payments are reduced to one canonical
payment per bust-token count (see :mod:`engine.ten.payments`) and, when the market holds two
copies of one number card, only the first to arrive is offered. ``apply`` accepts every legal
action.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from engine.base import IllegalAction, Outcome, Seat, check_seat
from engine.ten.actions import (
    Bid,
    Buy,
    Decline,
    Draw,
    NoBuy,
    Pass,
    Pay,
    Stop,
    Take,
    TenAction,
)
from engine.ten.cards import (
    BUST_LINE,
    BUST_TOKENS,
    BUST_VALUE,
    CURRENCY_BUST,
    CURRENCY_CAP,
    SOLO_SUPER_WILD_PRICE,
    SOLO_TARGET,
    SOLO_WILD_PRICE,
    START_CURRENCY,
    deck_for,
    is_currency,
    is_number,
    is_wild,
    value,
)
from engine.ten.payments import (
    Payment,
    canonical_payments,
    cheapest_cards,
    payment_problem,
    spend_cards,
)
from engine.ten.scoring import score_collection
from engine.ten.state import (
    BID,
    BUST_CURRENCY,
    BUST_NUMBER,
    BUY,
    DRAW,
    FINAL_BUY,
    OVER,
    PAY,
    REWARD,
    SOLO_WILD,
    TAKE_CUR,
    TAKE_NUM,
    AuctionRecord,
    TenState,
    TurnLog,
)


# ---- small helpers shared with the view ----------------------------------------------------
def row_totals(row: Sequence[str]) -> tuple[int, int]:
    """(N, C): the sums of the number cards and of the currency cards in the row."""
    numbers = sum(value(c) for c in row if not is_currency(c))
    currency = sum(value(c) for c in row if is_currency(c))
    return numbers, currency


def spending_power(state: TenState, seat: Seat) -> int:
    """Currency tokens + 3 x bust tokens + cards in the collection (rules §4.3)."""
    return state.tokens[seat] + BUST_VALUE * state.bust[seat] + len(state.collections[seat])


def solo_price(wild: str) -> int:
    return SOLO_SUPER_WILD_PRICE if wild == "W#" else SOLO_WILD_PRICE


def actor(state: TenState) -> Seat | None:
    """The one seat that acts now (None once the game is over)."""
    if state.phase == OVER:
        return None
    if state.phase == BID:
        return (state.active + 1 + len(state.bids)) % state.players
    if state.phase == PAY:
        return max(state.bids, key=lambda b: b[1])[0]
    if state.phase == FINAL_BUY:
        return (state.active + 1 + state.final_index) % state.players
    return state.active


def blocked(collection: Sequence[str], card: str) -> bool:
    """The duplicate ban (rules §4.7): a held number card of the same colour and number."""
    return card[:2] in numbers_held(collection)


def numbers_held(collection: Sequence[str]) -> set[str]:
    """The types (colour and number) of the number cards held: a card whose type is among
    them is barred by the duplicate ban (one set for a whole market)."""
    return {c[:2] for c in collection if is_number(c)}


def _set(values: tuple[int, ...], seat: Seat, new: int) -> tuple[int, ...]:
    return (*values[:seat], new, *values[seat + 1 :])


def _gain(state: TenState, seats: Sequence[Seat], amount: int) -> tuple[TenState, TurnLog]:
    """Give each seat ``amount`` currency tokens, each up to the cap (excess lost)."""
    tokens = list(state.tokens)
    gains = [0] * state.players
    lost = [0] * state.players
    for seat in seats:
        got = min(amount, CURRENCY_CAP - tokens[seat])
        tokens[seat] += got
        gains[seat] = got
        lost[seat] = amount - got
    turn = replace(state.turn, gains=tuple(gains), lost=tuple(lost))
    return replace(state, tokens=tuple(tokens)), turn


def _others(state: TenState) -> list[Seat]:
    return [s for s in range(state.players) if s != state.active]


def _apply_payment(
    state: TenState, seat: Seat, payment: Payment, price: int
) -> tuple[TenState, list[str]]:
    collection = state.collections[seat]
    problem = payment_problem(payment, price, state.tokens[seat], state.bust[seat], collection)
    if problem:
        raise problem
    remaining, spent = spend_cards(collection, payment.cards)
    collections = list(state.collections)
    collections[seat] = tuple(remaining)
    return (
        replace(
            state,
            tokens=_set(state.tokens, seat, state.tokens[seat] - payment.tokens),
            bust=_set(state.bust, seat, state.bust[seat] - payment.bust),
            collections=tuple(collections),
            discard=state.discard + tuple(spent),
        ),
        spent,
    )


def _add_card(state: TenState, seat: Seat, card: str) -> TenState:
    collections = list(state.collections)
    collections[seat] = (*collections[seat], card)
    return replace(state, collections=tuple(collections))


def new_game(players: int, seed: int) -> TenState:
    """Rules §3: the deck for the player count, shuffled; 5 tokens each; a random start."""
    rng = random.Random(seed)
    deck = list(deck_for(players))
    rng.shuffle(deck)
    start = rng.randrange(players)
    return TenState(
        players=players,
        seed=seed,
        start=start,
        deck=tuple(deck),
        row=(),
        market=(),
        discard=(),
        collections=((),) * players,
        tokens=(START_CURRENCY,) * players,
        bust=(0,) * players,
        active=start,
        phase=DRAW,
        drawn=0,
        auction=None,
        bids=(),
        final_index=0,
        turn=TurnLog(seat=start),
        last_turn=None,
        final_buys=(),
        turns=0,
    )


# ---- the turn ------------------------------------------------------------------------------
def _draw(state: TenState) -> TenState:
    if not state.deck:
        raise IllegalAction("The draw pile is empty: you must stop.")
    card, deck = state.deck[0], state.deck[1:]
    turn = replace(state.turn, drawn=(*state.turn.drawn, card))
    state = replace(state, deck=deck, drawn=state.drawn + 1, turn=turn)
    if is_wild(card):
        phase = SOLO_WILD if state.players == 1 else BID
        return replace(state, phase=phase, auction=card, bids=())
    state = replace(state, row=(*state.row, card))
    numbers, currency = row_totals(state.row)
    if currency >= CURRENCY_BUST:
        return _bust(state, BUST_CURRENCY)
    if numbers - currency >= BUST_LINE:
        return _bust(state, BUST_NUMBER)
    return state


def _bust(state: TenState, result: str) -> TenState:
    """Rules §4.5: a bust token, numbers to the market, currency paid out or not, discard."""
    _, currency = row_totals(state.row)
    got_token = sum(state.bust) < BUST_TOKENS
    if got_token:
        state = replace(state, bust=_set(state.bust, state.active, state.bust[state.active] + 1))
    state, turn = _gain(state, _others(state) if result == BUST_NUMBER else [], currency)
    turn = replace(turn, result=result, row=state.row, bust_token=got_token)
    state = replace(
        state,
        market=state.market + tuple(c for c in state.row if not is_currency(c)),
        discard=state.discard + tuple(c for c in state.row if is_currency(c)),
        row=(),
        turn=turn,
    )
    return _end_turn(state)


def _take(state: TenState, numbers: bool) -> TenState:
    """Rules §4.4."""
    _, currency = row_totals(state.row)
    row = state.row
    number_cards = tuple(c for c in row if not is_currency(c))
    state = replace(state, discard=state.discard + tuple(c for c in row if is_currency(c)), row=())
    if numbers:
        state, turn = _gain(state, _others(state), currency)
        collections = list(state.collections)
        collections[state.active] = collections[state.active] + number_cards
        turn = replace(turn, result=TAKE_NUM, row=row)
        return replace(state, collections=tuple(collections), phase=BUY, turn=turn)
    state, turn = _gain(state, [state.active], currency)
    turn = replace(turn, result=TAKE_CUR, row=row)
    return _end_turn(replace(state, market=state.market + number_cards, turn=turn))


def _end_turn(state: TenState) -> TenState:
    """Solo rival step, then the next turn or the final buys (rules §4.8, §6)."""
    turn = state.turn
    if state.players == 1 and state.deck:
        flipped = state.deck[: min(2, len(state.deck))]
        state = replace(
            state,
            deck=state.deck[len(flipped) :],
            market=state.market + tuple(c for c in flipped if is_number(c)),
            discard=state.discard + tuple(c for c in flipped if not is_number(c)),
        )
        turn = replace(turn, rival=flipped)
    state = replace(state, last_turn=turn, turns=state.turns + 1, drawn=0, row=())
    if not state.deck:
        return replace(state, phase=FINAL_BUY, final_index=0, turn=TurnLog(seat=-1))
    active = (state.active + 1) % state.players
    return replace(state, active=active, phase=DRAW, turn=TurnLog(seat=active))


def _bid(state: TenState, seat: Seat, action: Bid | Pass) -> TenState:
    if isinstance(action, Bid):
        high = max((b for _, b in state.bids), default=0)
        if action.amount < 1:
            raise IllegalAction("A bid must be at least 1.")
        if action.amount <= high:
            raise IllegalAction("You must bid more than {high}.", high=high)
        if action.amount > spending_power(state, seat):
            raise IllegalAction("You cannot bid more than you could pay.")
        amount = action.amount
    else:
        amount = 0
    state = replace(state, bids=(*state.bids, (seat, amount)))
    if len(state.bids) < state.players:
        return state
    if any(b for _, b in state.bids):
        return replace(state, phase=PAY)
    assert state.auction is not None
    record = AuctionRecord(wild=state.auction, bids=state.bids)
    return replace(
        state,
        phase=DRAW,
        discard=(*state.discard, state.auction),
        auction=None,
        bids=(),
        turn=replace(state.turn, auctions=(*state.turn.auctions, record)),
    )


def _pay(state: TenState, seat: Seat, payment: Payment) -> TenState:
    wild = state.auction
    assert wild is not None
    price = max(b for _, b in state.bids) if state.phase == PAY else solo_price(wild)
    state, spent = _apply_payment(state, seat, payment, price)
    record = AuctionRecord(wild, state.bids, seat, price, payment.text, tuple(spent))
    state = _add_card(state, seat, wild)
    turn = replace(state.turn, auctions=(*state.turn.auctions, record))
    return replace(state, phase=DRAW, auction=None, bids=(), turn=turn)


def _decline(state: TenState) -> TenState:
    wild = state.auction
    assert wild is not None
    turn = replace(state.turn, auctions=(*state.turn.auctions, AuctionRecord(wild)))
    return replace(state, phase=DRAW, auction=None, discard=(*state.discard, wild), turn=turn)


def _buy(state: TenState, seat: Seat, action: Buy | NoBuy) -> TenState:
    bought, payment = "nobuy", ""
    spent: tuple[str, ...] = ()
    if isinstance(action, Buy):
        card = action.card
        if card not in state.market:
            raise IllegalAction("That card is not in the market.")
        if blocked(state.collections[seat], card):
            raise IllegalAction("You already have a card of that colour and number.")
        state, spent_list = _apply_payment(state, seat, action.payment, value(card))
        market = list(state.market)
        market.remove(card)
        state = _add_card(replace(state, market=tuple(market)), seat, card)
        bought, payment, spent = card, action.payment.text, tuple(spent_list)
    if state.phase == BUY:
        turn = replace(state.turn, buy=bought, buy_payment=payment, buy_spent=spent)
        return _end_turn(replace(state, turn=turn))
    state = replace(
        state, final_index=state.final_index + 1, final_buys=(*state.final_buys, (seat, bought))
    )
    if state.final_index == state.players:
        return replace(state, phase=OVER)
    return state


# ---- legal actions -------------------------------------------------------------------------
def _buy_actions(state: TenState, seat: Seat) -> list[TenAction]:
    actions: list[TenAction] = [NoBuy()]
    collection = state.collections[seat]
    tokens, bust = state.tokens[seat], state.bust[seat]
    offered: set[str] = set()
    order: list[str] | None = None
    power = spending_power(state, seat)
    held = numbers_held(collection)
    for card in state.market:
        if card[:2] in offered or card[:2] in held or value(card) > power:
            continue
        offered.add(card[:2])
        if order is None and value(card) > tokens + BUST_VALUE * bust:
            order = cheapest_cards(collection)
        for payment in canonical_payments(value(card), tokens, bust, collection, order):
            actions.append(Buy(card, payment))
    return actions


def _pay_actions(state: TenState, seat: Seat, price: int) -> list[TenAction]:
    if price > spending_power(state, seat):
        return []
    collection = state.collections[seat]
    payments = canonical_payments(price, state.tokens[seat], state.bust[seat], collection)
    return [Pay(p) for p in payments]


def legal_actions(state: TenState, seat: Seat) -> list[TenAction]:
    if seat != actor(state):
        return []
    phase = state.phase
    if phase == DRAW:
        out: list[TenAction] = [Draw()] if state.deck else []
        return [*out, Stop()] if state.drawn >= 1 else out
    if phase == BID:
        high = max((b for _, b in state.bids), default=0)
        return [Pass(), *(Bid(k) for k in range(high + 1, spending_power(state, seat) + 1))]
    if phase == PAY:
        return _pay_actions(state, seat, max(b for _, b in state.bids))
    if phase == SOLO_WILD:
        assert state.auction is not None
        return [*_pay_actions(state, seat, solo_price(state.auction)), Decline()]
    if phase == REWARD:
        return [Take(True), Take(False)]
    return _buy_actions(state, seat)  # BUY, FINAL_BUY


def _wrong(phase: str) -> IllegalAction:
    """What the acting seat may do in ``phase`` (each reason written out for the catalogs)."""
    if phase == DRAW:
        return IllegalAction("Draw a card or stop.")
    if phase == BID:
        return IllegalAction("Bid or pass on the wild.")
    if phase == PAY:
        return IllegalAction("Pay for the wild you won.")
    if phase == SOLO_WILD:
        return IllegalAction("Pay for the wild or decline it.")
    if phase == REWARD:
        return IllegalAction("Take the number cards or the currency.")
    return IllegalAction("Buy a market card or pass.")  # BUY, FINAL_BUY


def apply(state: TenState, seat: Seat, action: TenAction) -> TenState:
    if state.phase == OVER:
        raise IllegalAction("The game is over.")
    check_seat(seat, state.players)
    if seat != actor(state):
        raise IllegalAction("It is not your turn.")
    phase = state.phase
    if phase == DRAW and isinstance(action, Draw):
        return _draw(state)
    if phase == DRAW and isinstance(action, Stop):
        if state.drawn < 1:
            raise IllegalAction("Turn over at least one card before you stop.")
        return replace(state, phase=REWARD)
    if phase == BID and isinstance(action, Bid | Pass):
        return _bid(state, seat, action)
    if phase in (PAY, SOLO_WILD) and isinstance(action, Pay):
        return _pay(state, seat, action.payment)
    if phase == SOLO_WILD and isinstance(action, Decline):
        return _decline(state)
    if phase == REWARD and isinstance(action, Take):
        return _take(state, action.numbers)
    if phase in (BUY, FINAL_BUY) and isinstance(action, Buy | NoBuy):
        return _buy(state, seat, action)
    raise _wrong(phase)


# ---- outcome -------------------------------------------------------------------------------
def outcome(state: TenState) -> Outcome | None:
    """Rules §5 ranking (total, then currency tokens, then fewer cards); solo: §6 target."""
    if state.phase != OVER:
        return None
    totals = tuple(score_collection(c) for c in state.collections)
    cards = [len(c) for c in state.collections]
    keys = [(totals[s], state.tokens[s], -cards[s]) for s in range(state.players)]
    places = [1 + sum(k > keys[s] for k in keys) for s in range(state.players)]
    details: dict[str, Any] = {
        "tokens": list(state.tokens),
        "cards": cards,
        "places": places,
    }
    if state.players == 1:
        # Solo (rules §6): the player wins by reaching the target; a missed target is a loss,
        # so the winner set is empty (the contract allows that for one player only).
        won = totals[0] >= SOLO_TARGET
        details.update(solo=True, won=won, target=SOLO_TARGET)
        reason = "target_reached" if won else "target_missed"
        return Outcome(totals, frozenset({0}) if won else frozenset(), reason, details)
    winners = frozenset(s for s in range(state.players) if places[s] == 1)
    return Outcome(totals, winners, "complete", details)
