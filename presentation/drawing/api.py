"""The pictures' public face: engine views in, PNG bytes out.

The Discord layer owns one :class:`Pictures` per bot (its face cache lives as long as the
bot) and calls it with views only, never with game state:

- :meth:`Pictures.hand` takes the owner's view (``GAME.view(state, seat)``);
- :meth:`Pictures.table` takes the spectator's view (``GAME.view(state, None)``) and
  refuses any other, so a table picture cannot show a card only one seat may see;
- :meth:`Pictures.summary` takes the spectator's view too: the round (hand) just scored;
- :meth:`Pictures.chart` takes the totals after each round (see :func:`chart_sheet`); the
  PNG carries those numbers as its ``scores`` text (:data:`chart_module.DATA_KEY`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Collection, Iterable, Sequence
from functools import cache
from typing import Any, Protocol, TypeVar

from engine import GAMES, PACKAGE_OF
from engine.base import View
from engine.sheet import ScoreSheet, view_sheet
from i18n import _
from presentation.drawing import chart as chart_module
from presentation.drawing.faces import FaceCache
from presentation.drawing.fonts import one_face
from presentation.drawing.layout import Kit, Sheet, card_height
from presentation.drawing.looks import looks
from presentation.drawing.parts import Parts
from presentation.titles import game_title

# The view type a game's picture module reads: its engine's own (a TypedDict), or View.
V_contra = TypeVar("V_contra", bound=View, contravariant=True)


class Picture(Protocol[V_contra]):
    """What a game's ``presentation/<package>/picture.py`` module provides, reading that
    game's views (``Picture[ItsView]``); :func:`picture_of` gives any game's, for any view."""

    UNIT: str  # what one point of the score chart stands for (a key of chart.UNITS)

    def hand(self, view: V_contra, names: Sequence[str], faces: Kit) -> bytes: ...

    def table(self, view: V_contra, names: Sequence[str], faces: Kit) -> bytes: ...

    def summary(self, view: V_contra, names: Sequence[str], faces: Kit) -> bytes | None: ...

    def progress(self, view: V_contra) -> int:
        """A counter that grows by one with each scored round (hand, turn)."""
        ...

    def totals(self, view: V_contra) -> list[int]: ...

    def rounds(self, view: V_contra) -> list[list[int]] | None:
        """Each scored round's points, for the games whose view keeps them; else None."""
        ...


@cache
def picture_of(game: str) -> Picture[Any]:
    """The picture module of a game, by the engine's game name (raises KeyError if unknown)."""
    module: Picture[Any] = importlib.import_module(f"presentation.{PACKAGE_OF[game]}.picture")
    return module


def card_sizes(game: str) -> tuple[tuple[int, bool], ...]:
    """The cards' widths (and whether a back's) that a game's hands and round summaries draw,
    as its picture module declares them (``CARD_SIZES``; none if it declares none): the
    drawing process draws their faces ahead (presentation.drawing.warm)."""
    sizes: tuple[tuple[int, bool], ...] = getattr(picture_of(game), "CARD_SIZES", ())
    return sizes


def _names(view: View, names: Sequence[str]) -> Sequence[str]:
    if len(names) != view["players"]:
        raise ValueError(f"Expected {view['players']} names, got {len(names)}.")
    return names


