"""Waiting for the first of a few futures, with a limit, at the cost of one callback each.

``asyncio.wait`` builds sets of the futures, checks each for a coroutine, and returns two new
sets; ``asyncio.wait_for`` wraps a coroutine in a task of its own. A click waits like this
several times on its way to its answer (its language, its move's save, the computers'
replies), so the click's path uses :func:`first_done` instead.
"""

from __future__ import annotations

import asyncio
from typing import Any


async def first_done(*futures: asyncio.Future[Any], timeout: float | None = None) -> None:
    """Return once one of ``futures`` is done or ``timeout`` seconds have passed (None: no
    limit); the futures themselves are left as they are (never cancelled)."""
    if any(future.done() for future in futures):
        return
    loop = asyncio.get_running_loop()
    waiter: asyncio.Future[None] = loop.create_future()

    def wake(_: object = None) -> None:
        if not waiter.done():
            waiter.set_result(None)

    for future in futures:
        future.add_done_callback(wake)
    timer = None if timeout is None else loop.call_later(timeout, wake)
    try:
        await waiter
    finally:
        if timer is not None:
            timer.cancel()
        for future in futures:
            future.remove_done_callback(wake)
