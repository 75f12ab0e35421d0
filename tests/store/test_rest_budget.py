"""The REST budget shared by processes on one PostgreSQL database (db/budget.py): a sliding
window per bucket, and three processes' pacers together inside one limit."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Sequence

import asyncpg
import pytest

from db import pgadmin
from db.budget import MISSING, TAKE_SLOTS, columns
from db.postgres import PostgresStore
from delivery.pacing import Pacer, Shared


@pytest.fixture
async def stores(pg_url: str) -> AsyncIterator[list[PostgresStore]]:
    """Three stores on one emptied database: three processes of the bot."""
    await pgadmin.reset_schema(pg_url)
    opened = [await PostgresStore.connect(pg_url) for _ in range(3)]
    yield opened
    for store in opened:
        await store.close()


async def test_a_bucket_takes_its_limit_then_says_how_long_to_wait(
    stores: list[PostgresStore],
) -> None:
    one, other, _ = stores
    assert [await one.take_rest_slot("ch:1", 3, 1.0) for _ in range(2)] == [0.0, 0.0]
    assert await other.take_rest_slot("ch:1", 3, 1.0) == 0.0  # another process, same bucket
    counted = time.monotonic()  # the database counted the third call before this
    wait = await one.take_rest_slot("ch:1", 3, 1.0)
    assert 0.5 < wait <= 1.0
    assert await other.take_rest_slot("ch:2", 3, 1.0) == 0.0  # buckets are apart
    await asyncio.sleep(counted + 1.0 + 0.02 - time.monotonic())
    # The three calls have left the window: three more, and the fourth waits again.
    assert [await other.take_rest_slot("ch:1", 3, 1.0) for _ in range(3)] == [0.0] * 3
    assert await one.take_rest_slot("ch:1", 3, 1.0) > 0


async def test_three_processes_stay_inside_one_global_and_one_channel_limit(
    stores: list[PostgresStore],
) -> None:
    """Each slot the shared buckets granted is recorded (bucket, when it was asked for, when
    the answer came): all three processes together took at most 40 global slots in any 0.25 s
    and 5 of a channel in any 1.375 s."""
    scale = 0.25  # windows 4x shorter: 40 calls per 0.25 s, 5 per channel per 1.375 s
    granted: dict[str, list[tuple[float, float]]] = {}

    def recording(store: PostgresStore) -> Shared:
        async def take(buckets: Sequence[tuple[str, int, float]]) -> float:
            asked = time.monotonic()
            wait = await store.take_rest_slots(buckets)
            if wait == 0:
                for key, _, _ in buckets:
                    granted.setdefault(key, []).append((asked, time.monotonic()))
            return wait

        return take

    pacers = [Pacer(scale=scale, shared=recording(store)) for store in stores]

    async def calls(pacer: Pacer, count: int) -> None:
        for i in range(count):
            await pacer.slot(("ch", i % 12))

    await asyncio.gather(*(calls(pacer, 40) for pacer in pacers))
    assert sum(p.calls for p in pacers) == 120
    assert len(granted["global"]) == 120

    def most_within(grants: list[tuple[float, float]], span: float) -> int:
        """The most grants surely decided within one window of ``span`` seconds: the
        database decided each between its asking and its answer, so a grant counts for the
        window from its asking when its answer came before the window's end. On a loaded
        machine the answers come late and bunched; this never counts a grant in a window it
        may not have been in, so a real excess still shows."""
        starts = sorted(asked for asked, _ in grants)
        return max(sum(1 for a, done in grants if a >= t and done < t + span) for t in starts)

    assert most_within(granted["global"], 0.25) <= 40
    channels = [k for k in granted if k != "global"]
    assert len(channels) == 12
    for key in channels:
        assert most_within(granted[key], 5.5 * scale) <= 5, key


async def test_a_call_takes_its_channel_and_the_global_slot_together_or_neither(
    stores: list[PostgresStore],
) -> None:
    """One statement counts the call in both buckets; when one of them is full, in neither."""
    one, other, _ = stores
    channel, global_ = ("ch:7", 2, 60.0), ("global", 3, 60.0)
    assert await one.take_rest_slots([channel, global_]) == 0.0
    assert await other.take_rest_slots([channel, global_]) == 0.0
    # The channel is full: the global bucket is not charged for a call that cannot go.
    assert 59.0 < await one.take_rest_slots([channel, global_]) <= 60.0
    assert await other.take_rest_slots([("ch:8", 2, 60.0), global_]) == 0.0  # its 3rd
    # Now the global one is full too: neither is charged, the wait is the later opening.
    assert await one.take_rest_slots([("ch:9", 2, 60.0), global_]) > 59.0
    assert await one.take_rest_slots([("ch:9", 2, 60.0)]) == 0.0  # ch:9 still had both slots
    assert await one.take_rest_slots([("ch:9", 2, 60.0)]) == 0.0
    async with one._connection() as conn:
        rows = await conn.fetch(
            "SELECT key, cardinality(calls) AS n FROM rest_buckets ORDER BY key"
        )
    assert {row["key"]: row["n"] for row in rows} == {
        "ch:7": 2, "ch:8": 1, "ch:9": 2, "global": 3,
    }  # fmt: skip


async def test_two_calls_meeting_on_a_new_channel_never_wait_for_each_other(
    stores: list[PostgresStore], pg_url: str
) -> None:
    """Two first calls on a new channel, the second asked after another connection made the
    channel's row, both waiting for the global row: each is answered once the global row is
    free. A call that made a missing row only after taking the global one would wait for the
    channel's row, held by the second call, which waits for the global one: a deadlock, one
    of them refused."""
    one, two, _ = stores
    buckets = [("ch:new", 100, 60.0), ("global", 1000, 60.0)]
    assert await one.take_rest_slots([("global", 1000, 60.0)]) == 0.0
    holder = await asyncpg.connect(pg_url)
    maker = await asyncpg.connect(pg_url)
    try:
        hold = holder.transaction()
        await hold.start()
        await holder.execute("SELECT 1 FROM rest_buckets WHERE key = 'global' FOR UPDATE")
        first = asyncio.ensure_future(one.take_rest_slots(buckets))
        await asyncio.sleep(0.3)
        made = asyncio.ensure_future(
            maker.execute(
                "INSERT INTO rest_buckets (key, calls) VALUES ('ch:new', '{}') "
                "ON CONFLICT (key) DO NOTHING"
            )
        )
        await asyncio.sleep(0.3)
        second = asyncio.ensure_future(two.take_rest_slots(buckets))
        await asyncio.sleep(0.3)
        assert not first.done() and not second.done()  # both wait for the global row
        await hold.commit()
        assert list(await asyncio.wait_for(asyncio.gather(first, second), timeout=10)) == [0.0, 0.0]
        await made
        calls = await holder.fetchval("SELECT calls FROM rest_buckets WHERE key = 'ch:new'")
    finally:
        await holder.close()
        await maker.close()
    assert len(calls) == 2


async def test_a_budget_that_does_not_answer_leaves_the_process_its_own_pacing() -> None:
    async def broken(_buckets: Sequence[tuple[str, int, float]]) -> float:
        raise OSError("connection refused")

    pacer = Pacer(scale=0.1, shared=broken)
    for _ in range(3):
        await asyncio.wait_for(pacer.slot(("ch", 1)), timeout=5)
    assert pacer.calls == 3


async def test_an_interaction_is_new_once_for_every_process(stores: list[PostgresStore]) -> None:
    """The workers' shared memory of POSTed interactions (db/interactions.py)."""
    one, other, _ = stores
    assert await one.first_interaction("1001")
    assert not await other.first_interaction("1001")  # a replay sent to another worker
    assert not await one.first_interaction("1001")
    assert await other.first_interaction("1002")
    async with one._connection() as conn:  # an id older than the window is forgotten
        await conn.execute(
            "UPDATE seen_interactions SET seen_at = seen_at - interval '1 hour' WHERE id = '1001'"
        )
    assert await other.first_interaction("1003")  # prunes the old row
    async with one._connection() as conn:
        kept = await conn.fetch("SELECT id FROM seen_interactions ORDER BY id")
    assert [row["id"] for row in kept] == ["1002", "1003"]


