"""Drawing in a child process: :class:`DrawingProcess` is the bot's painter, and
``python -m workers.drawing`` the child it starts (see workers.runner for how they talk).

The bot starts the child as it starts (the first picture would otherwise wait for the child's
imports), and again after it dies; it ends when the bot closes it or dies itself."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

from presentation.drawing.api import Pictures
from presentation.drawing.painters import PictureFailed
from workers.runner import ChildFailed, ChildProcess, Handlers, run_child

WORKER_MODULE = "workers.drawing"


def handlers(pictures: Pictures) -> Handlers:
    """What the bot may ask: :class:`Pictures`'s drawing methods."""
    return {
        "hand": pictures.hand,
        "table": pictures.table,
        "summary": pictures.summary,
        "chart": pictures.chart,
        "card": pictures.card,
    }


class DrawingProcess:
    """Draws in a child process (see the module's docstring and workers.runner)."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.child = ChildProcess(WORKER_MODULE, command=command)

    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        try:
            png: bytes | None = await self.child.call(method, *args, **kwargs)
        except ChildFailed as exc:
            raise PictureFailed(str(exc)) from exc
        return png

    async def start(self) -> None:
        """Start drawing ahead of the first picture (workers.runner)."""
        await self.child.start()

    async def close(self) -> None:
        await self.child.close()


if __name__ == "__main__":
    sys.exit(run_child(handlers(Pictures())))
