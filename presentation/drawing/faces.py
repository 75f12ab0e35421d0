"""Card faces: the per-game look contract and the cache that draws each face once.

One :class:`FaceCache` belongs to one bot instance (the Discord layer creates it with the
bot and passes it to every picture), so there is no module-level mutable state. Cards that
look the same (the 14 copies of a Gnoming "6") share one drawn face through
:meth:`Look.key`. The cache also records every card id asked of it, which is how the tests
prove a picture drew no hidden card.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import ClassVar, Protocol

from PIL import Image

import i18n
from presentation.drawing.fonts import Face, chosen_face
from presentation.drawing.lru import Lru

Style = tuple[str, Face | None]  # the language, and the typeface a picture chose (_style)
Slot = tuple[str, str, int, Style]  # game, face key ("" for the back), width, style
Size = tuple[str, int, bool]  # game, width, and whether it is the back's
# Faces kept (and as many reduced forms, presentation.drawing.parts): every face and back of
# the four games at every size their hands and summaries use is 340 faces in one language
# and typeface (a name the embedded font cannot write makes a picture's typeface DejaVu),
# 26 MB of faces and 7 MB of reduced forms; this keeps two such sets, 75 MB at most.
MAX_FACES = 768


class Look(Protocol):
    """How one game's cards are drawn."""

    game: str

    @property
    def cards(self) -> Sequence[str]:
        """Every card id of the game's box (engine/<package>/cards.py)."""
        ...

    def key(self, card: str) -> str:
        """The face ``card`` shares with its look-alikes; ValueError for an unknown id."""
        ...

    def draw(self, key: str, width: int) -> Image.Image:
        """Draw the face for ``key`` at ``width`` pixels (height = 1.4 x width)."""
        ...

    def back(self, width: int) -> Image.Image:
        """The back of a card (face down), the same for every card of the game."""
        ...


class DeckLook:
    """The part of a :class:`Look` every game shares: ``key`` refuses a card that is not in
    ``cards`` (naming the game by ``title``) and gives the face it shares with its look-alikes,
    ``face`` (the card itself, unless the game's copies look alike)."""

    game: ClassVar[str]
    title: ClassVar[str]
    cards: ClassVar[Sequence[str]]
    _ids: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._ids = frozenset(cls.cards)

    def key(self, card: str) -> str:
        if card not in self._ids:
            raise ValueError(f"Not a {self.title} card: {card!r}.")
        return self.face(card)

    def face(self, card: str) -> str:
        return card


class FaceCache:
    """Drawn faces by (game, face key, width, language), least recently used dropped past
    ``max_faces``. A face may carry words ("WILD") and is drawn in the language's font, so
    each language has its own faces.

    Returned images are shared: callers paste them and never draw on them. Safe to share
    between threads (the Discord layer renders in a worker thread): the bookkeeping is under
    a lock, drawing is not, so two threads may at worst draw the same face once each.
    """

    def __init__(self, looks: Mapping[str, Look], *, max_faces: int = MAX_FACES) -> None:
        self._looks = dict(looks)
        self._faces: Lru[Slot, Image.Image] = Lru(max_faces)
        self._requested: set[tuple[str, str]] = set()
        self._lock = threading.Lock()
        # The sizes each game's pictures asked faces at, and the styles they were drawn in,
        # in the order first asked: what drawing ahead (presentation.drawing.warm) fills in.
        self.sizes: dict[Size, None] = {}
        self.styles: dict[tuple[str, Style], None] = {}
        self.noted = 0  # grows when a size or a style is first asked

    def look(self, game: str) -> Look:
        try:
            return self._looks[game]
        except KeyError:
            raise ValueError(f"No card look for game {game!r}.") from None

    def face(self, game: str, card: str, width: int) -> Image.Image:
        """The face of ``card`` at ``width`` pixels; drawn on first use, then reused."""
        look = self.look(game)
        key = look.key(card)
        style = _style()
        with self._lock:
            self._requested.add((game, card))
            self._note(game, width, False, style)
        return self._faces.get((game, key, width, style), lambda: look.draw(key, width))

    def back(self, game: str, width: int) -> Image.Image:
        """The back of a ``game`` card at ``width`` pixels."""
        look = self.look(game)
        style = _style()
        with self._lock:
            self._note(game, width, True, style)
        return self._faces.get((game, "", width, style), lambda: look.back(width))

    def _note(self, game: str, width: int, back: bool, style: Style) -> None:
        size = (game, width, back)
        if size not in self.sizes or (game, style) not in self.styles:
            self.sizes[size] = None
            self.styles[(game, style)] = None
            self.noted += 1

    def keys(self, game: str) -> list[str]:
        """The distinct faces of ``game``'s box, by face key (look-alikes once); none for a
        look that does not name its box (its faces are then drawn when first shown)."""
        look = self.look(game)
        cards: Sequence[str] = getattr(look, "cards", ())
        return list(dict.fromkeys(look.key(card) for card in cards))

    def kept(self, game: str, key: str, width: int) -> bool:
        """Whether the face ``key`` ("" for the back) is kept at ``width`` in the style
        current here, without counting as a use."""
        return (game, key, width, _style()) in self._faces

    def ahead(self, game: str, key: str, width: int) -> Image.Image:
        """The face ``key`` ("" for the back) at ``width``, drawn in the style current here
        ahead of any picture that shows it: not counted as asked (:meth:`requested`)."""
        look = self.look(game)
        draw = (lambda: look.back(width)) if key == "" else (lambda: look.draw(key, width))
        return self._faces.get((game, key, width, _style()), draw)

    @property
    def room(self) -> int:
        """How many more faces are kept before the least recently used is dropped."""
        return self._faces.size - len(self._faces)

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


def _style() -> Style:
    """What a face's words depend on: the language, and the typeface a picture chose for all
    its text (fonts.one_face), so a face drawn in one typeface is not reused in another."""
    return i18n.current(), chosen_face()
