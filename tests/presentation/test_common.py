"""The shared score sheet, result panel, closing table and last DM."""

from __future__ import annotations

from dataclasses import dataclass

import i18n
from engine import GAMES
from engine.base import Level
from engine.sheet import ended_sheet, running_sheet
from presentation.base import Names, computer_label, seat_list
from presentation.common import (
    LINE_WIDTH,
    final_panel,
    final_screen,
    over_panel,
    own_result_line,
    places,
    score_table,
    wrap,
)
from presentation.lobby import lobby_panel

NAMES = Names(("Ann", "Bo", "Cy"))
LONG = Names(
    (
        "Alexandra the Great",
        "Bartholomew Jones",
        "Christopher Robin",
        "Dorothea Brooke",
        "Ebenezer Scrooge",
        "Francesca da Rimini",
    ),
    frozenset({5}),
)
GRINCH_ROWS = ("Wreaths", "Noise", "Ornaments", "Presents", "Rainbow", "Match", "Run")


def test_running_sheet_shows_the_leaders_by_total() -> None:
    panel = score_table(
        "Sheet", [("Row", [1, None, 3])], running_sheet([5, 9, 9], lowest_wins=False), NAMES
    )
    assert panel.fields[-1] == ("Leading", "Bo, Cy", False)
    assert ("Bo", "Row: — · Total: 9", True) in panel.fields  # an empty cell
    assert panel.description.splitlines() == ["1. **Bo** — 9", "1. **Cy** — 9", "3. **Ann** — 5"]
    low = score_table("Sheet", [], running_sheet([5, 9, 9], lowest_wins=True), NAMES)
    assert low.fields[-1][1] == "Ann"
    assert low.description.splitlines()[0] == "1. **Ann** — 5"


def test_finished_sheet_names_the_engines_winners_not_the_highest_total() -> None:
    # A tie-break (as in Ten: more tokens) can give the win to one of two equal totals.
    panel = score_table("Sheet", [], ended_sheet([9, 9, 1], [1], lowest_wins=False), NAMES)
    assert panel.fields[-1] == ("Winner", "Bo", False)
    assert panel.description.splitlines()[:2] == ["🏆 **Bo** — 9", "2. **Ann** — 9"]
    nobody = score_table("Sheet", [], ended_sheet([12], [], lowest_wins=False), Names(("Ann",)))
    assert nobody.fields[-1][1] == "nobody"


def test_a_six_player_sheet_fits_a_phone_with_full_names() -> None:
    rows = [
        (row, [n * 3 + s if n != s else None for s in range(6)])
        for n, row in enumerate(GRINCH_ROWS)
    ]
    totals = [100 + s for s in range(6)]
    panel = score_table("Grinch score sheet", rows, running_sheet(totals, lowest_wins=False), LONG)
    text = [panel.description, *(f"{name}\n{value}" for name, value, _ in panel.fields)]
    for line in "\n".join(text).splitlines():
        assert len(line) <= LINE_WIDTH, line
    for seat, name in enumerate(LONG.names):
        assert name in panel.description  # never cut
        field = next(f for f in panel.fields if f[0].startswith(name))
        for row in GRINCH_ROWS:
            assert f"{row}: " in field[1]
        assert f"Total: {totals[seat]}" in field[1]
    assert ("Francesca da Rimini 🤖", panel.fields[5][1], True) == panel.fields[5]
    assert len(panel.fields) == 7


def test_extras_add_a_line_per_player() -> None:
    panel = score_table(
        "Sheet", [], running_sheet([1, 2, 3], lowest_wins=False), NAMES, extras=["a", "", "c"]
    )
    assert panel.fields[0][1].endswith("\na") and "\n" not in panel.fields[1][1]


def test_wrap_keeps_items_whole() -> None:
    assert wrap(["aaaa", "bbbb", "cccc"], width=11) == "aaaa · bbbb\ncccc"
    assert wrap(["x" * 50, "y"], width=10) == "x" * 50 + "\ny"


def test_result_panel() -> None:
    view = {"outcome": {"totals": [30, 10, 30], "winners": [0, 2]}}
    panel = final_panel("Result", view, NAMES)
    assert panel.description.startswith("**Ann and Cy** share the win!")
    lowest = final_panel(
        "Result", {"outcome": {"totals": [3, 1, 2], "winners": [1]}}, NAMES, lowest_wins=True
    )
    assert lowest.description.index("Bo") < lowest.description.index("Cy")
    solo = final_panel("Result", {"outcome": {"totals": [12], "winners": []}}, Names(("Ann",)))
    assert solo.description.startswith("No winner")


def test_the_closing_table_names_the_winner_without_repeating_the_result() -> None:
    view = {"outcome": {"totals": [30, 10, 25], "winners": [0]}}
    panel = over_panel("🎄 Grinch", view, NAMES)
    assert panel.title == "🎄 Grinch — game over"
    assert "**Ann** wins!" in panel.description
    assert "10" not in panel.description and "25" not in panel.description  # no totals twice


def test_places_put_the_engines_winners_first() -> None:
    assert places([9, 9, 1], [1], lowest_wins=False) == [2, 1, 3]
    assert places([3, 1, 3, 7], [1], lowest_wins=True) == [2, 1, 2, 4]


