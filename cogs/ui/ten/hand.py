"""Ten: a seat's private screen (the DM) and its controls.

Every control applies one complete engine action. Payments propose tokens first (the engine's
listed payment, as a button or a menu entry); a second menu, "Pay differently…", offers the
complete alternatives that spend bust tokens or named collection cards instead, each label
saying exactly what is given up. Those alternatives come from the engine's
``payment_options`` / ``payment_with_cards`` and the score after each from
``score_collection``; the renderer itself computes no rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from cogs.ui.base import (
    BLUE,
    GOLD,
    GREEN,
    Button,
    Control,
    HandScreen,
    Names,
    Panel,
    Select,
    View,
)
from cogs.ui.ten.text import (
    BUST,
    TOKEN,
    auction_line,
    card_name,
    card_text,
    cards_text,
    colour_lines,
    final_buys_line,
    grouped,
    payment_words,
    plural,
    row_lines,
    seat_line,
    solo_line,
    status_line,
    turn_text,
)
from engine import ten as rules

MAX_OPTIONS = 25
OPTION_LABEL = 100  # Discord's limit for a menu option's label
ROW_PHASES = ("draw", "bid", "pay", "reward", "solo_wild")  # phases where the row matters
PAY_BUTTONS = 5


@dataclass(frozen=True, slots=True)
class Way:
    """One complete payment: its text and what it spends."""

    text: str
    tokens: int
    bust: int
    cards: tuple[str, ...]  # card types, as the engine names them in payments
    excess: int

    def words(self, room: int = 100) -> str:
        """What the payment gives up; cards grouped by colour when it would not fit ``room``."""
        lost = f" ({self.excess} lost)" if self.excess else ""
        text = payment_words(self.tokens, self.bust, self.cards) + lost
        if len(text) > room:
            head = payment_words(self.tokens, self.bust, ())
            text = (head + " + " if self.tokens or self.bust else "") + grouped(self.cards) + lost
        return text


def _display_order(ctype: str) -> tuple[int, bool, str]:
    return ("RBOGW".index(ctype[0]), ctype[1] == "#", ctype[1])


class Wallet:
    """The viewer's ways to pay a price, and the score each leaves (both cached per screen)."""

    def __init__(self, view: View) -> None:
        self.view = view
        self.seat: int = view["seat"]
        self.collection: list[str] = list(view["seats"][self.seat]["collection"])
        self._ways: dict[int, list[Way]] = {}
        self._scores: dict[tuple[tuple[str, ...], str], int] = {}

    def ways(self, price: int) -> list[Way]:
        """Every distinct complete payment worth showing for ``price``, tokens first.

        The engine's options (each count of bust tokens and cards, spending its cheapest
        cards) plus, for every card type held, the payment that gives up just that card.
        """
        if price in self._ways:
            return self._ways[price]
        options = rules.payment_options(self.view, self.seat, price)
        cheapest = max((o["suggested"] for o in options), key=len, default=[])
        order = [*cheapest, *(c for c in self.collection if c not in cheapest)]
        found: dict[str, tuple[int, Way]] = {}
        for option in options:
            types = tuple(sorted((c[:2] for c in option["suggested"]), key=_display_order))
            way = Way(option["text"], option["tokens"], option["bust"], types, option["excess"])
            found.setdefault(way.text, (len(found), way))
        for card in {c[:2]: c for c in reversed(order)}.values():
            payment = rules.payment_with_cards(self.view, self.seat, price, [card])
            if payment is not None:
                way = Way(
                    payment.text, payment.tokens, payment.bust, payment.cards, payment.value - price
                )
                found.setdefault(way.text, (len(found) + order.index(card), way))
        ranked = sorted(found.values(), key=lambda f: (len(f[1].cards), f[1].bust, f[0]))
        self._ways[price] = [way for _, way in ranked]
        return self._ways[price]

    def score(self, way: Way, gain: str = "") -> int:
        """The viewer's score after paying ``way`` (and gaining the card ``gain``)."""
        key = (way.cards, gain)
        if key not in self._scores:
            kept = list(self.collection)
            for ctype in way.cards:
                kept.remove(next(c for c in kept if c[:2] == ctype))
            self._scores[key] = rules.score_collection(kept + ([gain] if gain else []))
        return self._scores[key]


# ---- controls per phase --------------------------------------------------------------------
def _bid_controls(view: View, legal: list[str]) -> list[Control]:
    """Pass as a button, every bid in one menu (the lowest 24 and the highest if more)."""
    amounts = sorted(int(a.split(".")[1]) for a in legal if a.startswith("bid."))
    tokens = view["seats"][view["seat"]]["tokens"]
    controls: list[Control] = [Button("Pass", "pass", "danger", row=0)] if "pass" in legal else []
    if len(amounts) > MAX_OPTIONS:
        amounts = [*amounts[: MAX_OPTIONS - 1], amounts[-1]]
    options = tuple(
        (
            f"Bid {a}",
            f"bid.{a}",
            "paid with tokens" if a <= tokens else "needs bust tokens or cards",
        )
        for a in amounts
    )
    if options:
        span = f"{amounts[0]}" if len(amounts) == 1 else f"{amounts[0]} to {amounts[-1]}"
        controls.append(Select(f"Bid {span}…", options, row=1))
    return controls


