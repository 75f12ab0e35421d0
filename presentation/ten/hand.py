"""Ten: a seat's private screen (the DM) and its controls.

Every control applies one complete engine action. Payments propose tokens first (the engine's
listed payment, as a button or a menu entry); a second menu, "Pay differently…", offers the
complete alternatives that spend bust tokens or named collection cards instead, each label
saying exactly what is given up. Those alternatives come from the engine's
``payment_options`` / ``payment_with_cards`` and the score after each from
``score_collection``; the renderer itself computes no rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from engine.ten.cards import kind as card_kind
from engine.ten.game import payment_options, payment_with_cards
from engine.ten.scoring import score_collection
from engine.ten.view import TenView
from i18n import _, pgettext
from presentation.base import (
    BLUE,
    GOLD,
    GREEN,
    Button,
    Control,
    HandScreen,
    Names,
    Panel,
    Select,
)
from presentation.common import own_seat, required
from presentation.ten.prompt import prompt
from presentation.ten.text import (
    auction_line,
    card_name,
    card_text,
    cards_text,
    colour_lines,
    empty_market,
    final_buys_line,
    grouped,
    payment_words,
    row_lines,
    seat_line,
    solo_line,
    turn_text,
)

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
        lost = " " + _("({excess} lost)", excess=self.excess) if self.excess else ""
        text = payment_words(self.tokens, self.bust, self.cards) + lost
        if len(text) > room:
            head = payment_words(self.tokens, self.bust, ())
            text = (head + " + " if self.tokens or self.bust else "") + grouped(self.cards) + lost
        return text


def _display_order(ctype: str) -> tuple[int, bool, str]:
    return ("RBOGW".index(ctype[0]), ctype[1] == "#", ctype[1])


class Wallet:
    """The viewer's ways to pay a price, and the score each leaves (both cached per screen)."""

    def __init__(self, view: TenView) -> None:
        self.view = view
        self.seat = own_seat(view)
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
        options = payment_options(self.view, self.seat, price)
        cheapest = max((o["suggested"] for o in options), key=len, default=[])
        order = [*cheapest, *(c for c in self.collection if c not in cheapest)]
        found: dict[str, tuple[int, Way]] = {}
        for option in options:
            types = tuple(sorted((c[:2] for c in option["suggested"]), key=_display_order))
            way = Way(option["text"], option["tokens"], option["bust"], types, option["excess"])
            found.setdefault(way.text, (len(found), way))
        for card in {c[:2]: c for c in reversed(order)}.values():
            payment = payment_with_cards(self.view, self.seat, price, [card])
            if payment is not None:
                way = Way(
                    payment.text, payment.tokens, payment.bust, payment.cards, payment.value - price
                )
                found.setdefault(way.text, (len(found) + order.index(card), way))
        ranked = sorted(found.values(), key=lambda f: (len(f[1].cards), f[1].bust, f[0]))
        self._ways[price] = [way for _rank, way in ranked]
        return self._ways[price]

    def score(self, way: Way, gain: str = "") -> int:
        """The viewer's score after paying ``way`` (and gaining the card ``gain``)."""
        key = (way.cards, gain)
        if key not in self._scores:
            kept = list(self.collection)
            for ctype in way.cards:
                kept.remove(next(c for c in kept if c[:2] == ctype))
            self._scores[key] = score_collection(kept + ([gain] if gain else []))
        return self._scores[key]


def _for(card: str, words: str) -> str:
    """A purchase's label: the card and what is paid for it."""
    return _("{card} for {payment}", card=card, payment=words)


def _fit(label: Callable[[str], str], way: Way) -> str:
    """``label`` around the words of ``way``, within a menu option's length."""
    return label(way.words(OPTION_LABEL - len(label(""))))


# ---- controls per phase --------------------------------------------------------------------
def _bid_controls(view: TenView, legal: list[str]) -> list[Control]:
    """Pass as a button, every bid in one menu (the lowest 24 and the highest if more)."""
    amounts = sorted(int(a.split(".")[1]) for a in legal if a.startswith("bid."))
    tokens = view["seats"][own_seat(view)]["tokens"]
    controls: list[Control] = []
    if "pass" in legal:
        controls.append(Button(pgettext("auction", "Pass"), "pass", "danger", row=0))
    if len(amounts) > MAX_OPTIONS:
        amounts = [*amounts[: MAX_OPTIONS - 1], amounts[-1]]
    options = tuple(
        (
            _("Bid {amount}", amount=a),
            f"bid.{a}",
            _("paid with tokens") if a <= tokens else _("needs bust tokens or cards"),
        )
        for a in amounts
    )
    if options:
        if len(amounts) == 1:
            placeholder = _("Bid {amount}…", amount=amounts[0])
        else:
            placeholder = _("Bid {low} to {high}…", low=amounts[0], high=amounts[-1])
        controls.append(Select(placeholder, options, row=1))
    return controls


