"""A cog's background job, run every so many seconds for as long as the cog is loaded."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable

from aio.tasks import cancel_and_wait

log = logging.getLogger(__name__)


class Every:
    """Runs ``job(now)`` at once, then ``seconds`` after each round ends. A round that fails is
    logged and the next one comes all the same. :meth:`start` it in ``cog_load`` and
    :meth:`stop` it in ``cog_unload``."""

    def __init__(
        self, seconds: float, job: Callable[[float], Awaitable[object]], *, name: str
    ) -> None:
        self.seconds = seconds
        self.name = name
        self._job = job
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._rounds(), name=self.name)

    async def stop(self) -> None:
        if self._task is not None:
            await cancel_and_wait(self._task)

    async def _rounds(self) -> None:
        while True:
            try:
                await self._job(time.time())
            except Exception:  # one bad round must not end the job
                log.exception("%s failed", self.name)
            await asyncio.sleep(self.seconds)
