"""Renderers, one package per game (``presentation/<package>/``), keyed like ``engine.GAMES``.

The list of games is ``engine.PACKAGES``: each game's renderer is the ``UI`` of the package of
the same name here, so a new game needs no line in this file.

A registered game whose ``presentation/<package>/`` does not exist is left out of ``UIS`` and
named in ``UNSERVED``: importing this package still works, so the completeness check
(tests/test_architecture.py) can say what the game lacks, and bot.py refuses to start with
one line naming it rather than a traceback.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine import PACKAGE_OF
from presentation.base import GameUI


def _load(package: str) -> GameUI[Any] | None:
    """The package's ``UI``; None when there is no ``presentation/<package>/`` at all."""
    try:
        module = importlib.import_module(f"presentation.{package}")
    except ModuleNotFoundError as exc:
        if exc.name != f"presentation.{package}":
            raise  # the package is there and something it imports is not
        return None
    ui: GameUI[Any] = module.UI
    return ui


_LOADED = {name: _load(package) for name, package in PACKAGE_OF.items()}
UIS: dict[str, GameUI[Any]] = {name: ui for name, ui in _LOADED.items() if ui is not None}
# The packages of registered games that have no presentation/<package>/ (empty when complete).
UNSERVED: tuple[str, ...] = tuple(PACKAGE_OF[name] for name, ui in _LOADED.items() if ui is None)