def test_each_player_s_last_dm_carries_the_result_and_their_place() -> None:
    outcome = {"totals": [30, 10, 25], "winners": [0]}
    result = final_panel("🏆 Result", {"outcome": outcome}, NAMES)
    won = final_screen(result, {"outcome": outcome, "seat": 0})
    (panel,) = won.panels
    assert panel.title == "🏆 Result" and not won.controls
    assert panel.description.startswith("🏆 You won with **30** points!")
    assert "**Ann and" not in panel.description and "**Ann** wins!" in panel.description
    for seat in range(3):
        assert f"— {outcome['totals'][seat]}" in panel.description  # every total
    lost = final_screen(result, {"outcome": outcome, "seat": 1}).panels[0].description
    assert lost.startswith("You finished in place **3** of 3 with **10** points.")
    low = own_result_line({"outcome": outcome}, 1, lowest_wins=True)
    assert low == "You finished in place **2** of 3 with **10** points."  # Ann won on a tie-break
    shared = own_result_line({"outcome": {"totals": [5, 5], "winners": [0, 1]}}, 1)
    assert shared == "🏆 You share the win with **5** points!"
    ten = own_result_line({"outcome": {"totals": [4, 4], "winners": [1], "places": [2, 1]}}, 0)
    assert ten == "You finished in place **2** of 2 with **4** points."
    solo = own_result_line({"outcome": {"totals": [12], "winners": []}}, 0)
    assert solo == "You finished with **12** points."


def test_a_computer_that_took_a_seat_is_named_with_whose_seat_it_was() -> None:
    names = Names(("Cindy-Bot", "Bo"), frozenset({0}), ("Ann", None))
    view = {"outcome": {"totals": [30, 12], "winners": [0]}}
    result = final_panel("R", view, names)
    assert result.description.startswith("**Cindy-Bot 🤖 (took Ann's seat)** wins!")
    assert "🏆 **Cindy-Bot 🤖 (took Ann's seat)** — 30" in result.description
    assert "▫️ **Bo** — 12" in result.description
    assert "Cindy-Bot 🤖 (took Ann's seat)" in over_panel("G", view, names).description
    plain = final_panel("R", view, Names(("Cindy-Bot", "Bo"), frozenset({0})))
    assert plain.description.startswith("**Cindy-Bot 🤖** wins!")


def test_a_computer_is_named_with_its_level_wherever_its_name_is_shown() -> None:
    names = Names(
        ("Ann", "Robo Max", "Cindy-Bot"),
        frozenset({1, 2}),
        levels=(None, Level.HARD, Level.EASY),
    )
    assert [names.label(s) for s in range(3)] == ["Ann", "Robo Max 🤖 hard", "Cindy-Bot 🤖 easy"]
    assert seat_list(names, {0: "▶️ "}).splitlines() == [
        "▶️ Ann",
        "Robo Max 🤖 hard",
        "Cindy-Bot 🤖 easy",
    ]
    view = {"outcome": {"totals": [3, 9, 5], "winners": [1]}}
    result = final_panel("R", view, names).description
    assert result.startswith("**Robo Max 🤖 hard** wins!")
    assert "▫️ **Cindy-Bot 🤖 easy** — 5" in result
    with i18n.using("ro"):
        assert names.label(1) == "Robo Max 🤖 greu" and computer_label("X", Level.NORMAL) == (
            "X 🤖 mediu"
        )
    with i18n.using("lt"):
        assert names.label(2) == "Cindy-Bot 🤖 lengvas"
    with i18n.using("et"):
        assert names.label(1) == "Robo Max 🤖 raske"
    assert computer_label("X") == "X 🤖"  # a level not known (an old caller): the robot only


@dataclass(frozen=True)
class _Seat:
    user_id: int | None
    name: str
    is_computer: bool = False
    accepted: bool = True
    level: Level = Level.NORMAL


def test_the_lobby_shows_each_computers_level() -> None:
    seats = [_Seat(1, "Ann"), _Seat(None, "Robo Max", True, level=Level.HARD)]
    text = lobby_panel(GAMES["grinch"], seats, 1).description
    assert "🙂 Ann (host)" in text and "▫️ Robo Max 🤖 hard" in text


def test_a_closed_challenge_waits_for_nobody() -> None:
    seats = [_Seat(1, "Ann"), _Seat(2, "Bo", accepted=False)]
    open_ = lobby_panel(GAMES["hearts"], seats, 1).description
    assert "⏳ Bo — waiting for them to accept" in open_
    declined = lobby_panel(GAMES["hearts"], seats, 1, "Closed.", declined_by=2).description
    assert "✖️ Bo — declined the challenge" in declined and "waiting" not in declined
    withdrawn = lobby_panel(GAMES["hearts"], seats, 1, "Closed.").description  # the host left
    assert "➖ Bo\n" in withdrawn and "waiting" not in withdrawn and "declined" not in withdrawn
    with i18n.using("ro"):
        text = lobby_panel(GAMES["hearts"], seats, 1, "Închis.", declined_by=2).description
        assert "✖️ Bo — a refuzat provocarea" in text


def test_pictures_name_a_computer_that_took_a_seat_by_whose_seat_it_was() -> None:
    from presentation.base import Names
    from presentation.common import picture_names

    names = Names(("Ann", "Robo Max"), frozenset({1}), (None, "Bo"))
    assert picture_names(names) == ["Ann", "Robo Max (took Bo's seat)"]
