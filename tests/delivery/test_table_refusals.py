"""A channel that refused the bot's table is retried when its wait is over."""

from __future__ import annotations

import asyncio
from typing import Any, cast

from delivery.tables import BACKOFF, TableMessages


async def test_the_retry_finds_the_channel_no_longer_blocked() -> None:
    """The wait's timer runs on the event loop's clock, which may be a few milliseconds behind
    ``time.monotonic()``: when it fires, the channel must be open again, or the retry it
    starts finds the table still blocked and nothing tries again until the next repair."""
    retried: list[int] = []
    none = cast(Any, None)
    tables = TableMessages(none, none, none, none, none, none, retry=retried.append)
    assert tables._refuse(7) == BACKOFF[0]
    assert tables.blocked(7)
    timer = tables.refused[7].timer
    assert timer is not None
    timer.cancel()
    tables._wait_over(7)  # the timer fires, however early its clock says it is
    assert retried == [7]
    assert not tables.blocked(7)
    assert tables._refuse(7) == BACKOFF[1]  # a refusal right after still waits longer
    tables._forget(7)
    await asyncio.sleep(0)
