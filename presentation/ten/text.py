"""Ten: small display pieces shared by the table, the hand screen and the result.

Everything here reads view data and the engine's display helpers (card kinds, the payment
codec); no rule is computed. Card forms: 🟥R5 a red 5, 🟥R✱ a red wild (any red number), 🌈5 a
wild 5 (any colour), 🌈✱ the super wild, 🪙3 a currency card worth 3. A colour is never told by
its square alone: a letter or its name goes with it, for players who cannot tell red, orange
and green apart. The letters come from the catalogs (each language its own initials, which
the legend explains), as do the card names; the engine's English labels are never shown.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.ten import GAME
from engine.ten.actions import Pay
from engine.ten.cards import kind as card_kind
from engine.ten.view import TenAuctionRecord, TenSeat, TenTurn, TenView
from i18n import N_, _, ngettext, pgettext, translate
from presentation import titles
from presentation.base import Names
from presentation.common import required

COLOURS = ("R", "B", "O", "G")
SQUARES = {"R": "🟥", "B": "🟦", "O": "🟧", "G": "🟩"}
TOKEN = "🪙"
BUST = "💥"
COLOUR_WORDS = {"R": N_("Red"), "B": N_("Blue"), "O": N_("Orange"), "G": N_("Green")}
NUMBER_CARDS = {
    "R": N_("Red {number}"),
    "B": N_("Blue {number}"),
    "O": N_("Orange {number}"),
    "G": N_("Green {number}"),
}
COLOUR_WILDS = {
    "R": N_("Red wild"),
    "B": N_("Blue wild"),
    "O": N_("Orange wild"),
    "G": N_("Green wild"),
}
PHASE_WORDS = {
    "draw": N_("drawing"),
    "bid": N_("auction"),
    "pay": N_("paying for a wild"),
    "reward": N_("choosing a reward"),
    "buy": N_("buying"),
    "final_buy": N_("final purchase"),
    "solo_wild": N_("deciding on a wild"),
}

# TRANSLATORS: the game's title; every message that names the game shows this one translation.
TITLE = N_("Ten")  # the engine's title: presentation.titles translates it


def game_title() -> str:
    """The game's name in the current language."""
    return titles.game_title("ten")


def letter(colour: str) -> str:
    """The colour's initial in the current language (R/B/O/G in English)."""
    if colour == "R":
        return pgettext("colour letter", "R")
    if colour == "B":
        return pgettext("colour letter", "B")
    if colour == "O":
        return pgettext("colour letter", "O")
    return pgettext("colour letter", "G")


def colour_name(colour: str) -> str:
    return translate(COLOUR_WORDS[colour])


def legend() -> str:
    """What the squares, letters and marks mean (the table's footer)."""
    colours = " · ".join(f"{mark(c)} {colour_name(c).lower()}" for c in COLOURS)
    marks = _("✱ wild · 🌈 any colour · 🪙 currency · 💥 bust token (worth 3)")
    return f"{colours}\n{marks}"


def mark(colour: str) -> str:
    """A colour's square with its letter, "🟥R": readable without telling the colours apart."""
    return f"{SQUARES[colour]}{letter(colour)}"


def named(colour: str) -> str:
    """A colour's square with its name: "🟥 Red"."""
    return f"{SQUARES[colour]} {colour_name(colour)}"


def card_text(card: str) -> str:
    """Compact form of a card id or card type: 🟥R5, 🟥R✱, 🌈5, 🌈✱, 🪙3."""
    kind = card_kind(card)
    if kind == "currency":
        return f"{TOKEN}{card[1]}"
    if kind == "super_wild":
        return "🌈✱"
    if kind == "number_wild":
        return f"🌈{card[1]}"
    if kind == "colour_wild":
        return f"{mark(card[0])}✱"
    return f"{mark(card[0])}{card[1]}"


def card_label(card: str) -> str:
    """A card's name in words: "Red 5", "Red wild", "Wild 5", "Super wild", "5 coins"."""
    kind = card_kind(card)
    if kind == "currency":
        return ngettext("{n} coin", "{n} coins", int(card[1]))
    if kind == "super_wild":
        return _("Super wild")
    if kind == "number_wild":
        return _("Wild {number}", number=card[1])
    if kind == "colour_wild":
        return translate(COLOUR_WILDS[card[0]])
    return translate(NUMBER_CARDS[card[0]], number=card[1])


def card_name(card: str) -> str:
    """Compact form plus words: "🟥R5 Red 5"."""
    return f"{card_text(card)} {card_label(card)}"


def cards_text(cards: Sequence[str], empty: str = "—") -> str:
    return " ".join(card_text(c) for c in cards) or empty


def none() -> str:
    """An empty list of cards in a sentence."""
    return pgettext("no cards", "none")


def empty_market() -> str:
    """What an empty market shows under its heading ("Market": Romanian "goală", feminine)."""
    # TRANSLATORS: under the heading "Market", when no card is for sale; agree it with "Market".
    return pgettext("empty market", "empty")


