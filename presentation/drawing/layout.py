"""Composing a picture: a canvas of table felt, cards placed on it, captions, PNG bytes.

A :class:`Sheet` grows downwards: compositions place things at absolute positions inside a
fixed width and the sheet is cropped to the lowest thing drawn when it is encoded.
"""

from __future__ import annotations

import io
import math
import zlib
from collections.abc import Mapping, Sequence

from PIL import Image, ImageDraw, PngImagePlugin

from presentation.drawing import frame
from presentation.drawing.faces import FaceCache
from presentation.drawing.fonts import RGB, clip, fit, text
from presentation.drawing.palette import HIGHLIGHT, SLOT, TABLE, TABLE_LIGHT, WHITE

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
    info = None
    if texts:
        info = PngImagePlugin.PngInfo()
        for key, value in texts.items():
            info.add_itxt(key, value)
    indexed.save(buffer, format="PNG", compress_level=6, compress_type=zlib.Z_RLE, pnginfo=info)
    return buffer.getvalue()


class Sheet:
    """One picture in the making, for one game's cards."""

    def __init__(self, faces: FaceCache, game: str, width: int, max_height: int) -> None:
        if width > MAX_WIDTH:
            raise ValueError(f"A picture is at most {MAX_WIDTH} px wide.")
        self.faces = faces
        self.game = game
        self.width = width
        self.image = Image.new("RGB", (width, max_height), TABLE)
        self.draw = ImageDraw.Draw(self.image)
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
        self.image.paste(face, (round(x), round(y)))
        if mark:
            pad = max(3, width // 25)
            self.draw.rounded_rectangle(
                (x - pad, y - pad, x + width + pad, y + face.height + pad),
                max(5, width // 10),
                outline=HIGHLIGHT,
                width=pad,
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
        self.draw.rounded_rectangle(
            (x, y, x + width, y + height),
            max(4, width // 12),
            outline=SLOT,
            width=max(2, width // 40),
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
            value = clip(value, size, max_width)
        text(self.draw, (x, y), value, size, colour, anchor=anchor, bold=bold)
        self._used(y + size * (1.0 if anchor[1] in "at" else 0.5))

    def panel(
        self,
        box: tuple[float, float, float, float],
        *,
        colour: RGB = TABLE_LIGHT,
        outline: RGB | None = None,
    ) -> None:
        """A rounded area behind a group of things (a seat, a pile)."""
        self.draw.rounded_rectangle(
            box, 12, fill=colour, outline=outline, width=3 if outline else 0
        )
        self._used(box[3])

    def png(self) -> bytes:
        """The picture, cropped to what was drawn, as PNG bytes."""
        height = min(self.image.height, self.bottom + MARGIN)
        return encode(self.image.crop((0, 0, self.width, height)))


def card_height(width: int) -> int:
    return frame.card_height(width)
