"""This process's open pages of the live table, told to the store (db/presence.py) so that
delivery in any process leaves those players' DM hands alone while their page shows them.

A person's first socket watching a channel writes their row; the rows of every open socket are
renewed every ``RENEW_SECONDS`` (each lasts a minute and a half, so a process that stops
without a word leaves rows that run out); their last socket closing, with no new one within a
few seconds (a reload), deletes it and brings their DM hand up to date
(:meth:`delivery.publisher.Publisher.page_closed`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import KW_ONLY, dataclass, field

from delivery.publisher import Publisher
from service.games import GameService
from service.showing import RENEW_SECONDS

log = logging.getLogger(__name__)

Key = tuple[int, int]  # (user id, channel id)
# A page reloaded or reconnecting opens a new socket within this: its player's DM is not
# brought up to date in between.
CLOSE_GRACE_SECONDS = 5.0


@dataclass(eq=False)
class OpenPages:
    service: GameService
    publisher: Publisher
    _: KW_ONLY
    wall: Callable[[], float] = time.time
    _open: Counter[Key] = field(default_factory=Counter, init=False)
    _closing: dict[Key, asyncio.Task[None]] = field(default_factory=dict, init=False)
    _renewing: asyncio.Task[None] | None = field(default=None, init=False)

    def start(self) -> None:
        if self._renewing is None:
            self._renewing = asyncio.get_running_loop().create_task(self._renew())

    async def stop(self) -> None:
        """Stop renewing and say that this process's pages are gone (a clean stop)."""
        tasks = [t for t in (self._renewing, *self._closing.values()) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._renewing = None
        for user_id, channel_id in {*self._open, *self._closing}:
            with contextlib.suppress(Exception):
                await self.service.showing.page_closed(user_id, channel_id)
        self._open.clear()
        self._closing.clear()

    async def opened(self, user_id: int, channel_id: int) -> None:
        key = (user_id, channel_id)
        self._open[key] += 1
        back = self._closing.pop(key, None)
        if back is not None:
            back.cancel()  # the page came back (a reload, a reconnection): nothing closed
        if self._open[key] == 1:
            try:
                await self.service.showing.page_open([key], self.wall())
            except Exception:  # the hand's DM keeps being drawn: nothing is lost
                log.exception("could not record an open page of user %s", user_id)

    async def closed(self, user_id: int, channel_id: int) -> None:
        """One socket of the user in the channel closed; their last one, once no new one came
        for ``CLOSE_GRACE_SECONDS``, ends their page there."""
        key = (user_id, channel_id)
        self._open[key] -= 1
        if self._open[key] > 0:
            return
        del self._open[key]
        self._closing[key] = asyncio.get_running_loop().create_task(self._close_later(key))

    async def _close_later(self, key: Key) -> None:
        await asyncio.sleep(CLOSE_GRACE_SECONDS)
        self._closing.pop(key, None)
        user_id, channel_id = key
        try:
            await self.service.showing.page_closed(user_id, channel_id)
            await self.publisher.page_closed(channel_id, user_id)
        except Exception:  # its row runs out; the next move draws the hand
            log.exception("could not record a closed page of user %s", user_id)

    async def _renew(self) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            if not self._open:
                continue
            try:
                await self.service.showing.page_open(list(self._open), self.wall())
            except Exception:
                log.exception("could not renew the open pages")
