"""The palette PNG written by presentation/drawing/png.py decodes, with Pillow, to what Pillow's
own encoding of the same canvas decodes to: size, palette, pixels and texts; and so does every
picture drawn from kept parts."""

from __future__ import annotations

import io
import random
import zlib
from collections.abc import Callable, Mapping

import pytest
from PIL import Image, ImageDraw

from presentation.drawing import indexed, png
from presentation.drawing.api import Pictures
from presentation.drawing.png import SIGNATURE, RowCanvas, palette_png
from tests.presentation.drawing.regen import CASES, decoded, shown


def _pillow(canvas: Image.Image, texts: Mapping[str, str] | None = None) -> bytes:
    buffer = io.BytesIO()
    canvas.save(buffer, format="PNG", pnginfo=indexed.text_chunks(texts))
    return buffer.getvalue()


def _canvas(width: int, height: int, colours: int, seed: int = 0) -> Image.Image:
    rng = random.Random(seed)
    canvas = Image.new("P", (width, height))
    canvas.putpalette(bytes(rng.randrange(256) for _ in range(3 * colours)))
    canvas.putdata([rng.randrange(colours) for _ in range(width * height)])
    return canvas


def _chunks(data: bytes) -> list[tuple[bytes, bytes, int]]:
    """(type, data, CRC) of each chunk."""
    assert data.startswith(SIGNATURE)
    chunks, at = [], len(SIGNATURE)
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        kind, body = data[at + 4 : at + 8], data[at + 8 : at + 8 + length]
        chunks.append((kind, body, int.from_bytes(data[at + 8 + length : at + 12 + length], "big")))
        at += 12 + length
    return chunks


@pytest.mark.parametrize(
    ("width", "height"),
    [(1, 1), (1, 9), (9, 1), (2, 3), (7, 5), (13, 11), (255, 2), (257, 3), (1001, 7)],
)
@pytest.mark.parametrize("colours", [1, 2, 5, 16, 17, 200, 256])
def test_decodes_as_pillows_own_encoding(width: int, height: int, colours: int) -> None:
    canvas = _canvas(width, height, colours, seed=width * 1000 + height + colours)
    assert shown(palette_png(canvas)) == shown(_pillow(canvas))


def test_chunks_are_in_order_with_right_crcs_and_filter_byte_0() -> None:
    canvas = _canvas(37, 19, 40)
    data = palette_png(canvas, {"scores": '{"a": 1}'})
    chunks = _chunks(data)
    assert [kind for kind, _, _ in chunks] == [b"IHDR", b"PLTE", b"iTXt", b"IDAT", b"IEND"]
    for kind, body, crc in chunks:
        assert zlib.crc32(kind + body) == crc
    assert chunks[0][1] == (37).to_bytes(4, "big") + (19).to_bytes(4, "big") + bytes(
        [8, 3, 0, 0, 0]
    )
    assert len(chunks[1][1]) == 3 * 40
    rows = zlib.decompress(chunks[3][1])
    assert len(rows) == (37 + 1) * 19
    assert all(rows[i * 38] == 0 for i in range(19))
    assert b"".join(rows[i * 38 + 1 : (i + 1) * 38] for i in range(19)) == canvas.tobytes()


def test_a_corrupt_picture_does_not_decode() -> None:
    """Pillow checks the CRCs of the chunks before the pixels: a colour changed in the palette
    is refused (so the CRCs the tests above pass with are checked), and so is a byte changed
    in the deflated pixels."""
    data = palette_png(_canvas(20, 20, 30))
    for chunk in (b"PLTE", b"IDAT"):
        broken = bytearray(data)
        broken[data.index(chunk) + 6] ^= 0xFF
        with pytest.raises((SyntaxError, OSError)):
            decoded(bytes(broken))


def test_texts_are_pillows_itxt() -> None:
    canvas = _canvas(5, 4, 3)
    texts = {"scores": '{"names": ["Zoë", "Ōkami"], "series": [[1, -2]]}', "other": ""}
    data = palette_png(canvas, texts)
    assert shown(data) == shown(_pillow(canvas, texts))
    assert decoded(data)[0].text == texts


