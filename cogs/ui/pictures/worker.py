"""The drawing process: ``python -m cogs.ui.pictures.worker``, started by
:class:`cogs.ui.pictures.painters.DrawingProcess` (see cogs.ui.children for how it talks)."""

from __future__ import annotations

import sys

from cogs.ui.children import Handlers, run_child
from cogs.ui.pictures.api import Pictures


def handlers(pictures: Pictures) -> Handlers:
    """What the bot may ask: :class:`Pictures`'s drawing methods."""
    return {
        "hand": pictures.hand,
        "table": pictures.table,
        "summary": pictures.summary,
        "chart": pictures.chart,
        "card": pictures.card,
    }


if __name__ == "__main__":
    sys.exit(run_child(handlers(Pictures())))
