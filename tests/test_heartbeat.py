"""The heartbeat file and the health check that reads it."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

from runtime.heartbeat import DATABASE_OK, Beat, Heartbeat, check_health, heartbeat_path, write_beat

NOW = 1_000_000.0


def beat_file(tmp_path: Path, **changes: object) -> Path:
    path = tmp_path / "bot.db.health"
    fields: dict[str, object] = {
        "time": NOW - 5,
        "connected": True,
        "database": DATABASE_OK,
        "pid": 42,
    }
    fields.update(changes)
    path.write_text(json.dumps(fields))
    return path


def test_fresh_connected_and_writable_is_healthy(tmp_path: Path) -> None:
    healthy, line = check_health(beat_file(tmp_path), max_age=30, now=NOW)
    assert healthy and "connected, database writable" in line


def test_each_problem_is_named(tmp_path: Path) -> None:
    cases: list[tuple[dict[str, object], str]] = [
        ({"time": NOW - 31}, "last heartbeat 31 s ago"),
        ({"connected": False}, "not connected to Discord"),
        ({"database": "disk full"}, "database not writable: disk full"),
    ]
    for changes, reason in cases:
        healthy, line = check_health(beat_file(tmp_path, **changes), max_age=30, now=NOW)
        assert not healthy and reason in line
    garbage = tmp_path / "garbage.health"
    garbage.write_text("{not json")
    assert check_health(garbage, max_age=30, now=NOW)[0] is False
    healthy, line = check_health(tmp_path / "missing.health", max_age=30, now=NOW)
    assert not healthy and "no heartbeat" in line


def test_a_bot_that_could_not_start_says_why_however_old_its_beat(tmp_path: Path) -> None:
    path = tmp_path / "bot.db.health"
    write_beat(path, Beat(NOW - 3600, False, "not opened", 7, failure="Cannot start: no token"))
    healthy, line = check_health(path, max_age=30, now=NOW)
    assert not healthy and line == "could not start: no token"
    assert Beat.from_json(json.loads(path.read_text())).failure == "Cannot start: no token"
    assert Beat.from_json({"time": 1, "connected": True, "database": "ok", "pid": 1}).failure == ""


def test_write_beat_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "x.health"
    write_beat(path, Beat(NOW, True, DATABASE_OK, 7))
    assert Beat.from_json(json.loads(path.read_text())) == Beat(NOW, True, DATABASE_OK, 7)
    assert [p.name for p in tmp_path.iterdir()] == ["x.health"]


async def test_heartbeat_reports_an_unwritable_database_and_removes_its_file(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "bot.db"  # a folder where the database file should be
    folder.mkdir()
    heartbeat = Heartbeat(folder, interval=60, connected=lambda: False)
    beat = await heartbeat.beat()
    assert not beat.connected and "is a folder" in beat.database
    assert beat.pid == os.getpid()
    healthy, line = check_health(heartbeat_path(folder), max_age=60)
    assert not healthy and "not connected" in line

    good = Heartbeat(tmp_path / "good.db", interval=60, connected=lambda: True)
    good.start()
    await good.wake()
    for _ in range(100):
        if good.path.exists():
            break
        await asyncio.sleep(0.02)
    assert check_health(good.path, max_age=60)[0]
    await good.stop()
    assert not good.path.exists()
