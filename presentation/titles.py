"""The games' titles in the current language: one name per game per language, wherever shown.

The engine names each game in English (``GAMES[name].title``); that English title is the
catalogs' message id, marked once in the game's own presentation package (``N_`` in its
``text.py`` or ``rules.py``, so its domain carries it) and translated here, at the edge. The
lobby, the table, the result, the DM header, ``/rules``, ``/help``, ``/history``, the
leaderboard, the charts and the commands' game choices all show what :func:`game_title` says.
A title a language keeps as published (a brand) is translated to itself.
"""

from __future__ import annotations

from typing import Any

from engine import GAMES
from engine.base import Game
from i18n import translate


def title_of(game: Game[Any, Any]) -> str:
    """``game``'s title in the current language."""
    return translate(game.title)


def game_title(name: str) -> str:
    """Game ``name``'s title (``"ten"`` -> "Dešimt" in Lithuanian); an unknown name as it is."""
    return title_of(GAMES[name]) if name in GAMES else name


def game_titles() -> dict[str, str]:
    """Every game's title in the current language, by the game's name."""
    return {name: game_title(name) for name in GAMES}
