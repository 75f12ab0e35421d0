"""Renderers, one per game, keyed like ``engine.GAMES``."""

from __future__ import annotations

from cogs.ui import grinch
from cogs.ui.base import GameUI

UIS: dict[str, GameUI] = {
    grinch.UI.name: grinch.UI,
}
