"""Pure game rules. ``GAMES`` maps each command name to its game object."""

from __future__ import annotations

from typing import Any

from engine.base import Game
from engine.gnoming import GAME as GNOME
from engine.grinch import GAME as GRINCH
from engine.hearts2p import GAME as HEARTS
from engine.ten import GAME as TEN

GAMES: dict[str, Game[Any, Any]] = {game.name: game for game in (GRINCH, GNOME, HEARTS, TEN)}
