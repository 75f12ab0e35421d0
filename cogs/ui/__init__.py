"""Renderers, one package per game (``cogs/ui/<package>/``), keyed like ``engine.GAMES``.

The list of games is ``engine.PACKAGES``: each game's renderer is the ``UI`` of the package of
the same name here, so a new game needs no line in this file.
"""

from __future__ import annotations

import importlib

from cogs.ui.base import GameUI
from engine import PACKAGE_OF


def _load(package: str) -> GameUI:
    ui: GameUI = importlib.import_module(f"cogs.ui.{package}").UI
    return ui


UIS: dict[str, GameUI] = {name: _load(package) for name, package in PACKAGE_OF.items()}
