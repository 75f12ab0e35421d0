"""2-Player Hearts' guess of the view as the next trick begins (``next_trick_view``), against
the views a whole random game really shows."""

from __future__ import annotations

import random

from engine.hearts2p import GAME
from engine.hearts2p.view import next_trick_view


def test_the_guess_has_the_trick_and_hand_the_game_then_shows() -> None:
    rng = random.Random(11)
    state = GAME.new_game(2, 11)
    checked = new_hands = 0
    while GAME.to_act(state):
        (seat,) = GAME.to_act(state)
        before = GAME.view(state, seat)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
        if len(before["trick"]) != 1 or not GAME.to_act(state):
            continue  # only the follower's card ends a trick; a game's end has no next
        (leader,) = GAME.to_act(state)
        after = GAME.view(state, leader)
        guess = next_trick_view(before)
        assert guess is not None and guess["trick"] == after["trick"] == []
        assert (guess["hand_no"], guess["trick_no"]) == (after["hand_no"], after["trick_no"])
        if after["hand_no"] != before["hand_no"]:
            assert guess["hearts_broken"] is after["hearts_broken"] is False
            new_hands += 1
        checked += 1
    assert checked > 13 and new_hands > 0
    assert next_trick_view(GAME.view(state, 0)) is None  # the game is over


def test_the_guess_leaves_the_view_it_came_from_as_it_was() -> None:
    view = GAME.view(GAME.new_game(2, 4), 0)
    kept = dict(view)
    assert next_trick_view(view) is not None
    assert view == kept
