"""The web server's doors on the real bot process (WEB_PORT, the live table and interactions
over HTTP on): slow and idle clients are cut, oversized bodies refused unread whatever their
encoding, a path that cannot be a file is a 404 that logs nothing as an error, a timestamp
that is not whole seconds is refused, and every answer carries the security headers."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Mapping
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.conftest import BotProcess
from tests.e2e.driver import bot_env
from tests.e2e.live import live_env
from tests.fakediscord import FakeDiscord
from tests.fakediscord.endpoint import Endpoint, wait_ok
from web.server import IDLE_SECONDS

CUT_WITHIN = 60.0  # seconds: what a slow client may hold a connection at most
MEGABYTE = 1024 * 1024


async def start(fake: FakeDiscord, bot: BotProcess, tmp_path: Path) -> Endpoint:
    endpoint = fake.serve_interactions_over_http()
    await bot.start(env={**bot_env(tmp_path), **live_env(fake, endpoint.port)})
    await wait_ok(endpoint.port)
    return endpoint


class Recorder(asyncio.Protocol):
    """A raw connection that keeps every byte it is sent and when it was closed."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closed: asyncio.Future[float] = asyncio.get_running_loop().create_future()

    def data_received(self, data: bytes) -> None:
        self.data.extend(data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closed.done():
            self.closed.set_result(time.monotonic())

    @property
    def status(self) -> int | None:
        found = re.match(rb"HTTP/1\.1 (\d{3})", bytes(self.data))
        return int(found.group(1)) if found else None


async def open_raw(port: int) -> tuple[asyncio.Transport, Recorder]:
    loop = asyncio.get_running_loop()
    transport, recorder = await loop.create_connection(Recorder, "127.0.0.1", port)
    return transport, recorder


async def slow_headers(port: int) -> float:
    """Sends a request's headers one byte a second; how long until the server cut it."""
    transport, recorder = await open_raw(port)
    began = time.monotonic()
    header = b"GET /health HTTP/1.1\r\nHost: bot\r\nX-Slow: " + b"a" * 200
    for byte in header:
        if recorder.closed.done() or time.monotonic() - began > CUT_WITHIN:
            break
        transport.write(bytes([byte]))
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(recorder.closed), 1.0)
    transport.close()
    return (await recorder.closed) - began


async def idle_after_one_answer(port: int) -> tuple[int | None, float]:
    """A keep-alive connection that asks once and then says nothing."""
    transport, recorder = await open_raw(port)
    transport.write(b"GET /health HTTP/1.1\r\nHost: bot\r\n\r\n")
    answered = time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(recorder.closed), CUT_WITHIN)
    transport.close()
    return recorder.status, (await recorder.closed) - answered


