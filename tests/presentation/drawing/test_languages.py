"""Pictures in every language: all their words from the catalogs, every letter drawn.

The pseudo-language (``tests/presentation/languages.py``) brackets every catalog text; the
strings the
pictures hand to Pillow are recorded while random positions of every game are drawn, and
any English word outside the brackets was never translated. In Romanian, Estonian and
Lithuanian the recorded strings must keep their letters (ș, õ, ė ...) and each must have a
glyph in the font it is drawn with: no missing-glyph boxes, no dropped accents.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po
from PIL import ImageDraw, ImageFont

import i18n
from engine import GAMES
from i18n.catalogs import po_path
from presentation.drawing import fonts, parts
from presentation.drawing.api import Pictures, series_from_views
from presentation.drawing.looks import looks
from presentation.drawing.ops import Text
from tests.presentation.drawing.sample import Position, advance
from tests.presentation.languages import pseudo, untranslated

NAMES = ("Ann", "Bob", "Cyd", "Dee", "Eve", "Fay", "Gus")
TITLE_WORDS = ("Grinch", "Gnoming", "Round", "Player", "Hearts", "Ten")  # proper names
ALPHABETS = {
    "ro": "ăâîșțĂÂÎȘȚ",
    "et": "õäöüšžÕÄÖÜŠŽ",
    "lt": "ąčęėįšųūžĄČĘĖĮŠŲŪŽ",
}
POSITIONS = [
    Position(game, players, seed, moves)
    for game, players in (
        ("grinch", 2),
        ("grinch", 5),
        ("gnome", 3),
        ("gnome", 7),
        ("hearts", 2),
        ("ten", 1),
        ("ten", 4),
    )
    for seed, moves in ((1, 4), (2, 23), (3, 71), (4, 160), (5, -1))
]
Drawn = list[tuple[str, Any]]  # (text, font) of every call to ImageDraw.text


def record(monkeypatch: pytest.MonkeyPatch) -> Drawn:
    """Record what the pictures write instead of drawing it (the pixels do not matter here)."""
    drawn: Drawn = []

    def write(self: ImageDraw.ImageDraw, xy: Any, text: str, *args: Any, **kwargs: Any) -> None:
        drawn.append((text, kwargs.get("font")))

    label = parts._label

    def kept(op: Text, fx: float, fy: float) -> parts.Sprite:
        """A label of kept parts, which asks the font for its bitmap itself."""
        drawn.append((op.value, fonts.font(op.size, op.face)))
        return label(op, fx, fy)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", write)
    monkeypatch.setattr(parts, "_label", kept)
    return drawn


def pictures_of(position: Position) -> Iterator[str]:
    """Draw every picture of one position (hands, table, summary, chart); yields their kinds."""
    game = GAMES[position.game]
    names = list(NAMES[: position.players])
    pictures = Pictures()
    state, history = advance(position)
    spectator = game.view(state, None)
    for seat in range(position.players):
        pictures.hand(game.view(state, seat), names)
        yield "hand"
    pictures.table(spectator, names)
    yield "table"
    pictures.summary(spectator, names)
    yield "summary"
    outcome = spectator.get("outcome")
    winners = list(outcome["winners"]) if outcome else []
    pictures.chart(position.game, series_from_views(history), names, winners=winners)
    yield "chart"


@pytest.mark.parametrize("game", sorted({p.game for p in POSITIONS}))
def test_every_word_in_the_pictures_comes_from_the_catalogs(
    game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    pseudo(monkeypatch)
    # Whole strings, as the pictures ask for them: nothing clipped, nothing filtered.
    monkeypatch.setattr(fonts, "printable", lambda value, face=None: value)
    monkeypatch.setattr(fonts, "text_width", lambda value, size: 0.0)
    drawn = record(monkeypatch)
    leftovers: dict[str, str] = {}
    for position in (p for p in POSITIONS if p.game == game):
        for kind in pictures_of(position):
            allowed = NAMES + (TITLE_WORDS if kind == "chart" else ())
            for text, _font in drawn:
                for word in untranslated(text, allowed):
                    if not _card_code(game, word):
                        leftovers.setdefault(word, f"{kind} {position}: {text!r}")
            drawn.clear()
    assert not leftovers, leftovers


def _card_code(game: str, word: str) -> bool:
    """Whether ``word`` is a card's code ("QC" in a Hearts card's corner), not a word."""
    try:
        looks()[game].key(word)
    except ValueError:
        return False
    return True


def _missing(font: ImageFont.FreeTypeFont, char: str) -> bool:
    mask, box = font.getmask(char), font.getmask("\uffff")
    return (mask.size, bytes(mask)) == (box.size, bytes(box))


@pytest.mark.parametrize("language", sorted(ALPHABETS))
def test_the_font_draws_every_letter_of_the_language(language: str) -> None:
    letters = ALPHABETS[language]
    with i18n.using(language):
        assert fonts.face_for("Ann") == "dejavu"
        assert fonts.printable(f"Ann {letters}") == f"Ann {letters}"
        for size in (12, 20, 28):
            assert not [c for c in letters if _missing(fonts.font(size, "dejavu"), c)]
    with i18n.using("en"):  # a player's name with such letters keeps them in English too
        assert fonts.printable(f"Ann {letters}") == f"Ann {letters}"


@pytest.mark.parametrize("language", sorted(ALPHABETS))
def test_every_translation_can_be_drawn_whole(language: str) -> None:
    with po_path(language, "screens").open("rb") as source:
        catalog = read_po(source, locale=language)
    with i18n.using(language):
        for message in catalog:
            string = message.string
            strings = [string] if isinstance(string, str) else list(string or ())
            for text in filter(None, strings):
                assert fonts.printable(text) == " ".join(text.split()), text


@pytest.mark.parametrize("language", sorted(ALPHABETS))
def test_pictures_in_a_language_use_its_words_and_letters(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    drawn = record(monkeypatch)
    with i18n.using(language):
        for position in POSITIONS[::3]:
            for _kind in pictures_of(position):
                pass
    texts = [text for text, _font in drawn]
    assert any(set(ALPHABETS[language]) & set(text) for text in texts)
    for text, font in drawn:
        assert isinstance(font, ImageFont.FreeTypeFont)
        assert not [c for c in text if not c.isspace() and _missing(font, c)], text


def test_a_lithuanian_ten_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = record(monkeypatch)
    with i18n.using("lt"):
        for _kind in pictures_of(Position("ten", 3, 3, 60)):
            pass
    texts = {text for text, _font in drawn}
    assert "Rinka" in texts and any(t.startswith("Kaladė ") for t in texts)
    assert "Ėjimas" in texts  # the chart's axis
