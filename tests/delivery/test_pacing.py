"""The bot's REST budget: never more than the limit in any window; a quiet channel gets its
burst, a busy one its calls spread out (and never five at once, then a five-second wait); the
bot-wide window spreads every call (a burst of grants would reach Discord bunched after a
pause of the event loop)."""

from __future__ import annotations

import asyncio
import itertools
import random
import time

import pytest

from delivery.pacing import CHANNEL_BURST, CHANNEL_LIMIT, CHANNEL_PERIOD, Pacer, Window
from tests.clock import Clock

LIMIT, PERIOD = 4, 0.2
SPACING = CHANNEL_PERIOD / CHANNEL_LIMIT


async def grant(window: Window, clock: Clock, at: float) -> float:
    """Ask for a slot at ``at`` (or now, if later), moving the clock over every wait: the
    time the slot was granted."""
    clock.now = max(clock.now, at)
    while (wait := window.wait_time()) > 0:
        clock.now += max(wait, 1e-9)  # a wait below the float's step would not move it
    await window.acquire()
    return clock.now


def channel_window(clock: Clock, burst: int = CHANNEL_BURST) -> Window:
    """A channel's window as the pacer builds it."""
    return Window(CHANNEL_LIMIT, CHANNEL_PERIOD, clock, spacing=SPACING, burst=burst)


def most_in_a_window(times: list[float], period: float) -> int:
    return max(sum(1 for t in times if start <= t < start + period) for start in times)


async def test_a_quiet_channel_takes_its_burst_at_once_then_spreads() -> None:
    # Real time and Discord's own windows: the click's writes need no wait, and the next
    # call must wait for the spacing (read from the window, so a slow machine cannot shorten it
    # between the grant and the check).
    pacer = Pacer(global_limit=10_000)
    times: list[float] = []

    async def call() -> None:
        await pacer.slot(("ch", 7))
        times.append(time.monotonic())

    await asyncio.gather(*(call() for _ in range(CHANNEL_BURST)))
    assert max(times) - min(times) < SPACING / 2
    waiting = pacer._window(("ch", 7)).wait_time()  # past the burst: spread out again
    assert SPACING / 2 < waiting <= SPACING


@pytest.mark.parametrize("burst", [1, 2, CHANNEL_BURST, CHANNEL_LIMIT])
async def test_no_window_ever_holds_more_than_the_limit(burst: int) -> None:
    rng = random.Random(burst)
    clock = Clock()
    window = channel_window(clock, burst)
    at, times = 0.0, []
    for _ in range(400):
        # bunches, steady streams, pauses of every length around the window's
        at += rng.choice([0.0, 0.0, 0.05, SPACING / 2, SPACING, 2.0, CHANNEL_PERIOD, 9.0])
        times.append(await grant(window, clock, at))
    assert most_in_a_window(times, CHANNEL_PERIOD) <= CHANNEL_LIMIT
    assert most_in_a_window(times, CHANNEL_PERIOD) == CHANNEL_LIMIT  # the demand reached it
    for earlier, later in itertools.pairwise(times):
        assert later >= earlier


async def test_a_busy_channel_is_spread_out_and_never_starved() -> None:
    """Five calls queued at once, then a call always waiting: the burst goes, the window
    fills, and from then on one call every ``period / limit`` seconds (Discord's whole rate),
    never a whole window's wait."""
    clock = Clock()
    window = channel_window(clock)
    times = [await grant(window, clock, 0.0) for _ in range(60)]
    assert times[:CHANNEL_BURST] == [0.0] * CHANNEL_BURST
    settled = [t for t in times if t >= CHANNEL_PERIOD]
    for earlier, later in itertools.pairwise(settled):
        assert later - earlier == pytest.approx(SPACING)
    longest = max(b - a for a, b in itertools.pairwise(times))
    assert longest <= CHANNEL_BURST * SPACING + 1e-9  # the one catch-up after the burst


async def test_without_spreading_a_busy_channel_would_stall() -> None:
    """What the spreading is for: a burst as large as the limit keeps a busy channel in
    five calls at once, then a wait of the whole window, for good."""
    clock = Clock()
    window = channel_window(clock, burst=CHANNEL_LIMIT)
    times = [await grant(window, clock, 0.0) for _ in range(30)]
    gaps = [b - a for a, b in itertools.pairwise(times)]
    assert max(gaps[CHANNEL_LIMIT:]) == pytest.approx(CHANNEL_PERIOD)


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


async def test_each_channel_keeps_its_own_window() -> None:
    pacer = Pacer(channel_limit=2, channel_period=0.2, global_limit=10_000)
    start = time.monotonic()
    done: dict[str, list[float]] = {"a": [], "b": []}

    async def call(channel: str) -> None:
        await pacer.slot(("ch", channel))
        done[channel].append(time.monotonic() - start)

    await asyncio.gather(*(call("a") for _ in range(4)), *(call("b") for _ in range(2)))
    a, b = sorted(done["a"]), sorted(done["b"])
    assert max(b) < 0.15  # not held up behind the other channel's full window
    assert a[1] < 0.15  # two at once: its window holds two
    assert a[2] >= 0.2 * 0.9  # the third waits for the first to leave (timer slack only)


async def test_a_channel_is_spare_only_while_one_more_call_would_delay_none_after_it() -> None:
    """Tidying up (an old table's retirement) waits for this: while a channel is busy, a call
    taken now would push the next move's edit a spacing later."""
    clock = Clock()
    window = Window(CHANNEL_LIMIT, CHANNEL_PERIOD, clock, spacing=SPACING, burst=CHANNEL_BURST)
    assert window.spare()
    for _ in range(CHANNEL_BURST - 1):
        await grant(window, clock, clock.now)
    assert not window.spare()  # one more fills the burst: the call after it would wait
    clock.now += CHANNEL_PERIOD  # the window empties
    assert window.spare()
    pacer = Pacer()
    assert pacer.spare(("ch", 1))  # a channel never used
    for _ in range(CHANNEL_BURST - 1):
        await pacer.slot(("ch", 1))
    assert not pacer.spare(("ch", 1))
    assert pacer.spare(("ch", 2))
