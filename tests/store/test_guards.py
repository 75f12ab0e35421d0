"""SQLite's storage guards: a damaged file, a second process, a full disk.

These are properties of the embedded engine only (PostgreSQL is shared by design and keeps
its own files), so they run on SQLite alone.
"""

from __future__ import annotations

import errno
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db.errors import DamagedDatabase, StorageFull, StoreLocked
from db.models import GameStatus
from db.opening import open_store
from db.sqlite import SqliteStore, _raise_mapped
from tests.store.moves import record

ROOT = Path(__file__).resolve().parents[2]


async def _filled(path: Path, games: int = 60) -> None:
    store = await open_store(path)
    for n in range(games):
        row = await store.lobbies.create_lobby(
            guild_id=1,
            channel_id=n,
            game="grinch",
            host_id=1,
            host_name="H",
            seed=n,
            options="{" + "x" * 400 + "}",
        )
        await store.play.end(row.id, GameStatus.CANCELLED)
    await store.close()  # the last connection checkpoints the WAL into the file


def _corrupt_page(path: Path, page_number: int) -> None:
    data = bytearray(path.read_bytes())
    page_size = int.from_bytes(data[16:18], "big")
    start = (page_number - 1) * page_size
    assert len(data) >= start + page_size, "the file has that page"
    data[start : start + page_size] = bytes((i * 37 + 11) % 251 for i in range(page_size))
    path.write_bytes(bytes(data))


async def test_a_damaged_file_is_refused_with_one_line_on_how_to_restore(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await _filled(path)
    backup = tmp_path / "backup.db"
    shutil.copy(path, backup)
    _corrupt_page(path, 3)
    with pytest.raises(DamagedDatabase) as caught:
        await open_store(path)
    message = str(caught.value)
    assert "\n" not in message
    assert str(path) in message and "backup" in message
    assert isinstance(caught.value, sqlite3.DatabaseError)  # what bot.py already catches
    # Following the message: the backup put in place opens, with everything in it.
    shutil.copy(backup, path)
    store = await open_store(path)  # the refused open released its file lock
    assert len(await store.games.games_with_status(GameStatus.CANCELLED)) == 60
    await store.close()


async def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    await _filled(path, games=2)
    _corrupt_page(path, 1)
    with pytest.raises(DamagedDatabase, match="damaged"):
        await open_store(path)


OPENER = textwrap.dedent(
    """
    import asyncio, sys
    from db.opening import open_store
    from db.errors import StoreLocked

    async def main(path):
        try:
            store = await open_store(path)
        except StoreLocked as exc:
            print("locked:", exc)
            return
        print("opened")
        await store.close()

    asyncio.run(main(sys.argv[1]))
    """
)


def _open_in_another_process(path: Path) -> str:
    done = subprocess.run(
        [sys.executable, "-c", OPENER, str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
        check=True,
    )
    return done.stdout.strip()


async def test_a_second_process_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "data" / "bot.db"
    store = await open_store(path)
    try:
        answer = _open_in_another_process(path)
        assert answer.startswith("locked: another bot process")
        assert f"(pid {os.getpid()})" in answer and str(path) in answer
        assert "\n" not in answer
        with pytest.raises(StoreLocked):  # a second store in this process too
            await open_store(path)
        await store.lobbies.create_lobby(
            guild_id=1, channel_id=1, game="ten", host_id=1, host_name="H", seed=1
        )
    finally:
        await store.close()
    assert _open_in_another_process(path) == "opened"  # the lock goes with the store


async def test_a_full_disk_writes_nothing_and_the_store_recovers(tmp_path: Path) -> None:
    store = await open_store(tmp_path / "bot.db")
    assert isinstance(store, SqliteStore)
    try:
        game = (
            await store.lobbies.create_lobby(
                guild_id=1, channel_id=1, game="ten", host_id=1, host_name="H", seed=1
            )
        ).id
        await store.play.start(game, "{}", {0: None})
        big = "s" * 300_000  # far more than the pages left under the cap

        async def move(version: int) -> int:
            return await record(store, game, version, f"{version}:{big}", deadline=99.0)

        assert await move(0) == 1
        async with store._conn.execute("PRAGMA page_count") as cur:
            counted = await cur.fetchone()
            assert counted is not None
            pages = counted[0]
        await store._conn.execute(f"PRAGMA max_page_count = {pages + 2}")
        with pytest.raises(StorageFull) as caught:
            await move(1)
        assert "cannot save moves" in str(caught.value)
        assert isinstance(caught.value, OSError)
        row = await store.games.game(game)
        assert (row.version, row.snapshot) == (1, f"0:{big}")
        assert [a.seq for a in await store.games.actions(game)] == [1]
        assert (await store.games.seats(game))[0].step == 1
        await store._conn.execute("PRAGMA max_page_count = 1073741823")  # space is back
        assert await move(1) == 2
        row = await store.games.game(game)
        assert (row.version, row.snapshot) == (2, f"1:{big}")
        assert [a.action for a in await store.games.actions(game)] == ["a.0", "a.1"]
    finally:
        await store.close()
    store = await open_store(tmp_path / "bot.db")  # and the file is whole afterwards
    assert (await store.games.game(1)).version == 2
    await store.close()


def test_enospc_from_the_os_is_storage_full() -> None:
    with pytest.raises(StorageFull):
        _raise_mapped(OSError(errno.ENOSPC, "No space left on device"), Path("x.db"))
    with pytest.raises(PermissionError):
        _raise_mapped(PermissionError(errno.EACCES, "denied"), Path("x.db"))
