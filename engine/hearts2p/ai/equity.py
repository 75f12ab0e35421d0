"""The hard player's game-win model: the exact chance of winning from two totals.

The normal player turns totals into a chance of winning with a smooth formula (a logistic in
the score difference). That formula knows neither how lumpy a hand's result is (the queen of
spades alone is 13 points, and nearly one hand in five is a moon that gives the other seat 20)
nor the exact end rule, so near 100 it misjudges which results win and which lose the game.

Here the chance is computed instead, by dynamic programming over all pairs of totals below
100: from a pair of totals, the next hand's result is drawn from ``HAND_RESULTS`` (how often
each split of points occurs between two computer players of about equal strength, counted
from both seats so that it is symmetric), and the game ends as section 5.3 says once a
total reaches 100 (the lower total wins; equal totals play on, which is even odds).
"""

from __future__ import annotations

from functools import cache

from engine.hearts2p.ai.normal import hand_utility
from engine.hearts2p.ai.sim import Utility
from engine.hearts2p.scoring import TARGET

# (points of one seat, points of the other, how often) for one hand's result.
HAND_RESULTS: tuple[tuple[int, int, int], ...] = (
    (0, 20, 39),
    (1, 17, 4),
    (1, 18, 11),
    (1, 19, 20),
    (2, 4, 2),
    (2, 5, 4),
    (2, 17, 16),
    (2, 18, 19),
    (3, 4, 2),
    (3, 16, 8),
    (3, 17, 14),
    (4, 2, 2),
    (4, 3, 2),
    (4, 14, 3),
    (4, 15, 11),
    (4, 16, 10),
    (5, 2, 4),
    (5, 13, 9),
    (5, 14, 3),
    (5, 15, 16),
    (6, 13, 8),
    (7, 13, 7),
    (13, 5, 9),
    (13, 6, 8),
    (13, 7, 7),
    (14, 4, 3),
    (14, 5, 3),
    (15, 4, 11),
    (15, 5, 16),
    (16, 3, 8),
    (16, 4, 10),
    (17, 1, 4),
    (17, 2, 16),
    (17, 3, 14),
    (18, 1, 11),
    (18, 2, 19),
    (19, 1, 20),
    (20, 0, 39),
)


def _terminal(mine: int, theirs: int) -> float:
    if mine == theirs:
        return 0.5
    return 1.0 if mine < theirs else 0.0


@cache
def _table() -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance of winning from totals ``a`` (mine) and ``b``, both < 100.

    Every hand gives at least one point, so a result only leads to larger totals: filling
    the table from the largest totals down, every entry needed is already known.
    """
    total = sum(n for _, _, n in HAND_RESULTS)
    results = [(x, y, n / total) for x, y, n in HAND_RESULTS]
    rows = [[0.0] * TARGET for _ in range(TARGET)]
    for a in range(TARGET - 1, -1, -1):
        row = rows[a]
        for b in range(TARGET - 1, -1, -1):
            value = 0.0
            for x, y, p in results:
                m, t = a + x, b + y
                value += p * (rows[m][t] if m < TARGET and t < TARGET else _terminal(m, t))
            row[b] = value
    return tuple(tuple(r) for r in rows)


def game_equity(mine: int, theirs: int) -> float:
    """The chance of winning the game from these totals at the end of a hand."""
    if max(mine, theirs) >= TARGET:
        return _terminal(mine, theirs)
    return _table()[mine][theirs]


def equity_utility(totals: tuple[int, int]) -> Utility:
    """utility(points_me, points_opp, took_me, took_opp): the game-win chance after the hand
    being played, a moon scored as section 5.2 says."""
    return hand_utility(totals, game_equity)
