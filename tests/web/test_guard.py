"""The web edge's guard (web/guard.py, web/limits.py) on a manual clock: a client's own
limits, the ceilings, Discord's headers, the breaker, open sockets."""

from __future__ import annotations

import logging

import pytest

from tests.clock import Clock
from web.guard import Busy, Door, Guard, Limits, Per
from web.limits import Bucket, Buckets, Rate, Sockets, address_key


class SleepingClock(Clock):
    """A manual clock; its ``sleep`` moves it on instead of waiting."""

    def __init__(self) -> None:
        super().__init__(1000.0)
        self.slept: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def guard_on(clock: SleepingClock, **changes: object) -> Guard:
    return Guard(Limits(**changes), clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]


def test_a_bucket_gives_its_burst_then_one_per_period() -> None:
    bucket = Bucket(Rate(3, 2.0), now=0.0)
    assert [bucket.take(0.0) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert bucket.take(0.0) == pytest.approx(2.0)
    assert bucket.take(1.0) == pytest.approx(1.0)  # half a token back: half the wait left
    assert bucket.take(2.0) == 0.0
    assert bucket.take(100.0) == 0.0 and bucket.tokens == pytest.approx(2.0)  # never past burst


def test_buckets_are_per_key_and_bounded() -> None:
    buckets = Buckets(Rate(1, 10.0), max_keys=4)
    assert buckets.take("a", 0.0) == 0.0
    assert buckets.take("a", 0.0) > 0
    assert buckets.take("b", 0.0) == 0.0  # another key: its own bucket
    for key in "cdefgh":
        buckets.take(key, 0.0)
    assert len(buckets) <= 4


def test_a_clients_limit_is_answered_with_its_wait() -> None:
    clock = SleepingClock()
    guard = guard_on(clock)
    for _ in range(20):
        guard.check(Per.SIGN_IN_ADDRESS, "203.0.113.7")
    with pytest.raises(Busy) as refused:
        guard.check(Per.SIGN_IN_ADDRESS, "203.0.113.7")
    assert refused.value.yours and refused.value.seconds == 2
    guard.check(Per.SIGN_IN_ADDRESS, "203.0.113.8")  # another address is not held back
    clock.now += 2.0
    guard.check(Per.SIGN_IN_ADDRESS, "203.0.113.7")
    assert guard.counts["refused: sign-ins per address"] == 1


async def test_the_ceiling_waits_a_short_wait_and_refuses_a_long_one() -> None:
    clock = SleepingClock()
    guard = guard_on(clock, ceilings={Door.INSTANCE: Rate(2, 0.5)})
    await guard.admit(Door.INSTANCE)
    await guard.admit(Door.INSTANCE)
    await guard.admit(Door.INSTANCE)  # waited 0.5 s for the next token
    assert clock.slept == [pytest.approx(0.5)]
    slow = guard_on(clock, ceilings={Door.INSTANCE: Rate(1, 5.0)})
    await slow.admit(Door.INSTANCE)
    with pytest.raises(Busy) as refused:
        await slow.admit(Door.INSTANCE)
    assert not refused.value.yours and refused.value.seconds == 5
    assert slow.counts["called: GET activity-instances"] == 1


async def test_no_more_than_most_waiting_wait_at_one_door() -> None:
    clock = SleepingClock()
    guard = guard_on(clock, most_waiting=0, ceilings={Door.TOKEN: Rate(1, 0.5)})
    await guard.admit(Door.TOKEN)
    with pytest.raises(Busy):
        await guard.admit(Door.TOKEN)  # a short wait, but nobody may wait


async def test_discords_headers_hold_the_door() -> None:
    clock = SleepingClock()
    guard = guard_on(clock)
    headers = {"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "30.5"}
    assert guard.answered(Door.TOKEN, 200, headers) is None
    with pytest.raises(Busy) as refused:
        await guard.admit(Door.TOKEN)  # the bucket is empty for 30.5 s: not waited
    assert refused.value.seconds == 31
    await guard.admit(Door.INSTANCE)  # another door is open
    clock.now += 30.5
    await guard.admit(Door.TOKEN)
    # /users/@me: each call is another user's token, whose own bucket says nothing of the next
    guard.answered(Door.USER, 200, headers)
    await guard.admit(Door.USER)


async def test_a_429_is_waited_out_when_short_and_refused_when_long() -> None:
    clock = SleepingClock()
    guard = guard_on(clock)
    assert guard.answered(Door.INSTANCE, 429, {"Retry-After": "1"}) == 1.0
    await guard.admit(Door.INSTANCE)
    assert clock.slept == [pytest.approx(1.0)]
    assert guard.answered(Door.INSTANCE, 429, {"Retry-After": "65"}) == 65.0
    with pytest.raises(Busy) as refused:
        await guard.admit(Door.INSTANCE)
    assert refused.value.seconds == 65 and "asked us to wait" in refused.value.reason
    # Cloudflare's ban answers without Retry-After: held a minute
    assert guard.answered(Door.TOKEN, 429, {}) == 60.0


async def test_the_breaker_opens_on_invalid_answers_and_closes_as_they_age() -> None:
    clock = SleepingClock()
    guard = guard_on(clock, invalid_ceiling=3, invalid_window=600.0)
    guard.answered(Door.TOKEN, 401, {})
    guard.answered(Door.INSTANCE, 403, {})
    guard.answered(Door.TOKEN, 429, {"Retry-After": "0", "X-RateLimit-Scope": "shared"})
    guard.answered(Door.TOKEN, 400, {})  # a refused code is no invalid request
    guard.answered(Door.INSTANCE, 404, {})
    await guard.admit(Door.USER)
    clock.now += 100.0
    guard.answered(Door.USER, 401, {})  # the third
    assert guard.counts["invalid answers"] == 3
    for door in Door:
        with pytest.raises(Busy) as refused:
            await guard.admit(door)
        assert "invalid" in refused.value.reason
    assert refused.value.retry_after == pytest.approx(500.0)  # the oldest ages out then
    clock.now += 500.0
    await guard.admit(Door.TOKEN)


async def test_the_shared_budget_is_asked_for_the_bot_tokens_door() -> None:
    clock = SleepingClock()
    asked: list[tuple[str, int, float]] = []

    async def shared(key: str, limit: int, period: float) -> float:
        asked.append((key, limit, period))
        return 30.0 if len(asked) > 1 else 0.0

    guard = Guard(clock=clock, sleep=clock.sleep, shared=shared)
    await guard.admit(Door.INSTANCE)
    await guard.admit(Door.TOKEN)  # our address's budget, not the token's: not shared
    with pytest.raises(Busy):
        await guard.admit(Door.INSTANCE)
    key, limit, period = asked[0]
    assert (key, limit) == ("web-instances", 5) and period == pytest.approx(1.0)
    assert len(asked) == 2


def test_sockets_per_address_and_per_user() -> None:
    sockets = Sockets(per_address=3, per_user=2)
    tickets = [sockets.open("198.51.100.1") for _ in range(3)]
    assert sockets.open("198.51.100.1") is None
    assert sockets.open("198.51.100.2") is not None
    first, second, third = (t for t in tickets if t is not None)
    assert first.seat(42) and second.seat(42)
    assert not third.seat(42)
    first.close()
    assert third.seat(42)
    first.close()  # twice: counted back once
    assert sockets.users.held("42") == 2 and sockets.addresses.held("198.51.100.1") == 2
    assert sockets.open("198.51.100.1") is not None


def test_an_ipv6_address_is_counted_by_its_64() -> None:
    assert address_key("2001:db8:1:2:aaaa::1") == address_key("2001:db8:1:2:bbbb::9")
    assert address_key("2001:db8:1:3::1") != address_key("2001:db8:1:2::1")
    assert address_key("192.0.2.1") == "192.0.2.1"
    assert address_key("unknown") == "unknown"


def test_refusals_are_logged_with_the_address_without_flooding_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    clock = SleepingClock()
    guard = guard_on(clock)
    with caplog.at_level(logging.INFO, logger="web.guard"):
        for _ in range(50):
            guard.refused("203.0.113.9", "a sign-in", "too many sign-ins per address")
        clock.now += 11.0
        guard.refused("203.0.113.9", "a sign-in", "too many sign-ins per address")
        guard.refused("203.0.113.10", "a hello", "a bad or expired session")
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 3
    assert all("from 203.0.113." in line for line in lines)
    assert "49 more refusals" in lines[1]
