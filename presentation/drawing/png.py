"""A palette PNG written here, its pixels deflated by ISA-L (the ``isal`` package).

Pillow's PNG encoder deflates with the zlib its wheel carries, about half of a hand picture's
cost at zlib's fastest level; ISA-L's level 1 is four to five times faster on the same
indices and packs them as small. The container is simple enough to write: the signature,
IHDR (8 bits per pixel, colour type 3: palette), PLTE, the text chunks, one IDAT of the
rows each led by filter byte 0 (none: a palette picture's flat areas and repeats deflate
well as they are, and the other filters cost a pass over every byte to choose), IEND.
Any PNG decoder reads it; the pixels are the canvas's, index for index. ISA-L does not
promise the same bytes for the same rows (now and then it deflates them into a stream a few
bytes apart that inflates the same): the same canvas gives the same pixels, not always the
same IDAT, so nothing compares pictures by their bytes.

A :class:`RowCanvas` keeps its pixels in that IDAT layout already (each row one byte in,
after its filter byte), so its rows are deflated where they lie: no copy of the picture
before the deflate.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Mapping
from typing import cast

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
LEVEL = 1  # ISA-L's levels run 0-3; 1 is as fast as 0 and packs a palette picture smaller
_IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"


class RowCanvas:
    """A blank palette canvas (every pixel index 0) whose pixels live in :attr:`rows`, laid
    out as a PNG's IDAT rows: row ``y`` starts at ``rows[y * (width + 1)]`` with its filter
    byte (0, never drawn on), then the row's ``width`` indices. Drawing on :attr:`image`
    (Pillow's core, ImageDraw) writes into ``rows``; :func:`palette_png` deflates them as
    they are."""

    def __init__(self, size: tuple[int, int]) -> None:
        width, height = size
        if width < 1 or height < 1:
            raise ValueError(f"A PNG is at least 1x1, not {width}x{height}.")
        stride = width + 1
        self._buffer = bytearray(stride * height + 1)  # zeroed: index 0 and filter byte 0
        # Pillow maps a P image over a buffer with the given row stride; the view one byte in
        # leaves each row's first byte (its filter byte) outside the image. (Pillow maps any
        # buffer; its type hints name bytes.)
        pixels = cast(bytes, memoryview(self._buffer)[1:])
        self.image = Image.frombuffer("P", size, pixels, "raw", "P", stride, 1)
        # A mapped image is marked read-only so Pillow copies it before a change; this one is
        # meant to be drawn on in place.
        self.image.readonly = 0
        self.rows = memoryview(self._buffer)[: stride * height]


def palette_png(canvas: Image.Image | RowCanvas, texts: Mapping[str, str] | None = None) -> bytes:
    """PNG bytes of ``canvas`` (mode P, an RGB palette) with an uncompressed international
    text chunk per ``texts`` item (key: text, as Pillow's ``PngInfo.add_itxt`` writes it).
    PLTE holds the canvas's palette as Pillow's encoder writes it (every entry the palette
    has, 256 at most). The same canvas and texts give the same picture, though not always the
    same bytes: ISA-L's deflate now and then packs the same rows another way."""
    rows = canvas.rows if isinstance(canvas, RowCanvas) else None
    if isinstance(canvas, RowCanvas):
        canvas = canvas.image
    if canvas.mode != "P":
        raise ValueError(f"A palette PNG takes a P image, not {canvas.mode}.")
    palette = bytes((canvas.getpalette("RGB") or [0, 0, 0])[: 3 * 256])
    width, height = canvas.size
    if width < 1 or height < 1:
        raise ValueError(f"A PNG is at least 1x1, not {width}x{height}.")
    parts = [
        SIGNATURE,
        _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)),
        _chunk(b"PLTE", palette),
    ]
    for key, value in (texts or {}).items():
        parts.append(_chunk(b"iTXt", key.encode("latin-1") + b"\0\0\0\0\0" + value.encode()))
    idat = isal_zlib.compress(_rows(canvas) if rows is None else rows, LEVEL)
    parts.append(_chunk(b"IDAT", idat))
    parts.append(_IEND)
    return b"".join(parts)


def _rows(canvas: Image.Image) -> bytes:
    """The canvas's rows, each led by its filter byte 0: the canvas pasted one pixel in on a
    canvas one pixel wider whose first column stays index 0 (a copy per row, in C)."""
    width, height = canvas.size
    wider = Image.new("P", (width + 1, height), 0)
    wider.im.paste(canvas.im, (1, 0, width + 1, height))
    return wider.tobytes()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return (
        struct.pack(">I", len(data))
        + kind
        + data
        + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
    )
