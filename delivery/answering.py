"""Clicks first: the publisher's queued writes wait for the clicks already being answered.

A click's answer is its interaction's response; Discord gives it 3 s, and a player waits on
it. The table's and the other players' edits can wait: they show the latest state whenever
they go, and a job that waits in the outbox is replaced by a newer one for the same message
(``delivery.outbox``), so a burst of moves becomes fewer edits. Each lane of the outbox asks
:meth:`Answering.first` before it takes its next job: it waits for the clicks that are being
answered at that moment, not for the ones that arrive while it waits (so a steady stream of
clicks never starves the table), and never longer than ``limit`` seconds.

Clicks are numbered as they open. A lane waits for every click up to the newest one open
when it asked: it is released once the oldest click still open is younger than that. Lanes
that ask while the same clicks are open share one wait, so a busy bot's dozens of lanes and
dozens of open clicks cost a few steps per click, not a callback per lane and click.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterator

LIMIT = 0.25  # seconds a lane waits at most, whatever the clicks are waiting for


class Answering:
    """The clicks whose answers are on their way."""

    def __init__(self, limit: float = LIMIT) -> None:
        self.limit = limit
        self._opened = 0  # clicks numbered so far: the newest one's number
        self._open: dict[int, None] = {}  # numbers of the clicks open, oldest first
        # (the newest click a wait covers, the wait, its limit), in the order asked for
        self._waits: deque[tuple[int, asyncio.Future[None], asyncio.TimerHandle]] = deque()

    @property
    def count(self) -> int:
        return len(self._open)

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """Around a click's work up to its answer."""
        self._opened += 1
        number = self._opened
        self._open[number] = None
        try:
            yield
        finally:
            del self._open[number]
            self._release()

    def _release(self) -> None:
        oldest = next(iter(self._open), self._opened + 1)
        waits = self._waits
        while waits and waits[0][0] < oldest:
            _newest, wait, limit = waits.popleft()
            limit.cancel()
            _wake(wait)

    async def first(self) -> None:
        """Wait until the clicks being answered now have their answers (at most ``limit``)."""
        if not self._open:
            return
        waits = self._waits
        if waits and waits[-1][0] == self._opened and not waits[-1][1].done():
            wait = waits[-1][1]  # the same clicks are open: share that wait (and its limit)
        else:
            loop = asyncio.get_running_loop()
            wait = loop.create_future()
            waits.append((self._opened, wait, loop.call_later(self.limit, _wake, wait)))
        await asyncio.shield(wait)  # a lane cancelled while it waits leaves the others waiting


def _wake(wait: asyncio.Future[None]) -> None:
    if not wait.done():
        wait.set_result(None)
