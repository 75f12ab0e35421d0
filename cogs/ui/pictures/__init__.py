"""Pictures of cards, hands, tables and score charts, drawn with Pillow from engine views.

No Discord import here: every function returns PNG bytes, which ``cogs/`` attaches to the
messages it sends anyway. See :mod:`cogs.ui.pictures.api` for how to call it.
"""

from __future__ import annotations

from cogs.ui.pictures.api import Pictures, series_from_view, series_from_views
from cogs.ui.pictures.chart import chart
from cogs.ui.pictures.faces import FaceCache, Look
from cogs.ui.pictures.looks import LOOKS

__all__ = [
    "LOOKS",
    "FaceCache",
    "Look",
    "Pictures",
    "chart",
    "series_from_view",
    "series_from_views",
]
