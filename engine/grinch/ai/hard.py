"""The hard Grinch player: the normal player's valuation, searched harder and aimed at winning.

- More Monte Carlo samples, shared by every candidate (common random numbers).
- Exact play where the choices left are few: the turn-3 Grinch's first take is an
  expectimax over every deck card and the second take it allows, the last take and the
  last discard are exact.
- Later rounds are modelled with each seat's roles in them (``roles``): a seat that will be
  the Grinch again keeps its hardest rows for then.
- A hand is valued by the chance of winning the game it leads to, not by its points alone:
  each opponent's final total is modelled from their sheet (total so far plus the model of
  their free rows) with a normal spread per round still to play, so a player who is behind
  takes risks and one who is ahead plays safe.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations
from types import MappingProxyType
from typing import Any, Final

from engine.base import View
from engine.grinch.ai.normal import TURNS, Adjust, GrinchPolicy, cells
from engine.grinch.ai.roles import RoleModel, free_mask, roles_after
from engine.grinch.cards import CARD_INDEX, CARDS, ROWS

SAMPLES: Final = 64
SPREAD: Final = 9.0  # standard deviation of one player's points in one round, for the model
TIE_WEIGHT: Final = 0.002  # weight of plain points next to the winning chance

_COMBOS: Final = {k: tuple(combinations(range(k), 5)) for k in range(5, 12)}


def _free_mask(sheet_row: Mapping[str, int | None]) -> int:
    return sum(1 << i for i, row in enumerate(ROWS) if sheet_row.get(row) is None)


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


class HardPolicy(GrinchPolicy):
    """Win-chance player: more samples, exact endings, the opponents' totals counted."""

    def __init__(
        self,
        samples: int = SAMPLES,
        spread: float = SPREAD,
        future: MappingProxyType[tuple[int, int], float] | None = None,
        roles: RoleModel | None = None,
    ) -> None:
        """``future`` is the normal player's model of later rounds (``normal.future_values``),
        built again when not given; ``roles`` the model by roles that this player plays by."""
        if future is None:
            super().__init__(samples)
        else:
            self.samples = samples
            self.future = future
        self.spread = spread
        self.roles = roles if roles is not None else RoleModel()

    # ------------------------------------------------------------ the valuation

    def _utility(self, view: View, after: int) -> Callable[[float], float]:
        """Map a hand's value (cell minus row cost) to the chance of winning, plus a little
        of the value itself so that a decided game still prefers more points."""
        me = view["seat"]
        sheet = view["sheet"]
        totals = view["totals"]
        players, now, rounds = view["players"], view["round"], view["rounds"]
        mine = _free_mask(sheet[me])
        ahead = roles_after(me, players, now, rounds)
        later = [self.roles.value(mine & ~(1 << i), ahead) for i in range(len(ROWS))]
        top = max((v for i, v in enumerate(later) if mine >> i & 1), default=0.0)
        base = totals[me] + top
        rivals = []
        for j in range(players):
            if j == me:
                continue
            theirs = roles_after(j, players, now - 1, rounds)
            expected = totals[j] + self.roles.value(_free_mask(sheet[j]), theirs)
            sigma = self.spread * math.sqrt(2 * after + 1)
            rivals.append((base - expected, sigma))

        def utility(value: float) -> float:
            chance = 1.0
            for lead, sigma in rivals:
                chance *= _phi((lead + value) / sigma)
            return chance + TIE_WEIGHT * value

        return utility

    def choose(self, view: View, legal: list[Any], rng: random.Random) -> Any:
        phase = view["phase"]
        if view["seat"] is None:
            return super().choose(view, legal, rng)
        by_text = {str(a): a for a in legal}
        after = view["rounds"] - view["round"]
        ahead = roles_after(view["seat"], view["players"], view["round"], view["rounds"])
        adjust = self.roles.costs(free_mask(view["used_rows"] or []), ahead)
        utility = self._utility(view, after)
        value = _Valuer(adjust, utility)
        if phase == "SCORING":
            return by_text[self._row(view, list(by_text), adjust, utility)]
        if phase in ("WHO_DISCARD", "GRINCH_DISCARD"):
            scored = self._discards(view, value, rng)
        elif phase == "GRINCH_TAKE":
            scored = self._takes(view, list(by_text), value, rng)
        else:
            return legal[0]
        options = [t for t in scored if t in by_text]
        if not options:
            return legal[0]
        best = max(options, key=lambda t: (scored[t], t != "t.deck", -len(t), t))
        return by_text[best]

    # ------------------------------------------------------------ decisions

    @staticmethod
    def _row(
        view: View, texts: list[str], adjust: Adjust, utility: Callable[[float], float]
    ) -> str:
        """The row whose cell, less what it costs the rounds to come, wins most often."""
        values = cells([CARD_INDEX[c] for c in view["hand"]])
        usable = [(i, cost) for i, cost in adjust if f"r.{ROWS[i]}" in texts]
        best = max(usable, key=lambda ic: (utility(values[ic[0]] - ic[1]), -ic[0]))
        return f"r.{ROWS[best[0]]}"

    def _discards(self, view: View, value: _Valuer, rng: random.Random) -> dict[str, float]:
        hand = [CARD_INDEX[c] for c in view["hand"]]
        future = 2 * (TURNS - view["turn"])
        pool = self._unseen(view)
        totals = [0.0] * len(hand)
        if future == 0:
            for d in range(len(hand)):
                totals[d] = value.of(hand[:d] + hand[d + 1 :])
        else:
            combos = _COMBOS[len(hand) + future]
            for _ in range(self.samples):
                cards = hand + rng.sample(pool, future)
                best = [-1e9] * len(hand)
                for combo in combos:
                    v = value.raw([cards[k] for k in combo])
                    for d in range(len(hand)):
                        if d not in combo and v > best[d]:
                            best[d] = v
                for d in range(len(hand)):
                    totals[d] += value.utility(best[d]) / self.samples
        return {f"d.{CARDS[card]}": totals[d] for d, card in enumerate(hand)}

    def _takes(
        self, view: View, texts: list[str], value: _Valuer, rng: random.Random
    ) -> dict[str, float]:
        hand = [CARD_INDEX[c] for c in view["hand"]]
        draws = (2 - view["takes_done"]) + 2 * (TURNS - view["turn"])
        piles: list[list[int]] = [[CARD_INDEX[c] for c in p] for p in view["piles"]]
        options: dict[str, int | None] = {}
        for text in texts:
            if text == "t.deck":
                options[text] = None
            elif text.startswith("t.p"):
                options[text] = int(text[3:])
        pool = self._unseen(view)
        if draws == 1:
            return {t: self._last_take(hand, s, piles, pool, value) for t, s in options.items()}
        if draws == 2:
            return {t: self._two_takes(hand, s, piles, pool, value) for t, s in options.items()}
        totals = dict.fromkeys(options, 0.0)
        for _ in range(self.samples):
            drawn = rng.sample(pool, draws)
            for text, seat in options.items():
                cards = hand + drawn if seat is None else [*hand, piles[seat][-1], *drawn[1:]]
                totals[text] += value.best(cards)
        return totals

    @staticmethod
    def _last_take(
        hand: list[int], seat: int | None, piles: list[list[int]], pool: list[int], value: _Valuer
    ) -> float:
        if seat is not None:
            return value.best([*hand, piles[seat][-1]])
        return sum(value.best([*hand, c]) for c in pool) / len(pool)

    def _two_takes(
        self,
        hand: list[int],
        seat: int | None,
        piles: list[list[int]],
        pool: list[int],
        value: _Valuer,
    ) -> float:
        """The first of the round's last two takes: every deck card, then the best second."""
        if seat is not None:
            rest = [list(p) for p in piles]
            card = rest[seat].pop()
            return self._second([*hand, card], rest, pool, value)
        total = 0.0
        for i, card in enumerate(pool):
            total += self._second([*hand, card], piles, pool[:i] + pool[i + 1 :], value)
        return total / len(pool)

    @staticmethod
    def _second(hand: list[int], piles: list[list[int]], pool: list[int], value: _Valuer) -> float:
        deck = sum(value.best([*hand, c]) for c in pool) / len(pool)
        tops = (value.best([*hand, p[-1]]) for p in piles if p)
        return max(deck, *tops)


