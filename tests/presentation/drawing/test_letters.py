"""A label put together from its letters' kept bitmaps is the label ImageDraw.text draws: the
same coverage, box and position, on many strings, sizes, strokes (none too), anchors and both
typefaces, whether its box is found from its letters or measured by the font."""

from __future__ import annotations

import random
from typing import Any

import pytest

from presentation.drawing import letters, parts
from presentation.drawing.fonts import Face, font
from presentation.drawing.ops import Text

LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ·-:,.;!?'()/+%"
    "ȘșȚțĂăÂâÎîÕõÄäÖöÜüŠšŽžĄąČčĘęĖėĮįŲųŪū"
)
PAIRS = ("fi", "ffl", "AV", "To", "Wa", "Ty", "LT", "r.", "yo", "T.", "AV.")
# Spaces at either end, letters below the baseline, and combining marks (DejaVu draws them;
# the embedded typeface's printable text has none) each at its own pen, as Pillow puts them.
EDGES = ("", " ", "  a  ", "a ", " a", "W", "-", "gjpqy ÁÉ", "e\u0301", "J\u030c", "ė\u0303x")
CAPTIONS = (
    "Deck 95 · Player B to act",
    "Your score 1 · coins 5 · bust tokens 0 · spending power 6",
    "Ștefan Õun Ąžuolas",
)
ANCHORS = ("la", "lt", "ls", "lm", "lb", "ld", "ma", "mm", "ms", "mt", "rb", "rs", "ra", "rd")
FACES: tuple[Face, ...] = ("embedded", "dejavu")
SIZES = (9, 12, 14, 16, 20, 22, 24, 28, 33, 41, 56)


def _strings(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        parts_ = [rng.choice(LETTERS) for _ in range(rng.randint(1, 32))]
        if rng.random() < 0.3:
            parts_.insert(rng.randint(0, len(parts_)), rng.choice(PAIRS))
        out.append("".join(parts_))
    return out


@pytest.mark.parametrize("face", FACES)
@pytest.mark.parametrize("stroke", [0, 1, 2, 3])
def test_kept_letters_make_imagedraws_label(face: Face, stroke: int) -> None:
    rng = random.Random(stroke)
    values = [*_strings(10 * FACES.index(face) + stroke, 120), *PAIRS, *EDGES, *CAPTIONS]
    for value in values:
        size = rng.choice(SIZES)
        anchor = rng.choice(ANCHORS)
        op = Text(0.0, 0.0, value, size, face, (255, 255, 255), anchor, stroke, (30, 70, 52))
        drawn, ox, oy = parts._cover(op, 0.0, 0.0)
        kept, kx, ky = letters.cover(value, size, face, stroke, anchor, parts.PAD)
        assert (kept.size, kx, ky) == (drawn.size, ox, oy), (value, size, anchor)
        assert kept.tobytes() == drawn.tobytes(), (value, size, anchor)


def test_a_letter_is_rasterised_once() -> None:
    letters._letter.cache_clear()
    letters.cover("Deck 95 · Deck 95", 23, "embedded", 2, "la", parts.PAD)
    letters.cover("Deck 96", 23, "embedded", 2, "la", parts.PAD)
    assert letters._letter.cache_info().misses == len(set("Deck 95 · 6"))


def _watch(monkeypatch: pytest.MonkeyPatch, face: Face, size: int, seen: list[str]) -> None:
    """Note each value the font at ``size`` measures."""
    typeface = font(size, face)
    real = typeface.getbbox

    def getbbox(value: str, *args: Any, **kwargs: Any) -> tuple[float, float, float, float]:
        seen.append(value)
        return real(value, *args, **kwargs)

    monkeypatch.setattr(typeface, "getbbox", getbbox)


def test_whole_pens_need_no_measure(monkeypatch: pytest.MonkeyPatch) -> None:
    """The embedded typeface's pens are whole pixels: a label's box comes from its letters,
    the label itself never measured. A kerning of a fraction of a pixel (DejaVu's "AV") has
    the font measure the box, and the label is still Pillow's."""
    measured: list[str] = []
    _watch(monkeypatch, "embedded", 24, measured)
    _watch(monkeypatch, "dejavu", 24, measured)
    letters.cover("Deck 95 · AV", 24, "embedded", 0, "ma", parts.PAD)
    assert "Deck 95 · AV" not in measured
    assert letters._advance(24, "dejavu", "A", "V") % 64  # off the whole pixel
    kept, kx, ky = letters.cover("AV", 24, "dejavu", 0, "ma", parts.PAD)
    assert "AV" in measured
    monkeypatch.undo()
    op = Text(0.0, 0.0, "AV", 24, "dejavu", (255, 255, 255), "ma", 0, (30, 70, 52))
    drawn, ox, oy = parts._cover(op, 0.0, 0.0)
    assert (kept.size, kx, ky) == (drawn.size, ox, oy)
    assert kept.tobytes() == drawn.tobytes()
