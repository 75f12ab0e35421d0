"""Captions made ahead: the hand picture that follows a Hearts trick finds its new header
made while the drawing process waited, the same picture as one drawn without it."""

from __future__ import annotations

import random
import threading

import pytest

from engine.hearts2p.game import GAME as HEARTS_GAME
from engine.hearts2p.rules import TRICKS_PER_HAND
from presentation.drawing.api import Pictures, picture_of
from presentation.drawing.parts import Parts
from presentation.hearts2p.picture import hands_ahead
from tests.presentation.drawing.regen import shown
from tests.presentation.drawing.sample import MID_GAME, hearts_follower, hearts_trick_ended, views

NAMES = ["Ada", "Bo"]


def _parts(pictures: Pictures) -> Parts:
    assert isinstance(pictures.faces, Parts)
    return pictures.faces


@pytest.mark.parametrize("ahead", [True, False])
def test_the_next_tricks_hand_finds_its_header_made(ahead: bool) -> None:
    rng = random.Random(5)
    state = hearts_follower(HEARTS_GAME.new_game(2, 5), rng, trick_no=3)
    follower, leader = hearts_trick_ended(state, rng)
    assert leader["trick_no"] == follower["trick_no"] + 1 and not leader["trick"]
    assert leader["hearts_broken"] == follower["hearts_broken"]  # as the guess has it
    pictures = Pictures()
    parts = _parts(pictures)
    pictures.hand(follower, NAMES)
    if ahead:
        assert pictures.ahead(follower, NAMES) == 1
    made = parts.labels_made
    png = pictures.hand(leader, NAMES)
    # Made ahead: nothing new to rasterise. Without: the new trick's header at least.
    assert (parts.labels_made == made) is ahead
    assert shown(png) == shown(Pictures().hand(leader, NAMES))


def test_after_the_last_trick_the_next_hands_first_header_is_made() -> None:
    rng = random.Random(8)
    state = hearts_follower(HEARTS_GAME.new_game(2, 8), rng, trick_no=TRICKS_PER_HAND)
    follower, leader = hearts_trick_ended(state, rng)
    assert (leader["hand_no"], leader["trick_no"]) == (follower["hand_no"] + 1, 1)
    pictures = Pictures()
    parts = _parts(pictures)
    pictures.hand(follower, NAMES)
    pictures.ahead(follower, NAMES)
    made = parts.labels_made
    assert shown(pictures.hand(leader, NAMES)) == shown(Pictures().hand(leader, NAMES))
    assert parts.labels_made == made


def test_a_finished_game_has_no_hand_ahead() -> None:
    rng = random.Random(3)
    state = HEARTS_GAME.new_game(2, 3)
    while HEARTS_GAME.to_act(state):
        (seat,) = HEARTS_GAME.to_act(state)
        legal = HEARTS_GAME.legal_actions(state, seat)
        state = HEARTS_GAME.apply(state, seat, rng.choice(legal))
    assert hands_ahead(HEARTS_GAME.view(state, 0)) == []


def test_a_game_without_hands_ahead_lays_nothing_out() -> None:
    _, own, _ = views(MID_GAME["ten"])
    assert own is not None
    pictures = Pictures()
    made = _parts(pictures).labels_made
    assert pictures.ahead(own, MID_GAME["ten"].names) == 0
    assert _parts(pictures).labels_made == made


def test_a_rehearsed_picture_makes_its_parts_and_draws_nothing() -> None:
    _, own, _ = views(MID_GAME["hearts"])
    assert own is not None
    names = MID_GAME["hearts"].names
    parts = _parts(Pictures())
    with parts.rehearsal():
        assert picture_of("hearts").hand(own, names, parts) == b""
    made = parts.labels_made
    assert made > 0 and not parts.rehearsing
    drawn = picture_of("hearts").hand(own, names, parts)
    assert shown(drawn) == shown(Pictures().hand(own, names))
    assert parts.labels_made == made  # every caption was made in the rehearsal
    with pytest.raises(RuntimeError), parts.rehearsal():
        raise RuntimeError("a picture that fails")
    assert not parts.rehearsing


def test_a_rehearsal_in_one_thread_leaves_another_threads_pictures_drawn() -> None:
    _, own, _ = views(MID_GAME["hearts"])
    assert own is not None
    names = MID_GAME["hearts"].names
    pictures = Pictures()
    drawn: list[bytes] = []
    with _parts(pictures).rehearsal():
        other = threading.Thread(target=lambda: drawn.append(pictures.hand(own, names)))
        other.start()
        other.join(30)
    assert [shown(png) for png in drawn] == [shown(Pictures().hand(own, names))]