def test_colours_a_drawing_added_to_the_palette_are_written() -> None:
    """ImageDraw adds a colour it does not find to a P canvas's palette: PLTE has it."""
    canvas = Image.new("P", (30, 20), 0)
    canvas.putpalette(b"\x10\x20\x30\xff\xff\xff")
    ImageDraw.Draw(canvas).ellipse((2, 2, 25, 17), fill=(200, 30, 40))
    data = palette_png(canvas)
    assert shown(data) == shown(_pillow(canvas))
    assert (200, 30, 40) in {
        colour for _, colour in decoded(data)[0].convert("RGB").getcolors() or []
    }


def test_only_a_palette_canvas() -> None:
    with pytest.raises(ValueError, match="P image"):
        palette_png(Image.new("RGB", (4, 4)))


@pytest.mark.parametrize(("width", "height"), [(1, 1), (1, 6), (6, 1), (37, 19), (256, 3)])
def test_a_row_canvas_is_drawn_on_in_place(width: int, height: int) -> None:
    """What is drawn on a RowCanvas (pasted by Pillow's core, shapes by ImageDraw, also over
    its edges) lands in its rows, each led by filter byte 0, and its PNG is the plain
    canvas's."""
    rows = RowCanvas((width, height))
    plain = Image.new("P", (width, height), 0)
    rng = random.Random(width * 100 + height)
    for image in (rows.image, plain):
        image.putpalette(bytes(range(3 * 12)))
    for _ in range(6):
        box = [rng.randrange(-3, width + 3), rng.randrange(-3, height + 3)]
        box += [box[0] + rng.randrange(1, width + 4), box[1] + rng.randrange(1, height + 4)]
        colour = rng.randrange(1, 12)
        for image in (rows.image, plain):
            ImageDraw.Draw(image).ellipse(box, fill=colour)
        patch = _canvas(
            rng.randrange(1, width + 1), rng.randrange(1, height + 1), 12, rng.randrange(1000)
        )
        at = (rng.randrange(width), rng.randrange(height))
        for image in (rows.image, plain):
            image.im.paste(patch.im, (*at, at[0] + patch.width, at[1] + patch.height))
    stride = width + 1
    data = bytes(rows.rows)
    assert len(data) == stride * height
    assert all(data[y * stride] == 0 for y in range(height))
    assert b"".join(data[y * stride + 1 : (y + 1) * stride] for y in range(height)) == (
        plain.tobytes()
    )
    assert rows.image.tobytes() == plain.tobytes()
    assert shown(palette_png(rows, {"k": "v"})) == shown(palette_png(plain, {"k": "v"}))


def test_a_row_canvas_is_at_least_1x1() -> None:
    with pytest.raises(ValueError, match="1x1"):
        RowCanvas((0, 4))


def test_the_same_canvas_gives_the_same_picture() -> None:
    canvas = _canvas(64, 48, 100)
    first, again = palette_png(canvas, {"k": "v"}), palette_png(canvas.copy(), {"k": "v"})
    assert shown(first) == shown(again)
    # Only the deflated pixels may differ (see regen.shown): every other chunk is the same.
    assert [c for c in _chunks(first) if c[0] != b"IDAT"] == [
        c for c in _chunks(again) if c[0] != b"IDAT"
    ]


@pytest.mark.parametrize("name", [name for name in CASES if not name.endswith("-cards")])
def test_every_picture_decodes_as_pillows_encoding_of_its_canvas(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each golden picture: the PNG sent decodes to what Pillow's encoding of the canvas it was
    made from decodes to."""
    canvases: list[tuple[Image.Image, Mapping[str, str] | None]] = []
    write: Callable[..., bytes] = png.palette_png

    def record(canvas: Image.Image | RowCanvas, texts: Mapping[str, str] | None = None) -> bytes:
        image = canvas.image if isinstance(canvas, RowCanvas) else canvas
        canvases.append((image.copy(), texts))
        return write(canvas, texts)

    monkeypatch.setattr(indexed, "palette_png", record)
    data = CASES[name](Pictures())
    ((canvas, texts),) = canvases
    assert shown(data) == shown(_pillow(canvas, texts))
