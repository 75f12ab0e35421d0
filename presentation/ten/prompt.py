"""Ten: the title and the prompt of a seat's private screen, phase by phase.

Each sentence is one catalog message with named values, so a translation may reorder them.
"""

from __future__ import annotations

from engine.ten.cards import CURRENCY_CAP
from engine.ten.cards import kind as card_kind
from engine.ten.view import TenView
from i18n import _
from presentation.base import Names
from presentation.common import own_seat, required
from presentation.ten.text import (
    card_name,
    card_text,
    cards_count,
    cards_text,
    game_title,
    grouped,
    status_line,
)


def _draw(legal: list[str]) -> tuple[str, str]:
    if "stop" not in legal:
        text = _("**Draw** your first card.")
    elif "draw" not in legal:
        text = _("The deck is empty: **Stop** and take a reward.")
    else:
        text = _("**Draw** a card or **Stop** and take a reward.")
    return "🎯 " + _("Your turn: draw or stop"), f"👉 {text}"


def _reward(view: TenView) -> tuple[str, str]:
    me = view["seats"][own_seat(view)]
    row_numbers = [c for c in view["row"] if card_kind(c) == "number"]
    numbers = cards_text(row_numbers)
    currency = view["row_currency"]
    if not row_numbers and view["players"] > 1:
        take = _(
            "**Numbers**: the row has none for your collection, but you may still buy; "
            "the others get {currency} 🪙 each.",
            currency=currency,
        )
    elif not row_numbers:
        take = _("**Numbers**: the row has none for your collection, but you may still buy.")
    elif view["players"] > 1:
        take = _(
            "**Numbers**: {cards} join your collection, then you may buy; "
            "the others get {currency} 🪙 each.",
            cards=numbers,
            currency=currency,
        )
    else:
        take = _("**Numbers**: {cards} join your collection, then you may buy.", cards=numbers)
    keep = _(
        "**Currency**: you get {currency} 🪙 (you hold {tokens}, at most {cap}); "
        "the numbers go to the market.",
        currency=currency,
        tokens=me["tokens"],
        cap=CURRENCY_CAP,
    )
    return "✅ " + _("You stopped: numbers or currency?"), f"👉 {take}\n👉 {keep}"


def _bid(view: TenView) -> tuple[str, str]:
    me = view["seats"][own_seat(view)]
    auction = required(view["auction"])
    high = auction["high"]
    beat = _("Bid more than **{high}** or pass.", high=high) if high else _("Bid or pass.")
    means = [f"{me['tokens']} 🪙"]
    if me["bust_tokens"]:
        means.append(f"{me['bust_tokens']} 💥 × 3")
    if me["cards"]:
        means.append(cards_count(me["cards"]))
    power = required(view["me"])["spending_power"]
    up = _("**{wild}** is up for auction.", wild=card_name(auction["wild"]))
    can = _("You can bid up to **{power}** ({means}).", power=power, means=" + ".join(means))
    text = f"👉 {up} {beat}\n{can}"
    if power > me["tokens"]:
        text += " " + _(
            "Bids above {tokens} need bust tokens or cards to pay.", tokens=me["tokens"]
        )
    return "🔨 " + _("Auction: bid or pass"), text


def _pay(view: TenView) -> tuple[str, str]:
    me = view["seats"][own_seat(view)]
    auction = required(view["auction"])
    wild, price = card_name(auction["wild"]), auction["price"]
    if view["phase"] == "pay":
        head = _("You won **{wild}** for **{price}**.", wild=wild, price=price)
    else:
        head = _(
            "**{wild}** turned up: take it for **{price}** or decline it.", wild=wild, price=price
        )
    options = required(view["me"])["payment_options"] or []
    if not options:
        more = [_("You cannot afford it.")]
    elif any(o["cards"] == 0 for o in options):
        more = [_("The buttons pay with tokens first.")]
        if me["cards"]:
            more.append(_("“Pay differently” gives up cards from your collection instead."))
    else:
        more = [_("You lack the tokens: choose in the menu which cards to give up.")]
    text = "👉 " + " ".join([head, *more])
    short = card_text(auction["wild"])
    if view["phase"] == "solo_wild":
        return "🌈 " + _("Take {wild} for {price}?", wild=short, price=price), text
    return "🔨 " + _("Pay {price} for {wild}", price=price, wild=short), text


def _buy(view: TenView, legal: list[str]) -> tuple[str, str]:
    final = view["phase"] == "final_buy"
    if any(a.startswith("buy.") for a in legal):
        text = "👉 " + _(
            "Buy one market card (price = its number) or choose **No purchase**. "
            "“Pay differently” spends bust tokens or cards instead of tokens."
        )
    elif not view["market"]:
        text = "👉 " + _("The market is empty: choose **No purchase**.")
    else:
        text = "👉 " + _("You can buy nothing there: choose **No purchase**.")
    if final:
        text = "🏁 " + _("The deck is empty: everyone makes one last purchase.") + "\n" + text
    offers = required(view["me"])["market"]
    blocked = [m["card"] for m in offers if m["blocked"]]
    dear = [m["card"] for m in offers if not m["affordable"] and not m["blocked"]]
    if blocked:
        text += "\n" + _("You already hold: {cards}", cards=grouped(blocked))
    if dear:
        text += "\n" + _("Too dear: {cards}", cards=grouped(dear))
    return ("🏁 " + _("Final purchase")) if final else ("🛒 " + _("Buy a card")), text


def prompt(view: TenView, legal: list[str], names: Names) -> tuple[str, str]:
    """(title, prompt) for this seat's screen."""
    phase = view["phase"]
    if view.get("outcome"):
        return _("{game} — the game is over", game=game_title()), _("The result is in the channel.")
    if not legal:
        return _("{game} — waiting for another player", game=game_title()), status_line(
            view, names, icon="⏳"
        )
    if phase == "draw":
        return _draw(legal)
    if phase == "reward":
        return _reward(view)
    if phase == "bid":
        return _bid(view)
    if phase in ("pay", "solo_wild"):
        return _pay(view)
    return _buy(view, legal)
