"""Gnoming A Round, rendered from engine views: ``renderer.UI`` makes its panels and controls.

``text`` holds the shared wording, ``hand`` the DM's 3x3 grid of buttons and its
phase choices.
"""

from cogs.ui.gnoming.renderer import UI

__all__ = ["UI"]