def grouped(cards: Sequence[str], empty: str | None = None) -> str:
    """Cards grouped by colour, numbers ascending: "🟥R 1 5 · 🟦B 3 3 · 🌈 5"."""
    parts = []
    for group in (*COLOURS, "W"):
        mine = sorted((c for c in cards if c[0] == group), key=lambda c: (c[1] == "#", c[1]))
        if not mine:
            continue
        head = mark(group) if group in SQUARES else "🌈"
        parts.append(head + " " + " ".join("✱" if c[1] == "#" else c[1] for c in mine))
    return " · ".join(parts) or (no_cards() if empty is None else empty)


def no_cards() -> str:
    """A place that holds no card ("empty")."""
    return pgettext("no cards", "empty")


def payment_text(text: str) -> str:
    """A payment text (``5.0.R1``) in words: "4 🪙 + 🟥R1"."""
    if not text:
        return payment_words(0, 0, ())
    action = GAME.parse_action(f"pay.{text}")
    assert isinstance(action, Pay)
    pay = action.payment
    return payment_words(pay.tokens, pay.bust, pay.cards)


def payment_words(tokens: int, bust: int, cards: Sequence[str]) -> str:
    parts = []
    if tokens:
        parts.append(f"{tokens} {TOKEN}")
    if bust:
        parts.append(f"{bust} {BUST}")
    if cards:
        parts.append(cards_text(cards))
    return " + ".join(parts) or pgettext("payment", "nothing")


def colour_lines(info: TenSeat) -> list[str]:
    """A seat's collection, one line per colour: numbers (run in bold), wilds as ✱n, score."""
    slots: dict[str, str] = info["wild_slots"]
    lines = []
    for colour in COLOURS:
        numbers = [(int(c[1]), "") for c in info["by_colour"][colour] if c[1] != "#"]
        numbers += [(int(slot[1]), "✱") for slot in slots.values() if slot[0] == colour]
        if not numbers:
            continue
        run = info["runs"].get(colour)
        shown = []
        for n, wild in sorted(numbers):
            text = f"{wild}{n}"
            shown.append(f"**{text}**" if run and run[0] <= n <= run[1] else text)
        points = info["colour_scores"][colour]
        lines.append(f"{named(colour)} {' '.join(shown)} → {points}")
    spare = [c for c in info["collection"] if card_kind(c) != "number" and c not in slots]
    if spare:
        lines.append(_("Unused wilds: {cards}", cards=cards_text(spare)))
    return lines


def cards_count(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n)


def seat_line(info: TenSeat) -> str:
    bust = f" · {BUST} {info['bust_tokens']}" if info["bust_tokens"] else ""
    points = ngettext("**{n}** pt", "**{n}** pts", info["score"])
    return f"{points} · {TOKEN} {info['tokens']}{bust} · {cards_count(info['cards'])}"


def row_lines(view: TenView) -> list[str]:
    """The row and its totals against the two bust lines."""
    row = view["row"]
    numbers, currency, net = view["row_numbers"], view["row_currency"], view["net"]
    shown = cards_text(row, no_cards())
    lines = [_("**Row:** {cards}", cards=shown)]
    if not row:
        lines.append(_("Net 0 · currency 0 · a row busts at {line}", line=view["bust_line"]))
        return lines
    lines.append(
        _(
            "Numbers {numbers} − currency {currency} = **net {net}** → busts at {line} ({spare})",
            numbers=numbers,
            currency=currency,
            net=net,
            line=view["bust_line"],
            spare=_spare(view["net_room"]),
        )
    )
    if currency:
        lines.append(
            _(
                "Currency **{currency}** → busts at {line} ({spare})",
                currency=currency,
                line=view["currency_bust"],
                spare=_spare(view["currency_room"]),
            )
        )
    return lines


def _spare(room: int) -> str:
    return "⚠️ " + _("0 to spare") if room <= 0 else _("{room} to spare", room=room)


def auction_line(view: TenView, names: Names) -> str:
    auction = view.get("auction")
    if not auction:
        return ""
    wild = card_name(auction["wild"])
    price = auction["price"]
    if auction["solo"]:
        text = _(
            "**{wild}** turned up: yours for {price}, or it is discarded.", wild=wild, price=price
        )
        return f"🌈 {text}"
    if auction["winner"] is not None:
        name = names[auction["winner"]]
        return "🔨 " + _(
            "**{name}** won **{wild}** for {price} and pays.", name=name, wild=wild, price=price
        )
    bids = {b["seat"]: b["bid"] for b in auction["bids"]}
    parts = []
    for seat in auction["order"]:
        if seat in bids:
            bid = bids[seat]
            # TRANSLATORS: one bidder's answer in the auction line: "Ann pass" (or "Ann 3").
            parts.append(
                _("{name} pass", name=names[seat]) if bid is None else f"{names[seat]} {bid}"
            )
        elif seat == auction["bidder"]:
            parts.append(f"⏳ {names[seat]}")
        else:
            parts.append(f"{names[seat]} …")
    return "🔨 " + _("Auction for **{wild}**: {bids}", wild=wild, bids=" · ".join(parts))


