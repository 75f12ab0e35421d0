"""Palettes shared by the pictures one kit draws, each part mapped to one of them once.

A picture from kept parts needs a palette holding every colour it shows: its exact colours
(the background, each shape's, each part's majors) and its parts' edge colours on the finest
grid at which they fit (:mod:`presentation.drawing.indexed` chooses the grid). Each part is
then pasted through a lookup table from its own colours to the palette's indices, mapped in
C once per picture. Pictures that follow one another in a game show mostly the same parts
(a hand loses one card and gains one), so a palette that already holds a picture's colours,
or has room for those it lacks, is lent to it: the colours it lacks are appended (the
indices already given stay), and only the parts new to that palette are mapped.

A pixel shows the same colour as with a palette of the picture's own: each part's colour
finds its own entry, at the grid the picture alone chose. Only the indices and the PLTE
chunk differ (an entry may be one the picture does not use), which is why pictures are
compared by what they show, never by their palette.

Bounded: at most ``kept`` palettes (least recently used dropped first), and mapped parts of
at most ``budget`` bytes of pixels in all: past it, the least recently used palettes forget
theirs (mapped again when a picture asks). A palette holds a reference to each part it
mapped, so a part's id stays its own while it is there.
"""

from __future__ import annotations

import struct
import threading
from collections.abc import Mapping, Sequence
from itertools import chain
from typing import TYPE_CHECKING, NamedTuple, Protocol

from PIL import Image

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore

COLOURS = 256
RESERVE = 8  # entries left for colours a symbol draws inside itself (a sign's white)
ROOM = COLOURS - RESERVE  # the colours a picture's palette is chosen with
KEPT = 8
BUDGET = 16 * 2**20  # bytes of mapped pixels, all palettes together (a part: about 18 kB)


class Part(Protocol):
    """What a palette reads of a part (presentation.drawing.parts.Sprite): its pixels as
    indices of its own colours (packed in ``keys``, the first ``majors`` exact), and its edge
    colours on a grid."""

    @property
    def pixels(self) -> Image.Image: ...

    @property
    def keys(self) -> tuple[int, ...]: ...

    @property
    def majors(self) -> int: ...

    def grid(self, index: int) -> tuple[int, ...]: ...


class Lent(NamedTuple):
    """What a picture draws with: its palette's RGB bytes, the entry of each of its colours
    (a copy of its own, as ImagePalette.colors keeps it: drawing a symbol may add one), and
    each part's pixels mapped to it, by the part's id."""

    rgb: bytes
    entries: dict[tuple[int, ...], int]
    mapped: Mapping[int, ImagingCore]


class Palette:
    """One shared palette: its colours (packed) in entry order, and the parts mapped to it."""

    __slots__ = ("bytes", "entries", "grid", "index", "keys", "mapped", "rgb")

    def __init__(self, grid: int) -> None:
        self.grid = grid
        self.keys: list[int] = []
        self.index: dict[int, int] = {}
        self.mapped: dict[int, tuple[Part, ImagingCore]] = {}
        self.rgb = b""
        self.entries: dict[tuple[int, ...], int] = {}
        self.bytes = 0  # of the mapped parts' pixels

    def lacks(self, colours: Sequence[int], edges: frozenset[int] | set[int]) -> list[int]:
        """The colours of ``colours`` and ``edges`` this palette has no entry for (the
        exact ones first, in their order, then the edges in a fixed order)."""
        index = self.index
        missing = [key for key in colours if key not in index]
        missing.extend(sorted(edges.difference(index)))
        return missing

    def add(self, keys: Sequence[int]) -> None:
        for key in keys:
            if key not in self.index:
                self.index[key] = len(self.keys)
                self.entries[(key >> 16, key >> 8 & 0xFF, key & 0xFF)] = len(self.keys)
                self.keys.append(key)
        self.rgb = rgb(self.keys)

    def core(self, sprite: Part) -> ImagingCore:
        """``sprite``'s pixels as indices of this palette (mapped the first time)."""
        kept = self.mapped.get(id(sprite))
        if kept is not None and kept[0] is sprite:
            return kept[1]
        get = self.index.__getitem__
        table = [*map(get, sprite.keys[: sprite.majors]), *map(get, sprite.grid(self.grid))]
        table.extend([0] * (256 - len(table)))
        core: ImagingCore = sprite.pixels.im.point(table, None)
        self.mapped[id(sprite)] = (sprite, core)
        width, height = core.size
        self.bytes += width * height
        return core

    def forget(self, keep: Mapping[int, object] | None = None) -> None:
        """Forget the mapped parts but those whose ids ``keep`` holds (the others are mapped
        again when asked)."""
        self.mapped = {key: kept for key, kept in self.mapped.items() if keep and key in keep}
        self.bytes = sum(core.size[0] * core.size[1] for _, core in self.mapped.values())