def _pay_controls(view: View, legal: list[str]) -> list[Control]:
    """Buttons for the listed payments without cards (tokens first), a menu of the others.

    When every payment needs cards, there is no button: the menu names the cards each gives up.
    """
    wallet = Wallet(view)
    ways = wallet.ways(view["auction"]["price"])
    by_action = {f"pay.{w.text}": w for w in ways}
    listed = [a for a in legal if a.startswith("pay.")]
    plain = [a for a in listed if a in by_action and not by_action[a].cards][:PAY_BUTTONS]
    controls: list[Control] = []
    for n, action in enumerate(plain):
        label = f"Pay {by_action[action].words()}"
        controls.append(Button(label, action, "primary" if n == 0 else "secondary", row=0))
    if "decline" in legal:
        controls.append(Button("Decline", "decline", "danger", row=0))
    options = [
        (
            f"Pay {w.words(OPTION_LABEL - 4)}",
            f"pay.{w.text}",
            f"your score after: {wallet.score(w)}",
        )
        for w in ways
        if f"pay.{w.text}" not in plain
    ][:MAX_OPTIONS]
    if options:
        placeholder = "Pay differently (use cards)…" if plain else "Pay with cards…"
        controls.append(Select(placeholder, tuple(options), row=1))
    return controls


def _buy_controls(view: View, legal: list[str]) -> list[Control]:
    """A menu of the cards to buy (tokens first), a menu of other payments, No purchase."""
    wallet = Wallet(view)
    score = view["seats"][view["seat"]]["score"]
    offers: list[tuple[tuple[int, int, int], str, Way, list[Way]]] = []
    seen: set[str] = set()
    for n, entry in enumerate(view["me"]["market"]):
        card = entry["card"]
        actions = {a for a in legal if a.startswith(f"buy.{card}.")}
        if not actions or card[:2] in seen:
            continue
        seen.add(card[:2])
        ways = wallet.ways(entry["price"])
        first = next((w for w in ways if f"buy.{card}.{w.text}" in actions), None)
        if first is not None:
            rest = [w for w in ways if w is not first]
            after = wallet.score(first, card)
            offers.append(((score - after, entry["price"], n), card, first, rest))
    offers.sort(key=lambda o: o[0])
    controls: list[Control] = []
    if offers:
        options = []
        for _, card, way, _ in offers[:MAX_OPTIONS]:
            after = wallet.score(way, card)
            gain = f" (+{after - score})" if after > score else ""
            desc = f"your score {score} → {after}{gain}"
            options.append((f"{card_name(card)} for {way.words()}", f"buy.{card}.{way.text}", desc))
        controls.append(Select("Buy a card…", tuple(options), row=0))
    others = [
        (
            f"{card_text(card)} for {w.words()}",
            f"buy.{card}.{w.text}",
            f"your score {score} → {wallet.score(w, card)}",
        )
        for card, w in _spread([(card, rest) for _, card, _, rest in offers])
    ]
    if others:
        controls.append(Select("Pay differently (bust tokens / cards)…", tuple(others), row=1))
    if "nobuy" in legal:
        controls.append(Button("No purchase", "nobuy", "secondary", row=2))
    return controls


def _spread(per_card: list[tuple[str, list[Way]]]) -> list[tuple[str, Way]]:
    """At most 25 (card, way) pairs, shared fairly between the cards, grouped by card."""
    chosen: list[tuple[int, int, str, Way]] = []
    depth = 0
    while len(chosen) < MAX_OPTIONS and any(len(ways) > depth for _, ways in per_card):
        for rank, (card, ways) in enumerate(per_card):
            if len(ways) > depth and len(chosen) < MAX_OPTIONS:
                chosen.append((rank, depth, card, ways[depth]))
        depth += 1
    chosen.sort(key=lambda c: (c[0], c[1]))
    return [(card, way) for _, _, card, way in chosen]


def _controls(view: View, legal: list[str]) -> list[Control]:
    if not legal:
        return []
    phase = view["phase"]
    if phase == "draw":
        controls: list[Control] = []
        if "draw" in legal:
            controls.append(Button(f"Draw (deck {view['deck_size']})", "draw", "primary"))
        if "stop" in legal:
            controls.append(Button("Stop", "stop", "success"))
        return controls
    if phase == "reward":
        numbers = cards_text([c for c in view["row"] if rules.kind(c) == "number"], "none")
        return [
            Button(f"Take the numbers: {numbers}", "take.n", "primary"),
            Button(f"Take the currency: +{view['row_currency']} {TOKEN}", "take.c", "success"),
        ]
    if phase == "bid":
        return _bid_controls(view, legal)
    if phase in ("pay", "solo_wild"):
        return _pay_controls(view, legal)
    if phase in ("buy", "final_buy"):
        return _buy_controls(view, legal)
    return []


