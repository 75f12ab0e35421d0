"""The card look of every game, by the engine's game name."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from cogs.ui.pictures import gnome_look, grinch_look, hearts_look, ten_look
from cogs.ui.pictures.faces import Look

LOOKS: Final[Mapping[str, Look]] = MappingProxyType(
    {
        "grinch": grinch_look.LOOK,
        "gnome": gnome_look.LOOK,
        "hearts": hearts_look.LOOK,
        "ten": ten_look.LOOK,
    }
)
