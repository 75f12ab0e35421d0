"""Leaderboard and player statistics as panels: plain data in, :class:`Panel` out.

The inputs are described by protocols (the service's dataclasses satisfy them), so this
module needs neither the service nor Discord. Players are named by mention (``<@id>``), which
an embed shows as the member's name and never pings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from cogs.ui.base import BLUE, GOLD, Panel

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


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def board_panel(page: Page, titles: Mapping[str, str]) -> Panel:
    """One page of a server's leaderboard for one game."""
    lines = [
        f"{MEDALS.get(e.place, f'**{e.place}.**')} <@{e.user_id}> — **{e.rating}** · "
        f"{_plural(e.games, 'game')} · {_plural(e.wins, 'win')}"
        for e in page.entries
    ]
    return Panel(
        title=f"🏆 Leaderboard: {titles.get(page.game, page.game)}",
        description="\n".join(lines),
        colour=GOLD,
        footer=f"Page {page.page + 1} of {page.pages} · rating = skill minus three times "
        "its uncertainty; it grows as you play and win",
    )


def trend_text(trend: Sequence[int]) -> str:
    """``▲ 7 over the last 3 games (0 → 4 → 5 → 7)`` from the rating before, then after each."""
    if len(trend) < 2:
        return ""
    change = trend[-1] - trend[0]
    arrow = "▲" if change > 0 else "▼" if change < 0 else "="
    steps = " → ".join(str(v) for v in trend)
    return f"{arrow} {abs(change)} over the last {_plural(len(trend) - 1, 'game')} ({steps})"


def stats_panel(stats: Stats, titles: Mapping[str, str]) -> Panel:
    """A player's statistics in one server: one field per game played."""
    fields = []
    for line in stats.games:
        rows = [
            f"{_plural(line.games, 'game')}, {_plural(line.wins, 'win')}",
            f"average score {line.average:.1f} · best {line.best}",
        ]
        if line.rating is None:
            rows.append("not rated yet (rated games need two people)")
        else:
            rows.append(f"rating **{line.rating}** ({_plural(line.rated_games, 'rated game')})")
            if trend := trend_text(line.trend):
                rows.append(trend)
        fields.append((titles.get(line.game, line.game), "\n".join(rows), False))
    favourite = titles.get(stats.favourite, stats.favourite) if stats.favourite else None
    description = f"<@{stats.user_id}>" + (
        f" · favourite game: **{favourite}**" if favourite else ""
    )
    if not fields:
        description += "\nNo finished games in this server yet."
    return Panel(title="📊 Stats", description=description, fields=tuple(fields), colour=BLUE)
