"""Who draws the pictures: :class:`Painter` is what the delivery layer asks.

Drawing a hand or a table is Python and Pillow (about 2 ms once its parts are kept, 10-40 ms
until then); in a thread of the bot's process it holds the interpreter lock the event loop needs,
so the bot draws in a child process of its own (:class:`workers.drawing.DrawingProcess`).
:class:`InThread` draws in a worker thread instead, for tests, tools and a bot without
processes. Each picture is drawn in the language current where :meth:`Painter.draw` was
called.

A picture that cannot be drawn raises :class:`PictureFailed`; callers send their message
without it (see delivery.attachments).
"""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from presentation.drawing.api import Pictures


class PictureFailed(Exception):
    """The picture could not be drawn; the message goes out without it."""


class Painter(Protocol):
    async def draw(
        self, method: str, *args: Any, urgent: bool = False, **kwargs: Any
    ) -> bytes | None:
        """PNG bytes from ``Pictures.<method>(*args, **kwargs)``; raises PictureFailed.
        ``urgent``: a person waits for it (a click's answer); it goes before the others."""
        ...

    async def close(self) -> None: ...


class InThread:
    """Draws in a worker thread of this process (tests, tools, a bot without processes)."""

    def __init__(self, pictures: Pictures | None = None) -> None:
        self.pictures = pictures or Pictures()

    async def draw(
        self, method: str, *args: Any, urgent: bool = False, **kwargs: Any
    ) -> bytes | None:
        """As :meth:`Painter.draw`; each picture in a thread of its own, so none waits for
        another and ``urgent`` changes nothing."""
        draw = getattr(self.pictures, method)
        try:  # the thread runs in a copy of this context: the current language too
            png: bytes | None = await asyncio.to_thread(draw, *args, **kwargs)
        except Exception as exc:
            raise PictureFailed(f"{type(exc).__name__}: {exc}") from exc
        return png

    async def close(self) -> None:
        return None
