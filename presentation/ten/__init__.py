"""Ten, rendered from engine views: ``renderer.UI`` makes its panels and controls.

``text`` holds the shared wording (card names and colour letters per language), ``hand`` the
acting player's DM controls and payments, ``prompt`` what that screen asks, and
``rules`` the ``/rules`` panel. Every word comes from the catalogs (domain ``ten``).
"""

from presentation.ten.renderer import UI

__all__ = ["UI"]
