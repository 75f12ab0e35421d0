"""Pictures from kept parts share palettes (presentation.drawing.shared) and show exactly what
each would show with a palette of its own."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine.base import View
from presentation.drawing import indexed
from presentation.drawing.api import Pictures
from presentation.drawing.fonts import RGB
from presentation.drawing.ops import Op, Paste
from presentation.drawing.parts import Parts, Sprite, pack
from presentation.drawing.shared import ROOM, Palettes
from tests.presentation.drawing.regen import CASES, shown
from tests.presentation.drawing.sample import turns

GAMES_SEATS = (("grinch", 4), ("gnome", 5), ("hearts", 2), ("ten", 3))


def _turns(seed: int, moves: int) -> list[tuple[View, list[str]]]:
    """The hand of the seat to act along a game of each kind, the games' turns interleaved
    as a drawing process meets them."""
    games = [turns(name, players, seed, moves) for name, players in GAMES_SEATS]
    return [hand for turn in zip(*games, strict=False) for hand in turn]


def _alone() -> Pictures:
    """A kit that keeps no palette: each picture gets one of its own, as before sharing."""
    pictures = Pictures()
    assert isinstance(pictures.faces, Parts)
    pictures.faces.palettes = Palettes(kept=0)
    return pictures


def test_pictures_on_shared_palettes_show_what_they_show_alone() -> None:
    shared, alone = Pictures(), _alone()
    turns = _turns(seed=5, moves=12)
    for view, names in turns:
        assert shown(shared.hand(view, names)) == shown(alone.hand(view, names))
    for name in sorted(CASES):  # tables, summaries, charts and cards, each its background
        assert shown(CASES[name](shared)) == shown(CASES[name](alone)), name
    assert isinstance(shared.faces, Parts) and isinstance(alone.faces, Parts)
    assert len(shared.faces.palettes) > 0
    assert len(alone.faces.palettes) == 0


def test_a_picture_drawn_again_maps_no_part_and_adds_no_colour() -> None:
    pictures = Pictures()
    assert isinstance(pictures.faces, Parts)
    view, names = _turns(seed=2, moves=3)[-1]
    first = pictures.hand(view, names)
    palettes = pictures.faces.palettes._kept
    before = [(list(p.keys), {key: core for key, (_, core) in p.mapped.items()}) for p in palettes]
    again = pictures.hand(view, names)
    after = [(list(p.keys), {key: core for key, (_, core) in p.mapped.items()}) for p in palettes]
    assert [keys for keys, _ in after] == [keys for keys, _ in before]
    for (_, old), (_, new) in zip(before, after, strict=True):  # the same mapped pixels
        assert new.keys() == old.keys() and all(new[key] is old[key] for key in old)
    assert shown(again) == shown(first)


def _sprite(colours: list[RGB], majors: int) -> Sprite:
    """A part whose pixels use each of ``colours`` once, left to right."""
    pixels = Image.new("P", (len(colours), 1))
    pixels.putdata(list(range(len(colours))))
    return Sprite(pixels, tuple(colours), majors)


def _grey(level: int) -> RGB:
    return level, level, level


def _lend(palettes: Palettes, background: RGB, *sprites: Sprite) -> list[int]:
    """The palette lent for ``sprites`` on ``background`` at the finest grid (as packed
    colours), after checking each part's mapped pixels show its own colours."""
    exact = [pack(background), *(pack(c) for s in sprites for c in s.colours[: s.majors])]
    exact = list(dict.fromkeys(exact))
    edges = {pack(c) for s in sprites for c in s.colours[s.majors :]} - set(exact)
    lent = palettes.lend(0, exact, edges, sprites)
    keys = [int.from_bytes(lent.rgb[i : i + 3], "big") for i in range(0, len(lent.rgb), 3)]
    for sprite in sprites:
        mapped = Image.new("P", sprite.pixels.size)
        mapped.im.paste(lent.mapped[id(sprite)], (0, 0, *sprite.pixels.size))
        assert [keys[i] for i in mapped.tobytes()] == [pack(c) for c in sprite.colours]
    assert lent.entries == {(k >> 16, k >> 8 & 255, k & 255): i for i, k in enumerate(keys)}
    return keys