# ---- text ----------------------------------------------------------------------------------
def _prompt(view: View, legal: list[str], names: Names) -> tuple[str, str]:
    """(title, prompt) for this seat's screen."""
    phase = view["phase"]
    me = view["seats"][view["seat"]]
    auction = view.get("auction") or {}
    if view.get("outcome"):
        return "Ten — the game is over", "The result is in the channel."
    if not legal:
        return "Ten — waiting for another player", "⏳ " + status_line(view, names).removeprefix(
            "🎯 "
        )
    if phase == "draw":
        text = "👉 **Draw** a card or **Stop** and take a reward."
        if "stop" not in legal:
            text = "👉 **Draw** your first card."
        elif "draw" not in legal:
            text = "👉 The deck is empty: **Stop** and take a reward."
        return "🎯 Your turn: draw or stop", text
    if phase == "reward":
        numbers = cards_text([c for c in view["row"] if rules.kind(c) == "number"], "none")
        currency = view["row_currency"]
        others = f"; the others get {currency} {TOKEN} each" if view["players"] > 1 else ""
        text = (
            f"👉 **Numbers**: {numbers} join your collection, then you may buy{others}.\n"
            f"👉 **Currency**: you get {currency} {TOKEN} (you hold {me['tokens']}, at most "
            f"{rules.CURRENCY_CAP}); the numbers go to the market."
        )
        return "✅ You stopped: numbers or currency?", text
    if phase == "bid":
        high = auction["high"]
        beat = f"Bid more than **{high}** or pass." if high else "Bid or pass."
        means = [f"{me['tokens']} {TOKEN}"]
        if me["bust_tokens"]:
            means.append(f"{me['bust_tokens']} {BUST} × 3")
        if me["cards"]:
            means.append(plural(me["cards"], "card"))
        power = view["me"]["spending_power"]
        text = (
            f"👉 **{card_name(auction['wild'])}** is up for auction. {beat}\n"
            f"You can bid up to **{power}** ({' + '.join(means)})."
        )
        if power > me["tokens"]:
            text += f" Bids above {me['tokens']} need bust tokens or cards to pay."
        return "🔨 Auction: bid or pass", text
    if phase in ("pay", "solo_wild"):
        wild = card_name(auction["wild"])
        if phase == "pay":
            head = f"👉 You won **{wild}** for **{auction['price']}**."
        else:
            head = f"👉 **{wild}** turned up: take it for **{auction['price']}** or decline it."
        options = view["me"]["payment_options"] or []
        if not options:
            text = head + " You cannot afford it."
        elif any(o["cards"] == 0 for o in options):
            text = head + " The buttons pay with tokens first."
            if me["cards"]:
                text += " “Pay differently” gives up cards from your collection instead."
        else:
            text = head + " You lack the tokens: choose in the menu which cards to give up."
        if phase == "solo_wild":
            return f"🌈 Take {card_text(auction['wild'])} for {auction['price']}?", text
        return f"🔨 Pay {auction['price']} for {card_text(auction['wild'])}", text
    final = phase == "final_buy"
    text = (
        "👉 Buy one market card (price = its number) or choose **No purchase**. "
        "“Pay differently” spends bust tokens or cards instead of tokens."
    )
    if not any(a.startswith("buy.") for a in legal):
        empty = "The market is empty" if not view["market"] else "You can buy nothing there"
        text = f"👉 {empty}: choose **No purchase**."
    if final:
        text = "🏁 The deck is empty: everyone makes one last purchase.\n" + text
    blocked = [m["card"] for m in view["me"]["market"] if m["blocked"]]
    dear = [m["card"] for m in view["me"]["market"] if not m["affordable"] and not m["blocked"]]
    if blocked:
        text += f"\nYou already hold: {grouped(blocked)}"
    if dear:
        text += f"\nToo dear: {grouped(dear)}"
    return ("🏁 Final purchase" if final else "🛒 Buy a card"), text


def hand_screen(view: View, legal: list[str], names: Names) -> HandScreen:
    seat = view["seat"]
    me = view["seats"][seat]
    title, prompt = _prompt(view, legal, names)
    lines = [prompt, ""]
    if view["phase"] in ROW_PHASES:
        lines += row_lines(view)
    covered = bool(legal) and view["phase"] in ("pay", "solo_wild")  # the prompt says it all
    extras = ("" if covered else auction_line(view, names), final_buys_line(view, names))
    lines += [x for x in (*extras, solo_line(view)) if x]
    fields: list[tuple[str, str, bool]] = [
        ("You: " + seat_line(me), "\n".join(colour_lines(me)) or "No cards yet.", False),
        ("🛒 Market", grouped(view["market"]), False),
    ]
    others = [
        f"{names.label(s['seat'])}: {seat_line(s)}" for s in view["seats"] if s["seat"] != seat
    ]
    if others:
        fields.append(("Others", "\n".join(others), False))
    last = view.get("last_turn")
    if last and view["phase"] != "over":
        fields.append(("Last turn", turn_text(last, view, names), False))
    colour = GREEN if legal else (GOLD if view.get("outcome") else BLUE)
    panel = Panel(title, "\n".join(lines).strip(), tuple(fields), colour)
    return HandScreen(panels=(panel,), controls=tuple(_controls(view, legal)))
