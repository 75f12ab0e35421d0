"""Ten in Romanian, Estonian and Lithuanian: real translated output, not just catalog entries."""

from __future__ import annotations

import pytest

import i18n
from engine.base import IllegalAction
from engine.ten import GAME
from engine.ten.view import TenSeat
from presentation.base import Names
from presentation.ten import UI
from presentation.ten.text import card_name, cards_count, legend, letter, seat_line
from tests.presentation.languages import limit_problems
from tests.presentation.test_ten_ui import act, hand, rig, text
from tools.messages import missing

NAMES = Names(("Ann", "Ben", "Cat"))
COLOUR_NAMES = {
    "ro": ("roșu", "albastru", "portocaliu", "verde"),
    "et": ("punane", "sinine", "oranž", "roheline"),
    "lt": ("raudona", "mėlyna", "oranžinė", "žalia"),
}


def test_the_ten_catalogs_are_complete() -> None:
    assert missing(["ten"]) == []


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_colour_letters_differ_and_the_legend_explains_them(language: str) -> None:
    with i18n.using(language):
        letters = [letter(c) for c in "RBOG"]
        shown = legend()
    assert len(set(letters)) == 4 and all(len(x) == 1 for x in letters)
    for square, mark in zip("🟥🟦🟧🟩", letters, strict=True):
        assert f"{square}{mark} " in shown
    if language != "en":
        for name in COLOUR_NAMES[language]:
            assert name in shown


def test_card_names_follow_the_language() -> None:
    with i18n.using("ro"):
        assert card_name("B5a") == "🟦A5 Albastru 5"
        assert card_name("O#a") == "🟧P✱ Joker portocaliu"
        assert card_name("W#") == "🌈✱ Super joker"
    with i18n.using("et"):
        assert card_name("G3a") == "🟩R3 Roheline 3"
        assert card_name("W4") == "🌈4 Jokker 4"
    with i18n.using("lt"):
        assert card_name("R#a") == "🟥R✱ Raudona laukinė korta"
        assert card_name("G2a") == "🟩Ž2 Žalia 2"


def test_lithuanian_plural_forms() -> None:
    with i18n.using("lt"):
        assert [cards_count(n) for n in (1, 2, 5, 11, 21)] == [
            "1 korta",
            "2 kortos",
            "5 kortos",
            "11 kortų",
            "21 korta",
        ]
        info: TenSeat = {
            "seat": 0,
            "collection": [],
            "by_colour": {},
            "score": 21,
            "colour_scores": {},
            "runs": {},
            "wild_slots": {},
            "tokens": 3,
            "bust_tokens": 0,
            "spending_power": 3,
            "cards": 12,
        }
        assert seat_line(info) == "**21** taškas · 🪙 3 · 12 kortų"
    with i18n.using("ro"):
        assert [cards_count(n) for n in (1, 2, 19, 20)] == [
            "1 carte",
            "2 cărți",
            "19 cărți",
            "20 de cărți",
        ]


def test_a_romanian_auction_screen() -> None:
    state = act(rig(3, ["W5"], tokens=(5, 3, 5)), "draw", "bid.2")
    with i18n.using("ro"):
        screen = hand(state, 2)
        table = UI.table(GAME.view(state, None), NAMES)
    shown = text(screen.panels[0])
    assert "**🌈5 Joker 5** se licitează. Licitează mai mult de **2** sau spune pas." in shown
    labels = [c.label for c in screen.controls if hasattr(c, "label")]
    assert labels == ["Pas"]
    assert "🔨 Licitație pentru **🌈5 Joker 5**: Ben 2 · ⏳ Cat · Ann …" in table.description
    assert table.title == "🔟 Zece — 3 jucători"


def test_an_estonian_bust_is_told_with_its_letters() -> None:
    state = act(rig(3, ["R5a", "C1a", "B6a", "G1a"], tokens=(5, 9, 2)), *["draw"] * 4)
    with i18n.using("et"):
        shown = text(UI.table(GAME.view(state, None), NAMES))
    assert "💥 **Ann** läks lõhki kaardiga 🟩R1 (neto üle 10)" in shown
    assert "🟥P5 🟦S6 🟩R1 turule" in shown


def test_engine_reasons_are_translated_with_their_values() -> None:
    state = act(rig(3, ["W5"], tokens=(5, 5, 5)), "draw", "bid.3")
    with pytest.raises(IllegalAction) as caught:
        GAME.apply(state, 2, GAME.parse_action("bid.2"))
    reason, values = caught.value.reason, caught.value.values
    assert str(caught.value) == "You must bid more than 3."
    with i18n.using("lt"):
        assert i18n.translate(reason, **values) == "Turi pasiūlyti daugiau nei 3."
    with i18n.using("et"):
        assert i18n.translate(reason, **values) == "Pead pakkuma rohkem kui 3."


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_the_rules_fit_and_show_the_example_in_each_language(language: str) -> None:
    with i18n.using(language):
        panel = UI.rules()
        red5 = f"🟥{letter('R')}5"
    assert limit_problems("rules", panel) == []
    assert len(panel.fields) == 5
    assert red5 in text(panel) and "5 + 2 + 1 + 3 = 11" in text(panel)
    if language != "en":
        assert "Your turn" not in text(panel)
