"""Gnoming A Round in Romanian, Estonian and Lithuanian: real catalog text, not English.

These fail if a message is missing from a catalog or worded away from the game's terms
(the Estonian rules' ruudustik, heitehunnik, oht, mulligan, voor).
"""

from __future__ import annotations

import random

import pytest

import i18n
from engine.base import IllegalAction
from engine.gnoming import GAME
from engine.gnoming.cards import IDX_OF_ID
from engine.gnoming.state import GnomeRound, GnomeRoundSeat, State
from engine.gnoming.view import GnomeView
from presentation.base import Button, HandScreen, Names, Panel, Select
from presentation.gnoming import UI
from tests.presentation.languages import PLAYER_NAMES, limit_problems, pseudo, untranslated

NAMES = Names(("Ann", "Bob", "Cyd"), frozenset({1}))
TRANSLATED = ("ro", "et", "lt")


def act(state: State, seat: int, text: str) -> State:
    return GAME.apply(state, seat, GAME.parse_action(text))


def opened(players: int = 3, seed: int = 5) -> State:
    state = GAME.new_game(players, seed)
    for seat in range(players):
        state = act(state, seat, "op.0.1")
    return state


def hold(state: State, card_id: str) -> None:
    """Make the active player hold ``card_id`` from the deck, in phase play."""
    card = IDX_OF_ID[card_id]
    if card not in state.draw:
        source = next(stack for stack in [*state.grid, *state.piles] if card in stack)
        at = source.index(card)
        source[at], state.draw[-1] = state.draw[-1], card
    state.draw.remove(card)
    state.phase, state.held, state.held_from = "play", card, "deck"


def legal(state: State, seat: int) -> list[str]:
    return [str(a) for a in GAME.legal_actions(state, seat)]


def hand(state: State, seat: int) -> HandScreen:
    return UI.hand(GAME.view(state, seat), legal(state, seat), NAMES)


def labels(screen: HandScreen) -> list[str]:
    return [c.label for c in screen.controls if isinstance(c, Button)]


def text_of(shown: Panel | HandScreen) -> str:
    panels = shown.panels if isinstance(shown, HandScreen) else (shown,)
    parts = [p.title + "\n" + p.description + "\n" + (p.footer or "") for p in panels]
    parts += [f"{n}\n{v}" for p in panels for n, v, _ in p.fields]
    if isinstance(shown, HandScreen):
        parts.append(shown.content)
        for control in shown.controls:
            if isinstance(control, Button):
                parts.append(control.label)
            else:
                parts.append(control.placeholder)
                parts += [label for label, _, _ in control.options]
    return "\n".join(parts)


def test_a_held_hazard_reads_in_each_language() -> None:
    state = opened()
    hold(state, "HZ-02")
    expected = {
        "ro": ("✋ Ții în mână **⚠️ Pericol** (din pachet).", "Decartează pericolul (iese din joc)"),
        "et": ("✋ Sul on käes **⚠️ Oht** (tõmbehunnikust).", "Viska oht ära (see lahkub mängust)"),
        "lt": (
            "✋ Rankoje: **⚠️ Pavojus** (iš kaladės).",
            "Numesk pavojų (jis iškrenta iš žaidimo)",
        ),
    }
    for language, (prompt, button) in expected.items():
        with i18n.using(language):
            screen = hand(state, 0)
        assert prompt in screen.panels[0].description
        assert button in labels(screen)


def test_opening_menus_name_the_cells_in_estonian() -> None:
    state = GAME.new_game(3, 5)
    with i18n.using("et"):
        screen = hand(state, 0)
        state = act(state, 0, "op.0.4")
        waiting = hand(state, 0).panels[0].description
    menus = [c for c in screen.controls if isinstance(c, Select)]
    assert menus[0].placeholder == "Keera ümber 2 kaarti: paarid ülemise rea kaardiga"
    assert ("üleval vasakul + keskel", "op.0.4", "■□□   □■□   □□□") in menus[0].options
    assert "🔒 Keerad ümber kaardid: üleval vasakul ja keskel. Ootame: Bob, Cyd." in waiting


@pytest.mark.parametrize(
    ("count", "words"),
    [
        (1, "1 užversta korta"),
        (2, "2 užverstos kortos"),
        (5, "5 užverstos kortos"),
        (10, "10 užverstų kortų"),
        (11, "11 užverstų kortų"),
        (21, "21 užversta korta"),
    ],
)
def test_face_down_count_takes_the_lithuanian_plural(count: int, words: str) -> None:
    state = opened()
    view = GAME.view(state, 0)
    view["face_down"][0] = count
    with i18n.using("lt"):
        screen = UI.hand(view, legal(state, 0), NAMES)
    assert f"· {words} ·" in screen.panels[0].description


@pytest.mark.parametrize(
    ("count", "words"),
    [(1, "1 carte cu"), (2, "2 cărți cu"), (19, "19 cărți cu"), (20, "20 de cărți cu")],
)
def test_face_down_count_takes_the_romanian_plural(count: int, words: str) -> None:
    state = opened()
    view = GAME.view(state, 0)
    view["face_down"][0] = count
    with i18n.using("ro"):
        screen = UI.hand(view, legal(state, 0), NAMES)
    assert f"· {words} fața în jos ·" in screen.panels[0].description


