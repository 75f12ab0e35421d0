"""A SQLite transaction cancelled at its BEGIN or its COMMIT (a bot stopping, a timeout): the
statement still runs in the connection's thread, so the store settles what it left only once
it has run. Nothing stays open, nothing is logged as an error, and the next transaction
goes through."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from db.sqlite import SqliteStore

# A statement that keeps the connection's thread busy for a while (about 0.1-0.5 s here).
SLOW = (
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1500000) "
    "SELECT count(*) FROM c"
)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    store = await SqliteStore.open_file(tmp_path / "bot.db")
    async with store.transaction() as tx:
        await tx.execute("CREATE TABLE scratch (x INTEGER)")
    yield store
    await store.close()


async def _next_transaction_goes_through(store: SqliteStore) -> None:
    async with asyncio.timeout(5), store.transaction() as tx:
        await tx.execute("INSERT INTO scratch (x) VALUES (2)")
    rows = await store.fetch("SELECT x FROM scratch WHERE x = 2")
    assert rows == [{"x": 2}]


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]


async def test_cancelled_while_it_commits(
    store: SqliteStore, caplog: pytest.LogCaptureFixture
) -> None:
    committing = asyncio.Event()

    async def write() -> None:
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO scratch (x) VALUES (1)")
            busy = asyncio.ensure_future(tx.fetch(SLOW))  # the COMMIT queues behind it
            busy.add_done_callback(lambda done: done.exception())
            await asyncio.sleep(0)  # it is handed to the connection's thread first
            committing.set()

    task = asyncio.create_task(write())
    await committing.wait()
    await asyncio.sleep(0.02)  # the task now waits for its COMMIT
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _errors(caplog) == []
    await _next_transaction_goes_through(store)


async def test_cancelled_at_its_begin(store: SqliteStore, caplog: pytest.LogCaptureFixture) -> None:
    async def write() -> None:
        async with store.transaction() as tx:
            await tx.execute("INSERT INTO scratch (x) VALUES (1)")

    task = asyncio.create_task(write())
    await asyncio.sleep(0)  # the task has handed its BEGIN to the connection's thread
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert _errors(caplog) == []
    await _next_transaction_goes_through(store)
    assert await store.fetch("SELECT x FROM scratch WHERE x = 1") == []
