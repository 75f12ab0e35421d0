"""Interactions POSTed to the bot's Interactions Endpoint URL, signed as Discord signs them.

Once a test calls :meth:`FakeDiscord.serve_interactions_over_http`, the fake delivers every
interaction this way and never as a gateway INTERACTION_CREATE (Discord's two ways are
mutually exclusive), and the bot processes it starts get INTERACTIONS=http, the application's
public key and the port to listen on. The signature is Ed25519 over the timestamp followed by
the raw body, hex in ``X-Signature-Ed25519``; the timestamp is Unix seconds.
"""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections import Counter
from typing import Any

import aiohttp
from nacl.signing import SigningKey


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def wait_ok(port: int, timeout: float = 20.0) -> None:
    """Until ``GET /health`` on ``port`` answers 200 (a worker has no gateway session to
    wait for)."""
    deadline = time.monotonic() + timeout
    async with aiohttp.ClientSession() as http:
        while True:
            try:
                async with http.get(f"http://127.0.0.1:{port}/health") as response:
                    if response.status == 200:
                        return
            except aiohttp.ClientError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"nothing served on port {port} within {timeout} s")
            await asyncio.sleep(0.1)


class Endpoint:
    """Where and how the fake POSTs interactions; ``answers`` keeps every (status, body)."""

    def __init__(self, port: int | None = None) -> None:
        self.port = free_port() if port is None else port
        self.key = SigningKey.generate()
        self.answers: list[tuple[int, str]] = []
        self.served_by: Counter[str] = Counter()  # a balancer's X-Served-By, where it sets one
        self._http: aiohttp.ClientSession | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/interactions"

    @property
    def public_key(self) -> str:
        """The application's public key, hex, as the Developer Portal shows it."""
        return self.key.verify_key.encode().hex()

    def bot_environment(self) -> dict[str, str]:
        return {
            "INTERACTIONS": "http",
            "DISCORD_PUBLIC_KEY": self.public_key,
            "WEB_PORT": str(self.port),
        }

    def sign(self, body: bytes, timestamp: float | None = None) -> dict[str, str]:
        stamp = str(int(time.time() if timestamp is None else timestamp))
        return {
            "Content-Type": "application/json",
            "X-Signature-Ed25519": self.key.sign(stamp.encode() + body).signature.hex(),
            "X-Signature-Timestamp": stamp,
        }

    async def post(
        self, payload: Any, *, body: bytes | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, str]:
        """POST ``payload`` signed now (or ``body`` with ``headers`` as given, for forgeries)."""
        if self._http is None:
            self._http = aiohttp.ClientSession()
        data = json.dumps(payload).encode() if body is None else body
        sent = self.sign(data) if headers is None else headers
        async with self._http.post(self.url, data=data, headers=sent) as response:
            answer = (response.status, await response.text())
            self.served_by[response.headers.get("X-Served-By", "")] += 1
        self.answers.append(answer)
        return answer

    async def close(self) -> None:
        if self._http is not None:
            await self._http.close()
            self._http = None
