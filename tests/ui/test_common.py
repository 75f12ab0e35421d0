"""The shared score table and result panel."""

from __future__ import annotations

from cogs.ui.base import Names
from cogs.ui.common import final_panel, score_table

NAMES = Names(("Ann", "Bo", "Cy"))


def test_running_sheet_shows_the_leaders_by_total() -> None:
    panel = score_table("Sheet", [("Row", [1, None, 3])], [5, 9, 9], NAMES)
    assert panel.fields == (("Leading", "Bo, Cy", False),)
    assert "·" in panel.description  # an empty cell
    low = score_table("Sheet", [], [5, 9, 9], NAMES, lowest_wins=True)
    assert low.fields[0][1] == "Ann"


def test_finished_sheet_names_the_engines_winners_not_the_highest_total() -> None:
    # A tie-break (as in Ten: more tokens) can give the win to one of two equal totals.
    panel = score_table("Sheet", [], [9, 9, 1], NAMES, winners=[1])
    assert panel.fields == (("Winner", "Bo", False),)
    nobody = score_table("Sheet", [], [12], Names(("Ann",)), winners=[])
    assert nobody.fields[0][1] == "nobody"


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