@pytest.mark.parametrize("several", [False, True])
async def test_a_call_that_waited_for_the_bucket_is_counted_when_granted(
    stores: list[PostgresStore], pg_url: str, several: bool
) -> None:
    """A call that waits for another process's hold on its bucket is counted at the moment it
    is granted, not when it began to wait: counted earlier, its slot would leave the sliding
    window early and let one call more into a window."""
    one, _, _ = stores
    assert await one.take_rest_slot("ch:9", 5, 1.0) == 0.0  # the bucket's row exists
    holder = await asyncpg.connect(pg_url)
    try:
        hold = holder.transaction()
        await hold.start()
        await holder.execute("SELECT 1 FROM rest_buckets WHERE key = 'ch:9' FOR UPDATE")
        waiting = asyncio.ensure_future(
            one.take_rest_slots([("ch:9", 5, 1.0), ("global", 50, 1.0)])
            if several
            else one.take_rest_slot("ch:9", 5, 1.0)
        )
        await asyncio.sleep(0.3)
        assert not waiting.done()  # it waits for the hold
        released = await holder.fetchval("SELECT clock_timestamp()")
        await hold.commit()
        assert await waiting == 0.0
        calls = await holder.fetchval("SELECT calls FROM rest_buckets WHERE key = 'ch:9'")
    finally:
        await holder.close()
    assert len(calls) == 2 and calls[-1] >= released


