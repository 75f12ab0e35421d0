"""The shared screens in Romanian, Estonian and Lithuanian, and with nothing left in English.

The pseudo-language (``tests/presentation/languages.py``) brackets every catalog text: whatever
English
is left outside the brackets in the result, the score sheet, the leaderboard, the stats, the
history or a replay step never went through the catalogs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest

import i18n
from engine import GAMES
from engine.base import Level, View
from engine.sheet import ended_sheet, running_sheet
from presentation.base import Names, Panel
from presentation.common import final_panel, final_screen, over_panel, own_result_line, score_table
from presentation.players import board_panel, decimal, stats_panel, trend_text
from presentation.replay import history_panel, replay_panels
from tests.presentation.languages import pseudo, untranslated

NAMES = Names(("Ann", "Bob", "Cyd"))
OUTCOME = {"totals": [30, 10, 25], "winners": [0]}


@dataclass(frozen=True)
class Entry:
    place: int
    user_id: int
    rating: int
    games: int
    wins: int


@dataclass(frozen=True)
class Page:
    game: str
    page: int
    pages: int
    entries: Sequence[Entry]


@dataclass(frozen=True)
class Line:
    game: str
    games: int
    wins: int
    average: float
    best: int
    rating: int | None
    rated_games: int
    trend: Sequence[int]


@dataclass(frozen=True)
class Stats:
    user_id: int
    games: Sequence[Line]
    favourite: str | None


@dataclass(frozen=True)
class Player:
    seat: int
    name: str
    user_id: int | None
    is_computer: bool
    level: Level | None = None
    left_name: str | None = None


@dataclass(frozen=True)
class Summary:
    game_id: int
    game: str
    ended_at: float
    players: Sequence[Player]
    totals: Sequence[int]
    winners: frozenset[int]


@dataclass(frozen=True)
class Frame:
    game: str
    step: int
    steps: int
    view: View
    players: Sequence[Player]
    move: tuple[int, str, str] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    left: tuple[int, ...] = ()


def panel_text(panel: Panel) -> str:
    """What a panel shows, as plain lines (no JSON: its true/false/null are not words)."""
    parts = [panel.title, panel.description, panel.footer or ""]
    parts += [f"{name}\n{value}" for name, value, _inline in panel.fields]
    return "\n".join(parts)


PLAYERS = (Player(0, "Ann", 7, False), Player(1, "Bob", None, True))
TITLES = {"hearts": "2-Player Hearts", "grinch": "Grinch"}


def _shared_panels() -> list[Panel]:
    """Every panel the shared screens make, for a finished three-player game."""
    view = {"outcome": OUTCOME, "seat": 1}
    result = final_panel("R", view, NAMES)
    panels = [
        result,
        over_panel("G", view, NAMES),
        *final_screen(result, view).panels,
        score_table("S", [("R", [1, None, 3])], running_sheet([5, 9, 9], lowest_wins=False), NAMES),
        score_table("S", [], ended_sheet([9, 9, 1], [1], lowest_wins=False), NAMES),
        score_table("S", [], ended_sheet([12], [], lowest_wins=False), Names(("Ann",))),
        final_panel("R", {"outcome": {"totals": [1, 1], "winners": [0, 1]}}, Names(("Ann", "Bob"))),
        final_panel("R", {"outcome": {"totals": [12], "winners": []}}, Names(("Ann",))),
    ]
    page = Page("hearts", 0, 2, [Entry(1, 7, 20, 1, 1), Entry(4, 8, 3, 5, 2)])
    panels.append(board_panel(page, TITLES, start=1000))
    rated = Line("hearts", 3, 1, 4.5, 2, 12, 3, (0, 4, 12))
    unrated = Line("grinch", 1, 0, 80.0, 80, None, 0, ())
    panels.append(stats_panel(Stats(7, [rated, unrated], "hearts"), TITLES, start=1000))
    panels.append(stats_panel(Stats(7, [], None), TITLES, start=1000))
    games = [Summary(1, "hearts", 1.7e9, PLAYERS, (12, 30), frozenset({0}))]
    panels += [history_panel(games, TITLES), history_panel([], TITLES, "Ann")]
    state = GAMES["hearts"].new_game(2, 1)
    spectator = GAMES["hearts"].view(state, None)
    for actor in ("computer", "timeout", "autopilot", "human"):
        frame = Frame("hearts", 3, 9, spectator, PLAYERS, (1, "x", actor))
        footer = replay_panels(frame)[0].footer or ""
        panels.append(Panel(title="", footer=footer.splitlines()[-1]))
    return panels


def test_no_english_is_left_in_the_shared_screens(monkeypatch: pytest.MonkeyPatch) -> None:
    pseudo(monkeypatch)
    allowed = ("Ann", "Bob", "Cyd", "Hearts", "Player", "Grinch", "x")  # names, titles, an action
    for panel in _shared_panels():
        assert not untranslated(panel_text(panel), allowed), panel_text(panel)
    for seat in range(3):
        line = own_result_line({"outcome": OUTCOME}, seat)
        assert not untranslated(line), line
    assert not untranslated(own_result_line({"outcome": {"totals": [3], "winners": [0]}}, 0))
    assert not untranslated(trend_text((0, 4, 3, 7)))


@pytest.mark.parametrize("language", ["ro", "et", "lt"])
def test_every_shared_screen_is_translated(language: str) -> None:
    with i18n.using("en"):
        english = [panel_text(p) for p in _shared_panels()]
    with i18n.using(language):
        translated = [panel_text(p) for p in _shared_panels()]
    for before, after in zip(english, translated, strict=True):
        assert before != after or not untranslated(before, ("Ann", "Bob", "Cyd"))


def test_romanian_result_lines() -> None:
    with i18n.using("ro"):
        assert own_result_line({"outcome": OUTCOME}, 0) == "🏆 Ai câștigat cu **30** de puncte!"
        lost = own_result_line({"outcome": OUTCOME}, 1)
        assert lost == "Ai terminat pe locul **3** din 3, cu **10** puncte."
        shared = final_panel("R", {"outcome": {"totals": [5, 5], "winners": [0, 1]}}, NAMES)
        assert shared.description.startswith("**Ann și Bob** împart victoria!")
        over = over_panel("🎄 Grinch", {"outcome": OUTCOME}, NAMES)
        assert over.title == "🎄 Grinch — joc încheiat"
        assert "**Ann** câștigă!" in over.description


def test_estonian_place_and_sheet() -> None:
    with i18n.using("et"):
        line = own_result_line({"outcome": OUTCOME}, 2)
        assert line == "Said 3 mängija seas **2**. koha: **25** punkti."
        sheet = score_table("S", [], ended_sheet([9, 9, 1], [1], lowest_wins=False), NAMES)
        assert sheet.fields[-1] == ("Võitja", "Bob", False)
        assert "Kokku: 9" in sheet.fields[0][1]


@pytest.mark.parametrize(
    ("n", "points"),
    [(1, "**1** taškas"), (2, "**2** taškai"), (5, "**5** taškai"), (10, "**10** taškų"),
     (12, "**12** taškų"), (21, "**21** taškas"), (-3, "**-3** taškai")],
)  # fmt: skip
def test_lithuanian_plural_forms(n: int, points: str) -> None:
    outcome = {"totals": [n, n - 100], "winners": [0]}
    with i18n.using("lt"):
        assert own_result_line({"outcome": outcome}, 0) == f"🏆 Laimėjai: {points}!"


def test_lithuanian_and_romanian_counts_on_the_leaderboard() -> None:
    page = Page("hearts", 0, 1, [Entry(1, 7, 20, 1, 21), Entry(2, 8, 3, 5, 2)])
    with i18n.using("lt"):
        text = board_panel(page, TITLES, start=1000).description
        assert "1 žaidimas · 21 pergalė" in text and "5 žaidimai · 2 pergalės" in text
        assert trend_text((0, 4, 3, 7)) == "▲ 7 per paskutinius 3 žaidimus (0 → 4 → 3 → 7)"
    with i18n.using("ro"):
        page = Page("hearts", 0, 1, [Entry(1, 7, 20, 20, 1)])
        assert "20 de jocuri · 1 victorie" in board_panel(page, TITLES, start=1000).description
        assert decimal(4.5) == "4,5"
    assert decimal(4.5) == "4.5"


def test_history_and_replay_in_estonian() -> None:
    state = GAMES["hearts"].new_game(2, 1)
    frame = Frame("hearts", 3, 9, GAMES["hearts"].view(state, None), PLAYERS, (1, "x", "computer"))
    with i18n.using("et"):
        assert history_panel([], TITLES, "Ann").title == "📜 Mängija Ann viimased mängud"
        assert history_panel([], TITLES).description == "Lõpetatud mänge veel pole."
        footer = replay_panels(frame)[0].footer or ""
        assert footer.endswith("Kordus · samm 3/9 · Bob 🤖: tegi käigu")
