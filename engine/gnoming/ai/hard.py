"""The hard computer player for Gnoming A Round (placeholder while it is built)."""

from __future__ import annotations

from engine.gnoming.ai.normal import GnomePolicy


class HardPolicy(GnomePolicy):
    """Normal's player, searched deeper."""
