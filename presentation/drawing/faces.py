"""Card faces: the per-game look contract and the cache that draws each face once.

One :class:`FaceCache` belongs to one bot instance (the Discord layer creates it with the
bot and passes it to every picture), so there is no module-level mutable state. Cards that
look the same (the 14 copies of a Gnoming "6") share one drawn face through
:meth:`Look.key`. The cache also records every card id asked of it, which is how the tests
prove a picture drew no hidden card.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import Protocol

from PIL import Image

import i18n
from presentation.drawing.fonts import chosen_face
from presentation.drawing.lru import Lru

Slot = tuple[str, str, int, str]  # game, face key, width, language and typeface (_style)


class Look(Protocol):
    """How one game's cards are drawn."""

    game: str

    def key(self, card: str) -> str:
        """The face ``card`` shares with its look-alikes; ValueError for an unknown id."""
        ...

    def draw(self, key: str, width: int) -> Image.Image:
        """Draw the face for ``key`` at ``width`` pixels (height = 1.4 x width)."""
        ...

    def back(self, width: int) -> Image.Image:
        """The back of a card (face down), the same for every card of the game."""
        ...


class FaceCache:
    """Drawn faces by (game, face key, width, language), least recently used dropped past
    ``max_faces``. A face may carry words ("WILD") and is drawn in the language's font, so
    each language has its own faces.

    Returned images are shared: callers paste them and never draw on them. Safe to share
    between threads (the Discord layer renders in a worker thread): the bookkeeping is under
    a lock, drawing is not, so two threads may at worst draw the same face once each.
    """

    def __init__(self, looks: Mapping[str, Look], *, max_faces: int = 512) -> None:
        self._looks = dict(looks)
        self._faces: Lru[Slot, Image.Image] = Lru(max_faces)
        self._requested: set[tuple[str, str]] = set()
        self._lock = threading.Lock()

    def look(self, game: str) -> Look:
        try:
            return self._looks[game]
        except KeyError:
            raise ValueError(f"No card look for game {game!r}.") from None

    def face(self, game: str, card: str, width: int) -> Image.Image:
        """The face of ``card`` at ``width`` pixels; drawn on first use, then reused."""
        look = self.look(game)
        key = look.key(card)
        with self._lock:
            self._requested.add((game, card))
        return self._faces.get((game, key, width, _style()), lambda: look.draw(key, width))

    def back(self, game: str, width: int) -> Image.Image:
        """The back of a ``game`` card at ``width`` pixels."""
        look = self.look(game)
        return self._faces.get((game, "", width, _style()), lambda: look.back(width))

    def requested(self, game: str | None = None) -> frozenset[str]:
        """Every card id whose face was asked for (of ``game``, or of any game)."""
        with self._lock:
            return frozenset(card for g, card in self._requested if game is None or g == game)

    def clear_requests(self) -> None:
        with self._lock:
            self._requested.clear()

    @property
    def hits(self) -> int:
        return self._faces.hits

    @property
    def misses(self) -> int:
        return self._faces.misses

    def __len__(self) -> int:
        return len(self._faces)


def _style() -> str:
    """What a face's words depend on: the language, and the typeface a picture chose for all
    its text (fonts.one_face), so a face drawn in one typeface is not reused in another."""
    return f"{i18n.current()}/{chosen_face() or ''}"
