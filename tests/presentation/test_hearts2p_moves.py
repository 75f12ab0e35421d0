"""2-Player Hearts' ``move_line`` (the words ``/history`` shows for each move), in every language.

The game has no secret move: its only action is playing a card, which every spectator sees
land on the table. What a spectator never sees is the two dead cards of a hand; no line names
them.
"""

from __future__ import annotations

import random
import re
from dataclasses import replace

import pytest

import i18n
from engine.hearts2p import GAME
from engine.hearts2p.actions import Play
from engine.hearts2p.cards import card_label
from engine.hearts2p.state import State
from presentation import UIS
from presentation.hearts2p import UI
from tests.presentation.languages import names_for, pseudo, untranslated

NAMES = names_for(2)  # Ann, Bob (a computer)
CARD_CODE = re.compile(r"\b(?:10|[2468QA])[CDHS]\b|p\.")


def line(state: State, seat: int, card: str, language: str = "en") -> str:
    """The line for ``seat`` playing ``card`` in ``state``, in ``language``."""
    after = GAME.apply(state, seat, Play(card))
    with i18n.using(language):
        return UI.move_line(f"p.{card}", seat, GAME.view(after, None), NAMES)


def middle(**changes: object) -> State:
    """Seed 1's first hand, moved to trick 5 with the given hands and table."""
    return replace(GAME.new_game(2, 1), trick_no=5, **changes)  # type: ignore[arg-type]  # any field


def moves(seed: int) -> list[tuple[State, int, Play, State]]:
    """Every move of one random game: (state before, seat, action, state after)."""
    rng = random.Random(seed)
    state = GAME.new_game(2, seed)
    played = []
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        after = GAME.apply(state, seat, action)
        played.append((state, seat, action, after))
        state = after
    return played


@pytest.mark.parametrize("seed", [3, 11])
def test_every_move_of_a_game_is_said_in_every_language(seed: int) -> None:
    for before, seat, action, after in moves(seed):
        view = GAME.view(after, None)
        hidden = {card_label(c) for c in before.dead}
        for language in i18n.LANGUAGES:
            with i18n.using(language):
                said = UI.move_line(str(action), seat, view, NAMES)
            assert said.strip() and len(said) < 80, (language, said)
            assert ":" not in said and not CARD_CODE.search(said), (language, said)
            assert card_label(action.card) in said, (language, said)
            assert not any(label in said.split() for label in hidden), (language, said)


def test_no_english_word_leaks(monkeypatch: pytest.MonkeyPatch) -> None:
    pseudo(monkeypatch)
    seen = set()
    for _, seat, action, after in moves(5):
        said = UI.move_line(str(action), seat, GAME.view(after, None), NAMES)
        assert untranslated(said) == [], said
        seen.add(said.split("⟧")[0])
    assert len(seen) >= 5  # leads, follows taken by either player, with and without points
    assert untranslated(UI.move_line("garbage", 0, GAME.view(after, None), NAMES)) == []


def test_the_opening_lead() -> None:
    state = GAME.new_game(2, 1)
    assert line(state, 0, "2C") == "led 2♣"
    assert line(state, 0, "2C", "ro") == "a deschis cu 2♣"
    assert line(state, 0, "2C", "et") == "käis välja 2♣"
    assert line(state, 0, "2C", "lt") == "išėjo 2♣"


def test_a_follow_says_who_took_the_trick_and_its_points() -> None:
    state = middle(leader=0, trick=((0, "4S"),), hands=(("8C",), ("QS", "2D")))
    assert line(state, 1, "QS") == "played Q♠ and took the trick (+13 points)"
    assert line(state, 1, "QS", "ro") == "a jucat Q♠ și a luat levata (+13 puncte)"
    assert line(state, 1, "QS", "et") == "käis Q♠ ja võttis tihi (+13 punkti)"
    assert line(state, 1, "QS", "lt") == "padėjo Q♠ ir paėmė kirtį (+13 taškų)"
    state = middle(leader=0, trick=((0, "AS"),), hands=(("8C",), ("QS", "2D")))
    assert line(state, 1, "QS") == "played Q♠; Ann took the trick (+13 points)"
    state = middle(leader=0, trick=((0, "AD"),), hands=(("8C",), ("2H", "4C")))
    assert line(state, 1, "4C") == "played 4♣; Ann took the trick"
    assert line(state, 1, "2H") == "played 2♥ and took the trick (+1 point)"
    assert line(state, 1, "2H", "lt") == "padėjo 2♥ ir paėmė kirtį (+1 taškas)"


def test_leading_the_first_heart_breaks_hearts() -> None:
    state = middle(leader=0, trick=(), hands=(("2H", "4H"), ("8C",)), hearts_broken=False)
    assert line(state, 0, "2H") == "led 2♥ and broke hearts"
    assert line(state, 0, "2H", "et") == "käis välja 2♥ ja murdis ärtu"
    state = replace(state, hearts_broken=True, history=((1, "6H", "8H", 1),))
    assert line(state, 0, "2H") == "led 2♥"


def test_the_last_trick_of_a_hand_says_so() -> None:
    for before, seat, action, after in moves(2):
        if after.hand_no != before.hand_no or (after.winner is not None and before.trick):
            said = UI.move_line(str(action), seat, GAME.view(after, None), NAMES)
            assert said.startswith(f"played {card_label(action.card)}"), said
            assert said.endswith(" · end of hand"), said
            with i18n.using("ro"):
                said = UI.move_line(str(action), seat, GAME.view(after, None), NAMES)
            assert said.endswith(" · sfârșitul mâinii"), said


def test_garbage_gives_a_generic_line() -> None:
    view = GAME.view(GAME.new_game(2, 1), None)
    for text in ("", "garbage", "p.", "p.ZZ", "p.2C.x", "d:W3"):
        assert UI.move_line(text, 0, view, NAMES) == "made a move"
    with i18n.using("lt"):
        assert UI.move_line("nonsense", 1, view, NAMES) == "atliko ėjimą"
    # A real card that the view does not show (a mismatched view) is still said plainly.
    assert UI.move_line("p.QS", 1, view, NAMES) == "played Q♠"
    # A view that is not the engine's at all, through the interface that takes any view.
    broken = {"trick": "broken", "played": 3}
    assert UIS["hearts"].move_line("p.QS", 1, broken, NAMES) == "played Q♠"
