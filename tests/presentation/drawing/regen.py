"""Golden pictures: the cases, and the command that rewrites their hashes.

Each case is pinned twice: drawn from kept parts (``sha256``, what the bot sends) and the
reference way, a bare face cache on a full-colour canvas quantized at the end
(``reference``, the pictures as drawn before kept parts; tests/presentation/drawing/
test_kept_parts.py holds the two within a tolerance of each other).

    python -m tests.presentation.drawing.regen            # rewrite golden.json
    python -m tests.presentation.drawing.regen --out DIR  # also write the PNGs to DIR to look at

A hash is of what a PNG decodes to (its size, palette, pixels and texts), not of its bytes,
so the deflate that packs it does not change it. Hashes depend on the Pillow build (its
FreeType and its quantizer), so golden.json records the Pillow version it was made with; the
test skips, saying so, under another version.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
from collections.abc import Callable
from pathlib import Path

import PIL
from PIL import PngImagePlugin

from engine import GAMES
from presentation.drawing.api import Pictures, series_from_views
from presentation.drawing.faces import FaceCache
from presentation.drawing.looks import looks
from tests.presentation.drawing.sample import MID_GAME, WHOLE_GAME, Position, advance, views

GOLDEN = Path(__file__).with_name("golden.json")


def _hand(position: Position, seat: int) -> Callable[[Pictures], bytes]:
    def render(pictures: Pictures) -> bytes:
        state, _ = advance(position)
        return pictures.hand(GAMES[position.game].view(state, seat), position.names)

    return render


def _table(position: Position) -> Callable[[Pictures], bytes]:
    def render(pictures: Pictures) -> bytes:
        _, _, spectator = views(position)
        return pictures.table(spectator, position.names)

    return render


def _chart(position: Position) -> Callable[[Pictures], bytes]:
    def render(pictures: Pictures) -> bytes:
        _, history = advance(position)
        winners = history[-1]["outcome"]["winners"]
        series = series_from_views(history)
        return pictures.chart(position.game, series, position.names, winners=winners)

    return render


def _summary(position: Position) -> Callable[[Pictures], bytes]:
    def render(pictures: Pictures) -> bytes:
        _, history = advance(position)
        data = pictures.summary(history[-1], position.names)
        assert data is not None
        return data

    return render


def _cards(game: str, cards: tuple[str, ...]) -> Callable[[Pictures], bytes]:
    def render(pictures: Pictures) -> bytes:
        return b"".join(pictures.card(game, card) for card in cards)

    return render


CASES: dict[str, Callable[[Pictures], bytes]] = {
    "grinch-cards": _cards("grinch", ("W1a", "N1a", "O2a", "P6b")),
    "grinch-hand": _hand(MID_GAME["grinch"], 0),
    "grinch-table": _table(MID_GAME["grinch"]),
    "grinch-chart": _chart(WHOLE_GAME["grinch"]),
    "grinch-summary": _summary(WHOLE_GAME["grinch"]),
    "gnome-cards": _cards("gnome", ("P3-01", "N4-03", "HZ-02", "MU-01")),
    "gnome-hand": _hand(MID_GAME["gnome"], 1),
    "gnome-table": _table(MID_GAME["gnome"]),
    "gnome-chart": _chart(WHOLE_GAME["gnome"]),
    "gnome-summary": _summary(WHOLE_GAME["gnome"]),
    "hearts-cards": _cards("hearts", ("QS", "AH", "10D", "2C")),
    "hearts-hand": _hand(MID_GAME["hearts"], 0),
    "hearts-table": _table(MID_GAME["hearts"]),
    "hearts-chart": _chart(WHOLE_GAME["hearts"]),
    "hearts-summary": _summary(WHOLE_GAME["hearts"]),
    "ten-cards": _cards("ten", ("R1a", "G#b", "W7", "W#", "C5a")),
    "ten-hand": _hand(MID_GAME["ten"], 0),
    "ten-table": _table(MID_GAME["ten"]),
    "ten-chart": _chart(WHOLE_GAME["ten"]),
    "ten-summary": _summary(WHOLE_GAME["ten"]),
}


def render_all(pictures: Pictures | None = None) -> dict[str, bytes]:
    """Every case drawn with ``pictures`` (kept parts if None)."""
    pictures = Pictures() if pictures is None else pictures
    return {name: render(pictures) for name, render in CASES.items()}


def reference() -> Pictures:
    """Pictures drawn the reference way (see the module's docstring)."""
    return Pictures(FaceCache(looks()))


IEND = b"\x00\x00\x00\x00IEND\xaeB`\x82"  # a PNG's last chunk, always these 12 bytes


def decoded(data: bytes) -> list[PngImagePlugin.PngImageFile]:
    """Each PNG of ``data`` (one, or several one after another), decoded."""
    images: list[PngImagePlugin.PngImageFile] = []
    for chunk in data.split(IEND)[:-1]:
        image = PngImagePlugin.PngImageFile(io.BytesIO(chunk + IEND))
        image.load()
        images.append(image)
    assert images, "no PNG in the data"
    return images


def shown(data: bytes) -> list[tuple[object, ...]]:
    """What the PNGs of ``data`` show: each one's mode, size, pixels (as RGB) and text
    chunks. Pictures are compared by this, not by their bytes (ISA-L's deflate now and then
    packs the same rows into other bytes that inflate the same), nor by their palettes (a
    palette shared by several pictures orders its entries by what was drawn before:
    presentation.drawing.shared)."""
    return [
        (image.mode, image.size, image.convert("RGB").tobytes(), image.text)
        for image in decoded(data)
    ]


def digest(data: bytes) -> str:
    """A hash of what the PNGs of ``data`` show (:func:`shown`)."""
    sha = hashlib.sha256()
    for image in decoded(data):
        sha.update(f"{image.mode} {image.size} {sorted(image.text.items())}".encode())
        sha.update(image.convert("RGB").tobytes())
    return sha.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="also write every PNG into this folder")
    args = parser.parse_args()
    images = render_all()
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        for name, data in images.items():
            if not name.endswith("-cards"):
                (args.out / f"{name}.png").write_bytes(data)
    golden = {
        "pillow": PIL.__version__,
        "sha256": {n: digest(d) for n, d in images.items()},
        "reference": {n: digest(d) for n, d in render_all(reference()).items()},
    }
    GOLDEN.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
    print(f"wrote {len(images)} hashes to {GOLDEN}")


if __name__ == "__main__":
    main()
