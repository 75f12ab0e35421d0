"""The shipped balancer's hash by game (deploy/haproxy.cfg) over four workers: a thousand games
spread evenly, each game's clicks always on one worker. The workers here only say who they
are: what is measured is HAProxy's choice, with the shipped configuration.

Needs HAProxy (tests/e2e/balancer.py).
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from tests.e2e.balancer import Balancer, haproxy
from tests.fakediscord.endpoint import free_port, wait_ok

pytestmark = pytest.mark.timeout(120)
WORKERS = 4
GAMES = 1000
# The most and least of the even share one worker may get; at weight 1 (16 points of the
# ring per worker) one of four got 0.68x and another 1.16x of these games.
EVEN = (0.9, 1.1)


@pytest.fixture
async def workers() -> AsyncIterator[list[int]]:
    """Ports of four stand-in workers: healthy, answering every interaction with 200."""

    async def healthy(_request: web.Request) -> web.Response:
        return web.Response(text="ok")

    runners = []
    ports = [free_port() for _ in range(WORKERS)]
    for port in ports:
        app = web.Application()
        app.router.add_get("/health", healthy)
        app.router.add_post("/interactions", healthy)
        runner = web.AppRunner(app)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        runners.append(runner)
    for port in ports:
        await wait_ok(port)
    yield ports
    for runner in runners:
        await runner.cleanup()


def click(game_id: int) -> bytes:
    """A move button's interaction, as far as the balancer reads it (its custom_id)."""
    data = {"type": 3, "data": {"component_type": 2, "custom_id": f"move:{game_id}:3:play"}}
    return json.dumps(data).encode()


async def test_games_spread_evenly_and_each_stays_on_its_worker(
    workers: list[int], tmp_path: Path
) -> None:
    haproxy()
    front = free_port()
    with Balancer(tmp_path, front, workers, shipped=True) as balancer:
        await balancer.all_up()
        url = f"http://127.0.0.1:{front}/interactions"
        async with aiohttp.ClientSession() as http:

            async def served_by(game_id: int) -> str:
                async with http.post(url, data=click(game_id)) as answer:
                    assert answer.status == 200
                    return answer.headers["X-Served-By"]

            chosen = {game: await served_by(game) for game in range(1, GAMES + 1)}
            again = await asyncio.gather(*(served_by(game) for game in range(1, 101)))
    assert again == [chosen[game] for game in range(1, 101)]  # one worker per game
    shares = Counter(chosen.values())
    assert len(shares) == WORKERS, shares
    even = GAMES / WORKERS
    low, high = EVEN
    assert all(low * even <= n <= high * even for n in shares.values()), shares
