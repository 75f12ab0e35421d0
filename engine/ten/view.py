"""Ten: the view. Everything is public (rules §7) except the order of the draw pile.

:class:`TenView` is what ``GAME.view`` returns: a plain JSON-serialisable dict, typed as a
``TypedDict`` so that a reader (a renderer, a test) can use these keys only. Card
ids are as in the rules; seats are ints. A seat's view differs from the spectator's in
``seat`` and ``me`` only.
"""

from __future__ import annotations

from typing import NotRequired, TypedDict

from engine.base import Seat
from engine.ten.cards import (
    BUST_LINE,
    BUST_TOKENS,
    COLOURS,
    CURRENCY_BUST,
    CURRENCY_TOKENS,
    GROUPS,
    SOLO_RIVAL_CARDS,
    SOLO_SUPER_WILD_PRICE,
    SOLO_TARGET,
    SOLO_WILD_PRICE,
    sort_cards,
    value,
)
from engine.ten.payments import PaymentOption, options_for
from engine.ten.rules import (
    actor,
    legal_actions,
    numbers_held,
    outcome,
    row_totals,
    solo_price,
    spending_power,
)
from engine.ten.scoring import score_detail
from engine.ten.state import (
    BID,
    FINAL_BUY,
    OVER,
    PAY,
    SOLO_WILD,
    AuctionRecord,
    TenState,
    TurnLog,
)


class TenBid(TypedDict):
    seat: Seat
    bid: int | None  # None: a pass


class TenAuction(TypedDict):
    """The wild in the auction slot: an auction, or the solo offer (no bidding)."""

    wild: str
    solo: bool  # the solo offer
    order: list[Seat]  # the bidding seats, the active one last
    bids: list[TenBid]
    high: int  # 0 if nobody bid
    high_bidder: Seat | None
    bidder: Seat | None  # the seat to bid now
    winner: Seat | None  # the seat to pay now
    price: int | None  # what is to be paid now


class TenSeat(TypedDict):
    """One seat's collection and tokens."""

    seat: Seat
    collection: list[str]  # canonical order
    by_colour: dict[str, list[str]]  # R, B, O, G and W (the wilds): the collection's cards
    score: int
    colour_scores: dict[str, int]  # R, B, O, G
    runs: dict[str, list[int] | None]  # per colour its scoring run [lo, hi], or None
    wild_slots: dict[str, str]  # wild id -> the slot it fills, such as "R5"
    tokens: int
    bust_tokens: int
    spending_power: int
    cards: int


class TenAuctionRecord(TypedDict):
    """One wild drawn in a turn: the bids, who took it and how they paid."""

    wild: str
    bids: list[list[int]]  # [seat, amount]; amount 0 is a pass
    winner: int  # -1: nobody took it (discarded)
    price: int
    payment: str  # payment text, "" if nothing was paid
    spent: list[str]  # card ids spent from the winner's collection


class TenTurn(TypedDict):
    """What happened in one turn (the running one, or the last finished one)."""

    seat: Seat
    drawn: list[str]  # every card turned over, wilds included
    auctions: list[TenAuctionRecord]
    result: str  # "", "bust_number", "bust_currency", "take_num" or "take_cur"
    row: list[str]  # the row when the turn ended
    gains: list[int]  # currency tokens gained per seat (after the cap)
    lost: list[int]  # currency tokens lost to the cap per seat
    bust_token: bool  # the active player received a bust token
    buy: str  # "" no buy (yet), "nobuy", else the bought card id
    buy_payment: str
    buy_spent: list[str]
    rival: list[str]  # solo: cards turned over by the rival step


class TenFinalBuy(TypedDict):
    seat: Seat
    card: str  # "nobuy" or the bought card id


class TenSolo(TypedDict):
    target: int
    rival_cards: int
    wild_price: int
    super_wild_price: int
    score: int
    reached: bool


class TenOffer(TypedDict):
    """A market card as the viewer may buy it."""

    card: str
    price: int
    blocked: bool  # the viewer holds that number already
    affordable: bool


class TenMe(TypedDict):
    """The viewer's own part (a seat's view only)."""

    spending_power: int
    legal: list[str]  # action texts
    market: list[TenOffer]
    # When this seat must pay now: every way to pay (see ``engine.ten.game.payment_options``).
    payment_options: list[PaymentOption] | None


