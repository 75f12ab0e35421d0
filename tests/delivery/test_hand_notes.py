"""A note put on a hand while the hand is being drawn is not lost (delivery.hands._drew)."""

from __future__ import annotations

from delivery.hands import _drew
from delivery.shown import DmShown, PrivateKey
from i18n import later

KEY: PrivateKey = ({}, [], 3, None, False, "en")


def test_the_note_drawn_is_cleared_and_the_key_kept() -> None:
    note = later("Your last move was not saved.")
    dm = DmShown(note=note)
    _drew(dm, KEY, note)
    assert dm.note is None and dm.key == KEY


def test_a_note_set_meanwhile_waits_for_the_next_draw() -> None:
    dm = DmShown(note=None)
    drawn_with = dm.note  # the hand's text was made without a note ...
    dm.note = later("Your last move was not saved.")  # ... then one came while it waited
    dm.key = None
    _drew(dm, KEY, drawn_with)
    assert dm.note is not None  # kept for the next hand job
    assert dm.key is None  # and that job does not take the hand for shown