class Palettes:
    """The palettes a kit's pictures share (see the module's docstring); thread-safe."""

    def __init__(self, *, kept: int = KEPT, budget: int = BUDGET) -> None:
        self._kept: list[Palette] = []  # most recently used first
        self._most = kept
        self._budget = budget
        self._lock = threading.Lock()

    def lend(
        self,
        grid: int,
        exact: Sequence[int],
        edges: set[int],
        sprites: Sequence[Part],
    ) -> Lent:
        """A palette (RGB bytes) whose first entry is ``exact[0]`` (the background) and that
        holds ``exact`` and ``edges`` (colours on the grid ``grid`` of :data:`parts.GRIDS`,
        together at most :data:`ROOM`), and each of ``sprites`` mapped to it, by the
        sprite's id."""
        with self._lock:
            palette = self._choose(grid, exact, edges)
            mapped = {id(sprite): palette.core(sprite) for sprite in sprites}
            lent = Lent(palette.rgb, dict(palette.entries), mapped)
            self._keep_to_budget(mapped)
            return lent

    def __len__(self) -> int:
        return len(self._kept)

    @property
    def bytes(self) -> int:
        """The mapped parts' pixels kept, in bytes."""
        return sum(palette.bytes for palette in self._kept)

    def _keep_to_budget(self, current: Mapping[int, object]) -> None:
        """Past the budget, the least recently used palettes forget their mapped parts; the
        palette just lent keeps those of its picture (``current``, by id)."""
        held = self.bytes
        for palette in reversed(self._kept):
            if held <= self._budget:
                return
            held -= palette.bytes
            palette.forget(current if palette is self._kept[0] else None)
            held += palette.bytes

    def _choose(self, grid: int, exact: Sequence[int], edges: set[int]) -> Palette:
        """The kept palette of ``grid`` and of the same first entry (the background: a new
        canvas is all index 0) that lacks none of the colours, else the one that lacks the
        fewest and has room for them (they are added), else a new one."""
        best: tuple[Palette, list[int]] | None = None
        for palette in self._kept:
            if palette.grid != grid or palette.keys[0] != exact[0]:
                continue
            missing = palette.lacks(exact, edges)
            if not missing:
                best = palette, missing
                break
            if len(palette.keys) + len(missing) <= ROOM and (
                best is None or len(missing) < len(best[1])
            ):
                best = palette, missing
        if best is None:
            palette = Palette(grid)
            palette.add(list(chain(exact, sorted(edges))))
            self._kept.insert(0, palette)
            del self._kept[self._most :]
            return palette
        palette, missing = best
        if missing:
            palette.add(missing)
        self._kept.remove(palette)
        self._kept.insert(0, palette)
        return palette


def rgb(keys: Sequence[int]) -> bytes:
    """Packed colours (0xRRGGBB) as RGB bytes."""
    data = bytearray(struct.pack(f">{len(keys)}I", *keys))
    del data[::4]  # each colour's unused top byte
    return bytes(data)
