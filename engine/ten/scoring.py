"""Ten: scoring a collection with the best wild assignment (rules §5, ruling 21).

Per colour the player scores the length ``L`` of one run ``lo..hi`` of consecutive numbers
(``L = 9`` scores 10). Numbers the run lacks must be filled by distinct wilds compatible with the
slot (colour wild: its colour; number wild: its number; super wild: anything). The engine picks
the runs and the wild assignment that maximise the total.

Method: per colour only *maximal* intervals are candidates (an interval that could be widened
over a card the player holds is beaten by the wider one at no cost in wilds). A depth-first
search over the four colours tries candidates best first, keeps a bipartite matching of missing
slots to wilds (augmenting paths), and prunes with a knapsack bound on the wild count.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from engine.ten.cards import COLLECTION_TYPES, COLOURS, FULL_RUN_POINTS

Slot = tuple[str, int]  # (colour, number)
COLLECTION_TYPES_SET = frozenset(COLLECTION_TYPES)
MEMO_SIZE = 8192  # collections whose best score is remembered (a few MB at most)


@dataclass(frozen=True, slots=True)
class ScoreDetail:
    """The best total, the points per colour, each colour's run and where each wild went."""

    total: int
    colours: dict[str, int]
    runs: dict[str, tuple[int, int] | None]  # colour -> (lo, hi) or None
    wilds: dict[str, str]  # card (id or type) -> slot text such as "R5"; unused wilds absent


def run_points(length: int) -> int:
    """Points for a run of ``length`` consecutive numbers."""
    return FULL_RUN_POINTS if length == 9 else length


def _fits(wild: str, slot: Slot) -> bool:
    if wild[0] == "W":
        return wild[1] == "#" or int(wild[1]) == slot[1]
    return wild[0] == slot[0]


def _try_add(
    slot: Slot, fits: dict[Slot, list[int]], owner: dict[int, Slot], seen: set[int]
) -> bool:
    """Kuhn's augmenting path: find a wild for ``slot``, re-seating others if needed."""
    for i in fits[slot]:
        if i in seen:
            continue
        seen.add(i)
        current = owner.get(i)
        if current is None or _try_add(current, fits, owner, seen):
            owner[i] = slot
            return True
    return False


def _matches(
    colour: str, missing: tuple[int, ...], fits: dict[Slot, list[int]], owner: dict[int, Slot]
) -> dict[int, Slot] | None:
    """``owner`` extended so that the colour's missing numbers are filled too, or None."""
    trial = dict(owner)
    for n in missing:
        if not _try_add((colour, n), fits, trial, set()):
            return None
    return trial


Candidate = tuple[int, tuple[int, ...], tuple[int, int] | None]  # points, missing, run
FitTable = dict[Slot, list[int]]  # slot -> indexes of the wilds that may fill it, in trial order


def _mask(numbers: set[int]) -> int:
    return sum(1 << (n - 1) for n in numbers)


# The two tables below depend on the wilds held (and one colour's numbers), not on the rest
# of the collection: scoring a collection again without one card (cheapest_cards does it for
# every card in use) finds the other colours' candidates remembered. Bounded memos of pure
# functions; what they hand out is only read.
@functools.lru_cache(maxsize=MEMO_SIZE)
def _fit_table(wilds: tuple[str, ...]) -> FitTable:
    # Specific wilds first, the super wild last, so that it stays free when possible.
    order = sorted(range(len(wilds)), key=lambda i: wilds[i] == "W#")
    return {
        (c, n): [i for i in order if _fits(wilds[i], (c, n))] for c in COLOURS for n in range(1, 10)
    }


@functools.lru_cache(maxsize=MEMO_SIZE)
def _colour_candidates(colour: str, held: int, wilds: tuple[str, ...]) -> list[Candidate]:
    """The colour's candidates (see :func:`_candidates`) that the wilds can complete on their
    own; the others cannot be part of any assignment."""
    fits = _fit_table(wilds)
    return [
        c_
        for c_ in _candidates(held, wilds, colour)
        if _matches(colour, c_[1], fits, {}) is not None
    ]


def _interval_table() -> tuple[tuple[int, int, int, int, int], ...]:
    """(bits, neighbour bits, lo, hi, points) of every interval lo..hi (number n = bit n-1)."""
    out = []
    for lo in range(1, 10):
        for hi in range(lo, 10):
            bits = ((1 << (hi - lo + 1)) - 1) << (lo - 1)
            edges = (1 << (lo - 2) if lo > 1 else 0) | (1 << hi if hi < 9 else 0)
            out.append((bits, edges, lo, hi, run_points(hi - lo + 1)))
    out.sort(key=lambda t: -t[4])
    return tuple(out)


_INTERVALS = _interval_table()
_NUMBERS = tuple(tuple(n for n in range(1, 10) if mask >> (n - 1) & 1) for mask in range(512))


