"""2-Player Hearts, rendered from engine views: ``renderer.UI`` makes its panels and controls."""

from presentation.hearts2p.renderer import UI

__all__ = ["UI"]
