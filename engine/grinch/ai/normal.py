"""A computer player for Grinch, Grow Your Heart, deciding from its own view only.

Idea: the worth of a five-card hand is the best of its still-empty rows, each row's cell value
reduced by what giving that row up costs the rounds still to come (``row_costs``). A partial
hand is worth the expected worth of its best completion: the policy deals the cards it will
still receive from the cards it has not seen (Monte Carlo, common samples for every candidate)
and keeps the best five of what it holds plus what it drew. Discards keep the candidate with
the best expectation; Grinch takes compare the deck with every pile top the same way; the row
choice is exact.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import combinations
from types import MappingProxyType
from typing import Any, Final

from engine.base import View
from engine.grinch.cards import BONUS_OF, CARD_INDEX, CARDS, RANK_OF, ROWS, SUIT_OF, SUITS
from engine.grinch.rules import ROUNDS

TURNS: Final = 3
HAND: Final = 5
ROUND_CARDS: Final = 7  # cards a player effectively chooses from in a round, for the model
MODEL_HANDS: Final = 240  # sampled rounds behind the model of later rounds
MODEL_SEED: Final = 2021

_SUIT: Final = tuple(SUITS.index(SUIT_OF[c]) for c in CARDS)
_RANK: Final = tuple(RANK_OF[c] for c in CARDS)
_BIT: Final = tuple(1 << r for r in _RANK)


def _bonus_rule(i: int) -> tuple[int, int, int] | None:
    """(suit index, points, cards of that suit needed in the hand counting the card itself)."""
    b = BONUS_OF.get(CARDS[i])
    if b is None:
        return None
    suit = SUITS.index(b.suit)
    return suit, b.points, b.need + (suit == _SUIT[i])


_BONUS: Final = tuple(_bonus_rule(i) for i in range(len(CARDS)))
_MATCH: Final = (0, 0, 0, 10, 20, 30)


def _run_points(mask: int) -> int:
    best = length = 0
    for rank in range(1, 7):
        length = length + 1 if mask >> rank & 1 else 0
        best = max(best, length)
    return 25 if best == 5 else 15 if best == 4 else 0


_RUN: Final = tuple(_run_points(m) for m in range(128))
_COMBOS: Final = {k: tuple(combinations(range(k), HAND)) for k in range(HAND, 12)}

Adjust = tuple[tuple[int, float], ...]  # (row index, cost of using it now) for free rows


def cells(hand: Sequence[int]) -> tuple[int, ...]:
    """Every row's cell value (base + bonus) for five card indices, in row order."""
    sums = [0, 0, 0, 0]
    tops = [0, 0, 0, 0]
    count = [0, 0, 0, 0]
    same = [0] * 7
    mask = 0
    for c in hand:
        s = _SUIT[c]
        r = _RANK[c]
        sums[s] += r
        count[s] += 1
        if r > tops[s]:  # noqa: PLR1730 - hot loop, cheaper than max()
            tops[s] = r
        same[r] += 1
        mask |= _BIT[c]
    extra = 0
    for c in hand:
        rule = _BONUS[c]
        if rule is not None and count[rule[0]] >= rule[2]:
            extra += rule[1]
    return (
        sums[0] + extra,
        sums[1] + extra,
        sums[2] + extra,
        sums[3] + extra,
        tops[0] + tops[1] + tops[2] + tops[3] + extra,
        _MATCH[max(same)] + extra,
        _RUN[mask] + extra,
    )


def hand_value(hand: Sequence[int], adjust: Adjust) -> float:
    """Best free row's cell value minus its cost, for five card indices."""
    values = cells(hand)
    return max(values[i] - cost for i, cost in adjust)


def model_rounds(count: int, seed: int) -> list[tuple[int, ...]]:
    """For sampled rounds of ROUND_CARDS random cards: each row's best cell from five of them."""
    rng = random.Random(seed)
    rounds = []
    for _ in range(count):
        cards = rng.sample(range(len(CARDS)), ROUND_CARDS)
        best = [0] * len(ROWS)
        for combo in _COMBOS[ROUND_CARDS]:
            for row, value in enumerate(cells([cards[k] for k in combo])):
                best[row] = max(best[row], value)
        rounds.append(tuple(best))
    return rounds


def future_values(rounds: list[tuple[int, ...]]) -> dict[tuple[int, int], float]:
    """V(free, k): expected points of k later rounds with the rows in bitmask ``free``.

    V(F, k) = mean over the sampled rounds of max over x in F of best[x] + V(F - x, k - 1).
    Only the pairs a game can ask for are built: after round r of an R-round game, |F| = 7 - r
    and k = R - r, so |F| - k = 7 - R, one of 1, 2, 3.
    """
    table: dict[tuple[int, int], float] = {}
    by_size: dict[int, list[int]] = {}
    for free in range(1 << len(ROWS)):
        by_size.setdefault(free.bit_count(), []).append(free)
    for gap in sorted({len(ROWS) - r for r in ROUNDS.values()}):
        for free in by_size[gap]:
            table[free, 0] = 0.0
        for k in range(1, len(ROWS) - gap + 1):
            for free in by_size[gap + k]:
                later = [
                    (x, table[free & ~(1 << x), k - 1]) for x in range(len(ROWS)) if free >> x & 1
                ]
                total = sum(max(best[x] + v for x, v in later) for best in rounds)
                table[free, k] = total / len(rounds)
    return table