def _candidates(held: int, wilds: tuple[str, ...], colour: str) -> list[Candidate]:
    """(points, missing numbers, run) for each maximal interval the wilds could complete;
    ``held`` has bit n-1 set for each number n of the colour held."""
    if any(w[1] == "#" and w[0] in ("W", colour) for w in wilds):
        fillable = 0x1FF
    else:
        fillable = sum({1 << (int(w[1]) - 1) for w in wilds if w[0] == "W"})
    count = len(wilds)
    out: list[Candidate] = [(0, (), None)]
    for bits, edges, lo, hi, points in _INTERVALS:
        if edges & held:
            continue  # it could grow over a held card at no cost: not maximal
        missing = bits & ~held
        if missing & ~fillable:
            continue
        numbers = _NUMBERS[missing]
        if len(numbers) <= count:
            out.append((points, numbers, (lo, hi)))
    return out


def _longest_run(present: set[int]) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    for lo in range(1, 10):
        if lo not in present or (lo > 1 and lo - 1 in present):
            continue
        hi = lo
        while hi + 1 in present:
            hi += 1
        if best is None or hi - lo > best[1] - best[0]:
            best = (lo, hi)
    return best


def score_detail(cards: Iterable[str]) -> ScoreDetail:
    """The best score of a collection of card ids (or card types); currency cards are ignored.

    The search with wilds is the engine's costliest step, and a game's views ask for the same
    collections again and again (every seat's view shows every seat's score; most
    collections do not change in a turn): the result of each collection is remembered (a
    bounded memo of a pure function, so it changes no outcome) and handed out as a copy."""
    best = _best(tuple(cards))
    return ScoreDetail(best.total, dict(best.colours), dict(best.runs), dict(best.wilds))


@functools.lru_cache(maxsize=MEMO_SIZE)
def _best(cards: tuple[str, ...]) -> ScoreDetail:
    present: dict[str, set[int]] = {c: set() for c in COLOURS}
    wild_cards: list[str] = []
    for card in cards:
        ctype = card[:2]
        if ctype not in COLLECTION_TYPES_SET:
            if card[:1] == "C":
                continue
            raise ValueError(f"not a Ten card: {card!r}")
        if card[0] == "W" or card[1] == "#":
            wild_cards.append(card)
        else:
            present[card[0]].add(int(card[1]))
    if not wild_cards:
        runs = {c: _longest_run(present[c]) for c in COLOURS}
        points = {c: (run_points(r[1] - r[0] + 1) if r else 0) for c, r in runs.items()}
        return ScoreDetail(sum(points.values()), points, runs, {})
    return _search(present, wild_cards)


def _search(present: dict[str, set[int]], wild_cards: list[str]) -> ScoreDetail:
    wilds = tuple(w[:2] for w in wild_cards)
    fits = _fit_table(wilds)
    cands = [_colour_candidates(c, _mask(present[c]), wilds) for c in COLOURS]
    width = len(wilds)
    # bound[i][w]: best points for colours i.. using at most w wilds (compatibility ignored).
    bound = [[0] * (width + 1) for _ in range(len(COLOURS) + 1)]
    for i in range(len(COLOURS) - 1, -1, -1):
        for w in range(width + 1):
            bound[i][w] = max(
                pts + bound[i + 1][w - len(miss)] for pts, miss, _ in cands[i] if len(miss) <= w
            )
    best_total = -1
    best_choice: list[int] = []
    best_owner: dict[int, Slot] = {}
    choice: list[int] = []

    def dfs(i: int, total: int, used: int, owner: dict[int, Slot]) -> None:
        nonlocal best_total, best_choice, best_owner
        if total + bound[i][width - used] <= best_total:
            return
        if i == len(COLOURS):
            best_total, best_choice, best_owner = total, list(choice), dict(owner)
            return
        colour = COLOURS[i]
        for k, (pts, missing, _) in enumerate(cands[i]):
            if len(missing) > width - used:
                continue
            if total + pts + bound[i + 1][width - used - len(missing)] <= best_total:
                continue
            trial = _matches(colour, missing, fits, owner) if missing else owner
            if trial is not None:
                choice.append(k)
                dfs(i + 1, total + pts, used + len(missing), trial)
                choice.pop()

    dfs(0, 0, 0, {})
    points: dict[str, int] = {}
    runs: dict[str, tuple[int, int] | None] = {}
    for i, colour in enumerate(COLOURS):
        pts, _, run = cands[i][best_choice[i]]
        points[colour] = pts
        runs[colour] = run
    assignment = {wild_cards[i]: f"{slot[0]}{slot[1]}" for i, slot in sorted(best_owner.items())}
    return ScoreDetail(best_total, points, runs, assignment)


def score_collection(cards: Iterable[str]) -> int:
    """The best total for a collection of card ids (wilds assigned to maximise the total)."""
    return _best(tuple(cards)).total
