"""Moving a SQLite database to PostgreSQL loses nothing (the target is PostgreSQL by nature,
so these tests need the server; see conftest.py for when they are skipped)."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from db import pgadmin
from db.errors import TargetNotEmpty
from db.migrate_sqlite import migrate
from db.opening import open_store
from engine import GAMES
from service.games import GameService
from service.reports import Loaded

ROOT = Path(__file__).resolve().parents[2]
BOOLEAN = {"is_computer", "accepted", "autopilot", "dm_closed", "won", "computers"}
TABLES = {
    "games": "id",
    "seats": "game_id, seat",
    "actions": "game_id, seq",
    "results": "game_id, seat",
    "ratings": "guild_id, game, user_id",
    "rating_history": "game_id, user_id",
    "guild_settings": "guild_id",
    "user_languages": "user_id",
    "server_languages": "guild_id",
    "outbox": "id",
}


@pytest.fixture
def pg_target(pg_url: str) -> str:
    asyncio.run(pgadmin.reset_schema(pg_url))
    return pg_url


async def _play(service: GameService, loaded: Loaded, rng: random.Random, moves: int) -> Loaded:
    """Humans pick random legal moves (computers answer inside the service)."""
    for _ in range(moves):
        if loaded.row.status != "active":
            break
        game = loaded.game
        humans = [s for s in loaded.seats if s.user_id is not None]
        due = [s for s in humans if s.seat in game.to_act(loaded.state)]
        seat = rng.choice(due)
        action = str(rng.choice(game.legal_actions(loaded.state, seat.seat)))
        assert seat.user_id is not None
        loaded = (await service.act(loaded.row.id, seat.user_id, seat.step, action)).after
    return loaded


async def _source(path: Path) -> dict[str, int]:
    """A database with finished, open, lobby and cancelled games; their ids by kind."""
    store = await open_store(path)
    service = GameService(store, turn_timeout=300)
    service.round_ended = lambda loaded, before, after: after is not None  # each move owes one
    rng = random.Random(5)
    ids: dict[str, int] = {}
    for kind, channel in (("finished", 1), ("cancelled", 2), ("active", 3), ("lobby", 4)):
        loaded = await service.open_lobby(
            game="grinch", guild_id=7, channel_id=channel, host_id=1, host_name="Ann"
        )
        ids[kind] = loaded.row.id
        if kind == "lobby":
            await service.join(loaded.row.id, 2, "Bo")
            continue
        await service.join(loaded.row.id, 2, "Bo")
        await service.add_computer(loaded.row.id, 1)
        loaded = (await service.start(loaded.row.id, 1)).after
        await store.shown.set_table_message(loaded.row.id, 10**18 + channel, "k")
        await store.seats.set_dm(loaded.row.id, 1, channel_id=10**18 + 7, message_id=10**18 + 8)
        if kind == "finished":
            loaded = await _play(service, loaded, rng, 5_000)
            assert loaded.row.status == "finished"
        elif kind == "active":
            await _play(service, loaded, rng, 6)
        else:
            await service.cancel(loaded.row.id, 1, is_admin=False)
    await store.languages.save_language("user", 1, "language", "et")
    await store.languages.save_language("user", 2, "discord_locale", "ro")
    await store.languages.save_language("server", 7, "discord_locale", "lt")
    await store.close()
    return ids


def _sqlite_rows(path: Path) -> dict[str, list[dict[str, Any]]]:
    with sqlite3.connect(path) as conn:
        conn.row_factory = sqlite3.Row
        return {
            table: [dict(r) for r in conn.execute(f"SELECT * FROM {table} ORDER BY {key}")]
            for table, key in TABLES.items()
        }


async def _pg_rows(url: str) -> dict[str, list[dict[str, Any]]]:
    conn = await asyncpg.connect(url)
    try:
        return {
            table: [dict(r) for r in await conn.fetch(f"SELECT * FROM {table} ORDER BY {key}")]
            for table, key in TABLES.items()
        }
    finally:
        await conn.close()


def _normal(rows: dict[str, list[dict[str, Any]]]) -> dict[str, list[dict[str, Any]]]:
    return {
        table: [
            {k: (bool(v) if k in BOOLEAN and v is not None else v) for k, v in row.items()}
            for row in found
        ]
        for table, found in rows.items()
    }


async def test_every_row_survives_the_move_to_postgres(tmp_path: Path, pg_target: str) -> None:
    path = tmp_path / "bot.db"
    ids = await _source(path)
    report = await migrate(path, pg_target)
    source, copied = _sqlite_rows(path), await _pg_rows(pg_target)
    assert report.counts == {table: len(rows) for table, rows in source.items()}
    assert report.counts["results"] == 3 and report.counts["actions"] > 20
    assert report.counts["user_languages"] == 2 and report.counts["server_languages"] == 1
    assert report.counts["outbox"] > 20  # a summary owed for each move
    assert _normal(copied) == _normal(source)  # every row of every table, every column
    statuses = {r["id"]: r["status"] for r in copied["games"]}
    assert statuses == {ids[kind]: kind for kind in ids}
    # The bot carries on from PostgreSQL: the open game plays on, new ids follow the old.
    store = await open_store(pg_target)
    try:
        service = GameService(store, turn_timeout=300)
        loaded = await service.load(ids["active"])
        assert loaded.state == GAMES["grinch"].from_json(
            next(r["snapshot"] for r in source["games"] if r["id"] == ids["active"])
        )
        after = await _play(service, loaded, random.Random(9), 3)
        assert after.row.version > loaded.row.version
        fresh = await store.lobbies.create_lobby(
            guild_id=7, channel_id=99, game="ten", host_id=1, host_name="Ann", seed=1
        )
        assert fresh.id == max(ids.values()) + 1
        conn = await asyncpg.connect(pg_target)
        try:
            owed = await conn.fetchval("SELECT nextval(pg_get_serial_sequence('outbox', 'id'))")
        finally:
            await conn.close()
        assert owed == max(r["id"] for r in source["outbox"]) + 1
    finally:
        await store.close()
    # A second copy into the now non-empty database is refused and changes nothing.
    with pytest.raises(TargetNotEmpty):
        await migrate(path, pg_target)
    again = await _pg_rows(pg_target)
    assert {t: len(r) for t, r in again.items()}["games"] == len(ids) + 1


async def test_the_command_line(tmp_path: Path, pg_target: str) -> None:
    path = tmp_path / "bot.db"
    await _source(path)

    def command(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "db.migrate_sqlite", *args],
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
            check=False,
        )

    done = command(str(path), pg_target)
    assert done.returncode == 0, done.stderr
    assert "4 games" in done.stderr and "every row checked" in done.stderr
    refused = command(str(path), pg_target)
    assert refused.returncode == 2
    assert "already has rows in games" in refused.stderr
    assert len(refused.stderr.strip().splitlines()) == 1
    missing = command(str(tmp_path / "nope.db"), pg_target)
    assert missing.returncode == 2 and "no SQLite database" in missing.stderr
