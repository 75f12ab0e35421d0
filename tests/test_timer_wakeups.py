"""The turn-timer loop sleeps through moves that set later deadlines (no database query for
them) and wakes for one that may fall due before its planned wake-up."""

from __future__ import annotations

import asyncio
import time
from typing import Any, cast

from cogs import Playing
from cogs.upkeep import UpkeepCog


class _Service:
    def __init__(self) -> None:
        self.timers_changed = asyncio.Event()
        self.soonest_new_deadline: float | None = None


async def test_only_a_sooner_deadline_cuts_the_sleep_short() -> None:
    service = _Service()
    cog = UpkeepCog(Playing(cast(Any, None), cast(Any, service), cast(Any, None), cast(Any, None)))
    wake_at = time.time() + 2.0
    sleeping = asyncio.create_task(cog._sleep_until(wake_at))
    await asyncio.sleep(0.05)
    for deadline in (wake_at + 300, None, wake_at + 1):  # later timers, or one cleared
        service.soonest_new_deadline = deadline
        service.timers_changed.set()
        await asyncio.sleep(0.05)
        assert not sleeping.done()
        assert not service.timers_changed.is_set()  # taken note of, and slept on
    service.soonest_new_deadline = wake_at - 1.5
    service.timers_changed.set()
    await asyncio.wait_for(sleeping, 0.5)
    assert time.time() < wake_at - 1.0


async def test_the_sleep_ends_at_the_planned_wake_up() -> None:
    service = _Service()
    cog = UpkeepCog(Playing(cast(Any, None), cast(Any, service), cast(Any, None), cast(Any, None)))
    started = time.monotonic()
    await cog._sleep_until(time.time() + 0.2)
    assert 0.15 < time.monotonic() - started < 1.0
