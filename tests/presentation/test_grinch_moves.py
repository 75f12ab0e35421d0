"""Grinch moves said for /history: short, translated, and never telling a secret card or row."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import i18n
from engine.base import View
from engine.grinch import GAME
from engine.grinch.actions import Action, ChooseRow, Discard, Take
from engine.grinch.state import GrinchState
from engine.grinch.view import GrinchView
from presentation import UIS
from presentation.base import Names
from presentation.grinch.text import card_short
from tests.presentation.languages import names_for, pseudo, untranslated

UI = UIS["grinch"]
NAMES = Names(("Ann", "Bob", "Cyd"))
RAW = re.compile(r"\b[dtr]\.\w|\b[WNOP][1-6][ab]\b|\bt\.deck\b")

Move = tuple[str, int, GrinchView, Action]  # (action text, seat, spectator's view after, action)


def moves(players: int, seed: int) -> Iterator[Move]:
    """Every move of one random game, with the spectator's view right after it."""
    rng = random.Random(seed)
    state = GAME.new_game(players, seed)
    while to_act := sorted(GAME.to_act(state)):
        seat = rng.choice(to_act)
        action = rng.choice(GAME.legal_actions(state, seat))
        after = GAME.apply(state, seat, action)
        yield str(action), seat, GAME.view(after, None), action
        state = after


def line(action: str, seat: int, view: View, names: Names = NAMES, language: str = "en") -> str:
    """``view`` is any mapping: some tests hand in views that are not the engine's."""
    with i18n.using(language):
        return UI.move_line(action, seat, view, names)


def step(state: GrinchState, seat: int, action: Action) -> tuple[GrinchState, GrinchView]:
    state = GAME.apply(state, seat, action)
    return state, GAME.view(state, None)


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3), (5, 4), (6, 5)])
def test_every_move_of_a_random_game_in_every_language(players: int, seed: int) -> None:
    names = names_for(players)
    for text, seat, view, action in moves(players, seed):
        for language in i18n.LANGUAGES:
            said = line(text, seat, view, names, language)
            assert said.strip() and len(said) < 80, (language, text, said)
            assert text not in said and not RAW.search(said), (language, text, said)
        english = line(text, seat, view, names)
        if isinstance(action, Take) and action.pile is None:
            assert english == "took a card from the deck"  # the deck card stays the Grinch's
        if isinstance(action, Discard):
            # A Who's discard is secret while other Whos have still to choose; the Grinch's
            # lands face up on his pile at once.
            secret = seat != view["grinch"] and view["phase"] == "WHO_DISCARD"
            shown = "discarded a card" if secret else f"discarded {card_short(action.card)}"
            assert english == shown, text
        if isinstance(action, ChooseRow):
            revealed = view["phase"] != "SCORING"
            assert (english == "picked a row") != revealed, (text, english)
        assert english != "made a move", text


@pytest.mark.parametrize("players", [2, 4, 6])
def test_no_english_word_leaks(monkeypatch: pytest.MonkeyPatch, players: int) -> None:
    pseudo(monkeypatch)
    names = names_for(players)
    for text, seat, view, _ in moves(players, 40 + players):
        said = line(text, seat, view, names)
        assert untranslated(said) == [], (text, said)
    assert untranslated(line("garbage", 0, {}, names)) == []


def test_a_turn_said_in_english() -> None:
    state = GAME.new_game(3, 7)  # Grinch: Ann; Bob holds 🎀1 🎀1 🎀5 🎁3; Cyd holds 🌿1 …
    state, view = step(state, 1, Discard("O1a"))
    assert line("d.O1a", 1, view) == "discarded a card"  # Cyd has not chosen: still secret
    state, view = step(state, 2, Discard("W1a"))
    assert line("d.W1a", 2, view) == "discarded 🌿1"  # the last Who: every discard face up
    state, view = step(state, 0, Take(1))
    assert line("t.p1", 0, view) == "took 🎀1 from Bob's pile"
    state, view = step(state, 0, Take(None))
    assert line("t.deck", 0, view) == "took a card from the deck"
    state, view = step(state, 0, Discard("P3a"))
    assert line("d.P3a", 0, view) == "discarded 🎁3"
    # Turn 2: the Whos discard, then the Grinch takes his own discard back.
    for seat in (1, 2):
        state, view = step(state, seat, GAME.legal_actions(state, seat)[0])
    state, view = step(state, 0, Take(0))
    assert line("t.p0", 0, view) == "took 🎁3 back from their own pile"
    with i18n.using("et"):
        assert UI.move_line("t.p0", 0, view, NAMES) == "võttis 🎁3 oma virnast tagasi"


def scoring(players: int = 3, seed: int = 7) -> GrinchState:
    state = GAME.new_game(players, seed)
    while state.phase != "SCORING":
        seat = min(GAME.to_act(state))
        state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    return state


def test_a_row_stays_secret_until_everyone_has_chosen() -> None:
    state = scoring()
    state, view = step(state, 0, ChooseRow("rainbow"))
    assert line("r.rainbow", 0, view) == "picked a row"
    with i18n.using("lt"):
        assert UI.move_line("r.rainbow", 0, view, NAMES) == "pasirinko eilutę"
    state, view = step(state, 1, ChooseRow("run"))
    state, view = step(state, 2, ChooseRow("match"))
    assert view["phase"] == "WHO_DISCARD"  # scored; round 2 has begun
    assert view["last_round"] is not None
    points = view["last_round"]["points"]
    assert line("r.match", 2, view) == f"picked Match: {points[2]} point{'s' * (points[2] != 1)}"
    assert line("r.rainbow", 0, view).startswith(f"picked Rainbow: {points[0]} point")
    with i18n.using("ro"):
        said = UI.move_line("r.match", 2, view, NAMES)
    assert said.startswith("a ales Meci: ") and "point" not in said


@pytest.mark.parametrize(
    ("language", "secret", "pile"),
    [
        ("ro", "a aruncat o carte", "a luat 🎀1 din teancul lui Bob"),
        ("et", "viskas kaardi ära", "võttis mängija Bob virnast 🎀1"),
        ("lt", "išmetė kortą", "paėmė 🎀1 iš žaidėjo Bob krūvelės"),
    ],
)
def test_translated_lines(language: str, secret: str, pile: str) -> None:
    state = GAME.new_game(3, 7)
    state, view = step(state, 1, Discard("O1a"))
    assert line("d.O1a", 1, view, language=language) == secret
    state, view = step(state, 2, Discard("W1a"))
    state, view = step(state, 0, Take(1))
    assert line("t.p1", 0, view, language=language) == pile


@pytest.mark.parametrize("text", ["", "garbage", "d.Z9z", "t.p", "t.px", "r.nope", "d:W3", "r."])
def test_garbage_gives_a_generic_line(text: str) -> None:
    view = GAME.view(GAME.new_game(3, 7), None)
    assert line(text, 0, view) == "made a move"
    with i18n.using("lt"):
        assert UI.move_line(text, 0, view, NAMES) == "atliko ėjimą"


def test_a_view_that_does_not_fit_still_gives_a_line() -> None:
    assert line("d.W3a", 1, {}) == "discarded a card"
    assert line("t.p9", 0, {}) == "took a card from a pile"
    assert line("r.run", 5, {"phase": "WHO_DISCARD", "last_round": {"rows": []}}) == "picked a row"
