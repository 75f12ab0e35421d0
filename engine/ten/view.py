"""Ten: the view. Everything is public (rules §7) except the order of the draw pile.

Keys of ``view(state, seat)`` (all JSON values; card ids as in the rules; seats are ints):

- ``game`` "ten", ``title``, ``players``, ``seat`` (the viewer, None for a spectator),
  ``phase`` (draw, bid, pay, reward, buy, final_buy, solo_wild, over), ``to_act`` (sorted list),
  ``active`` (whose turn), ``actor`` (the one seat to act now, None when over), ``turns``
  (completed turns), ``start`` (start player), ``deck_size``, ``drawn`` (cards turned over this
  turn).
- The row: ``row`` (ids in order), ``row_numbers`` (N), ``row_currency`` (C), ``net`` (N - C),
  ``bust_line`` (11: a number bust at net >= 11), ``currency_bust`` (11: a currency bust at
  C >= 11), ``net_room`` / ``currency_room`` (how much more is still safe: 10 - net, 10 - C).
- ``auction``: None or {``wild``, ``solo`` (bool: the solo offer, no bidding), ``order`` (bidding
  seats, active last), ``bids`` [{``seat``, ``bid`` (None = pass)}], ``high`` (0 if none),
  ``high_bidder``, ``bidder`` (seat to bid now or None), ``winner`` (seat to pay or None),
  ``price`` (to pay now, or None)}.
- ``market`` (ids in arrival order), ``discard`` (ids), ``currency_supply``, ``bust_supply``.
- ``seats``: per seat {``seat``, ``collection`` (ids, canonical order), ``by_colour`` {R, B, O,
  G, W: ids}, ``score``, ``colour_scores`` {R, B, O, G}, ``runs`` {colour: [lo, hi] or None},
  ``wild_slots`` {wild id: slot such as "R5"}, ``tokens``, ``bust_tokens``, ``spending_power``,
  ``cards``}; ``totals`` (every seat's current score).
- ``turn`` (the running turn, None between turns) and ``last_turn`` (the last finished turn,
  for the channel message): {``seat``, ``drawn``, ``auctions`` [{``wild``, ``bids``
  [[seat, amount (0 = pass)]], ``winner`` (-1 = discarded), ``price``, ``payment``, ``spent``}],
  ``result`` ("", bust_number, bust_currency, take_num, take_cur), ``row``, ``gains``, ``lost``
  (per seat), ``bust_token``, ``buy`` ("", "nobuy" or the card), ``buy_payment``, ``buy_spent``,
  ``rival`` (solo: cards the rival step turned over)}.
- ``final_buys`` [{``seat``, ``card`` ("nobuy" or id)}], ``final_order`` (seats, once the draw
  pile is empty).
- ``solo``: None, or {``target``, ``rival_cards``, ``wild_price``, ``super_wild_price``,
  ``score``, ``reached``}.
- ``me`` (only for a seat): {``spending_power``, ``legal`` (action texts), ``market``
  [{``card``, ``price``, ``blocked``, ``affordable``}], ``payment_options`` (when this seat must
  pay now: see ``engine.ten.payment_options``)}.
- ``outcome``: None, or {``totals``, ``winners``, ``reason`` ("complete"; solo:
  "target_reached" / "target_missed"), ``places``, ``tokens``, ``cards``, and for solo ``solo``,
  ``won``, ``target``}.
- ``colours``: the colour letters in display order (R, B, O, G); the wild suit is ``W``.
"""

from __future__ import annotations

from typing import Any

from engine.base import Seat, View
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
from engine.ten.payments import options_for
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
from engine.ten.state import BID, FINAL_BUY, OVER, PAY, SOLO_WILD, TenState, TurnLog, turn_dict


def _lists(value_: Any) -> Any:
    """Tuples (nested ones too) as lists, as JSON would give them back."""
    if isinstance(value_, tuple):
        return [_lists(v) if isinstance(v, tuple) else v for v in value_]
    return value_


def _record(turn: TurnLog | None) -> dict[str, Any] | None:
    """A turn log as plain values: its snapshot form (``turn_dict``) with lists for tuples."""
    if turn is None:
        return None
    data = {k: _lists(v) for k, v in turn_dict(turn).items()}
    data["auctions"] = [{k: _lists(v) for k, v in a.items()} for a in data["auctions"]]
    return data


def _seat_info(state: TenState, seat: Seat) -> dict[str, Any]:
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


def _auction(state: TenState) -> dict[str, Any] | None:
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


def _me(state: TenState, seat: Seat) -> dict[str, Any]:
    power = spending_power(state, seat)
    collection = state.collections[seat]
    held = numbers_held(collection)
    me: dict[str, Any] = {
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


def _outcome(state: TenState) -> dict[str, Any] | None:
    result = outcome(state)
    if result is None:
        return None
    data: dict[str, Any] = {
        "totals": list(result.totals),
        "winners": sorted(result.winners),
        "reason": result.reason,
    }
    data.update(result.details)
    return data


def seat_view(state: TenState, seat: Seat, public: View) -> View:
    """``build_view(state, seat)`` from ``public`` (``build_view(state, None)``): a seat's view
    differs from the public one only in "seat" and its own part, "me"; the rest is shared."""
    return {**public, "seat": seat, "me": _me(state, seat)}


def build_view(state: TenState, seat: Seat | None) -> View:
    numbers, currency = row_totals(state.row)
    seats = [_seat_info(state, s) for s in range(state.players)]
    now = actor(state)
    final_order = (
        [(state.active + 1 + i) % state.players for i in range(state.players)]
        if state.phase in (FINAL_BUY, OVER)
        else None
    )
    solo = None
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
