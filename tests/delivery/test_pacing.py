"""The bot's REST budget: never more than the limit in any window, and calls spread out (a
burst of grants would reach Discord bunched after a pause of the event loop)."""

from __future__ import annotations

import asyncio
import itertools
import time

from delivery.pacing import Pacer

LIMIT, PERIOD = 4, 0.2


async def test_the_bot_wide_window_spreads_a_burst_and_keeps_its_limit() -> None:
    pacer = Pacer(global_limit=LIMIT, global_period=PERIOD)
    times: list[float] = []

    async def call(urgent: bool) -> None:
        await pacer.slot(None, urgent=urgent)
        times.append(time.monotonic())

    await asyncio.gather(*(call(urgent=n % 2 == 0) for n in range(3 * LIMIT)))
    times.sort()
    assert len(times) == 3 * LIMIT and pacer.calls == 3 * LIMIT
    spacing = PERIOD / LIMIT
    for earlier, later in itertools.pairwise(times):
        assert later - earlier >= spacing * 0.9  # timer slack only
    for start in times:
        assert sum(1 for t in times if start <= t < start + PERIOD) <= LIMIT


async def test_a_channel_keeps_its_own_window() -> None:
    pacer = Pacer(channel_limit=2, channel_period=0.2, global_limit=100, global_period=0.2)
    times: list[float] = []

    async def call() -> None:
        await pacer.slot(("ch", 1))
        times.append(time.monotonic())

    await asyncio.gather(*(call() for _ in range(4)))
    times.sort()
    for start in times:
        assert sum(1 for t in times if start <= t < start + 0.2) <= 2
