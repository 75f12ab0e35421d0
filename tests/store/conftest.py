"""Every store test runs on both engines: a SQLite file in a temp folder, and PostgreSQL.

The PostgreSQL half uses the server at 127.0.0.1:5432 (or ``TEST_POSTGRES_URL``): one
throw-away database per test session (``cardtable_test_<pid>_<random>``), emptied before each
test and dropped at the end. With no server it is skipped with the reason; with
``REQUIRE_POSTGRES=1`` (CI) that skip is a failure.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from db import pgadmin
from db.opening import open_store as open_engine
from db.store import Store

ENGINES = ("sqlite", "postgres")
OpenStore = Callable[[], Awaitable[Store]]


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """The URL of this session's own PostgreSQL database."""
    admin = pgadmin.admin_url()
    why = asyncio.run(pgadmin.reachable(admin))
    if why is not None:
        if os.environ.get("REQUIRE_POSTGRES") == "1":
            pytest.fail(
                f"PostgreSQL half of tests/store required (REQUIRE_POSTGRES=1) but there is "
                f"no server at {admin} ({why})"
            )
        pytest.skip(
            f"PostgreSQL half of tests/store skipped: no server at {admin} ({why}); "
            "set REQUIRE_POSTGRES=1 to make this a failure"
        )
    name = pgadmin.fresh_name()
    url = asyncio.run(pgadmin.create_database(admin, name))
    try:
        yield url
    finally:
        asyncio.run(pgadmin.drop_database(admin, name))


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def target(engine: str, request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where this test's store lives: a fresh SQLite path or the emptied session database."""
    if engine == "sqlite":
        return str(tmp_path / "bot.db")
    url = str(request.getfixturevalue("pg_url"))
    asyncio.run(pgadmin.reset_schema(url))
    return url


@pytest.fixture
async def open_store(target: str) -> AsyncIterator[OpenStore]:
    """Opens stores on this test's database; every one is closed after the test."""
    opened: list[Store] = []

    async def opener() -> Store:
        store = await open_engine(target)
        opened.append(store)
        return store

    yield opener
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store: OpenStore) -> Store:
    return await open_store()
