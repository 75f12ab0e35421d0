"""The pictures' public face: engine views in, PNG bytes out.

The Discord layer owns one :class:`Pictures` per bot (its face cache lives as long as the
bot) and calls it with views only, never with game state:

- :meth:`Pictures.hand` takes the owner's view (``GAME.view(state, seat)``);
- :meth:`Pictures.table` takes the spectator's view (``GAME.view(state, None)``) and
  refuses any other, so a table picture cannot show a card only one seat may see;
- :meth:`Pictures.summary` takes the spectator's view too: the round (hand) just scored;
- :meth:`Pictures.chart` takes the totals after each round (see :func:`series_from_views`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any, Final

from cogs.ui.pictures import chart as chart_module
from cogs.ui.pictures import gnome_scene, grinch_scene, hearts_scene, ten_scene
from cogs.ui.pictures.faces import FaceCache
from cogs.ui.pictures.layout import encode
from cogs.ui.pictures.looks import LOOKS
from i18n import _

View = dict[str, Any]
Scene = Callable[[View, Sequence[str], FaceCache], bytes]
Summary = Callable[[View, Sequence[str], FaceCache], bytes | None]

HANDS: Final[Mapping[str, Scene]] = MappingProxyType(
    {
        "grinch": grinch_scene.hand,
        "gnome": gnome_scene.hand,
        "hearts": hearts_scene.hand,
        "ten": ten_scene.hand,
    }
)
TABLES: Final[Mapping[str, Scene]] = MappingProxyType(
    {
        "grinch": grinch_scene.table,
        "gnome": gnome_scene.table,
        "hearts": hearts_scene.table,
        "ten": ten_scene.table,
    }
)
SUMMARIES: Final[Mapping[str, Summary]] = MappingProxyType(
    {
        "grinch": grinch_scene.summary,
        "gnome": gnome_scene.summary,
        "hearts": hearts_scene.summary,
        "ten": ten_scene.summary,
    }
)
# What one point of a chart stands for (a key of chart.UNITS), and which games the lowest
# total wins.
UNITS: Final[Mapping[str, str]] = MappingProxyType(
    {"grinch": "round", "gnome": "round", "hearts": "hand", "ten": "turn"}
)
LOWEST_WINS: Final = frozenset({"gnome", "hearts"})
TITLES: Final[Mapping[str, str]] = MappingProxyType(
    {"grinch": "Grinch", "gnome": "Gnoming A Round", "hearts": "2-Player Hearts", "ten": "Ten"}
)


def _names(view: View, names: Sequence[str]) -> Sequence[str]:
    if len(names) != view["players"]:
        raise ValueError(f"Expected {view['players']} names, got {len(names)}.")
    return names


class Pictures:
    """Pictures for one bot instance: a face cache plus the per-game compositions."""

    def __init__(self, faces: FaceCache | None = None) -> None:
        self.faces = faces if faces is not None else FaceCache(LOOKS)

    def hand(self, view: View, names: Sequence[str]) -> bytes:
        """PNG of a seat's own cards, from that seat's view."""
        if view.get("seat") is None:
            raise ValueError("A hand picture needs its owner's view, not a spectator's.")
        return HANDS[view["game"]](view, _names(view, names), self.faces)

    def table(self, view: View, names: Sequence[str]) -> bytes:
        """PNG of the public table, from the spectator view (``view(state, None)``)."""
        if view.get("seat") is not None:
            raise ValueError("A table picture takes the spectator view (seat None) only.")
        return TABLES[view["game"]](view, _names(view, names), self.faces)

    def summary(self, view: View, names: Sequence[str]) -> bytes | None:
        """PNG of the last scored round (Grinch hands, Gnoming grids, Hearts dead and point
        cards; Ten: the last turn) from the spectator view; None if nothing was scored yet."""
        if view.get("seat") is not None:
            raise ValueError("A summary picture takes the spectator view (seat None) only.")
        return SUMMARIES[view["game"]](view, _names(view, names), self.faces)

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
            lowest_wins=game in LOWEST_WINS,
            title=_("{game}: scores", game=TITLES[game]),
            unit=UNITS[game],
        )

    def card(self, game: str, card: str, width: int = 160) -> bytes:
        """PNG of one card face (for a rules page or a single-card message)."""
        return encode(self.faces.face(game, card, width))


def _progress(view: View) -> int:
    """A counter that grows by one with each scored round (hand, turn) of the view's game."""
    game = view["game"]
    if game == "grinch":
        last = view["last_round"]
        return 0 if last is None else int(last["round"])
    if game == "gnome":
        return len(view["round_scores"])
    if game == "hearts":
        return len(view["hands_history"])
    return int(view["turns"])


def series_from_views(views: Iterable[View]) -> list[list[int]]:
    """Totals after each round, from the views of one game in order (e.g. the spectator
    view after every move while replaying the action log). Views that end no round add
    nothing, so passing every move's view is fine."""
    series: list[list[int]] = []
    seen = 0
    for view in views:
        progress = _progress(view)
        if progress > seen:
            seen = progress
            series.append([int(t) for t in _totals(view)])
    return series


def _totals(view: View) -> list[int]:
    if view["game"] == "hearts" and view["hands_history"]:
        # ``totals`` is the running total before the hand in play; sum the scored hands.
        sums = [0] * view["players"]
        for record in view["hands_history"]:
            sums = [a + b for a, b in zip(sums, record["points"], strict=True)]
        return sums
    return list(view["totals"])


def series_from_view(view: View) -> list[list[int]] | None:
    """Totals after each round from one view, for the games whose view keeps every round's
    scores (Gnoming, Hearts); None for the others (use :func:`series_from_views`)."""
    rows: list[list[int]]
    if view["game"] == "gnome":
        rows = view["round_scores"]
    elif view["game"] == "hearts":
        rows = [record["points"] for record in view["hands_history"]]
    else:
        return None
    series: list[list[int]] = []
    running = [0] * view["players"]
    for row in rows:
        running = [a + b for a, b in zip(running, row, strict=True)]
        series.append(list(running))
    return series
