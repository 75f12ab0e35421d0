"""Gnoming A Round in /history: ``UI.move_line`` says each move for a spectator.

Random games check every move in every language (short, never raw action text, nothing left
in English); fixed positions check the wording and what stays secret: the opening picks and
the hazard-flip answers until everyone has answered, and a card drawn from the deck.
"""

from __future__ import annotations

import random
import re

import pytest

import i18n
from engine.gnoming import GAME
from engine.gnoming.cards import CARD_IDS, IDX_OF_ID, card_value
from engine.gnoming.state import State
from presentation import UIS
from presentation.base import Names
from presentation.gnoming import UI
from presentation.gnoming.text import card_text
from tests.presentation.languages import names_for, pseudo, untranslated

NAMES = Names(("Ann", "Bob", "Cyd"), frozenset({1}))
# Action texts ("pl.4", "dr.deck", "nf") and card ids ("P6-03", "HZ-01") must never show.
RAW = re.compile(r"\b(?:op|dr|pl|x|bo|nb|pi|fl)\.\w|\bnf\b|\b[PNHM][0-9ZU]-\d\d\b")

ANY_VIEW_UI = UIS["gnome"]  # the same renderer, as served any view (for views that do not fit)


def act(state: State, seat: int, text: str) -> State:
    return GAME.apply(state, seat, GAME.parse_action(text))


def line(text: str, seat: int, state: State) -> str:
    return UI.move_line(text, seat, GAME.view(state, None), NAMES)


def opened(seed: int = 5) -> State:
    state = GAME.new_game(3, seed)
    for seat in range(3):
        state = act(state, seat, "op.0.1")
    return state


def hold(state: State, card_id: str) -> None:
    """Make the active player hold ``card_id`` drawn from the deck, in phase play."""
    card = IDX_OF_ID[card_id]
    if card not in state.draw:
        source = next(stack for stack in [*state.grid, *state.piles] if card in stack)
        at = source.index(card)
        source[at], state.draw[-1] = state.draw[-1], card
    state.draw.remove(card)
    state.phase, state.held, state.held_from = "play", card, "deck"


def moves(players: int, seed: int) -> list[tuple[str, int, State]]:
    """Every move of one random game: (action text, seat, state right after)."""
    rng = random.Random(seed)
    state = GAME.new_game(players, seed)
    played = []
    while GAME.to_act(state):
        seat = rng.choice(sorted(GAME.to_act(state)))
        action = rng.choice(GAME.legal_actions(state, seat))
        state = GAME.apply(state, seat, action)
        played.append((str(action), seat, state))
    return played


GAMES = [(3, 1), (4, 2), (7, 3)]


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_every_move_reads_in_every_language(players: int, seed: int) -> None:
    names = names_for(players)
    kinds = set()
    for text, seat, state in moves(players, seed):
        kinds.add(text.split(".")[0])
        view = GAME.view(state, None)
        for language in i18n.LANGUAGES:
            with i18n.using(language):
                said = UI.move_line(text, seat, view, names)
            assert said.strip(), (language, text)
            assert len(said) < 80, (language, text, said)
            assert not RAW.search(said), (language, text, said)
            assert names[seat] not in said
    assert {"op", "dr", "pl", "pi", "bo", "fl"} <= kinds


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_no_english_is_left_untranslated(
    monkeypatch: pytest.MonkeyPatch, players: int, seed: int
) -> None:
    pseudo(monkeypatch)
    names = names_for(players)
    for text, seat, state in moves(players, seed):
        said = UI.move_line(text, seat, GAME.view(state, None), names)
        assert untranslated(said) == [], (text, said)
    assert untranslated(ANY_VIEW_UI.move_line("zz", 0, {}, names)) == []


def test_opening_picks_stay_secret_until_everyone_has_picked() -> None:
    state = GAME.new_game(3, 5)
    state = act(state, 0, "op.0.4")
    assert line("op.0.4", 0, state) == "picked two cards to turn up"
    state = act(state, 1, "op.2.8")
    state = act(state, 2, "op.3.5")
    grid = state.grid[2]
    first, second = (str(card_value(CARD_IDS[grid[cell]])) for cell in (3, 5))
    assert line("op.3.5", 2, state) == f"turned up {first} and {second}"


