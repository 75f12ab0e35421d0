"""Every game's hand picture reads on a phone: Discord shows a picture at the width of the
screen, about 360 px on a small phone.

The minimums, at 360 px wide:

- a card at least 40 px wide: its corner index (rank and suit shape, about a third of the
  card's width) is then 13 px or more, the size of Discord's own small text on such a phone;
  the faces of a 30 px card blur into their colour;
- caption text at least 9 px high (the font size, ascender to descender): the smallest text
  a phone reader takes in without zooming, below Discord's 12 px timestamps, which the
  pictures' bold strokes and high contrast make up for. Pictures drawn at 1200 px with 16 px
  names (4.8 px on the phone) were reported unreadable.

The sizes are recorded as each picture is drawn (every card and caption goes through the
drawing kit's Sheet) and scaled by 360 / the picture's width.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

import i18n
from engine import GAMES
from presentation.drawing.api import Pictures
from presentation.drawing.layout import Sheet
from tests.presentation.drawing.sample import MID_GAME, advance

PHONE = 360
MIN_CARD = 40
MIN_TEXT = 9


@pytest.mark.parametrize("language", ["en", "lt"])
@pytest.mark.parametrize("game", sorted(MID_GAME))
def test_a_hand_reads_at_phone_width(
    game: str, language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cards: list[int] = []
    texts: list[tuple[int, str]] = []
    card, caption = Sheet.card, Sheet.caption

    def record_card(self: Sheet, face: Any, x: float, y: float, width: int, **kw: Any) -> None:
        cards.append(width)
        card(self, face, x, y, width, **kw)

    def record_caption(self: Sheet, x: float, y: float, value: str, size: int, **kw: Any) -> None:
        texts.append((size, value))
        caption(self, x, y, value, size, **kw)

    monkeypatch.setattr(Sheet, "card", record_card)
    monkeypatch.setattr(Sheet, "caption", record_caption)
    position = MID_GAME[game]
    state, _ = advance(position)
    pictures = Pictures()
    with i18n.using(language):
        for seat in range(len(position.names)):
            cards.clear()
            texts.clear()
            view = GAMES[position.game].view(state, seat)
            png = pictures.hand(view, position.names)
            scale = PHONE / Image.open(io.BytesIO(png)).width
            assert cards, "no card drawn"
            assert min(cards) * scale >= MIN_CARD, (seat, min(cards) * scale)
            small = [(round(s * scale, 1), v) for s, v in texts if s * scale < MIN_TEXT]
            assert not small, (seat, small)
