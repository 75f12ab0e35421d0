"""Gnoming A Round, rendered from engine views: ``renderer.UI`` makes its panels and controls.

``text`` holds the shared wording, ``hand`` the DM's 3x3 grid of buttons and its
phase choices, ``moves`` the /history line for each move, ``rules`` the ``/rules``
text. Every word goes through the ``gnoming`` catalogs
(``locales/<language>/LC_MESSAGES/gnoming.po``).
"""

from presentation.gnoming.renderer import UI

__all__ = ["UI"]
