"""Hands and tables of every game: valid PNGs, sized for Discord, deterministic, guarded."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
from PIL import Image

from engine import GAMES
from presentation.drawing.api import Pictures
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, WHOLE_GAME, Position, advance, views

MAX_BYTES = 200 * 1024
MAX_WIDTH = 1200
# Mid-game positions plus the largest tables and hands each game can show.
POSITIONS = [
    *MID_GAME.values(),
    *WHOLE_GAME.values(),
    Position("grinch", 6, 2, 40),
    Position("gnome", 7, 4, 120),
    Position("hearts", 2, 8, 0),  # 13 cards in hand
    Position("ten", 5, 9, 300),
]


def _png(data: bytes) -> Image.Image:
    assert data.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(data) < MAX_BYTES, f"{len(data)} bytes"
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.width <= MAX_WIDTH
    assert image.height <= 2000
    return image


@pytest.mark.parametrize("position", POSITIONS, ids=str)
def test_table_and_hands_render_within_discord_limits(position: Position) -> None:
    pictures = Pictures()
    game = GAMES[position.game]
    state, _, spectator = views(position)
    _png(pictures.table(spectator, position.names))
    for seat in range(position.players):
        _png(pictures.hand(game.view(state, seat), position.names))


@pytest.mark.parametrize("position", list(MID_GAME.values()), ids=str)
def test_same_view_same_picture(position: Position) -> None:
    _, own, spectator = views(position)
    assert own is not None
    first, second = Pictures(), Pictures()

    def same(draw: Callable[[Pictures], bytes]) -> bool:
        return shown(draw(first)) == shown(draw(second))

    assert same(lambda pictures: pictures.table(spectator, position.names))
    assert same(lambda pictures: pictures.hand(own, position.names))
    # A warm cache gives the same picture as a cold one.
    assert same(lambda pictures: pictures.table(spectator, position.names))


def test_png_has_no_time_or_text_chunks() -> None:
    position = MID_GAME["hearts"]
    _, _, spectator = views(position)
    data = Pictures().table(spectator, position.names)
    chunks = []
    at = 8
    while at < len(data):
        length = int.from_bytes(data[at : at + 4], "big")
        chunks.append(data[at + 4 : at + 8].decode())
        at += 12 + length
    assert chunks[0] == "IHDR" and chunks[-1] == "IEND"
    assert not {"tIME", "tEXt", "iTXt", "zTXt"} & set(chunks)


@pytest.mark.parametrize("position", list(MID_GAME.values()), ids=str)
def test_views_are_not_modified(position: Position) -> None:
    _, own, spectator = views(position)
    assert own is not None
    before = (repr(own), repr(spectator))
    pictures = Pictures()
    pictures.hand(own, position.names)
    pictures.table(spectator, position.names)
    assert (repr(own), repr(spectator)) == before


def test_a_table_takes_only_the_spectator_view_and_a_hand_only_an_owner_view() -> None:
    position = MID_GAME["grinch"]
    _, own, spectator = views(position)
    assert own is not None
    pictures = Pictures()
    with pytest.raises(ValueError, match="spectator"):
        pictures.table(own, position.names)
    with pytest.raises(ValueError, match="owner"):
        pictures.hand(spectator, position.names)
    with pytest.raises(ValueError, match="names"):
        pictures.table(spectator, position.names[:-1])


def test_names_the_font_cannot_draw_still_render() -> None:
    position = MID_GAME["hearts"]
    _, own, spectator = views(position)
    assert own is not None
    names = ["Zoë 😀 日本語", "—"]
    pictures = Pictures()
    _png(pictures.table(spectator, names))
    _png(pictures.hand(own, names))


def test_finished_games_render() -> None:
    for position in WHOLE_GAME.values():
        state, history = advance(position)
        assert history[-1]["outcome"] is not None
        _png(Pictures().table(history[-1], position.names))
        _png(Pictures().hand(GAMES[position.game].view(state, 0), position.names))


@pytest.mark.parametrize("game", sorted(WHOLE_GAME))
def test_summary_of_each_scored_round(game: str) -> None:
    position = WHOLE_GAME[game]
    _, history = advance(position)
    pictures = Pictures()
    assert pictures.summary(history[0], position.names) is None
    rendered = 0
    for view in history[1::7]:
        data = pictures.summary(view, position.names)
        if data is not None:
            _png(data)
            rendered += 1
    assert rendered
    with pytest.raises(ValueError, match="spectator"):
        pictures.summary(GAMES[game].view(advance(position)[0], 0), position.names)
