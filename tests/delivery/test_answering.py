"""Clicks first: the outbox's lanes wait for the clicks being answered, then take the newest
job of each key; a click that comes while a lane waits does not hold it longer."""

from __future__ import annotations

import asyncio

from delivery.answering import Answering
from delivery.outbox import Job, Outbox


async def _click(answering: Answering, name: str, seconds: float, done: list[str]) -> None:
    """A click whose answer takes ``seconds``; its name is written down once answered."""
    with answering.answering():
        await asyncio.sleep(seconds)
        done.append(name)


async def _held(answering: Answering, until: asyncio.Event) -> None:
    """A click whose answer waits until ``until`` is set."""
    with answering.answering():
        await until.wait()


async def test_nothing_to_wait_for() -> None:
    answering = Answering()
    await asyncio.wait_for(answering.first(), 0.05)
    assert answering.count == 0


async def test_waits_for_the_clicks_being_answered() -> None:
    answering = Answering(limit=5)
    order: list[str] = []
    clicks = [
        asyncio.create_task(_click(answering, n, s, order)) for n, s in (("a", 0.02), ("b", 0.04))
    ]
    await asyncio.sleep(0)
    assert answering.count == 2
    await answering.first()
    order.append("lane")
    assert order == ["a", "b", "lane"]
    await asyncio.gather(*clicks)
    assert answering.count == 0


async def test_a_later_click_does_not_hold_the_lane() -> None:
    answering = Answering(limit=5)
    done: list[str] = []
    first = asyncio.create_task(_click(answering, "first", 0.02, done))
    await asyncio.sleep(0)
    lane = asyncio.create_task(answering.first())
    await asyncio.sleep(0)
    later = asyncio.create_task(_click(answering, "later", 0.5, done))
    await asyncio.wait_for(lane, 0.3)
    assert done == ["first"]
    later.cancel()
    await asyncio.gather(first, later, return_exceptions=True)
    assert answering.count == 0  # a cancelled click leaves nothing open


async def test_never_longer_than_the_limit() -> None:
    answering = Answering(limit=0.02)
    stuck = asyncio.Event()
    task = asyncio.create_task(_held(answering, stuck))
    await asyncio.sleep(0)
    await asyncio.wait_for(answering.first(), 0.5)
    assert answering.count == 1
    stuck.set()
    await task


async def test_the_outbox_waits_and_keeps_the_newest_job() -> None:
    answering = Answering(limit=5)
    outbox = Outbox(before=answering.first)
    ran: list[str] = []
    answered = asyncio.Event()

    def job(name: str) -> Job:
        async def run() -> None:
            ran.append(name)

        return run

    task = asyncio.create_task(_held(answering, answered))
    await asyncio.sleep(0)
    first = outbox.put("table", "draw", job("move 1"), game_id=7)
    await asyncio.sleep(0.02)
    assert ran == [] and outbox.busy(7)  # the lane waits for the answer
    second = outbox.put("table", "draw", job("move 2"), game_id=7)
    answered.set()
    await task
    assert await first and await second
    await outbox.idle()
    assert ran == ["move 2"]  # one edit, showing the newer state
    assert not outbox.busy(7)


async def test_each_lane_waits_for_the_clicks_open_when_it_asked() -> None:
    answering = Answering(limit=5)
    a_done, b_done = asyncio.Event(), asyncio.Event()
    a = asyncio.create_task(_held(answering, a_done))
    await asyncio.sleep(0)
    early = [asyncio.create_task(answering.first()) for _ in range(3)]  # one shared wait
    await asyncio.sleep(0)
    b = asyncio.create_task(_held(answering, b_done))
    await asyncio.sleep(0)
    late = asyncio.create_task(answering.first())
    await asyncio.sleep(0)
    early[0].cancel()  # a lane closed while waiting: the others still wait
    a_done.set()
    await a
    await asyncio.wait_for(asyncio.gather(*early[1:]), 0.5)
    assert early[0].cancelled() and not late.done()  # it also waits for b
    b_done.set()
    await b
    await asyncio.wait_for(late, 0.5)
    assert answering.count == 0


async def test_a_wait_for_an_older_click_is_released_by_it_alone() -> None:
    answering = Answering(limit=5)
    old_done, new_done = asyncio.Event(), asyncio.Event()
    old = asyncio.create_task(_held(answering, old_done))
    await asyncio.sleep(0)
    new = asyncio.create_task(_held(answering, new_done))
    await asyncio.sleep(0)
    lane = asyncio.create_task(answering.first())  # waits for both
    new_done.set()
    await new
    await asyncio.sleep(0.02)
    assert not lane.done()  # the older click is still being answered
    old_done.set()
    await old
    await asyncio.wait_for(lane, 0.5)
