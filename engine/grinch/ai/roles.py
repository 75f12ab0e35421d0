"""A model of later rounds that knows who will be the Grinch in each of them.

The normal player's model (``normal.future_values``) treats every later round alike: a hand is
the best five of seven random cards. But the Grinch of a round chooses from more cards (two
takes a turn, from the deck or any pile) than a Who, who keeps five of the eight cards dealt
and drawn, one discard at a time. So a row that needs luck (match, run) is worth more in a
round where this seat will be the Grinch: the hard player saves such rows for those rounds,
and reads its opponents' prospects the same way.

The Grinch of round r is seat ``(r - 1) mod n`` (rules §3.2), so every seat's sequence of
roles is known from the start. ``RoleModel.value(free, roles)`` is the expected points of the
rounds still to play, in order, with the rows in bitmask ``free``; values are computed when
first asked for and kept.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import combinations
from typing import Final

from engine.grinch.ai.normal import cells
from engine.grinch.cards import CARDS, ROWS

WHO_CARDS: Final = 7  # cards a Who effectively chooses its five from, for the model
GRINCH_CARDS: Final = 9  # the same for the Grinch, who also takes from the piles
MODEL_HANDS: Final = 200
MODEL_SEED: Final = 2021

Roles = tuple[bool, ...]  # for each round still to play, in order: is this seat the Grinch?


def sampled_rounds(cards: int, count: int, seed: int) -> list[tuple[int, ...]]:
    """For ``count`` sampled rounds of ``cards`` random cards: each row's best cell of five."""
    rng = random.Random(seed)
    combos = tuple(combinations(range(cards), 5))
    rounds = []
    for _ in range(count):
        drawn = rng.sample(range(len(CARDS)), cards)
        best = [0] * len(ROWS)
        for combo in combos:
            for row, value in enumerate(cells([drawn[k] for k in combo])):
                best[row] = max(best[row], value)
        rounds.append(tuple(best))
    return rounds


def roles_after(seat: int, players: int, round_no: int, rounds: int) -> Roles:
    """``seat``'s roles in the rounds after ``round_no``."""
    return tuple((r - 1) % players == seat for r in range(round_no + 1, rounds + 1))


class RoleModel:
    """Expected points of the rounds to come, by free rows and the seat's roles in them."""

    def __init__(self, hands: int = MODEL_HANDS, seed: int = MODEL_SEED) -> None:
        self._samples = {
            False: sampled_rounds(WHO_CARDS, hands, seed),
            True: sampled_rounds(GRINCH_CARDS, hands, seed + 1),
        }
        self._values: dict[tuple[int, Roles], float] = {}

    def value(self, free: int, roles: Roles) -> float:
        """V(F, (g, *rest)) = mean over role g's sampled rounds of the best x in F of
        best[x] + V(F - x, rest); V(F, ()) = 0."""
        if not roles:
            return 0.0
        key = (free, roles)
        known = self._values.get(key)
        if known is not None:
            return known
        rest = roles[1:]
        later = [(x, self.value(free & ~(1 << x), rest)) for x in range(len(ROWS)) if free >> x & 1]
        samples = self._samples[roles[0]]
        total = 0.0
        for best in samples:
            total += max(best[x] + v for x, v in later)
        known = total / len(samples)
        self._values[key] = known
        return known

    def costs(self, free: int, roles: Roles) -> tuple[tuple[int, float], ...]:
        """For each free row: what filling it now costs the rounds in ``roles``."""
        rows = [i for i in range(len(ROWS)) if free >> i & 1]
        later = [self.value(free & ~(1 << i), roles) for i in rows]
        top = max(later)
        return tuple((i, top - v) for i, v in zip(rows, later, strict=True))


def free_mask(used: Sequence[str]) -> int:
    return sum(1 << i for i, row in enumerate(ROWS) if row not in used)