async def test_a_bucket_without_a_row_is_told_missing_and_the_store_makes_it(
    stores: list[PostgresStore],
) -> None:
    """The function counts nothing where a bucket has no row (it would make it while holding
    another bucket's lock); the store makes the rows, holding nothing, and asks again."""
    one, _, _ = stores
    assert await one.take_rest_slots([("global", 50, 1.0)]) == 0.0
    async with one._connection() as conn:
        answer = await conn.fetchval(TAKE_SLOTS, *columns([("ch:3", 5, 1.0), ("global", 50, 1.0)]))
        assert answer == MISSING
        counted = await conn.fetchval("SELECT calls FROM rest_buckets WHERE key = 'global'")
        assert len(counted) == 1  # the global bucket was not charged
    assert await one.take_rest_slots([("ch:3", 5, 1.0), ("global", 50, 1.0)]) == 0.0
    async with one._connection() as conn:
        rows = await conn.fetch("SELECT key, cardinality(calls) AS n FROM rest_buckets")
    assert {row["key"]: row["n"] for row in rows} == {"ch:3": 1, "global": 2}


async def test_a_bucket_keeps_its_last_calls_and_opens_as_the_oldest_of_them_leaves(
    stores: list[PostgresStore],
) -> None:
    """A bucket's row holds at most its limit of calls, the latest: calls that left the
    window give way to new ones, and the call after a full window waits until the oldest
    call in it leaves."""
    one, _, _ = stores
    async with one._connection() as conn:
        await conn.execute(
            "INSERT INTO rest_buckets (key, calls) VALUES ('ch:5', ARRAY["
            "clock_timestamp() - interval '9 s', clock_timestamp() - interval '8 s', "
            "clock_timestamp() - interval '7 s'])"
        )
    bucket = [("ch:5", 3, 5.0)]
    started = time.monotonic()
    assert [await one.take_rest_slots(bucket) for _ in range(3)] == [0.0] * 3
    wait = await one.take_rest_slots(bucket)
    assert 5.0 - (time.monotonic() - started) - 0.01 < wait <= 5.0
    async with one._connection() as conn:
        calls = await conn.fetchval("SELECT calls FROM rest_buckets WHERE key = 'ch:5'")
        fresh = await conn.fetchval("SELECT clock_timestamp() - interval '5 s'")
    assert len(calls) == 3 and calls == sorted(calls) and min(calls) > fresh


async def test_rows_left_by_the_earlier_function_read_the_same(
    stores: list[PostgresStore],
) -> None:
    """Migration 024 kept only the calls inside a window: such a row, full, still refuses
    until its oldest call leaves, and one with room still grants."""
    one, _, _ = stores
    async with one._connection() as conn:
        await conn.execute(
            "INSERT INTO rest_buckets (key, calls) VALUES "
            "('ch:full', ARRAY[clock_timestamp() - interval '5 s', clock_timestamp()]), "
            "('ch:room', ARRAY[clock_timestamp()])"
        )
    wait = await one.take_rest_slots([("ch:full", 2, 10.0)])
    assert 4.0 < wait <= 5.0
    assert await one.take_rest_slots([("ch:room", 2, 10.0)]) == 0.0
    assert await one.take_rest_slots([("ch:room", 2, 10.0)]) > 9.0
