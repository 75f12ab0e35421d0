"""Grinch and 2-Player Hearts in Romanian, Estonian and Lithuanian: real catalog text, not English.

Each test would fail if a translation were missing (the English source would show instead).
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import i18n
from engine.base import IllegalAction
from engine.grinch import GAME as GRINCH
from engine.grinch.cards import KNOWN_NAMES
from engine.grinch.state import GrinchState
from engine.hearts2p import GAME as HEARTS
from engine.hearts2p.actions import Play
from presentation import UIS
from presentation.base import Button, HandScreen, Names, Panel
from presentation.grinch.text import CARD_NAMES, card_long, row_name
from tools.messages import missing

NAMES = Names(("Ann", "Ben", "Cat"), frozenset({2}))
TRANSLATED = ("ro", "et", "lt")


def text(panel: Panel) -> str:
    return json.dumps(
        [panel.title, panel.description, panel.fields, panel.footer], ensure_ascii=False
    )


def labels(screen: HandScreen) -> list[str]:
    return [c.label for c in screen.controls if isinstance(c, Button)]


def who_discarding(cards: tuple[str, ...]) -> GrinchState:
    state = GRINCH.new_game(3, 7)
    hands = list(state.hands)
    hands[1] = cards
    return replace(state, hands=tuple(hands))


def grinch_hand(language: str, cards: tuple[str, ...]) -> HandScreen:
    state = who_discarding(cards)
    legal = [str(a) for a in GRINCH.legal_actions(state, 1)]
    with i18n.using(language):
        return UIS["grinch"].hand(GRINCH.view(state, 1), legal, NAMES)


def test_every_message_of_both_games_is_translated() -> None:
    assert missing(["grinch", "hearts2p"]) == []


def test_the_named_cards_are_the_engines() -> None:
    assert set(CARD_NAMES) == set(KNOWN_NAMES)


@pytest.mark.parametrize(
    ("language", "wreath", "sing", "prompt"),
    [
        ("ro", "🌿3 Coronițe", "⚡1 Cântați! Cântați! Cântați! (+10 🌿)", "Alege o carte"),
        ("et", "🌿3 Pärjad", "⚡1 Laulge! Laulge! Laulge! (+10 🌿)", "Vali kaart"),
        ("lt", "🌿3 Vainikai", "⚡1 Dainuokim! Dainuokim! Dainuokim! (+10 🌿)", "Pasirink"),
    ],
)
def test_a_grinch_hand_in_each_language(language: str, wreath: str, sing: str, prompt: str) -> None:
    screen = grinch_hand(language, ("W3a", "N1a", "O2a", "P5b"))
    assert wreath in labels(screen) and sing in labels(screen)
    assert "🎀2 Cindy-Lou Who (+5 🎁)" in labels(screen)  # a person's name stays as it is
    (panel,) = screen.panels
    assert prompt in panel.description
    assert "Pick a card" not in panel.description and "Wreaths" not in text(panel)


def test_romanian_uses_the_seed_rows_of_the_score_pad() -> None:
    with i18n.using("ro"):
        rows = [row_name(r) for r in GRINCH.view(GRINCH.new_game(2, 1), None)["rows"]]
    assert rows == [
        "Coronițe",
        "Zgomote",
        "Ornamente",
        "Cadouri",
        "Curcubeu",
        "Meci",
        "Succesiune",
    ]


@pytest.mark.parametrize(
    ("language", "forms"),
    [
        ("lt", {1: "Liko 1 korta", 2: "Liko 2 kortos", 5: "Liko 5 kortos", 11: "Liko 11 kortų",
                21: "Liko 21 korta"}),
        ("ro", {1: "A mai rămas 1 carte", 2: "Au mai rămas 2 cărți", 5: "Au mai rămas 5 cărți",
                21: "Au mai rămas 21 de cărți"}),
        ("et", {1: "Alles 1 kaart", 2: "Alles 2 kaarti", 21: "Alles 21 kaarti"}),
    ],
)  # fmt: skip
def test_counted_words_take_each_languages_plural_forms(
    language: str, forms: dict[int, str]
) -> None:
    with i18n.using(language):
        for n, expected in forms.items():
            assert i18n.ngettext("{n} card left", "{n} cards left", n) == expected


def test_a_grinch_table_counts_cards_in_lithuanian() -> None:
    view = GRINCH.view(GRINCH.new_game(3, 7), None)
    with i18n.using("lt"):
        table = UIS["grinch"].table(view, NAMES)
    assert f"Kaladėje {view['deck_size']} kortos" in table.description  # 42: form "kortos"
    assert "Rankoje: 2 kortos" in text(table)


def test_a_hearts_hand_in_romanian() -> None:
    state = HEARTS.new_game(2, 5)
    (seat,) = HEARTS.to_act(state)
    legal = [str(a) for a in HEARTS.legal_actions(state, seat)]
    with i18n.using("ro"):
        screen = UIS["hearts"].hand(HEARTS.view(state, seat), legal, Names(("Ann", "Ben")))
        table = UIS["hearts"].table(HEARTS.view(state, None), Names(("Ann", "Ben")))
    (panel,) = screen.panels
    assert panel.title == "Mâna ta"
    assert "E rândul tău" in panel.description and "levata 1/13" in panel.description
    assert "Inimile nu sunt încă rupte" in table.description
    assert table.title.startswith("♥️ Inimi cu 2 jucători")


@pytest.mark.parametrize(
    ("language", "opening", "follow"),
    [
        ("ro", "Prima levată trebuie deschisă cu {card}.", "Trebuie să urmezi culoarea (♦)."),
        ("et", "Esimene tihi tuleb avada kaardiga {card}.", "Pead masti tunnistama (♦)."),
        ("lt", "Pirmąjį kirtį reikia pradėti korta {card}.", "tos pačios masties kortą (♦)."),
    ],
)
def test_hearts_refusals_are_translated_with_their_values(
    language: str, opening: str, follow: str
) -> None:
    state = HEARTS.new_game(2, 3)
    (seat,) = HEARTS.to_act(state)
    other = next(c for c in state.hands[seat] if c != state.opening_card)
    with pytest.raises(IllegalAction) as refused:
        HEARTS.apply(state, seat, Play(other))
    card = str(refused.value.values["card"])
    with i18n.using(language):
        shown = i18n.translate(refused.value.reason, **refused.value.values)
    assert shown == opening.format(card=card) and card.endswith("♣")
    follow_state = replace(
        state,
        hands=(("8D", "2S"), ("AD", "10H", "4S")),
        trick=((0, "4D"),),
        leader=0,
        trick_no=5,
    )
    with pytest.raises(IllegalAction) as refused:
        HEARTS.apply(follow_state, 1, Play("4S"))
    with i18n.using(language):
        assert follow in i18n.translate(refused.value.reason, **refused.value.values)


@pytest.mark.parametrize("name", ["grinch", "hearts"])
def test_rules_are_translated_and_fit_one_embed(name: str) -> None:
    with i18n.using("en"):
        english = UIS[name].rules()
    for language in TRANSLATED:
        with i18n.using(language):
            panel = UIS[name].rules()
        assert panel.title != english.title and panel.description != english.description
        assert len(panel.fields) == len(english.fields)
        for (field, value, _), (en_field, en_value, _) in zip(
            panel.fields, english.fields, strict=True
        ):
            assert field != en_field and value != en_value
            assert len(value) <= 1024
        size = len(panel.title) + len(panel.description)
        assert size + sum(len(f) + len(v) for f, v, _ in panel.fields) <= 6000


def test_the_grinch_example_scores_as_the_engine_does() -> None:
    rules = text(UIS["grinch"].rules())
    for line in ("Rainbow: 21 + 5 = 26", "Match: 10 + 5 = 15", "Ornaments: 8 + 5 = 13"):
        assert line in rules
    assert card_long("O2a") in rules
    with i18n.using("ro"):
        assert "Meci: 10 + 5 = 15" in text(UIS["grinch"].rules())