async def test_slow_and_idle_clients_are_cut(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    """20 connections sending their headers one byte a second, and one idle after an answer:
    all closed by the server after IDLE_SECONDS (10 s), far within a minute."""
    endpoint = await start(fake_discord, bot_process, tmp_path)
    idler = asyncio.ensure_future(idle_after_one_answer(endpoint.port))
    cut = await asyncio.gather(*(slow_headers(endpoint.port) for _ in range(20)))
    status, idle = await idler
    assert status == 200
    assert max(cut) < CUT_WITHIN and idle < CUT_WITHIN, (cut, idle)
    assert min(cut) >= IDLE_SECONDS - 1  # the server's deadline, not the test's
    await wait_ok(endpoint.port)  # and it still serves


def chunked(port: int, path: str, total: int) -> tuple[int | None, bool]:
    """POSTs ``total`` bytes in chunks and never the last chunk: the body never ends, so an
    answer can only come from a server that stopped reading it. The answer's status, and
    whether the server closed the connection (within 15 s).

    Plain blocking sockets, the body sent from a thread of its own: a write that fails once
    the server has closed must not keep the answer already received from being read."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    piece = b"[" * 16384
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(head)

        def send() -> None:
            with contextlib.suppress(OSError):
                for _ in range(total // len(piece)):
                    sock.sendall(b"%x\r\n%s\r\n" % (len(piece), piece))

        sender = threading.Thread(target=send, daemon=True)
        sender.start()
        answer, closed = bytearray(), False
        try:
            while data := sock.recv(65536):
                answer.extend(data)
            closed = True
        except ConnectionError:
            closed = True
        except TimeoutError:
            pass
    sender.join(timeout=15)
    found = re.match(rb"HTTP/1\.1 (\d{3})", bytes(answer))
    return (int(found.group(1)) if found else None), closed


async def test_oversized_bodies_are_refused_unread(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    endpoint = await start(fake, bot_process, tmp_path)
    for path in ("/api/token", "/interactions"):
        status, closed = await asyncio.to_thread(chunked, endpoint.port, path, MEGABYTE)
        assert status == 413, path
        assert closed, path  # closed by the server, the rest never read
        transport, declared = await open_raw(endpoint.port)
        transport.write(
            f"POST {path} HTTP/1.1\r\nHost: bot\r\nContent-Length: {MEGABYTE}\r\n\r\n".encode()
        )
        await asyncio.wait_for(asyncio.shield(declared.closed), 15)
        transport.close()
        assert declared.status == 413, path
    # /api/token's own 4 kB, under the server's 128 kB, holds for a chunked body too
    status, closed = await asyncio.to_thread(chunked, endpoint.port, "/api/token", 16384)
    assert (status, closed) == (413, True)
    assert fake.activities.exchanges == 0
    log = bot_process.log_text()
    assert "refused POST /api/token from 127.0.0.1: body too large" in log
    assert "refused POST /interactions from 127.0.0.1: body too large" in log


async def test_paths_headers_and_timestamps(
    fake_discord: FakeDiscord, bot_process: BotProcess, tmp_path: Path
) -> None:
    fake = fake_discord
    endpoint = await start(fake, bot_process, tmp_path)
    base = f"http://127.0.0.1:{endpoint.port}"
    before = len(bot_process.log_text())
    async with aiohttp.ClientSession() as http:
        for path in ("/index.html%00.js", "/%00", "/assets/..%2f..%2fbot.py", "/.env", "/a\\b"):
            async with http.get(f"{base}{path}") as response:
                assert response.status == 404, path
        answers: dict[str, tuple[int, Mapping[str, str]]] = {}
        for path in ("/", "/api/config", "/health", "/no-such-file.js"):
            async with http.get(f"{base}{path}") as response:
                answers[path] = (response.status, response.headers)
        body = json.dumps({"id": "5", "type": 1}).encode()
        for stamp in ("nan", "inf", "-inf", f"{time.time():.3f}", "1e9", " 1", "+1"):
            signature = endpoint.key.sign(stamp.encode() + body).signature.hex()
            signed = {"X-Signature-Ed25519": signature, "X-Signature-Timestamp": stamp}
            async with http.post(f"{base}/interactions", data=body, headers=signed) as response:
                assert response.status == 401, stamp
                answers[f"interactions {stamp}"] = (response.status, response.headers)
    assert answers["/no-such-file.js"][0] == 404 and answers["/health"][0] == 200
    assert answers["/api/config"][0] == 200
    for path, (_status, headers) in answers.items():
        policy = headers.get("Content-Security-Policy", "")
        assert "default-src 'none'" in policy, path
        ancestors = re.search(r"frame-ancestors ([^;]*)", policy)
        assert ancestors is not None, path
        allowed = ancestors.group(1).split()
        for origin in ("https://discord.com", "https://*.discord.com", "https://*.discordapp.com"):
            assert origin in allowed, (path, origin)
        assert f"https://{fake.application_id}.discordsays.com" in allowed, path
        assert headers.get("X-Content-Type-Options") == "nosniff", path
        assert headers.get("Referrer-Policy") == "no-referrer", path
        assert not re.search(r"\d|aiohttp|Python", headers.get("Server", "")), path
    logged = bot_process.log_text()[before:]
    assert not re.search(r"^\S+ \S+ (ERROR|CRITICAL) ", logged, re.MULTILINE), logged
    assert "Traceback" not in logged
    assert "refused a POST /interactions from 127.0.0.1: bad timestamp" in logged


@pytest.fixture(autouse=True)
def _short(request: pytest.FixtureRequest) -> None:
    """These tests start one bot each and wait at most a minute on a socket."""
    request.applymarker(pytest.mark.timeout(120))
