"""The shipped balancer (deploy/haproxy.cfg) in front of three workers on one PostgreSQL
database, end to end: the live table's websockets of different instances reach different
workers (one instance always the same one), and after a SIGKILL of the worker that serves a
game, that game's clicks are acknowledged well within Discord's 3 s: every retry of a dead
worker goes to another at once, and the first failure takes it out.

Needs PostgreSQL (as tests/e2e/test_shards.py) and HAProxy (tests/e2e/balancer.py).
"""

from __future__ import annotations

import asyncio
import base64
import os
import statistics
import sys
from collections import Counter
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.balancer import Balancer, haproxy
from tests.e2e.driver import channel_message_with_button, find_button, open_game, quiet
from tests.e2e.live import live_env
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import Endpoint, free_port, wait_ok
from tests.fakediscord.process import BotProcess
from tests.fakediscord.records import InteractionRecord

pytestmark = pytest.mark.timeout(240)
WORKERS = 3
INSTANCES = [f"i-{n}" for n in range(12)]
CLICKS = 30  # clicks after the kill, for the acknowledgement's p99
BURST = 10  # of which sent at once, right after the kill


async def socket_served_by(port: int, instance: str) -> tuple[int, str]:
    """Opens the live table's websocket for ``instance`` through the balancer: the status of
    the handshake and the worker that answered it (X-Served-By)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /api/live?instance={instance} HTTP/1.1\r\nHost: table\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)).decode()
    writer.close()
    status = int(head.split(" ", 2)[1])
    served = next(
        line.split(":", 1)[1].strip()
        for line in head.split("\r\n")
        if line.lower().startswith("x-served-by:")
    )
    return status, served


def cycle(items: list[int], count: int) -> list[int]:
    return (items * count)[:count]


async def press(fake: FakeDiscord, channel: int, user: int) -> InteractionRecord:
    """Presses "My hand" on the channel's table (the POST answered, the answer not waited)."""
    table = channel_message_with_button(fake, channel, "My hand")
    return await fake.click(user, int(table["id"]), find_button(table, "My hand").custom_id or "")


async def click_table(fake: FakeDiscord, endpoint: Endpoint, channel: int, user: int) -> str:
    """Presses "My hand" on the channel's table; the worker the balancer sent it to."""
    before = Counter(endpoint.served_by)
    table = channel_message_with_button(fake, channel, "My hand")
    rec = await fake.click(user, int(table["id"]), find_button(table, "My hand").custom_id or "")
    await rec.wait_response()
    (worker,) = (Counter(endpoint.served_by) - before).keys()
    return worker


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[98]


async def test_the_shipped_balancer_spreads_sockets_and_passes_over_a_dead_worker(
    fake_discord: FakeDiscord, pg_database: str, tmp_path: Path
) -> None:
    haproxy()  # skip (or fail under REQUIRE_HAPROXY=1) before starting anything
    fake = fake_discord
    fake.click_settle = 0.0
    endpoint = fake.serve_interactions_over_http()
    guild = fake.guild_named("Test Server")
    channels = [fake.add_channel(guild, f"table-{n}") for n in range(6)]
    alice, bob = fake.user_named("alice"), fake.user_named("bob")
    common = {"DATABASE_URL": pg_database, "TURN_TIMEOUT_SECONDS": "0"}
    gateway = BotProcess(fake, tmp_path / "gateway.log")
    ports = [free_port() for _ in range(WORKERS)]
    workers = [BotProcess(fake, tmp_path / f"worker{i}.log") for i in range(WORKERS)]
    envs = [
        {
            **common,
            **live_env(fake, port),
            "DATABASE_PATH": str(tmp_path / f"worker{i}.db"),
            "TRUSTED_PROXIES": "127.0.0.1",
            "PICTURES": "off",  # the acknowledgement, not the drawing, is measured
        }
        for i, port in enumerate(ports)
    ]
    try:
        await gateway.start(
            env={
                **common,
                "INTERACTIONS": "gateway",
                "WEB_PORT": "",
                "DATABASE_PATH": str(tmp_path / "gateway.db"),
            }
        )
        with Balancer(tmp_path, endpoint.port, ports, shipped=True) as balancer:
            for worker, env, port in zip(workers, envs, ports, strict=True):
                await worker.start(env=env, args=("worker",), wait=False)
                await wait_ok(port)
            await balancer.all_up()  # its health checks (every 2 s) have seen every worker

            # The live table's sockets: by instance, spread over the workers.
            sockets = {i: await socket_served_by(endpoint.port, i) for i in INSTANCES}
            assert {status for status, _ in sockets.values()} == {101}, sockets
            assert len({worker for _, worker in sockets.values()}) >= 2, sockets
            for instance in INSTANCES[:3]:
                assert await socket_served_by(endpoint.port, instance) == sockets[instance]

            # The page's other doors pass too, and a refusal names the client: the address
            # a proxy before the balancer gave, then the balancer's own (both trusted here,
            # as the compose network is in compose.yaml).
            async with aiohttp.ClientSession() as http:
                base = f"http://127.0.0.1:{endpoint.port}"
                async with http.get(f"{base}/api/config") as response:
                    assert response.status == 200
                    assert "frame-ancestors" in response.headers["Content-Security-Policy"]
                forged = {"X-Forwarded-For": "203.0.113.7", "X-Signature-Timestamp": "nan"}
                async with http.post(f"{base}/interactions", data=b"{}", headers=forged) as answer:
                    assert answer.status == 401
                    refused_by = answer.headers["X-Served-By"]
            refuser = workers[int(refused_by.removeprefix("w"))]
            assert "refused a POST /interactions from 203.0.113.7" in refuser.log_text()

            # Games on several workers; the one serving the first game is killed.
            for channel in channels:
                await open_game(fake, channel, alice, [bob], 0, game="hearts")
            await quiet(fake)
            served = {c: await click_table(fake, endpoint, c, alice) for c in channels}
            victim = served[channels[0]]
            orphans = [c for c in channels if served[c] == victim]
            workers[int(victim.removeprefix("w"))].kill()
            # A burst at once (each of its requests meets the dead worker first), then one
            # click after another.
            records = list(
                await asyncio.gather(*(press(fake, c, alice) for c in cycle(orphans, BURST)))
            )
            for channel in cycle(orphans, CLICKS - BURST):
                records.append(await press(fake, channel, alice))
                await records[-1].wait_response()
            for rec in records:
                await rec.wait_response()
            latencies = [rec.ack_latency for rec in records if rec.ack_latency is not None]
            assert len(latencies) == CLICKS
            figure = p99(latencies)
            sys.stdout.write(
                f"\nacknowledgements after the SIGKILL of {victim}: p99 {figure:.3f} s, "
                f"max {max(latencies):.3f} s, median {statistics.median(latencies):.3f} s\n"
            )
            assert figure < 1.0, sorted(latencies)
    except BaseException:
        for proc in (gateway, *workers):
            sys.stdout.write(f"\n---- {proc.log_path.name} ----\n{proc.log_text()[-4000:]}\n")
        raise
    finally:
        for proc in (*workers, gateway):
            await proc.stop()
