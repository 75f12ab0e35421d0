"""The live table across processes: two sharded bot processes on one PostgreSQL database, a
viewer on each; a move made through one process's socket reaches the other's socket through
the database (LISTEN/NOTIFY), and so does a DM click served by either.

Needs the PostgreSQL server at 127.0.0.1:5432 (or ``TEST_POSTGRES_URL``); skipped without it
(``REQUIRE_POSTGRES=1`` fails instead).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.driver import open_game
from tests.e2e.live import connect, live_env, login
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

pytestmark = pytest.mark.timeout(180)


async def test_a_move_through_one_process_reaches_a_socket_on_the_other(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.click_settle = 0.05
    channel = fake.channel_named("games")
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    ports = [free_port(), free_port()]
    procs = [BotProcess(fake, tmp_path / f"shard{i}.log") for i in (0, 1)]
    envs = [
        {
            "DATABASE_URL": pg_database,
            "DATABASE_PATH": str(tmp_path / f"shard{i}.db"),  # its heartbeat file only
            "SHARD_COUNT": "2",
            "SHARD_IDS": str(i),
            "TURN_TIMEOUT_SECONDS": "0",
            **live_env(fake, ports[i]),
        }
        for i in (0, 1)
    ]
    try:
        for proc, env, port in zip(procs, envs, ports, strict=True):
            await proc.start(env=env, commands=proc is procs[0])
            await wait_ok(port)
        await fake.wait_shards([0, 1], 2)
        await open_game(fake, channel, alice, [bob], computers=0, game="hearts")
        instance = fake.activities.add_instance(channel, [alice, bob])
        async with aiohttp.ClientSession() as http:
            # alice watches through process 0, bob through process 1
            a = await connect(
                http, ports[0], await login(http, fake, ports[0], alice), instance, alice
            )
            b = await connect(http, ports[1], await login(http, fake, ports[1], bob), instance, bob)
            frames = {alice: await a.wait(lambda f: f["type"] == "table"),
                      bob: await b.wait(lambda f: f["type"] == "table")}  # fmt: skip
            assert frames[alice]["seat"] == 0 and frames[bob]["seat"] == 1
            for _ in range(4):  # whoever is to play plays over their own socket
                mover = alice if frames[alice]["moves"] else bob
                other = bob if mover == alice else alice
                sockets = {alice: a, bob: b}
                frame = frames[mover]
                version = frame["version"]
                await sockets[mover].send(
                    {
                        "type": "move",
                        "game_id": frame["game_id"],
                        "step": frame["step"],
                        "action": frame["moves"][0]["action"],
                    }
                )
                for user in (mover, other):  # the other process hears it from the database
                    await sockets[user].wait(
                        lambda f, v=version: f["type"] == "table" and f["version"] > v
                    )
                await asyncio.sleep(0.3)  # forced moves may follow: play from the newest
                for user in (mover, other):
                    frames[user] = sockets[user].latest()
                    assert frames[user]["seat"] == (0 if user == alice else 1)
            await a.close()
            await b.close()
    except BaseException:
        for proc in procs:
            sys.stdout.write(f"\n---- {proc.log_path.name} ----\n{proc.log_text()[-6000:]}\n")
        raise
    finally:
        for proc in procs:
            await proc.stop()
