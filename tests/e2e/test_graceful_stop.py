"""SIGTERM and SIGINT stop the real bot cleanly: exit 0, database closed, no move lost.

Also the health check the Docker image uses: healthy while connected, unhealthy when the
connection to Discord is gone or the bot stopped.
"""

from __future__ import annotations

import asyncio
import gc
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import (
    action_count,
    alice_and_bob_playing,
    bot_env,
    live_move_buttons,
    move_accepted,
    play_one_move,
    quiet,
)
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
STOP_LIMIT = 5.0


async def wait_exit(proc: BotProcess, limit: float) -> tuple[int, float]:
    """(exit code, seconds it took) once the process ended; fails past ``limit`` seconds."""
    started = time.monotonic()
    while proc.returncode is None:
        assert time.monotonic() - started < limit, "the bot did not stop in time"
        await asyncio.sleep(0.02)
    return proc.returncode, time.monotonic() - started


def integrity(db: Path) -> str:
    with sqlite3.connect(db) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


def health(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py"), "health"],
        env={**os.environ, "DATABASE_PATH": str(db)},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_signal_stops_the_bot_cleanly_and_keeps_every_move(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path, sig: signal.Signals
) -> None:
    fake, db = fake_discord, tmp_path / "bot.db"
    _, alice, bob = await alice_and_bob_playing(fake, bot_process, tmp_path, computers=1)
    rng = random.Random(5)
    for _ in range(3):
        assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    committed = action_count(db)

    # One more click, and the signal as soon as the bot has answered it: the move is committed
    # and its answer sent, the rest of what it changed (table, other hands) is being sent
    # while the bot is told to stop.
    found = live_move_buttons(fake.dm_messages(alice)) or live_move_buttons(fake.dm_messages(bob))
    assert found is not None
    message, buttons = found
    owner = alice if message in fake.dm_messages(alice) else bob
    versions = len(fake.message_versions(int(message["id"])))
    click = await fake.click(owner, int(message["id"]), buttons[0].custom_id or "")
    assert move_accepted(await click.wait_response())
    assert bot_process.popen is not None
    gc.collect()  # closes the driver's dropped sqlite3 connections: the bot's is the last one
    bot_process.popen.send_signal(sig)

    code, took = await wait_exit(bot_process, STOP_LIMIT)
    wal_left = Path(f"{db}-wal").exists()
    log = bot_process.log_text()
    assert code == 0, log
    assert took < STOP_LIMIT
    assert "Traceback" not in log, log
    assert f"stopping ({sig.name})" in log and "stopped; database closed" in log
    assert "voice" not in log
    # The move in flight was finished (recorded and its message redrawn), nothing went missing,
    # and the database was closed properly: SQLite removes the WAL when the last connection
    # closes cleanly.
    assert action_count(db) > committed
    assert len(fake.message_versions(int(message["id"]))) > versions
    assert not click.followups(), click.followups()
    assert integrity(db) == "ok"
    assert not wal_left
    assert not Path(f"{db}.health").exists()

    kept = action_count(db)
    await bot_process.start(env=bot_env(tmp_path))
    assert action_count(db) == kept
    assert await play_one_move(fake, [alice, bob], rng, hand_messages={})
    assert action_count(db) > kept


async def test_health_follows_the_connection(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    db = tmp_path / "bot.db"
    assert health(db).returncode == 1  # not started: no heartbeat file
    await bot_process.start(env={**bot_env(tmp_path), "HEARTBEAT_SECONDS": "0.2"})
    await quiet(fake_discord)
    healthy = health(db)
    assert healthy.returncode == 0, healthy.stderr
    assert "connected, database writable" in healthy.stderr

    await fake_discord.stop()  # Discord goes away; the bot keeps trying to reconnect
    await asyncio.sleep(0.6)
    gone = health(db)
    assert gone.returncode == 1
    assert "not connected to Discord" in gone.stderr

    await bot_process.stop()
    assert bot_process.returncode == 0
    stopped = health(db)
    assert stopped.returncode == 1
    assert "no heartbeat" in stopped.stderr