def row_costs(table: Mapping[tuple[int, int], float], used: Sequence[str], after: int) -> Adjust:
    """For each free row: what filling it now costs the ``after`` later rounds."""
    free = sum(1 << i for i, row in enumerate(ROWS) if row not in used)
    rows = [i for i in range(len(ROWS)) if free >> i & 1]
    later = [table.get((free & ~(1 << i), after), 0.0) for i in rows]
    top = max(later)
    return tuple((i, top - v) for i, v in zip(rows, later, strict=True))


def best_five(cards: Sequence[int], adjust: Adjust) -> float:
    return max(
        hand_value([cards[a], cards[b], cards[c], cards[d], cards[e]], adjust)
        for a, b, c, d, e in _COMBOS[len(cards)]
    )


class GrinchPolicy:
    """Expected-value player: Monte Carlo completions of the hand, rows valued with costs."""

    def __init__(self, samples: int = 16) -> None:
        self.samples = samples
        self.future = MappingProxyType(future_values(model_rounds(MODEL_HANDS, MODEL_SEED)))

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        by_text = {str(a): a for a in legal}
        phase = view["phase"]
        adjust = row_costs(self.future, view["used_rows"] or [], view["rounds"] - view["round"])
        if phase == "SCORING":
            hand = [CARD_INDEX[c] for c in view["hand"]]
            texts = [t for t in by_text if t.startswith("r.")]
            usable = tuple((i, cost) for i, cost in adjust if f"r.{ROWS[i]}" in texts)
            best = max(usable, key=lambda ic: hand_value(hand, ((ic[0], ic[1]),)))
            return by_text[f"r.{ROWS[best[0]]}"]
        if phase in ("WHO_DISCARD", "GRINCH_DISCARD"):
            card = self._discard(view, adjust, rng)
            return by_text.get(f"d.{card}", legal[0])
        if phase == "GRINCH_TAKE":
            return by_text.get(self._take(view, list(by_text), adjust, rng), legal[0])
        return legal[0]

    # -------------------------------------------------------------- decisions

    def _unseen(self, view: View) -> list[int]:
        seen = set(view["hand"])
        for pile in view["piles"]:
            seen.update(pile)
        seen.update(t["card"] for t in view["takes"] if t["card"] is not None)
        return [i for i, c in enumerate(CARDS) if c not in seen]

    def _discard(self, view: View, adjust: Adjust, rng: random.Random) -> str:
        hand = [CARD_INDEX[c] for c in view["hand"]]
        future = 2 * (TURNS - view["turn"])
        keep = len(hand) - 1
        totals = [0.0] * len(hand)
        if future == 0:
            for d in range(len(hand)):
                totals[d] = hand_value(hand[:d] + hand[d + 1 :], adjust)
        else:
            pool = self._unseen(view)
            combos = _COMBOS[keep + 1 + future]
            for _ in range(self.samples):
                cards = hand + rng.sample(pool, future)
                best = [-1e9] * len(hand)
                for combo in combos:
                    v = hand_value([cards[k] for k in combo], adjust)
                    for d in range(len(hand)):
                        if d not in combo and v > best[d]:
                            best[d] = v
                for d in range(len(hand)):
                    totals[d] += best[d]
        top = max(range(len(hand)), key=lambda d: (totals[d], -_RANK[hand[d]]))
        return CARDS[hand[top]]

    def _take(self, view: View, texts: list[str], adjust: Adjust, rng: random.Random) -> str:
        hand = [CARD_INDEX[c] for c in view["hand"]]
        draws = (2 - view["takes_done"]) + 2 * (TURNS - view["turn"])
        options: dict[str, int | None] = {}
        for text in texts:
            if text == "t.deck":
                options[text] = None
            elif text.startswith("t.p"):
                options[text] = CARD_INDEX[view["piles"][int(text[3:])][-1]]
        pool = self._unseen(view)
        totals = dict.fromkeys(options, 0.0)
        if draws == 1:  # the last take of the round: the deck's expectation is exact
            for text, card in options.items():
                if card is not None:
                    totals[text] = best_five([*hand, card], adjust)
                else:
                    totals[text] = sum(best_five([*hand, c], adjust) for c in pool) / len(pool)
        else:
            for _ in range(self.samples):
                drawn = rng.sample(pool, draws)
                for text, card in options.items():
                    cards = hand + drawn if card is None else [*hand, card, *drawn[1:]]
                    totals[text] += best_five(cards, adjust)
        return max(options, key=lambda t: (totals[t], t != "t.deck"))


POLICY: Final = GrinchPolicy()
