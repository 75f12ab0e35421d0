"""Composing a picture: a canvas of table felt, cards placed on it, captions, PNG bytes.

A :class:`Sheet` grows downwards: compositions place things at absolute positions inside a
fixed width and the sheet is cropped to the lowest thing drawn when it is encoded. It records
its steps (:mod:`presentation.drawing.ops`) and draws them when encoded: from kept parts on a
palette canvas (:mod:`presentation.drawing.indexed`), or, for the reference, on a full-colour
canvas quantized by :func:`encode`.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw

from presentation.drawing import fonts, frame
from presentation.drawing.faces import FaceCache
from presentation.drawing.fonts import RGB, fit, font
from presentation.drawing.indexed import render, text_chunks
from presentation.drawing.ops import Op, Paste, Shape, Symbol, Text
from presentation.drawing.palette import HIGHLIGHT, SLOT, TABLE, TABLE_LIGHT, WHITE
from presentation.drawing.parts import Parts
from presentation.drawing.vector import draw_vector

# What a picture draws its cards with: kept parts (the bot) or bare faces (the reference).
Kit = FaceCache | Parts

MAX_WIDTH = 1200
# Readable on a phone: a phone shows a picture in a chat about PHONE_WIDTH px wide, and text
# shown smaller than READABLE_PX px high is hard to read there. The hands of Grinch, Gnoming and
# Hearts meet it with every caption (9 to 10 px); pictures made for a phone meet it too.
PHONE_WIDTH = 360
READABLE_PX = 9


def readable_size(width: int) -> int:
    """The smallest text size on a picture ``width`` px wide that a phone, showing it
    :data:`PHONE_WIDTH` px wide, still shows :data:`READABLE_PX` px high."""
    return math.ceil(READABLE_PX * width / PHONE_WIDTH)


MARGIN = 20
COLOURS = 256
SMALL = 200_000  # pixels: below this the palette is chosen on the picture itself


def encode(image: Image.Image, texts: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes with no timestamp, and text chunks only for ``texts`` (key: text, the
    numbers a chart shows): the same image and texts give the same bytes.

    Pictures are flat colours plus anti-aliased edges, so a 256-colour palette looks the same
    and halves the size; a palette PNG needs no per-row filter search, and run-length zlib
    suits it. The palette is chosen (fast octree) on a half-size copy and every pixel then
    mapped to its nearest entry, which is about twice as fast as an octree over every pixel
    and differs from it only on a few anti-aliased edge pixels (bench/pictures.py measures).
    """
    sample = image.reduce(2) if image.width * image.height > SMALL else image
    palette = sample.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    indexed = (
        palette if sample is image else image.quantize(palette=palette, dither=Image.Dither.NONE)
    )
    buffer = io.BytesIO()
    indexed.save(
        buffer, format="PNG", compress_level=6, compress_type=zlib.Z_RLE, pnginfo=text_chunks(texts)
    )
    return buffer.getvalue()


