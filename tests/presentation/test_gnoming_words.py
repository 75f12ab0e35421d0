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
