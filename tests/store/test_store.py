"""The store contract, on both engines (see conftest.py): a real SQLite file and PostgreSQL."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import asyncpg
import pytest

from db.errors import (
    AlreadySeated,
    ChannelBusy,
    ConstraintViolation,
    NotFound,
    StaleVersion,
    StoreUnavailable,
)
from db.migrations import DIALECTS, migration_files
from db.models import Actor, GameStatus
from db.play import SeatUpdate
from db.store import Store
from tests.store.conftest import OpenStore

ROOT = Path(__file__).resolve().parents[2]
SNOWFLAKE = 1_234_567_890_123_456_789  # Discord ids need 64 bits


async def _lobby(store: Store, channel: int = 10) -> int:
    row = await store.lobbies.create_lobby(
        guild_id=1, channel_id=channel, game="grinch", host_id=100, host_name="Host", seed=7
    )
    return row.id


async def raw_execute(target: str, sql: str) -> None:
    """One statement straight on the database, around the store."""
    if target.startswith("postgresql://"):
        server = await asyncpg.connect(target)
        try:
            await server.execute(sql)
        finally:
            await server.close()
    else:
        with sqlite3.connect(target) as conn:
            conn.execute(sql)


def test_both_dialects_have_the_same_migration_history() -> None:
    names = {d: [p.name for _, p in migration_files(d)] for d in DIALECTS}
    assert names["sqlite"] == names["postgres"]
    assert len(names["sqlite"]) >= 2


async def test_migrations_from_empty_and_idempotent(open_store: OpenStore, target: str) -> None:
    store = await open_store()
    latest = len(migration_files(store.dialect))
    assert await store.schema_version() == latest
    await store.close()
    store = await open_store()  # opening again applies nothing and loses nothing
    assert await store.schema_version() == latest
    game = await _lobby(store)
    assert (await store.games.game(game)).status == "lobby"
    if store.dialect == "sqlite":
        with sqlite3.connect(target) as conn:
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            mode = conn.execute("PRAGMA journal_mode").fetchone()[0]
        assert {"games", "seats", "actions", "results"} <= tables
        assert mode == "wal"
    else:
        server = await asyncpg.connect(target)
        try:
            versions = [r[0] for r in await server.fetch("SELECT version FROM schema_version")]
        finally:
            await server.close()
        assert sorted(versions) == list(range(1, latest + 1))


async def test_two_processes_starting_together_migrate_once(
    open_store: OpenStore, engine: str
) -> None:
    outcomes = await asyncio.gather(*(open_store() for _ in range(3)), return_exceptions=True)
    stores = [o for o in outcomes if isinstance(o, Store)]
    if engine == "postgres":  # all start; the advisory lock let exactly one migrate
        assert len(stores) == 3
    else:  # SQLite is one process's file: the others are refused
        assert len(stores) == 1
        assert all(isinstance(o, OSError) for o in outcomes if o not in stores)
    for store in stores:
        assert await store.schema_version() == len(migration_files(store.dialect))


async def test_one_open_game_per_channel_is_enforced_by_the_database(
    store: Store, target: str
) -> None:
    first = await _lobby(store)
    with pytest.raises(ChannelBusy):
        await _lobby(store)
    await _lobby(store, channel=11)  # another channel is fine
    assert await store.play.end(first, GameStatus.CANCELLED)
    assert not await store.play.end(first, GameStatus.CANCELLED)
    await _lobby(store)  # a closed game frees the channel
    with pytest.raises((sqlite3.IntegrityError, asyncpg.UniqueViolationError)):
        await raw_execute(
            target,
            "INSERT INTO games (guild_id, channel_id, game, status, host_id, seed, created_at,"
            " updated_at) VALUES (1, 10, 'grinch', 'active', 1, 1, 0, 0)",
        )


async def test_seats_join_order_full_and_renumbered(store: Store) -> None:
    game = await _lobby(store)
    for user in (101, 102):
        assert await store.lobbies.add_seat(game, user_id=user, name=f"P{user}", max_seats=3)
    assert await store.lobbies.add_seat(game, user_id=103, name="late", max_seats=3) is None
    with pytest.raises(AlreadySeated):
        await store.lobbies.add_seat(game, user_id=101, name="again", max_seats=9)
    await store.lobbies.remove_seat(game, 1)
    seats = await store.games.seats(game)
    assert [(s.seat, s.user_id) for s in seats] == [(0, 100), (1, 102)]
    robot = await store.lobbies.add_seat(
        game, user_id=None, name="Robo", max_seats=9, is_computer=True
    )
    assert robot is not None and (robot.seat, robot.is_computer, robot.accepted) == (2, True, True)
    with pytest.raises(NotFound):
        await store.games.game(9999)


async def test_rows_keep_their_types_and_big_ids(store: Store) -> None:
    row = await store.lobbies.create_lobby(
        guild_id=SNOWFLAKE,
        channel_id=SNOWFLAKE + 1,
        game="hearts",
        host_id=SNOWFLAKE + 2,
        host_name="Host",
        seed=2**31 - 1,
        options='{"x": 1}',
    )
    assert (row.guild_id, row.channel_id, row.host_id) == (SNOWFLAKE, SNOWFLAKE + 1, SNOWFLAKE + 2)
    await store.lobbies.add_seat(
        row.id, user_id=SNOWFLAKE + 3, name="B", max_seats=2, accepted=False
    )
    await store.lobbies.accept_seat(row.id, 1)
    await store.lobbies.set_lobby_message(row.id, SNOWFLAKE + 4)
    await store.shown.set_table_message(row.id, SNOWFLAKE + 5, "key")
    await store.seats.set_dm(row.id, 1, channel_id=SNOWFLAKE + 6, message_id=SNOWFLAKE + 7)
    await store.seats.set_dm_closed(row.id, 0, True)
    await store.timers.set_seat_flags(row.id, 1, autopilot=True, timeouts=2)
    started = await store.play.start(row.id, "{}", {0: 50, 1: None})
    assert (started.status, started.version, started.snapshot) == ("active", 0, "{}")
    with pytest.raises(StaleVersion):
        await store.play.start(row.id, "{}", {})
    again = await store.games.game(row.id)
    assert (again.lobby_message_id, again.table_message_id, again.table_key) == (
        SNOWFLAKE + 4,
        SNOWFLAKE + 5,
        "key",
    )
    assert isinstance(again.created_at, float) and again.options == '{"x": 1}'
    host, guest = await store.games.seats(row.id)
    assert (host.dm_closed, host.deadline, host.autopilot) == (True, 50.0, False)
    assert (guest.accepted, guest.autopilot, guest.timeouts) == (True, True, 2)
    assert (guest.dm_channel_id, guest.dm_message_id, guest.dm_closed) == (
        SNOWFLAKE + 6,
        SNOWFLAKE + 7,
        False,
    )
    assert all(type(v) is bool for v in (host.is_computer, host.accepted, host.dm_closed))
    assert await store.games.open_game_in_channel(SNOWFLAKE + 1) == again
    assert await store.games.latest_game_in_channel(SNOWFLAKE + 1) == again
    assert await store.games.games_with_status(GameStatus.ACTIVE) == [again]
    assert await store.timers.earliest_deadline() == (row.id, 0, 50.0)
    await store.timers.clear_deadline(row.id, 0)
    assert await store.timers.earliest_deadline() is None


async def test_a_move_is_atomic_and_version_checked(store: Store) -> None:
    game = await _lobby(store)
    await store.lobbies.add_seat(game, user_id=101, name="B", max_seats=2)
    await store.play.start(game, '{"s": 0}', {0: None, 1: None})
    updates = [SeatUpdate(0, 123.0, 0, False), SeatUpdate(1, None, 1, True)]
    version = await store.play.record_move(
        game,
        expected_version=0,
        seat=0,
        action="d.W3a",
        actor=Actor.PLAYER,
        snapshot='{"s": 1}',
        seat_updates=updates,
    )
    assert version == 1
    with pytest.raises(StaleVersion):
        await store.play.record_move(
            game,
            expected_version=0,
            seat=0,
            action="d.W4a",
            actor=Actor.PLAYER,
            snapshot='{"s": 2}',
            seat_updates=updates,
        )
    row = await store.games.game(game)
    assert (row.version, row.snapshot) == (1, '{"s": 1}')
    assert [(a.seq, a.action, a.actor) for a in await store.games.actions(game)] == [
        (1, "d.W3a", "player")
    ]
    first, second = await store.games.seats(game)
    assert (first.step, first.deadline) == (1, 123.0)
    assert (second.step, second.timeouts, second.autopilot) == (0, 1, True)
    # A failure inside the transaction (duplicate result row) rolls the whole move back.
    with pytest.raises(ConstraintViolation):
        await store.play.record_move(
            game,
            expected_version=1,
            seat=0,
            action="r.run",
            actor=Actor.PLAYER,
            snapshot='{"s": 3}',
            seat_updates=updates,
            results=[(0, 100, 5, True), (0, 100, 5, True)],
        )
    row = await store.games.game(game)
    assert (row.version, row.status) == (1, "active")
    assert len(await store.games.actions(game)) == 1
    assert await store.games.results(game) == []
    # The last move finishes the game with its results, in one transaction.
    await store.play.record_move(
        game,
        expected_version=1,
        seat=1,
        action="r.run",
        actor=Actor.AUTOPILOT,
        snapshot='{"s": 3}',
        seat_updates=updates,
        results=[(0, 100, 5, True), (1, 101, -2, False)],
    )
    row = await store.games.game(game)
    assert (row.version, row.status, row.ended_at is not None) == (2, "finished", True)
    assert await store.games.results(game) == [(0, 100, 5, True), (1, 101, -2, False)]
    assert all(s.deadline is None for s in await store.games.seats(game))
    with pytest.raises(StaleVersion):  # a finished game takes no more moves
        await store.play.record_move(
            game,
            expected_version=2,
            seat=0,
            action="x",
            actor=Actor.PLAYER,
            snapshot="{}",
            seat_updates=[],
        )


WRITER = textwrap.dedent(
    """
    import asyncio, sys
    from db.opening import open_store
    from db.models import Actor
    from db.play import SeatUpdate

    async def main(target):
        store = await open_store(target)
        game = await store.lobbies.create_lobby(guild_id=1, channel_id=5, game="grinch",
                                        host_id=1, host_name="H", seed=1)
        await store.play.start(game.id, "{}", {0: None})
        print(game.id, flush=True)
        version = 0
        while True:
            version = await store.play.record_move(
                game.id, expected_version=version, seat=0, action=f"a.{version}",
                actor=Actor.PLAYER, snapshot=str(version + 1),
                seat_updates=[SeatUpdate(0, None, 0, False)])
            print(version, flush=True)

    asyncio.run(main(sys.argv[1]))
    """
)


async def test_a_killed_writer_loses_no_committed_move(open_store: OpenStore, target: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, target],
        stdout=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        assert proc.stdout is not None
        game_id = int(await asyncio.to_thread(proc.stdout.readline))
        committed = 0
        for _ in range(60):
            committed = int(await asyncio.to_thread(proc.stdout.readline))
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    store = await open_store()
    actions = await store.games.actions(game_id)
    row = await store.games.game(game_id)
    assert len(actions) >= committed  # every move reported as committed is there
    assert [a.seq for a in actions] == list(range(1, len(actions) + 1))
    assert row.version == len(actions)
    assert row.snapshot == str(row.version)


async def test_a_lost_connection_is_reported_and_the_next_call_reconnects(
    store: Store, target: str, engine: str
) -> None:
    if engine == "sqlite":
        pytest.skip("PostgreSQL only: an embedded SQLite file has no connection to lose")
    game = await _lobby(store)

    async def terminate_others() -> None:
        admin = await asyncpg.connect(target)
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        finally:
            await admin.close()

    async def restart_server_side() -> None:
        """What a server restart does to idle connections, done from another thread while
        this event loop is blocked, so the pool cannot notice before its next use."""
        worker = threading.Thread(target=lambda: asyncio.run(terminate_others()))
        worker.start()
        worker.join()
        time.sleep(0.2)

    await restart_server_side()  # a read, then a write, each on a replaced connection
    assert (await store.games.game(game)).id == game
    await restart_server_side()
    await store.lobbies.set_lobby_message(game, 5)
    assert (await store.games.game(game)).lobby_message_id == 5
    # A connection lost in the middle of a transaction: nothing written, a clear error.
    with pytest.raises(StoreUnavailable, match="lost the connection"):
        async with store.transaction() as tx:
            await tx.execute("UPDATE games SET table_key = 'x' WHERE id = ?", game)
            await tx.fetch("SELECT pg_terminate_backend(pg_backend_pid())")
    row = await store.games.game(game)  # the pool opened a new connection
    assert row.table_key is None


async def test_the_acting_seat_steps_on_with_or_without_its_own_update(store: Store) -> None:
    game = await _lobby(store)
    await store.lobbies.add_seat(game, user_id=101, name="B", max_seats=2)
    await store.play.start(game, "{}", {0: 10.0, 1: 20.0})
    await store.play.record_move(
        game,
        expected_version=0,
        seat=1,
        action="a",
        actor=Actor.PLAYER,
        snapshot="{}",
        seat_updates=[],
    )
    await store.play.record_move(
        game,
        expected_version=1,
        seat=1,
        action="b",
        actor=Actor.PLAYER,
        snapshot="{}",
        seat_updates=[SeatUpdate(0, 30.0, 0, False), SeatUpdate(1, None, 0, False)],
    )
    first, second = await store.games.seats(game)
    assert (first.step, first.deadline, second.step, second.deadline) == (0, 30.0, 2, None)
