"""Faces drawn ahead: after a game's first picture, every face and back of its box is drawn
at the sizes and in the style that picture asked, so later pictures draw no face; the
pictures stay byte for byte what a kit without drawing ahead draws, drawing ahead asks no
card (no hidden card is ever 'asked'), and it never drops a kept face."""

from __future__ import annotations

from typing import cast

from PIL import Image

import i18n
from presentation.drawing.api import Pictures
from presentation.drawing.faces import FaceCache, Look
from presentation.drawing.fonts import one_face
from presentation.drawing.looks import looks
from presentation.drawing.parts import Parts
from presentation.drawing.warm import Warming
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, Position, views


def _kit(max_faces: int = 1024) -> tuple[Pictures, Parts, Warming]:
    parts = Parts(FaceCache(looks(), max_faces=max_faces))
    return Pictures(parts), parts, Warming(parts)


def _finish(warming: Warming) -> int:
    warming.plan()
    steps = 0
    while warming.step():
        steps += 1
    return steps


def test_after_the_first_hand_the_games_box_is_kept_at_its_sizes() -> None:
    pictures, parts, warming = _kit()
    first = MID_GAME["hearts"]  # a hand and a trick under way: both sizes
    _, own, _ = views(first)
    assert own is not None
    pictures.hand(own, first.names)
    asked = parts.requested("hearts")
    sizes = {width for game, width, back in parts.cards.sizes if game == "hearts"}
    assert len(sizes) == 2 and not warming.pending
    in_hand = len(parts.cards)
    drawn = _finish(warming)
    keys = parts.cards.keys("hearts")
    assert drawn == len(keys) * len(sizes) - in_hand  # the others, each once
    with i18n.using("en"), one_face(*first.names):  # the style the hand was drawn in
        assert all(parts.cards.kept("hearts", key, w) for key in keys for w in sizes)
    assert parts.requested("hearts") == asked  # drawing ahead asks no card
    assert not parts.requested("ten")

    later = Position("hearts", 2, 8, 21)
    _, own, _ = views(later)
    assert own is not None
    misses = parts.cards.misses
    picture = pictures.hand(own, later.names)
    assert parts.cards.misses == misses  # every face it shows was drawn ahead
    assert shown(picture) == shown(Pictures().hand(own, later.names))  # the same picture


def test_faces_are_drawn_ahead_in_the_language_asked() -> None:
    pictures, parts, warming = _kit()
    position = MID_GAME["gnome"]
    _, own, _ = views(position)
    assert own is not None
    with i18n.using("lt"):
        pictures.hand(own, position.names)
    _finish(warming)
    keys = parts.cards.keys("gnome")
    with i18n.using("lt"), one_face(*position.names):
        assert all(parts.cards.kept("gnome", key, 150) for key in keys)
    with i18n.using("en"), one_face(*position.names):
        assert not any(parts.cards.kept("gnome", key, 150) for key in keys)
        misses = parts.cards.misses
        pictures.hand(own, position.names)
        assert parts.cards.misses > misses  # another language: its faces are its own
    _finish(warming)
    with i18n.using("en"), one_face(*position.names):
        assert all(parts.cards.kept("gnome", key, 150) for key in keys)


def test_drawing_ahead_stops_at_the_bound_and_drops_no_kept_face() -> None:
    pictures, parts, warming = _kit(max_faces=40)
    position = MID_GAME["ten"]
    _, own, _ = views(position)
    assert own is not None
    pictures.hand(own, position.names)
    used = len(parts.cards)
    assert used < 40 < len(parts.cards.keys("ten"))
    assert _finish(warming) == 40 - used
    assert len(parts.cards) == 40 and not warming.pending
    misses = parts.cards.misses
    pictures.hand(own, position.names)
    assert parts.cards.misses == misses  # the faces the hand showed are all still kept


def test_a_look_that_names_no_box_has_nothing_drawn_ahead() -> None:
    class Unnamed:
        game = "ten"

        def __init__(self) -> None:
            self.inner = looks()["ten"]

        def key(self, card: str) -> str:
            return self.inner.key(card)

        def draw(self, key: str, width: int) -> Image.Image:
            return self.inner.draw(key, width)

        def back(self, width: int) -> Image.Image:
            return self.inner.back(width)

    parts = Parts(FaceCache({"ten": cast(Look, Unnamed())}))  # a look from before `cards`
    warming = Warming(parts)
    assert parts.cards.keys("ten") == []
    parts.face("ten", "R1a", 88)
    assert _finish(warming) == 0 and len(parts.cards) == 1
