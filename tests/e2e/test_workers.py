"""Three workers (`bot.py worker`) behind HAProxy on one PostgreSQL database, end to end.

Discord POSTs every interaction to the balancer (tests/fakediscord/endpoint.py), which spreads
them over the workers round robin; one gateway process keeps the shard and syncs the
commands, and serves no interaction. A Grinch, a Hearts and a Ten game are played at once
from the DMs; mid-game one worker is SIGKILLed (the balancer's health check takes it out, the
games go on through the other two), then started again. Afterwards every acknowledged click
is in the action log exactly once and no other player move is, every game finished, and
every worker served clicks. (Gnoming, whose moves are select menus, is played over HTTP in
tests/e2e/test_http_interactions.py.)

Needs PostgreSQL (as tests/e2e/test_shards.py) and HAProxy (tests/e2e/balancer.py).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from cogs.upkeep import SHARED_REPAIR_EVERY
from tests.e2e.balancer import Balancer, haproxy
from tests.e2e.driver import assert_no_interaction_on_the_gateway, open_game, quiet
from tests.e2e.ledger import Database, Ledger, assert_exactly_once, play
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import free_port, wait_ok
from tests.fakediscord.process import BotProcess

pytestmark = pytest.mark.timeout(300)  # about 100 s on 2 idle cores
WORKERS = 3


def dump_logs(procs: list[BotProcess], balancer: Balancer | None) -> None:
    for proc in procs:
        sys.stdout.write(f"\n---- {proc.log_path.name} ----\n{proc.log_text()[-5000:]}\n")
    if balancer is not None and balancer.log.exists():
        sys.stdout.write(f"\n---- haproxy ----\n{balancer.log.read_text()[-3000:]}\n")


async def test_three_workers_behind_a_balancer_survive_a_kill(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    haproxy()  # skip (or fail under REQUIRE_HAPROXY=1) before starting anything
    fake, rng, ledger = fake_discord, random.Random(21), Ledger()
    fake.click_settle = 0.1
    endpoint = fake.serve_interactions_over_http()
    guild = fake.guild_named("Test Server")
    channels = {
        game: fake.add_channel(guild, f"{game}-table")
        for game in ("grinch", "hearts", "ten", "gnome")
    }
    alice, bob, carol = (fake.user_named(n) for n in ("alice", "bob", "carol"))
    common = {"DATABASE_URL": pg_database, "TURN_TIMEOUT_SECONDS": "0"}
    gateway = BotProcess(fake, tmp_path / "gateway.log")
    ports = [free_port() for _ in range(WORKERS)]
    workers = [BotProcess(fake, tmp_path / f"worker{i}.log") for i in range(WORKERS)]
    envs = [
        {**common, "WEB_PORT": str(port), "DATABASE_PATH": str(tmp_path / f"worker{i}.db")}
        for i, port in enumerate(ports)
    ]
    db = Database(pg_database)
    db.watch_shown(fake)
    balancer: Balancer | None = None
    try:
        await gateway.start(
            env={
                **common,
                "INTERACTIONS": "gateway",
                "WEB_PORT": "",
                "DATABASE_PATH": str(tmp_path / "gateway.db"),
            }
        )
        with Balancer(tmp_path, endpoint.port, ports) as balancer:
            for worker, env, port in zip(workers, envs, ports, strict=True):
                await worker.start(env=env, args=("worker",), wait=False)
                await wait_ok(port)
            await open_game(fake, channels["grinch"], alice, [bob], 1, game="grinch")
            await open_game(fake, channels["hearts"], carol, [], 1, game="hearts")
            await open_game(fake, channels["ten"], bob, [carol], 0, game="ten")
            assert len(await db.statuses()) == 3
            await play(fake, [alice, bob, carol], rng, ledger, until=db.all_over, moves=15)
            await quiet(fake)
            workers[1].kill()  # no warning; the balancer's check takes it out
            before = sum(ledger.acked.values())
            # A table or hand edit the killed worker had not sent yet is redrawn by another
            # process once it has seen the game behind twice (cogs/upkeep.py, a look every
            # SHARED_REPAIR_EVERY seconds): until then that game's player may have no live
            # button.
            after_kill = 2 * SHARED_REPAIR_EVERY + 20
            await play(
                fake,
                [alice, bob, carol],
                rng,
                ledger,
                until=db.all_over,
                moves=10,
                stall=after_kill,
            )
            assert sum(ledger.acked.values()) > before, "no move served with a worker dead"
            await workers[1].start(env=envs[1], args=("worker",), wait=False)
            await wait_ok(ports[1])
            await play(fake, [alice, bob, carol], rng, ledger, until=db.all_over, stall=after_kill)
            await quiet(fake)
            await assert_exactly_once(db, ledger)
            served = [endpoint.served_by[f"w{i}"] for i in range(WORKERS)]
            assert all(served) and sum(served) == len(endpoint.answers), endpoint.served_by
            assert {status for status, _ in endpoint.answers} == {202}
            assert_no_interaction_on_the_gateway(fake)
    except BaseException:
        dump_logs([gateway, *workers], balancer)
        sys.stdout.write(f"\n---- database ----\n{await db.describe()}\n")
        raise
    finally:
        for proc in (*workers, gateway):
            await proc.stop()
        await db.close()
