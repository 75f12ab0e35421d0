"""Ten: small display pieces shared by the table, the hand screen and the result.

Everything here reads view data and the engine's display helpers (card kinds, labels, the
payment codec); no rule is computed. Card forms: 🟥R5 a red 5, 🟥R✱ a red wild (any red
number), 🌈5 a wild 5 (any colour), 🌈✱ the super wild, 🪙3 a currency card worth 3. A colour is
never told by its square alone: a letter (R, B, O, G) or its name goes with it, for players who
cannot tell red, orange and green apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cogs.ui.base import Names, View
from engine import ten as rules

SQUARES = {"R": "🟥", "B": "🟦", "O": "🟧", "G": "🟩"}
COLOUR_WORDS = {"R": "Red", "B": "Blue", "O": "Orange", "G": "Green"}
TOKEN = "🪙"
BUST = "💥"
COLOURS_LEGEND = " · ".join(f"{SQUARES[c]}{c} {COLOUR_WORDS[c].lower()}" for c in SQUARES)
LEGEND = f"{COLOURS_LEGEND}\n✱ wild · 🌈 any colour · 🪙 currency · 💥 bust token (worth 3)"

PHASE_WORDS = {
    "draw": "drawing",
    "bid": "auction",
    "pay": "paying for a wild",
    "reward": "choosing a reward",
    "buy": "buying",
    "final_buy": "final purchase",
    "solo_wild": "deciding on a wild",
}


def mark(colour: str) -> str:
    """A colour's square with its letter, "🟥R": readable without telling the colours apart."""
    return f"{SQUARES[colour]}{colour}"


def named(colour: str) -> str:
    """A colour's square with its name: "🟥 Red"."""
    return f"{SQUARES[colour]} {COLOUR_WORDS[colour]}"


def card_text(card: str) -> str:
    """Compact form of a card id or card type: 🟥R5, 🟥R✱, 🌈5, 🌈✱, 🪙3."""
    kind = rules.kind(card)
    if kind == "currency":
        return f"{TOKEN}{card[1]}"
    if kind == "super_wild":
        return "🌈✱"
    if kind == "number_wild":
        return f"🌈{card[1]}"
    if kind == "colour_wild":
        return f"{mark(card[0])}✱"
    return f"{mark(card[0])}{card[1]}"


def card_name(card: str) -> str:
    """Compact form plus the engine's words: "🟥R5 Red 5"."""
    return f"{card_text(card)} {rules.card_label(card)}"


def cards_text(cards: Sequence[str], empty: str = "—") -> str:
    return " ".join(card_text(c) for c in cards) or empty


def grouped(cards: Sequence[str], empty: str = "empty") -> str:
    """Cards grouped by colour, numbers ascending: "🟥R 1 5 · 🟦B 3 3 · 🌈 5"."""
    parts = []
    for group in ("R", "B", "O", "G", "W"):
        mine = sorted((c for c in cards if c[0] == group), key=lambda c: (c[1] == "#", c[1]))
        if not mine:
            continue
        head = mark(group) if group in SQUARES else "🌈"
        parts.append(head + " " + " ".join("✱" if c[1] == "#" else c[1] for c in mine))
    return " · ".join(parts) or empty


def payment_text(text: str) -> str:
    """A payment text (``5.0.R1``) in words: "4 🪙 + 🟥R1"."""
    if not text:
        return "nothing"
    action = rules.GAME.parse_action(f"pay.{text}")
    assert isinstance(action, rules.Pay)
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
    return " + ".join(parts) or "nothing"


def colour_lines(info: dict[str, Any]) -> list[str]:
    """A seat's collection, one line per colour: numbers (run in bold), wilds as ✱n, score."""
    slots: dict[str, str] = info["wild_slots"]
    lines = []
    for colour in ("R", "B", "O", "G"):
        numbers = [(int(c[1]), "") for c in info["by_colour"][colour] if c[1] != "#"]
        numbers += [(int(slot[1]), "✱") for slot in slots.values() if slot[0] == colour]
        if not numbers:
            continue
        run = info["runs"].get(colour)
        shown = []
        for n, mark in sorted(numbers):
            text = f"{mark}{n}"
            shown.append(f"**{text}**" if run and run[0] <= n <= run[1] else text)
        points = info["colour_scores"][colour]
        lines.append(f"{named(colour)} {' '.join(shown)} → {points}")
    spare = [c for c in info["collection"] if rules.kind(c) != "number" and c not in slots]
    if spare:
        lines.append(f"Unused wilds: {cards_text(spare)}")
    return lines


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def seat_line(info: dict[str, Any]) -> str:
    bust = f" · {BUST} {info['bust_tokens']}" if info["bust_tokens"] else ""
    return (
        f"**{info['score']}** pts · {TOKEN} {info['tokens']}{bust} · "
        f"{plural(info['cards'], 'card')}"
    )


def row_lines(view: View) -> list[str]:
    """The row and its totals against the two bust lines."""
    row = view["row"]
    numbers, currency, net = view["row_numbers"], view["row_currency"], view["net"]
    lines = [f"**Row:** {cards_text(row, 'empty')}"]
    if not row:
        lines.append(f"Net 0 · currency 0 · a row busts at {view['bust_line']}")
        return lines
    lines.append(
        f"Numbers {numbers} − currency {currency} = **net {net}** → busts at "
        f"{view['bust_line']} ({_spare(view['net_room'])})"
    )
    if currency:
        lines.append(
            f"Currency **{currency}** → busts at {view['currency_bust']} "
            f"({_spare(view['currency_room'])})"
        )
    return lines


