"""Renderers, one package per game (``presentation/<package>/``), keyed like ``engine.GAMES``.

The list of games is ``engine.PACKAGES``: each game's renderer is the ``UI`` of the package of
the same name here, so a new game needs no line in this file.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine import PACKAGE_OF
from presentation.base import GameUI


def _load(package: str) -> GameUI[Any]:
    ui: GameUI[Any] = importlib.import_module(f"presentation.{package}").UI
    return ui


UIS: dict[str, GameUI[Any]] = {name: _load(package) for name, package in PACKAGE_OF.items()}
