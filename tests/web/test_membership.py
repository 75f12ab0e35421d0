"""The watches of the live table's sockets (web/membership.py), on an injected clock: a socket is
closed when its session ends unless it was renewed, and when Discord no longer lists its user
in its instance; one call per instance asks for all its sockets; while Discord cannot be asked
the sockets stay, for one session length at most."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, cast

import pytest

from web.discord_api import DiscordApi, DiscordRefused, DiscordUnreachable, Instance
from web.guard import Busy
from web.hub import Viewer
from web.membership import Membership

CHANNEL = 55
ALICE, BOB, CAROL = 1, 2, 3


class Time:
    """A clock that moves only when the next sleeper is woken (``wake``)."""

    def __init__(self) -> None:
        self.now = 1_000_000.0
        self.naps: list[tuple[float, asyncio.Future[None]]] = []  # (wake-up time, sleeper)

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        woken: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.naps.append((self.now + seconds, woken))
        await woken

    def pending(self) -> list[tuple[float, asyncio.Future[None]]]:
        self.naps = [(at, woken) for at, woken in self.naps if not woken.done()]
        return sorted(self.naps, key=lambda nap: nap[0])

    async def nap(self) -> float:
        """Seconds until the next sleeper wakes (after letting the tasks run)."""
        await settle()
        pending = self.pending()
        assert pending, "nobody is sleeping"
        return pending[0][0] - self.now

    async def wake(self) -> None:
        """Move the clock to the next wake-up and wake that sleeper."""
        at, woken = self.pending()[0]
        self.now = at
        woken.set_result(None)
        await settle()


async def settle() -> None:
    """Let the started tasks (sleeps, closes) run."""
    for _ in range(20):
        await asyncio.sleep(0)


class Socket:
    def __init__(self) -> None:
        self.closed = False
        self.code: int | None = None

    async def close(self, *, code: int, message: bytes) -> bool:
        self.closed, self.code = True, code
        return True


class Api:
    """DiscordApi's instance call: who is in each instance, or an exception to raise."""

    def __init__(self) -> None:
        self.users: dict[str, set[int]] = {"a": {ALICE, BOB}, "b": {CAROL}}
        self.fails: Exception | None = None
        self.calls: list[str] = []
        self.forgotten: list[str] = []

    def forget(self, instance_id: str) -> None:
        self.forgotten.append(instance_id)

    async def instance(self, instance_id: str) -> Instance:
        self.calls.append(instance_id)
        if self.fails is not None:
            raise self.fails
        if instance_id not in self.users:
            raise DiscordRefused("GET activity-instances: HTTP 404")
        return Instance(instance_id, CHANNEL, 9, frozenset(self.users[instance_id]))


def viewer(user: int, instance: str, expires: float) -> Viewer:
    ws = cast(Any, Socket())
    return Viewer(ws, user, f"user{user}", CHANNEL, 9, "en", instance, int(expires))


def code(v: Viewer) -> int | None:
    return cast(Socket, v.ws).code


def watch(api: Api, time: Time, trust: float = 900, every: float = 20) -> Membership:
    return Membership(
        cast(DiscordApi, api), trust_seconds=trust, every=every, clock=time, sleep=time.sleep
    )


async def test_a_socket_is_closed_when_its_session_ends_unless_renewed() -> None:
    time, api = Time(), Api()
    membership = watch(api, time, every=10_000)  # no re-check in the way
    alice = viewer(ALICE, "a", time.now + 60)
    membership.watch(alice)
    assert await time.nap() == 60
    alice.expires += 300  # renewed while it slept
    await time.wake()
    assert code(alice) is None
    assert await time.nap() == 300  # the renewed session's remainder
    await time.wake()
    assert code(alice) == 4001 and membership.watched() == 0
    await membership.close()


async def test_a_session_already_over_is_closed_at_once() -> None:
    time, api = Time(), Api()
    membership = watch(api, time)
    late = viewer(ALICE, "a", time.now)
    membership.watch(late)
    await settle()
    assert code(late) == 4001
    await membership.close()


