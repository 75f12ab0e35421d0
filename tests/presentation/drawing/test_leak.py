"""No picture draws a card its view does not show (rules' visibility sections).

The face cache records every card id a picture (table, summary, hand) asked for; it must be
a subset of the card ids present in the view the picture was drawn from, and for the
spectator's pictures it must miss every card in a player's hand.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import GAMES
from presentation.drawing.api import Pictures
from presentation.drawing.faces import FaceCache
from presentation.drawing.looks import looks
from tests.presentation.drawing.sample import Position, advance

POSITIONS = [
    Position(game, players, seed, moves)
    for game, players in (
        ("grinch", 3),
        ("grinch", 5),
        ("gnome", 3),
        ("gnome", 6),
        ("hearts", 2),
        ("ten", 2),
        ("ten", 4),
    )
    for seed, moves in ((1, 5), (2, 17), (3, 44), (4, 90))
]


def _ids(value: Any, game: str) -> set[str]:
    """Every string in a view that is a card id of ``game``."""
    look = looks()[game]
    found: set[str] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            stack.extend(k for k in item if isinstance(k, str))
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, str):
            try:
                look.key(item)
            except ValueError:
                continue
            found.add(item)
    return found


def _hidden_hands(game_name: str, state: Any, players: int) -> set[str]:
    """Cards in seats' hands (Grinch, Hearts): private to their owners."""
    game = GAMES[game_name]
    if game_name not in ("grinch", "hearts"):
        return set()
    cards: set[str] = set()
    for seat in range(players):
        cards |= set(game.view(state, seat)["hand"] or [])
    if game_name == "grinch":  # a card the Grinch took from a pile is public (rules 6)
        takes = game.view(state, None)["takes"]
        cards -= {take["card"] for take in takes if take["source"] == "pile"}
    return cards


@pytest.mark.parametrize("position", POSITIONS, ids=str)
def test_table_picture_draws_only_what_the_spectator_sees(position: Position) -> None:
    state, _ = advance(position)
    game = GAMES[position.game]
    spectator = game.view(state, None)
    faces = FaceCache(looks())
    Pictures(faces).table(spectator, position.names)
    drawn = faces.requested(position.game)
    assert drawn <= _ids(spectator, position.game)
    hidden = _hidden_hands(position.game, state, position.players)
    if spectator["outcome"] is None and position.game == "hearts":
        assert hidden, "a running Hearts hand has private cards to check against"
    assert not drawn & hidden


LAST = {"grinch": "last_round", "gnome": "last_round", "hearts": "last_hand", "ten": "last_turn"}


@pytest.mark.parametrize("position", POSITIONS, ids=str)
def test_summary_picture_draws_only_the_last_scored_round(position: Position) -> None:
    """A summary shows a round that is over (its hands revealed by the rules), nothing else:
    its cards may also sit in this round's new hands, so it is checked against its part of
    the view only. Ten's shows the table after a round: the market and every seat's
    collection, both public in Ten."""
    state, _ = advance(position)
    spectator = GAMES[position.game].view(state, None)
    faces = FaceCache(looks())
    Pictures(faces).summary(spectator, position.names)
    allowed = _ids(spectator[LAST[position.game]], position.game)
    if position.game == "ten":
        seats = spectator["seats"]
        allowed |= {c for seat in seats for group in seat["by_colour"].values() for c in group}
        allowed |= set(spectator["market"])
    assert faces.requested(position.game) <= allowed


@pytest.mark.parametrize("position", POSITIONS, ids=str)
def test_hand_picture_draws_only_what_its_owner_sees(position: Position) -> None:
    state, _ = advance(position)
    game = GAMES[position.game]
    for seat in range(position.players):
        own = game.view(state, seat)
        faces = FaceCache(looks())
        Pictures(faces).hand(own, position.names)
        drawn = faces.requested(position.game)
        assert drawn <= _ids(own, position.game)
        others = _hidden_hands(position.game, state, position.players) - set(own.get("hand") or [])
        assert not drawn & others


def test_the_recorder_catches_a_drawn_hidden_card() -> None:
    """The check above can fail: drawing a card from another seat's hand is caught."""
    position = Position("hearts", 2, 1, 5)
    state, _ = advance(position)
    spectator = GAMES["hearts"].view(state, None)
    faces = FaceCache(looks())
    Pictures(faces).table(spectator, position.names)
    secret = GAMES["hearts"].view(state, 0)["hand"][0]
    faces.face("hearts", secret, 80)  # what a leaking renderer would do
    assert not faces.requested("hearts") <= _ids(spectator, "hearts")
