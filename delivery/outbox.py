"""Discord writes in lanes: one lane per channel, run in order, coalesced, retried.

A *job* is an idempotent coroutine function that draws something from the latest known state
(the table of a game, a player's hand). Putting a job under a key that is already waiting
replaces it and moves it to the back of its lane, so a burst of moves becomes one edit that
shows the last of them. Lanes run independently: a busy table channel never holds up a
player's DM. A job that fails with a Discord server error (5xx) or a network error is tried
again with backoff; other Discord errors are the job's own to handle (it knows whether to post
a new message instead of editing one). A *quiet* job (tidying up: an old table retired) runs
only when nothing else waits in its lane, so it never takes a slot a move's edit could use.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field

import aiohttp
import discord

log = logging.getLogger(__name__)

# A job returns False when it left its work undone without an error (its game is then not
# settled as shown); anything else is done.
Job = Callable[[], Awaitable[bool | None]]
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0, 15.0)


@dataclass(slots=True)
class _Entry:
    job: Job
    game_id: int | None
    waiters: list[asyncio.Future[bool]] = field(default_factory=list)
    quiet: bool = False


class Outbox:
    """Lanes of keyed jobs. ``settled(game_id, ok)`` is called when a game has nothing left."""

    def __init__(
        self,
        settled: Callable[[int, bool], Awaitable[None]] | None = None,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        before: Callable[[], Awaitable[None]] | None = None,
        drawing: Callable[[bool], None] | None = None,
    ) -> None:
        """``before`` is awaited before each job is taken (``delivery.answering``: clicks first);
        a job put for the same key meanwhile replaces the waiting one. ``drawing`` is told
        True when a job is put into an outbox with nothing to do, False once it has nothing
        left (``delivery.marks``)."""
        self._lanes: dict[Hashable, OrderedDict[Hashable, _Entry]] = {}
        self._workers: dict[Hashable, asyncio.Task[None]] = {}
        self._pending: dict[int, int] = {}  # game id -> jobs waiting or running
        self._failed: set[int] = set()
        self._settled = settled
        self._retry_delays = retry_delays
        self._before = before
        self._drawing = drawing or (lambda _busy: None)
        self._closed = False

    def put(
        self,
        lane: Hashable,
        key: Hashable,
        job: Job,
        *,
        game_id: int | None = None,
        quiet: bool = False,
    ) -> asyncio.Future[bool]:
        """Queue ``job``; the future says whether it (or the job that replaced it) succeeded.
        ``quiet``: run it only when no other job waits in the lane."""
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self._closed:
            future.set_result(False)
            return future
        queue = self._lanes.setdefault(lane, OrderedDict())
        old = queue.pop(key, None)
        entry = _Entry(job, game_id, [*(old.waiters if old else []), future], quiet)
        if old is None and game_id is not None:
            self._pending[game_id] = self._pending.get(game_id, 0) + 1
        queue[key] = entry
        if lane not in self._workers:
            if not self._workers:
                self._drawing(True)
            self._workers[lane] = asyncio.create_task(self._run(lane), name=f"outbox:{lane}")
        return future

    def busy(self, game_id: int) -> bool:
        return self._pending.get(game_id, 0) > 0

    async def idle(self) -> None:
        """Wait until every lane is empty (for shutdown and tests)."""
        while self._workers:
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def close(self, timeout: float) -> None:
        """Refuse new jobs, give the queued ones ``timeout`` seconds, then drop the rest."""
        self._closed = True
        try:
            await asyncio.wait_for(self.idle(), timeout)
        except TimeoutError:
            log.info("closing with %d lanes still queued", len(self._workers))
            for task in list(self._workers.values()):
                task.cancel()
            await asyncio.gather(*list(self._workers.values()), return_exceptions=True)

    async def _run(self, lane: Hashable) -> None:
        queue = self._lanes[lane]
        try:
            while queue:
                if self._before is not None:
                    await self._before()
                key = next((k for k, e in queue.items() if not e.quiet), next(iter(queue)))
                entry = queue.pop(key)
                ok = await self._attempt(lane, key, entry.job)
                for waiter in entry.waiters:
                    if not waiter.done():
                        waiter.set_result(ok)
                if entry.game_id is not None:
                    await self._done(entry.game_id, ok)
        finally:
            del self._workers[lane]
            if not queue:
                del self._lanes[lane]
            if not self._workers:
                self._drawing(False)

    async def _attempt(self, lane: Hashable, key: Hashable, job: Job) -> bool:
        for delay in (*self._retry_delays, None):
            try:
                return await job() is not False
            except (discord.DiscordServerError, aiohttp.ClientError, TimeoutError) as exc:
                if delay is None:
                    log.warning("gave up on %s in lane %s: %s", key, lane, exc)
                    return False
                log.info("retrying %s in lane %s in %.1f s: %s", key, lane, delay, exc)
                await asyncio.sleep(delay)
            except discord.HTTPException as exc:
                log.warning("Discord refused %s in lane %s: %s", key, lane, exc)
                return False
            except Exception:  # a bug in one job must not stop the lane
                log.exception("job %s in lane %s failed", key, lane)
                return False
        return False  # pragma: no cover - the loop always returns

    async def _done(self, game_id: int, ok: bool) -> None:
        if not ok:
            self._failed.add(game_id)
        left = self._pending[game_id] - 1
        if left:
            self._pending[game_id] = left
            return
        del self._pending[game_id]
        all_ok = game_id not in self._failed
        self._failed.discard(game_id)
        if self._settled is not None:
            try:
                await self._settled(game_id, all_ok)
            except Exception:
                log.exception("after publishing game %s", game_id)