def auction_record(record: TenAuctionRecord, names: Names) -> str:
    wild = card_text(record["wild"])
    if record["winner"] < 0:
        return _("{wild} discarded", wild=wild)
    return _(
        "{wild} → {name} for {price} ({paid})",
        wild=wild,
        name=names[record["winner"]],
        price=record["price"],
        paid=payment_text(record["payment"]),
    )


def _turn_head(turn: TenTurn, who: str, numbers: list[str]) -> str:
    result = turn["result"]
    last = card_text(turn["row"][-1]) if turn["row"] else ""
    if result == "bust_number":
        return "💥 " + _("**{name}** busted on {card} (net over 10)", name=who, card=last)
    if result == "bust_currency":
        return "💥 " + _("**{name}** busted on {card} (currency over 10)", name=who, card=last)
    if result == "take_num" and not numbers:
        return "✅ " + _("**{name}** stopped and took the numbers, but the row had none", name=who)
    if result == "take_num":
        cards = cards_text(numbers)
        return "✅ " + _("**{name}** stopped and took the numbers: {cards}", name=who, cards=cards)
    gain = turn["gains"][turn["seat"]]
    return "✅ " + _(
        "**{name}** stopped and took the currency: **+{gain}** 🪙", name=who, gain=gain
    )


def turn_text(turn: TenTurn, view: TenView, names: Names) -> str:
    """What one finished turn did, in one to three short lines."""
    numbers = [c for c in turn["row"] if card_kind(c) == "number"]
    gains = [(s, g) for s, g in enumerate(turn["gains"]) if g and s != turn["seat"]]
    lines = [_turn_head(turn, names[turn["seat"]], numbers)]
    tail = []
    if turn["bust_token"]:
        tail.append(f"+1 {BUST}")
    if turn["result"] != "take_num" and numbers:
        tail.append(_("{cards} to the market", cards=cards_text(numbers)))
    if gains:
        tail.append(", ".join(f"{names[s]} +{g}" for s, g in gains) + f" {TOKEN}")
    lost = sum(turn["lost"])
    if lost:
        tail.append(_("{lost} 🪙 lost to the cap", lost=lost))
    if tail:
        lines[0] += "; " + "; ".join(tail)
    if turn["auctions"]:
        lines.append("🔨 " + "; ".join(auction_record(a, names) for a in turn["auctions"]))
    if turn["buy"] == "nobuy":
        lines.append("🛒 " + _("No purchase."))
    elif turn["buy"]:
        paid = payment_text(turn["buy_payment"])
        lines.append(
            "🛒 " + _("Bought **{card}** for {paid}.", card=card_text(turn["buy"]), paid=paid)
        )
    if turn["rival"]:
        rival = cards_text(turn["rival"])
        lines.append("🃏 " + _("Rival turned over {cards} (numbers to the market).", cards=rival))
    return "\n".join(lines)


def final_buys_line(view: TenView, names: Names) -> str:
    order = view.get("final_order")
    if not order:
        return ""
    done = {b["seat"]: b["card"] for b in view["final_buys"]}
    parts = []
    for seat in order:
        if seat in done:
            card = done[seat]
            if card == "nobuy":
                parts.append(_("{name}: no purchase", name=names[seat]))
            else:
                parts.append(f"{names[seat]}: {card_text(card)}")
        elif seat == view["actor"]:
            parts.append(f"⏳ {names[seat]}")
        else:
            parts.append(f"{names[seat]} …")
    return "🏁 " + _("Final purchases: {list}", list=" · ".join(parts))


def status_line(view: TenView, names: Names, icon: str = "🎯") -> str:
    """Whose turn and what they are doing (after ``icon``)."""
    phase = view["phase"]
    if phase == "over":
        return _("The game is over.")
    deck = "🂠 " + _("deck {count}", count=view["deck_size"])
    if phase == "final_buy":
        name = names[required(view["actor"])]
        return "🏁 " + _("**{name}** makes a final purchase", name=name) + f" · {deck}"
    turn = _(
        "**{name}**'s turn ({phase}, {cards})",
        name=names[view["active"]],
        phase=translate(PHASE_WORDS[phase]),
        cards=ngettext("{n} card turned over", "{n} cards turned over", view["drawn"]),
    )
    return f"{icon} {turn} · {deck}"


def solo_line(view: TenView) -> str:
    solo = view.get("solo")
    if not solo:
        return ""
    target, score = solo["target"], solo["score"]
    if view["phase"] == "over":
        if solo["reached"]:
            text = _(
                "Solo target **{target}** · final score {score} (reached ✅)",
                target=target,
                score=score,
            )
        else:
            text = _(
                "Solo target **{target}** · final score {score} (missed)",
                target=target,
                score=score,
            )
    elif solo["reached"]:
        text = _(
            "Solo target **{target}** · score {score} (✅ reached!)", target=target, score=score
        )
    else:
        left = target - score
        text = _(
            "Solo target **{target}** · score {score} ({left} to go)",
            target=target,
            score=score,
            left=left,
        )
    return f"🎯 {text}"
