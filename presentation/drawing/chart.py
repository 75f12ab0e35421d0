"""The score chart: each player's running total after every round, one line per player.

Every line has its own colour and its own marker shape (the cue that needs no colour); the
legend names each player with the same colour and marker and their final total, and the
winners get a gold star on the chart and in the legend.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Collection, Sequence

from i18n import _, pgettext
from presentation.drawing.faces import FaceCache
from presentation.drawing.fonts import clip, one_face
from presentation.drawing.layout import Kit, Sheet
from presentation.drawing.palette import GOLD, INK, PAPER, SERIES, SOFT_INK, mix
from presentation.drawing.parts import Parts

WIDTH = 1000
HEIGHT = 560
LEGEND = 250
MARKERS = ("circle", "square", "triangle", "diamond", "star", "bolt", "heart")
MAX_MARKED_POINTS = 30  # past this, markers only at the ends of the lines
_Place = Callable[[int, float], tuple[float, float]]
WINNER_INK = mix(GOLD, INK, 0.6)  # the legend's "winner": gold, dark enough to read
UNITS = ("round", "hand", "turn")  # what one point of the chart stands for
# The PNG text key under which a chart carries what it shows (JSON: "names", "series", the
# totals after each round, and "winners"), so that it can be checked against the result.
DATA_KEY = "scores"


def unit_words(unit: str) -> tuple[str, str]:
    """The axis's name and the subtitle's first part for ``unit`` (one of :data:`UNITS`)."""
    words = {
        "round": (pgettext("chart", "Round"), _("Total after each round")),
        "hand": (pgettext("chart", "Hand"), _("Total after each hand")),
        "turn": (pgettext("chart", "Turn"), _("Total after each turn")),
    }
    return words[unit]


def nice_step(span: float, ticks: int = 5) -> int:
    """A round tick step (1, 2 or 5 times a power of ten) giving about ``ticks`` ticks."""
    raw = max(span, 1) / ticks
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return max(1, int(factor * power))
    return max(1, int(10 * power))


def chart(
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    *,
    winners: Collection[int] = (),
    lowest_wins: bool = False,
    title: str | None = None,
    unit: str = "round",
    faces: Kit | None = None,
) -> bytes:
    """PNG of the totals in ``series`` (one list of per-seat totals after each round).

    Every line starts at 0 before the first round. ``winners`` are marked; ``lowest_wins``
    only changes the subtitle (the lines are the same). ``title``: already in the current
    language ("Scores" if None); ``unit``: one of :data:`UNITS`; ``faces``: the kit to draw
    with (see :class:`presentation.drawing.api.Pictures`), kept parts of its own if None.
    """
    players = len(names)
    if not 1 <= players <= len(SERIES):
        raise ValueError(f"A chart shows 1 to {len(SERIES)} players.")
    if any(len(row) != players for row in series):
        raise ValueError("Every round needs one total per player.")
    axis, per = unit_words(unit)
    heading = _("Scores") if title is None else title
    words = (heading, per, axis, pgettext("chart", "start"), pgettext("chart", "winner"))
    with one_face(*words, *names):
        sheet = Sheet(
            Parts(FaceCache({})) if faces is None else faces, "", WIDTH, HEIGHT, background=PAPER
        )
        _chart(sheet, series, names, winners, lowest_wins, heading, axis, per)
    data = {
        "names": list(names),
        "series": [list(row) for row in series],
        "winners": sorted(winners),
    }
    return sheet.png(crop=False, texts={DATA_KEY: json.dumps(data, separators=(",", ":"))})


def _chart(
    sheet: Sheet,
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    winners: Collection[int],
    lowest_wins: bool,
    heading: str,
    axis: str,
    per: str,
) -> None:
    players = len(names)
    points = [[0] * players, *[list(row) for row in series]]
    sheet.text((24, 20), clip(heading, 30, WIDTH - 48), 30, INK, anchor="la", bold=True)
    rule = _("lowest total wins") if lowest_wins else _("highest total wins")
    subtitle = clip(f"{per}  ·  {rule}", 18, WIDTH - 48)
    sheet.text((24, 58), subtitle, 18, SOFT_INK, anchor="la")
    box = (80, 100, WIDTH - LEGEND - 20, HEIGHT - 60)
    low = min(min(row) for row in points)
    high = max(max(row) for row in points)
    step = nice_step(high - low)
    bottom = math.floor(low / step) * step
    top = max(bottom + step, math.ceil(high / step) * step)

    def at(index: int, value: float) -> tuple[float, float]:
        x = box[0] + (box[2] - box[0]) * index / max(1, len(points) - 1)
        y = box[3] - (box[3] - box[1]) * (value - bottom) / (top - bottom)
        return x, y

    _axes(sheet, box, bottom, top, step, len(points), axis, at)
    order = sorted(range(players), key=lambda s: (s in winners, s))  # winners drawn last
    for seat in order:
        _line(sheet, [at(i, row[seat]) for i, row in enumerate(points)], seat, seat in winners)
    _legend(sheet, names, points[-1], winners, box)


def _axes(
    sheet: Sheet,
    box: tuple[int, int, int, int],
    bottom: int,
    top: int,
    step: int,
    count: int,
    unit: str,
    at: _Place,
) -> None:
    grid = mix(PAPER, INK, 0.12)
    for value in range(bottom, top + 1, step):
        y = at(0, value)[1]
        sheet.line(
            (box[0], y, box[2], y), grid if value else mix(PAPER, INK, 0.45), 1 if value else 2
        )
        sheet.text((box[0] - 10, y), str(value), 16, SOFT_INK, anchor="rm")
    every = max(1, math.ceil((count - 1) / 12))
    for index in range(0, count, every):
        x = at(index, bottom)[0]
        sheet.line((x, box[3], x, box[3] + 6), SOFT_INK, 2)
        sheet.text(
            (x, box[3] + 10),
            pgettext("chart", "start") if index == 0 else str(index),
            16,
            SOFT_INK,
            anchor="ma",
        )
    sheet.text(((box[0] + box[2]) / 2, box[3] + 34), unit, 18, SOFT_INK, anchor="ma")


def _line(sheet: Sheet, xy: list[tuple[float, float]], seat: int, winner: bool) -> None:
    colour = SERIES[seat]
    sheet.line([v for point in xy for v in point], colour, 6 if winner else 4, curve=True)
    marked = xy if len(xy) <= MAX_MARKED_POINTS else [xy[0], xy[-1]]
    for x, y in marked:
        sheet.symbol(MARKERS[seat], x, y, 9, PAPER)
        sheet.symbol(MARKERS[seat], x, y, 7, colour)
    if winner:  # the star replaces the marker on the winner's last point
        x, y = xy[-1]
        sheet.symbol("star", x, y, 17, INK)
        sheet.symbol("star", x, y, 14, GOLD)


def _legend(
    sheet: Sheet,
    names: Sequence[str],
    totals: Sequence[int],
    winners: Collection[int],
    box: tuple[int, int, int, int],
) -> None:
    left = WIDTH - LEGEND
    y = box[1]
    order = sorted(range(len(names)), key=lambda s: (s not in winners, s))
    for seat in order:
        colour = SERIES[seat]
        sheet.line((left, y + 14, left + 40, y + 14), colour, 4)
        sheet.symbol(MARKERS[seat], left + 20, y + 14, 9, PAPER)
        sheet.symbol(MARKERS[seat], left + 20, y + 14, 7, colour)
        label = clip(names[seat], 20, LEGEND - 120)
        # Plain strokes only: at these sizes a bold stroke of one pixel smudges the letters.
        sheet.text((left + 52, y + 14), label, 20, INK, anchor="lm")
        sheet.text((WIDTH - 20, y + 14), str(totals[seat]), 20, INK, anchor="rm", bold=True)
        if seat in winners:
            sheet.symbol("star", left + 62, y + 42, 12, INK)
            sheet.symbol("star", left + 62, y + 42, 10, GOLD)
            caption = pgettext("chart", "winner")
            sheet.text((left + 80, y + 42), caption, 18, WINNER_INK, anchor="lm")
            y += 24
        y += 40
