"""Drawing a sheet's steps from kept parts onto a palette canvas, and encoding it.

The picture's palette is chosen from what its parts already know, never from its pixels:
every colour a shape fills with and every major colour of a part (a card's paper, a suit's
ink, the felt) is kept exact; the parts' anti-aliased edge colours (already rounded to a grid
of 8 per channel by :func:`parts.reduce`) fill the rest of the 256 entries, rounded to a
coarser grid until they fit (16 or 32: edge pixels only). Each part is then pasted
through a lookup table from its own colours to the picture's, and the canvas is already the
indexed image a PNG stores: no quantizing pass over the picture, and a fast deflate of its
indices (:mod:`presentation.drawing.png`).

The palette is lent by the kit (:mod:`presentation.drawing.shared`): one it already holds
that has the picture's colours, or room for them, with the parts it shares with earlier
pictures already mapped to it. Only a picture whose colours do not fit at any grid gets a
palette of its own, its other colours drawn in their nearest.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain, repeat
from typing import TYPE_CHECKING

from PIL import ImageDraw, PngImagePlugin

from presentation.drawing.fonts import RGB
from presentation.drawing.ops import Op, Paste, Shape, Symbol, Text
from presentation.drawing.parts import (
    GRIDS,
    Parts,
    Sprite,
    nearest,
    pack,
    palette_image,
    unpack,
)
from presentation.drawing.png import RowCanvas, palette_png
from presentation.drawing.shared import ROOM, Lent
from presentation.drawing.shared import rgb as _rgb
from presentation.drawing.vector import draw_vector

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore


def render(
    parts: Parts,
    ops: Sequence[Op],
    size: tuple[int, int],
    background: RGB,
    texts: Mapping[str, str] | None = None,
) -> bytes:
    """PNG bytes of ``ops`` on a ``size`` canvas of ``background``, with text chunks only for
    ``texts`` (key: text; see :func:`presentation.drawing.layout.encode`)."""
    sprites = [_sprite(parts, op) for op in ops]
    distinct = _distinct(sprites)
    exact = _exact(ops, distinct, background)
    fit = _fit(exact, distinct)
    if fit is None:  # more colours than a palette holds: this picture's own, nearest colours
        colours = _palette(exact, distinct)
        lent = Lent(_rgb(colours.keys), {}, _mapped(distinct, _tables(distinct, colours)))
    else:
        grid, edges = fit
        lent = parts.palettes.lend(grid, exact, edges, distinct)
    mapped = lent.mapped
    rows = RowCanvas(size)  # the pixels drawn where the PNG deflates them
    canvas = rows.image
    canvas.putpalette(lent.rgb)
    draw = ImageDraw.Draw(canvas)
    if lent.entries and draw.palette is not None:
        draw.palette.colors = lent.entries  # known: Pillow would read them off the palette
    core = canvas.im  # pasted into as Image.paste does, without its checks: same modes
    for op, sprite in zip(ops, sprites, strict=True):
        if sprite is not None:
            assert isinstance(op, Paste | Text)
            x, y = (op.x, op.y) if isinstance(op, Paste) else (int(op.x), int(op.y))
            x, y = x + sprite.dx, y + sprite.dy
            width, height = sprite.pixels.size
            box = (x, y, x + width, y + height)
            if sprite.mask is None:
                core.paste(mapped[id(sprite)], box)
            else:
                core.paste(mapped[id(sprite)], box, sprite.mask.im)
        elif isinstance(op, Shape | Symbol):
            draw_vector(draw, op)
    return palette_png(rows, texts)


def text_chunks(texts: Mapping[str, str] | None) -> PngImagePlugin.PngInfo | None:
    """A PNG's text chunks (key: text), or None for none."""
    if not texts:
        return None
    info = PngImagePlugin.PngInfo()
    for key, value in texts.items():
        info.add_itxt(key, value)
    return info


def _sprite(parts: Parts, op: Op) -> Sprite | None:
    if isinstance(op, Paste):
        return parts.sprite(op.image)
    if isinstance(op, Text):
        return parts.label(op)
    return None


