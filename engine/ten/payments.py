"""Ten: payments for auctions, purchases and the solo wild offer (rules §4.6).

A payment is ``t`` currency tokens, ``b`` bust tokens (worth 3 each) and cards from the payer's
collection (worth 1 each). It must reach the price and carry no needless item: the excess must
be below the smallest unit used (1 if any token or card is used, else 3).

**Cards are named by type** (``R5``, ``R#``, ``W3``, ``W#``): copies of a type are identical in
every respect, so the engine spends the held copies of a type in copy order (``R5a`` before
``R5b``). This keeps the text form short.

**Text form** ``<t>.<b>[.<cards>]`` (used after ``pay.`` and ``buy.<card>.``). The cards field
lists groups in the order R B O G W; each group is its letter followed by one character per card:
the digit of the number, or ``x`` for ``#``. Example: R1, R1, R#, B2, W3, W# -> ``R11xB2W3x``.
When that would be longer than :data:`READABLE_MAX` characters (only for very large auction
payments), the field is ``z`` followed by the card-count vector packed in base 36.

**What legal_actions lists.** The set of legal payments can be huge (any choice of cards), so
``legal_actions`` lists, for each possible number of bust tokens ``b``, the single payment that
uses the most currency tokens and fills any gap with the payer's *cheapest* cards (those whose
loss lowers the score least, duplicates first). ``apply`` accepts every legal payment, and
:func:`payment_options` / :func:`payment_with_cards` help a UI build any other.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, TypedDict

from engine.base import IllegalAction
from engine.ten.cards import (
    BUST_VALUE,
    CARD_INDEX,
    COLLECTION_TYPES,
    GROUPS,
    TYPE_INDEX,
    TYPE_MAX,
    is_number,
)
from engine.ten.scoring import score_collection, score_detail

READABLE_MAX: Final = 24
_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"


def _type_key(ctype: str) -> int:
    return TYPE_INDEX[ctype]


@dataclass(frozen=True, slots=True)
class Payment:
    """``tokens`` currency tokens, ``bust`` bust tokens and collection cards named by type."""

    tokens: int = 0
    bust: int = 0
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.tokens < 0 or self.bust < 0:
            raise ValueError("negative payment")
        for ctype in self.cards:
            if ctype not in TYPE_INDEX:
                raise ValueError(f"not a collection card type: {ctype!r}")
        counts = Counter(self.cards)
        if any(n > TYPE_MAX[t] for t, n in counts.items()):
            raise ValueError("more copies than the game has")
        object.__setattr__(self, "cards", tuple(sorted(self.cards, key=_type_key)))

    @property
    def value(self) -> int:
        return self.tokens + BUST_VALUE * self.bust + len(self.cards)

    @property
    def text(self) -> str:
        head = f"{self.tokens}.{self.bust}"
        return f"{head}.{encode_cards(self.cards)}" if self.cards else head

    def __str__(self) -> str:
        return self.text


# ---- card-field codec ----------------------------------------------------------------------
def encode_cards(types: Sequence[str]) -> str:
    """The cards field for sorted card types (see the module docstring)."""
    parts: list[str] = []
    for grp in GROUPS:
        chars = "".join("x" if t[1] == "#" else t[1] for t in types if t[0] == grp)
        if chars:
            parts.append(grp + chars)
    readable = "".join(parts)
    if len(readable) <= READABLE_MAX:
        return readable
    counts = Counter(types)
    number = 0
    for ctype in reversed(COLLECTION_TYPES):
        number = number * (TYPE_MAX[ctype] + 1) + counts.get(ctype, 0)
    packed = ""
    while number:
        number, digit = divmod(number, 36)
        packed = _DIGITS[digit] + packed
    return "z" + packed


def decode_cards(field: str) -> tuple[str, ...]:
    """Inverse of :func:`encode_cards`; raises ValueError on garbage."""
    if not field:
        raise ValueError("empty cards field")
    if field[0] == "z":
        if len(field) < 2 or any(ch not in _DIGITS for ch in field[1:]):
            raise ValueError("bad packed cards")
        number = int(field[1:], 36)
        out: list[str] = []
        for ctype in COLLECTION_TYPES:
            number, count = divmod(number, TYPE_MAX[ctype] + 1)
            out.extend([ctype] * count)
        if number:
            raise ValueError("packed cards out of range")
        return tuple(out)
    out = []
    grp = ""
    for ch in field:
        if ch in GROUPS:
            grp = ch
        elif grp and (ch == "x" or ch in "123456789"):
            out.append(grp + ("#" if ch == "x" else ch))
        else:
            raise ValueError("bad cards field")
    return tuple(out)


def parse_payment(parts: Sequence[str]) -> Payment:
    """``["3", "0"]`` or ``["3", "0", "R1B2"]`` -> a Payment; canonical text only."""
    if len(parts) not in (2, 3):
        raise ValueError("a payment is <tokens>.<bust>[.<cards>]")
    tokens, bust = (_small_int(p) for p in parts[:2])
    cards = decode_cards(parts[2]) if len(parts) == 3 else ()
    payment = Payment(tokens, bust, cards)
    if payment.text != ".".join(parts):
        raise ValueError("not the canonical payment text")
    return payment


def _small_int(text: str) -> int:
    if not text.isdigit() or not text.isascii() or len(text) > 3:
        raise ValueError("bad number")
    return int(text)


# ---- checking and spending -----------------------------------------------------------------
def payment_problem(
    payment: Payment, price: int, tokens: int, bust: int, collection: Iterable[str]
) -> IllegalAction | None:
    """Why ``payment`` is not a legal payment of ``price`` for this payer (None if legal).

    The reason is an unraised :class:`IllegalAction` (a template and its values), so the
    caller raises it as it is and a translation keeps the values.
    """
    if payment.tokens > tokens:
        return IllegalAction("You do not have that many currency tokens.")
    if payment.bust > bust:
        return IllegalAction("You do not have that many bust tokens.")
    held = Counter(card[:2] for card in collection)
    need = Counter(payment.cards)
    if any(held[t] < n for t, n in need.items()):
        return IllegalAction("You can only pay with cards from your own collection.")
    if payment.value < price:
        return IllegalAction(
            "That payment is worth {value}; the price is {price}.",
            value=payment.value,
            price=price,
        )
    unit = 1 if payment.tokens or payment.cards else BUST_VALUE
    if payment.value - price >= unit:
        return IllegalAction("That payment includes something you do not need to spend.")
    return None


def spend_cards(collection: Sequence[str], types: Sequence[str]) -> tuple[list[str], list[str]]:
    """(remaining collection, spent card ids): each type spends the lowest held copy first."""
    remaining = list(collection)
    spent: list[str] = []
    for ctype in types:
        copies = sorted((c for c in remaining if c[:2] == ctype), key=CARD_INDEX.__getitem__)
        remaining.remove(copies[0])
        spent.append(copies[0])
    return remaining, spent


# ---- building payments ---------------------------------------------------------------------
def cheapest_cards(collection: Sequence[str]) -> list[str]:
    """The collection's card ids, cheapest to spend first.

    Spare copies of a number card held twice or more come first (they add nothing), then every
    other card by how much losing it lowers the score, then from the weakest colour first, then
    in canonical order. Copies of
    one type are listed lowest copy first, the order in which payments spend them.

    A card the best scoring does not use costs nothing to lose: the best runs and wild
    assignment stand without it, and no card lowers a score (every run the smaller collection
    can make, the larger one can too). Only the cards in use are scored again without them —
    the search with wilds is the engine's costliest step.
    """
    detail = score_detail(collection)
    base = detail.total
    wilds_used = Counter(card[:2] for card in detail.wilds)
    by_type: dict[str, list[str]] = {}
    for card in sorted(collection, key=CARD_INDEX.__getitem__):
        by_type.setdefault(card[:2], []).append(card)
    spare: list[str] = []
    rest: list[tuple[int, int, int, str]] = []
    for ctype, copies in by_type.items():
        kept = copies
        if is_number(copies[0]) and len(copies) > 1:
            spare.extend(copies[:-1])
            kept = copies[-1:]
        if is_number(ctype):
            run = detail.runs.get(ctype[0])
            in_use = run is not None and run[0] <= int(ctype[1]) <= run[1]
        else:  # a wild: the type is in use when every copy held is assigned
            in_use = wilds_used[ctype] >= len(copies)
        loss = 0
        if in_use:
            without = list(collection)
            for card in copies[: len(copies) - len(kept) + 1]:  # the spares go first
                without.remove(card)
            loss = base - score_collection(without)
        strength = detail.colours.get(kept[0][0], 0)  # wilds: 0
        rest.extend((loss, strength, CARD_INDEX[card], card) for card in kept)
    rest.sort()
    return spare + [card for *_, card in rest]


def payment_shapes(price: int, tokens: int, bust: int, cards: int) -> list[tuple[int, int, int]]:
    """Every legal (tokens, bust tokens, number of cards) for ``price``, tokens first."""
    shapes: list[tuple[int, int, int]] = []
    for b in range(min(bust, -(-price // BUST_VALUE)) + 1):
        rest = price - BUST_VALUE * b
        if rest <= 0:
            shapes.append((0, b, 0))
            continue
        for t in range(min(tokens, rest), max(0, rest - cards) - 1, -1):
            shapes.append((t, b, rest - t))
    shapes.sort(key=lambda s: (s[2] > 0, s[2], s[1]))
    return shapes


def canonical_payments(
    price: int, tokens: int, bust: int, collection: Sequence[str], order: list[str] | None = None
) -> list[Payment]:
    """Per bust-token count, the payment using the most currency tokens, then cheapest cards."""
    best: dict[int, tuple[int, int, int]] = {}
    for shape in payment_shapes(price, tokens, bust, len(collection)):
        if shape[1] not in best or shape[0] > best[shape[1]][0]:
            best[shape[1]] = shape
    if not best:
        return []
    if order is None and any(s[2] for s in best.values()):
        order = cheapest_cards(collection)
    out = []
    for t, b, k in sorted(best.values(), key=lambda s: (s[2] > 0, s[2], s[1])):
        out.append(Payment(t, b, tuple(c[:2] for c in (order or [])[:k])))
    return out


class PaymentOption(TypedDict):
    """One way to pay: counts, value and lost excess, and a suggested card choice."""

    tokens: int
    bust: int
    cards: int  # how many collection cards to add (the player may pick any of that many)
    value: int
    excess: int  # value above the price, lost
    suggested: list[str]  # card ids the engine would pick (cheapest first)
    text: str  # payment text with the suggested cards, for "pay.<text>" / "buy.<card>.<text>"


def options_for(
    price: int, tokens: int, bust: int, collection: Sequence[str]
) -> list[PaymentOption]:
    """Every legal payment shape for ``price``, proposing currency first, cards last."""
    shapes = payment_shapes(price, tokens, bust, len(collection))
    order = cheapest_cards(collection) if any(s[2] for s in shapes) else []
    out: list[PaymentOption] = []
    for t, b, k in shapes:
        chosen = order[:k]
        payment = Payment(t, b, tuple(c[:2] for c in chosen))
        out.append(
            PaymentOption(
                tokens=t,
                bust=b,
                cards=k,
                value=payment.value,
                excess=payment.value - price,
                suggested=chosen,
                text=payment.text,
            )
        )
    return out


def with_cards(
    price: int, tokens: int, bust: int, collection: Sequence[str], chosen: Sequence[str]
) -> Payment | None:
    """The legal payment spending exactly the chosen card ids, tokens first (None if none)."""
    pool = list(collection)
    for card in chosen:
        if card not in pool:
            return None
        pool.remove(card)
    types = tuple(c[:2] for c in chosen)
    rest = price - len(types)
    trials = [Payment(rest - BUST_VALUE * b, b, types) for b in range(bust + 1) if rest >= 3 * b]
    if not types:
        trials.append(Payment(0, -(-price // BUST_VALUE)))
    for payment in trials:
        if payment_problem(payment, price, tokens, bust, collection) is None:
            return payment
    return None
