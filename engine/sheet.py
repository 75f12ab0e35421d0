"""The score sheet: every number a player sees of a game, worked out in one place.

The result message, ``/scores``, the score chart, the pictures, the stored results (from which
``/stats`` and ``/history`` read) and the export all take a game's totals, winners and places
from a :class:`ScoreSheet`, built from the engine's :class:`~engine.base.Outcome` or from a
view that carries it, so no two of them can disagree. Pure: no I/O, no words.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engine.base import Outcome


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A game's numbers: each seat's total and place, the winners once it is over, and the
    totals after each scored round (the chart's points; once the game is over the last of
    them is ``totals``, whatever moved the totals after the last round's counter)."""

    totals: tuple[int, ...]
    places: tuple[int, ...]
    winners: frozenset[int] = frozenset()
    finished: bool = False
    rounds: tuple[tuple[int, ...], ...] = ()

    def with_rounds(self, rounds: Iterable[Sequence[int]]) -> ScoreSheet:
        """This sheet with ``rounds`` as its chart's points, the last ending at the result."""
        points = [tuple(int(t) for t in row) for row in rounds]
        if points and self.finished:
            points[-1] = self.totals
        return replace(self, rounds=tuple(points))


def ranked(
    totals: Sequence[int], winners: Iterable[int] = (), *, lowest_wins: bool
) -> tuple[int, ...]:
    """Each seat's place (1 = first): the winners first (the engine's tie-breaks chose them),
    then by total in the game's direction; equal keys share a place, the next one skips
    (1, 2, 2, 4)."""
    won = frozenset(winners)
    sign = 1 if lowest_wins else -1
    keys = [(0 if seat in won else 1, sign * total) for seat, total in enumerate(totals)]
    return tuple(1 + sum(other < key for other in keys) for key in keys)


def _given_places(found: object, seats: int) -> tuple[int, ...] | None:
    """Places the engine gave itself (Ten's tie-breaks), if they are places for every seat."""
    if isinstance(found, Sequence) and not isinstance(found, str) and len(found) == seats:
        return tuple(int(p) for p in found)
    return None


def running_sheet(
    totals: Sequence[int], *, lowest_wins: bool, places: Sequence[int] | None = None
) -> ScoreSheet:
    """The sheet of a game still running: its totals, ranked by total (or by ``places``, a
    game's own running order); no winners yet."""
    found = tuple(places) if places is not None else ranked(totals, lowest_wins=lowest_wins)
    return ScoreSheet(tuple(int(t) for t in totals), found)


def ended_sheet(
    totals: Sequence[int],
    winners: Iterable[int],
    *,
    lowest_wins: bool,
    places: Sequence[int] | None = None,
) -> ScoreSheet:
    """The sheet of a finished game: the engine's totals, winners and (if it gives them, as
    Ten's tie-breaks do) places; otherwise places by :func:`ranked`."""
    won = frozenset(int(s) for s in winners)
    given = _given_places(places, len(totals))
    found = given or ranked(totals, won, lowest_wins=lowest_wins)
    return ScoreSheet(tuple(int(t) for t in totals), found, won, True)


def final_sheet(outcome: Outcome, *, lowest_wins: bool) -> ScoreSheet:
    """The sheet of a finished game, from its outcome."""
    places = outcome.details.get("places")
    return ended_sheet(outcome.totals, outcome.winners, lowest_wins=lowest_wins, places=places)


def view_sheet(
    view: Mapping[str, Any], *, lowest_wins: bool, places: Sequence[int] | None = None
) -> ScoreSheet:
    """The sheet as a view shows it: the outcome's numbers once the game is over, else the
    running totals, ranked by total (or by ``places``, a game's own running order)."""
    outcome = view.get("outcome")
    if outcome:
        given = outcome.get("places")
        return ended_sheet(
            outcome["totals"], outcome["winners"], lowest_wins=lowest_wins, places=given
        )
    return running_sheet(view["totals"], lowest_wins=lowest_wins, places=places)
