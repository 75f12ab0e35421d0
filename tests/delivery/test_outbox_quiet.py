"""A quiet job (an old table's retirement) runs only when nothing else waits in its lane."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from delivery.outbox import Outbox


async def test_a_quiet_job_goes_after_every_other_job_of_its_lane() -> None:
    ran: list[str] = []
    gate = asyncio.Event()
    outbox = Outbox()

    def job(name: str, wait: bool = False) -> Callable[[], Awaitable[None]]:
        async def run() -> None:
            if wait:
                await gate.wait()
            ran.append(name)

        return run

    outbox.put("lane", "first", job("first", wait=True))
    await asyncio.sleep(0)  # the lane runs "first" and waits in it
    outbox.put("lane", "retire", job("retire"), quiet=True)
    outbox.put("lane", "table", job("table"))
    outbox.put("other", "dm", job("dm"))
    await asyncio.sleep(0.01)
    assert ran == ["dm"]  # lanes are apart
    gate.set()
    outbox.put("lane", "table", job("table 2"))  # put again: still ahead of the quiet one
    await outbox.idle()
    assert ran == ["dm", "first", "table 2", "retire"]