def test_a_deck_draw_does_not_show_the_card() -> None:
    state = act(opened(), 0, "dr.deck")
    said = line("dr.deck", 0, state)
    assert said == "drew from the deck"
    assert not re.search(r"\d", said)
    with i18n.using("et"):
        assert line("dr.deck", 0, state) == "tõmbas kaardi tõmbehunnikust"


def test_placing_and_discarding_name_the_public_card() -> None:
    state = opened()
    hold(state, "P6-03")
    placed = act(state, 0, "pl.0")
    assert line("pl.0", 0, placed) == "placed 6 (top left)"
    with i18n.using("ro"):
        assert line("pl.0", 0, placed) == "a pus 6 în grilă (stânga sus)"
    with i18n.using("lt"):
        assert line("pl.0", 0, placed) == "padėjo kortą 6 į tinklelį (viršuje kairėje)"
    discarded = act(state, 0, "x.B")
    assert line("x.B", 0, discarded) == "discarded 6 on pile B"
    with i18n.using("et"):
        assert line("x.B", 0, discarded) == "viskas kaardi 6 hunnikusse B"


def test_taking_from_a_pile_names_the_card() -> None:
    state = opened()
    top = state.piles[0][-1]
    taken = act(state, 0, "dr.A")
    assert line("dr.A", 0, taken) == f"took {card_text(CARD_IDS[top])} from pile A"


def test_a_hazard_discard_and_the_flips_it_opens() -> None:
    state = opened()
    hold(state, "HZ-02")
    state = act(state, 0, "x")
    assert line("x", 0, state) == "discarded a ⚠️ hazard (out of play)"
    with i18n.using("lt"):
        assert line("x", 0, state) == "numetė ⚠️ pavojų (jis iškrenta iš žaidimo)"
    # Bob flips his centre card: secret while Cyd still has to answer.
    hidden = str(card_value(CARD_IDS[state.grid[1][4]]))
    state = act(state, 1, "fl.4")
    secret = line("fl.4", 1, state)
    assert secret == "chose whether to turn up a card"
    assert hidden not in secret
    with i18n.using("ro"):
        assert line("fl.4", 1, state) == "a ales în secret dacă întoarce o carte"
    # A decline said before the end reads the same as a flip.
    declined = act(state, 2, "nf")
    assert line("nf", 2, declined) == "turned up no card"
    # Had Cyd flipped instead, everything is revealed with the last answer.
    flipped = act(state, 2, "fl.8")
    card = str(card_value(CARD_IDS[flipped.grid[2][8]]))
    assert line("fl.8", 2, flipped) == f"turned up {card} (bottom right)"


def test_a_flip_decline_is_secret_while_others_answer() -> None:
    state = opened()
    hold(state, "HZ-02")
    state = act(state, 0, "x")
    state = act(state, 1, "nf")
    assert line("nf", 1, state) == "chose whether to turn up a card"


def test_a_discard_that_ends_the_round_names_only_the_pile() -> None:
    state = opened()
    state.first_out, state.lap = 2, [0]
    hold(state, "P6-03")
    state = act(state, 0, "x.A")
    assert GAME.view(state, None)["round"] == 2
    assert line("x.A", 0, state) == "discarded a card on pile A"


@pytest.mark.parametrize("text", ["zz", "", "pl.9", "op.4.1", "dr.C", "x.A.B"])
def test_garbage_gives_a_generic_line(text: str) -> None:
    view = GAME.view(opened(), None)
    assert UI.move_line(text, 0, view, NAMES) == "made a move"
    with i18n.using("lt"):
        assert UI.move_line(text, 0, view, NAMES) == "atliko ėjimą"


def test_a_view_that_does_not_fit_gives_a_short_line() -> None:
    assert ANY_VIEW_UI.move_line("dr.A", 0, {}, NAMES) == "took the top card of pile A"
    bounced = ANY_VIEW_UI.move_line("bo.2", 5, {"grids": [[]]}, NAMES)
    assert bounced == "bounced a card (top right)"