def _key(hand: Sequence[int]) -> int:
    """A set of card indices as a bit mask."""
    key = 0
    for c in hand:
        key |= 1 << c
    return key


class _Valuer:
    """One decision's valuation of five-card hands, remembered by their set of cards: ``raw``
    the best free row's cell less its cost, ``of`` that value's utility (``raw`` orders hands
    as ``of`` does, the utility rising with the value)."""

    def __init__(self, adjust: Adjust, utility: Callable[[float], float]) -> None:
        self.adjust = adjust
        self.utility = utility
        self.memo: dict[int, float] = {}
        self.raws: dict[int, float] = {}

    def raw(self, hand: Sequence[int]) -> float:
        key = _key(hand)
        known = self.raws.get(key)
        if known is None:
            values = cells(hand)
            known = float(max(values[i] - cost for i, cost in self.adjust))
            self.raws[key] = known
        return known

    def of(self, hand: Sequence[int]) -> float:
        key = _key(hand)
        known = self.memo.get(key)
        if known is None:
            known = self.utility(self.raw(hand))
            self.memo[key] = known
        return known

    def best(self, cards: Sequence[int]) -> float:
        return max(
            self.of([cards[a], cards[b], cards[c], cards[d], cards[e]])
            for a, b, c, d, e in _COMBOS[len(cards)]
        )
