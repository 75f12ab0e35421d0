"""The bot's HTTP server: its settings, /health following the bot's state, added routes."""

from __future__ import annotations

import aiohttp
import pytest
from aiohttp import web

from settings import SettingsError, web_address
from web.server import WebServer


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
