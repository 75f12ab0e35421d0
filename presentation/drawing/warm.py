"""Card faces drawn ahead: every face and back of a game, at each size and in each style
(language, typeface) its pictures have asked for or declare, drawn and reduced to parts while
the drawing process waits for requests, so the picture that first shows a card finds it kept.

The faces a picture asks note their sizes and styles (:attr:`FaceCache.sizes`,
:attr:`FaceCache.styles`): the first picture of a game kind (its first turn's hand, drawn as
the game starts: delivery.ahead) tells which, and brings the sizes the game's pictures
declare (``declared``: its hands' and its round summaries'), so a game's first round summary
finds its faces drawn instead of drawing a box of them in the middle of play.
:meth:`Warming.plan` turns what is new into faces to draw, the game's whole box
(engine/<package>/cards.py, through its look's ``cards``), :meth:`Warming.step` draws one.
The drawing process (workers.drawing) plans after each request and steps only while no
request waits, so a picture asked meanwhile waits for one face at most (0.3-3 ms). Drawing
ahead never drops a kept face: it stops where the kept faces would reach their bound
(:data:`presentation.drawing.faces.MAX_FACES`).

Nothing a picture shows depends on it: a face not drawn ahead is drawn when a picture asks
for it, the same pixels.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

import i18n
from presentation.drawing.faces import Style
from presentation.drawing.fonts import in_face
from presentation.drawing.parts import Parts

Group = tuple[str, int, bool, Style]  # game, width, back or faces, style


class Warming:
    """What is left to draw ahead for one :class:`Parts` (see the module's docstring)."""

    def __init__(
        self, parts: Parts, declared: Callable[[str], Iterable[tuple[int, bool]]] | None = None
    ) -> None:
        """``declared``: a game's card sizes (width, back) drawn ahead with its first picture
        (presentation.drawing.api.card_sizes)."""
        self.parts = parts
        self.declared = declared
        self._noted = 0
        self._planned: set[Group] = set()
        self._todo: deque[tuple[str, str, int, Style]] = deque()
        self.drawn = 0  # faces drawn ahead so far

    @property
    def pending(self) -> bool:
        """Whether faces are left to draw ahead."""
        return bool(self._todo)

    def plan(self) -> None:
        """Every face of each game at each size in each style its pictures asked for or
        declare, that is not planned yet."""
        cards = self.parts.cards
        if cards.noted == self._noted:
            return
        self._noted = cards.noted
        sizes = dict.fromkeys(cards.sizes)
        if self.declared is not None:
            for game in dict.fromkeys([game for game, _, _ in sizes]):
                sizes.update(dict.fromkeys((game, w, b) for w, b in self.declared(game)))
        for game, width, back in sizes:
            for of, style in list(cards.styles):
                group = (game, width, back, style)
                if of != game or group in self._planned:
                    continue
                self._planned.add(group)
                keys = [""] if back else cards.keys(game)
                self._todo.extend((game, key, width, style) for key in keys)

    def step(self) -> bool:
        """Draw one face ahead (those kept meanwhile are passed over); False when nothing
        is left, or when the kept faces are at their bound."""
        cards = self.parts.cards
        while self._todo:
            if cards.room <= 0:  # never drop a kept face for one no picture asked for yet
                self._todo.clear()
                return False
            game, key, width, (language, face) = self._todo.popleft()
            with i18n.using(language), in_face(face):
                if cards.kept(game, key, width):
                    continue
                self.parts.ahead(game, key, width)
            self.drawn += 1
            return True
        return False
