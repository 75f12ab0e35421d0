"""Readable on a phone: every word of a picture made for one is at least READABLE_PX px high
when the phone shows the picture PHONE_WIDTH px wide.

The measure is the size each piece of text is drawn at, scaled to the phone's width. The hands
of Grinch, Gnoming and Hearts set the bar with their captions (9 to 10 px); Ten's hand, its
round table and its final standings meet it with every word, the cards' words included, in
every language the bot speaks.
"""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from PIL import Image

import i18n
from engine import GAMES
from presentation.drawing import fonts
from presentation.drawing.api import Pictures
from presentation.drawing.faces import FaceCache
from presentation.drawing.layout import PHONE_WIDTH, READABLE_PX, Sheet
from presentation.drawing.looks import looks
from tests.presentation.drawing.sample import MID_GAME, Position, advance

LANGUAGES = ("en", "ro", "lt", "et")
Drawn = list[tuple[str, int, str]]  # ("face" of a card or "caption", size, text)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> Iterator[Drawn]:
    """Every text drawn while the test runs: on a card's face, or a caption of the picture."""
    found: Drawn = []
    original = fonts.text
    on_card: list[bool] = []  # drawing a card's face now

    def text(draw: Any, xy: Any, value: str, size: int, *args: Any, **kw: Any) -> None:
        found.append(("face" if on_card else "caption", size, value))
        original(draw, xy, value, size, *args, **kw)

    def face(self: FaceCache, game: str, card: str, width: int) -> Image.Image:
        on_card.append(True)
        try:
            return drawn_face(self, game, card, width)
        finally:
            on_card.pop()

    def sheet_text(self: Sheet, xy: Any, value: str, size: int, *args: Any, **kw: Any) -> None:
        found.append(("face" if on_card else "caption", size, value))
        sheet_original(self, xy, value, size, *args, **kw)

    drawn_face = FaceCache.face
    sheet_original = Sheet.text  # a picture's own words are steps of its sheet
    monkeypatch.setattr(FaceCache, "face", face)
    monkeypatch.setattr(Sheet, "text", sheet_text)
    for name, module in list(sys.modules.items()):
        if name.startswith("presentation.") and getattr(module, "text", None) is original:
            monkeypatch.setattr(module, "text", text)
    yield found


def _smallest(found: Drawn, png: bytes, *, faces: bool) -> tuple[float, str]:
    """The smallest text of a picture as a phone shows it (px), and that text; ``faces``:
    the words on the cards count too."""
    width = Image.open(io.BytesIO(png)).width
    sizes = [(s, v) for kind, s, v in found if faces or kind == "caption"]
    size, value = min(sizes)
    return size * PHONE_WIDTH / width, value


@pytest.mark.parametrize("game", ["grinch", "gnome", "hearts"])
def test_the_other_games_hands_set_the_bar(game: str, drawn: Drawn) -> None:
    position = MID_GAME[game]
    state, _ = advance(position)
    seat = min(GAMES[game].to_act(state))
    png = Pictures(FaceCache(looks())).hand(GAMES[game].view(state, seat), position.names)
    shown, value = _smallest(drawn, png, faces=False)
    assert shown >= READABLE_PX, (shown, value)


TEN = [Position("ten", p, seed, moves) for p, seed, moves in ((1, 2, 30), (3, 4, 60), (5, 7, 90))]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("position", TEN, ids=lambda p: f"{p.players}p")
def test_every_word_of_a_ten_hand_reads_on_a_phone(
    language: str, position: Position, drawn: Drawn
) -> None:
    state, _ = advance(position)
    game = GAMES["ten"]
    names = [f"Player {chr(65 + s)} with a long name" for s in range(position.players)]
    with i18n.using(language):
        for seat in range(position.players):
            drawn.clear()
            png = Pictures(FaceCache(looks())).hand(game.view(state, seat), names)
            shown, value = _smallest(drawn, png, faces=True)
            assert shown >= READABLE_PX, (shown, value)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("players", [1, 2, 3, 5])
def test_every_word_of_tens_channel_pictures_reads_on_a_phone(
    language: str, players: int, drawn: Drawn
) -> None:
    _, history = advance(Position("ten", players, players + 1, -1))
    names = [f"Player {chr(65 + s)}" for s in range(players)]
    with i18n.using(language):
        for view in (history[len(history) // 2], history[-1]):  # a round, the standings
            drawn.clear()
            png = Pictures(FaceCache(looks())).summary(view, names)
            assert png is not None
            shown, value = _smallest(drawn, png, faces=True)
            assert shown >= READABLE_PX, (shown, value)
