"""Store tests on real SQLite files in a temporary folder."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db.errors import AlreadySeated, ChannelBusy, StaleVersion
from db.migrations import migration_files
from db.store import SeatUpdate, Store

ROOT = Path(__file__).resolve().parents[2]


async def _lobby(store: Store, channel: int = 10) -> int:
    row = await store.create_lobby(
        guild_id=1, channel_id=channel, game="grinch", host_id=100, host_name="Host", seed=7
    )
    return row.id


async def test_migrations_from_empty_and_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "bot.db"
    store = await Store.open(path)
    latest = len(migration_files())
    assert await store.schema_version() == latest
    await store.close()
    store = await Store.open(path)  # opening again applies nothing and loses nothing
    assert await store.schema_version() == latest
    await store.close()
    with sqlite3.connect(path) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
    assert {"games", "seats", "actions", "results"} <= tables
    assert mode == "wal"


async def test_one_open_game_per_channel_is_enforced_by_the_database(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    first = await _lobby(store)
    with pytest.raises(ChannelBusy):
        await _lobby(store)
    await _lobby(store, channel=11)  # another channel is fine
    assert await store.end(first, "cancelled")
    await _lobby(store)  # a closed game frees the channel
    await store.close()
    with sqlite3.connect(tmp_path / "bot.db") as conn, pytest.raises(sqlite3.IntegrityError):
        conn.execute(
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, seed, created_at,"
            " updated_at) VALUES (1, 10, 'grinch', 'active', 1, 1, 0, 0)"
        )


async def test_seats_join_order_full_and_renumbered(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    game = await _lobby(store)
    for user in (101, 102):
        assert await store.add_seat(game, user_id=user, name=f"P{user}", max_seats=3)
    assert await store.add_seat(game, user_id=103, name="late", max_seats=3) is None
    with pytest.raises(AlreadySeated):
        await store.add_seat(game, user_id=101, name="again", max_seats=9)
    await store.remove_seat(game, 1)
    seats = await store.seats(game)
    assert [(s.seat, s.user_id) for s in seats] == [(0, 100), (1, 102)]
    await store.close()


async def test_a_move_is_atomic_and_version_checked(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "bot.db")
    game = await _lobby(store)
    await store.start(game, '{"s": 0}', {0: None})
    updates = [SeatUpdate(0, 123.0, 0, False)]
    version = await store.record_move(
        game,
        expected_version=0,
        seat=0,
        action="d.W3a",
        actor="player",
        snapshot='{"s": 1}',
        seat_updates=updates,
    )
    assert version == 1
    with pytest.raises(StaleVersion):
        await store.record_move(
            game,
            expected_version=0,
            seat=0,
            action="d.W4a",
            actor="player",
            snapshot='{"s": 2}',
            seat_updates=updates,
        )
    row = await store.game(game)
    assert (row.version, row.snapshot) == (1, '{"s": 1}')
    assert [a.action for a in await store.actions(game)] == ["d.W3a"]
    seat = (await store.seats(game))[0]
    assert (seat.step, seat.deadline) == (1, 123.0)
    # A failure inside the transaction (duplicate result row) rolls the whole move back.
    with pytest.raises(sqlite3.IntegrityError):
        await store.record_move(
            game,
            expected_version=1,
            seat=0,
            action="r.run",
            actor="player",
            snapshot='{"s": 3}',
            seat_updates=updates,
            results=[(0, 100, 5, True), (0, 100, 5, True)],
        )
    row = await store.game(game)
    assert (row.version, row.status) == (1, "active")
    assert len(await store.actions(game)) == 1
    await store.close()


WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from db.store import SeatUpdate, Store

    async def main(path):
        store = await Store.open(path)
        game = await store.create_lobby(guild_id=1, channel_id=5, game="grinch",
                                        host_id=1, host_name="H", seed=1)
        await store.start(game.id, "{}", {0: None})
        version = 0
        while True:
            version = await store.record_move(
                game.id, expected_version=version, seat=0, action=f"a.{version}",
                actor="player", snapshot=str(version + 1),
                seat_updates=[SeatUpdate(0, None, 0, False)])
            print(version, flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_a_killed_writer_loses_no_committed_move(tmp_path: Path) -> None:
    path = tmp_path / "bot.db"
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdout is not None
    committed = 0
    for _ in range(60):
        committed = int(await asyncio.to_thread(proc.stdout.readline))
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    store = await Store.open(path)
    actions = await store.actions(1)
    row = await store.game(1)
    assert len(actions) >= committed  # every move reported as committed is there
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    assert row.version == len(actions)
    assert row.snapshot == str(row.version)
    await store.close()