class TenOutcome(TypedDict):
    totals: list[int]
    winners: list[Seat]
    reason: str  # "complete"; solo: "target_reached" or "target_missed"
    tokens: list[int]
    cards: list[int]
    places: list[int]
    solo: NotRequired[bool]  # solo only, as are won and target
    won: NotRequired[bool]
    target: NotRequired[int]


class TenView(TypedDict):
    """Everything one seat (or a spectator) may see: the whole table."""

    game: str  # "ten"
    title: str
    players: int
    seat: Seat | None  # the viewer; None for a spectator
    phase: str  # draw, bid, pay, reward, buy, final_buy, solo_wild, over
    to_act: list[Seat]
    active: Seat  # whose turn
    actor: Seat | None  # the one seat to act now; None when over
    turns: int  # completed turns
    start: Seat  # the start player
    deck_size: int
    drawn: int  # cards turned over this turn
    row: list[str]
    row_numbers: int  # N
    row_currency: int  # C
    net: int  # N - C
    bust_line: int  # a number bust at net >= 11
    currency_bust: int  # a currency bust at C >= 11
    net_room: int  # how much more is still safe: 10 - net
    currency_room: int  # 10 - C
    auction: TenAuction | None
    market: list[str]  # in arrival order
    discard: list[str]
    currency_supply: int
    bust_supply: int
    seats: list[TenSeat]
    totals: list[int]  # every seat's current score
    turn: TenTurn | None  # the running turn; None between turns
    last_turn: TenTurn | None  # the last finished turn, for the channel message
    final_buys: list[TenFinalBuy]
    final_order: list[Seat] | None  # the final purchases' order, once the draw pile is empty
    solo: TenSolo | None  # solo games only
    me: TenMe | None  # None for a spectator
    outcome: TenOutcome | None
    colours: list[str]  # the colour letters in display order (R, B, O, G); wilds are "W"


def _auction_record(record: AuctionRecord) -> TenAuctionRecord:
    return {
        "wild": record.wild,
        "bids": [list(bid) for bid in record.bids],
        "winner": record.winner,
        "price": record.price,
        "payment": record.payment,
        "spent": list(record.spent),
    }


def _record(turn: TurnLog | None) -> TenTurn | None:
    """A turn log as plain values: its fields in order, lists for tuples (as in a snapshot)."""
    if turn is None:
        return None
    return {
        "seat": turn.seat,
        "drawn": list(turn.drawn),
        "auctions": [_auction_record(a) for a in turn.auctions],
        "result": turn.result,
        "row": list(turn.row),
        "gains": list(turn.gains),
        "lost": list(turn.lost),
        "bust_token": turn.bust_token,
        "buy": turn.buy,
        "buy_payment": turn.buy_payment,
        "buy_spent": list(turn.buy_spent),
        "rival": list(turn.rival),
    }


def _seat_info(state: TenState, seat: Seat) -> TenSeat:
    collection = sort_cards(list(state.collections[seat]))
    detail = score_detail(collection)
    return {
        "seat": seat,
        "collection": collection,
        "by_colour": {g: [c for c in collection if c[0] == g] for g in GROUPS},
        "score": detail.total,
        "colour_scores": dict(detail.colours),
        "runs": {c: (list(r) if r else None) for c, r in detail.runs.items()},
        "wild_slots": dict(detail.wilds),
        "tokens": state.tokens[seat],
        "bust_tokens": state.bust[seat],
        "spending_power": spending_power(state, seat),
        "cards": len(collection),
    }


def _auction(state: TenState) -> TenAuction | None:
    if state.auction is None:
        return None
    p = state.players
    if state.phase == SOLO_WILD:
        return {
            "wild": state.auction,
            "solo": True,
            "order": [],
            "bids": [],
            "high": 0,
            "high_bidder": None,
            "bidder": None,
            "winner": None,
            "price": solo_price(state.auction),
        }
    high = max((b for _, b in state.bids), default=0)
    high_bidder = next((s for s, b in state.bids if b == high and b), None)
    return {
        "wild": state.auction,
        "solo": False,
        "order": [(state.active + 1 + i) % p for i in range(p)],
        "bids": [{"seat": s, "bid": b or None} for s, b in state.bids],
        "high": high,
        "high_bidder": high_bidder,
        "bidder": actor(state) if state.phase == BID else None,
        "winner": actor(state) if state.phase == PAY else None,
        "price": high if state.phase == PAY else None,
    }


