"""A PostgreSQL transaction cancelled at its BEGIN or while its COMMIT runs (the bot
stopping), as tests/store/test_sqlite_cancelled.py does for SQLite: the store gives its
connection up instead of handing it out again in an unknown state, nothing is logged as an
error, and the next transaction goes through on a pool of one connection. A COMMIT cancelled
under way may still commit: the server finishes it whether or not its client still listens,
as SQLite's thread does."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from db.postgres import PostgresStore

# A COMMIT that runs for a while: a deferred trigger that sleeps when the row x = 1 commits.
SCRATCH = """
DROP TABLE IF EXISTS cancel_scratch;
CREATE TABLE cancel_scratch (x INTEGER);
CREATE OR REPLACE FUNCTION cancel_scratch_slow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_sleep(2);
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER cancel_scratch_slow AFTER INSERT ON cancel_scratch
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.x = 1)
    EXECUTE FUNCTION cancel_scratch_slow();
"""


@pytest.fixture
async def store(pg_url: str) -> AsyncIterator[PostgresStore]:
    store = await PostgresStore.connect(pg_url, min_size=1, max_size=1)
    async with store.transaction() as tx:
        await tx.execute(SCRATCH)
    yield store
    # A backend still running a cancelled COMMIT would hold the table until its sleep ends.
    await store.fetch(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
        "WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    await store.close()


async def _write(store: PostgresStore, started: asyncio.Event | None = None) -> None:
    async with store.transaction() as tx:
        await tx.execute("INSERT INTO cancel_scratch (x) VALUES (1)")
        if started is not None:
            started.set()


async def _next_transaction_goes_through(store: PostgresStore) -> set[int]:
    """Its row is there; returns the rows there are."""
    async with asyncio.timeout(5), store.transaction() as tx:
        await tx.execute("INSERT INTO cancel_scratch (x) VALUES (2)")
    rows = {row["x"] for row in await store.fetch("SELECT x FROM cancel_scratch")}
    assert 2 in rows
    return rows


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_cancelled_while_it_commits(
    store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    before = await store.fetch("SELECT pg_backend_pid() AS pid")
    inserted = asyncio.Event()
    task = asyncio.create_task(_write(store, inserted))
    await inserted.wait()
    await asyncio.sleep(0.15)  # its COMMIT now runs the deferred trigger's sleep
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _errors(caplog) == []
    assert await _next_transaction_goes_through(store) <= {1, 2}  # 1: the COMMIT went on
    # The connection whose COMMIT was cancelled was given up, not used again.
    assert await store.fetch("SELECT pg_backend_pid() AS pid") != before


async def test_cancelled_at_its_begin(
    store: PostgresStore, caplog: pytest.LogCaptureFixture
) -> None:
    task = asyncio.create_task(_write(store))
    await asyncio.sleep(0)  # the task has asked for its connection and BEGIN
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _errors(caplog) == []
    assert await _next_transaction_goes_through(store) == {2}  # nothing began: nothing kept
