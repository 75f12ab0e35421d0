"""Ten, rendered from engine views: ``renderer.UI`` makes its panels and controls.

``text`` holds the shared wording, ``hand`` the acting player's DM controls and
payments.
"""

from cogs.ui.ten.renderer import UI

__all__ = ["UI"]
