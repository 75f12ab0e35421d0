"""Viewers of the live table in the end-to-end tests: a login through the fake's OAuth2, a
websocket client that keeps every frame it is sent, and the game's state at a frame's version
replayed from the bot's database (to check each frame against the seat's own view)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import time
from pathlib import Path
from typing import Any

import aiohttp

from engine import GAMES
from tests.fakediscord import FakeDiscord
from tests.fakediscord.activities import CLIENT_SECRET

JSON = dict[str, Any]


def live_env(fake: FakeDiscord, port: int) -> dict[str, str]:
    return {
        "WEB_PORT": str(port),
        "DISCORD_CLIENT_ID": str(fake.application_id),
        "DISCORD_CLIENT_SECRET": CLIENT_SECRET,
    }


def loopback(n: int) -> aiohttp.TCPConnector:
    """A connector whose connections come from the ``n``-th loopback address (127.1.x.y): one
    address per viewer, so that many viewers in one test are not counted as one client by the
    web edge's limits per address (web/guard.py)."""
    return aiohttp.TCPConnector(local_addr=(f"127.1.{n // 250}.{n % 250 + 1}", 0))


async def login(http: aiohttp.ClientSession, fake: FakeDiscord, port: int, user: int) -> str:
    code = fake.activities.issue_code(user)
    async with http.post(f"http://127.0.0.1:{port}/api/token", json={"code": code}) as response:
        assert response.status == 200, await response.text()
        return str((await response.json())["session"])


class Client:
    """One viewer's socket: every frame it was sent, and how it closed."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, user: int) -> None:
        self.ws = ws
        self.user = user
        self.frames: list[JSON] = []
        self.times: list[float] = []  # when each frame arrived (time.perf_counter)
        self.closed: int | None = None
        self._new = asyncio.Event()
        self._reader = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        async for message in self.ws:
            if message.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(message.data))
                self.times.append(time.perf_counter())
                self._new.set()
        self.closed = self.ws.close_code
        self._new.set()

    async def send(self, data: JSON) -> None:
        await self.ws.send_str(json.dumps(data))

    async def wait(self, check: Any, timeout: float = 15.0) -> JSON:
        """The first frame (oldest first) for which ``check(frame)`` holds."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for frame in self.frames[seen:]:
                if check(frame):
                    return frame
            seen = len(self.frames)
            if self.closed is not None:
                raise AssertionError(f"socket closed ({self.closed}) before the frame came")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no such frame; last: {self.frames[-1:]}")
            self._new.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._new.wait(), left)

    async def closed_with(self, timeout: float = 10.0) -> int | None:
        await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.closed

    def tables(self) -> list[JSON]:
        return [f for f in self.frames if f["type"] == "table"]

    def latest(self) -> JSON:
        return self.tables()[-1]

    async def close(self) -> None:
        await self.ws.close()
        self._reader.cancel()


async def connect(
    http: aiohttp.ClientSession, port: int, session: str, instance: str, user: int
) -> Client:
    """A socket opened as the page opens it: the instance in the address (for a balancer),
    the session in the hello."""
    ws = await http.ws_connect(f"http://127.0.0.1:{port}/api/live", params={"instance": instance})
    client = Client(ws, user)
    await client.send({"type": "hello", "session": session, "instance": instance})
    return client


def state_at(db: Path, game_id: int, version: int) -> Any:
    """The game's engine state at ``version``, replayed from its seed and action log."""
    with sqlite3.connect(db) as conn:
        name, seed = conn.execute(
            "SELECT game, seed FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        seats = conn.execute("SELECT COUNT(*) FROM seats WHERE game_id = ?", (game_id,)).fetchone()
        actions = conn.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? AND seq <= ? ORDER BY seq",
            (game_id, version),
        ).fetchall()
    game = GAMES[name]
    state = game.new_game(int(seats[0]), int(seed))
    for seat, action in actions:
        state = game.apply(state, int(seat), game.parse_action(action))
    return state
