"""Clicks first: the publisher's queued writes wait for the clicks already being answered.

A click's answer is its interaction's response; Discord gives it 3 s, and a player waits on
it. The table's and the other players' edits can wait: they show the latest state whenever
they go, and a job that waits in the outbox is replaced by a newer one for the same message
(``cogs.outbox``), so a burst of moves becomes fewer edits. Each lane of the outbox asks
:meth:`Answering.first` before it takes its next job: it waits for the clicks that are being
answered at that moment, not for the ones that arrive while it waits (so a steady stream of
clicks never starves the table), and never longer than ``limit`` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator

LIMIT = 0.25  # seconds a lane waits at most, whatever the clicks are waiting for


class Answering:
    """The clicks whose answers are on their way."""

    def __init__(self, limit: float = LIMIT) -> None:
        self.limit = limit
        self._open: set[asyncio.Future[None]] = set()

    @property
    def count(self) -> int:
        return len(self._open)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around a click's work up to its answer."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._open.add(done)
        try:
            yield
        finally:
            self._open.discard(done)
            done.set_result(None)

    async def first(self) -> None:
        """Wait until the clicks being answered now have their answers (at most ``limit``)."""
        if self._open:
            await asyncio.wait(list(self._open), timeout=self.limit)
