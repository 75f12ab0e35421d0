"""Two sharded bot processes on one PostgreSQL database, end to end; and the single process on
SQLite through the same kill and restart.

Shards 0 and 1 of 2 run in two processes; guild "zero" is on shard 0, guild "one" on shard 1, a
Grinch game in each. Every DM click goes to shard 0 (as on Discord), so the process on shard 0
plays both games, and the table of the game in "one" is drawn by whichever process handled its
last move. Mid-game the shard-0 process is SIGKILLed: the other keeps serving ("My hand" clicks
in "one" and every turn timer), then shard 0 comes back and both games are played to the end.
Afterwards: every acknowledged click is in the action log exactly once (and no other player
move is), every game finished, and each timeout was announced once for one logged timeout.

Needs the PostgreSQL server at 127.0.0.1:5432 (or ``TEST_POSTGRES_URL``); a fresh database per
test. Without one the test is skipped with the reason; ``REQUIRE_POSTGRES=1`` (CI) fails it.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

import pytest

from tests.e2e.driver import open_game, quiet
from tests.e2e.ledger import Database, Ledger, assert_exactly_once, play
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess

# Seconds a player has. "erin" never plays, so her turns time out (twice, then autopilot plays
# for her). The others must click in time even on a loaded machine: two missed turns would put
# them on autopilot too, and both games could finish before the kill.
TIMEOUT = "8"
pytestmark = pytest.mark.timeout(150)  # the PostgreSQL test takes about 60-90 s on 2 cores


def two_guilds(fake: FakeDiscord) -> tuple[int, int]:
    """Guild "zero" on shard 0 of 2 and "one" on shard 1, a channel "play" in each; "erin"
    (who will not play) and everyone else are members of both."""
    g0, g1 = fake.add_guild("zero", shard=(0, 2)), fake.add_guild("one", shard=(1, 2))
    c0, c1 = fake.add_channel(g0, "play"), fake.add_channel(g1, "play")
    fake.add_user("erin")
    for name in ("alice", "bob", "carol", "erin"):
        for guild in (g0, g1):
            fake.join_guild(fake.user_named(name), guild)
    return c0, c1


def dump_logs(procs: list[BotProcess]) -> None:
    for proc in procs:
        sys.stdout.write(f"\n---- {proc.log_path.name} ----\n{proc.log_text()[-6000:]}\n")


# A timeout's announcement is a channel message sent after the move is saved, behind the
# channel's pacing (a few seconds at most): a process killed in between saved the timeout and
# never said it. The table and the hands are redrawn from the database; that line is not.
UNSAID_WITHIN = 6.0


async def check_log(
    db: Database,
    fake: FakeDiscord,
    ledger: Ledger,
    channels: list[int],
    killed_at: float | None = None,
) -> None:
    """Exactly once: the logged player moves are the acknowledged clicks; each logged timeout
    was announced once (one saved in the last seconds before ``killed_at`` may be unsaid,
    never said twice); every game finished."""
    actions = await assert_exactly_once(db, ledger)
    timeouts = [float(a["at"]) for a in actions if a["actor"] == "timeout"]
    announced = sum(
        1
        for channel in channels
        for message in fake.messages(channel)
        if "ran out of time" in (message.get("content") or "")
    )
    assert timeouts
    near_kill = (
        0
        if killed_at is None
        else sum(killed_at - UNSAID_WITHIN <= t <= killed_at for t in timeouts)
    )
    when = [round(t - (killed_at or 0), 2) for t in sorted(timeouts)]
    assert len(timeouts) - near_kill <= announced <= len(timeouts), (announced, when)


async def test_two_sharded_processes_on_postgres_survive_a_kill(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    fake, rng, ledger = fake_discord, random.Random(12), Ledger()
    fake.click_settle = 0.1
    c0, c1 = two_guilds(fake)
    alice, bob, carol, erin = (fake.user_named(n) for n in ("alice", "bob", "carol", "erin"))
    procs = [BotProcess(fake, tmp_path / f"shard{i}.log") for i in (0, 1)]
    envs = [
        {
            "DATABASE_URL": pg_database,
            "DATABASE_PATH": str(tmp_path / f"shard{i}.db"),  # its heartbeat file only
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(i),
            "TURN_TIMEOUT_SECONDS": TIMEOUT,
        }
        for i in (0, 1)
    ]
    db = Database(pg_database)
    db.watch_shown(fake)
    try:
        await procs[0].start(env=envs[0])
        await procs[1].start(env=envs[1])
        await fake.wait_shards([0, 1], 2)  # one session per shard, one shard per process
        await open_game(fake, c0, alice, [bob], 1)  # lobby clicks on shard 0
        await open_game(fake, c1, carol, [erin], 1)  # lobby clicks on shard 1
        assert len(await db.statuses()) == 2
        await play(fake, [alice, bob, carol], rng, ledger, until=db.all_over, moves=6)
        # Shard 0 dies without warning; shard 1 goes on serving its guild and every timer.
        await quiet(fake)
        killed_at = time.time()
        procs[0].kill()
        await fake.wait_for(lambda: not fake.live_sessions.covers([0], 2), timeout=10)
        assert fake.live_sessions.covers([1], 2)
        before = sum(ledger.acked.values())
        await play(fake, [carol], rng, ledger, until=db.all_over, moves=2, hand_channel=c1)
        assert sum(ledger.acked.values()) > before, "shard 1 served no move alone"
        await procs[0].start(env=envs[0])
        await fake.wait_shards([0, 1], 2)
        await play(fake, [alice, bob, carol], rng, ledger, until=db.all_over)
        await quiet(fake)
        await check_log(db, fake, ledger, [c0, c1], killed_at)
        assert procs[0].starts == 2
        assert procs[1].starts == 1
        assert procs[1].running
    except BaseException:
        dump_logs(procs)
        sys.stdout.write(f"\n---- database ----\n{await db.describe()}\n")
        raise
    finally:
        for proc in procs:
            await proc.stop()
        await db.close()
    for latency in fake.ack_latencies():
        assert latency < 3.0


async def test_one_process_on_sqlite_survives_a_kill(
    fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    """The short single-process variant: one game with an absent player, killed mid-game."""
    fake, rng, ledger = fake_discord, random.Random(7), Ledger()
    fake.click_settle = 0.1
    _c0, c1 = two_guilds(fake)
    carol, erin = fake.user_named("carol"), fake.user_named("erin")
    proc = BotProcess(fake, tmp_path / "bot.log")
    env = {"DATABASE_PATH": str(tmp_path / "bot.db"), "TURN_TIMEOUT_SECONDS": TIMEOUT}
    db = Database(tmp_path / "bot.db")
    try:
        await proc.start(env=env)
        await open_game(fake, c1, carol, [erin], 1)
        await play(fake, [carol], rng, ledger, until=db.all_over, moves=3)
        await quiet(fake)
        killed_at = time.time()
        proc.kill()
        await proc.start(env=env)
        await play(fake, [carol], rng, ledger, until=db.all_over)
        await quiet(fake)
        await check_log(db, fake, ledger, [c1], killed_at)
    except BaseException:
        dump_logs([proc])
        raise
    finally:
        await proc.stop()
        await db.close()