class Sheet:
    """One picture in the making, for one game's cards: every step is recorded (see
    :mod:`presentation.drawing.ops`) and drawn when the sheet is encoded, by the kit that
    made the sheet's parts: a :class:`Parts` pastes reduced parts on a palette canvas, a bare
    :class:`FaceCache` draws on a full-colour canvas and quantizes it (the reference)."""

    def __init__(
        self,
        faces: Kit,
        game: str,
        width: int,
        max_height: int,
        *,
        background: RGB = TABLE,
    ) -> None:
        if width > MAX_WIDTH:
            raise ValueError(f"A picture is at most {MAX_WIDTH} px wide.")
        self.faces = faces
        self.game = game
        self.width = width
        self.height = max_height
        self.background = background
        self.ops: list[Op] = []
        self.bottom = 0

    def _used(self, y: float) -> None:
        self.bottom = max(self.bottom, round(y))

    def card(self, card: str | None, x: float, y: float, width: int, *, mark: bool = False) -> None:
        """The face of ``card`` (a back when None) with its top-left corner at (x, y)."""
        face = (
            self.faces.back(self.game, width)
            if card is None
            else self.faces.face(self.game, card, width)
        )
        self.ops.append(Paste(face, round(x), round(y)))
        if mark:
            pad = max(3, width // 25)
            box = (x - pad, y - pad, x + width + pad, y + face.height + pad)
            self.ops.append(
                Shape(
                    "rounded_rectangle",
                    box,
                    outline=HIGHLIGHT,
                    width=pad,
                    radius=max(5, width // 10),
                )
            )
        self._used(y + face.height + (max(3, width // 25) if mark else 0))

    def row(
        self,
        cards: Sequence[str | None],
        x: float,
        y: float,
        width: int,
        *,
        step: float | None = None,
        marked: Sequence[int] = (),
    ) -> float:
        """Cards left to right (overlapping when ``step`` < width); returns the right edge."""
        step = width + max(6, width // 12) if step is None else step
        for i, card in enumerate(cards):
            self.card(card, x + i * step, y, width, mark=i in marked)
        return x + (len(cards) - 1) * step + width if cards else x

    def slot(self, x: float, y: float, width: int, caption: str = "") -> None:
        """An empty place for a card: a dashed-looking outline with a caption inside."""
        height = frame.card_height(width)
        box = (x, y, x + width, y + height)
        self.ops.append(
            Shape(
                "rounded_rectangle",
                box,
                outline=SLOT,
                width=max(2, width // 40),
                radius=max(4, width // 12),
            )
        )
        if caption:
            size = fit(caption, max(12, width // 4), width * 0.85)
            self.caption(x + width / 2, y + height / 2, caption, size, anchor="mm")
        self._used(y + height)

    def caption(
        self,
        x: float,
        y: float,
        value: str,
        size: int,
        *,
        colour: RGB = WHITE,
        anchor: str = "la",
        bold: bool = False,
        max_width: float | None = None,
    ) -> None:
        """A line of text; cut short with "..." to ``max_width`` if given."""
        if max_width is not None:
            kit = self.faces
            value = (
                kit.clip(value, size, max_width)
                if isinstance(kit, Parts)
                else fonts.clip(value, size, max_width)
            )
        self.text((x, y), value, size, colour, anchor=anchor, bold=bold)
        self._used(y + size * (1.0 if anchor[1] in "at" else 0.5))

    def text(
        self,
        xy: tuple[float, float],
        value: str,
        size: int,
        colour: RGB,
        *,
        anchor: str = "mm",
        bold: bool = False,
    ) -> None:
        """``value`` anchored at ``xy`` as :func:`fonts.text` draws it (no bookkeeping of the
        sheet's height: for pictures of a fixed size)."""
        if isinstance(self.faces, Parts):
            face, printed = self.faces.words(value)
        else:
            face = fonts.face_for(value)
            printed = fonts.printable(value, face)
        stroke = max(1, size // 22) if bold else 0
        x, y = xy
        ground = self._ground(x + _SHIFT[anchor[0]] * size, y + _SHIFT[anchor[1]] * size)
        self.ops.append(Text(x, y, printed, size, face, colour, anchor, stroke, ground))

    def panel(
        self,
        box: tuple[float, float, float, float],
        *,
        colour: RGB = TABLE_LIGHT,
        outline: RGB | None = None,
    ) -> None:
        """A rounded area behind a group of things (a seat, a pile)."""
        self.ops.append(
            Shape(
                "rounded_rectangle",
                box,
                fill=colour,
                outline=outline,
                width=3 if outline else 0,
                radius=12,
            )
        )
        self._used(box[3])

    def line(self, xy: Sequence[float], colour: RGB, width: int, *, curve: bool = False) -> None:
        """A line through the points ``xy`` (x0, y0, x1, y1, ...)."""
        self.ops.append(
            Shape("line", tuple(xy), fill=colour, width=width, joint="curve" if curve else None)
        )

    def symbol(self, name: str, cx: float, cy: float, r: float, colour: RGB) -> None:
        """One of the kit's vector symbols (:mod:`presentation.drawing.shapes`)."""
        self.ops.append(Symbol(name, cx, cy, r, colour))

    def png(self, *, crop: bool = True, texts: Mapping[str, str] | None = None) -> bytes:
        """The picture, cropped to what was drawn (unless ``crop`` is False), as PNG bytes
        with text chunks for ``texts`` (see :func:`encode`)."""
        height = min(self.height, self.bottom + MARGIN) if crop else self.height
        if isinstance(self.faces, Parts):
            if self.faces.rehearsing:
                self.faces.prepare(self.ops)
                return b""
            return render(self.faces, self.ops, (self.width, height), self.background, texts)
        return encode(paint(self.ops, (self.width, height), self.background), texts)

    def _ground(self, x: float, y: float) -> RGB:
        """The colour the latest step covering (x, y) left there (a panel, a card face), or
        the background: what a text drawn there blends into."""
        for op in reversed(self.ops):
            if isinstance(op, Paste):
                dx, dy = round(x) - op.x, round(y) - op.y
                if 0 <= dx < op.image.width and 0 <= dy < op.image.height:
                    pixel = op.image.getpixel((dx, dy))
                    assert isinstance(pixel, tuple)
                    return (pixel[0], pixel[1], pixel[2])
            elif isinstance(op, Shape) and op.fill is not None and op.kind == "rounded_rectangle":
                x0, y0, x1, y1 = op.xy
                if x0 <= x <= x1 and y0 <= y <= y1:
                    return op.fill
        return self.background


# Where the middle of a text lies from its anchor, in text sizes (Pillow's anchor letters).
_SHIFT = {"l": 0.5, "m": 0.0, "r": -0.5, "a": 0.5, "t": 0.5, "s": -0.3, "b": -0.5, "d": -0.5}


def paint(ops: Sequence[Op], size: tuple[int, int], background: RGB) -> Image.Image:
    """The steps drawn on a full-colour canvas, as Pillow draws them (the reference)."""
    image = Image.new("RGB", size, background)
    draw = ImageDraw.Draw(image)
    for op in ops:
        if isinstance(op, Paste):
            image.paste(op.image, (op.x, op.y))
        elif isinstance(op, Shape | Symbol):
            draw_vector(draw, op)
        else:
            draw.text(
                (op.x, op.y),
                op.value,
                font=font(op.size, op.face),
                fill=op.colour,
                anchor=op.anchor,
                stroke_width=op.stroke,
                stroke_fill=op.colour,
            )
    return image


def card_height(width: int) -> int:
    return frame.card_height(width)