def _exact(ops: Sequence[Op], sprites: Sequence[Sprite], background: RGB) -> list[int]:
    """The colours a picture keeps exact (packed), in order: the background, every shape's
    and every part's major colours."""
    exact: dict[int, None] = {pack(background): None}
    for op in ops:
        if isinstance(op, Shape):
            if op.fill is not None:
                exact[pack(op.fill)] = None
            if op.outline is not None:
                exact[pack(op.outline)] = None
        elif isinstance(op, Symbol):
            exact[pack(op.colour)] = None
    exact.update(dict.fromkeys(chain.from_iterable(s.keys[: s.majors] for s in sprites)))
    return list(exact)


def _fit(exact: Sequence[int], sprites: Sequence[Sprite]) -> tuple[int, set[int]] | None:
    """The finest grid of :data:`parts.GRIDS` at which the parts' edge colours fit beside
    ``exact`` in a palette, and those edge colours; None if none does."""
    room = ROOM - len(exact)
    if room < 0:
        return None
    for grid in range(len(GRIDS)):
        edges: set[int] = set().union(*(sprite.edge_set(grid) for sprite in sprites))
        edges.difference_update(exact)
        if len(edges) <= room:
            return grid, edges
    return None


def _palette(exact: Sequence[int], sprites: Sequence[Sprite]) -> _Palette:
    """The palette of a picture whose colours do not all fit (:func:`_fit` found none): its
    first exact colours, then its parts' edge colours on the finest grid at which they fit,
    else as many as fit on the coarsest; the others are drawn in their nearest colour
    (:func:`_tables`)."""
    chosen = list(exact)[:ROOM]
    room = ROOM - len(chosen)
    kept = set(chosen)
    rest: list[int] = []
    grid = 0
    for grid in range(len(GRIDS)):
        edges = dict.fromkeys(chain.from_iterable(sprite.grid(grid) for sprite in sprites))
        rest = [key for key in edges if key not in kept]
        if len(rest) <= room:
            break
    return _Palette(chosen + rest[:room], grid)


class _Palette:
    """A picture's colours and the grid (an index of :data:`parts.GRIDS`) of its edges."""

    def __init__(self, keys: list[int], grid: int) -> None:
        self.keys = keys
        self.grid = grid

    def table(self, sprite: Sprite, index: dict[int, int]) -> list[int]:
        get, edges = index.get, sprite.grid(self.grid)
        return [
            *map(get, sprite.keys[: sprite.majors], repeat(-1, sprite.majors)),
            *map(get, edges, repeat(-1, len(edges))),
        ]


def _tables(sprites: Sequence[Sprite], palette: _Palette) -> dict[int, list[int]]:
    """Each part's lookup table from its colours to the picture's: the same (or rounded)
    colour where the picture has it, else the nearest (rare: a picture of more than 248
    major colours)."""
    colours = palette.keys
    index = {key: i for i, key in reversed(list(enumerate(colours)))}
    tables = {id(sprite): palette.table(sprite, index) for sprite in sprites}
    if any(-1 in table for table in tables.values()):
        missing = list(
            dict.fromkeys(key for sprite in sprites for key in sprite.keys if key not in index)
        )
        found = nearest(
            [unpack(key) for key in missing], palette_image([unpack(key) for key in colours])
        )
        limit = len(colours)  # the padding repeats entry 0
        nearest_of = dict(zip(missing, found, strict=True))
        for sprite in sprites:
            table = tables[id(sprite)]
            for i, key in enumerate(sprite.keys):
                if table[i] < 0:
                    table[i] = nearest_of[key] if nearest_of[key] < limit else 0
    for table in tables.values():
        table.extend([0] * (256 - len(table)))
    return tables


def _mapped(sprites: Sequence[Sprite], tables: Mapping[int, list[int]]) -> dict[int, ImagingCore]:
    """Each part through its table, in C: Image.point would first round every entry in
    Python."""
    return {id(sprite): sprite.pixels.im.point(tables[id(sprite)], None) for sprite in sprites}


def _distinct(sprites: Sequence[Sprite | None]) -> list[Sprite]:
    seen: dict[int, Sprite] = {}
    for sprite in sprites:
        if sprite is not None:
            seen.setdefault(id(sprite), sprite)
    return list(seen.values())
