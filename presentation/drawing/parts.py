"""The parts pictures are pasted from, made once and kept: every card face and back, and every
text label (words, size, typeface, colour and the colour under it), each reduced to a small
indexed :class:`Sprite` the first time a picture uses it.

One :class:`Parts` belongs to one drawing process (or one bot without processes), like the
:class:`FaceCache` it holds; both are bounded, least recently used parts dropped first. A
picture then costs a paste per part, no text rasterised, no pass over its pixels to choose
colours (see :mod:`presentation.drawing.indexed`).
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import compress, repeat

from PIL import Image, ImageChops, ImageDraw

import i18n
from presentation.drawing import fonts, letters
from presentation.drawing.faces import MAX_FACES, FaceCache
from presentation.drawing.fonts import RGB, Face, chosen_face, font
from presentation.drawing.lru import Lru
from presentation.drawing.ops import Op, Paste, Text
from presentation.drawing.shared import Palettes

PART_COLOURS = 256  # a part keeps its majors exact and at most this many colours in all
MAJOR_SHARE = 0.002  # a colour covering this share of a part (and MAJOR_PIXELS) is a major
MAJOR_PIXELS = 24
EDGE_STEP = 8  # edge colours are rounded to multiples of this (at most 4 off per channel)
GRIDS = (EDGE_STEP, 16, 32, 64)  # and then to these, until a picture's colours fit
# For each grid, every channel value rounded to it (255 at most).
_STEPS = tuple(
    tuple(min(255, (v + step // 2) // step * step) for v in range(256)) for step in GRIDS
)
PAD = 2  # pixels around a label's measured box: the sub-pixel start may shift its glyphs


@dataclass(frozen=True, slots=True)
class Sprite:
    """A part reduced to indices: ``pixels`` (mode P, its own palette unused) index
    ``colours``, whose first ``majors`` fill areas (kept exact in every picture; the others
    are anti-aliased edges). ``mask`` (mode L, 0 or 255) says where the part is pasted, None:
    everywhere; (dx, dy) is where its top-left corner lies from the integer position it is
    drawn at."""

    pixels: Image.Image
    colours: tuple[RGB, ...]
    majors: int
    mask: Image.Image | None = None
    dx: int = 0
    dy: int = 0
    keys: tuple[int, ...] = field(init=False)  # the colours packed as 0xRRGGBB
    # The edge colours (packed) rounded to a grid of GRIDS, by its index: made when asked.
    _grids: dict[int, tuple[int, ...]] = field(init=False, repr=False, compare=False)
    _sets: dict[int, frozenset[int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", tuple(map(pack, self.colours)))
        object.__setattr__(self, "_grids", {0: self.keys[self.majors :]})
        object.__setattr__(self, "_sets", {})

    def grid(self, index: int) -> tuple[int, ...]:
        """The edge colours rounded to the grid ``GRIDS[index]`` (packed)."""
        found = self._grids.get(index)
        if found is None:
            step = _STEPS[index]
            found = tuple(
                step[r] << 16 | step[g] << 8 | step[b] for r, g, b in self.colours[self.majors :]
            )
            self._grids[index] = found
        return found

    def edge_set(self, index: int) -> frozenset[int]:
        """:meth:`grid` as a set, for a picture's unions of its parts' edge colours."""
        found = self._sets.get(index)
        if found is None:
            found = self._sets[index] = frozenset(self.grid(index))
        return found


def pack(colour: RGB) -> int:
    return colour[0] << 16 | colour[1] << 8 | colour[2]


def unpack(key: int) -> RGB:
    return key >> 16, key >> 8 & 0xFF, key & 0xFF


class Parts:
    """Faces (drawn by ``cards``) and labels, each reduced to a :class:`Sprite` once."""

    def __init__(
        self, cards: FaceCache, *, max_sprites: int = MAX_FACES, max_labels: int = 1024
    ) -> None:
        self.cards = cards
        # Keyed by the face image's identity; the entry holds the image, so the id stays its.
        self._sprites: Lru[int, tuple[Image.Image, Sprite]] = Lru(max_sprites)
        self._labels: Lru[tuple[object, ...], Sprite] = Lru(max_labels)
        self._words: Lru[tuple[object, ...], tuple[Face, str]] = Lru(max_labels)
        self._clipped: Lru[tuple[object, ...], str] = Lru(max_labels)
        self._rehearsing = threading.local()  # per thread: pictures may be drawn in several
        self.palettes = Palettes()  # the pictures' palettes, each part mapped to one once

    @property
    def labels_made(self) -> int:
        """Labels rasterised so far (each text the first time a picture shows it)."""
        return self._labels.misses

    @property
    def rehearsing(self) -> bool:
        """Whether pictures laid out in this thread only make their parts."""
        return bool(getattr(self._rehearsing, "on", False))

    @contextlib.contextmanager
    def rehearsal(self) -> Iterator[None]:
        """Pictures laid out meanwhile in this thread make their parts (:meth:`prepare`)
        and are neither drawn nor encoded (their PNG is empty): what drawing ahead does with
        a picture that may come next, whose new captions are then found kept."""
        self._rehearsing.on = True
        try:
            yield
        finally:
            self._rehearsing.on = False

    def prepare(self, ops: Sequence[Op]) -> None:
        """Make and keep the part of each pasted face and each text of ``ops``."""
        for op in ops:
            if isinstance(op, Paste):
                self.sprite(op.image)
            elif isinstance(op, Text):
                self.label(op)

    def face(self, game: str, card: str, width: int) -> Image.Image:
        return self.cards.face(game, card, width)

    def back(self, game: str, width: int) -> Image.Image:
        return self.cards.back(game, width)

    def ahead(self, game: str, key: str, width: int) -> None:
        """Draw and reduce the face ``key`` ("" for the back) ahead of the pictures that will
        show it (:meth:`FaceCache.ahead`)."""
        self.sprite(self.cards.ahead(game, key, width))

    def requested(self, game: str | None = None) -> frozenset[str]:
        return self.cards.requested(game)

    def clear_requests(self) -> None:
        self.cards.clear_requests()

    def words(self, value: str) -> tuple[Face, str]:
        """The typeface ``value`` is drawn in here and now, and its printable form
        (:func:`fonts.face_for`, :func:`fonts.printable`), worked out once."""

        def make() -> tuple[Face, str]:
            face = fonts.face_for(value)
            return face, fonts.printable(value, face)

        return self._words.get((value, chosen_face(), i18n.current()), make)

    def clip(self, value: str, size: int, width: float) -> str:
        """:func:`fonts.clip`, measured once."""
        key = (value, size, width, chosen_face(), i18n.current())
        return self._clipped.get(key, lambda: fonts.clip(value, size, width))

    def sprite(self, image: Image.Image) -> Sprite:
        """The reduced form of a face or back this kit's ``cards`` drew."""
        kept, sprite = self._sprites.get(id(image), lambda: (image, reduce(image)))
        if kept is not image:  # an id reused after its face was dropped: make it anew
            sprite = reduce(image)
        return sprite

    def label(self, op: Text) -> Sprite:
        """The reduced form of a line of text over its ground colour."""
        fx, fy = math.modf(op.x)[0], math.modf(op.y)[0]
        key = (op.value, op.size, op.face, op.colour, op.anchor, op.stroke, op.ground, fx, fy)
        return self._labels.get(key, lambda: _label(op, fx, fy))


