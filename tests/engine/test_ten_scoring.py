"""Ten scoring: every vector of rules §9.1, and the optimum checked against brute force."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.ten.cards import COLOURS, deck_for
from engine.ten.scoring import run_points, score_collection, score_detail


def _expand(text: str) -> list[str]:
    """``R1–R9`` style ranges and plain types, as in the rules' table."""
    out: list[str] = []
    for token in text.split():
        if "–" in token:
            first, last = token.split("–")
            out.extend(f"{first[0]}{n}" for n in range(int(first[1]), int(last[1]) + 1))
        else:
            out.append(token)
    return out


# (id, collection, (R, B, O, G) or None when several splits are optimal, total)
VECTORS = [
    ("S1", "B1 B2 B3 B5 B7", (0, 3, 0, 0), 3),
    ("S2", "R1 R2 R3 R4 R5 R6 R7 R8 R9", (10, 0, 0, 0), 10),
    ("S3", "R1 R2 R3 R4 R5 R6 R7 R8", (8, 0, 0, 0), 8),
    ("S4", "R1 R2 R3 R4 R5 R6 R7 R8 R#", (10, 0, 0, 0), 10),
    ("S5", "R1 R2 R3 R5 R6 R7 R#", (7, 0, 0, 0), 7),
    ("S6", "O2 O2 O3 O3 O4", (0, 0, 3, 0), 3),
    ("S7", "G1 G2 G3 G4 G6 G7 G8 G9 W#", (0, 0, 0, 10), 10),
    ("S8", "R# R#", (2, 0, 0, 0), 2),
    ("S9", "", (0, 0, 0, 0), 0),
    ("S10", "R1 R2 R3 R4 R6 R7 R8 R9 B1 B2 B3 B4 B5 B6 B7 B8 W#", (10, 8, 0, 0), 18),
    ("S11", "R1 R2 R3 R4 R6 R7 R8 R9 B1 B2 B3 B5 B# W5", (10, 5, 0, 0), 15),
    ("S12", "R1 R2 R3 R6 R7 R8 R# R#", (8, 0, 0, 0), 8),
    ("S13", "R1 R2 R3 R6 R7 R8 R#", (4, 0, 0, 0), 4),
    ("S14", "R1 R2 R3 R4 R5 G1 G2 G3 B4 B5 O7", (5, 2, 1, 3), 11),
    ("S15", "R1 R2 R4 R5 B1 B2 B4 B5 W3 W#", (5, 5, 0, 0), 10),
    ("S16", "O5 O6 O7 O8 O9 O# W1 W2 W3", (0, 0, 10, 0), 10),
    ("S17", "B1 B3 B5 B7 B9 W2 W4 W6 W8", (0, 10, 0, 0), 10),
    ("S18", "W#", None, 1),
    ("S19", "R2 R3 R4 R5 R6 R7 R8 W9", None, 8),
    ("S20", "R1 R2 R3 R5 B3 B5 B6 B7 W4", None, 8),
    ("S21", "R1–R9 G1–G9 O5 W#", None, 22),
    ("S22", "G9 G# G# W#", None, 4),
]


def _ids(types: list[str]) -> list[str]:
    """Give each type a distinct real card id (copies a, b, c in turn)."""
    seen: dict[str, int] = {}
    out = []
    for t in types:
        k = seen.get(t, 0)
        seen[t] = k + 1
        out.append(t if t[0] == "W" else f"{t}{'abc'[k]}")
    return out


@pytest.mark.parametrize(("vid", "text", "split", "total"), VECTORS, ids=[v[0] for v in VECTORS])
def test_scoring_vector(vid: str, text: str, split: tuple[int, ...] | None, total: int) -> None:
    cards = _ids(_expand(text))
    detail = score_detail(cards)
    assert detail.total == total
    assert score_collection(cards) == total
    assert score_collection(_expand(text)) == total  # card types are accepted too
    if split is not None:
        assert tuple(detail.colours[c] for c in COLOURS) == split
    _check_detail_consistent(cards, detail.total, detail.wilds, detail.runs)


def _fits(wild: str, colour: str, n: int) -> bool:
    if wild[0] == "W":
        return wild[1] in ("#", str(n))
    return wild[0] == colour


def _check_detail_consistent(
    cards: list[str],
    total: int,
    wilds: dict[str, str],
    runs: dict[str, tuple[int, int] | None],
) -> None:
    """The reported runs and wild placement really give the reported total."""
    assert len(set(wilds.values())) == len(wilds)
    points = 0
    for colour in COLOURS:
        run = runs[colour]
        if run is None:
            continue
        lo, hi = run
        for n in range(lo, hi + 1):
            slot = f"{colour}{n}"
            held = any(c[:2] == slot for c in cards)
            placed = [w for w, s in wilds.items() if s == slot]
            assert held or placed, f"{slot} of the run {run} is neither held nor filled"
            for wild in placed:
                assert _fits(wild, colour, n)
        points += run_points(hi - lo + 1)
    assert points == total


def _brute(cards: list[str]) -> int:
    """Try every placement of every wild (or none) and score plain runs."""
    numbers = [c for c in cards if c[0] != "W" and c[1] != "#"]
    wilds = [c for c in cards if c not in numbers]
    options = []
    for wild in wilds:
        slots: list[tuple[str, int] | None] = [None]
        for colour in COLOURS:
            for n in range(1, 10):
                if _fits(wild, colour, n):
                    slots.append((colour, n))
        options.append(slots)
    best = 0
    for placement in itertools.product(*options):
        filled = {(c[0], int(c[1])) for c in numbers} | {s for s in placement if s}
        total = 0
        for colour in COLOURS:
            longest = run = 0
            for n in range(1, 10):
                run = run + 1 if (colour, n) in filled else 0
                longest = max(longest, run)
            total += run_points(longest)
        best = max(best, total)
    return best


def test_optimum_matches_brute_force() -> None:
    rng = random.Random(2021)
    pool = list(deck_for(5))
    numbers = [c for c in pool if c[0] in COLOURS and c[1] != "#"]
    wilds = [c for c in pool if c[0] == "W" or c[1] == "#"]
    for case in range(160):
        count = 3 if case % 8 == 0 else rng.randint(0, 2)
        cards = rng.sample(numbers, rng.randint(0, 16)) + rng.sample(wilds, count)
        detail = score_detail(cards)
        assert detail.total == _brute(cards), cards
        _check_detail_consistent(cards, detail.total, detail.wilds, detail.runs)


def test_many_wilds_are_fast_and_consistent() -> None:
    wilds = [c for c in deck_for(5) if c[0] == "W" or c[1] == "#"]
    assert len(wilds) == 18
    detail = score_detail(wilds)
    assert detail.total == 19  # 18 slots filled, one full run (two would need 18 colour fits)
    _check_detail_consistent(wilds, detail.total, detail.wilds, detail.runs)


def test_currency_ignored_and_garbage_rejected() -> None:
    assert score_collection(["R1a", "C3a"]) == 1
    with pytest.raises(ValueError):
        score_collection(["X9"])
