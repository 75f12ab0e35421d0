"""Every game in every language: all text from the catalogs, and within Discord's limits."""

from __future__ import annotations

import pytest

import i18n
from engine import GAMES
from tests.presentation.languages import (
    all_text,
    english,
    limit_problems,
    pseudo,
    screens,
    sizes,
    untranslated,
)

GAMES_AND_SIZES = [(name, players) for name in sorted(GAMES) for players in sizes(name)]


@pytest.mark.parametrize(("name", "players"), GAMES_AND_SIZES)
def test_every_word_comes_from_the_catalogs(
    name: str, players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pseudo(monkeypatch)
    leftovers: dict[str, str] = {}
    for kind, shown in screens(name, players, seed=players):
        for word in untranslated(all_text(shown)):
            leftovers.setdefault(word, f"{kind}: {all_text(shown)[:300]}")
    assert not leftovers, leftovers


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize(("name", "players"), GAMES_AND_SIZES)
def test_every_language_fits_discord(name: str, players: int, language: str) -> None:
    problems: list[str] = []
    with i18n.using(language):
        for seed in range(2):
            for kind, shown in screens(name, players, seed=seed):
                problems.extend(limit_problems(kind, shown))
    assert not problems, problems[:10]


@pytest.mark.parametrize("language", ["ro", "lt", "et"])
@pytest.mark.parametrize(("name", "players"), GAMES_AND_SIZES)
def test_a_whole_game_shows_no_english(name: str, players: int, language: str) -> None:
    """Rules, lobby, table, hands, summaries, scores, move lines and result of whole random
    games, with the real catalogs: no English word outside proper names and player names."""
    found: dict[str, str] = {}
    with i18n.using(language):
        for seed in range(2):
            for kind, shown in screens(name, players, seed=seed):
                text = all_text(shown)
                for word in english(text, language):
                    found.setdefault(word, f"{kind}: {text[:300]}")
    assert not found, found
