"""The PostgreSQL store's own pool (db/pool.py), on real connections to the test server: it
hands back what it was given, never opens more than it may, loses no place to a caller that
gave up or a connection that failed, and never hands out a connection in an unknown state."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import asyncpg
import pytest

from db.pool import IDLE_SECONDS, LIFETIME_SECONDS, Connection, Pool, PoolClosed
from db.postgres import PostgresStore
from tests.clock import Clock


@pytest.fixture
async def connect(pg_url: str) -> AsyncIterator[Callable[..., Pool]]:
    """Pools on the session's database; each is closed after the test."""
    made: list[Pool] = []

    def make(max_size: int = 2, clock: Clock | None = None) -> Pool:
        async def connect() -> Connection:
            return await asyncpg.connect(pg_url)

        pool = Pool(connect, max_size=max_size, clock=clock or Clock(1000.0))
        made.append(pool)
        return pool

    yield make
    for pool in made:
        await pool.close()


async def waiting(pool: Pool) -> asyncio.Task[Connection]:
    """A caller queued for a connection (checked: it is still waiting)."""
    task = asyncio.ensure_future(pool.acquire())
    await asyncio.sleep(0.05)
    assert not task.done()
    return task


async def closed_soon(*conns: Connection) -> bool:
    """Whether the connections are closed within 2 s (a pool closes them in the background)."""
    for _ in range(100):
        if all(conn.is_closed() for conn in conns):
            return True
        await asyncio.sleep(0.02)
    return False


async def test_a_connection_given_back_goes_to_the_next_caller_and_no_more_are_opened(
    connect: Callable[..., Pool],
) -> None:
    pool = connect(max_size=2)
    first, second = await pool.acquire(), await pool.acquire()
    assert first is not second
    third = await waiting(pool)
    pool.release(second)
    assert await third is second  # handed over as it came back, no new connection
    assert pool.size == 2
    pool.release(first)
    assert await pool.acquire() is first  # the idle one, not a new one
    assert await first.fetchval("SELECT 1") == 1


async def test_a_connection_in_a_transaction_or_discarded_is_closed_and_replaced(
    connect: Callable[..., Pool],
) -> None:
    pool = connect(max_size=1)
    conn = await pool.acquire()
    await conn.execute("BEGIN")
    queued = await waiting(pool)
    pool.release(conn)  # left inside its transaction
    assert conn.is_closed()
    fresh = await queued  # the place came free: a new connection was opened for it
    assert fresh is not conn
    assert not fresh.is_in_transaction()
    assert await fresh.fetchval("SELECT 1") == 1
    pool.release(fresh, discard=True)
    assert fresh.is_closed()
    assert (pool.size, pool.idle) == (0, 0)
    assert await (await pool.acquire()).fetchval("SELECT 2") == 2


async def test_a_caller_that_gives_up_waiting_takes_no_place_with_it(
    connect: Callable[..., Pool],
) -> None:
    pool = connect(max_size=1)
    conn = await pool.acquire()
    gave_up = await waiting(pool)
    gave_up.cancel()
    with pytest.raises(asyncio.CancelledError):
        await gave_up
    late = await waiting(pool)
    pool.release(conn)  # handed to ``late`` ...
    late.cancel()  # ... which is cancelled before it runs: the connection is kept
    with pytest.raises(asyncio.CancelledError):
        await late
    assert (pool.size, pool.idle) == (1, 1)
    assert await pool.acquire() is conn


async def test_a_connection_that_could_not_be_opened_frees_its_place(pg_url: str) -> None:
    failures = [OSError("refused")]

    async def flaky() -> Connection:
        if failures:
            raise failures.pop()
        return await asyncpg.connect(pg_url)

    pool = Pool(flaky, max_size=1)
    try:
        with pytest.raises(OSError, match="refused"):
            await pool.acquire()
        assert pool.size == 0
        conn = await pool.acquire()
        assert await conn.fetchval("SELECT 1") == 1
    finally:
        await pool.close()


async def test_a_connection_idle_too_long_is_closed_instead_of_handed_out(
    connect: Callable[..., Pool],
) -> None:
    clock = Clock(1000.0)
    pool = connect(max_size=2, clock=clock)
    old, kept = await pool.acquire(), await pool.acquire()
    pool.release(old)
    clock.now += IDLE_SECONDS + 1
    pool.release(kept)  # the one idle too long is closed as another comes back
    assert (pool.size, pool.idle) == (1, 1)
    clock.now += IDLE_SECONDS + 1
    fresh = await pool.acquire()  # the last idle one is too old as well: a new one
    assert fresh is not kept and fresh is not old
    assert pool.size == 1
    assert await closed_soon(old, kept)


async def test_a_connection_open_for_its_lifetime_is_closed_as_it_comes_back(
    connect: Callable[..., Pool],
) -> None:
    clock = Clock(1000.0)
    pool = connect(max_size=1, clock=clock)
    old = await pool.acquire()
    queued = await waiting(pool)
    clock.now += LIFETIME_SECONDS
    pool.release(old)  # its place goes to the caller waiting, who opens a new one
    fresh = await queued
    assert fresh is not old
    assert await fresh.fetchval("SELECT 1") == 1
    pool.release(fresh)  # young: kept
    assert (pool.size, pool.idle) == (1, 1)
    assert await pool.acquire() is fresh
    assert await closed_soon(old)


async def test_a_closed_pool_hands_out_nothing_and_closes_what_comes_back(
    connect: Callable[..., Pool],
) -> None:
    pool = connect(max_size=1)
    conn = await pool.acquire()
    queued = await waiting(pool)
    await pool.close()
    with pytest.raises(PoolClosed):
        await queued
    with pytest.raises(PoolClosed):
        await pool.acquire()
    pool.release(conn)
    assert conn.is_closed()
    assert pool.size == 0


async def test_a_statement_cancelled_under_way_leaves_no_connection_in_doubt(
    pg_url: str,
) -> None:
    """Its connection is closed, not handed out while the server may still be running the
    cancelled statement: the next one runs on a new backend."""
    store = await PostgresStore.connect(pg_url, min_size=1, max_size=1)
    try:
        before = await store.fetch("SELECT pg_backend_pid() AS pid")
        slow = asyncio.ensure_future(store.fetch("SELECT pg_sleep(5)"))
        await asyncio.sleep(0.2)
        slow.cancel()
        with pytest.raises(asyncio.CancelledError):
            await slow
        after = await asyncio.wait_for(store.fetch("SELECT pg_backend_pid() AS pid"), 3)
        assert after[0]["pid"] != before[0]["pid"]
        answered = await store.fetch("SELECT pg_backend_pid() AS pid")
        assert answered == after  # an ordinary answer keeps its connection
    finally:
        await store.close()
