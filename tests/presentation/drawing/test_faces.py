"""Every card of every game has a face that fits its card, and the faces tell cards apart."""

from __future__ import annotations

import pytest
from PIL import Image, ImageChops

from engine.gnoming.cards import CARD_IDS as GNOME_CARDS
from engine.grinch.cards import CARDS as GRINCH_CARDS
from engine.hearts2p.cards import DECK as HEARTS_CARDS
from engine.ten.cards import deck_for
from presentation.drawing.faces import FaceCache
from presentation.drawing.frame import card_height
from presentation.drawing.looks import looks
from presentation.drawing.palette import INK, TABLE

ALL_CARDS: dict[str, tuple[str, ...]] = {
    "grinch": tuple(GRINCH_CARDS),
    "gnome": tuple(GNOME_CARDS),
    "hearts": tuple(HEARTS_CARDS),
    "ten": tuple(deck_for(5)),
}
WIDTHS = (56, 96, 170)  # the smallest, a middle and the largest width the pictures use


def test_every_game_has_a_look_and_the_decks_are_complete() -> None:
    assert set(looks()) == set(ALL_CARDS)
    sizes = {game: len(set(cards)) for game, cards in ALL_CARDS.items()}
    assert sizes == {"grinch": 48, "gnome": 110, "hearts": 28, "ten": 129}
    # Each look names its box: what drawing ahead draws (presentation.drawing.warm).
    assert {game: tuple(look.cards) for game, look in looks().items()} == ALL_CARDS


def _edges_intact(face: Image.Image) -> bool:
    """The card's straight border is untouched: nothing was drawn over the card's edge."""
    width, height = face.size
    radius = max(4, width // 12) + 1
    pixels = face.load()
    assert pixels is not None
    top_bottom = all(
        pixels[x, 0] == INK and pixels[x, height - 1] == INK for x in range(radius, width - radius)
    )
    sides = all(
        pixels[0, y] == INK and pixels[width - 1, y] == INK for y in range(radius, height - radius)
    )
    return top_bottom and sides


@pytest.mark.parametrize("game", sorted(ALL_CARDS))
@pytest.mark.parametrize("width", WIDTHS)
def test_every_card_renders_inside_its_card(game: str, width: int) -> None:
    faces = FaceCache(looks())
    for card in ALL_CARDS[game]:
        face = faces.face(game, card, width)
        assert face.size == (width, card_height(width)), card
        assert face.mode == "RGB"
        drawn = ImageChops.difference(face, Image.new("RGB", face.size, TABLE)).getbbox()
        assert drawn == (0, 0, width, card_height(width)), card
        assert _edges_intact(face), f"{game} {card} at {width}px draws over the card's edge"
        # Something besides the card's own fill and border: a rank, a symbol, a mark.
        colours = face.getcolors(maxcolors=100_000)
        assert colours is not None and len(colours) > 6, card
    back = faces.back(game, width)
    assert back.size == (width, card_height(width))
    assert _edges_intact(back)


def test_the_edge_check_can_fail() -> None:
    face = FaceCache(looks()).face("hearts", "QS", 160).copy()
    face.paste((255, 0, 0), (60, 0, 100, 4))
    assert not _edges_intact(face)


@pytest.mark.parametrize("game", sorted(ALL_CARDS))
def test_different_cards_look_different_even_in_grey(game: str) -> None:
    """A second cue besides colour: faces that must differ still differ without colour."""
    look = looks()[game]
    faces = FaceCache(looks())
    keys = sorted({look.key(card) for card in ALL_CARDS[game]})
    greys: dict[bytes, str] = {}
    for key in keys:
        card = next(c for c in ALL_CARDS[game] if look.key(c) == key)
        grey = faces.face(game, card, 120).convert("L").tobytes()
        assert grey not in greys, f"{key} and {greys.get(grey)} look alike in grey"
        greys[grey] = key


def test_copies_that_look_alike_share_one_drawn_face() -> None:
    faces = FaceCache(looks())
    first = faces.face("gnome", "P6-01", 100)
    assert faces.face("gnome", "P6-14", 100) is first
    assert faces.misses == 1 and faces.hits == 1
    assert faces.face("grinch", "W1a", 100) is not faces.face("grinch", "W1b", 100)  # bonuses


def test_the_cache_is_bounded_and_records_what_was_asked() -> None:
    faces = FaceCache(looks(), max_faces=3)
    for card in ("2C", "4C", "6C", "8C"):
        faces.face("hearts", card, 80)
    assert len(faces) == 3
    assert faces.requested("hearts") == {"2C", "4C", "6C", "8C"}
    faces.clear_requests()
    assert faces.requested() == frozenset()


@pytest.mark.parametrize(
    ("game", "card"),
    [("hearts", "3C"), ("grinch", "W7a"), ("ten", "X1"), ("gnome", "P9-01"), ("poker", "AS")],
)
def test_unknown_cards_and_games_are_refused(game: str, card: str) -> None:
    with pytest.raises(ValueError):
        FaceCache(looks()).face(game, card, 100)


def test_one_cache_serves_several_threads() -> None:
    from concurrent.futures import ThreadPoolExecutor

    faces = FaceCache(looks(), max_faces=20)

    def draw_all(width: int) -> int:
        for card in ALL_CARDS["hearts"]:
            faces.face("hearts", card, width)
        return width

    with ThreadPoolExecutor(4) as pool:
        assert sorted(pool.map(draw_all, (60, 61, 62, 63, 60, 61))) == [60, 60, 61, 61, 62, 63]
    assert len(faces) == 20
    assert faces.requested("hearts") == set(ALL_CARDS["hearts"])