def _label(op: Text, fx: float, fy: float) -> Sprite:
    """Rasterise the text once, as ImageDraw.text would at (op.x, op.y): the same glyphs at
    the same sub-pixel start, blended into ``op.ground``."""
    if fx or fy:
        cover, ox, oy = _cover(op, fx, fy)
    else:
        cover, ox, oy = letters.cover(op.value, op.size, op.face, op.stroke, op.anchor, PAD)
    size = cover.size
    levels = cover.histogram()
    exact, snapped = _shades(op.colour, op.ground)
    threshold = max(MAJOR_PIXELS, size[0] * size[1] * MAJOR_SHARE)
    used = list(compress(range(256), levels))
    heavy = [level for level in used if levels[level] >= threshold]
    majors = dict.fromkeys(map(exact.__getitem__, heavy))
    target = list(snapped)  # each level's colour: on the grid but for the majors' levels
    for level in heavy:
        target[level] = exact[level]
    edges = dict.fromkeys(map(target.__getitem__, used))
    for colour in majors:
        edges.pop(colour, None)
    colours = [*majors, *edges]
    position = {colour: i for i, colour in enumerate(colours)}
    # A level no pixel has may map anywhere: the table is read only where pixels are.
    table = list(map(position.get, target, repeat(0)))
    pixels = cover._new(cover.im.point(table, "P"))
    mask = cover._new(cover.im.point(_SHOWN, None))
    return Sprite(pixels, tuple(colours), len(majors), mask, -ox, -oy)


_SHOWN = [0] + [255] * 255  # a label's mask: where any of its text covers


