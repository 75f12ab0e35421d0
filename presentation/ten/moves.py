"""Ten: one move said in a few words, for ``/history`` ("drew 🟥R5 Red 5", "bid 4 on 🌈5 Wild 5").

Everything in Ten is public (rules §7: only the order of the draw pile is hidden), so no move
has a secret to keep: a drawn card is face up as soon as it is drawn, bids and payments are
made in the open. The line still reads only the action text and the spectator's view right
after the move, never the state. The drawn card is found in that view (the running turn's
``drawn``, or the finished turn's when the draw busted); the wild of a bid, pass, payment or
decline comes from the view's auction or the turn's auction records. Payments can be long
(many cards), so they are summarized: the price, then tokens and at most a few cards (more
are counted), cards in their compact form. Every line has the context "ten" (``pgettext``):
short lines such as "passed" must not take another game's translation (the catalogs of all
domains are merged).

An action text that does not parse, or a view that does not match it, never raises: the line
falls back to what the action text alone says, or to a generic "made a move".
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.base import BadActionText
from engine.ten import GAME
from engine.ten.actions import Bid, Buy, Draw, NoBuy, Pass, Pay, Stop, Take, TenAction
from engine.ten.cards import kind as card_kind
from engine.ten.payments import Payment
from engine.ten.view import TenAuctionRecord, TenTurn, TenView
from i18n import pgettext
from presentation.base import Names
from presentation.ten.text import BUST, TOKEN, card_name, card_text, cards_count, cards_text, none

MAX_LISTED = 3  # more cards than this are counted, not listed (lines stay short)


def move_line(action: str, seat: int, view: TenView, names: Names) -> str:
    """What ``seat`` did (without its name), for a spectator; see the module docstring."""
    try:
        parsed = GAME.parse_action(action)
    except BadActionText:
        return pgettext("ten", "made a move")
    try:
        return _described(parsed, seat, view, names)
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return _described(parsed, seat, None, names)  # a view that does not fit: the text alone


def _described(action: TenAction, seat: int, view: TenView | None, names: Names) -> str:
    """The line from ``action`` and what ``view`` shows (None: the action text alone)."""
    if isinstance(action, Draw):
        return _drew(seat, view)
    if isinstance(action, Stop):
        if view and view.get("row"):
            return pgettext("ten", "stopped at net {net}", net=view["net"])
        return pgettext("ten", "stopped")
    if isinstance(action, Take):
        return _took(action.numbers, seat, view)
    if isinstance(action, Bid):
        return _bid(action.amount, seat, view)
    if isinstance(action, Pass):
        return _passed(view, names)
    if isinstance(action, Pay):
        return _paid(action.payment, seat, view)
    if isinstance(action, Buy):
        price = int(action.card[1])
        return pgettext(
            "ten",
            "bought {card} for {price} ({paid})",
            card=card_text(action.card),
            price=price,
            paid=_payment(action.payment),
        )
    if isinstance(action, NoBuy):
        return pgettext("ten", "bought nothing")
    record = _record(view)
    if record is not None and record["winner"] < 0:
        return pgettext("ten", "declined {wild}", wild=card_name(record["wild"]))
    return pgettext("ten", "declined the wild")


# ---- pieces --------------------------------------------------------------------------------
def _one(card: str) -> str:
    """One card: its compact form and name ("🟥R5 Red 5"); a currency card compact only."""
    return card_text(card) if card_kind(card) == "currency" else card_name(card)


def _listed(cards: Sequence[str]) -> str:
    """A few cards shown, more counted ("🟥R1 🟦B2" or "7 cards"); an empty list is "none"."""
    if not cards:
        return none()
    return cards_text(cards) if len(cards) <= MAX_LISTED else cards_count(len(cards))


def _payment(payment: Payment) -> str:
    """A payment in short: "4 🪙 + 1 💥 + 🟥R1" (many cards only counted)."""
    parts = []
    if payment.tokens:
        parts.append(f"{payment.tokens} {TOKEN}")
    if payment.bust:
        parts.append(f"{payment.bust} {BUST}")
    if payment.cards:
        parts.append(_listed(payment.cards))
    return " + ".join(parts) or none()


def _turns(seat: int, view: TenView | None) -> list[TenTurn]:
    """The running turn, then the finished one, when ``seat`` is the player of that turn."""
    found = []
    for turn in (view.get("turn"), view.get("last_turn")) if view else ():
        if turn and turn.get("seat") == seat:
            found.append(turn)
    return found


def _record(view: TenView | None) -> TenAuctionRecord | None:
    """The running turn's latest auction record (the wild just won, discarded or declined)."""
    turn = view.get("turn") if view else None
    if turn and turn.get("auctions"):
        return turn["auctions"][-1]
    return None