def _spare(room: int) -> str:
    return "⚠️ 0 to spare" if room <= 0 else f"{room} to spare"


def auction_line(view: View, names: Names) -> str:
    auction = view.get("auction")
    if not auction:
        return ""
    wild = card_name(auction["wild"])
    if auction["solo"]:
        return f"🌈 **{wild}** turned up: yours for {auction['price']}, or it is discarded."
    if auction["winner"] is not None:
        return f"🔨 **{names[auction['winner']]}** won **{wild}** for {auction['price']} and pays."
    bids = {b["seat"]: b["bid"] for b in auction["bids"]}
    parts = []
    for seat in auction["order"]:
        if seat in bids:
            parts.append(f"{names[seat]} {'pass' if bids[seat] is None else bids[seat]}")
        elif seat == auction["bidder"]:
            parts.append(f"⏳ {names[seat]}")
        else:
            parts.append(f"{names[seat]} …")
    return f"🔨 Auction for **{wild}**: " + " · ".join(parts)


def auction_record(record: dict[str, Any], names: Names) -> str:
    wild = card_text(record["wild"])
    if record["winner"] < 0:
        return f"{wild} discarded"
    paid = payment_text(record["payment"])
    return f"{wild} → {names[record['winner']]} for {record['price']} ({paid})"


def turn_text(turn: dict[str, Any], view: View, names: Names) -> str:
    """What one finished turn did, in one to three short lines."""
    who = names[turn["seat"]]
    row = turn["row"]
    numbers = [c for c in row if rules.kind(c) == "number"]
    result = turn["result"]
    gains = [(s, g) for s, g in enumerate(turn["gains"]) if g and s != turn["seat"]]
    others = ", ".join(f"{names[s]} +{g}" for s, g in gains)
    if result == "bust_number":
        head = f"💥 **{who}** busted on {card_text(row[-1])} (net over 10)"
    elif result == "bust_currency":
        head = f"💥 **{who}** busted on {card_text(row[-1])} (currency over 10)"
    elif result == "take_num":
        head = f"✅ **{who}** stopped and took the numbers: {cards_text(numbers, 'none')}"
    else:
        mine = turn["gains"][turn["seat"]]
        head = f"✅ **{who}** stopped and took the currency: **+{mine}** {TOKEN}"
    lines = [head]
    tail = []
    if turn["bust_token"]:
        tail.append(f"+1 {BUST}")
    if result != "take_num" and numbers:
        tail.append(f"{cards_text(numbers)} to the market")
    if others:
        tail.append(f"{others} {TOKEN}")
    lost = sum(turn["lost"])
    if lost:
        tail.append(f"{lost} {TOKEN} lost to the cap")
    if tail:
        lines[0] += "; " + "; ".join(tail)
    if turn["auctions"]:
        lines.append("🔨 " + "; ".join(auction_record(a, names) for a in turn["auctions"]))
    if turn["buy"] == "nobuy":
        lines.append("🛒 No purchase.")
    elif turn["buy"]:
        paid = payment_text(turn["buy_payment"])
        lines.append(f"🛒 Bought **{card_text(turn['buy'])}** for {paid}.")
    if turn["rival"]:
        lines.append(f"🃏 Rival turned over {cards_text(turn['rival'])} (numbers to the market).")
    return "\n".join(lines)


def final_buys_line(view: View, names: Names) -> str:
    order = view.get("final_order")
    if not order:
        return ""
    done = {b["seat"]: b["card"] for b in view["final_buys"]}
    parts = []
    for seat in order:
        if seat in done:
            card = done[seat]
            parts.append(f"{names[seat]}: {'no purchase' if card == 'nobuy' else card_text(card)}")
        elif seat == view["actor"]:
            parts.append(f"⏳ {names[seat]}")
        else:
            parts.append(f"{names[seat]} …")
    return "🏁 Final purchases: " + " · ".join(parts)


def status_line(view: View, names: Names) -> str:
    """Whose turn and what they are doing."""
    phase = view["phase"]
    if phase == "over":
        return "The game is over."
    active = names[view["active"]]
    deck = f"🂠 deck {view['deck_size']}"
    if phase == "final_buy":
        return f"🏁 **{names[view['actor']]}** makes a final purchase · {deck}"
    cards = f"{plural(view['drawn'], 'card')} turned over"
    return f"🎯 **{active}**'s turn ({PHASE_WORDS[phase]}, {cards}) · {deck}"


def solo_line(view: View) -> str:
    solo = view.get("solo")
    if not solo:
        return ""
    if view["phase"] == "over":
        verdict = "reached ✅" if solo["reached"] else "missed"
        return f"🎯 Solo target **{solo['target']}** · final score {solo['score']} ({verdict})"
    progress = "✅ reached!" if solo["reached"] else f"{solo['target'] - solo['score']} to go"
    return f"🎯 Solo target **{solo['target']}** · score {solo['score']} ({progress})"
