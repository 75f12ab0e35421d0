"""Minimal clients for testing the fake itself without a bot process: a raw gateway connection
(identify with a shard, collect dispatches) and a raw REST call that returns status and headers.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import aiohttp

if TYPE_CHECKING:
    from .server import FakeDiscord

JSON = dict[str, Any]


@dataclass
class RestAnswer:
    """Status, headers and body (JSON, or text when not JSON) of one REST call."""

    status: int
    headers: dict[str, str]
    body: Any


async def rest_call(
    fake: FakeDiscord,
    method: str,
    path: str,
    body: Any = None,
    *,
    token: str | None = None,
) -> RestAnswer:
    """``method /api/v10<path>`` with the bot token (``token=""``: no Authorization)."""
    used = fake.token if token is None else token
    headers = {"Authorization": f"Bot {used}"} if used else {}
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"{fake.url}/api/v10{path}", json=body, headers=headers) as resp,
    ):
        text = await resp.text()
        try:
            parsed: Any = json.loads(text) if text else None
        except ValueError:
            parsed = text
        return RestAnswer(resp.status, dict(resp.headers), parsed)


@dataclass
class RawShard:
    """One gateway connection identified as ``shard`` (None: no shard key in IDENTIFY)."""

    fake: FakeDiscord
    shard: tuple[int, int] | None = None
    intents: int = 0
    frames: list[JSON] = field(default_factory=list)
    close_code: int | None = None
    _session: aiohttp.ClientSession | None = None
    _ws: aiohttp.ClientWebSocketResponse | None = None
    _reader: asyncio.Task[None] | None = None

    async def connect(self, token: str | None = None) -> None:
        """Open the socket, read HELLO, send IDENTIFY; frames are collected from then on."""
        self._session = aiohttp.ClientSession()
        self._ws = await self._session.ws_connect(self.fake.gateway_url)
        hello = await self._ws.receive_json(timeout=5)
        assert hello["op"] == 10
        identify: JSON = {"token": token or self.fake.token, "intents": self.intents}
        identify["properties"] = {}
        if self.shard is not None:
            identify["shard"] = list(self.shard)
        await self._ws.send_json({"op": 2, "d": identify})
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        assert self._ws is not None
        async for msg in self._ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))
        self.close_code = self._ws.close_code

    def events(self, name: str) -> list[JSON]:
        """The ``d`` of every dispatch called ``name`` received so far."""
        return [f["d"] for f in self.frames if f.get("op") == 0 and f.get("t") == name]

    async def wait_event(self, name: str, timeout: float = 5.0, **match: str) -> JSON:
        """The first dispatch ``name`` whose top-level fields equal ``match`` (as strings)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for data in self.events(name):
                if all(str(data.get(k)) == v for k, v in match.items()):
                    return data
            await asyncio.sleep(0.02)
        raise TimeoutError(f"no {name} {match} on shard {self.shard}")

    async def wait_closed(self, timeout: float = 5.0) -> int | None:
        if self._reader is not None:
            await asyncio.wait_for(asyncio.shield(self._reader), timeout)
        return self.close_code

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._reader, 2)
        if self._session is not None:
            await self._session.close()
