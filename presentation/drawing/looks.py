"""The card look of every game, by the engine's game name: ``presentation/<package>/look.py``."""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType

from engine import PACKAGE_OF
from presentation.drawing.faces import Look


def look_of(game: str) -> Look:
    """The ``LOOK`` of a game's ``look`` module (raises KeyError for an unknown game)."""
    look: Look = importlib.import_module(f"presentation.{PACKAGE_OF[game]}.look").LOOK
    return look


def looks() -> Mapping[str, Look]:
    """Every registered game's look, keyed like ``engine.GAMES``."""
    return MappingProxyType({game: look_of(game) for game in PACKAGE_OF})
