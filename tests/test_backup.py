"""`python bot.py backup` copies a live database consistently, WAL content included."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from db.backup import BackupError, backup
from db.opening import open_store
from db.store import Store

ROOT = Path(__file__).resolve().parents[1]


def run_backup(database: Path, *target: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "backup", *map(str, target)],
        env={**os.environ, "DATABASE_PATH": str(database)},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def games_in(path: Path) -> list[str]:
    conn = sqlite3.connect(path)
    try:
        return [str(name) for (name,) in conn.execute("SELECT game FROM games ORDER BY id")]
    finally:
        conn.close()


async def lobbies(store: Store, count: int) -> None:
    for channel in range(count):
        await store.lobbies.create_lobby(
            guild_id=1, channel_id=100 + channel, game="hearts", host_id=7, host_name="a", seed=1
        )


@pytest.mark.process
async def test_backup_of_a_running_store_holds_what_is_only_in_the_wal(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    store = await open_store(database)
    try:
        await lobbies(store, 3)
        # The commits are still in bot.db-wal: copying bot.db alone would lose them.
        assert Path(f"{database}-wal").stat().st_size > 0
        naive = tmp_path / "copied-alone.db"
        shutil.copy(database, naive)
        try:
            seen = len(games_in(naive))
        except sqlite3.OperationalError:  # here even the tables are only in the WAL
            seen = 0
        assert seen < 3

        result = run_backup(database, tmp_path / "backups" / "copy.db")
        assert result.returncode == 0, result.stderr
        assert "backed up" in result.stderr
        await lobbies_after_backup(store)
    finally:
        await store.close()
    copy = tmp_path / "backups" / "copy.db"
    assert games_in(copy) == ["hearts"] * 3  # the later lobby is not in the copy
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    finally:
        conn.close()
    assert sorted(p.name for p in copy.parent.iterdir()) == ["copy.db"]  # one file, no leftovers
    reopened = await open_store(copy)  # a backup is a database the bot can start on
    try:
        assert await reopened.schema_version() >= 1
    finally:
        await reopened.close()


async def lobbies_after_backup(store: Store) -> None:
    await store.lobbies.create_lobby(
        guild_id=1, channel_id=999, game="ten", host_id=7, host_name="a", seed=1
    )


def test_backup_is_consistent_while_a_writer_keeps_committing(tmp_path: Path) -> None:
    """Each transaction adds +n and -n: any consistent snapshot sums to zero."""
    database = tmp_path / "live.db"
    setup = sqlite3.connect(database)
    setup.execute("PRAGMA journal_mode = WAL")
    setup.execute("CREATE TABLE ledger (amount INTEGER NOT NULL)")
    setup.commit()
    setup.close()
    stop = threading.Event()

    def writer() -> None:
        conn = sqlite3.connect(database, timeout=10, check_same_thread=False)
        n = 0
        while not stop.is_set():
            n += 1
            with conn:
                conn.execute("INSERT INTO ledger VALUES (?)", (n,))
                conn.execute("INSERT INTO ledger VALUES (?)", (-n,))
        conn.close()

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        copies = [backup(database, tmp_path / f"copy-{i}.db") for i in range(5)]
    finally:
        stop.set()
        thread.join()
    for copy in copies:
        conn = sqlite3.connect(copy)
        try:
            total, rows = conn.execute(
                "SELECT COALESCE(SUM(amount), 0), COUNT(*) FROM ledger"
            ).fetchone()
        finally:
            conn.close()
        assert total == 0 and rows % 2 == 0


@pytest.mark.process
def test_default_target_is_a_dated_file_in_backups(tmp_path: Path) -> None:
    database = tmp_path / "data" / "bot.db"
    database.parent.mkdir()
    sqlite3.connect(database).close()
    result = run_backup(database)
    assert result.returncode == 0, result.stderr
    (made,) = (database.parent / "backups").iterdir()
    assert made.name.startswith("bot-") and made.suffix == ".db"


@pytest.mark.process
def test_missing_database_is_one_line_and_exit_1(tmp_path: Path) -> None:
    result = run_backup(tmp_path / "nothing.db", tmp_path / "copy.db")
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "there is no database" in lines[0]
    assert not (tmp_path / "copy.db").exists()


def test_backup_refuses_to_overwrite_the_database(tmp_path: Path) -> None:
    database = tmp_path / "bot.db"
    sqlite3.connect(database).close()
    with pytest.raises(BackupError, match="must not overwrite"):
        backup(database, tmp_path / "." / "bot.db")


async def test_each_copy_gets_a_generation_of_its_own(tmp_path: Path) -> None:
    """A bot started on a restored copy must find another token than the one it kept."""
    database = tmp_path / "bot.db"
    store = await open_store(database)
    try:
        await store.shown.set_generation("live")
        first, second = backup(database, tmp_path / "a.db"), backup(database, tmp_path / "b.db")
        assert await store.shown.generation() == "live"
    finally:
        await store.close()
    tokens = []
    for copy in (first, second):
        conn = sqlite3.connect(copy)
        try:
            tokens.append(conn.execute("SELECT token FROM generation").fetchone()[0])
        finally:
            conn.close()
    assert "live" not in tokens and tokens[0] != tokens[1] and all(tokens)
