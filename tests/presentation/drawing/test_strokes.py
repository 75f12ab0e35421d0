"""A stroked label put together from its letters' kept bitmaps is the label ImageDraw.text
draws: the same coverage, box and position, on many strings, sizes, strokes and anchors."""

from __future__ import annotations

import random

import pytest

from presentation.drawing import parts, strokes
from presentation.drawing.fonts import Face
from presentation.drawing.ops import Text

LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ·-:,.;!?'()/+%"
    "ȘșȚțĂăÂâÎîÕõÄäÖöÜüŠšŽžĄąČčĘęĖėĮįŲųŪū"
)
PAIRS = ("fi", "ffl", "AV", "To", "Wa", "Ty", "LT", "r.", "yo")
ANCHORS = ("la", "lt", "ls", "lm", "lb", "ld", "ma", "mm", "ms", "mt", "rb", "rs", "ra", "rd")
FACES: tuple[Face, ...] = ("embedded", "dejavu")


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
@pytest.mark.parametrize("stroke", [1, 2, 3])
def test_kept_letters_make_imagedraws_label(face: Face, stroke: int) -> None:
    rng = random.Random(stroke)
    for value in _strings(10 * FACES.index(face) + stroke, 60) + list(PAIRS) + [" ", "  a  "]:
        size = rng.choice((9, 12, 16, 20, 24, 28, 33, 41, 56))
        anchor = rng.choice(ANCHORS)
        op = Text(0.0, 0.0, value, size, face, (255, 255, 255), anchor, stroke, (30, 70, 52))
        drawn, ox, oy = parts._cover(op, 0.0, 0.0)
        kept, kx, ky = strokes.cover(value, size, face, stroke, anchor, parts.PAD)
        assert (kept.size, kx, ky) == (drawn.size, ox, oy), (value, size, anchor)
        assert kept.tobytes() == drawn.tobytes(), (value, size, anchor)


def test_a_letter_is_stroked_once() -> None:
    strokes._letter.cache_clear()
    strokes.cover("Deck 95 · Deck 95", 23, "embedded", 2, "la", parts.PAD)
    assert strokes._letter.cache_info().misses == len(set("Deck 95 · "))
