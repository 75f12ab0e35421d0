"""Grinch Grow Your Heart, rendered from engine views: ``renderer.UI`` makes panels and controls."""

from cogs.ui.grinch.renderer import UI

__all__ = ["UI"]
