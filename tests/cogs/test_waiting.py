"""first_done: back when one future is done or the limit passes, leaving the futures be."""

from __future__ import annotations

import asyncio
import time

from discordkit.waiting import first_done


async def test_back_when_the_first_is_done() -> None:
    loop = asyncio.get_running_loop()
    slow, quick = loop.create_future(), loop.create_future()
    loop.call_later(0.02, quick.set_result, "quick")
    started = time.monotonic()
    await asyncio.wait_for(first_done(slow, quick), 1.0)
    assert quick.done() and not slow.done()
    assert time.monotonic() - started < 0.5
    slow.set_result("slow")  # its callback was removed: nothing left to wake


async def test_back_at_the_limit_without_cancelling() -> None:
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    started = time.monotonic()
    await first_done(future, timeout=0.03)
    assert 0.02 < time.monotonic() - started < 0.5
    assert not future.done()  # still the caller's to await
    future.set_result(1)
    assert await future == 1


async def test_done_already_returns_at_once() -> None:
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    future.set_exception(ValueError("failed"))
    await first_done(future, timeout=5)  # a failure counts as done; it is not raised here
    assert isinstance(future.exception(), ValueError)


async def test_a_cancelled_wait_leaves_the_futures_alone() -> None:
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    waiting = asyncio.create_task(first_done(future))
    await asyncio.sleep(0)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    assert waiting.cancelled() and not future.cancelled()
    future.set_result(3)
