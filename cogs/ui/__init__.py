"""Renderers, one per game, keyed like ``engine.GAMES``."""

from __future__ import annotations

from cogs.ui import gnoming, grinch, hearts2p, ten
from cogs.ui.base import GameUI

UIS: dict[str, GameUI] = {ui.name: ui for ui in (grinch.UI, gnoming.UI, hearts2p.UI, ten.UI)}
