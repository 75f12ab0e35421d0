"""Stay inside Discord's rate limits instead of learning them from 429s.

Discord allows about 5 message writes per 5 s in one channel (DM channels too) and 50 requests
per second per bot, interaction responses excepted. discord.py waits out a bucket only after
Discord has told it about the bucket, and it never learns the global limit before a global
429. So every REST call the publisher makes first takes a slot here: one from its channel's
window and one from the bot-wide window. Urgent calls (what a move changed) go before
background ones (redraws after a restart, reconciliation).

The windows are a little stricter than Discord's (clocks and network delays differ), and no
Discord object is needed: they count calls, keyed by anything hashable. A quiet channel gets
Discord's burst: while its window holds fewer than ``CHANNEL_BURST`` calls, a call goes at
once (a click's table edit, a round's summary and its new table together). Past that its
calls are spread out (at most one per ``period / limit`` seconds), so a busy table shows each
move about a second later instead of five edits at once and then a five-second wait. A
channel kept busy holds ``limit - 1`` calls whenever it asks for the next, more than the
burst, so it stays spread out: a burst comes back only after a quiet spell. What waits is
coalesced by the outbox in front (one edit shows every move made meanwhile).

Several processes on one PostgreSQL database share one token's limits: then each call is also
counted in the database's buckets (``shared``, db/budget.py), its channel's and the global one
together in one request, after this process's own windows, so that all of them together stay
inside Discord's limits. If the database cannot answer, the process goes on with its own
windows alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Sequence

CHANNEL_LIMIT = 5
CHANNEL_PERIOD = 5.5  # Discord: 5 per 5 s; the margin absorbs clock and network skew
CHANNEL_BURST = 3  # calls at once while a channel's window holds fewer (then spread)
GLOBAL_LIMIT = 40
GLOBAL_PERIOD = 1.0  # Discord: 50 per s; interaction responses do not count
IDLE_WINDOWS = 512  # channel windows kept once idle; older idle ones are dropped
GLOBAL_KEY = "global"
WARN_EVERY = 60.0  # seconds between two warnings that the shared budget did not answer

log = logging.getLogger(__name__)

# A call's buckets, each (key, limit, period in seconds) -> 0 when every one of them counted
# the call, else the seconds to wait (none counted it).
Shared = Callable[[Sequence[tuple[str, int, float]]], Awaitable[float]]


class Window:
    """At most ``limit`` acquisitions in any ``period`` seconds, served first come first."""

    def __init__(
        self,
        limit: int,
        period: float,
        clock: Callable[[], float] = time.monotonic,
        *,
        spacing: float = 0.0,
        burst: int = 1,
    ) -> None:
        """``spacing``: the least time between two acquisitions once the window holds
        ``burst`` or more of them (0: none; while it holds fewer, they go back to back)."""
        self.limit = limit
        self.period = period
        self.spacing = spacing
        self.burst = burst
        self._clock = clock
        self._times: deque[float] = deque()
        self._lock = asyncio.Lock()

    def _expire(self, now: float) -> None:
        while self._times and now - self._times[0] >= self.period:
            self._times.popleft()

    def wait_time(self) -> float:
        """Seconds until a slot is free (0: free now)."""
        now = self._clock()
        self._expire(now)
        held = len(self._times)
        if held >= self.limit:
            # A slot frees when the oldest call leaves; spacing is checked again then.
            return self.period - (now - self._times[0])
        if held < self.burst:
            return 0.0
        return max(0.0, self.spacing - (now - self._times[-1]))

    def spare(self) -> bool:
        """Whether one more acquisition now would leave the next one free at once."""
        self._expire(self._clock())
        return len(self._times) + 1 < self.burst and not self._lock.locked()

    @property
    def idle(self) -> bool:
        self._expire(self._clock())
        return not self._times and not self._lock.locked()

    async def acquire(self) -> None:
        async with self._lock:
            while (delay := self.wait_time()) > 0:
                await asyncio.sleep(delay)
            self._times.append(self._clock())


class Pacer:
    """The bot's REST budget: one window per channel and one for the whole bot."""

    def __init__(
        self,
        *,
        channel_limit: int = CHANNEL_LIMIT,
        channel_period: float = CHANNEL_PERIOD,
        channel_burst: int = CHANNEL_BURST,
        global_limit: int = GLOBAL_LIMIT,
        global_period: float = GLOBAL_PERIOD,
        scale: float = 1.0,
        shared: Shared | None = None,
    ) -> None:
        """``scale`` shrinks every window (tests against a fake Discord in compressed time);
        ``channel_burst``: calls a quiet channel may make at once (1: always spread out);
        ``shared``: the buckets every process of the bot takes its slots from."""
        self._shared = shared
        self._warned = -WARN_EVERY
        self._global_limit = global_limit
        self._global_period = global_period * scale
        self._channel_limit = channel_limit
        self._channel_period = channel_period * scale
        self._channel_burst = channel_burst
        # Spread evenly too: Discord counts a call when it arrives, and calls granted in a
        # burst (a group of moves saved by one commit) can arrive bunched into one of its
        # windows after a pause of the event loop.
        self._global = Window(
            global_limit, global_period * scale, spacing=global_period * scale / global_limit
        )
        self._channels: dict[Hashable, Window] = {}
        self._urgent_waiting = 0
        self._no_urgent = asyncio.Event()
        self._no_urgent.set()
        self.calls = 0

    def _window(self, channel: Hashable) -> Window:
        window = self._channels.get(channel)
        if window is None:
            if len(self._channels) > IDLE_WINDOWS:
                for key in [k for k, w in self._channels.items() if w.idle]:
                    del self._channels[key]
            window = self._channels[channel] = Window(
                self._channel_limit,
                self._channel_period,
                spacing=self._channel_period / self._channel_limit,
                burst=self._channel_burst,
            )
        return window

    def spare(self, channel: Hashable) -> bool:
        """Whether a call in ``channel`` now would delay none after it: its window is quiet
        enough that the next call still goes at once (for tidying up that can wait)."""
        window = self._channels.get(channel)
        return window is None or window.spare()

    async def slot(self, channel: Hashable | None, *, urgent: bool = True) -> None:
        """Wait for a free slot for one REST call (``channel`` None: a call outside channels)."""
        buckets = [(GLOBAL_KEY, self._global_limit, self._global_period)]
        if channel is not None:
            await self._window(channel).acquire()
            buckets.insert(0, (str(channel), self._channel_limit, self._channel_period))
        if urgent:
            self._urgent_waiting += 1
            self._no_urgent.clear()
            try:
                await self._global.acquire()
            finally:
                self._urgent_waiting -= 1
                if self._urgent_waiting == 0:
                    self._no_urgent.set()
        else:
            while True:
                await self._no_urgent.wait()
                if self._global.wait_time() == 0 and self._urgent_waiting == 0:
                    await self._global.acquire()
                    break
                await asyncio.sleep(min(self._global.wait_time(), 0.05) or 0.01)
        await self._take_shared(buckets)
        self.calls += 1

    async def _take_shared(self, buckets: Sequence[tuple[str, int, float]]) -> None:
        """Wait until the shared ``buckets`` all count the call (nothing to do without
        ``shared``)."""
        while self._shared is not None:
            try:
                wait = await self._shared(buckets)
            except Exception as exc:  # noqa: BLE001 - an injected port: no failure of it stops a call
                now = time.monotonic()
                if now - self._warned > WARN_EVERY:
                    self._warned = now
                    log.warning("the shared REST budget did not answer (%s); pacing alone", exc)
                return
            if wait <= 0:
                return
            await asyncio.sleep(wait)