def test_round_summary_in_romanian() -> None:
    before = GAME.view(opened(), None)
    entry: GnomeRoundSeat = {
        "grid": ["P6-01", "P6-02", "MU-01", "P3-01", "N2-01", "P5-01", "P7-01", "P8-01", "HZ-01"],
        "lines": [{"cells": [0, 1, 2], "value": 6}],
        "hazards": 1,
        "wild": 2,
        "raw": 23,
        "adjust": -5,
        "score": 18,
    }
    last: GnomeRound = {"round": 1, "first_out": 0, "stalled": False, "seats": [entry] * 3}
    after: GnomeView = {**before, "last_round": last}
    with i18n.using("ro"):
        (panel,) = UI.summaries(before, after, NAMES)
    assert panel.title == "⛳ Scorul rundei 1"
    assert "**Ann** a terminat înaintea tuturor, cu cel mai mic scor: **-5**." in panel.description
    value = panel.fields[0][1]
    assert "✅ rândul de sus (6): -6" in value
    assert "🃏 mulligan joker: dreapta sus" in value
    assert "Cărți 23 · terminare -5 → **18**" in value


def _illegal_reasons(seed: int) -> list[IllegalAction]:
    """Every reason the engine gives along a random game, for every action it refuses."""
    rng = random.Random(seed)
    state = GAME.new_game(3, seed)
    texts = ["op.0.1", "op.3.4", "dr.deck", "dr.A", "dr.B", "x", "x.A", "x.B", "nf"]
    texts += [f"{p}.{c}" for p in ("pl", "bo", "fl") for c in (0, 4, 8)]
    texts += ["nb.A", "nb.B", "pi.A", "pi.B"]
    found: list[IllegalAction] = []
    for step in range(120):
        for seat in range(3):
            for text in texts:
                try:
                    GAME.apply(state, seat, GAME.parse_action(text))
                except IllegalAction as error:
                    found.append(error)
        to_act = sorted(GAME.to_act(state))
        if not to_act or step == 119:
            break
        seat = rng.choice(to_act)
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    for bad in ("zz", "pl.9", "dr.C", "op.4.1"):
        try:
            GAME.parse_action(bad)
        except IllegalAction as error:
            found.append(error)
    return found


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_engine_reason_is_translated(language: str) -> None:
    reasons = {(e.reason, tuple(sorted(e.values.items()))): e for e in _illegal_reasons(7)}
    assert len(reasons) >= 10
    with i18n.using(language):
        for error in reasons.values():
            shown = i18n.translate(error.reason, **error.values)
            assert shown != str(error), error.reason
    with i18n.using("et"):
        assert i18n.translate("It is not your turn.") == "Praegu pole sinu käik."
        assert (
            i18n.translate("Pile {pile} is empty, so the card must go there.", pile="B")
            == "Hunnik B on tühi, seega peab kaart minema sinna."
        )


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_rules_panel_is_complete_and_fits_in_every_language(language: str) -> None:
    with i18n.using(language):
        panel = UI.rules()
    assert not limit_problems("rules", panel)
    assert len(panel.description) > 1200
    assert panel.description.count("**") >= 12  # headings and key words kept bold
    if language != "en":
        with i18n.using("en"):
            assert panel.description != UI.rules().description
    words = {
        "en": ("Bounce", "Hazard", "Mulligan", "−5", "19"),
        "ro": ("Săritura", "pericol", "mulligan", "−5", "19"),
        "et": ("Põrge", "oht", "mulligan", "−5", "19"),
        "lt": ("Atšokimas", "pavojus", "muliganas", "−5", "19"),
    }[language]
    for word in words:
        assert word.lower() in panel.description.lower(), word


def test_every_gnoming_word_comes_from_the_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The game's own screens in the pseudo-language (the shared result screens aside)."""
    pseudo(monkeypatch)
    rng = random.Random(3)
    state = GAME.new_game(3, 3)
    previous = GAME.view(state, None)
    shown: list[Panel | HandScreen] = [UI.rules()]
    while GAME.to_act(state):
        spectator = GAME.view(state, None)
        shown.append(UI.table(spectator, NAMES))
        shown += [p for p in UI.summaries(previous, spectator, NAMES) if "🏆" not in p.title]
        previous = spectator
        shown += [hand(state, seat) for seat in range(3)]
        seat = rng.choice(sorted(GAME.to_act(state)))
        state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    leftovers = {w for item in shown for w in untranslated(text_of(item), PLAYER_NAMES)}
    assert not leftovers


@pytest.mark.parametrize("language", TRANSLATED)
def test_no_english_sentence_is_left_in_a_translated_game(language: str) -> None:
    rng = random.Random(11)
    state = GAME.new_game(3, 11)
    english = ("the ", " your ", "Waiting", "discard", "Round ", "Hazard", "pile")
    with i18n.using(language):
        while GAME.to_act(state):
            for item in (UI.table(GAME.view(state, None), NAMES), hand(state, 0)):
                text = text_of(item).replace("Gnoming A Round", "")
                assert not [w for w in english if w in text], text
            seat = rng.choice(sorted(GAME.to_act(state)))
            state = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
