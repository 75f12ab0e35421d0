"""Renderers, one per game, keyed like ``engine.GAMES``."""

from __future__ import annotations

import importlib

from cogs.ui.base import GameUI

UIS: dict[str, GameUI] = {}


def _register() -> None:
    # A renderer module may still be missing while its game is being built; a module that
    # exists but fails to import is an error and is raised.
    for module_name in ("grinch", "hearts2p", "gnoming", "ten"):
        try:
            module = importlib.import_module(f"cogs.ui.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"cogs.ui.{module_name}":
                raise
            continue
        UIS[module.UI.name] = module.UI


_register()