async def test_a_user_gone_from_the_instance_is_closed_and_the_others_stay() -> None:
    time, api = Time(), Api()
    membership = watch(api, time)
    sockets = [viewer(ALICE, "a", time.now + 900) for _ in range(3)]
    bob, carol = viewer(BOB, "a", time.now + 900), viewer(CAROL, "b", time.now + 900)
    for v in (*sockets, bob, carol):
        membership.watch(v)
    api.users["a"].discard(BOB)
    await membership.check("a")
    await settle()
    assert api.calls == ["a"] and api.forgotten == ["a"]  # one fresh call for its 4 sockets
    assert code(bob) == 4003 and all(code(v) is None for v in (*sockets, carol))
    del api.users["b"]  # the activity ended
    await membership.check("b")
    await settle()
    assert code(carol) == 4003
    assert membership.watched() == 3
    await membership.close()


async def test_each_instance_is_asked_again_within_the_period() -> None:
    time, api = Time(), Api()
    membership = watch(api, time)
    bob = viewer(BOB, "a", time.now + 10_000)
    membership.watch(bob)
    for _ in range(3):
        assert 16 <= await time.nap() <= 20
        await time.wake()
    assert api.calls == ["a", "a", "a"]
    api.users["a"].discard(BOB)
    await time.nap()
    await time.wake()
    assert code(bob) == 4003
    assert not time.pending()  # the instance's last socket is gone: no more checks
    await membership.close()


async def test_while_discord_cannot_be_asked_the_sockets_stay_for_one_session_at_most() -> None:
    time, api = Time(), Api()
    membership = watch(api, time, trust=900)
    alice, bob = viewer(ALICE, "a", time.now + 10_000), viewer(BOB, "a", time.now + 10_000)
    membership.watch(alice)
    time.now += 500
    membership.watch(bob)  # his hello was answered 500 s after hers
    api.fails = DiscordUnreachable("GET activity-instances: HTTP 429")
    api.users["a"].clear()  # both removed, but Discord cannot say so
    time.now += 399
    await membership.check("a")
    await settle()
    assert code(alice) is None and code(bob) is None
    time.now += 2  # 901 s since alice was last listed
    await membership.check("a")
    await settle()
    assert code(alice) == 4001 and code(bob) is None
    api.fails = None
    api.users["a"].add(BOB)
    await membership.check("a")  # Discord answers again: bob is confirmed afresh
    time.now += 800
    api.fails = DiscordUnreachable("down")
    await membership.check("a")
    await settle()
    assert code(bob) is None
    await membership.close()


async def test_a_re_check_the_guard_holds_back_keeps_the_sockets_and_logs_no_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    time, api = Time(), Api()
    membership = watch(api, time)
    alice = viewer(ALICE, "a", time.now + 10_000)
    membership.watch(alice)
    api.fails = Busy("GET activity-instances: the web edge's ceiling", 0.5, yours=False)
    with caplog.at_level(logging.WARNING, logger="web.membership"):
        await membership.check("a")
        await settle()
    assert code(alice) is None
    assert [r.levelno for r in caplog.records] == [logging.WARNING]
    await membership.close()


async def test_the_re_check_outlives_an_unexpected_answer() -> None:
    time, api = Time(), Api()
    membership = watch(api, time)
    alice = viewer(ALICE, "a", time.now + 10_000)
    membership.watch(alice)
    api.fails = RuntimeError("an answer nobody expected")
    await time.nap()
    await time.wake()
    assert code(alice) is None and await time.nap() <= 20  # logged, and asked again later
    await membership.close()


async def test_a_closed_sockets_watches_stop() -> None:
    time, api = Time(), Api()
    membership = watch(api, time)
    alice = viewer(ALICE, "a", time.now + 900)
    membership.watch(alice)
    await time.nap()
    sleeping = time.pending()
    membership.unwatch(alice)
    await asyncio.sleep(0)
    assert all(woken.cancelled() for _, woken in sleeping)
    assert membership.watched() == 0
    await membership.check("a")
    await settle()
    assert api.calls == []
    await membership.close()
