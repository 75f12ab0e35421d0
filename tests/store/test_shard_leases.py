"""Shard leases on PostgreSQL (db/leases.py, runtime/leasing.py): all or none, refused while a live
lease overlaps (any SHARD_COUNT), free once it runs out, kept by renewals, and a holder that
cannot renew stops."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from db import pgadmin
from db.leases import HeldShard, overlaps
from db.postgres import PostgresStore
from runtime.leasing import ShardHeld, ShardLease, refusal

TTL = 1.5  # seconds: leases short enough for a test to watch several run out


@pytest.fixture
async def stores(pg_url: str) -> AsyncIterator[list[PostgresStore]]:
    """Three stores on one emptied database: three processes of the bot."""
    await pgadmin.reset_schema(pg_url)
    opened = [await PostgresStore.connect(pg_url, max_size=2) for _ in range(3)]
    yield opened
    for store in opened:
        await store.close()


async def expire_all(store: PostgresStore) -> None:
    """Every lease runs out now (as if its holder had died a lease ago)."""
    async with store._connection() as conn:
        await conn.execute("UPDATE shard_leases SET expires_at = clock_timestamp()")


async def held(store: PostgresStore) -> list[tuple[int, int, str]]:
    async with store._connection() as conn:
        rows = await conn.fetch("SELECT shard_count, shard_id, holder FROM shard_leases")
    return sorted((r["shard_count"], r["shard_id"], r["holder"]) for r in rows)


async def test_one_shard_one_holder_and_all_or_none(stores: list[PostgresStore]) -> None:
    a, b, c = stores
    assert await a.take_shard_leases(4, [0, 2], "a", 30) is None
    assert await b.take_shard_leases(4, [1], "b", 30) is None  # another shard: no conflict
    refused = await c.take_shard_leases(4, [3, 2], "c", 30)
    assert refused is not None
    assert (refused.shard_count, refused.shard_id, refused.holder) == (4, 2, "a")
    assert refused.overlapping == 2 and 29 < refused.seconds_left <= 30
    # Refused, c took nothing, not even shard 3, which was free.
    assert await held(a) == [(4, 0, "a"), (4, 1, "b"), (4, 2, "a")]
    assert await a.take_shard_leases(4, [0, 2], "a", 30) is None  # its own again: fine


@pytest.mark.parametrize("other_count", [1, 2, 3, 4, 6])
async def test_another_shard_count_is_refused_exactly_where_it_overlaps(
    stores: list[PostgresStore], other_count: int
) -> None:
    """Shard 1 of 4 is held; a start of another SHARD_COUNT is refused on every shard whose
    guilds can be on shard 1 of 4 (i = 1 modulo gcd), and an unsharded bot always."""
    a, b, _ = stores
    assert await a.take_shard_leases(4, [1], "a", 30) is None
    refused_on = []
    for shard in range(other_count):
        answer = await b.take_shard_leases(other_count, [shard], "b", 30)
        if answer is not None:
            assert (answer.shard_count, answer.shard_id, answer.holder) == (4, 1, "a")
            refused_on.append(shard)
        else:
            await b.release_shard_leases("b")
    assert refused_on == [s for s in range(other_count) if overlaps(4, 1, other_count, s)]
    expected = {1: [0], 2: [1], 3: [0, 1, 2], 4: [1], 6: [1, 3, 5]}
    assert refused_on == expected[other_count]


async def left(store: PostgresStore) -> list[float]:
    """Each lease's seconds left on the database's clock."""
    async with store._connection() as conn:
        rows = await conn.fetch(
            "SELECT EXTRACT(EPOCH FROM expires_at - clock_timestamp())::float8 AS s"
            " FROM shard_leases ORDER BY shard_id"
        )
    return [r["s"] for r in rows]


async def test_a_lease_is_free_once_it_runs_out_and_kept_while_renewed(
    stores: list[PostgresStore],
) -> None:
    """The clock is moved in the database, not waited for: a busy machine's late wake-ups
    cannot change what this test sees (the tests below watch real leases run out)."""
    a, b, _ = stores
    assert await a.take_shard_leases(2, [0, 1], "a", 30) is None
    async with a._connection() as conn:  # near the end of its first lease
        await conn.execute("UPDATE shard_leases SET expires_at = clock_timestamp() + '5 s'")
    assert await a.renew_shard_leases("a", 30) == 2
    assert all(25 < s <= 30 for s in await left(a))  # renewed from now, not from the old end
    assert await b.take_shard_leases(2, [1], "b", 30) is not None
    await expire_all(a)  # the renewed lease ran out too
    assert await b.take_shard_leases(2, [1], "b", 30) is None  # a's ran out: taken over
    assert await a.renew_shard_leases("a", 30) == 0  # too late: a's lease is gone
    assert await held(a) == [(2, 1, "b")]  # the expired ones were cleared on the way


async def test_a_released_lease_is_free_at_once(stores: list[PostgresStore]) -> None:
    a, b, _ = stores
    assert await a.take_shard_leases(1, [0], "a", 30) is None
    assert await b.take_shard_leases(1, [0], "b", 30) is not None
    await a.release_shard_leases("a")
    assert await b.take_shard_leases(1, [0], "b", 30) is None


def test_the_refusal_names_the_shard_and_its_holder() -> None:
    now = datetime.now(UTC)
    same = refusal(HeldShard(2, 1, "host:42:ab", now, 3.0, 1), 2)
    assert same.startswith("Shard 1 of 2 is held by a live process (host:42:ab)")
    other = refusal(HeldShard(3, 2, "host:42:ab", now, 3.0, 1), 2)
    assert "Shard 1 of 2 overlaps shard 2 of 3" in other and "host:42:ab" in other


async def test_a_start_beside_a_live_holder_is_refused_within_a_renewal(
    stores: list[PostgresStore],
) -> None:
    a, b, _ = stores
    alive = ShardLease(a, 2, [0], on_lost=lambda: None, ttl=TTL, holder="a")
    await alive.take()
    alive.start()
    try:
        started = time.monotonic()
        with pytest.raises(ShardHeld, match=r"^Shard 0 of 2 is held by a live process \(a\)"):
            await ShardLease(b, 2, [0, 1], on_lost=lambda: None, ttl=TTL, holder="b").take()
        # Refused once a's renewal was seen (every TTL/3), not after a whole lease.
        assert time.monotonic() - started < TTL * 0.9
        assert alive.lost is None
    finally:
        await alive.release()
    assert await held(a) == []


async def test_a_start_after_a_dead_holder_takes_over_when_its_lease_runs_out(
    stores: list[PostgresStore],
) -> None:
    a, b, _ = stores
    dead = ShardLease(a, 2, [1], on_lost=lambda: None, ttl=TTL, holder="dead")
    await dead.take()  # taken, never renewed: its process was SIGKILLed
    started = time.monotonic()
    await ShardLease(b, 2, [1], on_lost=lambda: None, ttl=TTL, holder="next").take()
    assert time.monotonic() - started < TTL + 1.0
    assert await held(a) == [(2, 1, "next")]


async def test_a_holder_whose_lease_was_taken_over_stops(stores: list[PostgresStore]) -> None:
    a, b, _ = stores
    stopped = asyncio.Event()
    lease = ShardLease(a, 2, [0], on_lost=stopped.set, ttl=TTL, holder="a")
    await lease.take()
    lease.start()
    try:
        await expire_all(a)  # as if a had stalled for a lease: b may take it now
        assert await b.take_shard_leases(2, [0], "b", 30) is None
        await asyncio.wait_for(stopped.wait(), TTL)
        assert lease.lost is not None and "is gone" in lease.lost
    finally:
        await lease.release()
    assert await held(b) == [(2, 0, "b")]  # a's release left b's lease alone


async def test_a_holder_that_loses_the_database_stops_before_its_lease_runs_out(
    pg_url: str, stores: list[PostgresStore]
) -> None:
    _, b, _ = stores
    ttl = 2 * TTL  # it gives up ttl/6 before the end: room for a busy machine's wake-ups
    own = await PostgresStore.connect(pg_url, max_size=1)
    stopped = asyncio.Event()
    lease = ShardLease(own, 2, [0], on_lost=stopped.set, ttl=ttl, holder="a")
    await lease.take()
    taken = time.monotonic()
    lease.start()
    await own.close()  # every renewal fails from now on
    try:
        await asyncio.wait_for(stopped.wait(), ttl * 2)
        assert time.monotonic() - taken < ttl  # before the lease runs out in the database
        assert lease.lost is not None and lease.lost.startswith("Could not renew")
        assert await b.take_shard_leases(2, [0], "b", 30) is not None  # still a's, until then
        await asyncio.sleep(max(0.0, taken + ttl - time.monotonic()))
        assert await b.take_shard_leases(2, [0], "b", 30) is None
    finally:
        await lease.release()  # logged only: the database is gone for this store
