"""Shard leases end to end (runtime/leasing.py): real bot processes on one PostgreSQL database.

A second process started on a shard a live process runs is refused before it reaches the
gateway: one ERROR line naming the shard and its holder, exit 2. Once the holder is
SIGKILLed (no clean stop, so its lease is not released), a process started at once on that
shard takes it over as the dead lease runs out, and is on the gateway within 10 s. And a
holder whose lease another process took (as if it had stalled for a whole lease) stops, exit 1.

Needs the PostgreSQL server at 127.0.0.1:5432 (or ``TEST_POSTGRES_URL``); skipped without
one, a failure with ``REQUIRE_POSTGRES=1``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path

import pytest

from db.postgres import PostgresStore
from tests.fakediscord import FakeDiscord
from tests.fakediscord.process import BotProcess
from tests.test_startup import assert_one_line_failure

pytestmark = pytest.mark.timeout(90)
TAKEOVER_SECONDS = 10.0  # from the SIGKILL to the new process's READY on the gateway


async def exit_code(proc: BotProcess, timeout: float) -> int:
    deadline = time.monotonic() + timeout
    while (code := proc.returncode) is None:
        assert time.monotonic() < deadline, f"still running after {timeout} s"
        await asyncio.sleep(0.05)
    return code


async def test_a_held_shard_is_refused_and_a_killed_holders_is_taken_over(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    fake = fake_discord
    holder, other = (
        BotProcess(fake, tmp_path / "holder.log"),
        BotProcess(fake, tmp_path / "other.log"),
    )
    common = {"DATABASE_URL": pg_database, "SHARD_COUNT": "2", "SHARD_IDS": "0"}
    envs = [{**common, "DATABASE_PATH": str(tmp_path / f"{n}.db")} for n in ("holder", "other")]
    try:
        await holder.start(env=envs[0])
        assert holder.popen is not None
        readies = fake.ready_count

        await other.start(env=envs[1], wait=False)
        code = await exit_code(other, 30)
        line = assert_one_line_failure(
            other.log_text(), code, "Shard 0 of 2", f":{holder.popen.pid}:", "live process"
        )
        assert "ERROR" in line
        assert fake.ready_count == readies  # refused before it reached the gateway
        assert holder.running and fake.live_sessions.covers([0], 2)

        holder.kill()  # no clean stop: its lease stays until it runs out
        killed = time.monotonic()
        await other.start(env=envs[1], timeout=TAKEOVER_SECONDS)
        taken_over = time.monotonic() - killed
        assert taken_over < TAKEOVER_SECONDS
        # Taken over: after watching the dead holder's lease run out, or at once when the
        # process took longer to start than the lease had left.
        assert "INFO leasing: leased shard 0 of 2" in other.log_text()
        assert fake.live_sessions.covers([0], 2)

        intruder = await PostgresStore.connect(pg_database, max_size=1)
        try:
            async with intruder._connection() as conn:  # other's lease runs out now
                await conn.execute("UPDATE shard_leases SET expires_at = clock_timestamp()")
            assert await intruder.take_shard_leases(2, [0], "intruder", 30) is None
        finally:
            await intruder.close()
        assert await exit_code(other, 10) == 1
        assert "ERROR leasing: The lease on shard 0 of 2 is gone" in other.log_text()
        assert not fake.live_sessions.covers([0], 2)
    except BaseException:
        for proc in (holder, other):
            sys.stdout.write(f"\n---- {proc.log_path.name} ----\n{proc.log_text()[-6000:]}\n")
        raise
    finally:
        for proc in (other, holder):
            await proc.stop()
