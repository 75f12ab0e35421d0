"""Pictures from kept parts look like the reference pictures, pixel by pixel.

The reference draws every step on a full-colour canvas and quantizes the whole picture to 256
colours (an octree), which is how every picture was drawn before kept parts; the same steps
drawn unquantized are the drawing itself. Kept parts keep every colour that fills an area
exact (the felt, a card's paper, a suit's ink, every panel and outline) and round only the
anti-aliased edge colours: to a grid of 8 per channel (4 off at most), then, in a picture
whose edges do not fit the palette, to a grid of at most 32 (16 more). So, against the
drawing itself, a pixel of the new picture is at most 20 off in any channel, and on average
no further off than the reference's. Against the reference, pixel by pixel: on average at
most 1 further than the reference is from the drawing (its octree moves whole areas by a
unit or two), and at most 1% more pixels more than 16 apart than the reference has more
than 16 off the drawing (up to 3% on a Gnoming summary: its octree merges the pattern
colours of many cards).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager

import pytest
from PIL import Image, ImageChops

from engine import GAMES
from presentation.drawing import layout
from presentation.drawing.api import Pictures
from tests.presentation.drawing.regen import CASES, reference, shown
from tests.presentation.drawing.sample import MID_GAME, Position, views

FROM_DRAWING_MAX = 20
FROM_REFERENCE_MEAN = 1.0  # beyond the reference's own mean distance from the drawing
FROM_REFERENCE_FAR = 0.01  # share of pixels more than 16 off, beyond the reference's own
LARGE = (
    Position("grinch", 6, 2, 40),
    Position("gnome", 7, 4, 120),
    Position("hearts", 2, 8, 0),
    Position("ten", 5, 9, 300),
)
Render = Callable[[Pictures], bytes]


def _hand_and_table(position: Position) -> dict[str, Render]:
    state, own, spectator = views(position)
    seat = 0 if own is None else own["seat"]
    hand = GAMES[position.game].view(state, seat)
    return {
        f"{position}-hand": lambda pictures: pictures.hand(hand, position.names),
        f"{position}-table": lambda pictures: pictures.table(spectator, position.names),
    }


def _cases() -> dict[str, Render]:
    cases = {name: render for name, render in CASES.items() if not name.endswith("-cards")}
    for position in LARGE:
        cases.update(_hand_and_table(position))
    cards = {"grinch": "P6b", "gnome": "HZ-02", "hearts": "QS", "ten": "W#"}
    for game, card in cards.items():
        cases[f"{game}-card"] = _card(game, card)
    return cases


def _card(game: str, card: str) -> Render:
    return lambda pictures: pictures.card(game, card)


CASE_RENDERS = _cases()


@contextmanager
def _drawings() -> Iterator[list[Image.Image]]:
    """The reference's unquantized canvases, in the order it encodes them."""
    seen: list[Image.Image] = []
    encode = layout.encode

    def keep(image: Image.Image, texts: Mapping[str, str] | None = None) -> bytes:
        seen.append(image.copy())
        return encode(image, texts)

    layout.encode = keep
    try:
        yield seen
    finally:
        layout.encode = encode


def _rgb(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGB")


def _off(a: Image.Image, b: Image.Image) -> list[int]:
    """Histogram of each pixel's largest channel difference."""
    r, g, b_ = ImageChops.difference(a, b).split()
    return ImageChops.lighter(ImageChops.lighter(r, g), b_).histogram()


def _mean(histogram: list[int]) -> float:
    return sum(i * n for i, n in enumerate(histogram)) / sum(histogram)


def _max(histogram: list[int]) -> int:
    return max(i for i, n in enumerate(histogram) if n)


@pytest.fixture(scope="module")
def kits() -> tuple[Pictures, Pictures]:
    return reference(), Pictures()


@pytest.mark.parametrize("case", sorted(CASE_RENDERS))
def test_kept_parts_draw_the_reference_picture(case: str, kits: tuple[Pictures, Pictures]) -> None:
    old_kit, new_kit = kits
    render = CASE_RENDERS[case]
    with _drawings() as drawings:
        old = _rgb(render(old_kit))
    new = _rgb(render(new_kit))
    drawing = drawings[-1]
    assert new.size == old.size == drawing.size
    from_drawing, old_from_drawing = _off(new, drawing), _off(old, drawing)
    assert _max(from_drawing) <= FROM_DRAWING_MAX, case
    assert _mean(from_drawing) <= _mean(old_from_drawing), case
    from_old = _off(new, old)
    assert _mean(from_old) <= _mean(old_from_drawing) + FROM_REFERENCE_MEAN, case
    far = sum(old_from_drawing[17:]) / sum(old_from_drawing) + FROM_REFERENCE_FAR
    assert sum(from_old[17:]) <= far * sum(from_old), case


def test_area_colours_are_exact() -> None:
    """The felt, a card's paper and a suit's ink come out as drawn, not merely close."""
    state, _, _ = views(MID_GAME["hearts"])
    hand = GAMES["hearts"].view(state, 0)
    with _drawings() as drawings:
        reference().hand(hand, MID_GAME["hearts"].names)
    new = _rgb(Pictures().hand(hand, MID_GAME["hearts"].names))
    counts = drawings[-1].getcolors(1 << 20) or []
    area = [colour for count, colour in counts if count >= 2000]
    assert len(area) >= 4
    found = {colour for _, colour in new.getcolors(256) or []}
    assert set(area) <= found


def test_the_same_view_gives_the_same_picture() -> None:
    """Kept parts choose a picture's palette from its parts alone: drawing it again, or in
    a kit that has drawn other pictures since, gives the same picture (palette and pixels)."""
    render = CASE_RENDERS["hearts-hand"]
    first = render(Pictures())
    pictures = Pictures()
    for other in ("grinch-table", "gnome-hand", "hearts-table"):
        CASE_RENDERS[other](pictures)
    assert shown(render(pictures)) == shown(first) == shown(render(pictures))
