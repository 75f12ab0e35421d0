"""The embedded engine commits writes that arrive together in one transaction, each inside its
own savepoint: a stale move among them fails alone, the others are saved, and every caller
hears only after the commit."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import pytest

from db import group_commit
from db.errors import StaleVersion, StorageFull
from db.opening import open_store
from db.sql import Statement
from db.sqlite import SqliteStore
from db.store import Store
from tests.store.moves import record


async def _game(store: Store, channel: int) -> int:
    row = await store.lobbies.create_lobby(
        guild_id=1, channel_id=channel, game="ten", host_id=1, host_name="H", seed=1
    )
    await store.play.start(row.id, "{}", {0: None})
    return row.id


@pytest.fixture
async def sqlite_store(tmp_path: Path) -> SqliteStore:
    store = await open_store(tmp_path / "bot.db")
    assert isinstance(store, SqliteStore)
    return store


async def test_moves_arriving_together_share_a_commit_and_a_stale_one_fails_alone(
    sqlite_store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = sqlite_store
    try:
        games = [await _game(store, channel) for channel in range(6)]
        groups: list[int] = []
        run_group = group_commit._run_group

        def counted(
            raw: sqlite3.Connection, writes: list[Sequence[Statement]]
        ) -> list[BaseException | None]:
            groups.append(len(writes))
            return run_group(raw, writes)

        monkeypatch.setattr(group_commit, "_run_group", counted)
        moves = [record(store, game, 0) for game in games]
        moves.append(record(store, games[0], 0))  # the same version again: stale
        results = await asyncio.gather(*moves, return_exceptions=True)
        assert results[:6] == [1] * 6
        assert isinstance(results[6], StaleVersion)
        assert sum(groups) == 7 and len(groups) < 7, groups
        for game in games:
            assert (await store.games.game(game)).version == 1
        assert [a.action for a in await store.games.actions(games[0])] == ["a.0"]
        assert await record(store, games[0], 1) == 2  # the store goes on as usual
    finally:
        await store.close()


async def test_a_full_disk_fails_every_write_of_the_group_and_saves_none(
    sqlite_store: SqliteStore,
) -> None:
    store = sqlite_store
    try:
        games = [await _game(store, channel) for channel in range(3)]
        async with store._conn.execute("PRAGMA page_count") as cursor:
            counted = await cursor.fetchone()
            assert counted is not None
            pages = counted[0]
        await store._conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        big = "s" * 300_000
        results = await asyncio.gather(
            *(record(store, game, 0, big) for game in games), return_exceptions=True
        )
        assert all(isinstance(r, StorageFull) for r in results), results
        for game in games:
            assert (await store.games.game(game)).version == 0
            assert await store.games.actions(game) == []
        await store._conn.execute("PRAGMA max_page_count = 1073741823")
        assert [await record(store, game, 0) for game in games] == [1, 1, 1]
    finally:
        await store.close()
