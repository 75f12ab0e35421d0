"""Gnoming's grids in text name the special cards by their initials in the reader's language,
the initials the legend under them explains."""

from __future__ import annotations

import pytest

import i18n
from tests.presentation.test_gnoming_ui import opened, put, table, table_blocks


@pytest.mark.parametrize("language", ["en", "ro", "lt", "et"])
def test_grid_initials_are_the_languages_own(language: str) -> None:
    state = opened()
    put(state, 0, 0, "HZ-01")
    put(state, 0, 1, "MU-01")
    with i18n.using(language):
        panel = table(state)
        hazard, mulligan = table_blocks(panel)[0][:2]
        # Each letter is the initial of the card's name as the buttons and sentences say it.
        assert hazard == i18n.pgettext("gnoming", "Hazard")[0].upper()
        assert mulligan == i18n.pgettext("gnoming", "Mulligan")[0].upper()
        assert (panel.footer or "").startswith(f"{hazard} "), panel.footer
        assert f" {mulligan} " in (panel.footer or ""), panel.footer


def test_an_empty_pile_agrees_with_its_name_in_romanian() -> None:
    """Romanian "gol" (empty) is masculine or neuter: the pile it describes is a "teanc", as in
    the picture's "Teancul A", never the feminine "decartare"."""
    state = opened()
    state.draw.extend(state.piles[0])  # every card stays in the game
    state.piles[0].clear()
    with i18n.using("ro"):
        shown = table(state).description
        assert "Teancul A: gol" in shown, shown
