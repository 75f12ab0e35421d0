"""Grinch Grow Your Heart, rendered from engine views: ``renderer.UI`` makes panels and controls."""

from presentation.grinch.renderer import UI

__all__ = ["UI"]