def _pay_controls(view: TenView, legal: list[str]) -> list[Control]:
    """Buttons for the listed payments without cards (tokens first), a menu of the others.

    When every payment needs cards, there is no button: the menu names the cards each gives up.
    """
    wallet = Wallet(view)
    auction = required(view["auction"])  # paying: the wild and its price are set
    ways = wallet.ways(required(auction["price"]))
    by_action = {f"pay.{w.text}": w for w in ways}
    listed = [a for a in legal if a.startswith("pay.")]
    plain = [a for a in listed if a in by_action and not by_action[a].cards][:PAY_BUTTONS]
    controls: list[Control] = []
    for n, action in enumerate(plain):
        label = _pay(by_action[action].words())
        controls.append(Button(label, action, "primary" if n == 0 else "secondary", row=0))
    if "decline" in legal:
        controls.append(Button(_("Decline"), "decline", "danger", row=0))
    options = [
        (
            _fit(_pay, w),
            f"pay.{w.text}",
            _("your score after: {score}", score=wallet.score(w)),
        )
        for w in ways
        if f"pay.{w.text}" not in plain
    ][:MAX_OPTIONS]
    if options:
        placeholder = _("Pay differently (use cards)…") if plain else _("Pay with cards…")
        controls.append(Select(placeholder, tuple(options), row=1))
    return controls


def _buy_controls(view: TenView, legal: list[str]) -> list[Control]:
    """A menu of the cards to buy (tokens first), a menu of other payments, No purchase."""
    wallet = Wallet(view)
    score = view["seats"][own_seat(view)]["score"]
    offers: list[tuple[tuple[int, int, int], str, Way, list[Way]]] = []
    seen: set[str] = set()
    for n, entry in enumerate(required(view["me"])["market"]):
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
        for _key, card, way, _rest in offers[:MAX_OPTIONS]:
            after = wallet.score(way, card)
            gain = f" (+{after - score})" if after > score else ""
            desc = _score_change(score, after) + gain
            label = _fit(partial(_for, card_name(card)), way)
            options.append((label, f"buy.{card}.{way.text}", desc))
        controls.append(Select(_("Buy a card…"), tuple(options), row=0))
    others = [
        (
            _fit(partial(_for, card_text(card)), w),
            f"buy.{card}.{w.text}",
            _score_change(score, wallet.score(w, card)),
        )
        for card, w in _spread([(card, rest) for _key, card, _first, rest in offers])
    ]
    if others:
        placeholder = _("Pay differently (bust tokens / cards)…")
        controls.append(Select(placeholder, tuple(others), row=1))
    if "nobuy" in legal:
        controls.append(Button(_("No purchase"), "nobuy", "secondary", row=2))
    return controls


def _spread(per_card: list[tuple[str, list[Way]]]) -> list[tuple[str, Way]]:
    """At most 25 (card, way) pairs, shared fairly between the cards, grouped by card."""
    chosen: list[tuple[int, int, str, Way]] = []
    depth = 0
    while len(chosen) < MAX_OPTIONS and any(len(ways) > depth for _card, ways in per_card):
        for rank, (card, ways) in enumerate(per_card):
            if len(ways) > depth and len(chosen) < MAX_OPTIONS:
                chosen.append((rank, depth, card, ways[depth]))
        depth += 1
    chosen.sort(key=lambda c: (c[0], c[1]))
    return [(card, way) for _rank, _depth, card, way in chosen]


def _controls(view: TenView, legal: list[str]) -> list[Control]:
    if not legal:
        return []
    phase = view["phase"]
    if phase == "draw":
        controls: list[Control] = []
        if "draw" in legal:
            label = _("Draw (deck {count})", count=view["deck_size"])
            controls.append(Button(label, "draw", "primary"))
        if "stop" in legal:
            controls.append(Button(_("Stop"), "stop", "success"))
        return controls
    if phase == "reward":
        row_numbers = [c for c in view["row"] if card_kind(c) == "number"]
        currency = view["row_currency"]
        take = (
            _("Take the numbers: {cards}", cards=cards_text(row_numbers))
            if row_numbers
            else _("Take the numbers (the row has none)")
        )
        return [
            Button(take, "take.n", "primary"),
            Button(_("Take the currency: +{amount} 🪙", amount=currency), "take.c", "success"),
        ]
    if phase == "bid":
        return _bid_controls(view, legal)
    if phase in ("pay", "solo_wild"):
        return _pay_controls(view, legal)
    if phase in ("buy", "final_buy"):
        return _buy_controls(view, legal)
    return []


def hand_screen(view: TenView, legal: list[str], names: Names) -> HandScreen:
    seat = own_seat(view)
    me = view["seats"][seat]
    title, text = prompt(view, legal, names)
    lines = [text, ""]
    if view["phase"] in ROW_PHASES:
        lines += row_lines(view)
    covered = bool(legal) and view["phase"] in ("pay", "solo_wild")  # the prompt says it all
    extras = ("" if covered else auction_line(view, names), final_buys_line(view, names))
    lines += [x for x in (*extras, solo_line(view)) if x]
    fields: list[tuple[str, str, bool]] = [
        (
            _("You: {summary}", summary=seat_line(me)),
            "\n".join(colour_lines(me)) or _("No cards yet."),
            False,
        ),
        ("🛒 " + _("Market"), grouped(view["market"], empty_market()), False),
    ]
    others = [
        f"{names.label(s['seat'])}: {seat_line(s)}" for s in view["seats"] if s["seat"] != seat
    ]
    if others:
        fields.append((_("Others"), "\n".join(others), False))
    last = view.get("last_turn")
    if last and view["phase"] != "over":
        fields.append((_("Last turn"), turn_text(last, view, names), False))
    colour = GREEN if legal else (GOLD if view.get("outcome") else BLUE)
    panel = Panel(title, "\n".join(lines).strip(), tuple(fields), colour)
    return HandScreen(panels=(panel,), controls=tuple(_controls(view, legal)))


def _pay(payment: str) -> str:
    return _("Pay {payment}", payment=payment)


def _score_change(before: int, after: int) -> str:
    return _("your score {before} → {after}", before=before, after=after)