def test_a_palette_grows_keeps_its_indices_and_maps_each_part_once() -> None:
    palettes = Palettes()
    felt = (0, 80, 0)
    ace, king = (
        _sprite([(255, 255, 255), (200, 0, 0), (120, 120, 120)], 2),
        _sprite([(255, 255, 255), (0, 0, 0), (64, 64, 64)], 2),
    )
    first = _lend(palettes, felt, ace)
    assert first[0] == pack(felt)
    ace_pixels = palettes._kept[0].mapped[id(ace)][1]
    second = _lend(palettes, felt, ace, king)
    assert second[: len(first)] == first  # appended: the entries already given stay
    assert len(palettes) == 1
    assert palettes._kept[0].mapped[id(ace)][1] is ace_pixels  # not mapped again
    assert _lend(palettes, felt, king) == second  # a subset: the same palette as it is


def test_another_background_or_a_full_palette_gets_a_palette_of_its_own() -> None:
    palettes = Palettes()
    many = _sprite([_grey(level) for level in range(200)], 200)
    others = _sprite([(level, 0, 0) for level in range(1, 101)], 100)
    _lend(palettes, (0, 0, 1), many)
    _lend(palettes, (0, 0, 2), many)  # the background is entry 0 of a new canvas
    assert len(palettes) == 2
    grown = _lend(palettes, (0, 0, 1), others)  # 201 + 100 > ROOM: no room in the first
    assert len(palettes) == 3 and len(grown) == 101
    assert all(len(p.keys) <= ROOM for p in palettes._kept)


def test_the_palettes_kept_and_the_parts_mapped_are_bounded() -> None:
    palettes = Palettes(kept=2, budget=6)  # bytes of mapped pixels: three parts of 1x2
    parts = [_sprite([_grey(level), _grey(level + 100)], 1) for level in range(1, 7)]
    for background in range(3):
        _lend(palettes, (background, 9, 9), parts[0])
    assert len(palettes) == 2  # the least recently used dropped
    assert palettes.bytes == 4
    older, newer = palettes._kept[1], palettes._kept[0]
    for sprite in parts[1:3]:
        _lend(palettes, (2, 9, 9), sprite)
    assert palettes.bytes <= 6
    assert older.bytes == 0 and not older.mapped  # the least recently used forgot first
    assert len(newer.mapped) == 3
    _lend(palettes, (2, 9, 9), parts[3], parts[4])  # past the budget in the palette lent
    assert set(newer.mapped) == {id(parts[3]), id(parts[4])}  # its picture's own kept
    assert palettes.bytes == 4


def _blocks(first: int) -> Image.Image:
    """A part of 64 areas of 5x5 pixels, each its own colour (each a major colour)."""
    image = Image.new("RGB", (64 * 5, 5))
    for i in range(64):
        colour = (first + i) * 97 % 251, (first + i) * 31 % 253, first + i
        image.paste(colour, (i * 5, 0, i * 5 + 5, 5))
    return image


@pytest.mark.parametrize("parts_count", [3, 5])
def test_a_picture_of_more_colours_than_a_palette_holds_draws_with_its_own(
    parts_count: int,
) -> None:
    """3 parts of 64 major colours fit a palette beside the background and are lent one;
    5 (321 colours) are past :data:`shared.ROOM`: the picture gets a palette of its own, its
    first colours exact and the others drawn in their nearest."""
    kit = Pictures()
    assert isinstance(kit.faces, Parts)
    images = [_blocks(64 * i) for i in range(parts_count)]
    ops: list[Op] = [Paste(image, 0, 5 * i) for i, image in enumerate(images)]
    data = indexed.render(kit.faces, ops, (320, 5 * parts_count), (0, 0, 0))
    drawn = Image.open(io.BytesIO(data)).convert("RGB")
    expected = Image.new("RGB", drawn.size)
    for i, image in enumerate(images):
        expected.paste(image, (0, 5 * i))
    exact = sum(
        drawn.getpixel((x, y)) == expected.getpixel((x, y))
        for x in range(2, 320, 5)
        for y in range(2, 5 * parts_count, 5)
    )
    assert len(kit.faces.palettes) == (1 if parts_count == 3 else 0)
    if parts_count == 3:
        assert exact == 64 * parts_count
    else:
        assert ROOM - 1 <= exact < 64 * parts_count
