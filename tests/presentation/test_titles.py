"""One title per game per language: the engine's English title, translated at the edge."""

from __future__ import annotations

import pytest

import i18n
from engine import GAMES
from presentation import UIS
from presentation.titles import game_title, game_titles
from tests.presentation.languages import names_for, screens
from tools.messages import ALL_DOMAINS, code_messages

TRANSLATED = ("ro", "et", "lt")
# The titles a language keeps as published (brands); every other title is translated.
KEPT = {"Grinch Grow Your Heart", "Gnoming A Round"}


def test_every_engine_title_is_in_the_catalogs() -> None:
    marked = {m for d in ALL_DOMAINS if d != "commands" for m, _c, _w in code_messages(d)}
    assert {game.title for game in GAMES.values()} <= marked


@pytest.mark.parametrize("language", TRANSLATED)
def test_titles_are_translated_unless_kept(language: str) -> None:
    with i18n.using(language):
        shown = game_titles()
        assert shown == {name: game_title(name) for name in GAMES}
    for name, game in GAMES.items():
        assert (shown[name] == game.title) == (game.title in KEPT), (name, shown[name])


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_the_table_and_the_result_show_the_one_title(name: str, language: str) -> None:
    game = GAMES[name]
    with i18n.using(language):
        title = game_title(name)
        rules = UIS[name].rules().title
        shown = {kind: panel for kind, panel in screens(name, game.min_players, seed=1)}
        result = shown["result"].title  # type: ignore[union-attr]
        table = (
            UIS[name]
            .table(game.view(game.new_game(game.max_players, 1), None), names_for(game.max_players))
            .title
        )
    for text in (rules, result, table):
        assert title in text, (text, title)
        if game.title not in KEPT:
            assert game.title not in text.replace(title, ""), text