def _me(state: TenState, seat: Seat) -> TenMe:
    power = spending_power(state, seat)
    collection = state.collections[seat]
    held = numbers_held(collection)
    me: TenMe = {
        "spending_power": power,
        "legal": [str(a) for a in legal_actions(state, seat)],
        "market": [
            {
                "card": card,
                "price": price,
                "blocked": card[:2] in held,
                "affordable": price <= power,
            }
            for card in state.market
            for price in (value(card),)
        ],
        "payment_options": None,
    }
    if actor(state) == seat and state.phase in (PAY, SOLO_WILD) and state.auction:
        price = max(b for _, b in state.bids) if state.phase == PAY else solo_price(state.auction)
        if price <= power:
            me["payment_options"] = options_for(
                price, state.tokens[seat], state.bust[seat], list(collection)
            )
    return me


def _outcome(state: TenState) -> TenOutcome | None:
    """The outcome with its details (rules.outcome: tokens, cards, places; solo: solo, won,
    target), in that order."""
    result = outcome(state)
    if result is None:
        return None
    details = result.details
    data: TenOutcome = {
        "totals": list(result.totals),
        "winners": sorted(result.winners),
        "reason": result.reason,
        "tokens": details["tokens"],
        "cards": details["cards"],
        "places": details["places"],
    }
    if "solo" in details:
        data["solo"] = details["solo"]
        data["won"] = details["won"]
        data["target"] = details["target"]
    return data


def seat_view(state: TenState, seat: Seat, public: TenView) -> TenView:
    """``build_view(state, seat)`` from ``public`` (``build_view(state, None)``): a seat's view
    differs from the public one only in "seat" and its own part, "me"; the rest is shared."""
    return {**public, "seat": seat, "me": _me(state, seat)}


def build_view(state: TenState, seat: Seat | None) -> TenView:
    numbers, currency = row_totals(state.row)
    seats = [_seat_info(state, s) for s in range(state.players)]
    now = actor(state)
    final_order = (
        [(state.active + 1 + i) % state.players for i in range(state.players)]
        if state.phase in (FINAL_BUY, OVER)
        else None
    )
    solo: TenSolo | None = None
    if state.players == 1:
        solo = {
            "target": SOLO_TARGET,
            "rival_cards": SOLO_RIVAL_CARDS,
            "wild_price": SOLO_WILD_PRICE,
            "super_wild_price": SOLO_SUPER_WILD_PRICE,
            "score": seats[0]["score"],
            "reached": seats[0]["score"] >= SOLO_TARGET,
        }
    return {
        "game": "ten",
        "title": "Ten",
        "players": state.players,
        "seat": seat,
        "phase": state.phase,
        "to_act": [] if now is None else [now],
        "active": state.active,
        "actor": now,
        "turns": state.turns,
        "start": state.start,
        "deck_size": len(state.deck),
        "drawn": state.drawn,
        "row": list(state.row),
        "row_numbers": numbers,
        "row_currency": currency,
        "net": numbers - currency,
        "bust_line": BUST_LINE,
        "currency_bust": CURRENCY_BUST,
        "net_room": BUST_LINE - 1 - (numbers - currency),
        "currency_room": CURRENCY_BUST - 1 - currency,
        "auction": _auction(state),
        "market": list(state.market),
        "discard": list(state.discard),
        "currency_supply": CURRENCY_TOKENS - sum(state.tokens),
        "bust_supply": BUST_TOKENS - sum(state.bust),
        "seats": seats,
        "totals": [s["score"] for s in seats],
        "turn": _record(state.turn) if state.turn.seat >= 0 else None,
        "last_turn": _record(state.last_turn),
        "final_buys": [{"seat": s, "card": c} for s, c in state.final_buys],
        "final_order": final_order,
        "solo": solo,
        "me": None if seat is None else _me(state, seat),
        "outcome": _outcome(state),
        "colours": list(COLOURS),
    }