class Pictures:
    """Pictures for one bot instance (or drawing process): the parts it keeps plus the
    per-game compositions. ``faces``: the kit to draw with, by default kept parts; a bare
    :class:`FaceCache` draws every picture on a full-colour canvas and quantizes it, the
    reference the kept parts are measured against (tests, bench/pictures.py)."""

    def __init__(self, faces: Kit | None = None) -> None:
        self.faces: Kit = faces if faces is not None else Parts(FaceCache(looks()))

    def hand(self, view: View, names: Sequence[str]) -> bytes:
        """PNG of a seat's own cards, from that seat's view."""
        if view.get("seat") is None:
            raise ValueError("A hand picture needs its owner's view, not a spectator's.")
        with one_face(*names):  # a name with a letter the embedded font lacks: all in DejaVu
            return picture_of(view["game"]).hand(view, _names(view, names), self.faces)

    def ahead(self, view: View, names: Sequence[str]) -> int:
        """Make ahead the parts of the hand pictures likely to follow the one of ``view``
        (its game's ``hands_ahead``, if its picture module has one): each laid out, its new
        captions made and kept, nothing drawn, so the picture that shows them finds them
        made. Returns how many were laid out. The same pixels as without it."""
        faces = self.faces
        module = picture_of(view["game"])
        later: Callable[[View], Sequence[View]] | None = getattr(module, "hands_ahead", None)
        if later is None or not isinstance(faces, Parts):
            return 0
        views = later(view)
        with one_face(*names), faces.rehearsal():
            for next_view in views:
                module.hand(next_view, _names(next_view, names), faces)
        return len(views)

    def table(self, view: View, names: Sequence[str]) -> bytes:
        """PNG of the public table, from the spectator view (``view(state, None)``)."""
        if view.get("seat") is not None:
            raise ValueError("A table picture takes the spectator view (seat None) only.")
        with one_face(*names):
            return picture_of(view["game"]).table(view, _names(view, names), self.faces)

    def summary(self, view: View, names: Sequence[str]) -> bytes | None:
        """PNG of the last scored round (Grinch hands, Gnoming grids, Hearts dead and point
        cards; Ten: the last turn) from the spectator view; None if nothing was scored yet."""
        if view.get("seat") is not None:
            raise ValueError("A summary picture takes the spectator view (seat None) only.")
        with one_face(*names):
            return picture_of(view["game"]).summary(view, _names(view, names), self.faces)

    def chart(
        self,
        game: str,
        series: Sequence[Sequence[int]],
        names: Sequence[str],
        *,
        winners: Collection[int] = (),
    ) -> bytes:
        """PNG of every player's total after each round (hand, turn) of ``game``."""
        return chart_module.chart(
            series,
            names,
            winners=winners,
            lowest_wins=GAMES[game].lowest_wins,
            title=_("{game}: scores", game=game_title(game)),
            unit=picture_of(game).UNIT,
            faces=self.faces,
        )

    def card(self, game: str, card: str, width: int = 160) -> bytes:
        """PNG of one card face (for a rules page or a single-card message)."""
        sheet = Sheet(self.faces, game, width, card_height(width))
        sheet.card(card, 0, 0, width)
        return sheet.png(crop=False)


def _sheet(view: View) -> ScoreSheet:
    return view_sheet(view, lowest_wins=GAMES[view["game"]].lowest_wins)


def series_from_views(views: Iterable[View]) -> list[list[int]]:
    """Totals after each round, from the views of one game in order (e.g. the spectator
    view after every move while replaying the action log). Views that end no round add
    nothing, so passing every move's view is fine. Once the game is over the series ends at
    the game's score sheet (:func:`chart_sheet`), whatever moved the totals after the last
    round's counter grew (Ten's final purchases)."""
    series: list[list[int]] = []
    seen = 0
    last: View | None = None
    for view in views:
        last = view
        progress = picture_of(view["game"]).progress(view)
        if progress > seen:
            seen = progress
            series.append(picture_of(view["game"]).totals(view))
    if last is None:
        return series
    return [list(row) for row in _sheet(last).with_rounds(series).rounds]


def series_from_view(view: View) -> list[list[int]] | None:
    """Totals after each round from one view, for the games whose view keeps every round's
    scores (Gnoming, Hearts); None for the others (use :func:`series_from_views`)."""
    rows = picture_of(view["game"]).rounds(view)
    if rows is None:
        return None
    series: list[list[int]] = []
    running = [0] * view["players"]
    for row in rows:
        running = [a + b for a, b in zip(running, row, strict=True)]
        series.append(list(running))
    return [list(row) for row in _sheet(view).with_rounds(series).rounds]


def chart_sheet(final: View, views: Callable[[], Iterable[View]]) -> ScoreSheet:
    """The score sheet of a game with its chart's points: from the final view alone where it
    keeps every round, else from ``views`` (every move's view, in order). The chart draws
    these points, and its last point is the sheet's totals, which the result and ``/scores``
    show."""
    series = series_from_view(final)
    if series is None:
        series = series_from_views(views())
    return _sheet(final).with_rounds(series)
