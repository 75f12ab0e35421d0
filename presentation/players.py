"""Leaderboard and player statistics as panels: plain data in, :class:`Panel` out.

The inputs are described by protocols (the service's dataclasses satisfy them), so this
module needs neither the service nor Discord. Players are named by mention (``<@id>``), which
an embed shows as the member's name and never pings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from i18n import _, current, ngettext
from presentation.base import BLUE, GOLD, Panel

MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}


class Entry(Protocol):
    @property
    def place(self) -> int: ...
    @property
    def user_id(self) -> int: ...
    @property
    def rating(self) -> int: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...


class Page(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def page(self) -> int: ...
    @property
    def pages(self) -> int: ...
    @property
    def entries(self) -> Sequence[Entry]: ...


class Line(Protocol):
    @property
    def game(self) -> str: ...
    @property
    def games(self) -> int: ...
    @property
    def wins(self) -> int: ...
    @property
    def average(self) -> float: ...
    @property
    def best(self) -> int: ...
    @property
    def rating(self) -> int | None: ...
    @property
    def rated_games(self) -> int: ...
    @property
    def trend(self) -> Sequence[int]: ...


class Stats(Protocol):
    @property
    def user_id(self) -> int: ...
    @property
    def games(self) -> Sequence[Line]: ...
    @property
    def favourite(self) -> str | None: ...


# The decimal separator of each language (English writes 4.5; ro, et and lt write 4,5).
DECIMAL_COMMA = frozenset({"ro", "et", "lt"})


def _games(n: int) -> str:
    return ngettext("{n} game", "{n} games", n)


def _wins(n: int) -> str:
    return ngettext("{n} win", "{n} wins", n)


def decimal(value: float) -> str:
    """``value`` with one decimal, written the current language's way ("4.5", "4,5")."""
    shown = f"{value:.1f}"
    return shown.replace(".", ",") if current() in DECIMAL_COMMA else shown


def scale_line(start: int) -> str:
    """What the rating's number means, in one line (``start``: a new player's rating)."""
    return _("rating: a new player starts at {start}; it grows as you play and win", start=start)


def board_panel(page: Page, titles: Mapping[str, str], *, start: int) -> Panel:
    """One page of a server's leaderboard for one game; ``start``: a new player's rating."""
    lines = [
        f"{MEDALS.get(e.place, f'**{e.place}.**')} <@{e.user_id}> — **{e.rating}** · "
        f"{_games(e.games)} · {_wins(e.wins)}"
        for e in page.entries
    ]
    pages = _("Page {page} of {pages}", page=page.page + 1, pages=page.pages)
    rating = scale_line(start)
    return Panel(
        title="🏆 " + _("Leaderboard: {game}", game=titles.get(page.game, page.game)),
        description="\n".join(lines),
        colour=GOLD,
        footer=f"{pages} · {rating}",
    )


def trend_text(trend: Sequence[int]) -> str:
    """``▲ 7 over the last 3 games (0 → 4 → 5 → 7)`` from the rating before, then after each."""
    if len(trend) < 2:
        return ""
    change = trend[-1] - trend[0]
    arrow = "▲" if change > 0 else "▼" if change < 0 else "="
    steps = " → ".join(str(v) for v in trend)
    return ngettext(
        "{arrow} {change} over the last {n} game ({steps})",
        "{arrow} {change} over the last {n} games ({steps})",
        len(trend) - 1,
        arrow=arrow,
        change=abs(change),
        steps=steps,
    )


def stats_panel(stats: Stats, titles: Mapping[str, str], *, start: int) -> Panel:
    """A player's statistics in one server: one field per game played; ``start``: a new
    player's rating, explained under the statistics when a game of them is rated."""
    fields = []
    for line in stats.games:
        rows = [
            f"{_games(line.games)}, {_wins(line.wins)}",
            _(
                "average score {average} · best {best}",
                average=decimal(line.average),
                best=line.best,
            ),
        ]
        if line.rating is None:
            rows.append(_("not rated yet (rated games need two people)"))
        else:
            rated = ngettext(
                "rating **{rating}** ({n} rated game)",
                "rating **{rating}** ({n} rated games)",
                line.rated_games,
                rating=line.rating,
            )
            rows.append(rated)
            if trend := trend_text(line.trend):
                rows.append(trend)
        fields.append((titles.get(line.game, line.game), "\n".join(rows), False))
    favourite = titles.get(stats.favourite, stats.favourite) if stats.favourite else None
    description = f"<@{stats.user_id}>"
    if favourite:
        description += " · " + _("favourite game: **{game}**", game=favourite)
    if not fields:
        description += "\n" + _("No finished games in this server yet.")
    any_rated = any(line.rating is not None for line in stats.games)
    return Panel(
        title="📊 " + _("Stats"),
        description=description,
        fields=tuple(fields),
        colour=BLUE,
        footer=scale_line(start) if any_rated else None,
    )
