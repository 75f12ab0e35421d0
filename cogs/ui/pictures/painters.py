"""Who draws the pictures: a process of its own for the bot, a thread for tests and tools.

Drawing a hand or a table is 10-40 ms of Python and Pillow. In a thread of the bot's process
it holds the interpreter lock the event loop needs: when many games began at once (every
player's first hand has a picture) each turn of the loop waited behind the drawing, and
clicks were answered in 60-250 ms instead of a few. :class:`DrawingProcess` draws in a child
process instead (``cogs.ui.pictures.worker``), so the loop only sends a view and receives
PNG bytes. The bot starts the child as it starts (the first picture would otherwise wait for the
child's imports), and again after it dies; it ends when
the bot closes it or dies itself. Each picture is drawn in the language current where
:meth:`Painter.draw` was called.

A picture that cannot be drawn raises :class:`PictureFailed`; callers send their message
without it (see cogs.attachments).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Protocol

from cogs.ui.children import ChildFailed, ChildProcess
from cogs.ui.pictures.api import Pictures

WORKER_MODULE = "cogs.ui.pictures.worker"


class PictureFailed(Exception):
    """The picture could not be drawn; the message goes out without it."""


class Painter(Protocol):
    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        """PNG bytes from ``Pictures.<method>(*args, **kwargs)``; raises PictureFailed."""
        ...

    async def close(self) -> None: ...


class InThread:
    """Draws in a worker thread of this process (tests, tools, a bot without processes)."""

    def __init__(self, pictures: Pictures | None = None) -> None:
        self.pictures = pictures or Pictures()

    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        draw = getattr(self.pictures, method)
        try:  # the thread runs in a copy of this context: the current language too
            png: bytes | None = await asyncio.to_thread(draw, *args, **kwargs)
        except Exception as exc:
            raise PictureFailed(f"{type(exc).__name__}: {exc}") from exc
        return png

    async def close(self) -> None:
        return None


class DrawingProcess:
    """Draws in a child process (see the module's docstring and cogs.ui.children)."""

    def __init__(self, command: Sequence[str] | None = None) -> None:
        self.child = ChildProcess(WORKER_MODULE, command=command)

    async def draw(self, method: str, *args: Any, **kwargs: Any) -> bytes | None:
        try:
            png: bytes | None = await self.child.call(method, *args, **kwargs)
        except ChildFailed as exc:
            raise PictureFailed(str(exc)) from exc
        return png

    async def start(self) -> None:
        """Start drawing ahead of the first picture (cogs.ui.children)."""
        await self.child.start()

    async def close(self) -> None:
        await self.child.close()
