"""The bot's HTTP server: its settings, /health following the bot's state, added routes, the
limits of every door (bodies, slow and idle clients) and the headers of every answer."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiohttp import web

from settings import SettingsError, web_address
from web.headers import content_security_policy
from web.server import MAX_BODY, WebServer, read_capped


def test_web_port_unset_means_no_server() -> None:
    assert web_address({}) == ("127.0.0.1", None)
    assert web_address({"WEB_HOST": "0.0.0.0", "WEB_PORT": "8080"}) == ("0.0.0.0", 8080)


@pytest.mark.parametrize("port", ["http", "-1", "70000"])
def test_a_wrong_web_port_is_named(port: str) -> None:
    with pytest.raises(SettingsError, match="WEB_PORT"):
        web_address({"WEB_PORT": port})


async def test_health_follows_the_bot_and_routes_are_served() -> None:
    ready = False

    async def hello(_request: web.Request) -> web.Response:
        return web.Response(text="hello")

    server = WebServer("127.0.0.1", 0, lambda: ready)
    server.add_routes([web.get("/hello", hello)])
    await server.start()
    try:
        base = f"http://127.0.0.1:{server.bound_port}"
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{base}/health") as response:
                assert response.status == 503
            ready = True
            async with http.get(f"{base}/health") as response:
                assert response.status == 200
                assert await response.json() == {"ok": True}
            async with http.get(f"{base}/hello") as response:
                assert await response.text() == "hello"
    finally:
        await server.stop()
    assert server.bound_port is None


def _exchange(port: int, request: bytes, wait: float) -> bytes:
    answer = bytearray()
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        with contextlib.suppress(OSError):  # the server may close before all is sent
            sock.sendall(request)
        with contextlib.suppress(ConnectionError, TimeoutError):
            while data := sock.recv(65536):
                answer.extend(data)
    return bytes(answer)


async def raw_answer(port: int, request: bytes, wait: float = 5.0) -> bytes:
    """Sends ``request`` as is and returns what came back before the server closed (or
    ``wait`` seconds passed). A blocking socket in a thread: an answer already received is
    read even when the server then resets the connection (a body it left unread)."""
    return await asyncio.to_thread(_exchange, port, request, wait)


@pytest.fixture
async def capped() -> AsyncIterator[tuple[int, list[bytes]]]:
    """A server whose /echo reads at most 4096 bytes with read_capped, within 0.5 s."""
    bodies: list[bytes] = []

    async def echo(request: web.Request) -> web.Response:
        bodies.append(await read_capped(request, 4096, seconds=0.5))
        return web.Response(text="ok")

    server = WebServer("127.0.0.1", 0, lambda: True, idle_seconds=0.5)
    server.add_routes([web.post("/echo", echo)])
    await server.start()
    try:
        assert server.bound_port is not None
        yield server.bound_port, bodies
    finally:
        await server.stop()


def chunks(size: int, *, end: bool) -> bytes:
    head = b"POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
    return head + b"%x\r\n%s\r\n" % (size, b"x" * size) + (b"0\r\n\r\n" if end else b"")


async def test_read_capped_takes_a_body_up_to_its_limit(capped: tuple[int, list[bytes]]) -> None:
    port, bodies = capped
    answer = await raw_answer(port, chunks(4096, end=True), wait=1.0)
    assert answer.startswith(b"HTTP/1.1 200")
    assert bodies == [b"x" * 4096]


async def test_a_chunked_body_over_the_limit_is_refused_without_its_end(
    capped: tuple[int, list[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    """The body never ends: only a server that stopped reading at the limit can answer."""
    port, bodies = capped
    answer = await raw_answer(port, chunks(5000, end=False))
    assert answer.startswith(b"HTTP/1.1 413") and b"Connection: close" in answer
    assert bodies == []
    assert "refused POST /echo from 127.0.0.1: body too large" in caplog.text


async def test_a_declared_length_over_the_server_limit_is_refused_at_once(
    capped: tuple[int, list[bytes]],
) -> None:
    port, _bodies = capped
    head = f"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: {MAX_BODY + 1}\r\n\r\n"
    assert (await raw_answer(port, head.encode())).startswith(b"HTTP/1.1 413")


async def test_a_body_too_slow_is_refused(capped: tuple[int, list[bytes]]) -> None:
    port, bodies = capped
    head = b"POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc"
    assert (await raw_answer(port, head)).startswith(b"HTTP/1.1 408")
    assert bodies == []


async def test_unfinished_headers_and_idle_connections_are_closed(
    capped: tuple[int, list[bytes]],
) -> None:
    """idle_seconds=0.5: both are closed by the server well before the test's 5 s."""
    port, _bodies = capped
    loop = asyncio.get_running_loop()
    began = loop.time()
    assert await raw_answer(port, b"GET /health HTTP/1.1\r\nHost: t\r\nX-Sl") == b""
    answer = await raw_answer(port, b"GET /health HTTP/1.1\r\nHost: t\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200")
    assert loop.time() - began < 4


async def test_every_answer_carries_the_security_headers() -> None:
    server = WebServer("127.0.0.1", 0, lambda: True, client_id="1234")
    await server.start()
    try:
        base = f"http://127.0.0.1:{server.bound_port}"
        async with aiohttp.ClientSession() as http:
            for path, status in (("/health", 200), ("/nothing", 404)):
                async with http.get(base + path) as response:
                    assert response.status == status
                    headers = response.headers
                    assert headers["Content-Security-Policy"] == content_security_policy("1234")
                    assert headers["X-Content-Type-Options"] == "nosniff"
                    assert headers["Referrer-Policy"] == "no-referrer"
                    assert headers["Server"] == "cardtable"
    finally:
        await server.stop()


def test_the_policy_allows_the_page_and_discords_frames_only() -> None:
    policy = {
        name: value
        for name, _, value in (p.partition(" ") for p in content_security_policy("99").split("; "))
    }
    assert policy["default-src"] == "'none'"
    assert policy["script-src"] == "'self' https://99.discordsays.com"
    assert policy["connect-src"] == "'self' https://99.discordsays.com wss://99.discordsays.com"
    assert policy["frame-ancestors"].split() == [
        "'self'",
        "https://99.discordsays.com",
        "https://discord.com",
        "https://*.discord.com",
        "https://discordapp.com",
        "https://*.discordapp.com",
    ]
    assert "99" not in content_security_policy(None)


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"GARBAGE\r\n\r\n",
        b"GET /health HTTP/1.1\r\nHost: t\r\nBad Header\r\n\r\n",
        b"GET /" + b"a" * 9000 + b" HTTP/1.1\r\n\r\n",
    ],
)
async def test_a_request_that_is_not_http_is_a_400_and_no_error_in_the_log(
    capped: tuple[int, list[bytes]], caplog: pytest.LogCaptureFixture, request_bytes: bytes
) -> None:
    caplog.set_level(logging.DEBUG)
    port, _bodies = capped
    assert (await raw_answer(port, request_bytes)).startswith(b"HTTP/1.0 400")
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text
    assert "refused a malformed request from 127.0.0.1" in caplog.text