def _cover(op: Text, fx: float, fy: float) -> tuple[Image.Image, int, int]:
    """The text's coverage (mode L) drawn as ImageDraw.text draws it at the sub-pixel start
    (fx, fy), :data:`PAD` pixels around its box, and where the integer drawing position lies
    in it."""
    face = font(op.size, op.face)
    box = face.getbbox(op.value, anchor=op.anchor, stroke_width=op.stroke)
    ox, oy = PAD - math.floor(box[0]), PAD - math.floor(box[1])
    size = (
        math.ceil(box[2]) - math.floor(box[0]) + 2 * PAD,
        math.ceil(box[3]) - math.floor(box[1]) + 2 * PAD,
    )
    cover = Image.new("L", size, 0)
    ImageDraw.Draw(cover).text(
        (ox + fx, oy + fy),
        op.value,
        font=face,
        fill=255,
        anchor=op.anchor,
        stroke_width=op.stroke,
        stroke_fill=255,
    )
    return cover, ox, oy


@functools.lru_cache(maxsize=64)
def _shades(colour: RGB, ground: RGB) -> tuple[tuple[RGB, ...], tuple[RGB, ...]]:
    """Each coverage level's colour, blended as pasting ``colour`` through it onto ``ground``
    would: exact, and on the edges' grid."""
    ramp = Image.new("L", (256, 1))
    ramp.putdata(range(256))
    blends = Image.new("RGB", (256, 1), ground)
    blends.paste(colour, (0, 0, 256, 1), ramp)
    raw = blends.tobytes()
    exact = tuple(zip(raw[0::3], raw[1::3], raw[2::3], strict=True))
    snap = _STEPS[0]
    return exact, tuple((snap[r], snap[g], snap[b]) for r, g, b in exact)


def palette_image(colours: Sequence[RGB]) -> Image.Image:
    """A P image whose palette is ``colours`` (at most 256), padded with the first one:
    quantizing to it maps every colour to its nearest entry, the first of equals."""
    flat = [v for colour in colours for v in colour]
    flat += list(colours[0]) * (256 - len(colours))
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def nearest(colours: Sequence[RGB], palette: Image.Image) -> bytes:
    """For each of ``colours``, the index of its nearest entry of ``palette``."""
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(list(colours))
    return strip.quantize(palette=palette, dither=Image.Dither.NONE).tobytes()


def _counts(image: Image.Image, limit: int) -> list[tuple[int, RGB]]:
    """``image.getcolors``: (pixel count, colour) of an RGB image, or the index of a P one
    as (count, (index, 0, 0)); empty past ``limit`` colours."""
    counts: list[tuple[int, RGB]] = []
    for count, colour in image.getcolors(limit) or []:
        if isinstance(colour, tuple):
            counts.append((count, (int(colour[0]), int(colour[1]), int(colour[2]))))
        else:
            counts.append((count, (int(colour), 0, 0)))
    return counts


def reduce(image: Image.Image) -> Sprite:
    """``image`` (RGB) as indices into its own colours: its majors exact, its anti-aliased
    edge colours rounded to a grid of :data:`EDGE_STEP` (so the parts of one picture share
    their edges' colours), an octree's choice of them past :data:`PART_COLOURS`.

    Pillow maps an image to a given palette by cells of 5-6-5 bits (each cell to the entry
    nearest its middle), which can put a major's pixels on a neighbouring entry: each major's
    pixels are then set to its own entry."""
    area = image.width * image.height
    counts = sorted(_counts(image, area), key=lambda item: -item[0])
    threshold = max(MAJOR_PIXELS, area * MAJOR_SHARE)
    majors = [colour for count, colour in counts if count >= threshold][: PART_COLOURS // 4]
    kept = set(majors)
    edges = [
        c for c in dict.fromkeys(_snap(c) for _, c in counts if c not in kept) if c not in kept
    ]
    room = PART_COLOURS - len(majors)
    if len(edges) > room:
        edges = _octree(edges, room)
    colours = majors + edges
    palette = palette_image(colours)
    pixels = image.quantize(palette=palette, dither=Image.Dither.NONE)
    found = nearest(majors, palette) if majors else b""
    for index, colour in enumerate(majors):
        if found[index] != index:  # its cell went to another entry: its pixels to its own
            exact = ImageChops.difference(image, Image.new("RGB", image.size, colour))
            here = exact.convert("L").point([255] + [0] * 255)
            pixels.paste(index, mask=here)
    return Sprite(pixels, tuple(colours), len(majors))


def _octree(colours: Sequence[RGB], count: int) -> list[RGB]:
    """At most ``count`` colours standing for ``colours``, each counted once."""
    strip = Image.new("RGB", (len(colours), 1))
    strip.putdata(list(colours))
    reduced = strip.quantize(count, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = reduced.getpalette() or []
    used = sorted({index for _, (index, _, _) in _counts(reduced, 256)})
    return [(flat[3 * i], flat[3 * i + 1], flat[3 * i + 2]) for i in used]


def _snap(colour: RGB) -> RGB:
    """``colour`` rounded to the grid of :data:`EDGE_STEP`."""
    snap = _STEPS[0]
    return snap[colour[0]], snap[colour[1]], snap[colour[2]]
