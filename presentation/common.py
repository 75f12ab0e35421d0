"""Pieces every game's renderer shares: the result, the end of a game and the score sheet.

The end of a game is shown once in full: the result message (``GameUI.result``, posted by
the summaries), while the table closes with a one-line verdict (:func:`over_panel`) and each
player's last DM carries the result with their own place (:func:`final_screen`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Generic, TypeVar

from engine import GAMES
from engine.base import View
from engine.sheet import ScoreSheet, ranked, view_sheet
from i18n import N_, _, ngettext
from presentation.base import GOLD, HandScreen, Names, Panel
from presentation.titles import game_title

T = TypeVar("T")
V = TypeVar("V", bound=View)

LINE_WIDTH = 40  # a phone shows about this many characters on one line of an embed
EMPTY_CELL = "—"


# Field names the games' /rules panels share.
SCORING = N_("Scoring")
EXAMPLE = N_("Example")


def rules_panel(
    game: str, description: str, colour: int, *fields: tuple[str, str], icon: str = ""
) -> Panel:
    """A game's /rules panel: ``fields`` are (name, text), each on its own lines."""
    return Panel(
        title=icon + _("{game} — rules", game=game),
        description=description,
        fields=tuple((name, text, False) for name, text in fields),
        colour=colour,
    )


def outcome_winners(view: View) -> list[int] | None:
    """The winning seats once the game is over, else None."""
    outcome = view.get("outcome")
    return None if not outcome else list(outcome["winners"])


def required(value: T | None) -> T:
    """A part of a view that the view's phase promises (the bouncing card while a card
    bounces, whose turn it is while the game runs): ``value``, or ValueError for a view that
    breaks the promise."""
    if value is None:
        raise ValueError("The view lacks a part that its phase promises.")
    return value


def own_seat(view: View) -> int:
    """The viewer's seat: a hand screen or picture is drawn from its owner's view, and a
    spectator's view (seat None) has no hand to show (ValueError)."""
    seat: int | None = view["seat"]
    if seat is None:
        raise ValueError("A seat's own screen needs that seat's view, not a spectator's.")
    return seat


def name_list(items: Sequence[str]) -> str:
    """ "Ann", "Ann and Bo", "Ann, Bo and Cy" in the current language."""
    if len(items) < 2:
        return "".join(items)
    return _("{names} and {last}", names=", ".join(items[:-1]), last=items[-1])


def points(n: int) -> str:
    """ "**12** points" (bold count; the plural form follows the size of ``n``)."""
    return ngettext("**{n}** point", "**{n}** points", abs(n), n=n)


def credited(names: Names, seat: int) -> str:
    """The seat's name for a result (a computer's with its robot and level): a computer that
    took over a seat says whose it was ("Cindy-Bot 🤖 normal (took Ann's seat)"), so that a
    win is never credited to a silent stranger."""
    left = names.left_by(seat)
    if left is None:
        return names.label(seat)
    return _("{computer} (took {name}'s seat)", computer=names.label(seat), name=left)


def picture_names(names: Names) -> list[str]:
    """Each seat's name as the pictures write it (no robot: the pictures' typeface has none);
    a computer that took over a seat says whose it was, as :func:`credited` does."""
    return [
        names[seat]
        if (left := names.left_by(seat)) is None
        else _("{computer} (took {name}'s seat)", computer=names[seat], name=left)
        for seat in range(len(names))
    ]


def _verdict(names: Names, winners: set[int]) -> str:
    if not winners:
        return _("No winner this time.")
    won = name_list([credited(names, s) for s in sorted(winners)])
    return ngettext("**{names}** wins!", "**{names}** share the win!", len(winners), names=won)


def sheet_of(view: View, *, lowest_wins: bool = False) -> ScoreSheet:
    """The score sheet a view shows (:func:`engine.sheet.view_sheet`): the one source of the
    totals, winners and places that the result, ``/scores`` and the chart show."""
    return view_sheet(view, lowest_wins=lowest_wins)


def final_panel(
    title: str, view: View, names: Names, *, colour: int = GOLD, lowest_wins: bool = False
) -> Panel:
    """Winners and every total, best first (the view's outcome decides who won)."""
    sheet = sheet_of(view, lowest_wins=lowest_wins)
    totals, winners = sheet.totals, sheet.winners
    order = sorted(range(len(totals)), key=lambda s: (sheet.places[s], s))
    lines = [
        f"{'🏆' if seat in winners else '▫️'} **{credited(names, seat)}** — {totals[seat]}"
        for seat in order
    ]
    return Panel(
        title=title,
        description=_verdict(names, set(winners)) + "\n\n" + "\n".join(lines),
        colour=colour,
    )


def over_panel(title: str, view: View, names: Names, *, colour: int = GOLD) -> Panel:
    """The table of a finished game: one line of verdict; the full result is its own message."""
    winners = set(view["outcome"]["winners"])
    over = _("The game is over.")
    text = f"🏁 {over} {_verdict(names, winners)}\n" + _("The full result is posted below.")
    return Panel(title=_("{title} — game over", title=title), description=text, colour=colour)


def places(totals: Sequence[int], winners: Sequence[int], *, lowest_wins: bool) -> list[int]:
    """Each seat's place: winners first (the engine's tie-breaks decided them), then by total.

    Equal totals outside the winners share a place (1, 2, 2, 4); :func:`engine.sheet.ranked`.
    """
    return list(ranked(totals, winners, lowest_wins=lowest_wins))


