"""Computer levels in the store, on both engines: a seat's level and the server's default
level are stored, read back after reopening, and a database from before levels (migration
11) gets them as normal."""

from __future__ import annotations

import sqlite3
from dataclasses import replace

import asyncpg

from db.migrations import migration_files
from db.servers import GuildSettings
from engine.base import Level
from service.games import GameService
from tests.store.conftest import OpenStore

HOST, BOB = 100, 101
BEFORE_LEVELS = 11  # the last migration without computer levels


async def test_a_seats_level_and_the_servers_default_survive_reopening(
    open_store: OpenStore,
) -> None:
    store = await open_store()
    service = GameService(store, turn_timeout=0)
    lobby = await service.open_lobby(
        game="grinch", guild_id=1, channel_id=10, host_id=HOST, host_name="Host"
    )
    await service.add_computer(lobby.row.id, HOST, level=Level.HARD)
    await service.add_computer(lobby.row.id, HOST, level=Level.EASY)
    await service.add_computer(lobby.row.id, HOST)  # the server's default: normal
    await store.servers.save_guild_settings(replace(GuildSettings(1), computer_level=Level.EASY))
    await service.add_computer(lobby.row.id, HOST)  # the server's default, now easy
    await store.close()

    store = await open_store()
    seats = await store.games.seats(lobby.row.id)
    assert [s.level for s in seats] == [
        Level.NORMAL,  # a person's seat keeps the column's default; no screen reads it
        Level.HARD,
        Level.EASY,
        Level.NORMAL,
        Level.EASY,
    ]
    assert all(type(s.level) is Level for s in seats)
    _game, joined = await store.games.game_and_seats(lobby.row.id)  # what a move loads
    assert [s.level for s in joined] == [s.level for s in seats]
    assert (await store.servers.guild_settings(1)).computer_level is Level.EASY
    assert (await store.servers.guild_settings(2)).computer_level is Level.NORMAL  # never saved


async def _old_database(target: str) -> None:
    """The schema as it was before levels, with a lobby (a person and a computer) and a
    server's settings in it, written by plain SQL as that version's bot wrote them."""
    rows = [
        "INSERT INTO games (id, guild_id, channel_id, game, status, host_id, seed, created_at, "
        "updated_at) VALUES (1, 1, 10, 'grinch', 'lobby', 100, 7, 0, 0)",
        "INSERT INTO seats (game_id, seat, user_id, name, is_computer) "
        "VALUES (1, 0, 100, 'Host', FALSE)",
        "INSERT INTO seats (game_id, seat, user_id, name, is_computer) "
        "VALUES (1, 1, NULL, 'Robo Max', TRUE)",
        "INSERT INTO guild_settings (guild_id, turn_timeout, computers, updated_at) "
        "VALUES (1, 600, TRUE, 0)",
    ]
    if target.startswith("postgresql://"):
        pg = await asyncpg.connect(target)
        try:
            await pg.execute(
                "CREATE TABLE schema_version (version INTEGER PRIMARY KEY, "
                "applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
            for number, path in migration_files("postgres")[:BEFORE_LEVELS]:
                await pg.execute(path.read_text(encoding="utf-8"))
                await pg.execute("INSERT INTO schema_version (version) VALUES ($1)", number)
            for sql in rows:
                await pg.execute(sql)
        finally:
            await pg.close()
        return
    with sqlite3.connect(target) as lite:
        for _number, path in migration_files("sqlite")[:BEFORE_LEVELS]:
            lite.executescript(path.read_text(encoding="utf-8"))
        lite.execute(f"PRAGMA user_version = {BEFORE_LEVELS}")
        for sql in rows:
            lite.execute(sql)
    lite.close()


async def test_a_database_from_before_levels_reads_every_computer_as_normal(
    open_store: OpenStore, target: str
) -> None:
    await _old_database(target)
    store = await open_store()  # migrates to the latest version
    assert await store.schema_version() == len(migration_files(store.dialect)) > BEFORE_LEVELS
    seats = await store.games.seats(1)
    assert [(s.name, s.is_computer, s.level) for s in seats] == [
        ("Host", False, Level.NORMAL),
        ("Robo Max", True, Level.NORMAL),
    ]
    settings = await store.servers.guild_settings(1)
    assert settings.turn_timeout == 600 and settings.computer_level is Level.NORMAL
    # The migrated database takes the new columns: a hard computer joins the old lobby.
    service = GameService(store, turn_timeout=0)
    after = await service.add_computer(1, HOST, level=Level.HARD)
    assert [s.level for s in after.seats] == [Level.NORMAL, Level.NORMAL, Level.HARD]