# ---- one function per kind of move ---------------------------------------------------------
def _drew(seat: int, view: TenView | None) -> str:
    if view is None:
        return pgettext("ten", "drew a card")
    turn = view.get("turn")
    if turn and turn.get("seat") == seat and turn.get("drawn"):
        card = turn["drawn"][-1]
        auction = view.get("auction")
        if auction and auction["wild"] == card:
            if auction["solo"]:
                return pgettext(
                    "ten",
                    "drew {card}: offered for {price}",
                    card=_one(card),
                    price=auction["price"],
                )
            return pgettext("ten", "drew {card}: up for auction", card=_one(card))
        return pgettext("ten", "drew {card}", card=_one(card))
    last = view.get("last_turn")
    if last and last.get("seat") == seat and last.get("drawn"):
        card = _one(last["drawn"][-1])
        if last["result"] == "bust_number":
            return pgettext("ten", "drew {card}: bust, net over 10", card=card)
        if last["result"] == "bust_currency":
            return pgettext("ten", "drew {card}: bust, currency over 10", card=card)
    return pgettext("ten", "drew a card")


def _took(numbers: bool, seat: int, view: TenView | None) -> str:
    for turn in _turns(seat, view):
        if numbers and turn["result"] == "take_num":
            cards = [c for c in turn["row"] if card_kind(c) != "currency"]
            if not cards:  # a whole sentence: "none" composed here reads wrong in Estonian
                return pgettext("ten", "took the numbers, but the row had none")
            return pgettext("ten", "took the numbers: {cards}", cards=_listed(cards))
        if not numbers and turn["result"] == "take_cur":
            return pgettext("ten", "took the currency: +{gain} 🪙", gain=turn["gains"][seat])
    return pgettext("ten", "took the numbers") if numbers else pgettext("ten", "took the currency")


def _bid(amount: int, seat: int, view: TenView | None) -> str:
    auction = view.get("auction") if view else None
    if not auction:
        return pgettext("ten", "bid {amount}", amount=amount)
    wild = card_name(auction["wild"])
    if auction["winner"] == seat:
        return pgettext("ten", "bid {amount} and won {wild}", amount=amount, wild=wild)
    return pgettext("ten", "bid {amount} on {wild}", amount=amount, wild=wild)


def _passed(view: TenView | None, names: Names) -> str:
    auction = view.get("auction") if view else None
    if auction:
        wild = card_name(auction["wild"])
        if auction["winner"] is not None:
            return pgettext(
                "ten", "passed; {name} won {wild}", name=names[auction["winner"]], wild=wild
            )
        return pgettext("ten", "passed on {wild}", wild=wild)
    record = _record(view)
    if record is not None and record["winner"] < 0:
        return pgettext("ten", "passed; {wild} discarded", wild=card_name(record["wild"]))
    return pgettext("ten", "passed")


def _paid(payment: Payment, seat: int, view: TenView | None) -> str:
    record = _record(view)
    if record is not None and record["winner"] == seat:
        return pgettext(
            "ten",
            "paid {price} for {wild} ({paid})",
            price=record["price"],
            wild=card_text(record["wild"]),
            paid=_payment(payment),
        )
    return pgettext("ten", "paid {paid}", paid=_payment(payment))