def own_result_line(view: View, seat: int, *, lowest_wins: bool = False) -> str:
    """What the game's end means for ``seat``: "🏆 You won with **87** points!" or their place
    ("You finished in place **2** of 3 with **40** points.": no ordinals, they do not translate)."""
    sheet = sheet_of(view, lowest_wins=lowest_wins)
    totals, winners, place = sheet.totals, sheet.winners, sheet.places
    scored = points(totals[seat])
    if len(totals) == 1:
        if seat in winners:
            return "🏆 " + _("You won with {points}.", points=scored)
        return _("You finished with {points}.", points=scored)
    if seat in winners:
        if len(winners) > 1:
            return "🏆 " + _("You share the win with {points}!", points=scored)
        return "🏆 " + _("You won with {points}!", points=scored)
    return _(
        "You finished in place **{place}** of {count} with {points}.",
        place=place[seat],
        count=len(totals),
        points=scored,
    )


def final_screen(result: Panel, view: View, lowest_wins: bool = False) -> HandScreen:
    """A seat's last DM: their own place, then the game's full result; no controls."""
    mine = own_result_line(view, view["seat"], lowest_wins=lowest_wins)
    panel = Panel(
        title=result.title,
        description=f"{mine}\n\n{result.description}",
        fields=result.fields,
        colour=result.colour,
        footer=result.footer,
    )
    return HandScreen(panels=(panel,))


def wrap(items: Sequence[str], width: int = LINE_WIDTH, sep: str = " · ") -> str:
    """``items`` joined by ``sep`` on lines of at most ``width`` characters (longer items alone)."""
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + len(sep) + len(item) <= width:
            lines[-1] += sep + item
        else:
            lines.append(item)
    return "\n".join(lines)


def score_table(
    title: str,
    rows: Sequence[tuple[str, Sequence[int | None]]],
    sheet: ScoreSheet,
    names: Names,
    *,
    extras: Sequence[str] | None = None,
) -> Panel:
    """A score sheet that fits a phone: the standings, then one field per player.

    The description ranks every player by the ``sheet``'s places (full names, one short line
    each); each player's field lists their rows as "Row: points" wrapped at
    :data:`LINE_WIDTH` characters (``extras[seat]``, if given, is one more line) and their
    total. Once the game is over the sheet's winners are named; while it runs, the leaders
    (the seats in place 1). The totals, places and winners are the sheet's, which the result
    and the chart show too.
    """
    totals, place, finished = sheet.totals, sheet.places, sheet.finished
    count = len(totals)
    standings = []
    for seat in sorted(range(count), key=lambda s: (place[s], s)):
        mark = "🏆" if finished and seat in sheet.winners else f"{place[seat]}."
        standings.append(f"{mark} **{names[seat]}** — {totals[seat]}")
    fields: list[tuple[str, str, bool]] = []
    for seat in range(count):
        cells = [
            f"{label}: {EMPTY_CELL if cells[seat] is None else cells[seat]}"
            for label, cells in rows
        ]
        body = wrap([*cells, _("Total: {total}", total=totals[seat])])
        if extras is not None and extras[seat]:
            body += "\n" + extras[seat]
        fields.append((credited(names, seat), body, True))
    if finished:
        label = ngettext("Winner", "Winners", len(sheet.winners))
        shown = wrap([names[s] for s in sorted(sheet.winners)], sep=", ") or _("nobody")
    else:
        label = _("Leading")
        shown = wrap([names[s] for s in range(count) if place[s] == 1], sep=", ")
    fields.append((label, shown, False))
    return Panel(title=title, description="\n".join(standings), fields=tuple(fields), colour=GOLD)


class Renderer(ABC, Generic[V]):
    """What every game's renderer (:class:`~presentation.base.GameUI`) does alike, around
    what its game shows while it runs (:meth:`playing_table`, :meth:`playing_hand`).

    A fresh table message is posted each round. Once the game is over, the table closes
    with one line of verdict under the game's ``icon`` and title (:meth:`over_table`), each
    seat's hand is its last DM (its place, then :meth:`result`), and the summaries end with
    the result.
    """

    name: str
    icon: str  # before the game's title on its finished table

    def table_key(self, view: V) -> str:
        return f"round-{view['round']}"

    def table(self, view: V, names: Names) -> Panel:
        if view.get("outcome"):
            return self.over_table(view, names)
        return self.playing_table(view, names)

    def over_table(self, view: V, names: Names) -> Panel:
        return over_panel(f"{self.icon} {game_title(self.name)}", view, names)

    def hand(self, view: V, legal: list[str], names: Names) -> HandScreen:
        if view.get("outcome"):
            lowest_wins = GAMES[self.name].lowest_wins
            return final_screen(self.result(view, names), view, lowest_wins=lowest_wins)
        return self.playing_hand(view, legal, names)

    def summaries(self, before: V, after: V, names: Names) -> list[Panel]:
        panels = self.round_summaries(before, after, names)
        if after.get("outcome") and not before.get("outcome"):
            panels.append(self.result(after, names))
        return panels

    @abstractmethod
    def playing_table(self, view: V, names: Names) -> Panel:
        """The public table while the game runs."""

    @abstractmethod
    def playing_hand(self, view: V, legal: list[str], names: Names) -> HandScreen:
        """A seat's private screen while the game runs."""

    @abstractmethod
    def round_summaries(self, before: V, after: V, names: Names) -> list[Panel]:
        """Public messages for a round that ended between the two views (not the result)."""

    @abstractmethod
    def result(self, view: V, names: Names) -> Panel:
        """The full result of the finished game."""
