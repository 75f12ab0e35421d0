"""Pure game rules, one package per game.

``PACKAGES`` is the registry: adding a game is one line there, plus its two packages
(docs/adding-a-game.md). ``GAMES`` maps each command name to its ``GAME`` object and
:func:`policy_for` finds the game's computer player in ``engine/<package>/ai``.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from engine.base import Game, Level, Policy

# The registry: one line per game, the name of its package under engine/.
PACKAGES: tuple[str, ...] = ("grinch", "gnoming", "hearts2p", "ten")


def _game(package: str) -> Game[Any, Any]:
    module: ModuleType = importlib.import_module(f"engine.{package}")
    game: Game[Any, Any] = module.GAME
    return game


GAMES: dict[str, Game[Any, Any]] = {_game(p).name: _game(p) for p in PACKAGES}
PACKAGE_OF: dict[str, str] = {_game(p).name: p for p in PACKAGES}


def policy_for(game_name: str, level: Level = Level.NORMAL) -> Policy:
    """The computer player of a game at ``level``: the ``ai`` module's ``POLICIES`` by level
    where it has them, else its one ``POLICY`` (raises KeyError for an unknown game)."""
    module = importlib.import_module(f"engine.{PACKAGE_OF[game_name]}.ai")
    levels: dict[Level, Policy] | None = getattr(module, "POLICIES", None)
    policy: Policy = module.POLICY if levels is None else levels[level]
    return policy
